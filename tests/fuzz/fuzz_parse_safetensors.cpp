// libFuzzer target: the .safetensors reader on any bytes (taken as a whole file) returns a header
// and tables or throws InputError with a message; it never crashes or reads out of bounds. What
// it returns must agree with the file: byte ranges inside the data section and apart, and each
// table's values those of its bytes, checked by a plain reading of the formats, whether it is
// converted whole or in pieces.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "embedlab/error.hpp"
#include "embedlab/float_bits.hpp"
#include "embedlab/safetensors.hpp"
#include "fuzz_check.hpp"
#include "same_bits.hpp"

using embedlab::fuzz::require;
using embedlab::test::same_bits;

namespace {

std::uint64_t little_endian(const char* p, int size) {
  std::uint64_t value = 0;
  for (int i = size - 1; i >= 0; --i) value = value << 8 | static_cast<std::uint8_t>(p[i]);
  return value;
}

// binary16 by its definition: (-1)^s * 2^(e - 15) * 1.m, or 2^-14 * 0.m when e = 0.
double f16_value(std::uint16_t h) {
  const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  const double magnitude = e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, e - 25);
  return (h & 0x8000) ? -magnitude : magnitude;
}

// Each value of a table against its stored bytes.
void check_values(const embedlab::SafetensorsEntry& e, std::string_view bytes,
                  const embedlab::Matrix& m) {
  const float* out = m.data();
  for (embedlab::Index i = 0; i < m.size(); ++i) {
    if (e.dtype == "F32") {
      require(embedlab::float_bits(out[i]) == little_endian(bytes.data() + 4 * i, 4),
              "F32 keeps its bits");
    } else if (e.dtype == "BF16") {
      require(embedlab::float_bits(out[i]) == little_endian(bytes.data() + 2 * i, 2) << 16,
              "BF16 is the top half of the float32");
    } else if (e.dtype == "F16") {
      const auto h = static_cast<std::uint16_t>(little_endian(bytes.data() + 2 * i, 2));
      if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0)
        require(std::isnan(out[i]), "an F16 NaN stays a NaN");
      else if ((h & 0x7fff) == 0x7c00)
        require(std::isinf(out[i]) && std::signbit(out[i]) == ((h & 0x8000) != 0),
                "an F16 infinity stays one, with its sign");
      else
        require(out[i] == f16_value(h) && std::signbit(out[i]) == ((h & 0x8000) != 0),
                "an F16 value converts exactly");
    } else {
      require(e.dtype == "F64", "only F32, BF16, F16 and F64 become tables");
      const std::uint64_t bits = little_endian(bytes.data() + 8 * i, 8);
      double d;
      std::memcpy(&d, &bits, sizeof d);
      require(std::isnan(d) ? std::isnan(out[i]) : out[i] == static_cast<float>(d),
              "F64 is rounded to the nearest float32");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view file(reinterpret_cast<const char*>(data), size);
  embedlab::Limits limits;
  limits.max_elements = 1 << 16;  // small, so that fuzzed shapes reach the limit
  embedlab::SafetensorsHeader header;
  try {
    header = embedlab::parse_safetensors_header(file, size);
  } catch (const embedlab::InputError& e) {
    require(e.what()[0] != '\0', "an InputError has a message");
    require(e.argument() == embedlab::Argument::weights, "a file's errors are about weights");
    return 0;
  }
  require(embedlab::safetensors_header_size(file.substr(0, 8), size) == header.data_start,
          "step 1 gives the header size step 2 used");
  require(header.data_start >= 8 && header.data_start <= size, "the header is inside the file");
  std::uint64_t furthest = header.data_start;
  for (const embedlab::SafetensorsEntry& e : header.tensors) {
    require(header.data_start <= e.begin && e.begin <= e.end && e.end <= size,
            "a tensor's bytes are inside the data section");
    if (e.begin != e.end) {
      require(e.begin >= furthest, "tensors are in byte order and share no byte");
      furthest = e.end;
    }
  }

  // Every tensor by its name, then the one chosen by default: a table, or a clear refusal.
  std::vector<std::string> names{""};
  for (const auto& e : header.tensors) names.push_back(e.name);
  names.push_back("no such tensor");
  for (const std::string& name : names) {
    try {
      const embedlab::SafetensorsEntry& e = embedlab::choose_embedding_table(header, name, limits);
      require(name.empty() || e.name == name, "the tensor named is the one chosen");
      const std::string_view bytes = file.substr(e.begin, e.end - e.begin);
      const embedlab::Matrix m = embedlab::convert_safetensors_table(e, bytes, limits);
      require(e.shape.size() == 2 && m.rows() == e.shape[0] && m.cols() == e.shape[1],
              "the table has the entry's shape");
      require(m.size() <= limits.max_elements, "the table is within the limits");
      check_values(e, bytes, m);
      // The same table from two pieces, the second first.
      const embedlab::Index half = m.rows() / 2;
      const auto split =
          static_cast<std::size_t>(half * embedlab::safetensors_row_bytes(e, limits));
      embedlab::Matrix pieces(m.rows(), m.cols());
      embedlab::convert_safetensors_rows(e, half, bytes.substr(split), pieces, limits);
      embedlab::convert_safetensors_rows(e, 0, bytes.substr(0, split), pieces, limits);
      require(same_bits(pieces, m), "a table converted in pieces is the table converted whole");
    } catch (const embedlab::InputError& e) {
      require(e.what()[0] != '\0', "an InputError has a message");
    }
  }
  return 0;
}
