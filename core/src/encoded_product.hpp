#pragma once
// The dense product shared by the one-hot (Linear) and multi-hot (EmbeddingBag) routes.
#include "embedlab/limits.hpp"
#include "embedlab/matrix.hpp"

namespace embedlab {

// encoding (n, V) times weight (V, d) as a real GEMM accumulated into +0, as torch.mm does.
// `encoding_name` names the left operand in the shape error ("the one-hot matrix").
Matrix encoded_product(const Matrix& encoding, const Matrix& weight, const char* encoding_name,
                       const Limits& limits);

}  // namespace embedlab
