// A tokenizer.json's vocabulary: the tokens by id, from hand-written files in the shapes Hugging
// Face writes (a BPE's { token: id } object, a Unigram's [token, score] pairs, added tokens).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "embedlab/tokenizer_json.hpp"
#include "error_of.hpp"

using embedlab::Argument;
using embedlab::tokenizer_json_tokens;
using Tokens = std::vector<std::string>;

TEST_CASE("a BPE vocabulary by id, as the file spells its tokens, with the added tokens") {
  CHECK(tokenizer_json_tokens(R"({"model": {"type": "BPE", "vocab": {"\u0120the": 1, "a": 0,
          "\u00e9": 3}}, "added_tokens": [{"id": 4, "content": "<|endoftext|>"}]})") ==
        Tokens{"a", "\xc4\xa0the", "", "\xc3\xa9", "<|endoftext|>"});
}

TEST_CASE("a Unigram vocabulary: its [token, score] pairs in id order") {
  CHECK(tokenizer_json_tokens(R"({"model": {"type": "Unigram", "vocab": [["<unk>", 0],
          ["\u2581the", -3.5], ["s", -4.0]]}})") == Tokens{"<unk>", "\xe2\x96\x81the", "s"});
}

TEST_CASE("a file that is not a tokenizer's vocabulary is refused, saying why") {
  const auto refused = [](const std::string& text) {
    const auto [argument, message] = error_of([&] { tokenizer_json_tokens(text); });
    CHECK(argument == Argument::weights);
    return message;
  };
  CHECK(refused("{").rfind("tokenizer.json is not JSON: ", 0) == 0);
  CHECK(refused(R"({"model": {}})") ==
        "tokenizer.json has no model.vocab, the tokens of a BPE, WordPiece or Unigram model");
  CHECK(refused(R"({"model": {"vocab": {"a": -1}}})") ==
        "tokenizer.json gives the string \"a\" the id -1, not a whole number from 0 to 4194303");
  CHECK(refused(R"({"model": {"vocab": [["a", 0], 7]}})") ==
        "tokenizer.json's model.vocab[1] is the number 7, not a [token, score] pair");
  CHECK(refused(std::string(embedlab::kMaxTokenizerBytes, ' ')) ==
        "tokenizer.json is 64 MiB or more: not a tokenizer's");
}
