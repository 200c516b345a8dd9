#include "embedlab/ids.hpp"

#include <algorithm>
#include <charconv>
#include <limits>
#include <string>
#include <utility>

#include "embedlab/error.hpp"
#include "embedlab/format.hpp"
#include "quoted.hpp"

namespace embedlab {
namespace {

constexpr const char* kNoIds = "no token ids: type at least one, e.g. 2, 3, 1";

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_closer(char c) { return c == ']' || c == ')'; }
bool ends_token(char c) {
  return is_space(c) || c == ',' || c == '[' || c == ']' || c == '(' || c == ')';
}

std::string negative_id_message(Index position, const std::string& quoted_id) {
  return "token " + std::to_string(position) + " is " + quoted_id +
         ": token ids must be >= 0 (each id picks a row of W, counting from 0)";
}

// Whether a token (never empty) begins with a minus sign, and what follows it.
std::pair<bool, std::string_view> signed_digits(std::string_view token) {
  const bool negative = token[0] == '-';
  return {negative, negative ? token.substr(1) : token};
}
bool digits_only(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), is_digit);
}

// Why `token`, at 1-based `position`, is no id. Every message of the scanner is spelled out of
// line, only when there is an error: the scan runs at every keystroke of the page, and a small
// loop is also quick for the browser to recompile once it is hot.
[[gnu::cold, gnu::noinline]] InputError not_an_id(std::string_view token, Index position) {
  const std::string where = "token " + std::to_string(position) + " is " + quoted(token);
  const auto [negative, digits] = signed_digits(token);
  if (digits_only(digits)) {
    if (negative) return InputError(Argument::ids, negative_id_message(position, quoted(token)));
    return InputError(Argument::ids,
                      where + ", which is too large: token ids must fit in int64 (at most " +
                          std::to_string(std::numeric_limits<std::int64_t>::max()) + ")");
  }
  if (token == "...")
    return InputError(Argument::ids,
                      where +
                          ": PyTorch shortened this tensor when printing it; print every id "
                          "with ids.tolist() and paste that");
  const auto stray = std::find_if(token.begin(), token.end(), [](char c) {
    return static_cast<unsigned char>(c) < 0x80 && !is_letter(c) && !is_digit(c) && c != '.' &&
           c != '-' && c != '+';
  });
  if (stray != token.end())
    return InputError(Argument::ids,
                      where + ": " + quoted(std::string_view(&*stray, 1)) +
                          " does not belong in a list of ids; separate ids with commas or "
                          "spaces, e.g. 2, 3, 1");
  return InputError(
      Argument::ids,
      where + ", which is not an integer: write token ids in plain digits, e.g. 2, 3, 1");
}

// The value of the token at 1-based `position`: plain digits that fit in int64, or a minus
// sign before zeros only ("-0" is 0).
std::int64_t token_value(std::string_view token, Index position) {
  const auto [negative, digits] = signed_digits(token);
  std::int64_t value = 0;
  const bool plain =
      digits_only(digits) && (!negative || digits.find_first_not_of('0') == std::string_view::npos);
  if (plain &&
      std::from_chars(digits.data(), digits.data() + digits.size(), value).ec == std::errc())
    return value;
  throw not_an_id(token, position);
}

// 1-based, as a message counts characters. Every error is found after ASCII text only
// (wrappers, digits, commas, spaces), so the byte position is the character position.
std::string character(std::size_t byte) { return std::to_string(byte + 1); }

[[gnu::cold, gnu::noinline]] InputError empty_entry(std::size_t comma) {
  return InputError(Argument::ids, "empty entry: the comma at character " + character(comma) +
                                       " has no id before it");
}

[[gnu::cold, gnu::noinline]] InputError nested_list(std::string_view bracket, std::size_t at) {
  return InputError(Argument::ids, "unexpected " + quoted(bracket) + " at character " +
                                       character(at) +
                                       ": give one flat list of ids, e.g. [2, 3, 1]");
}

// One pass over the text. The first pass only counts (out == nullptr) so that the id limit is
// checked before anything is allocated; the second pass, over text known to be valid, fills.
class IdScanner {
 public:
  explicit IdScanner(std::string_view text) : text_(text) {}

