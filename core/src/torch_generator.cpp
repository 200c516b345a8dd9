// PyTorch 1.13.1's CPU generator and its float32 uniform_/normal_ kernels as they run on x86-64
// with AVX2+FMA. Every step follows docs/pytorch-rng.md (section numbers below);
// this file is compiled with -ffp-contract=off, so each std::fma marks a fusion GCC performs in
// PyTorch's build and every other operation is rounded on its own.
#include "embedlab/torch_generator.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "embedlab/float_bits.hpp"

namespace embedlab {
namespace {

constexpr int kStateSize = 624;
constexpr int kShift = 397;

// Section 4.1: the low 24 bits of one draw, exact in float.
float uniform_float(TorchGenerator& gen) {
  return static_cast<float>(gen.random() & 0xFFFFFFu) * 0x1p-24f;
}

// Section 4.2: the low 53 bits of a 64-bit draw.
double uniform_double(TorchGenerator& gen) {
  return static_cast<double>(gen.random64() & ((std::uint64_t{1} << 53) - 1)) * 0x1p-53;
}

// avx_mathfun.h keeps its constants as double literals rounded to float.
constexpr float f(double x) { return static_cast<float>(x); }

// Section 6.4: avx_mathfun's log256_ps for x in [2^-24, 1].
float cephes_log(float x) {
  x = std::fmax(x, 0x1p-126f);
  const auto e_int = static_cast<std::int32_t>(float_bits(x) >> 23) - 127;
  float m =
      float_from_bits((float_bits(x) & ~0x7F800000u) | float_bits(0.5f));  // mantissa in [0.5, 1)
  float e = static_cast<float>(e_int) + 1.0f;
  float t = 0.0f;
  if (m < f(0.707106781186547524)) {
    e = e - 1.0f;
    t = m;
  }
  m = (m - 1.0f) + t;
  const float z = m * m;
  static constexpr float kP[] = {f(7.0376836292E-2),  f(-1.1514610310E-1), f(1.1676998740E-1),
                                 f(-1.2420140846E-1), f(1.4249322787E-1),  f(-1.6668057665E-1),
                                 f(2.0000714765E-1),  f(-2.4999993993E-1), f(3.3333331174E-1)};
  float y = kP[0];
  for (int k = 1; k < 9; ++k) y = std::fma(y, m, kP[k]);
  y = y * m;
  y = std::fma(y, z, e * f(-2.12194440e-4));
  y = y - 0.5f * z;
  const float r = m + y;
  return std::fma(e, f(0.693359375), r);
}

// Section 6.4: avx_mathfun's sincos256_ps for x in [0, 2*pi).
void cephes_sincos(float x, float& sin_out, float& cos_out) {
  const std::uint32_t sign_mask = 0x80000000u;
  std::uint32_t sin_sign = float_bits(x) & sign_mask;
  x = std::fabs(x);
  auto j = static_cast<std::int32_t>(x * f(1.27323954473516));  // truncation, like cvttps
  j = (j + 1) & ~1;
  const float y = static_cast<float>(j);
  sin_sign ^= static_cast<std::uint32_t>(j & 4) << 29;
  const bool sine_poly_is_sin = (j & 2) == 0;
  const std::uint32_t cos_sign = static_cast<std::uint32_t>(~(j - 2) & 4) << 29;

  // Extended-precision reduction by pi/4 in three parts.
  x = std::fma(y, f(-0.78515625), x);
  x = std::fma(y, f(-2.4187564849853515625e-4), x);
  x = std::fma(y, f(-3.77489497744594108e-8), x);
  const float z = x * x;

  float c = f(2.443315711809948E-5);
  c = std::fma(c, z, f(-1.388731625493765E-3));
  c = std::fma(c, z, f(4.166664568298827E-2));
  c = c * z;
  c = std::fma(c, z, -(0.5f * z));
  c = c + 1.0f;

  float s = f(-1.9515295891E-4);
  s = std::fma(s, z, f(8.3321608736E-3));
  s = std::fma(s, z, f(-1.6666654611E-1));
  s = s * z;
  s = std::fma(s, x, x);

  // The kernel selects with masks and adds the zeroed lane; kept literal so signed zeros match.
  const float sin_part = sine_poly_is_sin ? s : 0.0f;
  const float cos_part = sine_poly_is_sin ? 0.0f : c;
  s = s - sin_part;
  c = c - cos_part;
  sin_out = float_from_bits(float_bits(cos_part + sin_part) ^ sin_sign);
  cos_out = float_from_bits(float_bits(c + s) ^ cos_sign);
}

// Section 6.3: Box-Muller on 16 uniforms in place, element j paired with j + 8.
void box_muller16(float* d, float mean, float std) {
  for (int j = 0; j < 8; ++j) {
    const float u1 = 1.0f - d[j];
    const float u2 = d[j + 8];
    const float radius = std::sqrt(-2.0f * cephes_log(u1));
    const float theta = f(2.0 * 3.14159265358979323846) * u2;
    float s = 0.0f;
    float c = 0.0f;
    cephes_sincos(theta, s, c);
    d[j] = std::fma(radius * c, std, mean);
    d[j + 8] = std::fma(radius * s, std, mean);
  }
}

void check_count(Index n, const char* what) {
  if (n < 0) {
    // Callers check shapes against the limits first: no user input reaches this.
    throw std::invalid_argument(
        std::string(what) + ": the element count must not be negative, got " + std::to_string(n));
  }
}

}  // namespace

TorchGenerator::TorchGenerator(std::int64_t seed) { manual_seed(seed); }

// Section 2: only the low 32 bits of the (two's complement) seed reach MT19937.
void TorchGenerator::manual_seed(std::int64_t seed) {
  state_[0] = static_cast<std::uint32_t>(static_cast<std::uint64_t>(seed));
  for (int i = 1; i < kStateSize; ++i) {
    const std::uint32_t prev = state_[i - 1];
    state_[i] = 1812433253u * (prev ^ (prev >> 30)) + static_cast<std::uint32_t>(i);
  }
  left_ = 1;
  next_ = 0;
  cached_normal_.reset();
}

// Section 3.1: standard MT19937; the whole state is twisted when it runs out.
std::uint32_t TorchGenerator::random() {
  if (--left_ == 0) {
    for (int i = 0; i < kStateSize; ++i) {
      const std::uint32_t y =
          (state_[i] & 0x80000000u) | (state_[(i + 1) % kStateSize] & 0x7FFFFFFFu);
      state_[i] = state_[(i + kShift) % kStateSize] ^ (y >> 1) ^ ((y & 1u) ? 0x9908B0DFu : 0u);
    }
    left_ = kStateSize;
    next_ = 0;
  }
  std::uint32_t y = state_[next_++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9D2C5680u;
  y ^= (y << 15) & 0xEFC60000u;
  y ^= y >> 18;
  return y;
}

std::uint64_t TorchGenerator::random64() {
  const std::uint64_t high = random();
  const std::uint64_t low = random();
  return (high << 32) | low;
}

// Section 5: one draw per element, value = fma(x, to - from, from) in float.
void TorchGenerator::uniform(float* out, Index n, double from, double to) {
  check_count(n, "uniform");
  if (!(from <= to)) {
    throw std::invalid_argument("uniform: expects from <= to, got from = " + std::to_string(from) +
                                " and to = " + std::to_string(to));
  }
  const auto lo = static_cast<float>(from);
  const float range = static_cast<float>(to) - lo;
  for (Index i = 0; i < n; ++i) out[i] = std::fma(uniform_float(*this), range, lo);
}

// Section 6: the block path for n >= 16 (6.2, its tail redrawn), the serial path (6.5, with its
// cached sample) below.
void TorchGenerator::normal(float* out, Index n, double mean, double std) {
  check_count(n, "normal");
  if (!(std >= 0.0)) {
    throw std::invalid_argument("normal: expects std >= 0, got std = " + std::to_string(std));
  }
  if (n >= 16) {
    const auto mean_f = static_cast<float>(mean);
    const auto std_f = static_cast<float>(std);
    for (Index i = 0; i < n; ++i) out[i] = uniform_float(*this);
    for (Index i = 0; i + 16 <= n; i += 16) box_muller16(out + i, mean_f, std_f);
    if (n % 16 != 0) {
      float* tail = out + n - 16;  // redrawn and transformed again, overlap included
      for (int i = 0; i < 16; ++i) tail[i] = uniform_float(*this);
      box_muller16(tail, mean_f, std_f);
    }
    return;
  }
  for (Index i = 0; i < n; ++i) {
    double value = 0.0;
    if (cached_normal_) {
      value = *cached_normal_;
      cached_normal_.reset();
    } else {
      const double u1 = uniform_double(*this);  // the angle
      const double u2 = uniform_double(*this);  // the radius
      const double r = std::sqrt(-2.0 * std::log(1.0 - u2));
      const double theta = 2.0 * 3.14159265358979323846 * u1;
      cached_normal_ = r * std::sin(theta);
      value = r * std::cos(theta);
    }
    out[i] = static_cast<float>(std::fma(value, std, mean));
  }
}

}  // namespace embedlab
