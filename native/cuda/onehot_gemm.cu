#include <cublas_v2.h>

#include "cuda_check.hpp"
#include "onehot_gemm.cuh"

namespace embedlab::cuda {
namespace {

constexpr unsigned kThreads = 256;

// One thread per token: the 1 of row k. The zeros come from a memset.
__global__ void scatter_ones_kernel(const std::int64_t* __restrict__ ids, std::int64_t n,
                                    std::int64_t vocab, float* __restrict__ onehot) {
  const std::int64_t k = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (k < n) onehot[k * vocab + ids[k]] = 1.0f;
}

}  // namespace

void fill_one_hot(const std::int64_t* ids, std::int64_t n, std::int64_t vocab, float* onehot,
                  cudaStream_t stream) {
  if (n == 0) return;
  check_cuda(
      cudaMemsetAsync(onehot, 0, static_cast<std::size_t>(n * vocab) * sizeof(float), stream),
      "zeroing the one-hot matrix");
  const auto blocks = static_cast<unsigned>((n + kThreads - 1) / kThreads);
  scatter_ones_kernel<<<blocks, kThreads, 0, stream>>>(ids, n, vocab, onehot);
  check_launch("scatter_ones_kernel");
}

void onehot_gemm(cublasHandle_t handle, const float* onehot, const float* weight, std::int64_t n,
                 std::int64_t vocab, std::int64_t dim, float* out) {
  if (n == 0 || dim == 0) return;
  // cuBLAS is column-major: a row-major (r, c) matrix is its (c, r) transpose there. So the
  // row-major out = onehot * weight is computed as out^T (dim, n) = weight^T (dim, vocab) *
  // onehot^T (vocab, n): the operands swap places and neither is transposed.
  const float one = 1.0f;
  const float zero = 0.0f;
  const auto m = static_cast<int>(dim);
  const auto cols = static_cast<int>(n);
  const auto k = static_cast<int>(vocab);
  check_cublas(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, cols, k, &one, weight, m, onehot, k,
                           &zero, out, m),
               "cublasSgemm (one-hot * weight)");
}

}  // namespace embedlab::cuda
