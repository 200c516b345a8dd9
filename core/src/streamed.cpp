#include "embedlab/streamed.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>

#include "embedlab/error.hpp"
#include "embedlab/ids.hpp"
#include "gemm.hpp"

namespace embedlab {
namespace {

static_assert(kBlockRowMultiple % kGemmDepthBlock == 0 && kBlockRowMultiple % kGemmColumnBlock == 0,
              "a block of rows must end where the GEMM's depth and column blocks end");

// The pixel of index i along an axis of `total` drawn in `size` pixels: the p with
// floor(p * total / size) <= i < floor((p + 1) * total / size).
Index pixel_of(Index i, Index total, Index size) {
  return ((i + 1) * size + total - 1) / total - 1;
}

// A heatmap of a (rows, cols) matrix asked for as at most height x width pixels: held whole, so
// within the limits.
void check_heatmap(Index rows, Index cols, Index height, Index width, Argument argument,
                   const Limits& limits) {
  if (height > 0 && width > 0)
    check_elements(std::min(rows, height), std::min(cols, width), argument, "the heatmap", limits);
}

// The largest multiple of kBlockRowMultiple (at least one) whose rows of `width` floats hold at
// most kStreamBlockBytes; all `rows` when they are fewer.
Index chunk_rows(Index rows, Index width) {
  const Index fit =
      std::max<Index>(1, kStreamBlockBytes / (4 * std::max<Index>(width, 1)) / kBlockRowMultiple) *
      kBlockRowMultiple;
  return std::min(rows, fit);
}

// The entries of E in columns [first, end), from `next` on (entries are sorted by column).
std::pair<std::size_t, std::size_t> entries_before(const Encoding& e, std::size_t next, Index end) {
  std::size_t last = next;
  while (last < e.entries.size() && e.entries[last].col < end) ++last;
  return {next, last};
}

void check_encoding_rows(const Encoding& e, Index rows, const char* what) {
  if (e.cols != rows)
    throw InputError(Argument::onehot, "the one-hot matrix has " + std::to_string(e.cols) +
                                           " columns but " + what + " has " + std::to_string(rows) +
                                           " rows: they must both be the vocabulary size V");
}

// What a Gradient's summary and kept rows gather from each block of its rows.
void summarise_rows(Gradient& g, Index first, Index count, const float* values) {
  for (Index r = 0; r < count; ++r) {
    const float* row = values + r * g.cols;
    bool nonzero = false, nan = false;
    for (Index j = 0; j < g.cols; ++j) {
      const float x = row[j];
      if (std::isnan(x)) {
        nan = true;
      } else if (std::isfinite(x)) {
        g.max_abs = std::max(g.max_abs, static_cast<double>(std::fabs(x)));
      }
      nonzero = nonzero || x != 0.0f || nan;
    }
    g.nonzero_rows += nonzero;
    g.nan_rows += nan;
  }
  for (auto it = std::lower_bound(g.kept.begin(), g.kept.end(), first);
       it != g.kept.end() && *it < first + count; ++it) {
    std::memcpy(g.kept_rows.row(it - g.kept.begin()).data(), values + (*it - first) * g.cols,
                static_cast<std::size_t>(g.cols) * sizeof(float));
  }
  if (g.whole.size() > 0)
    std::memcpy(g.whole.row(first).data(), values, static_cast<std::size_t>(count * g.cols) * 4);
}

// A Gradient's shape, its kept rows (`rows` and the options' own, ascending) and its whole.
Gradient empty_gradient(Index vocab, Index dim, Ids rows, const GradientViewOptions& options,
                        const Limits& limits) {
  Gradient g;
  g.rows = vocab;
  g.cols = dim;
  for (Index r : options.keep_rows)
    if (r < 0 || r >= vocab)
      throw InputError(Argument::grad, "a row to keep must lie in [0, V) = [0, " +
                                           std::to_string(vocab) + "), got " + std::to_string(r));
  rows.insert(rows.end(), options.keep_rows.begin(), options.keep_rows.end());
  rows = distinct_ids(std::move(rows));
  rows.erase(std::remove_if(rows.begin(), rows.end(), [&](Index r) { return r < 0 || r >= vocab; }),
             rows.end());
  g.kept = std::move(rows);
  g.kept_rows = Matrix::Zero(static_cast<Index>(g.kept.size()), dim);
  if (options.whole && fits_whole(vocab, dim, limits)) g.whole = Matrix::Zero(vocab, dim);
  return g;
}

}  // namespace

Index stream_block_rows(Index cols, Index requested) {
  const Index rows = requested > 0 ? requested : kStreamBlockBytes / (4 * std::max<Index>(cols, 1));
  return std::max<Index>(1, (rows + kBlockRowMultiple - 1) / kBlockRowMultiple) * kBlockRowMultiple;
}

Downsample::Downsample(Index rows, Index cols, Index max_height, Index max_width) : rows_(rows) {
  const Index height = std::min(rows, max_height), width = std::min(cols, max_width);
  if (height < 1 || width < 1) return;
  pixels_ = Matrix::Zero(height, width);
  column_pixel_.resize(static_cast<std::size_t>(cols));
  for (Index j = 0; j < cols; ++j)
    column_pixel_[static_cast<std::size_t>(j)] = pixel_of(j, cols, width);
}

void Downsample::add_rows(Index first, Index count, const float* values) {
  const auto cols = static_cast<Index>(column_pixel_.size());
  add_rows(first, count, values, 0, cols, cols);
}

void Downsample::add_rows(Index first, Index count, const float* values, Index first_col,
                          Index cols, Index stride) {
  if (empty()) return;
  for (Index r = 0; r < count; ++r) {
    float* pixels = pixels_.row(pixel_of(first + r, rows_, pixels_.rows())).data();
    const float* row = values + r * stride;
    for (Index j = 0; j < cols; ++j) {
      float& best = pixels[column_pixel_[static_cast<std::size_t>(first_col + j)]];
      const float x = row[j];
      if (!std::isnan(best) && (std::isnan(x) || std::fabs(x) > std::fabs(best))) best = x;
    }
  }
}

StreamedProduct::StreamedProduct(Table weight, Encoding encoding, const StreamOptions& options,
                                 const Limits& limits)
    : weight_(std::move(weight)),
      encoding_(std::move(encoding)),
      block_rows_(stream_block_rows(weight_.cols(), options.block_rows)) {
  check_encoding_rows(encoding_, weight_.rows(), "the weight");
  check_output_shape(encoding_.rows, weight_.cols(), limits);
  check_heatmap(weight_.rows(), weight_.cols(), options.downsample_height, options.downsample_width,
                Argument::weights, limits);
  // Accumulated onto +0, as a BLAS sgemm with beta = 0 (torch.mm) does.
  out_ = Matrix::Zero(encoding_.rows, weight_.cols());
  if (options.downsample_height > 0 && options.downsample_width > 0)
    heatmap_ = Downsample(weight_.rows(), weight_.cols(), options.downsample_height,
                          options.downsample_width);
  progress_.rows = weight_.rows();
  progress_.bytes = weight_.stored_bytes();
  progress_.total_multiply_adds = static_cast<std::uint64_t>(encoding_.rows) *
                                  static_cast<std::uint64_t>(weight_.rows()) *
                                  static_cast<std::uint64_t>(weight_.cols());
}

const StreamProgress& StreamedProduct::step() {
  if (done()) return progress_;
  const Index first = progress_.rows_done;
  const Index count = std::min(block_rows_, weight_.rows() - first);
  const Index d = weight_.cols();
  const char* stored = weight_.stored_rows(first, count, stored_);
  // float32 rows are multiplied where they are; others are converted a panel of columns at a time
  // (the GEMM's own panels: the same operations), so that it stays in the caches however wide W is.
  const bool in_place =
      weight_.stores_float32() && reinterpret_cast<std::uintptr_t>(stored) % alignof(float) == 0;
  const Index panel = in_place ? d : std::min(d, kGemmColumnPanel);
  if (!in_place) panel_.resize(static_cast<std::size_t>(count * panel));
  const auto [begin, end] = entries_before(encoding_, next_entry_, first + count);
  // E[:, block] a chunk of E's rows at a time (its dense columns only ever this large).
  const Index chunk = chunk_rows(encoding_.rows, count);
  Matrix e(chunk, count);
  for (Index c0 = 0; c0 < d; c0 += panel) {
    const Index w = std::min(panel, d - c0);
    const float* rows = reinterpret_cast<const float*>(stored) + c0;
    Index ldb = d;
    if (!in_place) {
      weight_.convert_rows(stored, first, count, c0, w, panel_.data(), w);
      rows = panel_.data();
      ldb = w;
    }
    heatmap_.add_rows(first, count, rows, c0, w, ldb);
    for (Index r0 = 0; r0 < encoding_.rows; r0 += chunk) {
      const Index r = std::min(chunk, encoding_.rows - r0);
      e.setZero();
      for (std::size_t i = begin; i < end; ++i) {
        const EncodingEntry& entry = encoding_.entries[i];
        if (entry.row >= r0 && entry.row < r0 + r)
          e(entry.row - r0, entry.col - first) = entry.value;
      }
      gemm_accumulate(r, count, w, e.data(), count, rows, ldb, out_.row(r0).data() + c0, d);
    }
  }
  next_entry_ = end;
  progress_.rows_done += count;
  progress_.bytes_read += static_cast<std::uint64_t>(count) * weight_.row_bytes();
  progress_.multiply_adds += static_cast<std::uint64_t>(encoding_.rows) *
                             static_cast<std::uint64_t>(count) * static_cast<std::uint64_t>(d);
  return progress_;
}

const StreamProgress& StreamedProduct::run() {
  while (!done()) step();
  return progress_;
}

bool Gradient::has_row(Index i) const {
  return whole.size() > 0 || std::binary_search(kept.begin(), kept.end(), i);
}

float Gradient::at(Index i, Index j) const {
  if (whole.size() > 0) return whole(i, j);
  const auto it = std::lower_bound(kept.begin(), kept.end(), i);
  return kept_rows(it - kept.begin(), j);
}

StreamedGradient::StreamedGradient(Encoding encoding, Matrix grad_output,
                                   GradientViewOptions options, const Limits& limits)
    : encoding_(std::move(encoding)),
      grad_output_(std::move(grad_output)),
      options_(std::move(options)) {
  if (grad_output_.rows() != encoding_.rows)
    throw InputError(Argument::grad, "the upstream gradient has " +
                                         std::to_string(grad_output_.rows()) +
                                         " rows but there are " + std::to_string(encoding_.rows) +
                                         " ids: dL/dout must have one row per id, (n, d) = (" +
                                         std::to_string(encoding_.rows) + ", d)");
  check_table_shape(encoding_.cols, grad_output_.cols(), limits);
  const Index vocab = encoding_.cols, dim = grad_output_.cols();
  check_heatmap(vocab, dim, options_.downsample_height, options_.downsample_width, Argument::grad,
                limits);
  block_rows_ = stream_block_rows(dim, options_.block_rows);
  Ids asked;
  for (const EncodingEntry& e : encoding_.entries) asked.push_back(e.col);
  gradient_ = empty_gradient(vocab, dim, std::move(asked), options_, limits);
  if (options_.downsample_height > 0 && options_.downsample_width > 0)
    heatmap_ = Downsample(vocab, dim, options_.downsample_height, options_.downsample_width);
  progress_.rows = vocab;
  progress_.total_multiply_adds = static_cast<std::uint64_t>(encoding_.rows) *
                                  static_cast<std::uint64_t>(vocab) *
                                  static_cast<std::uint64_t>(dim);
}

const StreamProgress& StreamedGradient::step() {
  if (done()) return progress_;
  const Index first = progress_.rows_done;
  const Index count = std::min(block_rows_, encoding_.cols - first);
  const Index n = encoding_.rows, d = grad_output_.cols();
  const auto [begin, end] = entries_before(encoding_, next_entry_, first + count);
  // dW[block] = E[:, block]^T G, +0.0 to start, the depth n a chunk at a time.
  block_.setZero(count, d);
  const Index chunk = chunk_rows(n, count);
  Matrix et(count, chunk);
  for (Index k0 = 0; k0 < n; k0 += chunk) {
    const Index k = std::min(chunk, n - k0);
    et.setZero();
    for (std::size_t i = begin; i < end; ++i) {
      const EncodingEntry& entry = encoding_.entries[i];
      if (entry.row >= k0 && entry.row < k0 + k)
        et(entry.col - first, entry.row - k0) = entry.value;
    }
    gemm_accumulate(count, k, d, et.data(), chunk, grad_output_.row(k0).data(), d, block_.data(),
                    d);
  }
  next_entry_ = end;
  summarise_rows(gradient_, first, count, block_.data());
  heatmap_.add_rows(first, count, block_.data());
  if (options_.on_rows) options_.on_rows(first, count, block_.data());
  progress_.rows_done += count;
  progress_.multiply_adds += static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(count) *
                             static_cast<std::uint64_t>(d);
  if (done()) gradient_.downsample = heatmap_.pixels();
  return progress_;
}

const StreamProgress& StreamedGradient::run() {
  while (!done()) step();
  return progress_;
}

Gradient sparse_gradient(Index vocab, Ids rows, Matrix values, const GradientViewOptions& options,
                         const Limits& limits) {
  Gradient g = empty_gradient(vocab, values.cols(), rows, options, limits);
  check_heatmap(vocab, values.cols(), options.downsample_height, options.downsample_width,
                Argument::grad, limits);
  Downsample heatmap(vocab, values.cols(), options.downsample_height, options.downsample_width);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const float* row = values.row(static_cast<Index>(k)).data();
    summarise_rows(g, rows[k], 1, row);
    heatmap.add_rows(rows[k], 1, row);
  }
  g.downsample = heatmap.pixels();
  return g;
}

}  // namespace embedlab
