#pragma once
// Training with an objective: next-token prediction through an output layer, tied to the
// embedding or not, as this PyTorch 1.13 program trains it:
//
//   torch.manual_seed(seed)
//   embedding = nn.Embedding(V, d)
//   head = nn.Linear(d, V, bias=False)            # untied: drawn right after the embedding
//   head.weight = embedding.weight                # tied: the same Parameter
//   opt = torch.optim.X(params, ...)              # embedding's, and the untied head's
//   for seq in batches:                           # one sequence per batch
//       opt.zero_grad()
//       loss = F.cross_entropy(head(embedding(seq[:-1])), seq[1:])     # the mean
//       loss.backward(); opt.step()
//
// In float32, in PyTorch's order where it has one: X = W[inputs] (n, d) is a lookup (bit for
// bit); logits = X @ H.T; log_softmax per row as x - max - log(sum(exp(x - max))); the loss
// -sum(log_softmax[i, t_i]) / n; its gradient dlogits = g - exp(log_softmax) * sum(g) with
// g = -1/n at each target; dX = dlogits @ H and dH = dlogits.T @ X; W.grad is the scatter-add of
// dX's rows (embedding_backward), plus dH when tied (autograd adds the two in one addition).
// The products are the core's GEMM's and exp/log the C library's, where PyTorch uses its BLAS
// and vectorised kernels, so the loss and every weight after a step agree with PyTorch's up to
// rounding (graded), while the rows a step changes are the same.
//
// What a step changes: untied with plain SGD only the input rows of W (the lookup's gradient is
// sparse) and every row of the head; tied, every row of W, every step, since the softmax over the
// whole vocabulary gives every row of the head's gradient a share (in float32, a row whose share
// is below half an ulp of its weights keeps its bits: with large V, a few rows can).
//
// Checks: the constructor checks the table's shape with the matrices training holds
// (check_training), the optimizer's options, and refuses sparse gradients; step() checks the
// sequence (at least 2 ids, each below V) and the (n, V) logits against the limits before
// changing anything.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "embedlab/limits.hpp"
#include "embedlab/matrix.hpp"
#include "embedlab/optimizer.hpp"
#include "embedlab/training.hpp"

namespace embedlab {

enum class HeadKind { tied, untied };
// "tied", "untied"; the kind a name stands for, else an InputError (of weights) naming both.
std::string_view head_kind_name(HeadKind kind);
HeadKind parse_head_kind(std::string_view name);

struct NextTokenStep {
  Index step = 0;         // 1 for the first
  Ids inputs, targets;    // seq[:-1], seq[1:]
  float loss = 0.0f;      // loss.item(), from the forward pass before the update
  Matrix logits;          // (n, V)
  Matrix embedding_grad;  // embedding.weight.grad (V, d): tied, the lookup's plus the head's
  Matrix head_grad;       // the head's own gradient dH (V, d), tied or not
  std::vector<ChangedRow> changed;  // embedding.weight's rows whose bits changed, ascending
  std::vector<Index> head_changed;  // untied: head.weight's rows whose bits changed
};

class NextTokenTraining {
 public:
  static NextTokenTraining seeded(std::int64_t seed, Index vocab, Index dim, HeadKind head,
                                  const OptimizerOptions& optimizer,
                                  const Limits& limits = default_limits);

  NextTokenStep step(const Ids& sequence);

  HeadKind head() const { return head_; }
  const Matrix& embedding_weight() const { return weight_; }
  // head.weight (V, d): the embedding's own when tied.
  const Matrix& head_weight() const { return head_ == HeadKind::tied ? weight_ : head_weight_; }
  const Optimizer& embedding_optimizer() const { return embedding_optimizer_; }

 private:
  NextTokenTraining(Matrix weight, Matrix head_weight, HeadKind head,
                    const OptimizerOptions& optimizer, const Limits& limits);

  HeadKind head_;
  Limits limits_;
  Matrix weight_;
  Matrix head_weight_;  // untied only
  Optimizer embedding_optimizer_;
  std::optional<Optimizer> head_optimizer_;  // untied: the head's parameter, same torch.optim
  Index steps_ = 0;
};

}  // namespace embedlab
