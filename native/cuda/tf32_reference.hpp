#pragma once
// What a TF32 tensor core sees of a float32: the sign, the 8 exponent bits and the top 10 of the
// 23 mantissa bits. The CPU reference for the one-hot product under TF32: with W rounded this
// way, 1 * w plus zeros (accumulated in FP32) is exactly the rounded w. PTX documents both
// rounding (cvt.rna.tf32.f32) and plain truncation of the low 13 bits for tensor-core inputs,
// so the test asks which one the device's cuBLAS used rather than assuming.
#include "embedlab/matrix.hpp"

namespace embedlab::cuda {

enum class Tf32Rounding {
  nearest_even,  // round to nearest, ties to even (IEEE's default)
  nearest_away,  // round to nearest, ties away from zero (cvt.rna)
  toward_zero,   // drop the low 13 bits
};

// "nearest, ties to even", ...
const char* rounding_name(Tf32Rounding rounding);

// x with its low 13 mantissa bits cleared after rounding; Inf and NaN unchanged. A finite x can
// round up to Inf, as any rounding to nearest does at the top of the range.
float round_to_tf32(float x, Tf32Rounding rounding);
Matrix round_to_tf32(const Matrix& m, Tf32Rounding rounding);

}  // namespace embedlab::cuda