  Index scan(Ids* out) {
    pos_ = 0;
    Index count = 0;
    open_wrappers();
    bool id_since_comma = false;
    for (skip_space(); !at_end() && !is_closer(peek()); skip_space()) {
      const char c = peek();
      if (c == ',') {
        if (!id_since_comma) throw empty_entry(pos_);
        id_since_comma = false;
        ++pos_;
      } else if (c == '[' || c == '(') {
        throw nested_list(character_at(pos_), pos_);
      } else {
        const std::size_t start = pos_;
        while (!at_end() && !ends_token(peek())) ++pos_;
        const std::int64_t value = token_value(text_.substr(start, pos_ - start), ++count);
        if (out) out->push_back(value);
        id_since_comma = true;
      }
    }
    close_wrappers();
    if (count == 0) throw InputError(Argument::ids, kNoIds);
    return count;
  }

 private:
  // Something that must be closed: "tensor(", "torch.tensor(", "(" or "[".
  struct Opener {
    std::string_view text;
    std::size_t at;
    char closer;
  };

  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return text_[pos_]; }
  void skip_space() {
    while (!at_end() && is_space(peek())) ++pos_;
  }
  // The whole UTF-8 character at `byte`, so that a message never shows half of one.
  std::string_view character_at(std::size_t byte) const {
    std::size_t end = byte + 1;
    while (end < text_.size() && (static_cast<unsigned char>(text_[end]) & 0xC0) == 0x80) ++end;
    return text_.substr(byte, end - byte);
  }

  // An optional "tensor(", "torch.tensor(" or "(", then an optional "[". This and
  // close_wrappers run once a scan, with their messages: not inlined into its loop.
  [[gnu::noinline]] void open_wrappers() {
    depth_ = 0;
    skip_space();
    const std::size_t start = pos_;
    if (!at_end() && is_letter(peek())) {
      while (!at_end() && (is_letter(peek()) || is_digit(peek()) || peek() == '.')) ++pos_;
      const std::string_view name = text_.substr(start, pos_ - start);
      skip_space();
      if (at_end() || peek() != '(') {
        pos_ = start;  // a plain token: the list reports it
      } else if (name != "tensor" && name != "torch.tensor") {
        throw InputError(Argument::ids,
                         "unexpected " + quoted(name) + " at character " + character(start) +
                             ": write ids as 2, 3, 1 or [2, 3, 1] or tensor([2, 3, 1])");
      }
    }
    if (!at_end() && peek() == '(') push_opener(start, ')');
    skip_space();
    if (!at_end() && peek() == '[') push_opener(pos_, ']');
  }

  void push_opener(std::size_t start, char closer) {
    ++pos_;
    openers_[depth_++] = Opener{text_.substr(start, pos_ - start), start, closer};
    skip_space();
  }

  [[gnu::noinline]] void close_wrappers() {
    for (; depth_ > 0; --depth_) {
      const Opener& open = openers_[depth_ - 1];
      const std::string what = "the " + quoted(open.text) + " at character " + character(open.at);
      skip_space();
      if (at_end())
        throw InputError(Argument::ids, "unbalanced brackets: " + what +
                                            " is never closed with \"" + open.closer + "\"");
      if (peek() != open.closer)
        throw InputError(
            Argument::ids,
            std::string(is_closer(peek()) ? "mismatched brackets" : "unexpected text") +
                ": expected \"" + open.closer + "\" to close " + what + ", found " +
                quoted(character_at(pos_)) + " at character " + character(pos_));
      ++pos_;
    }
    skip_space();
    if (at_end()) return;
    if (is_closer(peek()))
      throw InputError(Argument::ids, "unbalanced brackets: the " + quoted(character_at(pos_)) +
                                          " at character " + character(pos_) +
                                          " has no matching opening bracket");
    throw InputError(Argument::ids, "unexpected text " + quoted(text_.substr(pos_)) +
                                        " at character " + character(pos_) +
                                        ", after the closing bracket");
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  Opener openers_[2];
  int depth_ = 0;
};

}  // namespace

