#pragma once
// An embedding table W (V, d) as a handle to its rows, kept in the dtype they are stored in:
// float32 in memory (a seeded table, the TensorFlow rule), the bytes of a small file held in
// memory, or the bytes of a file read where they lie (byte_source.hpp). Rows become float32 only
// when a computation reads them, bit for bit as a whole-table conversion would give them: F16
// and BF16 exactly (a NaN keeps its sign and payload and comes back quiet, as PyTorch's .float()
// gives it), F32 as stored, F64 rounded to nearest (a finite value beyond float32 is an error
// naming its row and column, raised when that row is read), and ggml's quantized blocks (GGUF
// files: Q8_0, Q4_0, Q4_K, Q6_K) dequantized as ggml's reference dequantize_row_* computes them
// in float32 (ggml_blocks.hpp), a whole block at a time.
//
// A Table is cheap to copy: copies share the rows. It is immutable; with_rows() makes another.
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "embedlab/byte_source.hpp"
#include "embedlab/limits.hpp"
#include "embedlab/matrix.hpp"

namespace embedlab {

// The element types a table may be stored in. The plain floats are stored one value at a time;
// ggml's quantized types in blocks of 32 or 256 values that share their scales.
enum class StoredFloat { f16, bf16, f32, f64, q8_0, q4_0, q4_k, q6_k };
// The values in one stored block: 1 for the plain floats.
constexpr Index block_values(StoredFloat type) {
  switch (type) {
    case StoredFloat::q8_0:
    case StoredFloat::q4_0:
      return 32;
    case StoredFloat::q4_k:
    case StoredFloat::q6_k:
      return 256;
    default:
      return 1;
  }
}
// The bytes of one stored block: of one value for the plain floats.
constexpr Index stored_size(StoredFloat type) {
  switch (type) {
    case StoredFloat::f64:
      return 8;
    case StoredFloat::f32:
      return 4;
    case StoredFloat::q8_0:
      return 34;
    case StoredFloat::q4_0:
      return 18;
    case StoredFloat::q4_k:
      return 144;
    case StoredFloat::q6_k:
      return 210;
    default:
      return 2;
  }
}
// "F16", "BF16", "F32", "F64" (the names .safetensors headers give them), "Q8_0", "Q4_0",
// "Q4_K", "Q6_K" (ggml's).
std::string_view stored_float_name(StoredFloat type);

// A table read from a file is held in memory, in its stored dtype, when its bytes are at most
// this many: each later read is then a copy, not a call to the file.
inline constexpr std::uint64_t kHeldTableBytes = std::uint64_t{16} << 20;

class Table {
 public:
  // A float32 table held in memory. Its shape is the caller's to have checked
  // (check_held_table): it exists already.
  explicit Table(Matrix weight);
  // rows x cols little-endian values of `dtype`, row-major, at bytes [begin, begin + rows * cols /
  // block_values(dtype) * stored_size(dtype)) of `source`. Checks the shape against the limits
  // (check_table_shape), that a row is a whole number of blocks, and that the bytes lie within
  // the source; InputError (weights), its message after `context` ("tensor 'wte.weight' [50257,
  // 768]: "), which also prefixes the errors of later reads.
  Table(std::shared_ptr<const ByteSource> source, std::uint64_t begin, Index rows, Index cols,
        StoredFloat dtype, std::string context = {}, const Limits& limits = default_limits);

  Index rows() const { return rows_; }
  Index cols() const { return cols_; }
  StoredFloat dtype() const { return dtype_; }
  // The stored bytes of one row, and of all of them.
  std::uint64_t row_bytes() const;
  std::uint64_t stored_bytes() const;
  // Whether its rows are in memory (else each read goes to the source).
  bool in_memory() const;

  // Rows [first, first + count) as float32 into out (count x cols, row-major). The range is the
  // caller's to have checked.
  void read_rows(Index first, Index count, float* out) const;
  // The same in two steps, so that a stream can convert a wide block a panel of columns at a
  // time: the rows' stored bytes (a pointer into the table's memory, or read into `scratch`),
  // then columns [first_col, first_col + cols) of them as float32 into out (count x cols, rows
  // out_stride floats apart), the rows with_rows() replaced included. For a quantized table,
  // first_col and cols are whole blocks (multiples of block_values(dtype())), as the GEMM's
  // column panels are (a multiple of 256 columns).
  const char* stored_rows(Index first, Index count, std::vector<char>& scratch) const;
  void convert_rows(const char* stored, Index first, Index count, Index first_col, Index cols,
                    float* out, Index out_stride) const;
  // Whether its stored values are float32 as they are (no rows replaced): stored_rows() is then
  // the float32 rows themselves.
  bool stores_float32() const;
  // The same rows: a pointer into the table's own memory when it holds them as float32 (no
  // copy), else converted into `buffer`, which is resized to hold them.
  const float* rows_at(Index first, Index count, std::vector<float>& buffer) const;
  // The whole table as float32; InputError (weights) when V x d is over limits.max_elements.
  Matrix to_matrix(const Limits& limits = default_limits) const;

  // The stored blocks decoded into float32 so far by this table and its copies (convert_rows):
  // what each route cost. Rows read as stored (float32) decode none.
  std::uint64_t blocks_decoded() const;

  // The same table with its stored bytes held in memory (read once), or itself if they are.
  Table held() const;
  // The same table with rows `ids` (ascending, distinct, checked by the caller) replaced by the
  // rows of `values` (ids.size() x cols): what max_norm's in-place renormalisation leaves.
  Table with_rows(const Ids& ids, const Matrix& values) const;

 private:
  struct Replaced;  // rows replaced by with_rows()

  std::shared_ptr<const ByteSource> source_;
  std::uint64_t begin_ = 0;
  Index rows_ = 0;
  Index cols_ = 0;
  StoredFloat dtype_ = StoredFloat::f32;
  std::string context_;
  std::shared_ptr<const Replaced> replaced_;
  std::shared_ptr<std::atomic<std::uint64_t>> decoded_ =
      std::make_shared<std::atomic<std::uint64_t>>(0);
};

}  // namespace embedlab
