// torch.optim's steps on hand-computed cases: values chosen so that each step is exact in float32
// (or its one rounding is written out), the state each optimizer keeps, and the refusals in
// PyTorch's words.
#include <catch2/catch.hpp>
#include <cmath>

#include "embedlab/error.hpp"
#include "embedlab/optimizer.hpp"
#include "embedlab/sparse_rows.hpp"
#include "error_of.hpp"
#include "matrix_literals.hpp"

using embedlab::Argument;
using embedlab::Matrix;
using embedlab::Optimizer;
using embedlab::OptimizerKind;
using embedlab::OptimizerOptions;
using embedlab::SparseRows;

namespace {

OptimizerOptions options_for(OptimizerKind kind) { return embedlab::optimizer_defaults(kind); }

SparseRows sparse(embedlab::Index vocab, embedlab::Ids rows, const Matrix& values) {
  SparseRows s;
  s.vocab = vocab;
  s.rows = std::move(rows);
  s.values = values;
  return s;
}

}  // namespace

TEST_CASE("SGD: p - lr * g, then momentum keeps the rows moving", "[optimizer]") {
  OptimizerOptions o = options_for(OptimizerKind::sgd);
  o.lr = 0.5;
  o.momentum = 0.5;
  Optimizer sgd(o, 2, 2);
  Matrix w = rows({{1, 2}, {3, 4}});
  sgd.step(w, rows({{1, 0}, {0, -2}}));  // the buffer starts as the gradient
  CHECK(w == rows({{0.5f, 2}, {3, 5}}));
  CHECK(sgd.state().momentum_buffer == rows({{1, 0}, {0, -2}}));
  sgd.step(w, Matrix::Zero(2, 2));  // buf = 0.5 * buf + 0: rows 0 and 1 move again
  CHECK(sgd.state().momentum_buffer == rows({{0.5f, 0}, {0, -1}}));
  CHECK(w == rows({{0.25f, 2}, {3, 5.5f}}));
}

TEST_CASE("SGD: weight decay, nesterov, dampening and maximize", "[optimizer]") {
  OptimizerOptions o = options_for(OptimizerKind::sgd);
  o.lr = 0.25;
  o.weight_decay = 0.5;
  o.maximize = true;
  Optimizer ascent(o, 1, 2);
  Matrix w = rows({{2, -4}});
  ascent.step(w, rows({{1, 1}}));  // d_p = -g + 0.5 * p = (0, -3); p - 0.25 * d_p
  CHECK(w == rows({{2, -3.25f}}));

  o = options_for(OptimizerKind::sgd);
  o.lr = 1;
  o.momentum = 0.5;
  o.nesterov = true;
  Optimizer nesterov(o, 1, 1);
  w = rows({{0}});
  nesterov.step(w, rows({{2}}));  // buf = 2; d_p = 2 + 0.5 * 2 = 3
  CHECK(w == rows({{-3}}));

  o.nesterov = false;
  o.dampening = 0.75;
  Optimizer damped(o, 1, 1);
  w = rows({{0}});
  damped.step(w, rows({{4}}));  // buf = 4 (no dampening on the first step)
  damped.step(w, rows({{4}}));  // buf = 0.5 * 4 + 0.25 * 4 = 3
  CHECK(damped.state().momentum_buffer == rows({{3}}));
  CHECK(w == rows({{-7}}));
}

TEST_CASE("Adam and AdamW with betas 0: a step of lr in the gradient's sign", "[optimizer]") {
  // beta1 = beta2 = 0: m = g, v = g * g, no bias correction; eps = 0: the step is lr * g / |g|.
  OptimizerOptions o = options_for(OptimizerKind::adam);
  o.lr = 0.25;
  o.beta1 = 0;
  o.beta2 = 0;
  o.eps = 0;
  Optimizer adam(o, 1, 2);
  Matrix w = rows({{1, 1}});
  adam.step(w, rows({{4, -0.5f}}));
  CHECK(w == rows({{0.75f, 1.25f}}));
  CHECK(adam.state().step == 1);
  CHECK(adam.state().exp_avg == rows({{4, -0.5f}}));
  CHECK(adam.state().exp_avg_sq == rows({{16, 0.25f}}));
  CHECK(adam.state().max_exp_avg_sq.size() == 0);

  o.kind = OptimizerKind::adamw;
  o.weight_decay = 0.5;  // the weight shrinks by 1 - 0.25 * 0.5 = 0.875 first
  Optimizer adamw(o, 1, 2);
  w = rows({{1, 1}});
  adamw.step(w, rows({{4, -0.5f}}));
  CHECK(w == rows({{0.625f, 1.125f}}));
}

