// The CPU references of the reduced-precision routes, checked on any machine: rounding W to
// TF32 (native/cuda/tf32_reference), and bfloat16 / float16 tables (native/cuda/half_matrix,
// CUDA's host conversions), the widening against the core's .safetensors conversion, which is
// checked against PyTorch for every bit pattern. Expected values are worked out by hand.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "embedlab/float_bits.hpp"
#include "embedlab/safetensors.hpp"
#include "half_matrix.hpp"
#include "tf32_reference.hpp"

using embedlab::float_bits;
using embedlab::float_from_bits;
using embedlab::Index;
using embedlab::Matrix;
using embedlab::cuda::Tf32Rounding;
namespace cuda = embedlab::cuda;

namespace {

// x rounded each way: {nearest even, nearest away, toward zero}, compared as bits.
void check_tf32(float x, float even, float away, float zero) {
  INFO("x = " << x << " (bits " << std::hex << float_bits(x) << ")");
  CHECK(float_bits(cuda::round_to_tf32(x, Tf32Rounding::nearest_even)) == float_bits(even));
  CHECK(float_bits(cuda::round_to_tf32(x, Tf32Rounding::nearest_away)) == float_bits(away));
  CHECK(float_bits(cuda::round_to_tf32(x, Tf32Rounding::toward_zero)) == float_bits(zero));
}

// Every 16-bit pattern, as a (256, 256) table.
template <typename T>
cuda::HalfMatrix<T> every_pattern() {
  cuda::HalfMatrix<T> m{256, 256, std::vector<T>(65536)};
  for (std::uint32_t p = 0; p < 65536; ++p) {
    const auto b = static_cast<std::uint16_t>(p);
    std::memcpy(static_cast<void*>(&m.values[p]), &b, sizeof b);
  }
  return m;
}

// The same bytes read by the core's .safetensors converter.
template <typename T>
Matrix core_conversion(const cuda::HalfMatrix<T>& m, const char* dtype) {
  embedlab::SafetensorsEntry entry;
  entry.name = "table";
  entry.dtype = dtype;
  entry.shape = {m.rows, m.cols};
  entry.end = m.values.size() * 2;
  const std::string_view bytes(reinterpret_cast<const char*>(m.values.data()), entry.end);
  return embedlab::convert_safetensors_table(entry, bytes);
}

// Same bits wherever the reference is a number; NaN wherever it is NaN (the core quiets NaNs).
void check_widening(const Matrix& got, const Matrix& reference) {
  Index wrong = 0;
  for (Index i = 0; i < got.size(); ++i) {
    const float r = reference.data()[i];
    const float g = got.data()[i];
    wrong += std::isnan(r) ? !std::isnan(g) : float_bits(g) != float_bits(r);
  }
  CHECK(wrong == 0);
}

// Patterns whose round trip changed them; NaNs (magnitude above inf's pattern) do not count.
template <typename T>
Index changed_by_round_trip(const cuda::HalfMatrix<T>& before, const cuda::HalfMatrix<T>& after,
                            std::uint16_t inf) {
  Index changed = 0;
  for (std::size_t i = 0; i < before.values.size(); ++i) {
    std::uint16_t b, a;
    std::memcpy(&b, &before.values[i], sizeof b);
    std::memcpy(&a, &after.values[i], sizeof a);
    changed += (b & 0x7fff) <= inf && a != b;
  }
  return changed;
}

std::uint16_t bf16_bits(float x) {
  const cuda::Bf16Matrix m = cuda::to_bf16(Matrix::Constant(1, 1, x));
  std::uint16_t b;
  std::memcpy(&b, m.values.data(), sizeof b);
  return b;
}

std::uint16_t f16_bits(float x) {
  const cuda::F16Matrix m = cuda::to_f16(Matrix::Constant(1, 1, x));
  std::uint16_t b;
  std::memcpy(&b, m.values.data(), sizeof b);
  return b;
}

}  // namespace

TEST_CASE("TF32 keeps 10 mantissa bits, rounded each of three ways") {
  const float u = std::ldexp(1.0f, -10);  // TF32's unit in the last place at 1
  check_tf32(1.0f, 1.0f, 1.0f, 1.0f);
  check_tf32(1.0f + u, 1.0f + u, 1.0f + u, 1.0f + u);  // already a TF32 value
  // Exactly halfway, even below: nearest even stays, away goes up, zero stays.
  check_tf32(1.0f + u / 2, 1.0f, 1.0f + u, 1.0f);
  // Exactly halfway, odd below: both nearest modes go up to the even 1 + 2u.
  check_tf32(1.0f + u + u / 2, 1.0f + 2 * u, 1.0f + 2 * u, 1.0f + u);
  // Just above halfway (one float32 ulp, 2^-23): both nearest modes go up.
  const float above = 1.0f + u / 2 + std::ldexp(1.0f, -23);
  check_tf32(above, 1.0f + u, 1.0f + u, 1.0f);
  check_tf32(-above, -1.0f - u, -1.0f - u, -1.0f);  // the sign is kept, magnitudes round
  // All 23 mantissa bits set: rounding up carries into the exponent.
  check_tf32(2.0f - std::ldexp(1.0f, -23), 2.0f, 2.0f, 2.0f - u);
}

