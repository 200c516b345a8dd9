#pragma once
// Turning CUDA and cuBLAS status codes into CudaError exceptions.
#include <cublas_api.h>
#include <cuda_runtime_api.h>

#include <string>

#include "cuda_error.hpp"

namespace embedlab::cuda {

// Throws CudaError("<what>: <cudaGetErrorString(status)>") unless status is cudaSuccess.
void check_cuda(cudaError_t status, const std::string& what);

// Throws CudaError("<what>: <cublasGetStatusString(status)>") unless it is a success.
void check_cublas(cublasStatus_t status, const std::string& what);

// After a kernel launch: a bad launch configuration is reported here, not at the next sync.
void check_launch(const char* kernel);

}  // namespace embedlab::cuda
