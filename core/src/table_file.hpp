#pragma once
// What the .npy and the .safetensors readers and the table share: the conversion of the stored
// element types (table.hpp) to float32 (f16 and bf16 exactly, since every value of theirs is a
// float32: subnormals, +-0, +-Inf, NaN; f32 copied; f64 rounded to nearest and required to fit),
// and the check of a table's shape against the limits.
#include <cstdint>
#include <string>
#include <string_view>

#include "embedlab/limits.hpp"
#include "embedlab/matrix.hpp"
#include "embedlab/table.hpp"

namespace embedlab {

// IEEE binary16 bits -> the float32 bits of the same value. A NaN keeps its sign and payload and
// comes back quiet, as PyTorch's .float() (the x86 F16C instruction) gives it; NumPy's astype
// would leave a signalling NaN signalling.
constexpr std::uint32_t f16_to_f32_bits(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  std::uint32_t exponent = (h >> 10) & 0x1fu;
  std::uint32_t mantissa = h & 0x3ffu;
  if (exponent == 0x1f) return sign | 0x7f800000u | (mantissa ? 0x400000u | mantissa << 13 : 0);
  if (exponent != 0) return sign | (exponent + 112) << 23 | mantissa << 13;
  if (mantissa == 0) return sign;
  // A subnormal, mantissa * 2^-24: shift its leading 1 into the implicit bit of a normal float32.
  exponent = 113;
  while (!(mantissa & 0x400u)) {
    mantissa <<= 1;
    --exponent;
  }
  return sign | exponent << 23 | (mantissa & 0x3ffu) << 13;
}

// bfloat16 is the top half of a float32: its bits, shifted (NaNs unchanged, as PyTorch does).
constexpr std::uint32_t bf16_to_f32_bits(std::uint16_t b) {
  return static_cast<std::uint32_t>(b) << 16;
}

// bytes holds little-endian values (or whole blocks) of `type` (the caller has checked the size);
// out receives as many floats. A finite float64 beyond float32's range throws
// InputError(Argument::weights) naming its place: `row`, and its column counted from `first_col`,
// the values being a row's (or, with `cols`, whole rows of `cols` values from `row` on).
void convert_to_float32(std::string_view bytes, StoredFloat type, float* out, Index row = 0,
                        Index first_col = 0, Index cols = 0);

// That a row of `cols` values of `type` is a whole number of its blocks (ggml's quantized types:
// 32 or 256 values); the message, after `context`, names both.
void check_whole_blocks(Index cols, StoredFloat type, const std::string& context = "");

// check_table_shape for a (rows, cols) table read from a file: the same messages after `context`
// ("tensor 'wte.weight' [50257, 768]: "), with the file (Argument::weights) as the input to
// change. Call it before allocating.
void check_file_table_shape(Index rows, Index cols, const Limits& limits,
                            const std::string& context = "");

}  // namespace embedlab
