#pragma once
// torch.optim's SGD, Adam, AdamW, Adagrad, RMSprop and SparseAdam on one (V, d) weight, bit for
// bit as PyTorch 1.13 steps it on the CPU: the single-tensor (foreach=False) implementations'
// order of operations, in float32, with the scalars (lr, betas, ...) computed in double as
// Python computes them and rounded to float32 where the kernels take them.
//
// Rounding, as measured against the installed PyTorch on a CPU with AVX2 and FMA (the kernels
// ATen dispatches to there; its vector loops and their scalar tails round alike):
//   p.add_(x, alpha=a)           fma(x, a, p)
//   p.addcmul_(x, y, value=v)    fma(v * x, y, p)
//   p.addcdiv_(x, y, value=v)    p + (v * x) / y
//   p.mul_(s), p / s, p + s      one rounding each, s rounded to float32 first
//   sqrt, maximum, neg           exact (maximum propagates NaN)
// Sparse gradients follow sparse_rows.hpp: entry by entry, coalesced only where the optimizer
// coalesces (SparseAdam, Adagrad).
//
// Where PyTorch itself differs: on a CPU without AVX2 and FMA it runs its DEFAULT kernels, which
// do not fuse, and the differential tests skip there (exit 77). Merging sparse momentum buffers
// goes through the BLAS's saxpy (OpenBLAS fuses it on such CPUs; a BLAS that does not would round
// otherwise). Threads change nothing here: past 32768 elements ATen splits the elementwise loops
// into chunks, and each chunk's vector body and scalar tail round alike. torch.maximum (amsgrad)
// returns a NaN with all bits set in its vector body and 0x7fc00000 in its tail; embedlab returns
// the latter everywhere, so a NaN in max_exp_avg_sq may differ from PyTorch's in its bits only.
//
// Checks: the constructor validates the options as torch.optim's constructors do, with their
// messages (an InputError naming the option); check_gradient_kind() refuses a sparse or dense
// gradient where the optimizer's step() would; step() validates shapes and that every scalar it
// rounds to float32 fits, before changing anything.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "embedlab/error.hpp"
#include "embedlab/matrix.hpp"
#include "embedlab/sparse_rows.hpp"

