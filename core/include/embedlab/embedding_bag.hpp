#pragma once
// nn.EmbeddingBag: the rows of each bag of ids reduced to one row (sum, mean or max), with the
// bags given as start offsets into one flat list of ids, as F.embedding_bag takes them.
//
// For sum and mean a bag is a row of a multi-hot matrix M (B, V) times W: M(b, v) counts id v
// in bag b (or adds up its per-sample weights; for mean, divided by the bag's size). In float32
// the product adds W's rows in column order v = 0, 1, ... with the GEMM's blocking, the bag in
// position order, so the two agree to rounding, and bit for bit when every bag holds at most
// two ids (a + b == b + a). max has no matrix-product form: a maximum is not a weighted sum.
#include <optional>
#include <string_view>
#include <vector>

#include "embedlab/encoding.hpp"
#include "embedlab/limits.hpp"
#include "embedlab/matrix.hpp"
#include "embedlab/streamed.hpp"
#include "embedlab/table.hpp"

namespace embedlab {

enum class BagMode { sum, mean, max };

// "sum", "mean", "max": PyTorch's names, the only place they are spelled out.
std::string_view bag_mode_name(BagMode mode);
// The mode a name stands for; InputError (of mode) naming the three for anything else.
BagMode parse_bag_mode(std::string_view name);

struct BagOptions {
  BagMode mode = BagMode::mean;      // nn.EmbeddingBag's default
  bool include_last_offset = false;  // offsets has B + 1 entries, CSR style, the last one n:
                                     // bag b is [offsets[b], offsets[b + 1]); else B entries
                                     // and the last bag ends at n
  std::optional<Index> padding_idx;  // ids equal to it are left out (and not counted in a mean)
  std::vector<float> per_sample_weights;  // empty, or one weight per id (mode sum only)
  bool scale_grad_by_freq = false;        // backward: divide by the id's count over all bags
};

struct BagOutput {
  Matrix output;                // (B, d); an empty bag gives a row of zeros
  std::vector<Index> bag_size;  // (B) ids that count in each bag (padding_idx left out)
  std::vector<Index> max_rows;  // mode max: (B * d) the row of W each output element came
                                // from (first one on ties), -1 for an empty bag
};

// As F.embedding_bag(ids, W, offsets, mode=..., per_sample_weights=..., padding_idx=...,
// include_last_offset=...) on the CPU, bit for bit: sum adds the rows in position order from
// +0.0f (with weights: fma(w, row, acc), or acc + float(w * row) when padding_idx is set), mean
// divides that sum by float(size) (an empty bag stays zero), max keeps the first largest
// (a later NaN is never chosen). Validates ids, offsets, weights and padding_idx first.
BagOutput embedding_bag(const Matrix& weight, const Ids& ids, const Ids& offsets,
                        const BagOptions& options = {}, const Limits& limits = default_limits);
// The same from a table handle: reads the rows the bags name, each once, and nothing else.
BagOutput embedding_bag(const Table& weight, const Ids& ids, const Ids& offsets,
                        const BagOptions& options = {}, const Limits& limits = default_limits);

// The multi-hot matrix M (B, V) whose product with W gives the sum or mean bags (see above), by
// its entries: M(b, v) adds the weights of id v in bag b from +0.0 in position order (1 each
// without per_sample_weights), and for mean is then divided by float(the bag's size). Throws
// InputError for mode max.
Encoding bag_encoding(const Ids& ids, const Ids& offsets, Index vocab,
                      const BagOptions& options = {}, const Limits& limits = default_limits);
// The same matrix whole, within limits.max_elements.
Matrix bag_matrix(const Ids& ids, const Ids& offsets, Index vocab, const BagOptions& options = {},
                  const Limits& limits = default_limits);

// M (B, V) @ W (V, d) as a real dense GEMM added onto +0.0, as torch.mm computes it: an empty
// bag's row is +0.0 (a sum of 0 * (negative) products alone would be -0.0). The GEMM is
// onehot_product's (a fixed blocking, so that the product streamed through a table gives the
// same bits); a bag of three or more rows rounds as its blocking adds them.
Matrix bag_product(const Matrix& m, const Matrix& weight, const Limits& limits = default_limits);

// dL/dW (V, d) for an upstream gradient G (B, d) of the bags. sum and mean: each id's rows are
// added in increasing position, row += fma(s, G(bag), row) with s = float(weight / count / size)
// computed in double (1 where there is no factor). PyTorch 1.13 orders an id's rows by an
// unstable std::sort instead: that is position order for n <= 16 ids (insertion sort), but not
// reliably beyond, where sums of 3+ rows (or of differently scaled rows) may differ in the last
// bits. With scale_grad_by_freq PyTorch 1.13 also divides some rows by another id's count
// (pytorch/pytorch#190063); here each row is divided by its own id's count, as documented.
// max: G(b, j) goes to W(max_rows(b, j), j), bags in order, as in PyTorch.
// `forward` is embedding_bag's result for the same input.
Matrix embedding_bag_backward(const Ids& ids, const Ids& offsets, const Matrix& grad_output,
                              const BagOutput& forward, Index vocab, const BagOptions& options = {},
                              const Limits& limits = default_limits);
// The same gradient as a view (streamed.hpp): whole when it fits the limits, else the rows the
// bags reach (and those `view` keeps) and a summary; for any V within the limits.
Gradient embedding_bag_backward_view(const Ids& ids, const Ids& offsets, const Matrix& grad_output,
                                     const BagOutput& forward, Index vocab,
                                     const BagOptions& options = {},
                                     const GradientViewOptions& view = {},
                                     const Limits& limits = default_limits);

}  // namespace embedlab
