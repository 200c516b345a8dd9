#include "embedlab/table.hpp"

#include <algorithm>
#include <cstring>
#include <string_view>
#include <utility>

#include "embedlab/error.hpp"
#include "table_file.hpp"

namespace embedlab {
namespace {

// A float32 matrix as the bytes of a table stored in F32 (the host is little-endian).
class MatrixSource final : public ByteSource {
 public:
  explicit MatrixSource(Matrix m) : m_(std::move(m)) {}
  std::uint64_t size() const override { return static_cast<std::uint64_t>(m_.size()) * 4; }
  void read(std::uint64_t offset, std::size_t length, char* out) const override {
    std::memcpy(out, bytes() + offset, length);
  }
  const char* bytes() const override { return reinterpret_cast<const char*>(m_.data()); }

 private:
  Matrix m_;
};

// Rows converted at a time when a whole table is: 4 MiB of float32.
constexpr Index kConvertBytes = 1 << 22;

}  // namespace

std::string_view stored_float_name(StoredFloat type) {
  switch (type) {
    case StoredFloat::f16:
      return "F16";
    case StoredFloat::bf16:
      return "BF16";
    case StoredFloat::f32:
      return "F32";
    case StoredFloat::f64:
      return "F64";
    case StoredFloat::q8_0:
      return "Q8_0";
    case StoredFloat::q4_0:
      return "Q4_0";
    case StoredFloat::q4_k:
      return "Q4_K";
    case StoredFloat::q6_k:
      return "Q6_K";
  }
  return "?";
}

struct Table::Replaced {
  Ids ids;        // ascending, distinct
  Matrix values;  // (ids.size(), cols)
};

Table::Table(Matrix weight) : rows_(weight.rows()), cols_(weight.cols()), dtype_(StoredFloat::f32) {
  source_ = std::make_shared<MatrixSource>(std::move(weight));
}

Table::Table(std::shared_ptr<const ByteSource> source, std::uint64_t begin, Index rows, Index cols,
             StoredFloat dtype, std::string context, const Limits& limits)
    : source_(std::move(source)),
      begin_(begin),
      rows_(rows),
      cols_(cols),
      dtype_(dtype),
      context_(std::move(context)) {
  check_file_table_shape(rows, cols, limits, context_);
  check_whole_blocks(cols, dtype, context_);
  // Within the limits, rows * cols * 8 < 2^41: no overflow.
  const std::uint64_t size = source_->size();
  if (begin_ > size || stored_bytes() > size - begin_)
    throw InputError(Argument::weights, context_ + "the table's bytes " + std::to_string(begin_) +
                                            " to " + std::to_string(begin_ + stored_bytes()) +
                                            " run past the end of the " + std::to_string(size) +
                                            " bytes there are");
}

std::uint64_t Table::row_bytes() const {
  return static_cast<std::uint64_t>(cols_ / block_values(dtype_) * stored_size(dtype_));
}

std::uint64_t Table::stored_bytes() const {
  return static_cast<std::uint64_t>(rows_) * row_bytes();
}

bool Table::in_memory() const { return source_->bytes() != nullptr; }

void Table::read_rows(Index first, Index count, float* out) const {
  if (!in_memory() && stores_float32()) {
    // Already float32: read in place.
    source_->read(begin_ + static_cast<std::uint64_t>(first) * row_bytes(),
                  static_cast<std::size_t>(static_cast<std::uint64_t>(count) * row_bytes()),
                  reinterpret_cast<char*>(out));
    return;
  }
  // Kept between reads: a stream reads block after block of the same size.
  thread_local std::vector<char> scratch;
  convert_rows(stored_rows(first, count, scratch), first, count, 0, cols_, out, cols_);
}

const char* Table::stored_rows(Index first, Index count, std::vector<char>& scratch) const {
  const std::uint64_t offset = begin_ + static_cast<std::uint64_t>(first) * row_bytes();
  if (const char* bytes = source_->bytes()) return bytes + offset;
  const auto length = static_cast<std::size_t>(static_cast<std::uint64_t>(count) * row_bytes());
  if (scratch.size() < length) scratch.resize(length);
  source_->read(offset, length, scratch.data());
  return scratch.data();
}

void Table::convert_rows(const char* stored, Index first, Index count, Index first_col, Index cols,
                         float* out, Index out_stride) const {
  const Index per_block = block_values(dtype_), block_bytes = stored_size(dtype_);
  try {
    for (Index r = 0; r < count; ++r)
      convert_to_float32(std::string_view(stored + r * static_cast<Index>(row_bytes()) +
                                              first_col / per_block * block_bytes,
                                          static_cast<std::size_t>(cols / per_block * block_bytes)),
                         dtype_, out + r * out_stride, first + r, first_col);
  } catch (const InputError& e) {
    throw InputError(e.argument(), context_ + e.what());
  }
  decoded_->fetch_add(static_cast<std::uint64_t>(count * (cols / per_block)),
                      std::memory_order_relaxed);
  if (!replaced_) return;
  const Ids& ids = replaced_->ids;
  for (auto it = std::lower_bound(ids.begin(), ids.end(), first);
       it != ids.end() && *it < first + count; ++it) {
    const auto k = static_cast<Index>(it - ids.begin());
    std::memcpy(out + (*it - first) * out_stride, replaced_->values.row(k).data() + first_col,
                static_cast<std::size_t>(cols) * sizeof(float));
  }
}

bool Table::stores_float32() const { return dtype_ == StoredFloat::f32 && !replaced_; }

const float* Table::rows_at(Index first, Index count, std::vector<float>& buffer) const {
  const char* bytes = source_->bytes();
  const std::uint64_t offset = begin_ + static_cast<std::uint64_t>(first) * row_bytes();
  if (bytes && stores_float32() &&
      reinterpret_cast<std::uintptr_t>(bytes + offset) % alignof(float) == 0)
    return reinterpret_cast<const float*>(bytes + offset);
  buffer.resize(static_cast<std::size_t>(count * cols_));
  read_rows(first, count, buffer.data());
  return buffer.data();
}

Matrix Table::to_matrix(const Limits& limits) const {
  check_elements(rows_, cols_, Argument::weights, "the embedding table (V x d)", limits);
  Matrix m(rows_, cols_);
  const Index block = std::max<Index>(1, kConvertBytes / (cols_ * 4));
  for (Index first = 0; first < rows_; first += block)
    read_rows(first, std::min(block, rows_ - first), m.row(first).data());
  return m;
}

std::uint64_t Table::blocks_decoded() const { return decoded_->load(std::memory_order_relaxed); }

Table Table::held() const {
  if (in_memory()) return *this;
  Table copy = *this;
  copy.source_ = memory_source(read_range(*source_, begin_, begin_ + stored_bytes()));
  copy.begin_ = 0;
  return copy;
}

Table Table::with_rows(const Ids& ids, const Matrix& values) const {
  auto replaced = std::make_shared<Replaced>();
  // The rows replaced before and not now, then the new ones, in ascending order.
  std::vector<std::pair<Index, const float*>> rows;
  if (replaced_) {
    for (std::size_t k = 0; k < replaced_->ids.size(); ++k)
      if (!std::binary_search(ids.begin(), ids.end(), replaced_->ids[k]))
        rows.emplace_back(replaced_->ids[k], replaced_->values.row(static_cast<Index>(k)).data());
  }
  for (std::size_t k = 0; k < ids.size(); ++k)
    rows.emplace_back(ids[k], values.row(static_cast<Index>(k)).data());
  std::sort(rows.begin(), rows.end());
  replaced->values.resize(static_cast<Index>(rows.size()), cols_);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    replaced->ids.push_back(rows[k].first);
    std::memcpy(replaced->values.row(static_cast<Index>(k)).data(), rows[k].second,
                static_cast<std::size_t>(cols_) * sizeof(float));
  }
  Table copy = *this;
  copy.replaced_ = std::move(replaced);
  return copy;
}

}  // namespace embedlab