namespace embedlab {

enum class OptimizerKind { sgd, adam, adamw, adagrad, rmsprop, sparse_adam };

// "sgd", "adam", "adamw", "adagrad", "rmsprop", "sparse-adam": how the CLI and the page name them.
std::string_view optimizer_name(OptimizerKind kind);
// "SGD", "Adam", "AdamW", "Adagrad", "RMSprop", "SparseAdam": the class in torch.optim.
std::string_view optimizer_class(OptimizerKind kind);
// The kind named by optimizer_name(); an InputError (Argument::optimizer) listing them otherwise.
OptimizerKind parse_optimizer(std::string_view name);
const std::vector<OptimizerKind>& all_optimizers();

// The hyperparameters of every optimizer, named as torch.optim names them. An optimizer reads
// only its own (optimizer_arguments()); optimizer_defaults() gives PyTorch's defaults.
struct OptimizerOptions {
  OptimizerKind kind = OptimizerKind::sgd;
  double lr = 0.1;            // SGD has no default in PyTorch (lr is required): 0.1 here
  double momentum = 0.0;      // SGD, RMSprop
  double dampening = 0.0;     // SGD
  bool nesterov = false;      // SGD
  double weight_decay = 0.0;  // all but SparseAdam; AdamW's default is 0.01
  bool maximize = false;      // all
  double beta1 = 0.9;         // Adam, AdamW, SparseAdam: betas = (beta1, beta2)
  double beta2 = 0.999;
  double eps = 1e-8;      // Adam, AdamW, RMSprop, SparseAdam; Adagrad's default is 1e-10
  bool amsgrad = false;   // Adam, AdamW
  double lr_decay = 0.0;  // Adagrad
  double initial_accumulator_value = 0.0;  // Adagrad
  double alpha = 0.99;                     // RMSprop
  bool centered = false;                   // RMSprop
};

// torch.optim's defaults for kind (lr: 0.1 for SGD, which has none).
OptimizerOptions optimizer_defaults(OptimizerKind kind);

// The keyword arguments kind's constructor takes besides params, in its signature's order:
// Argument::lr, ::momentum, ... (betas for beta1 and beta2; amsgrad, centered, nesterov and
// maximize as themselves).
const std::vector<Argument>& optimizer_arguments(OptimizerKind kind);

// An InputError (of argument) unless kind's constructor takes it: "torch.optim.Adam takes no
// momentum (...): its arguments are lr, betas, eps, weight_decay, amsgrad, maximize". For front
// ends that let a learner set any hyperparameter.
void check_optimizer_takes(OptimizerKind kind, Argument argument);

// How a hyperparameter is written in Python: a number (lr=0.1), a flag (nesterov=True) or a pair
// (betas=(0.9, 0.999)). InputError (of argument) for an argument that is no hyperparameter.
enum class OptionForm { number, flag, pair };
OptionForm option_form(Argument argument);

// The value of a number or flag hyperparameter (a flag: 1 for True, 0 for False); betas are
// beta1 and beta2. InputError (of argument) for a pair or an argument that is no hyperparameter.
double optimizer_option(const OptimizerOptions& options, Argument argument);
// Sets it after check_optimizer_takes(options.kind, argument) (a flag: nonzero is True): how a
// front end puts what a learner typed over optimizer_defaults(). The values are checked later,
// by check_optimizer_options().
void set_optimizer_option(OptimizerOptions& options, Argument argument, double value);
void set_optimizer_betas(OptimizerOptions& options, double beta1, double beta2);

// "torch.optim.SGD(params, lr=0.1, momentum=0.9)": the constructor call, with lr and every
// argument that differs from PyTorch's default.
std::string optimizer_code(const OptimizerOptions& options, std::string_view params);

// torch.optim's constructor checks, in its order and words: "Invalid learning rate: -0.1",
// "Invalid beta parameter at index 1: 1.0", "Nesterov momentum requires a momentum and zero
// dampening", ...
void check_optimizer_options(const OptimizerOptions& options);

// step()'s refusal of a gradient layout, in PyTorch's words: sparse gradients for Adam ("Adam
// does not support sparse gradients, please consider SparseAdam instead"), AdamW and RMSprop,
// or with weight_decay for SGD and Adagrad; dense ones for SparseAdam.
void check_gradient_kind(const OptimizerOptions& options, bool sparse);

// What the optimizer keeps for the weight: optimizer.state[weight]. A matrix the optimizer has
// not created yet is empty (0 x 0); each created one is (V, d), like the weight.
struct OptimizerState {
  std::int64_t step = 0;              // steps taken
  Matrix momentum_buffer;             // SGD with momentum (dense gradients), RMSprop with momentum
  SparseRows sparse_momentum_buffer;  // SGD with momentum on sparse gradients: a sparse tensor
  Matrix exp_avg, exp_avg_sq;         // Adam, AdamW, SparseAdam
  Matrix max_exp_avg_sq;              // Adam and AdamW with amsgrad
  Matrix sum;                         // Adagrad, from the constructor on
  Matrix square_avg;                  // RMSprop
  Matrix grad_avg;                    // RMSprop, centered
};

// One named piece of the state of one row, as optimizer.state[weight][name][row] prints it:
// values is (1, d), or for SGD's sparse momentum buffer one row per entry the buffer holds for
// that row (none, one, or several: it is not coalesced).
struct RowState {
  std::string_view name;  // "momentum_buffer", "exp_avg", "exp_avg_sq", "max_exp_avg_sq", "sum",
                          // "square_avg", "grad_avg"
  Matrix values;
};
// The state of `row` that the optimizer has created, in the order above; step is
// OptimizerState::step.
std::vector<RowState> row_state(const OptimizerState& state, Index row);

class Optimizer {
 public:
  // torch.optim.<kind>([weight], ...) for a (vocab, dim) weight: checks the options, then makes
  // the state the constructor makes (Adagrad's sum, full of initial_accumulator_value).
  Optimizer(const OptimizerOptions& options, Index vocab, Index dim);

  // optimizer.step() with weight.grad = grad, a dense (V, d) gradient.
  void step(Matrix& weight, const Matrix& grad);
  // optimizer.step() with weight.grad = grad, a sparse one (nn.Embedding(sparse=True)).
  void step(Matrix& weight, const SparseRows& grad);

  const OptimizerOptions& options() const { return options_; }
  const OptimizerState& state() const { return state_; }

 private:
  void check_weight(const Matrix& weight, Index grad_rows, Index grad_cols) const;

  OptimizerOptions options_;
  Index vocab_;
  Index dim_;
  OptimizerState state_;
};

}  // namespace embedlab
