#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <string>

#include "embedlab/error.hpp"
#include "embedlab/ids.hpp"
#include "embedlab/limits.hpp"

using Catch::Contains;
using Catch::Equals;
using Catch::StartsWith;
using embedlab::Ids;
using embedlab::InputError;
using embedlab::parse_ids;

namespace {
const std::string kNoIds = "no token ids: type at least one, e.g. 2, 3, 1";
}

TEST_CASE("parse_ids accepts lists as people type them and as PyTorch prints them") {
  const Ids expected{2, 3, 1};
  CHECK(parse_ids("2, 3, 1") == expected);
  CHECK(parse_ids("2 3 1") == expected);
  CHECK(parse_ids("2,3 1") == expected);
  CHECK(parse_ids("[2, 3, 1]") == expected);
  CHECK(parse_ids("tensor([2, 3, 1])") == expected);
  CHECK(parse_ids("torch.tensor([2,3,1])") == expected);
  CHECK(parse_ids("(2, 3, 1)") == expected);
  CHECK(parse_ids("  \n 2,\n\t3 ,  1 , \r\n") == expected);
  CHECK(parse_ids("[2, 3, 1,]") == expected);
  CHECK(parse_ids("tensor ( [ 2,\n         3,\n         1 ] )") == expected);
}

TEST_CASE("parse_ids reads single ids, zero, leading zeros and the int64 maximum") {
  CHECK(parse_ids("0") == Ids{0});
  CHECK(parse_ids("tensor(5)") == Ids{5});
  CHECK(parse_ids("[7]") == Ids{7});
  CHECK(parse_ids("007") == Ids{7});
  CHECK(parse_ids("-0") == Ids{0});
  CHECK(parse_ids("9223372036854775807") == Ids{std::numeric_limits<std::int64_t>::max()});
}

TEST_CASE("a token that is not an integer is named with its position") {
  CHECK_THROWS_AS(parse_ids("2, x, 1"), InputError);
  CHECK_THROWS_WITH(parse_ids("2, x, 1"),
                    Equals("token 2 is \"x\", which is not an integer: write token ids in plain "
                           "digits, e.g. 2, 3, 1"));
  CHECK_THROWS_WITH(parse_ids("2.5"), StartsWith("token 1 is \"2.5\", which is not an integer"));
  CHECK_THROWS_WITH(parse_ids("4 1e3"), StartsWith("token 2 is \"1e3\", which is not an integer"));
  CHECK_THROWS_WITH(parse_ids("tensor"), StartsWith("token 1 is \"tensor\", which is not"));
  CHECK_THROWS_WITH(parse_ids("1 +2"), StartsWith("token 2 is \"+2\", which is not an integer"));
}

TEST_CASE("a character that cannot be in a list of ids is named") {
  CHECK_THROWS_WITH(parse_ids("2; 3"),
                    Equals("token 1 is \"2;\": \";\" does not belong in a list of ids; separate "
                           "ids with commas or spaces, e.g. 2, 3, 1"));
  CHECK_THROWS_WITH(parse_ids("1 2 3:4"), StartsWith("token 3 is \"3:4\": \":\" does not belong"));
  // A control byte is escaped, so the message stays printable.
  CHECK_THROWS_WITH(parse_ids("1 2\x01"), StartsWith("token 2 is \"2\\x01\": \"\\x01\" does not"));
}

TEST_CASE("a long token is shown cut short") {
  const std::string token(100, 'z');
  CHECK_THROWS_WITH(parse_ids(token),
                    StartsWith("token 1 is \"zzzzzzzzzzzzzzzzzzzzzzzz...\", which is not"));
}

TEST_CASE("a summarised PyTorch print is recognised") {
  CHECK_THROWS_WITH(
      parse_ids("tensor([0, 1, 2, ..., 7, 8, 9])"),
      StartsWith("token 4 is \"...\": PyTorch shortened this tensor") && Contains("ids.tolist()"));
}

