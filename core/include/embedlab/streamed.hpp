#pragma once
// The products of a table streamed through it a block of rows at a time, so that memory holds
// one block of W (a few MiB of float32), never the table, and never the (n, V) one-hot:
//   the one-hot (or multi-hot) product  out = E W      as  out += E[:, block] W[block],
//   the one-hot route's gradient         dW = E^T G    as  dW[block] = E[:, block]^T G.
// Each is still a real product: every one of the n*V*d multiply-adds is performed (0 * Inf = NaN
// still reaches every row), by the same GEMM as onehot_product(), onehot_backward() and
// bag_product() (gemm.hpp), with blocks whose boundaries fall on its fixed blocking: a streamed
// result is bit-identical to the same product done whole, NaN payloads and signed zeros included,
// whatever the block size. (Where the target leaves the payload of a NaN that arithmetic makes
// open, as WebAssembly does, only that payload can differ between two runs, NaN for NaN.)
//
// A stream runs one block per step(), so a caller can show progress (bytes read, multiply-adds
// done) and stop between blocks; run() does every step.
#include <cstdint>
#include <functional>

#include "embedlab/encoding.hpp"
#include "embedlab/limits.hpp"
#include "embedlab/matrix.hpp"
#include "embedlab/table.hpp"

namespace embedlab {

// Blocks of rows are multiples of this many rows (the GEMM's fixed depth and column blocks).
inline constexpr Index kBlockRowMultiple = 512;
// Without a block size, a block holds about this many bytes of float32 rows.
inline constexpr Index kStreamBlockBytes = Index{4} << 20;

// The rows per block for a table `cols` wide: `requested` (0: about kStreamBlockBytes of
// float32), rounded up to a multiple of kBlockRowMultiple.
Index stream_block_rows(Index cols, Index requested = 0);

// A heatmap of a (rows, cols) matrix, gathered a block of rows at a time, by the page's rule
// (web/heatmap.mjs): at most max_height x max_width pixels, pixel (p, q) standing for rows
// [floor(p * rows / h), floor((p + 1) * rows / h)) and the columns alike, h = min(rows,
// max_height); its value is the first NaN of the block in row-major order if it has one, else
// the value of largest magnitude, the first of equal ones, starting from +0.0.
class Downsample {
 public:
  Downsample() = default;
  Downsample(Index rows, Index cols, Index max_height, Index max_width);
  bool empty() const { return pixels_.size() == 0; }
  // Rows [first, first + count) of the matrix, (count, cols) row-major; rows not given are zeros.
  void add_rows(Index first, Index count, const float* values);
  // Columns [first_col, first_col + cols) of those rows, `stride` floats from row to row.
  void add_rows(Index first, Index count, const float* values, Index first_col, Index cols,
                Index stride);
  const Matrix& pixels() const { return pixels_; }

 private:
  Index rows_ = 0;
  std::vector<Index> column_pixel_;  // the pixel column of each column
  Matrix pixels_;
};

struct StreamProgress {
  Index rows_done = 0;                    // rows of W read, or of the gradient made
  Index rows = 0;                         // all of them: V
  std::uint64_t bytes_read = 0;           // bytes of W's file read (its stored dtype)
  std::uint64_t bytes = 0;                // all of them
  std::uint64_t multiply_adds = 0;        // done so far
  std::uint64_t total_multiply_adds = 0;  // E's rows * V * d
  bool done() const { return rows_done == rows; }
};

struct StreamOptions {
  Index block_rows = 0;         // see stream_block_rows()
  Index downsample_height = 0;  // a heatmap of W (forward) or of the gradient: 0 x 0 for none
  Index downsample_width = 0;
};

// out = E W for E (rows, V) and W (V, d), added onto +0.0 as torch.mm does.
class StreamedProduct {
 public:
  // Checks E's columns against W's rows and the (rows, d) result against the limits.
  StreamedProduct(Table weight, Encoding encoding, const StreamOptions& options = {},
                  const Limits& limits = default_limits);
  const StreamProgress& step();  // the next block, if any
  const StreamProgress& run();   // every block left
  const StreamProgress& progress() const { return progress_; }
  bool done() const { return progress_.done(); }
  const Matrix& result() const { return out_; }                   // complete once done()
  const Matrix& downsample() const { return heatmap_.pixels(); }  // of W; complete once done()

 private:
  Table weight_;
  Encoding encoding_;
  Index block_rows_;
  std::size_t next_entry_ = 0;  // the first entry of E in the next block
  std::vector<char> stored_;    // a block's stored bytes, when they are read
  std::vector<float> panel_;    // a panel of its columns as float32
  Matrix out_;
  Downsample heatmap_;
  StreamProgress progress_;
};

// A (V, d) gradient as views show it: whole when it fits the limits, else the rows kept (those
// the ids asked for and any others requested) and a summary of every row.
struct Gradient {
  Index rows = 0;
  Index cols = 0;
  Matrix whole;            // (V, d) when asked for and within limits.max_elements, else 0 x 0
  Ids kept;                // ascending
  Matrix kept_rows;        // (kept.size(), d)
  Index nonzero_rows = 0;  // rows with an element other than +-0 (a NaN counts)
  Index nan_rows = 0;      // rows with a NaN
  double max_abs = 0.0;    // the largest |x| of a finite element
  Matrix downsample;       // the heatmap, if asked for (see Downsample)

  // Element (i, j): from whole, or from a kept row. Other rows are the caller's to know.
  bool has_row(Index i) const;
  float at(Index i, Index j) const;
};

struct GradientViewOptions {
  bool whole = true;  // hold it whole when it fits the limits
  Ids keep_rows;      // kept besides the rows the ids ask for (e.g. the rows a printout shows)
  Index downsample_height = 0;
  Index downsample_width = 0;
  Index block_rows = 0;  // see stream_block_rows()
  // Each block of rows as it is made (first row, rows, values (rows, d)): to compare with.
  std::function<void(Index, Index, const float*)> on_rows;
};

// dW = E^T G for E (n, V) and G (n, d), added onto +0.0: a row no id asked for is +0.0, or NaN in
// a column where G holds an Inf or a NaN (0 * Inf).
class StreamedGradient {
 public:
  // Checks G's rows against E's and the shape against the limits.
  StreamedGradient(Encoding encoding, Matrix grad_output, GradientViewOptions options = {},
                   const Limits& limits = default_limits);
  const StreamProgress& step();
  const StreamProgress& run();
  const StreamProgress& progress() const { return progress_; }
  bool done() const { return progress_.done(); }
  const Gradient& result() const { return gradient_; }  // complete once done()

 private:
  Encoding encoding_;
  Matrix grad_output_;
  GradientViewOptions options_;
  Index block_rows_;
  std::size_t next_entry_ = 0;
  Matrix block_;
  Downsample heatmap_;
  Gradient gradient_;
  StreamProgress progress_;
};

// A gradient that is zero outside `rows` (ascending, distinct), as a scatter-add makes it: the
// same view as StreamedGradient gives, from those rows alone.
Gradient sparse_gradient(Index vocab, Ids rows, Matrix values,
                         const GradientViewOptions& options = {},
                         const Limits& limits = default_limits);

}  // namespace embedlab
