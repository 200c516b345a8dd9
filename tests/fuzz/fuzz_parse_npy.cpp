// libFuzzer target: parse_npy on any bytes returns a matrix or throws InputError with a
// message; it never crashes or reads out of bounds, and what it returns is consistent with
// the file and round-trips through to_npy.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "embedlab/error.hpp"
#include "embedlab/npy.hpp"
#include "fuzz_check.hpp"
#include "same_bits.hpp"

using embedlab::fuzz::require;
using embedlab::test::same_bits;

namespace {

// Where the data starts, read straight from the prefix (the parse succeeded, so it is valid).
std::size_t data_offset(std::string_view bytes) {
  const bool v1 = bytes[6] == 1;
  std::size_t header = 0;
  for (std::size_t b = v1 ? 2 : 4; b-- > 0;)
    header = header * 256 + static_cast<std::uint8_t>(bytes[8 + b]);
  return (v1 ? 10 : 12) + header;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  embedlab::Limits limits;
  limits.max_elements = 1 << 16;  // small, so that fuzzed shapes reach the limit
  embedlab::Matrix m;
  try {
    m = embedlab::parse_npy(bytes, limits);
  } catch (const embedlab::InputError& e) {
    require(e.what()[0] != '\0', "an InputError has a message");
    return 0;
  }
  require(m.rows() >= 1 && m.cols() >= 1 && m.size() <= limits.max_elements,
          "the shape is 2-D, non-empty and within the limits");
  const std::size_t payload = size - data_offset(bytes);
  const auto elements = static_cast<std::size_t>(m.size());
  require(payload == 2 * elements || payload == 4 * elements || payload == 8 * elements,
          "the data holds exactly rows * cols float16, float32 or float64 values");
  const std::string written = embedlab::to_npy(m);
  const embedlab::Matrix again = embedlab::parse_npy(written, limits);
  require(same_bits(again, m), "parse_npy(to_npy(m)) has the bits of m");
  require(embedlab::to_npy(again) == written, "to_npy is deterministic");
  return 0;
}
