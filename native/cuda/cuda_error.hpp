#pragma once
// The exception every CUDA or cuBLAS failure becomes; its text is the runtime's own.
#include <stdexcept>

namespace embedlab::cuda {

class CudaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace embedlab::cuda
