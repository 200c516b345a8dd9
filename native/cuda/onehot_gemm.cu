#include <cublas_v2.h>

#include "cuda_check.hpp"
#include "onehot_gemm.cuh"

namespace embedlab::cuda {
namespace {

constexpr unsigned kThreads = 256;

// One thread per token: the 1 of row k. The zeros come from a memset (0 is all-zero bits in
// float32 and bfloat16 alike).
template <typename T>
__global__ void scatter_ones_kernel(const std::int64_t* __restrict__ ids, std::int64_t n,
                                    std::int64_t vocab, T one, T* __restrict__ onehot) {
  const std::int64_t k = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (k < n) onehot[k * vocab + ids[k]] = one;
}

template <typename T>
void fill(const std::int64_t* ids, std::int64_t n, std::int64_t vocab, T one, T* onehot,
          cudaStream_t stream) {
  if (n == 0) return;
  check_cuda(cudaMemsetAsync(onehot, 0, static_cast<std::size_t>(n * vocab) * sizeof(T), stream),
             "zeroing the one-hot matrix");
  const auto blocks = static_cast<unsigned>((n + kThreads - 1) / kThreads);
  scatter_ones_kernel<T><<<blocks, kThreads, 0, stream>>>(ids, n, vocab, one, onehot);
  check_launch("scatter_ones_kernel");
}

// out = onehot * weight, row-major, operands and result of `type`, alpha and beta float.
// cuBLAS is column-major: a row-major (r, c) matrix is its (c, r) transpose there. So the
// row-major product is computed as out^T (dim, n) = weight^T (dim, vocab) * onehot^T (vocab, n):
// the operands swap places and neither is transposed.
void row_major_product(cublasHandle_t handle, const void* onehot, const void* weight,
                       cudaDataType_t type, cublasComputeType_t compute, std::int64_t n,
                       std::int64_t vocab, std::int64_t dim, void* out, const char* what) {
  if (n == 0 || dim == 0) return;
  const float one = 1.0f;
  const float zero = 0.0f;
  const auto m = static_cast<int>(dim);
  const auto cols = static_cast<int>(n);
  const auto k = static_cast<int>(vocab);
  check_cublas(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, cols, k, &one, weight, type, m,
                            onehot, type, k, &zero, out, type, m, compute, CUBLAS_GEMM_DEFAULT),
               what);
}

}  // namespace

void fill_one_hot(const std::int64_t* ids, std::int64_t n, std::int64_t vocab, float* onehot,
                  cudaStream_t stream) {
  fill(ids, n, vocab, 1.0f, onehot, stream);
}

void fill_one_hot(const std::int64_t* ids, std::int64_t n, std::int64_t vocab,
                  __nv_bfloat16* onehot, cudaStream_t stream) {
  fill(ids, n, vocab, __float2bfloat16_rn(1.0f), onehot, stream);
}

void onehot_gemm(cublasHandle_t handle, const float* onehot, const float* weight, std::int64_t n,
                 std::int64_t vocab, std::int64_t dim, float* out, ProductMath math) {
  if (math == ProductMath::tf32)
    row_major_product(handle, onehot, weight, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, n, vocab,
                      dim, out, "cublasGemmEx (one-hot * weight, TF32)");
  else
    row_major_product(handle, onehot, weight, CUDA_R_32F, CUBLAS_COMPUTE_32F, n, vocab, dim, out,
                      "cublasGemmEx (one-hot * weight, FP32)");
}

void onehot_gemm(cublasHandle_t handle, const __nv_bfloat16* onehot, const __nv_bfloat16* weight,
                 std::int64_t n, std::int64_t vocab, std::int64_t dim, __nv_bfloat16* out) {
  row_major_product(handle, onehot, weight, CUDA_R_16BF, CUBLAS_COMPUTE_32F, n, vocab, dim, out,
                    "cublasGemmEx (one-hot * weight, bfloat16)");
}

}  // namespace embedlab::cuda
