#pragma once
// The CUDA backend: the core's lookup, one-hot product and backward, run on a GPU.
// Host matrices in, host matrices out. Every call first runs the same checks as the CPU call
// it mirrors, so bad input throws the CPU path's InputError (same text) before any device is
// touched, even on a machine without a GPU. A failing device throws CudaError with the CUDA
// runtime's own text (cudaGetErrorString). Kernels never assert.
#include <string>

#include "cuda_error.hpp"
#include "embedlab/backward.hpp"
#include "embedlab/matrix.hpp"

namespace embedlab::cuda {

// "" when a CUDA device can be used, else why not, in the CUDA runtime's words.
std::string device_unavailable_reason();

enum class GatherKernel {
  automatic,  // vec4 when d % 4 == 0, else naive
  naive,      // one thread per float: the reference
  vec4,       // one thread per float4 (16-byte loads); needs d % 4 == 0
};

enum class BackwardKernel {
  deterministic,  // sort ids, sum each id's rows in increasing position: bit-identical to the CPU
  atomic,         // atomicAdd per element: faster on repeats, summation order varies run to run
};

// embedlab::lookup on the GPU: (n, d), row k = weight(ids[k], :).
Matrix lookup(const Matrix& weight, const Ids& ids, GatherKernel kernel = GatherKernel::automatic);

// The one-hot route on the GPU: one_hot(ids, V) (n, V) is materialised in device memory, then
// multiplied by weight (V, d) with cuBLAS SGEMM, every multiplication by zero included.
// Same checks as embedlab::one_hot.
Matrix onehot_lookup(const Matrix& weight, const Ids& ids);

// embedlab::embedding_backward on the GPU: dL/dW (vocab, d) from G = grad_output (n, d).
Matrix embedding_backward(const Ids& ids, const Matrix& grad_output, Index vocab,
                          const EmbeddingOptions& options = {},
                          BackwardKernel kernel = BackwardKernel::deterministic);

}  // namespace embedlab::cuda
