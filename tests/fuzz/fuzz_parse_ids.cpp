// libFuzzer target: parse_ids on any bytes returns valid ids or throws InputError with a
// message; it never crashes, and what it returns survives the checks that use it.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "embedlab/error.hpp"
#include "embedlab/ids.hpp"
#include "fuzz_check.hpp"

using embedlab::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  embedlab::Limits limits;
  limits.max_ids = 16;  // small, so that fuzzed inputs reach the limit
  embedlab::Ids ids;
  try {
    ids = embedlab::parse_ids(text, limits);
  } catch (const embedlab::InputError& e) {
    require(e.what()[0] != '\0', "an InputError has a message");
    return 0;
  }
  require(!ids.empty() && static_cast<embedlab::Index>(ids.size()) <= limits.max_ids,
          "1 <= number of ids <= limits.max_ids");
  std::string listed;
  for (const std::int64_t id : ids) {
    require(id >= 0, "every id is >= 0");
    listed += std::to_string(id) + ", ";
  }
  require(embedlab::parse_ids(listed, limits) == ids, "the ids, written as \"a, b, \", parse back");
  const std::int64_t largest = *std::max_element(ids.begin(), ids.end());
  embedlab::Index vocab = 0;
  try {
    vocab = embedlab::default_vocab(ids, limits);
  } catch (const embedlab::InputError& e) {
    require(largest >= limits.max_vocab && e.argument() == embedlab::Argument::ids,
            "default_vocab refuses only an id past the vocabulary limit, as an error of the ids");
    return 0;
  }
  require(vocab == largest + 1, "default_vocab is max(ids) + 1");
  embedlab::check_ids(ids, vocab);  // must not throw: every id is below max + 1
  bool refused = false;
  try {
    embedlab::check_ids(ids, vocab - 1);
  } catch (const embedlab::InputError&) {
    refused = true;
  }
  require(refused, "check_ids refuses max(ids) with V = max(ids)");
  return 0;
}
