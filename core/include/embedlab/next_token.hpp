#pragma once
// Training with an objective: next-token prediction through an output layer, tied to the
// embedding or not, with a table of positions or without, as this PyTorch 1.13 program (the
// book's GPTModel without its transformer blocks) trains it:
//
//   torch.manual_seed(seed)
//   tok = nn.Embedding(V, d)
//   pos = nn.Embedding(context_length, d)         # with positions: drawn right after tok
//   head = nn.Linear(d, V, bias=False)            # drawn tied or not, as GPTModel draws it
//   head.weight = tok.weight                      # tied: the same Parameter
//   opt = torch.optim.X(params, ...)              # tok's, pos's, and the untied head's
//   for x, y in batches:                          # x, y (B, T): y is x shifted by one
//       h = tok(x) + pos(torch.arange(T))         # without positions: tok(x)
//       loss = F.cross_entropy(head(h).flatten(0, 1), y.flatten())     # the mean over B * T
//       opt.zero_grad(); loss.backward(); opt.step()
//
// A sequence stepped alone is the batch x = seq[:-1], y = seq[1:] (B = 1), without positions.
//
// In float32, in PyTorch's order where it has one: h is a lookup plus one addition per element
// (bit for bit); logits = h @ H.T; log_softmax per row as x - max - log(sum(exp(x - max))); the
// loss -sum(log_softmax[i, y_i]) / n; its gradient dlogits = g - exp(log_softmax) * sum(g) with
// g = -1/n at each target; dh = dlogits @ H and dH = dlogits.T @ h; tok.grad is the scatter-add of
// dh's rows (embedding_backward), plus dH when tied (autograd adds the two in one addition);
// pos.grad row t sums dh's rows at position t over the batch. The products are the core's GEMM's
// and exp/log the C library's, where PyTorch uses its BLAS and vectorised kernels, so the loss and
// every weight after a step agree with PyTorch's up to rounding (graded), while the drawn tables,
// the lookups and the rows a step changes are the same.
//
// What a step changes: untied with plain SGD only the input rows of W (the lookup's gradient is
// sparse) and every row of the head; tied, every row of W, every step, since the softmax over the
// whole vocabulary gives every row of the head's gradient a share (in float32, a row whose share
// is below half an ulp of its weights keeps its bits: with large V, a few rows can). The batch's
// rows are named by role: inputs, and tied, targets (the head pulls a target's row toward h).
//
// Checks: seeded() checks the shapes with the matrices training holds (check_training), the
// optimizer's options, and context_length, before drawing; step() checks the batch (ids below V,
// targets as many as inputs, T within context_length, a sequence of at least 2 ids) and the
// (n, V) logits against the limits before changing anything.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "embedlab/limits.hpp"
#include "embedlab/matrix.hpp"
#include "embedlab/optimizer.hpp"
#include "embedlab/positions.hpp"
#include "embedlab/torch_generator.hpp"
#include "embedlab/training.hpp"

namespace embedlab {

enum class HeadKind { tied, untied };
// "tied", "untied"; the kind a name stands for, else an InputError (of weights) naming both.
std::string_view head_kind_name(HeadKind kind);
HeadKind parse_head_kind(std::string_view name);

struct NextTokenStep {
  Index step = 0;                   // 1 for the first
  Index rows = 1;                   // B
  Ids inputs, targets;              // x and y, (B * T) each, row-major
  float loss = 0.0f;                // loss.item(), from the forward pass before the update
  Matrix logits;                    // (B * T, V)
  Matrix embedding_grad;            // tok.weight.grad (V, d): tied, the lookup's plus the head's
  Matrix head_grad;                 // the head's own gradient dH (V, d), tied or not
  Matrix position_grad;             // pos.weight.grad (context_length, d); empty without positions
  std::vector<ChangedRow> changed;  // tok.weight's rows whose bits changed, ascending
  std::vector<Index> head_changed;  // untied: head.weight's rows whose bits changed
  std::vector<Index> position_changed;  // pos.weight's rows whose bits changed
};

// A next token the model gives a position: its id, its logit and softmax(logits)[id].
struct TokenGuess {
  Index id = 0;
  float logit = 0.0f;
  float probability = 0.0f;
};

class NextTokenTraining {
 public:
  // context_length 0: no table of positions.
  static NextTokenTraining seeded(std::int64_t seed, Index vocab, Index dim, HeadKind head,
                                  const OptimizerOptions& optimizer, Index context_length = 0,
                                  const Limits& limits = default_limits);

  // One sequence: x = seq[:-1], y = seq[1:], without positions.
  NextTokenStep step(const Ids& sequence);
  // A batch x (B, T) and its targets y (B * T).
  NextTokenStep step(const TokenBatch& inputs, const Ids& targets);

  // The k likeliest next tokens at each position of x (B, T), by the weights as they are:
  // (B * T) lists, likeliest first (equal logits by ascending id). k is at most V.
  std::vector<std::vector<TokenGuess>> predict(const TokenBatch& inputs, Index k) const;

  HeadKind head() const { return head_; }
  Index context_length() const { return position_weight_.rows(); }
  const Matrix& embedding_weight() const { return weight_; }
  // head.weight (V, d): the embedding's own when tied.
  const Matrix& head_weight() const { return head_ == HeadKind::tied ? weight_ : head_weight_; }
  const Matrix& position_weight() const { return position_weight_; }  // empty without
  const Optimizer& embedding_optimizer() const { return embedding_optimizer_; }
  // The global generator, where the modules' draws left it: what a DataLoader draws from next.
  TorchGenerator& generator() { return generator_; }

 private:
  NextTokenTraining(TorchGenerator generator, Matrix weight, Matrix position_weight,
                    Matrix head_weight, HeadKind head, const OptimizerOptions& optimizer,
                    const Limits& limits);
  void check_batch(const TokenBatch& inputs, const Ids& targets) const;
  Matrix hidden(const TokenBatch& inputs) const;  // h (B * T, d)

  HeadKind head_;
  Limits limits_;
  TorchGenerator generator_;
  Matrix weight_;
  Matrix position_weight_;  // with positions only
  Matrix head_weight_;      // untied only
  Optimizer embedding_optimizer_;
  std::optional<Optimizer> position_optimizer_;
  std::optional<Optimizer> head_optimizer_;  // untied: the head's parameter, same torch.optim
  Index steps_ = 0;
};

}  // namespace embedlab