TEST_CASE("a negative id is refused with its position and the rule") {
  CHECK_THROWS_WITH(parse_ids("-1"),
                    Equals("token 1 is \"-1\": token ids must be >= 0 (each id picks a row of W, "
                           "counting from 0)"));
  CHECK_THROWS_WITH(parse_ids("3, -12"), StartsWith("token 2 is \"-12\": token ids must be >= 0"));
  // Negative and too large for int64 at once: the sign is the learner's mistake.
  CHECK_THROWS_WITH(parse_ids("-99999999999999999999"), Contains("must be >= 0"));
}

TEST_CASE("an id too large for int64 is refused") {
  CHECK_THROWS_WITH(parse_ids("1, 9223372036854775808"),
                    Equals("token 2 is \"9223372036854775808\", which is too large: token ids "
                           "must fit in int64 (at most 9223372036854775807)"));
}

TEST_CASE("no ids at all is refused with an example") {
  CHECK_THROWS_WITH(parse_ids(""), Equals(kNoIds));
  CHECK_THROWS_WITH(parse_ids(" \n\t "), Equals(kNoIds));
  CHECK_THROWS_WITH(parse_ids("[]"), Equals(kNoIds));
  CHECK_THROWS_WITH(parse_ids("tensor([])"), Equals(kNoIds));
}

TEST_CASE("too many ids are refused with the count and the limit") {
  embedlab::Limits three;
  three.max_ids = 3;
  CHECK(parse_ids("1 2 3", three) == Ids{1, 2, 3});
  CHECK_THROWS_WITH(parse_ids("1 2 3 4", three), Contains("too many token ids") &&
                                                     Contains(" 4 given") &&
                                                     Contains("at most 3 "));

  std::string many;
  for (int i = 0; i < 65537; ++i) many += "0 ";
  CHECK_THROWS_WITH(parse_ids(many), Contains("too many token ids") && Contains(" 65,537 given") &&
                                         Contains("at most 65,536 "));
}

TEST_CASE("brackets must balance, and lists must be flat") {
  CHECK_THROWS_WITH(parse_ids("[2, 3"),
                    Equals("unbalanced brackets: the \"[\" at character 1 is never closed with "
                           "\"]\""));
  CHECK_THROWS_WITH(parse_ids("tensor([2, 3]"),
                    Equals("unbalanced brackets: the \"tensor(\" at character 1 is never closed "
                           "with \")\""));
  CHECK_THROWS_WITH(parse_ids("2, 3]"),
                    Equals("unbalanced brackets: the \"]\" at character 5 has no matching opening "
                           "bracket"));
  CHECK_THROWS_WITH(parse_ids("[1, 2]]"), Contains("the \"]\" at character 7 has no matching"));
  CHECK_THROWS_WITH(parse_ids("tensor([2, 3)"),
                    Equals("mismatched brackets: expected \"]\" to close the \"[\" at character 8, "
                           "found \")\" at character 13"));
  CHECK_THROWS_WITH(parse_ids("[[2, 3]]"),
                    Equals("unexpected \"[\" at character 2: give one flat list of ids, e.g. "
                           "[2, 3, 1]"));
  CHECK_THROWS_WITH(parse_ids("2 (3)"), StartsWith("unexpected \"(\" at character 3"));
}

TEST_CASE("text around the list is refused and located") {
  CHECK_THROWS_WITH(parse_ids("[2, 3] x"),
                    Equals("unexpected text \"x\" at character 8, after the closing bracket"));
  CHECK_THROWS_WITH(parse_ids("tensor([2, 3], dtype=torch.int32)"),
                    Equals("unexpected text: expected \")\" to close the \"tensor(\" at character "
                           "1, found \",\" at character 14"));
  // A non-ASCII character is shown whole, not as half of its UTF-8 bytes.
  CHECK_THROWS_WITH(parse_ids("([1, 2]\u00e9)"), Contains("found \"\u00e9\" at character 8"));
  CHECK_THROWS_WITH(parse_ids("(1, 2)\u00e9"), Contains("text \"\u00e9\" at character 7"));
  CHECK_THROWS_WITH(parse_ids("list(2, 3)"),
                    Equals("unexpected \"list\" at character 1: write ids as 2, 3, 1 or [2, 3, 1] "
                           "or tensor([2, 3, 1])"));
}

