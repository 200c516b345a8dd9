#include "embedlab/positions.hpp"

#include <numeric>
#include <string>

#include "embedlab/encoding.hpp"
#include "embedlab/error.hpp"
#include "embedlab/format.hpp"
#include "embedlab/limits.hpp"
#include "embedlab/lookup.hpp"
#include "embedlab/streamed.hpp"
#include "embedlab/torch_init.hpp"

namespace embedlab {
namespace {

// torch.arange(length) as ids.
Ids arange(Index length) {
  Ids ids(static_cast<std::size_t>(length));
  std::iota(ids.begin(), ids.end(), 0);
  return ids;
}

}  // namespace

TokenBatch token_batch(const std::vector<Ids>& rows) {
  TokenBatch batch;
  batch.rows = static_cast<Index>(rows.size());
  batch.length = rows.empty() ? 0 : static_cast<Index>(rows.front().size());
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (static_cast<Index>(rows[r].size()) != batch.length) {
      throw InputError(Argument::ids,
                       "row " + std::to_string(r + 1) + " has " + std::to_string(rows[r].size()) +
                           " ids but row 1 has " + std::to_string(batch.length) +
                           ": a batch (B, T) is a rectangle, every row T ids long (torch.tensor "
                           "refuses it: expected sequence of length " +
                           std::to_string(batch.length) + " at dim 1 (got " +
                           std::to_string(rows[r].size()) + "))");
    }
    batch.ids.insert(batch.ids.end(), rows[r].begin(), rows[r].end());
  }
  return batch;
}

void check_context(Index length, Index context_length) {
  if (length <= context_length) return;
  throw InputError(
      Argument::ids,
      "each row has T = " + std::to_string(length) +
          " ids but context_length = " + std::to_string(context_length) +
          ": pos_embedding_layer(torch.arange(" + std::to_string(length) +
          ")) raises IndexError: index out of range in self, since "
          "the position table has rows for positions 0.." +
          std::to_string(context_length - 1) + " only. A model has no row for position " +
          std::to_string(context_length) +
          ", so nothing it learned says what that position means: it cannot look at more than " +
          std::to_string(context_length) + " tokens at once. Shorten the rows to at most " +
          std::to_string(context_length) + " ids, or raise --context-length");
}

void check_context_length(Index context_length, const Limits& limits) {
  if (context_length < 1 || context_length > limits.max_vocab) {
    throw InputError(Argument::vocab,
                     "context_length must be between 1 and " + count_text(limits.max_vocab) +
                         " (the position table's rows), got " + std::to_string(context_length));
  }
}

void check_position_tables(const Matrix& token, const Matrix& position, const Limits& limits) {
  if (token.cols() != position.cols()) {
    throw InputError(Argument::dim, "the token table's d = " + std::to_string(token.cols()) +
                                        " and the position table's d = " +
                                        std::to_string(position.cols()) + " must agree");
  }
  check_context_length(position.rows(), limits);
}

PositionTables seeded_position_tables(std::int64_t seed, Index vocab, Index dim,
                                      Index context_length, const Limits& limits) {
  check_held_table(vocab, dim, limits);
  check_context_length(context_length, limits);
  check_held_table(context_length, dim, limits);
  TorchGenerator gen(seed);
  PositionTables tables;
  tables.token = init_embedding(gen, vocab, dim, std::nullopt, limits);
  tables.position = init_embedding(gen, context_length, dim, std::nullopt, limits);
  return tables;
}

Matrix position_rows(const Table& positions, Index length) {
  check_context(length, positions.rows());
  return lookup(positions, arange(length));
}

Matrix position_product(const Table& positions, Index length, const Limits& limits) {
  check_context(length, positions.rows());
  StreamedProduct product(positions, one_hot_encoding(arange(length), positions.rows(), limits), {},
                          limits);
  product.run();
  return product.result();
}

Matrix add_positions(const Matrix& token_rows, const Matrix& position_rows) {
  const Index length = position_rows.rows();
  Matrix sum(token_rows.rows(), token_rows.cols());
  for (Index i = 0; i < token_rows.rows(); ++i)
    sum.row(i) = token_rows.row(i) + position_rows.row(i % length);
  return sum;
}

}  // namespace embedlab