TEST_CASE("Adam's first step with PyTorch's defaults, rounded as its kernels round",
          "[optimizer]") {
  OptimizerOptions o = options_for(OptimizerKind::adam);
  o.amsgrad = true;
  Optimizer adam(o, 1, 1);
  Matrix w = rows({{1}});
  adam.step(w, rows({{2}}));
  // m = fma(2, float(1 - 0.9), 0), v = fma(float(1 - 0.999) * 2, 2, 0); the bias corrections in
  // double; p + (float(-lr / bc1) * m) / (sqrt(v) / float(sqrt(bc2)) + float(eps)).
  const float m = std::fma(2.0f, static_cast<float>(1 - 0.9), 0.0f);
  const float v = std::fma(static_cast<float>(1 - 0.999) * 2.0f, 2.0f, 0.0f);
  const float denom = std::sqrt(v) / static_cast<float>(std::sqrt(1 - 0.999)) + 1e-8f;
  const float expected = 1.0f + (static_cast<float>(-1e-3 / (1 - 0.9)) * m) / denom;
  CHECK(adam.state().exp_avg(0, 0) == m);
  CHECK(adam.state().max_exp_avg_sq(0, 0) == v);
  CHECK(w(0, 0) == expected);
  CHECK(w(0, 0) == Approx(0.999f));
}

TEST_CASE("Adagrad: the sum of squares divides, lr decays with the step", "[optimizer]") {
  OptimizerOptions o = options_for(OptimizerKind::adagrad);
  o.lr = 0.25;
  o.eps = 0;
  o.lr_decay = 1;
  o.initial_accumulator_value = 9;
  Optimizer adagrad(o, 1, 1);
  CHECK(adagrad.state().sum == rows({{9}}));  // made by the constructor
  Matrix w = rows({{1}});
  adagrad.step(w, rows({{4}}));  // sum = 25, p - 0.25 * 4 / 5
  CHECK(adagrad.state().sum == rows({{25}}));
  CHECK(w(0, 0) == 1.0f + (-0.25f * 4) / 5);
  adagrad.step(w, rows({{0}}));  // a zero gradient moves nothing
  CHECK(adagrad.state().step == 2);
  CHECK(w(0, 0) == 1.0f + (-0.25f * 4) / 5);
}

TEST_CASE("RMSprop: plain, centered and with momentum", "[optimizer]") {
  OptimizerOptions o = options_for(OptimizerKind::rmsprop);
  o.lr = 0.5;
  o.alpha = 0;  // square_avg = g * g
  o.eps = 0;
  Optimizer plain(o, 1, 1);
  Matrix w = rows({{1}});
  plain.step(w, rows({{-3}}));  // p - 0.5 * (-3) / 3
  CHECK(w == rows({{1.5f}}));
  CHECK(plain.state().square_avg == rows({{9}}));

  o.alpha = 0.5;
  o.centered = true;
  o.momentum = 0.5;
  Optimizer centered(o, 1, 1);
  w = rows({{0}});
  // square_avg = 0.5 * 16 = 8, grad_avg = 0.5 * 4 = 2, avg = sqrt(8 - 4) = 2; buf = 4 / 2
  centered.step(w, rows({{4}}));
  CHECK(centered.state().grad_avg == rows({{2}}));
  CHECK(centered.state().momentum_buffer == rows({{2}}));
  CHECK(w == rows({{-1}}));
}

TEST_CASE("sparse SGD applies a repeated id's entries one at a time", "[optimizer]") {
  // Two entries of 2^-25 for row 0: each is half an ulp below 1.0 and rounds back to 1.0 (ties
  // to even); their dense sum 2^-24 moves 1.0 down one ulp.
  OptimizerOptions o = options_for(OptimizerKind::sgd);
  o.lr = 1;
  const float half_ulp = 0x1p-25f;
  Matrix sparse_w = rows({{1}});
  Optimizer(o, 1, 1).step(sparse_w, sparse(1, {0, 0}, rows({{half_ulp}, {half_ulp}})));
  CHECK(sparse_w == rows({{1}}));
  Matrix dense_w = rows({{1}});
  Optimizer(o, 1, 1).step(dense_w, rows({{2 * half_ulp}}));
  CHECK(dense_w == rows({{1 - 0x1p-24f}}));
}

