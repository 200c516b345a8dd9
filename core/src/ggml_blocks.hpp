#pragma once
// ggml's quantized blocks (the types of GGUF files that table.hpp reads) dequantized into float32,
// each value as ggml's reference dequantize_row_* computes it: every product and difference
// rounded to float32 in its order, never fused into an FMA (this file is compiled with
// -ffp-contract=off), so the values are those of the gguf Python package's NumPy dequantizer.
// A block's float16 scales convert as table_file.hpp converts F16 (exactly; a NaN comes back
// quiet).
//
//   Q8_0 (34 bytes, 32 values): d (f16), qs[32] (int8):  y[j] = qs[j] * d.
//   Q4_0 (18 bytes, 32 values): d (f16), qs[16] (two 4-bit values a byte):
//     y[j] = ((qs[j] & 15) - 8) * d,  y[j + 16] = ((qs[j] >> 4) - 8) * d.
//   Q4_K (144 bytes, 256 values): d, dmin (f16), scales[12] (eight 6-bit scales and eight 6-bit
//     mins), qs[128]. Sub-block s (32 values) has scale sc_s and min m_s; the 64 values from
//     64 * k use qs[32k .. 32k + 32), the low nibbles for sub-block 2k and the high ones for 2k +
//     1: y = (d * sc_s) * q - (dmin * m_s).
//   Q6_K (210 bytes, 256 values): ql[128] (low 4 bits), qh[64] (high 2 bits), scales[16] (int8),
//     d (f16). Each half of 128 values takes 64 bytes of ql, 32 of qh and 8 scales; value l + 32t
//     of the half (t = 0..3, l = 0..31) is q = (4 low bits | 2 high bits << 4) - 32 with scale
//     scales[l / 16 + 2t]: y = (d * scale) * q.
#include "embedlab/matrix.hpp"
#include "embedlab/table.hpp"

namespace embedlab {

// `blocks` blocks of a quantized `type` from `bytes` into out (blocks * block_values(type)
// floats).
void dequantize_blocks(const char* bytes, Index blocks, StoredFloat type, float* out);

}  // namespace embedlab
