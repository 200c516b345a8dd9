// The Optimizer class: torch.optim's single-tensor steps, element by element in float32 with the
// rounding of optimizer.hpp. Compiled with -ffp-contract=off: every fused multiply-add is an
// explicit std::fma.
#include <cfloat>
#include <cmath>
#include <limits>
#include <string>

#include "embedlab/format.hpp"
#include "embedlab/limits.hpp"
#include "embedlab/optimizer.hpp"

namespace embedlab {
namespace {

// A Python float as a kernel takes it: rounded to float32 (c10::Scalar::to<float>), which
// PyTorch refuses for a finite value past float32's range.
float to_float(double x, Argument argument, const char* what) {
  if (std::isfinite(x) && std::abs(x) > double(FLT_MAX)) {
    throw InputError(argument, std::string(what) + " = " + python_float_text(x) +
                                   " is past float32's range, where PyTorch's float32 kernels "
                                   "take it: value cannot be converted to type float without "
                                   "overflow");
  }
  return static_cast<float>(x);
}

// The kernels' arithmetic (optimizer.hpp): self.add_(other, alpha), self.addcmul_(t1, t2, value),
// self.addcdiv_(t1, t2, value), torch.maximum.
float add(float self, float other, float alpha) { return std::fma(other, alpha, self); }
float addcmul(float self, float t1, float t2, float value) {
  return std::fma(value * t1, t2, self);
}
float addcdiv(float self, float t1, float t2, float value) { return self + (value * t1) / t2; }
float maximum(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<float>::quiet_NaN();
  return a > b ? a : b;
}

// The scalars of an SGD step, dense or sparse.
struct SgdScalars {
  float momentum, damped, neg_lr;  // momentum, 1 - dampening, -lr
};
SgdScalars sgd_scalars(const OptimizerOptions& o) {
  return {to_float(o.momentum, Argument::momentum, "momentum"),
          to_float(1.0 - o.dampening, Argument::dampening, "1 - dampening"),
          to_float(-o.lr, Argument::lr, "-lr")};
}

// The scalars of Adagrad's step number `step` (1 for the first), dense or sparse: the learning
// rate decayed in double, clr = lr / (1 + (step - 1) * lr_decay), negated.
struct AdagradScalars {
  float neg_clr, eps;
};
AdagradScalars adagrad_scalars(const OptimizerOptions& o, std::int64_t step) {
  const double clr = o.lr / (1.0 + (double(step) - 1.0) * o.lr_decay);
  return {to_float(-clr, Argument::lr, "-lr / (1 + (step - 1) * lr_decay)"),
          to_float(o.eps, Argument::eps, "eps")};
}

// A state matrix the step creates at its first call, zeros (V, d).
void create(Matrix& m, Index vocab, Index dim) {
  if (m.size() == 0) m = Matrix::Zero(vocab, dim);
}

// The sparse gradient's entries as the step sees them: negated under maximize.
SparseRows signed_grad(const SparseRows& grad, bool maximize) {
  return maximize ? sparse_scaled(grad, -1.0f) : grad;
}

}  // namespace

Optimizer::Optimizer(const OptimizerOptions& options, Index vocab, Index dim)
    : options_(options), vocab_(vocab), dim_(dim) {
  check_optimizer_options(options);
  check_table_shape(vocab, dim);
  if (options.kind == OptimizerKind::adagrad) {
    state_.sum = Matrix::Constant(
        vocab, dim,
        to_float(options.initial_accumulator_value, Argument::initial_accumulator_value,
                 "initial_accumulator_value"));
  }
}

void Optimizer::check_weight(const Matrix& weight, Index grad_rows, Index grad_cols) const {
  if (weight.rows() != vocab_ || weight.cols() != dim_) {
    throw InputError(Argument::weights, "the weight is " + std::to_string(weight.rows()) + " x " +
                                            std::to_string(weight.cols()) +
                                            " but the optimizer was made for " +
                                            std::to_string(vocab_) + " x " + std::to_string(dim_));
  }
  if (grad_rows != vocab_ || grad_cols != dim_) {
    throw InputError(Argument::grad, "the gradient is " + std::to_string(grad_rows) + " x " +
                                         std::to_string(grad_cols) + " but the weight is " +
                                         std::to_string(vocab_) + " x " + std::to_string(dim_) +
                                         ": weight.grad has the weight's shape");
  }
}

void Optimizer::step(Matrix& weight, const Matrix& grad) {
  check_weight(weight, grad.rows(), grad.cols());
  check_gradient_kind(options_, false);
  const OptimizerOptions& o = options_;
  // The L2 term grad + weight_decay * p; AdamW decays the weight itself instead.
  const bool decay = o.weight_decay != 0.0 && o.kind != OptimizerKind::adamw;
  const float wd = decay ? to_float(o.weight_decay, Argument::weight_decay, "weight_decay") : 0.0f;
  const Index n = weight.size();
  float* p = weight.data();
  const float* dw = grad.data();
  auto g_at = [&](Index i) {
    const float g = o.maximize ? -dw[i] : dw[i];
    return decay ? add(g, p[i], wd) : g;
  };

  switch (o.kind) {
    case OptimizerKind::sgd: {
      const SgdScalars k = sgd_scalars(o);
      const bool first = state_.momentum_buffer.size() == 0;
      ++state_.step;
      if (o.momentum != 0.0 && first) state_.momentum_buffer.resize(vocab_, dim_);
      float* buf = state_.momentum_buffer.data();
      for (Index i = 0; i < n; ++i) {
        float g = g_at(i);
        if (o.momentum != 0.0) {
          buf[i] = first ? g : add(buf[i] * k.momentum, g, k.damped);
          g = o.nesterov ? add(g, buf[i], k.momentum) : buf[i];
        }
        p[i] = add(p[i], g, k.neg_lr);
      }
      break;
    }
    case OptimizerKind::adam:
    case OptimizerKind::adamw: {
      const double step = double(state_.step + 1);
      const double bias_correction1 = 1.0 - std::pow(o.beta1, step);
      const double bias_correction2 = 1.0 - std::pow(o.beta2, step);
      const double step_size = o.lr / bias_correction1;
      // betas are in [0, 1) (checked): these fit float32.
      const float beta1 = static_cast<float>(o.beta1);
      const float beta2 = static_cast<float>(o.beta2);
      const float one_minus_beta1 = static_cast<float>(1.0 - o.beta1);
      const float one_minus_beta2 = static_cast<float>(1.0 - o.beta2);
      const float bias_sqrt = static_cast<float>(std::sqrt(bias_correction2));
      const float eps = to_float(o.eps, Argument::eps, "eps");
      const float neg_step = to_float(-step_size, Argument::lr, "-lr / (1 - beta1 ** step)");
      const bool adamw = o.kind == OptimizerKind::adamw;
      const float shrink = adamw ? to_float(1.0 - o.lr * o.weight_decay, Argument::weight_decay,
                                            "1 - lr * weight_decay")
                                 : 1.0f;
      ++state_.step;
      create(state_.exp_avg, vocab_, dim_);
      create(state_.exp_avg_sq, vocab_, dim_);
      if (o.amsgrad) create(state_.max_exp_avg_sq, vocab_, dim_);
      float* m = state_.exp_avg.data();
      float* v = state_.exp_avg_sq.data();
      float* v_max = state_.max_exp_avg_sq.data();
      for (Index i = 0; i < n; ++i) {
        const float g = g_at(i);
        if (adamw) p[i] *= shrink;
        m[i] = add(m[i] * beta1, g, one_minus_beta1);
        v[i] = addcmul(v[i] * beta2, g, g, one_minus_beta2);
        float second = v[i];
        if (o.amsgrad) second = v_max[i] = maximum(v_max[i], v[i]);
        const float denom = std::sqrt(second) / bias_sqrt + eps;
        p[i] = addcdiv(p[i], m[i], denom, neg_step);
      }
      break;
    }
    case OptimizerKind::adagrad: {
      const AdagradScalars k = adagrad_scalars(o, state_.step + 1);
      ++state_.step;
      float* sum = state_.sum.data();
      for (Index i = 0; i < n; ++i) {
        const float g = g_at(i);
        sum[i] = addcmul(sum[i], g, g, 1.0f);
        const float std = std::sqrt(sum[i]) + k.eps;
        p[i] = addcdiv(p[i], g, std, k.neg_clr);
      }
      break;
    }
    case OptimizerKind::rmsprop: {
      const float alpha = to_float(o.alpha, Argument::alpha, "alpha");
      const float one_minus_alpha = to_float(1.0 - o.alpha, Argument::alpha, "1 - alpha");
      const float eps = to_float(o.eps, Argument::eps, "eps");
      const float momentum = to_float(o.momentum, Argument::momentum, "momentum");
      const float neg_lr = to_float(-o.lr, Argument::lr, "-lr");
      ++state_.step;
      create(state_.square_avg, vocab_, dim_);
      if (o.momentum > 0.0) create(state_.momentum_buffer, vocab_, dim_);
      if (o.centered) create(state_.grad_avg, vocab_, dim_);
      float* square_avg = state_.square_avg.data();
      float* buf = state_.momentum_buffer.data();
      float* grad_avg = state_.grad_avg.data();
      for (Index i = 0; i < n; ++i) {
        const float g = g_at(i);
        square_avg[i] = addcmul(square_avg[i] * alpha, g, g, one_minus_alpha);
        float avg;
        if (o.centered) {
          grad_avg[i] = add(grad_avg[i] * alpha, g, one_minus_alpha);
          avg = std::sqrt(addcmul(square_avg[i], grad_avg[i], grad_avg[i], -1.0f));
        } else {
          avg = std::sqrt(square_avg[i]);
        }
        avg = avg + eps;
        if (o.momentum > 0.0) {
          buf[i] = addcdiv(buf[i] * momentum, g, avg, 1.0f);
          p[i] = add(p[i], buf[i], neg_lr);
        } else {
          p[i] = addcdiv(p[i], g, avg, neg_lr);
        }
      }
      break;
    }
    case OptimizerKind::sparse_adam:
      break;  // refused by check_gradient_kind
  }
}

void Optimizer::step(Matrix& weight, const SparseRows& grad) {
  check_weight(weight, grad.vocab, grad.values.cols());
  check_gradient_kind(options_, true);
  for (const Index row : grad.rows) {
    if (row < 0 || row >= vocab_) {
      throw InputError(Argument::grad, "the sparse gradient has an entry for row " +
                                           std::to_string(row) + " of a weight with " +
                                           std::to_string(vocab_) + " rows");
    }
  }
  const OptimizerOptions& o = options_;
  if (grad.rows.empty() && o.kind != OptimizerKind::sgd && state_.step == 0) {
    // The first gradient, taken from backward as it is, is shaped (1, 0) / (0, d) when empty,
    // and their sparse_mask of it has values of another shape. (Later ones pass through
    // zero_grad()'s zeroed tensor, of another shape, and step as no-ops.)
    throw InputError(Argument::ids,
                     "every id of the first batch is padding_idx, so the first sparse gradient "
                     "has no entries, and PyTorch 1.13's " +
                         std::string(optimizer_class(o.kind)) +
                         " step fails on it: The size of tensor a (" + std::to_string(dim_) +
                         ") must match the size of tensor b (0) at non-singleton dimension 1");
  }
  switch (o.kind) {
    case OptimizerKind::sgd: {
      const SgdScalars k = sgd_scalars(o);
      SparseRows d_p = signed_grad(grad, o.maximize);
      if (o.momentum != 0.0) {
        SparseRows& buf = state_.sparse_momentum_buffer;
        const bool first = buf.values.cols() == 0;  // not created yet
        buf = first ? d_p : sparse_add(sparse_scaled(buf, k.momentum), d_p, k.damped);
        d_p = o.nesterov ? sparse_add(d_p, buf, k.momentum) : buf;
      }
      ++state_.step;
      add_sparse_to(weight, d_p, k.neg_lr);
      break;
    }
    case OptimizerKind::adagrad: {
      const AdagradScalars k = adagrad_scalars(o, state_.step + 1);
      ++state_.step;
      const SparseRows g = coalesce(signed_grad(grad, o.maximize));
      SparseRows squares = g;
      squares.values = g.values.cwiseProduct(g.values);
      add_sparse_to(state_.sum, squares, 1.0f);
      SparseRows update = sparse_mask(state_.sum, g);
      for (Index i = 0; i < update.values.size(); ++i) {
        const float std = std::sqrt(update.values.data()[i]) + k.eps;
        update.values.data()[i] = g.values.data()[i] / std;
      }
      add_sparse_to(weight, update, k.neg_clr);
      break;
    }
    case OptimizerKind::sparse_adam: {
      const double step = double(state_.step + 1);
      const double bias_correction1 = 1.0 - std::pow(o.beta1, step);
      const double bias_correction2 = 1.0 - std::pow(o.beta2, step);
      const double step_size = o.lr * std::sqrt(bias_correction2) / bias_correction1;
      const float one_minus_beta1 = static_cast<float>(1.0 - o.beta1);
      const float one_minus_beta2 = static_cast<float>(1.0 - o.beta2);
      const float eps = to_float(o.eps, Argument::eps, "eps");
      const float neg_step =
          to_float(-step_size, Argument::lr, "-lr * sqrt(1 - beta2 ** step) / (1 - beta1 ** step)");
      ++state_.step;
      create(state_.exp_avg, vocab_, dim_);
      create(state_.exp_avg_sq, vocab_, dim_);
      const SparseRows g = coalesce(signed_grad(grad, o.maximize));
      const SparseRows old_m = sparse_mask(state_.exp_avg, g);
      SparseRows m_update = g;
      for (Index i = 0; i < g.values.size(); ++i)
        m_update.values.data()[i] = (g.values.data()[i] - old_m.values.data()[i]) * one_minus_beta1;
      add_sparse_to(state_.exp_avg, m_update, 1.0f);
      const SparseRows old_v = sparse_mask(state_.exp_avg_sq, g);
      SparseRows v_update = g;
      for (Index i = 0; i < g.values.size(); ++i) {
        const float gi = g.values.data()[i];
        v_update.values.data()[i] = (gi * gi - old_v.values.data()[i]) * one_minus_beta2;
      }
      add_sparse_to(state_.exp_avg_sq, v_update, 1.0f);
      SparseRows update = g;
      for (Index i = 0; i < g.values.size(); ++i) {
        const float numer = m_update.values.data()[i] + old_m.values.data()[i];
        const float denom = std::sqrt(v_update.values.data()[i] + old_v.values.data()[i]) + eps;
        update.values.data()[i] = (numer / denom) * neg_step;
      }
      add_sparse_to(weight, update, 1.0f);
      break;
    }
    case OptimizerKind::adam:
    case OptimizerKind::adamw:
    case OptimizerKind::rmsprop:
      break;  // refused by check_gradient_kind
  }
}

}  // namespace embedlab
