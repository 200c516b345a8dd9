#include "embedlab/limits.hpp"

#include <string>

#include "embedlab/error.hpp"

namespace embedlab {
namespace {

std::string mib(Index floats) { return std::to_string(floats * 4 / (1 << 20)) + " MiB"; }

void check_positive(Index value, const char* what) {
  if (value < 1) {
    throw InputError(std::string(what) + " must be at least 1, got " + std::to_string(value));
  }
}

void check_at_most(Index value, Index limit, const char* what) {
  if (value > limit) {
    throw InputError(std::string(what) + " = " + std::to_string(value) +
                     " is over the limit of " + std::to_string(limit));
  }
}

// rows * cols floats, checked without overflow before anything is allocated.
void check_elements(Index rows, Index cols, const Limits& limits, const char* what) {
  if (rows > limits.max_elements / cols) {
    throw InputError(std::string(what) + " would be " + std::to_string(rows) + " x " +
                     std::to_string(cols) + " floats, over the limit of " +
                     std::to_string(limits.max_elements) + " floats (" + mib(limits.max_elements) +
                     ") that keeps memory bounded");
  }
}

}  // namespace

void check_id_count(Index n, const Limits& limits) {
  if (n > limits.max_ids) {
    throw InputError("too many token ids: " + std::to_string(n) + " given, at most " +
                     std::to_string(limits.max_ids) + " are accepted at once");
  }
}

void check_table_shape(Index vocab, Index dim, const Limits& limits) {
  check_positive(vocab, "the vocabulary size V");
  check_positive(dim, "the embedding dimension d");
  check_at_most(vocab, limits.max_vocab, "the vocabulary size V");
  check_at_most(dim, limits.max_dim, "the embedding dimension d");
  check_elements(vocab, dim, limits, "the embedding table (V x d)");
}

void check_onehot_shape(Index n, Index vocab, const Limits& limits) {
  check_positive(n, "the number of token ids n");
  check_id_count(n, limits);
  check_positive(vocab, "the vocabulary size V");
  check_at_most(vocab, limits.max_vocab, "the vocabulary size V");
  check_elements(n, vocab, limits, "the one-hot matrix (n x V)");
}

void check_output_shape(Index n, Index dim, const Limits& limits) {
  check_id_count(n, limits);
  check_elements(n, dim, limits, "the result (n x d)");
}

}  // namespace embedlab
