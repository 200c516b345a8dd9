#pragma once
// How cuBLAS may multiply float32 matrices in the one-hot route.

namespace embedlab::cuda {

enum class ProductMath {
  // Plain FP32 (CUBLAS_COMPUTE_32F, no TF32): 1 * w plus zeros is w, so the product
  // reproduces the lookup bit for bit. PyTorch's torch.backends.cuda.matmul.allow_tf32 = False.
  fp32,
  // TF32 tensor cores (CUBLAS_COMPUTE_32F_FAST_TF32): W is read with 10 of its 23 mantissa bits,
  // so the product is the lookup of a rounded W. PyTorch's allow_tf32 = True.
  tf32,
};

}  // namespace embedlab::cuda
