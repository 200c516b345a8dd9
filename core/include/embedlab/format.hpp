#pragma once
// Printing matrices the way PyTorch prints tensors, so output can be read next to a notebook.
#include <functional>
#include <string>
#include <vector>

#include "embedlab/matrix.hpp"
#include "embedlab/table.hpp"

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

// Each of `values` as PyTorch prints an element of a tensor whose shown elements are `shown`: the
// notation (fixed with 4 decimals, integer-valued as "1.", or scientific) is chosen from `shown`
// as format_tensor chooses it, without the padding that aligns the columns. The page's tables,
// picture and readouts print their numbers with it.
std::vector<std::string> format_elements(const std::vector<double>& shown,
                                         const std::vector<double>& values, bool integer = false);

// PyTorch's scientific notation for one finite number, 4 decimals rounded half to even, at least
// two exponent digits: 1.1920928955078125e-07 -> "1.1921e-07", 0.5 -> "5.0000e-01".
std::string scientific_text(double value);

// A count as prose writes it, thousands separated by commas: 1234567 -> "1,234,567".
std::string count_text(Index n);

// A float as Python's str() writes it, in the messages PyTorch formats with "{}": the shortest
// digits that read back exactly; scientific below 1e-4 and from 1e16 ("1e-05", "1e+16"), else
// fixed with at least one decimal ("0.1", "-1.0"); "nan", "inf", "-inf".
std::string python_float_text(double value);

// The same for a (rows, cols) tensor that is not held whole: at(i, j) is read for the elements
// printed only (all of them up to 1000, else the first and last 3 rows and columns).
std::string format_tensor(Index rows, Index cols, const std::function<float(Index, Index)>& at,
                          const TensorStyle& style = {});
// A (slices, rows, cols) tensor, as PyTorch prints a 3-D one: its slices one column further in,
// a blank line between them, and with more than 1000 elements only the first and last 3 of each
// axis (at(s, i, j) is read for the elements printed only).
std::string format_tensor(Index slices, Index rows, Index cols,
                          const std::function<float(Index, Index, Index)>& at,
                          const TensorStyle& style = {});
// A tensor's .shape as print() writes it: "torch.Size([8, 4, 256])".
std::string torch_size_text(const std::vector<Index>& shape);
// The rows (or columns) of a (rows, cols) tensor that format_tensor prints, ascending.
std::vector<Index> printed_indices(Index size, Index rows, Index cols);

// A table's printing, reading only the rows printed; `transposed` prints W.T (d, V), as
// nn.Linear holds the same parameters.
std::string format_tensor(const Table& table, const TensorStyle& style = {},
                          bool transposed = false);

}  // namespace embedlab