Ids parse_ids(std::string_view text, const Limits& limits) {
  IdScanner scanner(text);
  const Index count = scanner.scan(nullptr);
  check_id_count(count, limits);
  Ids ids;
  ids.reserve(static_cast<std::size_t>(count));
  scanner.scan(&ids);
  return ids;
}

std::vector<Ids> parse_batches(std::string_view text, const Limits& limits) {
  std::vector<std::string_view> parts;
  for (std::size_t start = 0;;) {
    const std::size_t end = text.find(';', start);
    parts.push_back(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  const auto blank = [](std::string_view part) {
    return std::all_of(part.begin(), part.end(), is_space);
  };
  if (parts.size() > 1 && blank(parts.back())) parts.pop_back();
  std::vector<Ids> batches;
  Index total = 0;
  for (std::size_t b = 0; b < parts.size(); ++b) {
    const std::string which = "batch " + std::to_string(b + 1);
    if (blank(parts[b]))
      throw InputError(Argument::ids, which +
                                          " is empty: give each batch at least one id, and "
                                          "separate batches with semicolons, e.g. 1, 2; 3, 3");
    try {
      batches.push_back(parse_ids(parts[b], limits));
    } catch (const InputError& e) {
      throw InputError(Argument::ids, which + ": " + e.what());
    }
    total += static_cast<Index>(batches.back().size());
    check_id_count(total, limits);
  }
  return batches;
}

namespace {

// Why ids[i] names no row of a table with `vocab` rows, in PyTorch's words and then ours: spelled
// only when it does not, as check_ids runs at every keystroke.
[[gnu::cold, gnu::noinline]] InputError id_out_of_range(const Ids& ids, std::size_t i,
                                                        Index vocab) {
  const std::int64_t id = ids[i];
  const std::string valid = "0.." + std::to_string(vocab - 1);
  const std::string which = "index out of range in self: id " + std::to_string(id) +
                            " at position " + std::to_string(i + 1);
  if (id < 0)
    return InputError(Argument::ids, which + " is negative; ids for the vocabulary size V = " +
                                         std::to_string(vocab) + " are " + valid);
  return InputError(Argument::ids, which + " is not below the vocabulary size V = " +
                                       std::to_string(vocab) + " (valid ids are " + valid + ")");
}

}  // namespace

void check_ids(const Ids& ids, Index vocab) {
  if (vocab < 1)
    throw InputError(Argument::vocab,
                     "the vocabulary size V must be at least 1, got V = " + std::to_string(vocab));
  for (std::size_t i = 0; i < ids.size(); ++i)
    if (ids[i] < 0 || ids[i] >= vocab) throw id_out_of_range(ids, i, vocab);
}

Ids distinct_ids(Ids ids) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

std::vector<Index> id_counts(const Ids& ids, Index vocab) {
  std::vector<Index> counts(static_cast<std::size_t>(vocab), 0);
  for (const auto id : ids) ++counts[static_cast<std::size_t>(id)];
  return counts;
}

Index default_vocab(const Ids& ids, const Limits& limits) {
  if (ids.empty()) throw InputError(Argument::ids, kNoIds);
  for (std::size_t i = 0; i < ids.size(); ++i)
    if (ids[i] < 0)
      throw InputError(Argument::ids, negative_id_message(static_cast<Index>(i + 1),
                                                          quoted(std::to_string(ids[i]))));
  const auto largest = std::max_element(ids.begin(), ids.end());
  if (*largest == std::numeric_limits<std::int64_t>::max())
    throw InputError(Argument::ids,
                     "token " + std::to_string(largest - ids.begin() + 1) + " is " +
                         std::to_string(*largest) +
                         ": the vocabulary size max(ids) + 1 would not fit in int64");
  // The learner typed no V: an id that makes the default V too large is an error of the ids.
  if (*largest >= limits.max_vocab)
    throw InputError(Argument::ids, "token " + std::to_string(largest - ids.begin() + 1) + " is " +
                                        std::to_string(*largest) +
                                        ": the vocabulary size max(ids) + 1 = " +
                                        count_text(*largest + 1) + " would be over the limit of " +
                                        count_text(limits.max_vocab) + " rows; use a smaller id");
  return *largest + 1;
}

}  // namespace embedlab
