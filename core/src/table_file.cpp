#include "table_file.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>

#include "embedlab/error.hpp"
#include "embedlab/float_bits.hpp"

namespace embedlab {
namespace {

std::uint64_t little_endian(const char* p, int size) {
  std::uint64_t value = 0;
  for (int i = size; i-- > 0;) value = (value << 8) | static_cast<unsigned char>(p[i]);
  return value;
}

float f64_to_f32(const char* p, Index i, Index cols, Index first_row) {
  const std::uint64_t bits = little_endian(p, 8);
  double value;
  std::memcpy(&value, &bits, sizeof value);
  if (std::isfinite(value) && std::fabs(value) > std::numeric_limits<float>::max()) {
    char shown[32];
    std::snprintf(shown, sizeof shown, "%g", value);
    throw InputError(Argument::weights,
                     "value " + std::string(shown) + " at row " +
                         std::to_string(first_row + i / cols) + ", column " +
                         std::to_string(i % cols) +
                         " does not fit in float32 (the largest float32 is about 3.4e38)");
  }
  return static_cast<float>(value);
}

}  // namespace

void convert_to_float32(std::string_view bytes, StoredFloat type, Index cols, float* out,
                        Index first_row) {
  const Index size = stored_size(type);
  const Index count = static_cast<Index>(bytes.size()) / size;
  // One loop per type, so that the type is not tested for every value.
  const auto each = [&](auto convert) {
    for (Index i = 0; i < count; ++i) out[i] = convert(bytes.data() + i * size, i);
  };
  switch (type) {
    case StoredFloat::f16:
      return each([](const char* p, Index) {
        return float_from_bits(f16_to_f32_bits(static_cast<std::uint16_t>(little_endian(p, 2))));
      });
    case StoredFloat::bf16:
      return each([](const char* p, Index) {
        return float_from_bits(bf16_to_f32_bits(static_cast<std::uint16_t>(little_endian(p, 2))));
      });
    case StoredFloat::f32:
      return each([](const char* p, Index) {
        return float_from_bits(static_cast<std::uint32_t>(little_endian(p, 4)));
      });
    case StoredFloat::f64:
      return each([=](const char* p, Index i) { return f64_to_f32(p, i, cols, first_row); });
  }
}

void check_file_table_shape(Index rows, Index cols, const Limits& limits,
                            const std::string& context) {
  try {
    check_table_shape(rows, cols, limits);
  } catch (const InputError& e) {
    throw InputError(Argument::weights, context + e.what());
  }
}

}  // namespace embedlab
