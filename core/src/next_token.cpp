#include "embedlab/next_token.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "embedlab/backward.hpp"
#include "embedlab/error.hpp"
#include "embedlab/ids.hpp"
#include "embedlab/lookup.hpp"
#include "embedlab/tied_head.hpp"
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

bool contains(const Ids& ids, Index id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

// The role a batch gives row r of tok.weight: its inputs name it; tied, its targets too.
BatchRole role_of(Index r, const Ids& inputs, const Ids& targets, bool tied) {
  const bool input = contains(inputs, r);
  const bool target = tied && contains(targets, r);
  if (input && target) return BatchRole::input_and_target;
  if (input) return BatchRole::input;
  return target ? BatchRole::target : BatchRole::none;
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

NextTokenTraining::NextTokenTraining(TorchGenerator generator, Matrix weight,
                                     Matrix position_weight, Matrix head_weight, HeadKind head,
                                     const OptimizerOptions& optimizer, const Limits& limits)
    : head_(head),
      limits_(limits),
      generator_(std::move(generator)),
      weight_(std::move(weight)),
      position_weight_(std::move(position_weight)),
      head_weight_(std::move(head_weight)),
      embedding_optimizer_(optimizer, weight_.rows(), weight_.cols()) {
  if (position_weight_.rows() > 0)
    position_optimizer_.emplace(optimizer, position_weight_.rows(), position_weight_.cols());
  if (head_ == HeadKind::untied)
    head_optimizer_.emplace(optimizer, head_weight_.rows(), head_weight_.cols());
}

NextTokenTraining NextTokenTraining::seeded(std::int64_t seed, Index vocab, Index dim,
                                            HeadKind head, const OptimizerOptions& optimizer,
                                            Index context_length, const Limits& limits) {
  TrainingOptions options;
  options.optimizer = optimizer;
  check_training(vocab, dim, options, limits);
  if (context_length != 0) check_context_length(context_length, limits);
  TorchGenerator gen(seed);
  Matrix weight = init_embedding(gen, vocab, dim, std::nullopt, limits);
  Matrix positions;
  if (context_length != 0)
    positions = init_embedding(gen, context_length, dim, std::nullopt, limits);
  // nn.Linear(d, V): its weight is (V, d), like the table; tied, it is drawn and never used.
  Matrix head_weight = init_linear(gen, dim, vocab, false, limits).weight;
  if (head == HeadKind::tied) head_weight = Matrix();
  return NextTokenTraining(std::move(gen), std::move(weight), std::move(positions),
                           std::move(head_weight), head, optimizer, limits);
}

NextTokenStep NextTokenTraining::step(const Ids& sequence) {
  if (sequence.size() < 2) {
    throw InputError(Argument::ids, "a sequence of " + std::to_string(sequence.size()) +
                                        " id has no next token to predict: each batch needs at "
                                        "least 2 ids (inputs seq[:-1], targets seq[1:])");
  }
  check_ids(sequence, weight_.rows());
  if (context_length() > 0) {
    throw InputError(Argument::max_length,
                     "a model with positions trains on windows of max_length ids, not on "
                     "sequences of any length");
  }
  TokenBatch x;
  x.ids.assign(sequence.begin(), sequence.end() - 1);
  x.rows = 1;
  x.length = static_cast<Index>(x.ids.size());
  return step(x, Ids(sequence.begin() + 1, sequence.end()));
}

void NextTokenTraining::check_batch(const TokenBatch& x, const Ids& targets) const {
  const Index vocab = weight_.rows();
  check_ids(x.ids, vocab);
  check_ids(targets, vocab);
  if (targets.size() != x.ids.size() || x.rows * x.length != static_cast<Index>(x.ids.size())) {
    throw InputError(Argument::ids, "the targets must be as many as the inputs (B * T = " +
                                        std::to_string(x.ids.size()) + "), got " +
                                        std::to_string(targets.size()));
  }
  if (context_length() > 0) check_context(x.length, context_length());
  check_elements(static_cast<Index>(x.ids.size()), vocab, Argument::ids, "the logits (n x V)",
                 limits_);
}

Matrix NextTokenTraining::hidden(const TokenBatch& x) const {
  const Matrix tokens = lookup(weight_, x.ids, limits_);
  if (context_length() == 0) return tokens;
  return add_positions(tokens, position_weight_.topRows(x.length));
}

NextTokenStep NextTokenTraining::step(const TokenBatch& x, const Ids& targets) {
  check_batch(x, targets);
  const Index vocab = weight_.rows();
  const auto n = static_cast<Index>(x.ids.size());

  NextTokenStep out;
  out.rows = x.rows;
  out.inputs = x.ids;
  out.targets = targets;
  const Matrix& head = head_weight();
  const Matrix h = hidden(x);
  out.logits = product(h, head.transpose());
  const Matrix log_probs = log_softmax(out.logits);
  float total = 0.0f;
  for (Index i = 0; i < n; ++i) total -= log_probs(i, targets[static_cast<std::size_t>(i)]);
  out.loss = total / static_cast<float>(n);

  // nll_loss's gradient -1/n at each target, then log_softmax's: g - exp(log_probs) * sum(g).
  const float target_grad = -1.0f / static_cast<float>(n);
  Matrix dlogits(n, vocab);
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < vocab; ++j) {
      const float g = j == targets[static_cast<std::size_t>(i)] ? target_grad : 0.0f;
      dlogits(i, j) = g - std::exp(log_probs(i, j)) * target_grad;
    }
  }
  const Matrix dh = product(dlogits, head);
  out.head_grad = product(dlogits.transpose(), h);
  out.embedding_grad = embedding_backward(x.ids, dh, vocab, {}, limits_);
  if (head_ == HeadKind::tied) out.embedding_grad += out.head_grad;
  if (context_length() > 0) {
    // pos(torch.arange(T)) broadcast over the B rows: row t's gradient sums dh at position t.
    Ids positions;
    for (Index b = 0; b < x.rows; ++b)
      for (Index t = 0; t < x.length; ++t) positions.push_back(t);
    out.position_grad = embedding_backward(positions, dh, context_length(), {}, limits_);
    const Matrix before = position_weight_;
    position_optimizer_->step(position_weight_, out.position_grad);
    out.position_changed = changed_rows(before, position_weight_);
  }

  const Matrix before = weight_;
  embedding_optimizer_.step(weight_, out.embedding_grad);
  if (head_ == HeadKind::untied) {
    const Matrix head_before = head_weight_;
    head_optimizer_->step(head_weight_, out.head_grad);
    out.head_changed = changed_rows(head_before, head_weight_);
  }
  out.step = ++steps_;
  const bool tied = head_ == HeadKind::tied;
  const RowCause outside =
      tied ? RowCause::head : cause_outside_batch(embedding_optimizer_.options());
  for (const Index row : changed_rows(before, weight_)) {
    const BatchRole role = role_of(row, x.ids, targets, tied);
    out.changed.push_back({row, role == BatchRole::none ? outside : RowCause::batch, role});
  }
  return out;
}

