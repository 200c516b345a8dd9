#pragma once
// Tables of 2-byte floats (bfloat16, float16) on the host: row-major, like a contiguous bf16 or
// f16 torch tensor. The conversions are CUDA's own host functions (cuda_bf16.h, cuda_fp16.h).
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <vector>

#include "embedlab/matrix.hpp"

namespace embedlab::cuda {

// (rows, cols), values[r * cols + c]. The CUDA calls check values.size() == rows * cols.
template <typename T>
struct HalfMatrix {
  Index rows = 0;
  Index cols = 0;
  std::vector<T> values;
};

using Bf16Matrix = HalfMatrix<__nv_bfloat16>;
using F16Matrix = HalfMatrix<__half>;

// Each float rounded to nearest, ties to even, as W.to(torch.bfloat16) and W.half() round: NaN
// stays NaN, and a value that rounds beyond the largest finite one becomes +-Inf.
Bf16Matrix to_bf16(const Matrix& m);
F16Matrix to_f16(const Matrix& m);

// Exact: every bfloat16 and float16 value is a float32 value (W.float()).
Matrix to_float(const Bf16Matrix& m);
Matrix to_float(const F16Matrix& m);

}  // namespace embedlab::cuda