TEST_CASE("sparse SGD's momentum buffer keeps every entry, merged as PyTorch merges",
          "[optimizer]") {
  OptimizerOptions o = options_for(OptimizerKind::sgd);
  o.lr = 1;
  o.momentum = 0.5;
  Optimizer sgd(o, 4, 1);
  Matrix w = Matrix::Zero(4, 1);
  sgd.step(w, sparse(4, {1, 2, 1}, rows({{1}, {2}, {4}})));
  CHECK(sgd.state().sparse_momentum_buffer.rows == embedlab::Ids{1, 2, 1});
  // 0.5 * buf + [0: 8, 1: 16]: walked as if sorted, row 1 merges with the buffer's first entry.
  sgd.step(w, sparse(4, {0, 1}, rows({{8}, {16}})));
  const SparseRows& buf = sgd.state().sparse_momentum_buffer;
  CHECK(buf.rows == embedlab::Ids{0, 1, 2, 1});
  CHECK(buf.values == rows({{8}, {16.5f}, {1}, {2}}));
  CHECK(w == rows({{-8}, {-5 - 18.5f}, {-3}, {0}}));

  const auto rows_state = embedlab::row_state(sgd.state(), 1);
  REQUIRE(rows_state.size() == 1);
  CHECK(rows_state[0].name == "momentum_buffer");
  CHECK(rows_state[0].values == rows({{16.5f}, {2}}));  // two entries for row 1
}

TEST_CASE("SparseAdam updates the rows of the batch alone", "[optimizer]") {
  OptimizerOptions o = options_for(OptimizerKind::sparse_adam);
  o.lr = 0.5;
  o.beta1 = 0;
  o.beta2 = 0;
  o.eps = 1;
  Optimizer lazy(o, 3, 1);
  Matrix w = rows({{1}, {1}, {1}});
  // Rows 2 and 0 coalesce to [0: 3, 2: -1 + -2 = -3]: p - 0.5 * g / (|g| + 1).
  lazy.step(w, sparse(3, {2, 0, 2}, rows({{-1}, {3}, {-2}})));
  CHECK(w == rows({{1 - 0.5f * 3 / 4}, {1}, {1 + 0.5f * 3 / 4}}));
  CHECK(lazy.state().exp_avg == rows({{3}, {0}, {-3}}));
  CHECK(lazy.state().exp_avg_sq == rows({{9}, {0}, {9}}));
}

TEST_CASE("optimizer state per row names what the optimizer keeps", "[optimizer]") {
  OptimizerOptions o = options_for(OptimizerKind::adam);
  o.amsgrad = true;
  Optimizer adam(o, 2, 1);
  CHECK(embedlab::row_state(adam.state(), 0).empty());  // nothing before the first step
  Matrix w = rows({{1}, {1}});
  adam.step(w, rows({{0}, {2}}));
  const auto state = embedlab::row_state(adam.state(), 1);
  REQUIRE(state.size() == 3);
  CHECK(state[0].name == "exp_avg");
  CHECK(state[1].name == "exp_avg_sq");
  CHECK(state[2].name == "max_exp_avg_sq");
  CHECK(state[0].values(0, 0) == adam.state().exp_avg(1, 0));
}

TEST_CASE("the constructor call, as a notebook would write it", "[optimizer]") {
  OptimizerOptions o = options_for(OptimizerKind::sgd);
  CHECK(embedlab::optimizer_code(o, "params") == "torch.optim.SGD(params, lr=0.1)");
  o.momentum = 0.9;
  o.nesterov = true;
  o.weight_decay = 1e-5;
  CHECK(embedlab::optimizer_code(o, "params") ==
        "torch.optim.SGD(params, lr=0.1, momentum=0.9, weight_decay=1e-05, nesterov=True)");
  o = options_for(OptimizerKind::adamw);
  o.beta2 = 0.99;
  o.amsgrad = true;
  CHECK(embedlab::optimizer_code(o, "m.parameters()") ==
        "torch.optim.AdamW(m.parameters(), lr=0.001, betas=(0.9, 0.99), amsgrad=True)");
  CHECK(embedlab::optimizer_code(options_for(OptimizerKind::sparse_adam), "p") ==
        "torch.optim.SparseAdam(p, lr=0.001)");
}

