#pragma once
// The sparse gradient of nn.Embedding(sparse=True), and the sparse-tensor operations the
// optimizers run on it, as PyTorch 1.13 runs them on the CPU.
//
// A sparse COO tensor of shape (V, d) with one sparse dimension is a list of entries: entry k
// adds values.row(k) to row rows[k]. Until it is coalesced, rows may repeat and come in any
// order: the embedding's gradient has one entry per id, in position order, and PyTorch keeps it
// so. Only coalesce() sums a row's entries; every other operation works entry by entry, so a
// repeated id is applied in several roundings where the dense gradient sums it first.
// Arithmetic: float32, each fused multiply-add where PyTorch's kernel (or OpenBLAS's saxpy)
// fuses one, as stated per function.
#include <optional>

#include "embedlab/limits.hpp"
#include "embedlab/matrix.hpp"

namespace embedlab {

struct SparseRows {
  Index vocab = 0;         // V: the tensor's rows
  Ids rows;                // the row of each entry
  Matrix values;           // (entries, d)
  bool coalesced = false;  // PyTorch's flag: rows ascending and unique
};

// weight.grad of nn.Embedding(V, d, padding_idx=p, sparse=True) after embedding(ids).backward(G):
// G's rows as entries in position order, those of padding_idx left out; coalesced only with
// fewer than two entries. Validates like embedding_backward().
SparseRows embedding_sparse_backward(const Ids& ids, const Matrix& grad_output, Index vocab,
                                     std::optional<Index> padding_idx,
                                     const Limits& limits = default_limits);

// grad.coalesce(): rows ascending, each row's entries added into one (a copy of the first, then
// + each next). PyTorch orders the entries with an unstable std::sort of their rows (libstdc++'s
// introsort, reproduced in torch_sort.hpp), so past 16 entries a row repeated three or more
// times is added in that sort's order, not in position order.
SparseRows coalesce(const SparseRows& s);

// t.add(src, alpha=alpha) for two sparse tensors: PyTorch walks both entry lists at once as if
// each were sorted, taking the entry with the smaller row first; equal rows merge into one entry
// 0 + t + alpha * src (the second a fused multiply-add, as OpenBLAS's saxpy does it). Unsorted
// lists come out interleaved, not summed. With no entries in src the result is t; with none in t
// it is src * alpha.
SparseRows sparse_add(const SparseRows& t, const SparseRows& src, float alpha);

// s * scalar: every value multiplied (sparse mul_ by a number).
SparseRows sparse_scaled(SparseRows s, float scalar);

// dense.add_(s, alpha=alpha) for dense (V, d): entry by entry in order,
// row = fma(values, alpha, row), as add_out_dense_sparse_cpu does; no coalescing.
void add_sparse_to(Matrix& dense, const SparseRows& s, float alpha);

// s.to_dense(): zeros, then add_sparse_to(..., 1).
Matrix to_dense(const SparseRows& s);

// dense.sparse_mask(s) for coalesced s: the rows of dense at s's rows, as values.
SparseRows sparse_mask(const Matrix& dense, const SparseRows& s);

}  // namespace embedlab
