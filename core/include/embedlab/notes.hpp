#pragma once
// What a walk-through's results mean, beyond the verdict: the notes under the backward pass and
// nn.EmbeddingBag (padding_idx, scale_grad_by_freq, max_norm, repeated ids, rows no id asks for),
// and the cost of each route of every operation (the forward pass, positions, the tied head). Each
// note is one sentence that every front end prints as it is: the CLI after "# ", the page as a list
// item. Numbers are written as count_text() writes them.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "embedlab/embedding_bag.hpp"
#include "embedlab/matrix.hpp"
#include "embedlab/table.hpp"
#include "embedlab/verdict.hpp"

namespace embedlab {

// The backward pass of nn.Embedding(V, d, padding_idx, scale_grad_by_freq) on ids, its
// scatter-add graded against onehot.T @ G (backward_grader()).
struct BackwardFacts {
  Ids ids;
  Index vocab = 0;
  Index dim = 0;
  std::optional<Index> padding_idx;  // as given: None, or in [-V, V)
  bool scale_grad_by_freq = false;
};

// A Grader of the scatter-add (expected) against onehot.T @ G (actual), both (V, d): when a token
// has the id of padding_idx, the difference in that row is one PyTorch defines (nn.Embedding
// gives the row no gradient, onehot.T @ G knows nothing of padding_idx), and the verdict says so.
Grader backward_grader(const BackwardFacts& facts);

// In this order, each where it applies: padding_idx; scale_grad_by_freq; ids that repeat; rows
// whose bits differ although no padding explains it (3 or more rows of G per id); rows no id
// asks for; the work of each route.
std::vector<std::string> backward_notes(const BackwardFacts& facts, const Verdict& verdict);

// max_norm's note: which looked-up rows it scaled down in place (rows in ascending order).
std::string max_norm_note(const Ids& scaled_rows, double max_norm);

// nn.EmbeddingBag(V, d, mode, padding_idx) on ids in `bag_size.size()` bags, bag_size[b] rows
// reduced in bag b (embedding_bag()'s BagOutput::bag_size).
struct BagFacts {
  Ids ids;
  Index vocab = 0;
  Index dim = 0;
  BagMode mode = BagMode::mean;
  std::optional<Index> padding_idx;  // as given: None, or in [-V, V)
  bool scale_grad_by_freq = false;
  std::vector<Index> bag_size;
};

// padding_idx, where given; for mode='max', why no M @ W exists; else the work of each route.
std::vector<std::string> bag_notes(const BagFacts& facts);

// Under bag.weight.grad: where PyTorch 1.13's CPU kernel divides a row by another id's count
// under scale_grad_by_freq (the values shown are the documented ones).
std::vector<std::string> bag_gradient_notes(const BagFacts& facts);

// The work of each route of the forward pass, n ids into a (V, d) table: the lookup copies n·d
// floats, the one-hot product does n·V·d multiply-adds, n·(V−1)·d of them by zero.
std::string forward_cost_note(Index n, Index vocab, Index dim);

// The work of each route of pos_embedding_layer(torch.arange(T)) on a (context_length, d) table:
// the lookup copies T·d floats, one_hot(arange(T), context_length) @ P does T·context_length·d
// multiply-adds, T·(context_length−1)·d of them by zero.
std::string positions_cost_note(Index length, Index context_length, Index dim);

// The two reads of a tied W (V, d) for n positions, in this order: the input lookup's n rows
// (n·d floats copied), and the output layer's V rows (n·V·d multiply-adds, none of them wasted:
// every logit scores one next token). distinct: how many of the n ids differ, each a row of W.
std::vector<std::string> head_cost_notes(Index n, Index distinct, Index vocab, Index dim);

// What each route decoded of a table's stored blocks (table.blocks_decoded() counted around the
// lookup and around the one-hot product): the lookup only its n rows' blocks, the product every
// block of the table. Whole numbers without separators, as a reader checks them against V, d.
std::string blocks_decoded_note(const Table& table, std::uint64_t lookup, std::uint64_t product);

}  // namespace embedlab
