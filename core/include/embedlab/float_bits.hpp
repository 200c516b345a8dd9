#pragma once
// A float32 as its 32 bits and back: what "bit-identical" compares, and how NaN payloads, -0.0
// and rounding are written down exactly.
#include <cstdint>
#include <cstring>

namespace embedlab {

inline std::uint32_t float_bits(float x) {
  std::uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

inline float float_from_bits(std::uint32_t bits) {
  float x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

}  // namespace embedlab
