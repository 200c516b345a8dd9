#include "ggml_blocks.hpp"

#include <cstdint>
#include <cstring>

#include "embedlab/float_bits.hpp"
#include "table_file.hpp"

namespace embedlab {
namespace {

float half_at(const unsigned char* p) {
  return float_from_bits(f16_to_f32_bits(static_cast<std::uint16_t>(p[0] | p[1] << 8)));
}

void q8_0(const unsigned char* b, float* y) {
  const float d = half_at(b);
  for (int j = 0; j < 32; ++j) y[j] = static_cast<float>(static_cast<std::int8_t>(b[2 + j])) * d;
}

void q4_0(const unsigned char* b, float* y) {
  const float d = half_at(b);
  const unsigned char* qs = b + 2;
  for (int j = 0; j < 16; ++j) {
    y[j] = static_cast<float>((qs[j] & 0x0f) - 8) * d;
    y[j + 16] = static_cast<float>((qs[j] >> 4) - 8) * d;
  }
}

// Sub-block s's 6-bit scale and min from Q4_K's 12 bytes: s < 4 in the low 6 bits of bytes s
// and s + 4; the others 4 bits from byte s + 4 and 2 from the top of bytes s - 4 and s.
void q4_k_scale_min(int s, const unsigned char* q, int& scale, int& min) {
  if (s < 4) {
    scale = q[s] & 63;
    min = q[s + 4] & 63;
  } else {
    scale = (q[s + 4] & 0x0f) | ((q[s - 4] >> 6) << 4);
    min = (q[s + 4] >> 4) | ((q[s] >> 6) << 4);
  }
}

void q4_k(const unsigned char* b, float* y) {
  const float d = half_at(b), dmin = half_at(b + 2);
  const unsigned char* scales = b + 4;
  const unsigned char* qs = b + 16;
  for (int k = 0; k < 4; ++k, qs += 32, y += 64) {
    int scale, min;
    q4_k_scale_min(2 * k, scales, scale, min);
    const float d1 = d * static_cast<float>(scale), m1 = dmin * static_cast<float>(min);
    q4_k_scale_min(2 * k + 1, scales, scale, min);
    const float d2 = d * static_cast<float>(scale), m2 = dmin * static_cast<float>(min);
    for (int l = 0; l < 32; ++l) y[l] = d1 * static_cast<float>(qs[l] & 0x0f) - m1;
    for (int l = 0; l < 32; ++l) y[32 + l] = d2 * static_cast<float>(qs[l] >> 4) - m2;
  }
}

void q6_k(const unsigned char* b, float* y) {
  const unsigned char* ql = b;
  const unsigned char* qh = b + 128;
  const auto* sc = reinterpret_cast<const std::int8_t*>(b + 192);
  const float d = half_at(b + 208);
  for (int half = 0; half < 2; ++half, ql += 64, qh += 32, sc += 8, y += 128) {
    for (int l = 0; l < 32; ++l) {
      const int s = l / 16;
      const int q1 = ((ql[l] & 0x0f) | ((qh[l] & 3) << 4)) - 32;
      const int q2 = ((ql[l + 32] & 0x0f) | (((qh[l] >> 2) & 3) << 4)) - 32;
      const int q3 = ((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32;
      const int q4 = ((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32;
      y[l] = d * static_cast<float>(sc[s]) * static_cast<float>(q1);
      y[l + 32] = d * static_cast<float>(sc[s + 2]) * static_cast<float>(q2);
      y[l + 64] = d * static_cast<float>(sc[s + 4]) * static_cast<float>(q3);
      y[l + 96] = d * static_cast<float>(sc[s + 6]) * static_cast<float>(q4);
    }
  }
}

}  // namespace

void dequantize_blocks(const char* bytes, Index blocks, StoredFloat type, float* out) {
  const auto* b = reinterpret_cast<const unsigned char*>(bytes);
  const Index size = stored_size(type), values = block_values(type);
  void (*block)(const unsigned char*, float*) = type == StoredFloat::q8_0   ? q8_0
                                                : type == StoredFloat::q4_0 ? q4_0
                                                : type == StoredFloat::q4_k ? q4_k
                                                                            : q6_k;
  for (Index i = 0; i < blocks; ++i) block(b + i * size, out + i * values);
}

}  // namespace embedlab
