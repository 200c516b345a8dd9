#pragma once
// Printing matrices the way PyTorch prints tensors, so output can be read next to a notebook.
#include <string>
#include <vector>

#include "embedlab/matrix.hpp"

namespace embedlab {

struct TensorStyle {
  std::string header;                 // a line before, e.g. "Parameter containing:\n"
  std::vector<std::string> suffixes;  // e.g. {"requires_grad=True"} or {"grad_fn=<MmBackward0>"}
  bool integer = false;               // print as integers: F.one_hot gives an int64 tensor
};

// "tensor([[ 0.3374, -0.1778],\n        [ 1.3010,  1.2753]])" with PyTorch's default
// print options: 4 decimals in fixed notation, scientific notation when the magnitudes
// span more than 1000x or exceed 1e8, integer-valued floats as "1.", nan/inf as PyTorch spells
// them, more than 1000 elements summarised with "...", lines wrapped at 80 columns.
std::string format_tensor(const Matrix& m, const TensorStyle& style = {});

}  // namespace embedlab