TEST_CASE("TF32 at the edges: the top of the range, subnormals, zeros, Inf and NaN") {
  const float inf = std::numeric_limits<float>::infinity();
  const float max = std::numeric_limits<float>::max();  // 0x7f7fffff
  check_tf32(max, inf, inf, float_from_bits(0x7f7fe000u));
  check_tf32(float_from_bits(0x00001fffu), float_from_bits(0x00002000u),
             float_from_bits(0x00002000u), 0.0f);
  check_tf32(-0.0f, -0.0f, -0.0f, -0.0f);
  check_tf32(-inf, -inf, -inf, -inf);
  const float nan = float_from_bits(0x7fc01234u);  // low bits of a NaN's payload are not rounded
  check_tf32(nan, nan, nan, nan);
}

TEST_CASE("a matrix rounds to TF32 element by element") {
  Matrix m(1, 3);
  m << 1.0f + std::ldexp(1.0f, -11), -3.0f, 0.1f;  // 0.1f = 0x3dcccccd, low 13 bits 0x0ccd
  const Matrix r = cuda::round_to_tf32(m, Tf32Rounding::nearest_even);
  CHECK(float_bits(r(0, 0)) == float_bits(1.0f));
  CHECK(r(0, 1) == -3.0f);
  CHECK(float_bits(r(0, 2)) == 0x3dccc000u);  // 0x0ccd < 0x1000: down
}

TEST_CASE("float32 to bfloat16 rounds to nearest, ties to even") {
  CHECK(bf16_bits(1.0f) == 0x3f80);
  CHECK(bf16_bits(1.0f + std::ldexp(1.0f, -8)) == 0x3f80);      // halfway, even below: stays
  CHECK(bf16_bits(1.0f + 3 * std::ldexp(1.0f, -8)) == 0x3f82);  // halfway, odd below: up
  CHECK(bf16_bits(1.0f + std::ldexp(1.0f, -8) + std::ldexp(1.0f, -20)) == 0x3f81);
  CHECK(bf16_bits(-2.5f) == 0xc020);
  CHECK(bf16_bits(-0.0f) == 0x8000);
  CHECK(bf16_bits(std::numeric_limits<float>::max()) == 0x7f80);  // rounds up to +Inf
  const std::uint16_t nan = bf16_bits(std::numeric_limits<float>::quiet_NaN());
  CHECK((nan & 0x7f80) == 0x7f80);
  CHECK((nan & 0x007f) != 0);
}

TEST_CASE("float32 to float16 rounds to nearest, ties to even, and overflows to Inf") {
  CHECK(f16_bits(1.0f) == 0x3c00);
  CHECK(f16_bits(1.0f + std::ldexp(1.0f, -11)) == 0x3c00);      // halfway, even below
  CHECK(f16_bits(1.0f + 3 * std::ldexp(1.0f, -11)) == 0x3c02);  // halfway, odd below
  CHECK(f16_bits(65504.0f) == 0x7bff);                          // the largest float16
  CHECK(f16_bits(65519.0f) == 0x7bff);                          // below halfway to 65536
  CHECK(f16_bits(65520.0f) == 0x7c00);                          // halfway: to even, which is Inf
  CHECK(f16_bits(std::ldexp(1.0f, -24)) == 0x0001);             // the smallest subnormal
  CHECK(f16_bits(std::ldexp(1.0f, -26)) == 0x0000);             // a quarter of it: zero
}

TEST_CASE("every bfloat16 and float16 pattern widens to float32 as the core converts it") {
  check_widening(cuda::to_float(every_pattern<__nv_bfloat16>()),
                 core_conversion(every_pattern<__nv_bfloat16>(), "BF16"));
  check_widening(cuda::to_float(every_pattern<__half>()),
                 core_conversion(every_pattern<__half>(), "F16"));
}

TEST_CASE("widening then rounding gives back every non-NaN bfloat16 and float16 pattern") {
  const auto bf16 = every_pattern<__nv_bfloat16>();
  CHECK(changed_by_round_trip(bf16, cuda::to_bf16(cuda::to_float(bf16)), 0x7f80) == 0);
  const auto f16 = every_pattern<__half>();
  CHECK(changed_by_round_trip(f16, cuda::to_f16(cuda::to_float(f16)), 0x7c00) == 0);
}
