#pragma once
// Size limits that say what memory really holds. A table is a handle to rows read when needed
// (table.hpp), so its shape is bounded by what a model can have, not by memory: V up to 2^22
// rows, d up to 2^16 columns, in a file of any size. What must be held whole as float32 (a table
// drawn in memory, a one-hot or multi-hot matrix, a gradient shown whole, the (n, d) results) is
// bounded by max_elements. Every public entry point that allocates takes a Limits (default:
// default_limits, so tests can shrink them) and checks it *before* allocating, so a typo like
// V = 10^9 is an error message, not an out-of-memory crash.
#include "embedlab/error.hpp"
#include "embedlab/matrix.hpp"

namespace embedlab {

struct Limits {
  Index max_ids = 65536;         // tokens (or bags, or weights) in one request
  Index max_vocab = 1 << 22;     // rows of W (Gemma 3 has 262144)
  Index max_dim = 1 << 16;       // columns of W (Llama 3.1 405B has 16384)
  Index max_elements = 1 << 26;  // floats in any matrix held whole: 256 MiB
};

inline constexpr Limits default_limits{};

// Each throws InputError naming the limit, the requested size and why the limit exists; the
// error's argument is the input to change.

// A (rows, cols) float matrix held whole: rows * cols within limits.max_elements, checked
// without overflow. `what` names the matrix in the message ("the one-hot matrix (n x V)").
void check_elements(Index rows, Index cols, Argument argument, const char* what,
                    const Limits& limits = default_limits);
// Whether a (rows, cols) matrix can be held whole; a view of a larger one summarises it.
bool fits_whole(Index rows, Index cols, const Limits& limits = default_limits);
// "too many <things>: N given, at most M are accepted at once" for more than limits.max_ids of
// them: the one wording for ids, bags, per_sample_weights, offsets.
void check_count(Index count, Argument argument, const char* things,
                 const Limits& limits = default_limits);
void check_id_count(Index n, const Limits& limits = default_limits);
// A table's shape: V and d at least 1 and within max_vocab and max_dim. Its size is not
// limited: its rows are read when needed. vocab_from: Argument::ids when V was not typed but is
// max(ids) + 1.
void check_table_shape(Index vocab, Index dim, const Limits& limits = default_limits,
                       Argument vocab_from = Argument::vocab);
// check_table_shape for a (V, d) float32 table (or gradient) made and held whole in memory: a
// seeded table, the TensorFlow rule, a dense gradient; V x d within max_elements too.
void check_held_table(Index vocab, Index dim, const Limits& limits = default_limits,
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
// Every matrix a request for n ids into a table handle makes: the table (held whole when `held`:
// a seeded or TensorFlow table; a file's is read where it lies), the one-hot by its entries (the
// product streams the table, so n x V is never held) and the (n, d) results. Cheap, so a front
// end runs it before it announces any work.
void check_request_sizes(Index n, Index vocab, Index dim, bool held,
                         const Limits& limits = default_limits,
                         Argument vocab_from = Argument::vocab);

}  // namespace embedlab
