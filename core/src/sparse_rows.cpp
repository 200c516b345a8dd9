#include "embedlab/sparse_rows.hpp"

#include <cmath>

#include "embedlab/backward.hpp"
#include "embedlab/torch_sort.hpp"

namespace embedlab {
namespace {

Index entries(const SparseRows& s) { return static_cast<Index>(s.rows.size()); }

// An empty sparse tensor shaped like s: no entries, s's width.
SparseRows empty_like(const SparseRows& s) {
  SparseRows r;
  r.vocab = s.vocab;
  r.values = Matrix(0, s.values.cols());
  r.coalesced = true;
  return r;
}

}  // namespace

SparseRows embedding_sparse_backward(const Ids& ids, const Matrix& grad_output, Index vocab,
                                     std::optional<Index> padding_idx, const Limits& limits) {
  EmbeddingOptions options;
  options.padding_idx = padding_idx;
  const Index padding = check_backward_input(ids, grad_output, vocab, options, limits);
  SparseRows g;
  g.vocab = vocab;
  std::vector<Index> kept;
  for (std::size_t k = 0; k < ids.size(); ++k)
    if (ids[k] != padding) kept.push_back(static_cast<Index>(k));
  g.values.resize(static_cast<Index>(kept.size()), grad_output.cols());
  for (std::size_t e = 0; e < kept.size(); ++e) {
    g.rows.push_back(ids[static_cast<std::size_t>(kept[e])]);
    g.values.row(static_cast<Index>(e)) = grad_output.row(kept[e]);
  }
  g.coalesced = kept.size() < 2;
  return g;
}

SparseRows coalesce(const SparseRows& s) {
  if (s.coalesced) return s;
  SparseRows r = empty_like(s);
  const std::vector<Index> order = torch_sort_permutation(s.rows);
  r.values.resize(entries(s), s.values.cols());
  Index out = -1;
  for (const Index k : order) {
    const Index row = s.rows[static_cast<std::size_t>(k)];
    if (out >= 0 && r.rows.back() == row) {
      r.values.row(out) += s.values.row(k);  // saxpy with alpha = 1: one rounded addition
    } else {
      r.rows.push_back(row);
      r.values.row(++out) = s.values.row(k);
    }
  }
  r.values.conservativeResize(out + 1, s.values.cols());
  return r;
}

SparseRows sparse_add(const SparseRows& t, const SparseRows& src, float alpha) {
  if (src.rows.empty()) return t;
  if (t.rows.empty()) return sparse_scaled(src, alpha);
  SparseRows r = empty_like(t);
  const Index tn = entries(t), sn = entries(src), d = t.values.cols();
  r.values = Matrix::Zero(tn + sn, d);
  Index ti = 0, si = 0, ri = 0;
  while (ti < tn || si < sn) {
    // cmp > 0: take t's entry; < 0: src's; 0: both, merged.
    int cmp = 0;
    if (ti >= tn) {
      cmp = -1;
    } else if (si >= sn) {
      cmp = 1;
    } else if (t.rows[static_cast<std::size_t>(ti)] != src.rows[static_cast<std::size_t>(si)]) {
      cmp = t.rows[static_cast<std::size_t>(ti)] < src.rows[static_cast<std::size_t>(si)] ? 1 : -1;
    }
    float* out = r.values.row(ri).data();
    if (cmp >= 0) {
      r.rows.push_back(t.rows[static_cast<std::size_t>(ti)]);
      const float* v = t.values.row(ti++).data();
      for (Index j = 0; j < d; ++j) out[j] += v[j];  // onto +0.0: saxpy with alpha = 1
    }
    if (cmp <= 0) {
      if (cmp < 0) r.rows.push_back(src.rows[static_cast<std::size_t>(si)]);
      const float* v = src.values.row(si++).data();
      for (Index j = 0; j < d; ++j) out[j] = std::fma(alpha, v[j], out[j]);
    }
    ++ri;
  }
  r.values.conservativeResize(ri, d);
  r.coalesced = t.coalesced && src.coalesced;
  return r;
}

SparseRows sparse_scaled(SparseRows s, float scalar) {
  s.values *= scalar;
  return s;
}

void add_sparse_to(Matrix& dense, const SparseRows& s, float alpha) {
  const Index d = dense.cols();
  for (Index k = 0; k < entries(s); ++k) {
    float* row = dense.row(s.rows[static_cast<std::size_t>(k)]).data();
    const float* v = s.values.row(k).data();
    for (Index j = 0; j < d; ++j) row[j] = std::fma(v[j], alpha, row[j]);
  }
}

Matrix to_dense(const SparseRows& s) {
  Matrix dense = Matrix::Zero(s.vocab, s.values.cols());
  add_sparse_to(dense, s, 1.0f);
  return dense;
}

SparseRows sparse_mask(const Matrix& dense, const SparseRows& s) {
  SparseRows r = s;
  for (Index k = 0; k < entries(s); ++k)
    r.values.row(k) = dense.row(s.rows[static_cast<std::size_t>(k)]);
  return r;
}

}  // namespace embedlab
