// A training walk-through's draws: the table, then each step's G from the same generator, as
// torch.manual_seed(seed); nn.Embedding(V, d); torch.randn(n, d) draws them (the values below are
// PyTorch 1.13's); a refused batch that leaves the generator as it was; the checks before any
// drawing.
#include <catch2/catch.hpp>

#include "embedlab/error.hpp"
#include "embedlab/training_run.hpp"
#include "error_of.hpp"
#include "matrix_literals.hpp"

using embedlab::Argument;
using embedlab::Index;
using embedlab::Matrix;
using embedlab::OptimizerKind;
using embedlab::TrainingOptions;
using embedlab::TrainingRun;

namespace {

TrainingOptions options_for(OptimizerKind kind) {
  TrainingOptions o;
  o.optimizer = embedlab::optimizer_defaults(kind);
  return o;
}

}  // namespace

TEST_CASE("each step's G follows the table from the same generator", "[training]") {
  TrainingRun run = TrainingRun::seeded(123, 6, 3, options_for(OptimizerKind::sgd));
  // torch.manual_seed(123); nn.Embedding(6, 3); torch.randn(2, 3); torch.randn(2, 3)
  CHECK(run.step({1, 2}).upstream == rows({{-0.630675196647644f, 1.2340047359466553f, 0.31267645955085754f},
                                           {0.6971866488456726f, -0.9950488805770874f, -1.14763343334198f}}));
  CHECK(run.step({3, 3}).upstream == rows({{-0.9177744388580322f, 0.9045161604881287f, -2.0975329875946045f},
                                           {1.1557666063308716f, -1.2156516313552856f, 0.1295240819454193f}}));
  CHECK(run.training().embedding_optimizer().state().step == 2);
}

TEST_CASE("a seeded table is drawn with its padding row zeroed, as nn.Embedding draws it", "[training]") {
  TrainingOptions o = options_for(OptimizerKind::adam);
  o.padding_idx = 1;
  TrainingRun run = TrainingRun::seeded(5, 4, 2, o);
  // torch.manual_seed(5); nn.Embedding(4, 2, padding_idx=1).weight
  CHECK(run.training().embedding_weight() == rows({{-0.4867807626724243f, -0.6038215756416321f}, {0, 0},
                                                   {-0.19741509854793549f, 1.9427834749221802f},
                                                   {-1.4017020463943481f, -0.7625571489334106f}}));
  CHECK(run.step({1, 1, 0}).upstream == rows({{0.6312134265899658f, -0.899135172367096f},
                                              {-0.5577934384346008f, 0.6907187700271606f},
                                              {0.2224585860967636f, -0.666225254535675f}}));
}

TEST_CASE("a given table's first G follows torch.manual_seed(gradient_seed)", "[training]") {
  TrainingRun run = TrainingRun::from_table(Matrix::Ones(4, 3), options_for(OptimizerKind::sgd), 7);
  // torch.manual_seed(7); torch.randn(1, 3)
  CHECK(run.step({2}).upstream == rows({{-0.1467950940132141f, 0.7861412763595581f, 0.9468216300010681f}}));
  // The notebooks' seed by default: torch.manual_seed(123); torch.randn(1, 3)
  CHECK(TrainingRun::from_table(Matrix::Ones(4, 3), options_for(OptimizerKind::sgd)).step({0}).upstream ==
        rows({{-0.11146711558103561f, 0.12036294490098953f, -0.3696345090866089f}}));
}

TEST_CASE("a refused batch draws no G", "[training]") {
  TrainingRun run = TrainingRun::seeded(123, 6, 3, options_for(OptimizerKind::sgd));
  const Matrix before = run.training().embedding_weight();
  CHECK(error_of([&] { run.step({1, 6}); }).first == Argument::ids);
  CHECK(run.training().embedding_weight() == before);
  CHECK(run.step({1, 2}).upstream(0, 0) == -0.630675196647644f);
  CHECK(run.step({1, 2}).step.step == 2);
}

TEST_CASE("a step the optimizer refuses leaves the generator where it was", "[training]") {
  TrainingOptions o = options_for(OptimizerKind::sgd);
  o.optimizer.lr = 1e39;  // past float32's range: refused at the step, as PyTorch refuses it
  TrainingRun run = TrainingRun::seeded(123, 6, 3, o);
  CHECK(error_of([&] { run.step({1, 2}); }).first == Argument::lr);
  CHECK(error_of([&] { run.step({1, 2}); }).first == Argument::lr);
  CHECK(run.training().embedding_optimizer().state().step == 0);
}

TEST_CASE("training checks every size it holds and the options before drawing", "[training]") {
  const auto [argument, message] = error_of([] {
    TrainingRun::seeded(1, 100000, 100, options_for(OptimizerKind::sgd));
  });
  CHECK(argument == Argument::vocab);
  CHECK(message ==
        "training a (V x d) = (100000 x 100) table holds 12 matrices of its size (both weights, "
        "their gradients, both weights before the step and the optimizer's state): 120,000,000 "
        "floats, over the limit of 67,108,864 that keeps memory bounded; train a smaller table "
        "(V x d at most 5,592,405)");
  TrainingOptions sparse_adam = options_for(OptimizerKind::adam);
  sparse_adam.sparse = true;
  CHECK(error_of([&] { embedlab::check_training(6, 3, sparse_adam); }) ==
        std::pair<Argument, std::string>{
            Argument::optimizer,
            "Adam does not support sparse gradients, please consider SparseAdam instead"});
  TrainingOptions padding = options_for(OptimizerKind::sgd);
  padding.padding_idx = 6;
  CHECK(error_of([&] { embedlab::check_training(6, 3, padding); }).first == Argument::padding_idx);
  CHECK(error_of([&] { embedlab::check_training(6, 0, padding); }).first == Argument::dim);
}
