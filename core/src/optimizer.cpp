// The optimizers' names, options, checks and state views; the Optimizer class is in
// optimizer_step.cpp.
#include "embedlab/optimizer.hpp"

#include <algorithm>
#include <string>

#include "embedlab/format.hpp"

namespace embedlab {
namespace {

struct Names {
  OptimizerKind kind;
  std::string_view name;
  std::string_view torch_class;
};

constexpr Names kNames[] = {
    {OptimizerKind::sgd, "sgd", "SGD"},
    {OptimizerKind::adam, "adam", "Adam"},
    {OptimizerKind::adamw, "adamw", "AdamW"},
    {OptimizerKind::adagrad, "adagrad", "Adagrad"},
    {OptimizerKind::rmsprop, "rmsprop", "RMSprop"},
    {OptimizerKind::sparse_adam, "sparse-adam", "SparseAdam"},
};

const Names& names_of(OptimizerKind kind) {
  for (const Names& n : kNames)
    if (n.kind == kind) return n;
  return kNames[0];
}

// "Invalid learning rate: -0.1": Python's "...: {}".format(value).
[[noreturn]] void invalid(Argument argument, const std::string& what, double value) {
  throw InputError(argument, what + ": " + python_float_text(value));
}

// The member of OptimizerOptions behind each number and each flag hyperparameter, or null.
double OptimizerOptions::*number_member(Argument argument) {
  switch (argument) {
    case Argument::lr:
      return &OptimizerOptions::lr;
    case Argument::momentum:
      return &OptimizerOptions::momentum;
    case Argument::dampening:
      return &OptimizerOptions::dampening;
    case Argument::weight_decay:
      return &OptimizerOptions::weight_decay;
    case Argument::eps:
      return &OptimizerOptions::eps;
    case Argument::lr_decay:
      return &OptimizerOptions::lr_decay;
    case Argument::initial_accumulator_value:
      return &OptimizerOptions::initial_accumulator_value;
    case Argument::alpha:
      return &OptimizerOptions::alpha;
    default:
      return nullptr;
  }
}

bool OptimizerOptions::*flag_member(Argument argument) {
  switch (argument) {
    case Argument::nesterov:
      return &OptimizerOptions::nesterov;
    case Argument::amsgrad:
      return &OptimizerOptions::amsgrad;
    case Argument::centered:
      return &OptimizerOptions::centered;
    case Argument::maximize:
      return &OptimizerOptions::maximize;
    default:
      return nullptr;
  }
}

}  // namespace

std::string_view optimizer_name(OptimizerKind kind) { return names_of(kind).name; }
std::string_view optimizer_class(OptimizerKind kind) { return names_of(kind).torch_class; }

const std::vector<OptimizerKind>& all_optimizers() {
  static const std::vector<OptimizerKind> all = [] {
    std::vector<OptimizerKind> kinds;
    for (const Names& n : kNames) kinds.push_back(n.kind);
    return kinds;
  }();
  return all;
}

OptimizerKind parse_optimizer(std::string_view name) {
  std::string known;
  for (const Names& n : kNames) {
    if (n.name == name) return n.kind;
    known += std::string(known.empty() ? "" : ", ") + "'" + std::string(n.name) + "'";
  }
  throw InputError(Argument::optimizer,
                   "optimizer must be one of " + known + ", got '" + std::string(name) + "'");
}

OptimizerOptions optimizer_defaults(OptimizerKind kind) {
  OptimizerOptions o;
  o.kind = kind;
  switch (kind) {
    case OptimizerKind::sgd:
      break;
    case OptimizerKind::adam:
    case OptimizerKind::sparse_adam:
      o.lr = 1e-3;
      break;
    case OptimizerKind::adamw:
      o.lr = 1e-3;
      o.weight_decay = 1e-2;
      break;
    case OptimizerKind::adagrad:
      o.lr = 1e-2;
      o.eps = 1e-10;
      break;
    case OptimizerKind::rmsprop:
      o.lr = 1e-2;
      break;
  }
  return o;
}

const std::vector<Argument>& optimizer_arguments(OptimizerKind kind) {
  using A = Argument;
  static const std::vector<A> sgd = {A::lr,           A::momentum, A::dampening,
                                     A::weight_decay, A::nesterov, A::maximize};
  static const std::vector<A> adam = {A::lr,           A::betas,   A::eps,
                                      A::weight_decay, A::amsgrad, A::maximize};
  static const std::vector<A> adagrad = {
      A::lr, A::lr_decay, A::weight_decay, A::initial_accumulator_value, A::eps, A::maximize};
  static const std::vector<A> rmsprop = {A::lr,       A::alpha,    A::eps,     A::weight_decay,
                                         A::momentum, A::centered, A::maximize};
  static const std::vector<A> sparse_adam = {A::lr, A::betas, A::eps, A::maximize};
  switch (kind) {
    case OptimizerKind::sgd:
      return sgd;
    case OptimizerKind::adam:
    case OptimizerKind::adamw:
      return adam;
    case OptimizerKind::adagrad:
      return adagrad;
    case OptimizerKind::rmsprop:
      return rmsprop;
    case OptimizerKind::sparse_adam:
      return sparse_adam;
  }
  return sgd;
}

void check_optimizer_takes(OptimizerKind kind, Argument argument) {
  const auto& takes = optimizer_arguments(kind);
  if (std::find(takes.begin(), takes.end(), argument) != takes.end()) return;
  std::string names;
  for (const Argument a : takes)
    names += (names.empty() ? "" : ", ") + std::string(argument_name(a));
  const std::string name(argument_name(argument));
  throw InputError(argument, "torch.optim." + std::string(optimizer_class(kind)) + " takes no " +
                                 name + " (__init__() got an unexpected keyword argument '" + name +
                                 "'): its arguments are " + names);
}

OptionForm option_form(Argument argument) {
  if (number_member(argument)) return OptionForm::number;
  if (flag_member(argument)) return OptionForm::flag;
  if (argument == Argument::betas) return OptionForm::pair;
  throw InputError(argument, "'" + std::string(argument_name(argument)) +
                                 "' is not a hyperparameter of torch.optim's optimizers");
}

double optimizer_option(const OptimizerOptions& options, Argument argument) {
  if (option_form(argument) == OptionForm::pair) {
    throw InputError(argument, "betas is a pair: read beta1 and beta2");
  }
  if (const auto member = number_member(argument)) return options.*member;
  return options.*flag_member(argument) ? 1.0 : 0.0;
}

void set_optimizer_option(OptimizerOptions& options, Argument argument, double value) {
  if (option_form(argument) == OptionForm::pair) {
    throw InputError(argument, "betas is a pair: set it with set_optimizer_betas");
  }
  check_optimizer_takes(options.kind, argument);
  if (const auto member = number_member(argument)) {
    options.*member = value;
  } else {
    options.*flag_member(argument) = value != 0.0;
  }
}

void set_optimizer_betas(OptimizerOptions& options, double beta1, double beta2) {
  check_optimizer_takes(options.kind, Argument::betas);
  options.beta1 = beta1;
  options.beta2 = beta2;
}

std::string optimizer_code(const OptimizerOptions& o, std::string_view params) {
  const OptimizerOptions d = optimizer_defaults(o.kind);
  std::string code = "torch.optim." + std::string(optimizer_class(o.kind)) + "(" +
                     std::string(params) + ", lr=" + python_float_text(o.lr);
  for (const Argument a : optimizer_arguments(o.kind)) {
    if (a == Argument::lr) continue;  // written first
    const std::string keyword = ", " + std::string(argument_name(a)) + "=";
    switch (option_form(a)) {
      case OptionForm::number:
        if (optimizer_option(o, a) != optimizer_option(d, a))
          code += keyword + python_float_text(optimizer_option(o, a));
        break;
      case OptionForm::flag:
        if (optimizer_option(o, a) != 0.0) code += keyword + "True";
        break;
      case OptionForm::pair:
        if (o.beta1 != d.beta1 || o.beta2 != d.beta2)
          code +=
              keyword + "(" + python_float_text(o.beta1) + ", " + python_float_text(o.beta2) + ")";
        break;
    }
  }
  return code + ")";
}

// Each test is written as PyTorch writes it (`not 0.0 <= lr`), so NaN is refused where PyTorch
// refuses it and accepted where it accepts it.
void check_optimizer_options(const OptimizerOptions& o) {
  const auto check_betas = [&] {
    if (!(0.0 <= o.beta1 && o.beta1 < 1.0))
      invalid(Argument::betas, "Invalid beta parameter at index 0", o.beta1);
    if (!(0.0 <= o.beta2 && o.beta2 < 1.0))
      invalid(Argument::betas, "Invalid beta parameter at index 1", o.beta2);
  };
  const auto check_weight_decay = [&] {
    if (!(0.0 <= o.weight_decay))
      invalid(Argument::weight_decay, "Invalid weight_decay value", o.weight_decay);
  };
  switch (o.kind) {
    case OptimizerKind::sgd:
      if (o.lr < 0.0) invalid(Argument::lr, "Invalid learning rate", o.lr);
      if (o.momentum < 0.0) invalid(Argument::momentum, "Invalid momentum value", o.momentum);
      if (o.weight_decay < 0.0)
        invalid(Argument::weight_decay, "Invalid weight_decay value", o.weight_decay);
      if (o.nesterov && (o.momentum <= 0.0 || o.dampening != 0.0)) {
        throw InputError(Argument::nesterov,
                         "Nesterov momentum requires a momentum and zero dampening");
      }
      break;
    case OptimizerKind::adam:
    case OptimizerKind::adamw:
      if (!(0.0 <= o.lr)) invalid(Argument::lr, "Invalid learning rate", o.lr);
      if (!(0.0 <= o.eps)) invalid(Argument::eps, "Invalid epsilon value", o.eps);
      check_betas();
      check_weight_decay();
      break;
    case OptimizerKind::adagrad:
      if (!(0.0 <= o.lr)) invalid(Argument::lr, "Invalid learning rate", o.lr);
      if (!(0.0 <= o.lr_decay)) invalid(Argument::lr_decay, "Invalid lr_decay value", o.lr_decay);
      check_weight_decay();
      if (!(0.0 <= o.initial_accumulator_value)) {
        invalid(Argument::initial_accumulator_value, "Invalid initial_accumulator_value value",
                o.initial_accumulator_value);
      }
      if (!(0.0 <= o.eps)) invalid(Argument::eps, "Invalid epsilon value", o.eps);
      break;
    case OptimizerKind::rmsprop:
      if (!(0.0 <= o.lr)) invalid(Argument::lr, "Invalid learning rate", o.lr);
      if (!(0.0 <= o.eps)) invalid(Argument::eps, "Invalid epsilon value", o.eps);
      if (!(0.0 <= o.momentum)) invalid(Argument::momentum, "Invalid momentum value", o.momentum);
      check_weight_decay();
      if (!(0.0 <= o.alpha)) invalid(Argument::alpha, "Invalid alpha value", o.alpha);
      break;
    case OptimizerKind::sparse_adam:
      if (!(0.0 < o.lr)) invalid(Argument::lr, "Invalid learning rate", o.lr);
      if (!(0.0 < o.eps)) invalid(Argument::eps, "Invalid epsilon value", o.eps);
      check_betas();
      break;
  }
}

void check_gradient_kind(const OptimizerOptions& o, bool sparse) {
  if (!sparse) {
    if (o.kind == OptimizerKind::sparse_adam) {
      throw InputError(Argument::optimizer,
                       "SparseAdam does not support dense gradients, please consider Adam instead");
    }
    return;
  }
  switch (o.kind) {
    case OptimizerKind::adam:
      throw InputError(
          Argument::optimizer,
          "Adam does not support sparse gradients, please consider SparseAdam instead");
    case OptimizerKind::adamw:
      throw InputError(Argument::optimizer, "AdamW does not support sparse gradients");
    case OptimizerKind::rmsprop:
      throw InputError(Argument::optimizer, "RMSprop does not support sparse gradients");
    case OptimizerKind::sgd:
      // d_p.add(param, alpha=weight_decay) with d_p sparse
      if (o.weight_decay != 0.0) {
        throw InputError(Argument::weight_decay,
                         "add(sparse, dense) is not supported. Use add(dense, sparse) instead.");
      }
      return;
    case OptimizerKind::adagrad:
      if (o.weight_decay != 0.0) {
        throw InputError(Argument::weight_decay,
                         "weight_decay option is not compatible with sparse gradients");
      }
      return;
    case OptimizerKind::sparse_adam:
      return;
  }
}

std::vector<RowState> row_state(const OptimizerState& s, Index row) {
  std::vector<RowState> out;
  auto dense = [&](std::string_view name, const Matrix& m) {
    if (m.size() > 0 && row >= 0 && row < m.rows()) out.push_back({name, m.row(row)});
  };
  dense("momentum_buffer", s.momentum_buffer);
  const SparseRows& sparse = s.sparse_momentum_buffer;
  if (sparse.values.cols() > 0) {  // created
    std::vector<Index> entries;
    for (std::size_t k = 0; k < sparse.rows.size(); ++k)
      if (sparse.rows[k] == row) entries.push_back(static_cast<Index>(k));
    Matrix values(static_cast<Index>(entries.size()), sparse.values.cols());
    for (std::size_t e = 0; e < entries.size(); ++e)
      values.row(static_cast<Index>(e)) = sparse.values.row(entries[e]);
    out.push_back({"momentum_buffer", values});
  }
  dense("exp_avg", s.exp_avg);
  dense("exp_avg_sq", s.exp_avg_sq);
  dense("max_exp_avg_sq", s.max_exp_avg_sq);
  dense("sum", s.sum);
  dense("square_avg", s.square_avg);
  dense("grad_avg", s.grad_avg);
  return out;
}

}  // namespace embedlab
