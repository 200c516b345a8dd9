#pragma once
// Token and position embeddings added, as this PyTorch 1.13 program (the book's next step after
// the embedding-vs-linear notebook) computes them:
//
//   torch.manual_seed(seed)
//   token_embedding_layer = nn.Embedding(V, d)                 # drawn first
//   pos_embedding_layer = nn.Embedding(context_length, d)      # then from the same generator
//   token_embeddings = token_embedding_layer(inputs)           # inputs (B, T) -> (B, T, d)
//   pos_embeddings = pos_embedding_layer(torch.arange(T))      # (T, d): P[:T]
//   input_embeddings = token_embeddings + pos_embeddings       # broadcast over the B rows
//
// The positions are a second lookup, so they have a one-hot route too:
// one_hot(arange(T), context_length) @ P, streamed through P as the token product is. The sum is
// one float32 addition per element, the same as PyTorch's; both lookups copy rows. Or the tables
// come from a checkpoint (GPT-2's wte.weight and wpe.weight).
//
// Checks: token_batch() that the rows are rectangular; check_context() that T fits the position
// table, in PyTorch's words and why; the seeded tables their shapes before drawing.
#include <cstdint>
#include <vector>

#include "embedlab/limits.hpp"
#include "embedlab/matrix.hpp"
#include "embedlab/table.hpp"

namespace embedlab {

// A (B, T) batch of token ids, row-major.
struct TokenBatch {
  Ids ids;           // B * T ids
  Index rows = 0;    // B
  Index length = 0;  // T
};

// The rows of parse_batches() as one (B, T) tensor: an InputError (of ids) naming the first row
// whose length differs from the first's, as torch.tensor refuses a ragged list.
TokenBatch token_batch(const std::vector<Ids>& rows);

// T positions in a position table of context_length rows: an InputError (of ids) when T >
// context_length, saying what PyTorch does (pos_embedding_layer(torch.arange(T)) raises
// "index out of range in self") and why (a model has no row, so no meaning, for a position it was
// never given).
void check_context(Index length, Index context_length);

// A position table's rows: an InputError (of vocab) unless 1 <= context_length <=
// limits.max_vocab.
void check_context_length(Index context_length, const Limits& limits = default_limits);

struct PositionTables {
  Matrix token;     // (V, d)
  Matrix position;  // (context_length, d)
};

// Both tables drawn in the book's order from torch.manual_seed(seed); the shapes checked first
// (the position table's errors name context_length).
PositionTables seeded_position_tables(std::int64_t seed, Index vocab, Index dim,
                                      Index context_length, const Limits& limits = default_limits);

// A token table (V, d) and a position table (context_length, d) given whole (a training's, as it
// stands): an InputError (of dim) unless their d agree, and context_length checked.
void check_position_tables(const Matrix& token, const Matrix& position,
                           const Limits& limits = default_limits);

// pos_embedding_layer(torch.arange(length)): P[:length] (length, d). length is checked.
Matrix position_rows(const Table& positions, Index length);

// one_hot(arange(length), context_length).float() @ P: the same rows by a product that reads
// every row of P, a block at a time. length is checked.
Matrix position_product(const Table& positions, Index length,
                        const Limits& limits = default_limits);

// token_embeddings (B * T, d) + pos_embeddings (T, d), broadcast over the B rows.
Matrix add_positions(const Matrix& token_rows, const Matrix& position_rows);

}  // namespace embedlab
