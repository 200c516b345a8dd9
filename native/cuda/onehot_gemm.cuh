#pragma once
// The one-hot route on the device: materialise onehot (n, vocab), then a real cuBLAS GEMM
// out (n, dim) = onehot (n, vocab) * weight (vocab, dim), all row-major. Every one of the
// n * vocab * dim multiply-adds runs; no shortcut for the zeros.
#include <cublas_api.h>
#include <cuda_bf16.h>
#include <cuda_runtime_api.h>

#include <cstdint>

#include "product_math.hpp"

namespace embedlab::cuda {

// onehot(k, :) = 0 except onehot(k, ids[k]) = 1, like F.one_hot(ids, vocab).float() (or
// .bfloat16()). Callers have checked ids against vocab.
void fill_one_hot(const std::int64_t* ids, std::int64_t n, std::int64_t vocab, float* onehot,
                  cudaStream_t stream);
void fill_one_hot(const std::int64_t* ids, std::int64_t n, std::int64_t vocab,
                  __nv_bfloat16* onehot, cudaStream_t stream);

// float32 operands and result, FP32 or TF32 arithmetic (product_math.hpp), chosen per call by
// the compute type. The handle must stay in CUBLAS_DEFAULT_MATH: in CUBLAS_TF32_TENSOR_OP_MATH
// cuBLAS may use TF32 for the FP32 compute type too.
void onehot_gemm(cublasHandle_t handle, const float* onehot, const float* weight, std::int64_t n,
                 std::int64_t vocab, std::int64_t dim, float* out,
                 ProductMath math = ProductMath::fp32);

// bfloat16 operands and result, products summed in FP32 (CUBLAS_COMPUTE_32F), as torch.mm on
// bfloat16 tensors: 1 * w plus zeros is w, and w is a bfloat16, so the result is the lookup.
void onehot_gemm(cublasHandle_t handle, const __nv_bfloat16* onehot, const __nv_bfloat16* weight,
                 std::int64_t n, std::int64_t vocab, std::int64_t dim, __nv_bfloat16* out);

}  // namespace embedlab::cuda
