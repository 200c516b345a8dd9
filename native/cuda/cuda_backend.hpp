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
#include "half_matrix.hpp"
#include "product_math.hpp"

namespace embedlab::cuda {

// "" when a CUDA device can be used, else why not, in the CUDA runtime's words.
std::string device_unavailable_reason();

enum class GatherKernel {
  automatic,   // vectorised where the rows allow it, else naive
  naive,       // one value per thread: the reference
  vectorised,  // 16 bytes per thread: a float4, or eight 2-byte values; needs d % 4 == 0 for
               // float32 rows, d % 8 == 0 for bfloat16 and float16 rows
};

enum class BackwardKernel {
  deterministic,  // sort ids, sum each id's rows in increasing position: bit-identical to the CPU
  atomic,         // atomicAdd per element: faster on repeats, summation order varies run to run
};

// embedlab::lookup on the GPU: (n, d), row k = weight(ids[k], :). Same checks as the CPU's.
Matrix lookup(const Matrix& weight, const Ids& ids, GatherKernel kernel = GatherKernel::automatic);
// The same on a bfloat16 or float16 table: the rows' bits, half the bytes of float32. Checks
// the table's size, then as embedlab::lookup(to_float(weight), ids).
Bf16Matrix lookup(const Bf16Matrix& weight, const Ids& ids,
                  GatherKernel kernel = GatherKernel::automatic);
F16Matrix lookup(const F16Matrix& weight, const Ids& ids,
                 GatherKernel kernel = GatherKernel::automatic);

// The one-hot route on the GPU: one_hot(ids, V) (n, V) is materialised in device memory, then
// multiplied by weight (V, d) with cuBLAS, every multiplication by zero included. FP32 math
// reproduces the lookup bit for bit; TF32 gives the lookup of a W rounded to 10 mantissa bits.
// Same checks as embedlab::one_hot.
Matrix onehot_lookup(const Matrix& weight, const Ids& ids, ProductMath math = ProductMath::fp32);
// bfloat16 one-hot times a bfloat16 table, summed in FP32: the lookup's rows, bit for bit.
Bf16Matrix onehot_lookup(const Bf16Matrix& weight, const Ids& ids);

// embedlab::embedding_backward on the GPU: dL/dW (vocab, d) from G = grad_output (n, d).
Matrix embedding_backward(const Ids& ids, const Matrix& grad_output, Index vocab,
                          const EmbeddingOptions& options = {},
                          BackwardKernel kernel = BackwardKernel::deterministic);

}  // namespace embedlab::cuda
