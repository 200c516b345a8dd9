// libFuzzer target: parse_ids on any bytes returns valid ids or throws InputError with a
// message; it never crashes, and what it returns survives the checks that use it.
#include <cstddef>
#include <cstdint>
#include <limits>
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
  bool holds_max = false;
  for (const std::int64_t id : ids) holds_max |= id == std::numeric_limits<std::int64_t>::max();
  if (!holds_max) {
    const embedlab::Index vocab = embedlab::default_vocab(ids);
    embedlab::check_ids(ids, vocab);  // must not throw: every id is below max + 1
    bool refused = false;
    try {
      embedlab::check_ids(ids, vocab - 1);
    } catch (const embedlab::InputError&) {
      refused = true;
    }
    require(refused, "check_ids refuses max(ids) with V = max(ids)");
  }
  return 0;
}
