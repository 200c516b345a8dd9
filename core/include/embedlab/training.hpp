#pragma once
// Both routes trained side by side, as this PyTorch 1.13 program trains them:
//
//   linear = nn.Linear(V, d, bias=False)
//   embedding = nn.Embedding(V, d, padding_idx=p, sparse=s)      # its weight: `weight` below
//   with torch.no_grad(): linear.weight.copy_(embedding.weight.T)
//   opt_e = torch.optim.X(embedding.parameters(), ...); opt_l = torch.optim.X(linear.parameters(),
//   ...) for idx, G in batches:                                         # G: (len(idx), d)
//       opt_e.zero_grad(); embedding(idx).backward(G); opt_e.step()
//       opt_l.zero_grad(); linear(F.one_hot(idx, V).float()).backward(G); opt_l.step()
//
// The embedding's gradient is the scatter-add of G's rows (embedding_backward), or with
// sparse=True one entry per id (embedding_sparse_backward); the Linear route's is onehot.T @ G
// (onehot_backward), which PyTorch stores transposed as linear.weight.grad. Every optimizer step
// is elementwise, so the Linear route is stepped here in the embedding's (V, d) layout:
// linear_weight() is linear.weight.T. The Linear route knows nothing of padding_idx, and with
// SparseAdam it cannot follow at all (SparseAdam refuses dense gradients).
//
// Checks: the constructor runs check_training() before allocating; step() validates the batch
// and G before changing anything.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "embedlab/limits.hpp"
#include "embedlab/matrix.hpp"
#include "embedlab/optimizer.hpp"
#include "embedlab/sparse_rows.hpp"
#include "embedlab/verdict.hpp"

namespace embedlab {

struct TrainingOptions {
  OptimizerOptions optimizer;
  bool sparse = false;               // nn.Embedding(..., sparse=True)
  std::optional<Index> padding_idx;  // nn.Embedding(..., padding_idx=p), in [-V, V)
};

// Why a row of embedding.weight changed in a step: the first that applies, in this order (head,
// last declared, applies right after batch).
enum class RowCause {
  batch,            // an id of the batch named it (a padding_idx id names no row)
  weight_decay,     // weight_decay != 0: every nonzero row moves (AdamW decays the weight itself)
  momentum,         // SGD's or RMSprop's momentum buffer still holds earlier steps
  optimizer_state,  // Adam's running averages of earlier gradients
  head,             // the tied output layer's gradient, which reaches every row (next_token.hpp)
};
// "in the batch", "weight decay", "momentum", "optimizer state", "the tied head"
std::string_view row_cause_text(RowCause cause);
// "batch", "weight_decay", "momentum", "optimizer_state", "head": the cause's name in the API
// and in style sheets.
std::string_view row_cause_name(RowCause cause);
// Every cause, in the order above.
const std::vector<RowCause>& all_row_causes();

// Why a row no id of the batch named moved in a step of an optimizer with these options:
// weight_decay, momentum or optimizer_state (see RowCause).
RowCause cause_outside_batch(const OptimizerOptions& options);

// The rows of `after` whose bits differ from `before`'s, ascending.
std::vector<Index> changed_rows(const Matrix& before, const Matrix& after);

// How many (V, d) float32 matrices training holds at most while it steps: both weights, their
// gradients, both weights as they were before the step (to find the rows that changed), and up
// to three of the optimizer's state per route (Adam's exp_avg, exp_avg_sq and max_exp_avg_sq).
inline constexpr Index kTrainingMatrices = 12;

// Everything SideBySideTraining's constructor checks, without allocating: the table's shape, and
// kTrainingMatrices (V, d) matrices together within limits.max_elements (an InputError of vocab
// saying why); the optimizer's options; padding_idx in [-V, V); PyTorch's refusal of the
// embedding's gradient layout (check_gradient_kind).
void check_training(Index vocab, Index dim, const TrainingOptions& options,
                    const Limits& limits = default_limits);

// Which ids of a next-token batch named a row of RowCause::batch: its inputs (the lookup's
// gradient reaches it), its targets (tied: the head's gradient pulls the target's row toward h),
// or both. Side-by-side training's batch names its rows as `none`: it has no targets.
enum class BatchRole { none, input, target, input_and_target };
// Every role, in the order above.
const std::vector<BatchRole>& all_batch_roles();

struct ChangedRow {
  Index row = 0;
  RowCause cause = RowCause::batch;
  BatchRole role = BatchRole::none;  // with RowCause::batch
};
// Why the row changed, in words: the cause's text, and for a batch row with a role, which ids
// named it: "in the batch: input", "in the batch: target", "in the batch: input and target".
std::string changed_row_text(RowCause cause, BatchRole role);

// One step of both routes.
struct TrainingStep {
  Index step = 0;                     // 1 for the first
  Matrix embedding_grad;              // embedding.weight.grad, dense (V, d) (sparse: to_dense())
  SparseRows sparse_grad;             // with sparse=True, the entries themselves
  Matrix linear_grad;                 // linear.weight.grad.T = onehot.T @ G (V, d)
  std::vector<ChangedRow> changed;    // embedding.weight's rows whose bits changed, ascending
  std::vector<Index> linear_changed;  // linear.weight.T's rows whose bits changed, ascending
  // embedding.weight against linear.weight.T after the step; empty when the Linear route
  // cannot follow.
  std::optional<Verdict> verdict;
};

class SideBySideTraining {
 public:
  // weight: embedding.weight (V, d) as nn.Embedding made it (its padding row already zeroed);
  // the Linear route starts from the same values.
  SideBySideTraining(const Matrix& weight, const TrainingOptions& options,
                     const Limits& limits = default_limits);

  // One step of both routes on the batch's ids and upstream gradient G (n, d).
  TrainingStep step(const Ids& batch, const Matrix& upstream);

  const Matrix& embedding_weight() const { return embedding_weight_; }
  const Matrix& linear_weight() const { return linear_weight_; }  // linear.weight.T
  const Optimizer& embedding_optimizer() const { return embedding_optimizer_; }
  // The Linear route's optimizer, or none when it cannot follow (linear_refusal() says why).
  const std::optional<Optimizer>& linear_optimizer() const { return linear_optimizer_; }
  // PyTorch's reason the Linear route cannot be stepped, or empty.
  const std::string& linear_refusal() const { return linear_refusal_; }
  const TrainingOptions& options() const { return options_; }
  // padding_idx as a row in [0, V), or -1.
  Index padding_row() const { return padding_row_; }

 private:
  TrainingOptions options_;
  Limits limits_;
  Index padding_row_;
  Matrix embedding_weight_;
  Matrix linear_weight_;
  Optimizer embedding_optimizer_;
  std::optional<Optimizer> linear_optimizer_;
  std::string linear_refusal_;
  Index steps_ = 0;
};

}  // namespace embedlab