TEST_CASE("commas need an id before them, except one at the end") {
  CHECK_THROWS_WITH(parse_ids("2,,3"),
                    Equals("empty entry: the comma at character 3 has no id before it"));
  CHECK_THROWS_WITH(parse_ids(", 2"), Contains("the comma at character 1 has no id"));
  CHECK_THROWS_WITH(parse_ids("[,]"), Contains("the comma at character 2 has no id"));
}

TEST_CASE("check_ids explains an out-of-range id in PyTorch's words plus the detail") {
  CHECK_NOTHROW(embedlab::check_ids({0, 3, 1}, 4));
  CHECK_THROWS_AS(embedlab::check_ids({1, 2, 7}, 4), InputError);
  CHECK_THROWS_WITH(embedlab::check_ids({1, 2, 7}, 4),
                    Equals("index out of range in self: id 7 at position 3 is not below the "
                           "vocabulary size V = 4 (valid ids are 0..3)"));
  // The boundary: V itself is one past the last row.
  CHECK_THROWS_WITH(embedlab::check_ids({4}, 4),
                    StartsWith("index out of range in self: id 4 at position 1 is not below"));
  CHECK_THROWS_WITH(embedlab::check_ids({0, -1}, 4),
                    Equals("index out of range in self: id -1 at position 2 is negative; ids for "
                           "the vocabulary size V = 4 are 0..3"));
}

TEST_CASE("check_ids needs a vocabulary of at least one row") {
  CHECK_THROWS_WITH(embedlab::check_ids({0}, 0),
                    Equals("the vocabulary size V must be at least 1, got V = 0"));
  CHECK_THROWS_WITH(embedlab::check_ids({0}, -5), Contains("got V = -5"));
}

TEST_CASE("default_vocab is max(ids) + 1, as the notebook sets it") {
  CHECK(embedlab::default_vocab(parse_ids("tensor([2, 3, 1])")) == 4);
  CHECK(embedlab::default_vocab({0}) == 1);
  CHECK(embedlab::default_vocab({5, 0, 5}) == 6);
  CHECK_THROWS_WITH(embedlab::default_vocab({}), Equals(kNoIds));
  CHECK_THROWS_WITH(embedlab::default_vocab({2, -1}),
                    StartsWith("token 2 is \"-1\": token ids must be >= 0"));
  CHECK_THROWS_WITH(embedlab::default_vocab({std::numeric_limits<std::int64_t>::max()}),
                    Contains("would not fit in int64"));
}

TEST_CASE("batches are separated by semicolons", "[ids]") {
  using embedlab::parse_batches;
  CHECK(parse_batches("1,2; 3,3; 0,1") == std::vector<Ids>{{1, 2}, {3, 3}, {0, 1}});
  CHECK(parse_batches("[4, 5];\n[6];") == std::vector<Ids>{{4, 5}, {6}});
  CHECK(parse_batches("7") == std::vector<Ids>{{7}});
  CHECK_THROWS_WITH(parse_batches("1,2;;3"),
                    "batch 2 is empty: give each batch at least one id, and separate batches "
                    "with semicolons, e.g. 1, 2; 3, 3");
  CHECK_THROWS_WITH(parse_batches("1; 2, x"), Catch::StartsWith("batch 2: token 2 is \"x\""));
  CHECK_THROWS_WITH(parse_batches(" ; "), Catch::StartsWith("batch 1 is empty"));
  embedlab::Limits small;
  small.max_ids = 3;
  CHECK_THROWS_WITH(parse_batches("1, 2; 3, 4", small),
                    Catch::Contains("too many token ids: 4 given, at most 3"));
}
