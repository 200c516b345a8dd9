#include "tf32_reference.hpp"

#include <cstdint>

#include "embedlab/float_bits.hpp"

namespace embedlab::cuda {
namespace {

constexpr std::uint32_t kDropped = 13;  // 23 - 10 mantissa bits
constexpr std::uint32_t kDroppedMask = (1u << kDropped) - 1;
constexpr std::uint32_t kHalf = 1u << (kDropped - 1);
constexpr std::uint32_t kExponentMask = 0x7f800000u;

// Whether |x|, with `kept` its bits above the dropped ones, rounds up to the next TF32 value.
bool rounds_up(std::uint32_t kept, std::uint32_t dropped, Tf32Rounding rounding) {
  switch (rounding) {
    case Tf32Rounding::nearest_even:
      return dropped > kHalf || (dropped == kHalf && ((kept >> kDropped) & 1u) != 0);
    case Tf32Rounding::nearest_away:
      return dropped >= kHalf;
    case Tf32Rounding::toward_zero:
      return false;
  }
  return false;
}

}  // namespace

const char* rounding_name(Tf32Rounding rounding) {
  switch (rounding) {
    case Tf32Rounding::nearest_even:
      return "nearest, ties to even";
    case Tf32Rounding::nearest_away:
      return "nearest, ties away from zero";
    case Tf32Rounding::toward_zero:
      return "toward zero (low 13 bits dropped)";
  }
  return "?";
}

float round_to_tf32(float x, Tf32Rounding rounding) {
  std::uint32_t bits = float_bits(x);
  if ((bits & kExponentMask) == kExponentMask) return x;  // Inf, NaN
  const std::uint32_t dropped = bits & kDroppedMask;
  bits -= dropped;
  // Sign and magnitude are separate, so one unit more rounds |x| up and keeps the sign; a
  // carry out of the mantissa lands in the exponent, as it should.
  if (rounds_up(bits, dropped, rounding)) bits += 1u << kDropped;
  return float_from_bits(bits);
}

Matrix round_to_tf32(const Matrix& m, Tf32Rounding rounding) {
  Matrix out(m.rows(), m.cols());
  for (Index i = 0; i < m.size(); ++i) out.data()[i] = round_to_tf32(m.data()[i], rounding);
  return out;
}

}  // namespace embedlab::cuda