TEST_CASE("names: the CLI's and torch.optim's", "[optimizer]") {
  for (const OptimizerKind kind : embedlab::all_optimizers())
    CHECK(embedlab::parse_optimizer(embedlab::optimizer_name(kind)) == kind);
  CHECK(embedlab::optimizer_class(OptimizerKind::rmsprop) == "RMSprop");
  CHECK(error_of([] { embedlab::parse_optimizer("lion"); }) ==
        std::pair<Argument, std::string>(
            Argument::optimizer,
            "optimizer must be one of 'sgd', 'adam', 'adamw', 'adagrad', "
            "'rmsprop', 'sparse-adam', got 'lion'"));
}

TEST_CASE("the constructors' refusals, in PyTorch's words", "[optimizer]") {
  using P = std::pair<Argument, std::string>;
  auto refused = [](OptimizerKind kind, auto change) {
    OptimizerOptions o = options_for(kind);
    change(o);
    return error_of([&] { Optimizer(o, 2, 2); });
  };
  CHECK(refused(OptimizerKind::sgd, [](auto& o) { o.lr = -0.1; }) ==
        P(Argument::lr, "Invalid learning rate: -0.1"));
  CHECK(refused(OptimizerKind::sgd, [](auto& o) { o.momentum = -1; }) ==
        P(Argument::momentum, "Invalid momentum value: -1.0"));
  CHECK(refused(OptimizerKind::sgd, [](auto& o) { o.weight_decay = -1e-5; }) ==
        P(Argument::weight_decay, "Invalid weight_decay value: -1e-05"));
  CHECK(refused(OptimizerKind::sgd, [](auto& o) { o.nesterov = true; }) ==
        P(Argument::nesterov, "Nesterov momentum requires a momentum and zero dampening"));
  CHECK(refused(OptimizerKind::sgd, [](auto& o) {
          o.nesterov = true;
          o.momentum = 0.9;
          o.dampening = 0.1;
        }) == P(Argument::nesterov, "Nesterov momentum requires a momentum and zero dampening"));
  CHECK(refused(OptimizerKind::adam, [](auto& o) { o.eps = -1; }) ==
        P(Argument::eps, "Invalid epsilon value: -1.0"));
  CHECK(refused(OptimizerKind::adam, [](auto& o) { o.beta1 = 1; }) ==
        P(Argument::betas, "Invalid beta parameter at index 0: 1.0"));
  CHECK(refused(OptimizerKind::adamw, [](auto& o) { o.beta2 = std::nan(""); }) ==
        P(Argument::betas, "Invalid beta parameter at index 1: nan"));
  CHECK(refused(OptimizerKind::adagrad, [](auto& o) { o.lr_decay = -0.5; }) ==
        P(Argument::lr_decay, "Invalid lr_decay value: -0.5"));
  CHECK(refused(OptimizerKind::adagrad, [](auto& o) { o.initial_accumulator_value = -2; }) ==
        P(Argument::initial_accumulator_value, "Invalid initial_accumulator_value value: -2.0"));
  CHECK(refused(OptimizerKind::rmsprop, [](auto& o) { o.alpha = -0.5; }) ==
        P(Argument::alpha, "Invalid alpha value: -0.5"));
  CHECK(refused(OptimizerKind::sparse_adam, [](auto& o) { o.lr = 0; }) ==
        P(Argument::lr, "Invalid learning rate: 0.0"));
}

