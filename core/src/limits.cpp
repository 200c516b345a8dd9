#include "embedlab/limits.hpp"

#include <string>

#include "embedlab/format.hpp"

namespace embedlab {
namespace {

std::string mib(Index floats) { return count_text(floats * 4 / (1 << 20)) + " MiB"; }

void check_positive(Index value, Argument argument, const char* what) {
  if (value < 1) {
    throw InputError(argument,
                     std::string(what) + " must be at least 1, got " + std::to_string(value));
  }
}

void check_at_most(Index value, Index limit, Argument argument, const char* what) {
  if (value > limit) {
    throw InputError(argument, std::string(what) + " = " + count_text(value) +
                                   " is over the limit of " + count_text(limit));
  }
}

}  // namespace

void check_elements(Index rows, Index cols, Argument argument, const char* what,
                    const Limits& limits) {
  if (rows < 0 || cols < 0) {
    throw InputError(argument, std::string(what) + " would be " + std::to_string(rows) + " x " +
                                   std::to_string(cols) + ": a size cannot be negative");
  }
  if (!fits_whole(rows, cols, limits)) {
    throw InputError(argument, std::string(what) + " would be " + count_text(rows) + " x " +
                                   count_text(cols) + " floats, over the limit of " +
                                   count_text(limits.max_elements) + " floats (" +
                                   mib(limits.max_elements) + ") that keeps memory bounded");
  }
}

bool fits_whole(Index rows, Index cols, const Limits& limits) {
  return rows >= 0 && cols >= 0 && (cols == 0 || rows <= limits.max_elements / cols);
}

void check_count(Index count, Argument argument, const char* things, const Limits& limits) {
  if (count > limits.max_ids) {
    throw InputError(argument, "too many " + std::string(things) + ": " + count_text(count) +
                                   " given, at most " + count_text(limits.max_ids) +
                                   " are accepted at once");
  }
}

void check_id_count(Index n, const Limits& limits) {
  check_count(n, Argument::ids, "token ids", limits);
}

void check_table_shape(Index vocab, Index dim, const Limits& limits, Argument vocab_from) {
  check_positive(vocab, vocab_from, "the vocabulary size V");
  check_positive(dim, Argument::dim, "the embedding dimension d");
  check_at_most(vocab, limits.max_vocab, vocab_from, "the vocabulary size V");
  check_at_most(dim, limits.max_dim, Argument::dim, "the embedding dimension d");
}

void check_held_table(Index vocab, Index dim, const Limits& limits, Argument vocab_from) {
  check_table_shape(vocab, dim, limits, vocab_from);
  check_elements(vocab, dim, vocab_from, "the embedding table (V x d)", limits);
}

void check_onehot_entries(Index n, Index vocab, const Limits& limits, Argument vocab_from) {
  check_positive(n, Argument::ids, "the number of token ids n");
  check_id_count(n, limits);
  check_positive(vocab, vocab_from, "the vocabulary size V");
  check_at_most(vocab, limits.max_vocab, vocab_from, "the vocabulary size V");
}

void check_onehot_shape(Index n, Index vocab, const Limits& limits, Argument vocab_from) {
  check_onehot_entries(n, vocab, limits, vocab_from);
  // n x V grows with each id: whoever typed V, the ids make the one-hot too large.
  check_elements(n, vocab, Argument::ids, "the one-hot matrix (n x V)", limits);
}

void check_output_shape(Index n, Index dim, const Limits& limits) {
  check_id_count(n, limits);
  check_elements(n, dim, Argument::ids, "the result (n x d)", limits);
}

void check_request_sizes(Index n, Index vocab, Index dim, bool held, const Limits& limits,
                         Argument vocab_from) {
  if (held) {
    check_held_table(vocab, dim, limits, vocab_from);
  } else {
    check_table_shape(vocab, dim, limits, vocab_from);
  }
  check_onehot_entries(n, vocab, limits, vocab_from);
  check_output_shape(n, dim, limits);
}

}  // namespace embedlab
