#include "cuda_check.hpp"

namespace embedlab::cuda {

void check_cuda(cudaError_t status, const std::string& what) {
  if (status == cudaSuccess) return;
  cudaGetLastError();  // clear a non-sticky error so the next call starts clean
  throw CudaError(what + ": " + cudaGetErrorString(status));
}

void check_cublas(cublasStatus_t status, const std::string& what) {
  if (status != CUBLAS_STATUS_SUCCESS) throw CudaError(what + ": " + cublasGetStatusString(status));
}

void check_launch(const char* kernel) {
  check_cuda(cudaGetLastError(), std::string("launching ") + kernel);
}

}  // namespace embedlab::cuda