TEST_CASE("steps refuse the gradients PyTorch's steps refuse", "[optimizer]") {
  using P = std::pair<Argument, std::string>;
  const auto gradient = [](OptimizerKind kind, bool is_sparse, double weight_decay = 0) {
    OptimizerOptions o = options_for(kind);
    o.weight_decay = weight_decay;
    return error_of([&] {
      Optimizer opt(o, 2, 1);
      Matrix w = Matrix::Zero(2, 1);
      if (is_sparse)
        opt.step(w, sparse(2, {1}, rows({{1}})));
      else
        opt.step(w, Matrix::Zero(2, 1));
    });
  };
  CHECK(gradient(OptimizerKind::adam, true) ==
        P(Argument::optimizer,
          "Adam does not support sparse gradients, please consider SparseAdam instead"));
  CHECK(gradient(OptimizerKind::adamw, true) ==
        P(Argument::optimizer, "AdamW does not support sparse gradients"));
  CHECK(gradient(OptimizerKind::rmsprop, true) ==
        P(Argument::optimizer, "RMSprop does not support sparse gradients"));
  CHECK(gradient(OptimizerKind::sparse_adam, false) ==
        P(Argument::optimizer,
          "SparseAdam does not support dense gradients, please consider Adam instead"));
  CHECK(gradient(OptimizerKind::sgd, true, 0.1) ==
        P(Argument::weight_decay,
          "add(sparse, dense) is not supported. Use add(dense, sparse) instead."));
  CHECK(gradient(OptimizerKind::adagrad, true, 0.1) ==
        P(Argument::weight_decay, "weight_decay option is not compatible with sparse gradients"));

  Optimizer lazy(options_for(OptimizerKind::sparse_adam), 2, 3);
  Matrix w = Matrix::Zero(2, 3);
  const auto first_empty = error_of([&] { lazy.step(w, sparse(2, {}, Matrix(0, 3))); });
  CHECK(first_empty.first == Argument::ids);
  CHECK(first_empty.second ==
        "every id of the first batch is padding_idx, so the first sparse gradient has no "
        "entries, and PyTorch 1.13's SparseAdam step fails on it: The size of tensor a (3) must "
        "match the size of tensor b (0) at non-singleton dimension 1");
  CHECK(lazy.state().step == 0);  // refused before anything changed

  Optimizer sgd(options_for(OptimizerKind::sgd), 2, 3);
  CHECK(error_of([&] { sgd.step(w, Matrix::Zero(3, 3)); }).second ==
        "the gradient is 3 x 3 but the weight is 2 x 3: weight.grad has the weight's shape");
  CHECK(error_of([] {
          embedlab::check_optimizer_takes(OptimizerKind::adam, Argument::momentum);
        }).second ==
        "torch.optim.Adam takes no momentum (__init__() got an unexpected keyword argument "
        "'momentum'): its arguments are lr, betas, eps, weight_decay, amsgrad, maximize");
}

TEST_CASE("hyperparameters set by name over PyTorch's defaults", "[optimizer]") {
  OptimizerOptions o = options_for(OptimizerKind::adam);
  embedlab::set_optimizer_option(o, Argument::lr, 0.01);
  embedlab::set_optimizer_option(o, Argument::amsgrad, 1);
  embedlab::set_optimizer_betas(o, 0.5, 0.9);
  CHECK(embedlab::optimizer_code(o, "p") ==
        "torch.optim.Adam(p, lr=0.01, betas=(0.5, 0.9), amsgrad=True)");
  CHECK(embedlab::optimizer_option(o, Argument::eps) == 1e-8);
  CHECK(embedlab::optimizer_option(o, Argument::amsgrad) == 1.0);
  CHECK(embedlab::option_form(Argument::betas) == embedlab::OptionForm::pair);
  CHECK(embedlab::option_form(Argument::centered) == embedlab::OptionForm::flag);
  CHECK(embedlab::option_form(Argument::initial_accumulator_value) == embedlab::OptionForm::number);
  CHECK(error_of([&] { embedlab::set_optimizer_option(o, Argument::momentum, 0.9); }).second ==
        "torch.optim.Adam takes no momentum (__init__() got an unexpected keyword argument "
        "'momentum'): its arguments are lr, betas, eps, weight_decay, amsgrad, maximize");
  CHECK(error_of([] { embedlab::option_form(Argument::ids); }) ==
        std::pair<Argument, std::string>{
            Argument::ids, "'ids' is not a hyperparameter of torch.optim's optimizers"});
  OptimizerOptions sgd = options_for(OptimizerKind::sgd);
  CHECK(error_of([&] { embedlab::set_optimizer_betas(sgd, 0.5, 0.9); }).first == Argument::betas);
}

TEST_CASE("a scalar past float32's range is refused before the step", "[optimizer]") {
  OptimizerOptions o = options_for(OptimizerKind::sgd);
  o.lr = 1e300;
  Optimizer sgd(o, 1, 1);
  Matrix w = rows({{1}});
  const auto e = error_of([&] { sgd.step(w, rows({{1}})); });
  CHECK(e.first == Argument::lr);
  CHECK(e.second ==
        "-lr = -1e+300 is past float32's range, where PyTorch's float32 kernels take "
        "it: value cannot be converted to type float without overflow");
  CHECK(w == rows({{1}}));
}
