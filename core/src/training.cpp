#include "embedlab/training.hpp"

#include <algorithm>

#include "embedlab/backward.hpp"
#include "embedlab/compare.hpp"
#include "embedlab/error.hpp"
#include "embedlab/float_bits.hpp"
#include "embedlab/format.hpp"
#include "embedlab/limits.hpp"
#include "embedlab/onehot.hpp"
#include "embedlab/padding_idx.hpp"

namespace embedlab {
namespace {

const TrainingOptions& checked(const TrainingOptions& options, const Matrix& weight,
                               const Limits& limits) {
  check_training(weight.rows(), weight.cols(), options, limits);
  return options;
}

}  // namespace

RowCause cause_outside_batch(const OptimizerOptions& o) {
  if (o.weight_decay != 0.0 && o.kind != OptimizerKind::sparse_adam) return RowCause::weight_decay;
  const bool momentum = (o.kind == OptimizerKind::sgd && o.momentum != 0.0) ||
                        (o.kind == OptimizerKind::rmsprop && o.momentum > 0.0);
  return momentum ? RowCause::momentum : RowCause::optimizer_state;
}

std::vector<Index> changed_rows(const Matrix& before, const Matrix& after) {
  std::vector<Index> rows;
  for (Index r = 0; r < before.rows(); ++r) {
    for (Index j = 0; j < before.cols(); ++j) {
      if (float_bits(before(r, j)) != float_bits(after(r, j))) {
        rows.push_back(r);
        break;
      }
    }
  }
  return rows;
}

std::string_view row_cause_text(RowCause cause) {
  switch (cause) {
    case RowCause::batch:
      return "in the batch";
    case RowCause::weight_decay:
      return "weight decay";
    case RowCause::momentum:
      return "momentum";
    case RowCause::optimizer_state:
      return "optimizer state";
    case RowCause::head:
      return "the tied head";
  }
  return "in the batch";
}

const std::vector<BatchRole>& all_batch_roles() {
  static const std::vector<BatchRole> all = {BatchRole::none, BatchRole::input, BatchRole::target,
                                             BatchRole::input_and_target};
  return all;
}

std::string changed_row_text(RowCause cause, BatchRole role) {
  const std::string text(row_cause_text(cause));
  if (cause != RowCause::batch) return text;
  switch (role) {
    case BatchRole::none:
      return text;
    case BatchRole::input:
      return text + ": input";
    case BatchRole::target:
      return text + ": target";
    case BatchRole::input_and_target:
      return text + ": input and target";
  }
  return text;
}

std::string_view row_cause_name(RowCause cause) {
  switch (cause) {
    case RowCause::batch:
      return "batch";
    case RowCause::weight_decay:
      return "weight_decay";
    case RowCause::momentum:
      return "momentum";
    case RowCause::optimizer_state:
      return "optimizer_state";
    case RowCause::head:
      return "head";
  }
  return "batch";
}

const std::vector<RowCause>& all_row_causes() {
  static const std::vector<RowCause> all = {RowCause::batch, RowCause::weight_decay,
                                            RowCause::momentum, RowCause::optimizer_state,
                                            RowCause::head};
  return all;
}

void check_training(Index vocab, Index dim, const TrainingOptions& options, const Limits& limits) {
  check_table_shape(vocab, dim, limits);
  if (!fits_whole(vocab * kTrainingMatrices, dim, limits)) {  // V <= 2^22: no overflow
    throw InputError(Argument::vocab,
                     "training a (V x d) = (" + std::to_string(vocab) + " x " +
                         std::to_string(dim) + ") table holds " +
                         std::to_string(kTrainingMatrices) +
                         " matrices of its size (both weights, their gradients, both weights "
                         "before the step and the optimizer's state): " +
                         count_text(vocab * kTrainingMatrices * dim) +
                         " floats, over the limit of " + count_text(limits.max_elements) +
                         " that keeps memory bounded; train a smaller table (V x d at most " +
                         count_text(limits.max_elements / kTrainingMatrices) + ")");
  }
  check_optimizer_options(options.optimizer);
  resolve_padding_idx(options.padding_idx, vocab);
  check_gradient_kind(options.optimizer, options.sparse);
}

SideBySideTraining::SideBySideTraining(const Matrix& weight, const TrainingOptions& options,
                                       const Limits& limits)
    : options_(checked(options, weight, limits)),
      limits_(limits),
      padding_row_(resolve_padding_idx(options.padding_idx, weight.rows())),
      embedding_weight_(weight),
      linear_weight_(weight),
      embedding_optimizer_(options.optimizer, weight.rows(), weight.cols()) {
  try {
    check_gradient_kind(options.optimizer, false);
    linear_optimizer_.emplace(options.optimizer, weight.rows(), weight.cols());
  } catch (const InputError& e) {
    linear_refusal_ = e.what();
  }
}

TrainingStep SideBySideTraining::step(const Ids& batch, const Matrix& upstream) {
  const Index vocab = embedding_weight_.rows();
  const Index dim = embedding_weight_.cols();
  if (upstream.cols() != dim) {
    throw InputError(Argument::grad, "the upstream gradient G has " +
                                         std::to_string(upstream.cols()) +
                                         " columns but the table has d = " + std::to_string(dim) +
                                         ": G is (n, d), one row per id");
  }
  TrainingStep out;
  if (options_.sparse) {
    out.sparse_grad =
        embedding_sparse_backward(batch, upstream, vocab, options_.padding_idx, limits_);
    out.embedding_grad = to_dense(out.sparse_grad);
  } else {
    EmbeddingOptions embedding;
    embedding.padding_idx = options_.padding_idx;
    out.embedding_grad = embedding_backward(batch, upstream, vocab, embedding, limits_);
  }
  out.linear_grad = onehot_backward(one_hot(batch, vocab, limits_), upstream, limits_);

  const Matrix before = embedding_weight_;
  if (options_.sparse) {
    embedding_optimizer_.step(embedding_weight_, out.sparse_grad);
  } else {
    embedding_optimizer_.step(embedding_weight_, out.embedding_grad);
  }
  out.step = ++steps_;  // the optimizer's checks have passed too
  const RowCause outside = cause_outside_batch(options_.optimizer);
  for (const Index row : changed_rows(before, embedding_weight_)) {
    const bool named =
        row != padding_row_ && std::find(batch.begin(), batch.end(), row) != batch.end();
    out.changed.push_back({row, named ? RowCause::batch : outside});
  }

  if (linear_optimizer_) {
    const Matrix linear_before = linear_weight_;
    linear_optimizer_->step(linear_weight_, out.linear_grad);
    out.linear_changed = changed_rows(linear_before, linear_weight_);
    out.verdict =
        grade_comparison(embedding_weight_, linear_weight_,
                         options_.sparse ? RoutePair::sparse_training : RoutePair::training);
  }
  return out;
}

}  // namespace embedlab
