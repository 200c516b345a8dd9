#include "embedlab/embedding_bag.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <utility>

#include "embedlab/error.hpp"
#include "embedlab/ids.hpp"
#include "embedlab/limits.hpp"
#include "embedlab/lookup.hpp"
#include "embedlab/padding_idx.hpp"
#include "encoded_product.hpp"
#include "quoted.hpp"

namespace embedlab {
namespace {

// Bag b holds ids [begin, end).
struct BagRange {
  Index begin;
  Index end;
};

std::string offset_at(std::size_t i, Index value) {
  return "offsets[" + std::to_string(i) + "] = " + std::to_string(value);
}

std::vector<BagRange> bag_ranges(const Ids& offsets, Index n, bool include_last_offset,
                                 const Limits& limits) {
  if (offsets.empty()) {
    throw InputError(Argument::offsets,
                     include_last_offset
                         ? "offsets is empty: with include_last_offset it holds each bag's start "
                           "and then the end of the ids, e.g. 0, 2, 5"
                         : "offsets is empty: give the position where each bag starts, "
                           "beginning with 0, e.g. 0, 2");
  }
  const auto bags = static_cast<Index>(offsets.size()) - (include_last_offset ? 1 : 0);
  check_count(bags, Argument::offsets, "bags", limits);
  if (offsets[0] != 0) {
    throw InputError(Argument::offsets,
                     offset_at(0, offsets[0]) +
                         " but the first bag must start at the first id: offsets[0] must be 0");
  }
  for (std::size_t i = 1; i < offsets.size(); ++i) {
    if (offsets[i] < offsets[i - 1]) {
      throw InputError(
          Argument::offsets,
          offset_at(i, offsets[i]) + " is less than " + offset_at(i - 1, offsets[i - 1]) +
              ": offsets must not decrease (a bag runs from its offset to the next one)");
    }
    if (offsets[i] > n) {
      throw InputError(Argument::offsets, offset_at(i, offsets[i]) +
                                              " is past the end of the ids: an offset can be "
                                              "at most the number of ids, n = " +
                                              std::to_string(n));
    }
  }
  if (include_last_offset && offsets.back() != n) {
    throw InputError(Argument::offsets,
                     offset_at(offsets.size() - 1, offsets.back()) +
                         " but with include_last_offset the last offset is the end of the ids and "
                         "must be n = " +
                         std::to_string(n));
  }
  std::vector<BagRange> ranges(static_cast<std::size_t>(bags));
  for (std::size_t b = 0; b < ranges.size(); ++b) {
    ranges[b].begin = offsets[b];
    ranges[b].end = b + 1 < offsets.size() ? offsets[b + 1] : n;
  }
  return ranges;
}

void check_per_sample_weights(const BagOptions& options, Index n) {
  if (options.per_sample_weights.empty()) return;
  if (options.mode != BagMode::sum) {
    throw InputError(Argument::per_sample_weights,
                     std::string("per_sample_weights are only supported for mode='sum' (got "
                                 "mode='") +
                         std::string(bag_mode_name(options.mode)) + "'), as in PyTorch");
  }
  const auto given = static_cast<Index>(options.per_sample_weights.size());
  if (given != n) {
    throw InputError(Argument::per_sample_weights,
                     "per_sample_weights has " + std::to_string(given) + " values but there are " +
                         std::to_string(n) + " ids: give one weight per id");
  }
}

// Checks shared by the forward, the backward and the matrix; returns the bags.
std::vector<BagRange> checked_bags(const Ids& ids, const Ids& offsets, Index vocab,
                                   const BagOptions& options, const Limits& limits) {
  const auto n = static_cast<Index>(ids.size());
  check_id_count(n, limits);
  check_ids(ids, vocab);
  auto ranges = bag_ranges(offsets, n, options.include_last_offset, limits);
  check_per_sample_weights(options, n);
  return ranges;
}

// acc (dim) += w * row, fused or with the product rounded first; for every w, 0 included
// (0 * Inf gives NaN, as in PyTorch).
void add_weighted_row(float* acc, const float* row, Index dim, float w, bool fused = true) {
  if (w == 1.0f) {
    for (Index j = 0; j < dim; ++j) acc[j] += row[j];
  } else if (fused) {
    for (Index j = 0; j < dim; ++j) acc[j] = std::fma(w, row[j], acc[j]);
  } else {
    for (Index j = 0; j < dim; ++j) {
      const float product = w * row[j];
      acc[j] += product;
    }
  }
}

// W's rows as the bags read them: row(v) is W(v, :), dim wide.
using RowOf = std::function<const float*(Index)>;

void max_bag(const RowOf& row_of, Index dim, const Ids& ids, BagRange bag, Index padding,
             float* out, Index* rows) {
  bool first = true;
  for (Index k = bag.begin; k < bag.end; ++k) {
    const Index v = ids[static_cast<std::size_t>(k)];
    if (v == padding) continue;
    const float* row = row_of(v);
    for (Index j = 0; j < dim; ++j) {
      if (first || row[j] > out[j]) {
        out[j] = row[j];
        rows[j] = v;
      }
    }
    first = false;
  }
}

}  // namespace

std::string_view bag_mode_name(BagMode mode) {
  switch (mode) {
    case BagMode::sum:
      return "sum";
    case BagMode::mean:
      return "mean";
    case BagMode::max:
      return "max";
  }
  return "?";
}

BagMode parse_bag_mode(std::string_view name) {
  for (const BagMode mode : {BagMode::sum, BagMode::mean, BagMode::max})
    if (name == bag_mode_name(mode)) return mode;
  throw InputError(Argument::mode,
                   "mode must be 'sum', 'mean' or 'max', got " + quoted(name, '\''));
}

namespace {

// embedding_bag() once its bags are checked, on W's rows as row_of gives them.
BagOutput bag_forward(const RowOf& row_of, Index vocab, Index dim, const Ids& ids,
                      const std::vector<BagRange>& ranges, const BagOptions& options) {
  const Index padding = resolve_padding_idx(options.padding_idx, vocab);
  const auto bags = static_cast<Index>(ranges.size());
  const auto& psw = options.per_sample_weights;

  BagOutput result;
  result.output = Matrix::Zero(bags, dim);
  result.bag_size.assign(ranges.size(), 0);
  if (options.mode == BagMode::max) result.max_rows.assign(ranges.size() * dim, -1);
  for (Index b = 0; b < bags; ++b) {
    const BagRange bag = ranges[static_cast<std::size_t>(b)];
    Index& size = result.bag_size[static_cast<std::size_t>(b)];
    float* out = result.output.row(b).data();
    if (options.mode == BagMode::max) {
      max_bag(row_of, dim, ids, bag, padding, out, result.max_rows.data() + b * dim);
    }
    for (Index k = bag.begin; k < bag.end; ++k) {
      const Index v = ids[static_cast<std::size_t>(k)];
      if (v == padding) continue;
      ++size;
      if (options.mode == BagMode::max) continue;
      // PyTorch's fast (fused) path for weighted bags refuses a padding_idx; its other loop
      // rounds each product.
      add_weighted_row(out, row_of(v), dim, psw.empty() ? 1.0f : psw[static_cast<std::size_t>(k)],
                       padding < 0);
    }
    if (options.mode == BagMode::mean && size > 0) {
      const auto divisor = static_cast<float>(size);
      for (Index j = 0; j < dim; ++j) out[j] /= divisor;
    }
  }
  return result;
}

}  // namespace

BagOutput embedding_bag(const Matrix& weight, const Ids& ids, const Ids& offsets,
                        const BagOptions& options, const Limits& limits) {
  const auto ranges = checked_bags(ids, offsets, weight.rows(), options, limits);
  check_output_shape(static_cast<Index>(ranges.size()), weight.cols(), limits);
  return bag_forward([&](Index v) { return weight.row(v).data(); }, weight.rows(), weight.cols(),
                     ids, ranges, options);
}

BagOutput embedding_bag(const Table& weight, const Ids& ids, const Ids& offsets,
                        const BagOptions& options, const Limits& limits) {
  const auto ranges = checked_bags(ids, offsets, weight.rows(), options, limits);
  check_output_shape(static_cast<Index>(ranges.size()), weight.cols(), limits);
  // The rows the bags name, each read once.
  const Ids rows = distinct_ids(ids);
  const Matrix values = lookup(weight, rows, limits);
  const auto row_of = [&](Index v) {
    return values.row(std::lower_bound(rows.begin(), rows.end(), v) - rows.begin()).data();
  };
  return bag_forward(row_of, weight.rows(), weight.cols(), ids, ranges, options);
}

Encoding bag_encoding(const Ids& ids, const Ids& offsets, Index vocab, const BagOptions& options,
                      const Limits& limits) {
  if (options.mode == BagMode::max) {
    throw InputError(Argument::mode,
                     "mode='max' has no matrix-product form: a maximum is not a weighted sum of "
                     "rows, so no multi-hot matrix M gives it as M x W");
  }
  const auto ranges = checked_bags(ids, offsets, vocab, options, limits);
  const Index padding = resolve_padding_idx(options.padding_idx, vocab);
  Encoding encoding{static_cast<Index>(ranges.size()), vocab, {}};
  std::vector<std::pair<Index, Index>> members;  // (id, position) of one bag, by id then position
  for (Index b = 0; b < encoding.rows; ++b) {
    const BagRange bag = ranges[static_cast<std::size_t>(b)];
    members.clear();
    for (Index k = bag.begin; k < bag.end; ++k) {
      const Index v = ids[static_cast<std::size_t>(k)];
      if (v != padding) members.emplace_back(v, k);
    }
    const auto size = static_cast<float>(members.size());
    std::sort(members.begin(), members.end());
    for (std::size_t i = 0; i < members.size();) {
      // M(b, v) adds its weights from +0.0 in position order; a mean divides by the bag's size.
      const Index v = members[i].first;
      float value = 0.0f;
      for (; i < members.size() && members[i].first == v; ++i) {
        value += options.per_sample_weights.empty()
                     ? 1.0f
                     : options.per_sample_weights[static_cast<std::size_t>(members[i].second)];
      }
      if (options.mode == BagMode::mean) value /= size;
      encoding.entries.push_back({b, v, value});
    }
  }
  std::stable_sort(encoding.entries.begin(), encoding.entries.end(),
                   [](const EncodingEntry& a, const EncodingEntry& c) { return a.col < c.col; });
  return encoding;
}

Matrix bag_matrix(const Ids& ids, const Ids& offsets, Index vocab, const BagOptions& options,
                  const Limits& limits) {
  const Encoding encoding = bag_encoding(ids, offsets, vocab, options, limits);
  check_elements(encoding.rows, vocab, Argument::vocab, "the multi-hot matrix (B x V)", limits);
  return dense(encoding);
}

Matrix bag_product(const Matrix& m, const Matrix& weight, const Limits& limits) {
  return encoded_product(m, weight, "the multi-hot matrix", limits);
}

namespace {

// The backward into the rows it reaches: row k of `values` is row rows[k] of dL/dW (rows
// ascending, distinct), every other row is +0.0. `held`: the (V, d) result is held whole.
struct GradientRows {
  Ids rows;
  Matrix values;
};

GradientRows bag_gradient_rows(const Ids& ids, const Ids& offsets, const Matrix& grad_output,
                               const BagOutput& forward, Index vocab, const BagOptions& options,
                               const Limits& limits, bool held) {
  const auto ranges = checked_bags(ids, offsets, vocab, options, limits);
  const Index padding = resolve_padding_idx(options.padding_idx, vocab);
  const Index dim = grad_output.cols();
  if (held)
    check_held_table(vocab, dim, limits);
  else
    check_table_shape(vocab, dim, limits);
  const auto bags = static_cast<Index>(ranges.size());
  if (grad_output.rows() != bags) {
    throw InputError(Argument::grad, "the upstream gradient has " +
                                         std::to_string(grad_output.rows()) +
                                         " rows but there are " + std::to_string(bags) +
                                         " bags: dL/dout must have one row per bag, (B, d) = (" +
                                         std::to_string(bags) + ", d)");
  }
  const bool max_mode = options.mode == BagMode::max;
  if (forward.bag_size.size() != ranges.size() ||
      (max_mode && forward.max_rows.size() != ranges.size() * dim)) {
    throw InputError(Argument::grad,
                     "the forward result does not belong to these bags: run embedding_bag with "
                     "the same ids, offsets and options, and a gradient as wide as its output");
  }
  Ids reached = ids;
  for (const Index row : max_mode ? forward.max_rows : std::vector<Index>()) {
    if (row >= vocab) {
      throw InputError(Argument::grad, "the forward result names row " + std::to_string(row) +
                                           ", outside the vocabulary V = " + std::to_string(vocab));
    }
    if (row >= 0) reached.push_back(row);
  }
  GradientRows out{distinct_ids(std::move(reached)), Matrix()};
  out.values = Matrix::Zero(static_cast<Index>(out.rows.size()), dim);
  const auto row_of = [&](Index v) {
    return out.values.row(std::lower_bound(out.rows.begin(), out.rows.end(), v) - out.rows.begin())
        .data();
  };
  if (max_mode) {
    for (Index b = 0; b < bags; ++b) {
      const Index* rows = forward.max_rows.data() + b * dim;
      for (Index j = 0; j < dim; ++j)
        if (rows[j] >= 0) row_of(rows[j])[j] += grad_output(b, j);
    }
    return out;
  }
  const std::vector<Index> counts =
      options.scale_grad_by_freq ? id_counts(ids, vocab) : std::vector<Index>();
  for (Index b = 0; b < bags; ++b) {
    const BagRange bag = ranges[static_cast<std::size_t>(b)];
    const Index size = forward.bag_size[static_cast<std::size_t>(b)];
    for (Index k = bag.begin; k < bag.end; ++k) {
      const Index v = ids[static_cast<std::size_t>(k)];
      if (v == padding) continue;
      // The factors meet in double, as in PyTorch; the kernel gets a float.
      double scale = options.per_sample_weights.empty()
                         ? 1.0
                         : options.per_sample_weights[static_cast<std::size_t>(k)];
      if (options.scale_grad_by_freq) scale /= static_cast<double>(counts[v]);
      if (options.mode == BagMode::mean && size != 0) scale /= static_cast<double>(size);
      add_weighted_row(row_of(v), grad_output.row(b).data(), dim, static_cast<float>(scale));
    }
  }
  return out;
}

}  // namespace

Matrix embedding_bag_backward(const Ids& ids, const Ids& offsets, const Matrix& grad_output,
                              const BagOutput& forward, Index vocab, const BagOptions& options,
                              const Limits& limits) {
  const GradientRows reached =
      bag_gradient_rows(ids, offsets, grad_output, forward, vocab, options, limits, true);
  Matrix grad = Matrix::Zero(vocab, grad_output.cols());
  for (std::size_t k = 0; k < reached.rows.size(); ++k)
    grad.row(reached.rows[k]) = reached.values.row(static_cast<Index>(k));
  return grad;
}

Gradient embedding_bag_backward_view(const Ids& ids, const Ids& offsets, const Matrix& grad_output,
                                     const BagOutput& forward, Index vocab,
                                     const BagOptions& options, const GradientViewOptions& view,
                                     const Limits& limits) {
  GradientRows reached =
      bag_gradient_rows(ids, offsets, grad_output, forward, vocab, options, limits, false);
  return sparse_gradient(vocab, std::move(reached.rows), std::move(reached.values), view, limits);
}

}  // namespace embedlab
