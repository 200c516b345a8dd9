#include "embedlab/next_token.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "embedlab/backward.hpp"
#include "embedlab/error.hpp"
#include "embedlab/ids.hpp"
#include "embedlab/lookup.hpp"
#include "embedlab/torch_init.hpp"
#include "gemm.hpp"

namespace embedlab {
namespace {

// C (m, n) = A (m, k) @ B (k, n), added onto +0.0 as torch.mm does.
Matrix product(const Matrix& a, const Matrix& b) {
  Matrix c = Matrix::Zero(a.rows(), b.cols());
  gemm_accumulate(a.rows(), a.cols(), b.cols(), a.data(), a.cols(), b.data(), b.cols(), c.data(),
                  c.cols());
  return c;
}

// log_softmax of each row, as x - max - log(sum(exp(x - max))).
Matrix log_softmax(const Matrix& logits) {
  Matrix out(logits.rows(), logits.cols());
  for (Index i = 0; i < logits.rows(); ++i) {
    const float max = logits.row(i).maxCoeff();
    float sum = 0.0f;
    for (Index j = 0; j < logits.cols(); ++j) sum += std::exp(logits(i, j) - max);
    const float log_sum = std::log(sum);
    for (Index j = 0; j < logits.cols(); ++j) out(i, j) = logits(i, j) - max - log_sum;
  }
  return out;
}

}  // namespace

std::string_view head_kind_name(HeadKind kind) {
  return kind == HeadKind::tied ? "tied" : "untied";
}

HeadKind parse_head_kind(std::string_view name) {
  if (name == "tied") return HeadKind::tied;
  if (name == "untied") return HeadKind::untied;
  throw InputError(Argument::weights,
                   "the head must be 'tied' (head.weight = embedding.weight) "
                   "or 'untied' (a weight of its own), got '" +
                       std::string(name) + "'");
}

NextTokenTraining::NextTokenTraining(Matrix weight, Matrix head_weight, HeadKind head,
                                     const OptimizerOptions& optimizer, const Limits& limits)
    : head_(head),
      limits_(limits),
      weight_(std::move(weight)),
      head_weight_(std::move(head_weight)),
      embedding_optimizer_(optimizer, weight_.rows(), weight_.cols()) {
  if (head_ == HeadKind::untied)
    head_optimizer_.emplace(optimizer, head_weight_.rows(), head_weight_.cols());
}

NextTokenTraining NextTokenTraining::seeded(std::int64_t seed, Index vocab, Index dim,
                                            HeadKind head, const OptimizerOptions& optimizer,
                                            const Limits& limits) {
  TrainingOptions options;
  options.optimizer = optimizer;
  check_training(vocab, dim, options, limits);
  TorchGenerator gen(seed);
  Matrix weight = init_embedding(gen, vocab, dim, std::nullopt, limits);
  // nn.Linear(d, V): its weight is (V, d), like the table; tied, it is never used.
  Matrix head_weight;
  if (head == HeadKind::untied) head_weight = init_linear(gen, dim, vocab, false, limits).weight;
  return NextTokenTraining(std::move(weight), std::move(head_weight), head, optimizer, limits);
}

NextTokenStep NextTokenTraining::step(const Ids& sequence) {
  const Index vocab = weight_.rows();
  if (sequence.size() < 2) {
    throw InputError(Argument::ids, "a sequence of " + std::to_string(sequence.size()) +
                                        " id has no next token to predict: each batch needs at "
                                        "least 2 ids (inputs seq[:-1], targets seq[1:])");
  }
  check_ids(sequence, vocab);
  const auto n = static_cast<Index>(sequence.size()) - 1;
  check_elements(n, vocab, Argument::ids, "the logits (n x V)", limits_);

  NextTokenStep out;
  out.inputs.assign(sequence.begin(), sequence.end() - 1);
  out.targets.assign(sequence.begin() + 1, sequence.end());
  const Matrix& head = head_weight();
  const Matrix x = lookup(weight_, out.inputs, limits_);
  out.logits = product(x, head.transpose());
  const Matrix log_probs = log_softmax(out.logits);
  float total = 0.0f;
  for (Index i = 0; i < n; ++i) total -= log_probs(i, out.targets[static_cast<std::size_t>(i)]);
  out.loss = total / static_cast<float>(n);

  // nll_loss's gradient -1/n at each target, then log_softmax's: g - exp(log_probs) * sum(g).
  const float target_grad = -1.0f / static_cast<float>(n);
  Matrix dlogits(n, vocab);
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < vocab; ++j) {
      const float g = j == out.targets[static_cast<std::size_t>(i)] ? target_grad : 0.0f;
      dlogits(i, j) = g - std::exp(log_probs(i, j)) * target_grad;
    }
  }
  const Matrix dx = product(dlogits, head);
  out.head_grad = product(dlogits.transpose(), x);
  out.embedding_grad = embedding_backward(out.inputs, dx, vocab, {}, limits_);
  if (head_ == HeadKind::tied) out.embedding_grad += out.head_grad;

  const Matrix before = weight_;
  embedding_optimizer_.step(weight_, out.embedding_grad);
  if (head_ == HeadKind::untied) {
    const Matrix head_before = head_weight_;
    head_optimizer_->step(head_weight_, out.head_grad);
    out.head_changed = changed_rows(head_before, head_weight_);
  }
  out.step = ++steps_;
  const RowCause outside = head_ == HeadKind::tied
                               ? RowCause::head
                               : cause_outside_batch(embedding_optimizer_.options());
  for (const Index row : changed_rows(before, weight_)) {
    const bool named = std::find(out.inputs.begin(), out.inputs.end(), row) != out.inputs.end();
    out.changed.push_back({row, named ? RowCause::batch : outside});
  }
  return out;
}

}  // namespace embedlab
