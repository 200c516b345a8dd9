#pragma once
// Size limits that keep memory bounded. Every public entry point that allocates takes a Limits
// (default: default_limits, so tests can shrink them) and checks it *before* allocating, so a
// typo like V = 10^9 is an error message, not an out-of-memory crash.
#include "embedlab/error.hpp"
#include "embedlab/matrix.hpp"

namespace embedlab {

struct Limits {
  Index max_ids = 65536;           // tokens in one request
  Index max_vocab = 1 << 20;       // rows of W (GPT-2 has 50257)
  Index max_dim = 8192;            // columns of W (GPT-3 uses 12288 but no demo needs it)
  Index max_elements = 1 << 26;    // floats in any one matrix: 256 MiB (the one-hot is n*V)
};

inline constexpr Limits default_limits{};

// Each throws InputError naming the limit, the requested size and why the limit exists; the
// error's argument is the input to change.

// A (rows, cols) float matrix: rows * cols within limits.max_elements, checked without overflow.
// `what` names the matrix in the message ("the one-hot matrix (n x V)").
void check_elements(Index rows, Index cols, Argument argument, const char* what,
                    const Limits& limits = default_limits);
// Whether a (rows, cols) matrix can be held whole; a view of a larger one summarises it.
bool fits_whole(Index rows, Index cols, const Limits& limits = default_limits);
void check_id_count(Index n, const Limits& limits = default_limits);
// vocab_from: Argument::ids when V was not typed but is max(ids) + 1.
void check_table_shape(Index vocab, Index dim, const Limits& limits = default_limits,
                       Argument vocab_from = Argument::vocab);
// n ids (at least 1, at most max_ids) into V rows (at least 1, at most max_vocab): a one-hot
// matrix by its entries (encoding.hpp), never held whole.
void check_onehot_entries(Index n, Index vocab, const Limits& limits = default_limits,
                          Argument vocab_from = Argument::vocab);
// check_onehot_entries, and the (n, V) matrix held whole within max_elements.
void check_onehot_shape(Index n, Index vocab, const Limits& limits = default_limits,
                        Argument vocab_from = Argument::vocab);
// The (n, d) rows a lookup or a product returns: 65536 ids x 8192 columns would be 2 GiB.
void check_output_shape(Index n, Index dim, const Limits& limits = default_limits);
// Every matrix a request for n ids into a (vocab, dim) table makes: W, the one-hot, the results.
// Cheap, so a front end runs it before it announces any work.
void check_request_sizes(Index n, Index vocab, Index dim, const Limits& limits = default_limits,
                         Argument vocab_from = Argument::vocab);

}  // namespace embedlab