std::vector<std::vector<TokenGuess>> NextTokenTraining::predict(const TokenBatch& x,
                                                                Index k) const {
  check_batch(x, x.ids);
  const Index vocab = weight_.rows();
  check_top_k(k, vocab, 1);
  const Matrix logits = product(hidden(x), head_weight().transpose());
  const Matrix log_probs = log_softmax(logits);
  std::vector<std::vector<TokenGuess>> out(static_cast<std::size_t>(logits.rows()));
  std::vector<Index> order(static_cast<std::size_t>(vocab));
  for (Index i = 0; i < logits.rows(); ++i) {
    for (Index j = 0; j < vocab; ++j) order[static_cast<std::size_t>(j)] = j;
    // torch.topk's order: a NaN counts as the largest, equal logits by ascending id.
    const auto key = [&](Index j) { return std::isnan(logits(i, j)) ? INFINITY : logits(i, j); };
    const auto larger = [&](Index a, Index b) {
      return key(a) > key(b) || (key(a) == key(b) && a < b);
    };
    std::partial_sort(order.begin(), order.begin() + k, order.end(), larger);
    for (Index r = 0; r < k; ++r) {
      const Index id = order[static_cast<std::size_t>(r)];
      out[static_cast<std::size_t>(i)].push_back({id, logits(i, id), std::exp(log_probs(i, id))});
    }
  }
  return out;
}

}  // namespace embedlab
