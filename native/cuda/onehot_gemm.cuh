#pragma once
// The one-hot route on the device: materialise onehot (n, vocab), then a real cuBLAS SGEMM
// out (n, dim) = onehot (n, vocab) * weight (vocab, dim), all row-major.
#include <cublas_api.h>
#include <cuda_runtime_api.h>

#include <cstdint>

namespace embedlab::cuda {

// onehot(k, :) = 0 except onehot(k, ids[k]) = 1, like F.one_hot(ids, vocab).float().
// Callers have checked ids against vocab.
void fill_one_hot(const std::int64_t* ids, std::int64_t n, std::int64_t vocab, float* onehot,
                  cudaStream_t stream);

// Every one of the n * vocab * dim multiply-adds runs; no shortcut for the zeros. The handle
// must be in CUBLAS_DEFAULT_MATH (no TF32: it would round weight to 10 mantissa bits).
void onehot_gemm(cublasHandle_t handle, const float* onehot, const float* weight, std::int64_t n,
                 std::int64_t vocab, std::int64_t dim, float* out);

}  // namespace embedlab::cuda
