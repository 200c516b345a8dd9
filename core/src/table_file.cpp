#include "table_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "embedlab/error.hpp"
#include "embedlab/float_bits.hpp"
#include "ggml_blocks.hpp"

// The stored values are little-endian, as every target (x86-64, WebAssembly) holds them: a
// chunk of them is copied as it is and widened in a loop the compiler vectorises.
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "embedlab reads little-endian table files in place: a little-endian target is needed"
#endif

namespace embedlab {
namespace {

// Values converted per chunk: 16 KiB of 16-bit values on the stack, aligned for the loops.
constexpr Index kChunk = 8192;

// Every binary16 pattern's float32 bits, computed once by f16_to_f32_bits (256 KiB). On the
// heap, when first needed: a static array the compiler can evaluate ahead would be written into
// the binary whole, a quarter of the WebAssembly module every page downloads.
const std::uint32_t* f16_table() {
  static const std::vector<std::uint32_t> table = [] {
    std::vector<std::uint32_t> t(65536);
    for (std::uint32_t h = 0; h < t.size(); ++h)
      t[h] = f16_to_f32_bits(static_cast<std::uint16_t>(h));
    return t;
  }();
  return table.data();
}

void convert_halves(const char* bytes, Index count, float* out, bool bf16) {
  alignas(64) std::uint16_t halves[kChunk];
  alignas(64) std::uint32_t bits[kChunk];
  const std::uint32_t* f16 = bf16 ? nullptr : f16_table();
  for (Index at = 0; at < count; at += kChunk) {
    const Index n = std::min(kChunk, count - at);
    std::memcpy(halves, bytes + 2 * at, static_cast<std::size_t>(n) * 2);
    if (bf16) {
      for (Index i = 0; i < n; ++i) bits[i] = bf16_to_f32_bits(halves[i]);
    } else {
      for (Index i = 0; i < n; ++i) bits[i] = f16[halves[i]];
    }
    std::memcpy(out + at, bits, static_cast<std::size_t>(n) * 4);
  }
}

void convert_doubles(const char* bytes, Index count, Index row, Index first_col, Index cols,
                     float* out) {
  for (Index i = 0; i < count; ++i) {
    double value;
    std::memcpy(&value, bytes + 8 * i, sizeof value);
    if (std::isfinite(value) && std::fabs(value) > std::numeric_limits<float>::max()) {
      char shown[32];
      std::snprintf(shown, sizeof shown, "%g", value);
      throw InputError(Argument::weights,
                       "value " + std::string(shown) + " at row " +
                           std::to_string(row + (cols > 0 ? i / cols : 0)) + ", column " +
                           std::to_string(first_col + (cols > 0 ? i % cols : i)) +
                           " does not fit in float32 (the largest float32 is about 3.4e38)");
    }
    out[i] = static_cast<float>(value);
  }
}

}  // namespace

void convert_to_float32(std::string_view bytes, StoredFloat type, float* out, Index row,
                        Index first_col, Index cols) {
  const Index count = static_cast<Index>(bytes.size()) / stored_size(type) * block_values(type);
  switch (type) {
    case StoredFloat::f16:
      return convert_halves(bytes.data(), count, out, false);
    case StoredFloat::bf16:
      return convert_halves(bytes.data(), count, out, true);
    case StoredFloat::f32:
      std::memcpy(out, bytes.data(), static_cast<std::size_t>(count) * 4);
      return;
    case StoredFloat::f64:
      return convert_doubles(bytes.data(), count, row, first_col, cols, out);
    case StoredFloat::q8_0:
    case StoredFloat::q4_0:
    case StoredFloat::q4_k:
    case StoredFloat::q6_k:
      return dequantize_blocks(bytes.data(), count / block_values(type), type, out);
  }
}

void check_whole_blocks(Index cols, StoredFloat type, const std::string& context) {
  const Index per_block = block_values(type);
  if (cols % per_block != 0)
    throw InputError(Argument::weights, context + "a row of " + std::to_string(cols) +
                                            " values is not a whole number of " +
                                            std::string(stored_float_name(type)) +
                                            " blocks, which hold " + std::to_string(per_block) +
                                            " values each");
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
