// Both routes trained side by side on hand-built batches: which rows each step changes and why,
// the verdict between embedding.weight and linear.weight.T, the checks before each step, and the
// walk-through's draws of the table and each G.
#include <catch2/catch.hpp>

#include "embedlab/error.hpp"
#include "embedlab/sparse_rows.hpp"
#include "embedlab/torch_sort.hpp"
#include "embedlab/training.hpp"
#include "embedlab/training_run.hpp"
#include "error_of.hpp"
#include "matrix_literals.hpp"

using embedlab::Argument;
using embedlab::ChangedRow;
using embedlab::Grade;
using embedlab::Ids;
using embedlab::Index;
using embedlab::InputError;
using embedlab::Matrix;
using embedlab::OptimizerKind;
using embedlab::RowCause;
using embedlab::SideBySideTraining;
using embedlab::TrainingOptions;
using embedlab::TrainingRun;

namespace {

TrainingOptions options_for(OptimizerKind kind) {
  TrainingOptions o;
  o.optimizer = embedlab::optimizer_defaults(kind);
  return o;
}

// "1 (in the batch)": a step's changed rows, as one comparable list.
std::vector<std::pair<Index, RowCause>> listed(const std::vector<ChangedRow>& changed) {
  std::vector<std::pair<Index, RowCause>> out;
  for (const ChangedRow& c : changed) out.emplace_back(c.row, c.cause);
  return out;
}

// A (4, 2) table with no zero, and an upstream gradient of ones for n ids.
const Matrix kTable = rows({{1, 2}, {3, 4}, {5, 6}, {7, 8}});
Matrix ones(Index n) { return Matrix::Ones(n, 2); }

}  // namespace

TEST_CASE("plain SGD changes the batch's rows, and both routes agree bit for bit", "[training]") {
  SideBySideTraining t(kTable, options_for(OptimizerKind::sgd));
  const auto step = t.step({1, 2, 1}, ones(3));
  CHECK(step.step == 1);
  CHECK(listed(step.changed) ==
        std::vector<std::pair<Index, RowCause>>{{1, RowCause::batch}, {2, RowCause::batch}});
  CHECK(step.linear_changed == Ids{1, 2});
  CHECK(t.embedding_weight() == rows({{1, 2}, {2.8f, 3.8f}, {4.9f, 5.9f}, {7, 8}}));
  REQUIRE(step.verdict);
  CHECK(step.verdict->grade == Grade::identical);
  CHECK(step.verdict->sentence == "All 8 elements hold the same 32 bits in both results.");
  CHECK(step.embedding_grad == rows({{0, 0}, {2, 2}, {1, 1}, {0, 0}}));
  CHECK(step.linear_grad == step.embedding_grad);
}

TEST_CASE("why rows change: momentum, weight decay, optimizer state", "[training]") {
  auto o = options_for(OptimizerKind::sgd);
  o.optimizer.momentum = 0.9;
  SideBySideTraining momentum(kTable, o);
  momentum.step({1}, ones(1));
  CHECK(listed(momentum.step({2}, ones(1)).changed) ==
        std::vector<std::pair<Index, RowCause>>{{1, RowCause::momentum}, {2, RowCause::batch}});

  o = options_for(OptimizerKind::sgd);
  o.optimizer.weight_decay = 0.01;
  o.padding_idx = 0;  // a zero row: weight decay leaves it as it is
  Matrix table = kTable;
  table.row(0).setZero();
  SideBySideTraining decay(table, o);
  CHECK(listed(decay.step({2, 0}, ones(2)).changed) ==
        std::vector<std::pair<Index, RowCause>>{
            {1, RowCause::weight_decay}, {2, RowCause::batch}, {3, RowCause::weight_decay}});

  SideBySideTraining adam(kTable, options_for(OptimizerKind::adam));
  adam.step({3}, ones(1));
  CHECK(listed(adam.step({0}, ones(1)).changed) ==
        std::vector<std::pair<Index, RowCause>>{{0, RowCause::batch},
                                                {3, RowCause::optimizer_state}});

  SideBySideTraining adamw(kTable, options_for(OptimizerKind::adamw));  // weight_decay 0.01
  CHECK(adamw.step({3}, ones(1)).changed.size() == 4);
  CHECK(embedlab::row_cause_text(RowCause::optimizer_state) == "optimizer state");
  CHECK(embedlab::row_cause_text(RowCause::batch) == "in the batch");
}

TEST_CASE("padding_idx: the embedding's row stays, the Linear route's moves", "[training]") {
  auto o = options_for(OptimizerKind::sgd);
  o.padding_idx = -2;  // row 2
  SideBySideTraining t(kTable, o);
  CHECK(t.padding_row() == 2);
  const auto step = t.step({2, 1}, ones(2));
  CHECK(listed(step.changed) == std::vector<std::pair<Index, RowCause>>{{1, RowCause::batch}});
  CHECK(step.linear_changed == Ids{1, 2});
  REQUIRE(step.verdict);
  CHECK(step.verdict->grade == Grade::differs);
  CHECK(step.verdict->differing == std::vector<Index>{4, 5});
}

TEST_CASE("sparse SGD rounds a repeated id's entries one at a time", "[training]") {
  // Two rows of G of 2^-25 for id 0: the sparse step leaves 1.0 (each half-ulp step rounds back),
  // the Linear route steps on their sum 2^-24 and moves 1.0 down one ulp.
  auto o = options_for(OptimizerKind::sgd);
  o.optimizer.lr = 1;
  o.sparse = true;
  SideBySideTraining t(rows({{1}}), o);
  const auto step = t.step({0, 0}, rows({{0x1p-25f}, {0x1p-25f}}));
  CHECK(t.embedding_weight() == rows({{1}}));
  CHECK(t.linear_weight() == rows({{1 - 0x1p-24f}}));
  CHECK(step.changed.empty());
  CHECK(step.sparse_grad.rows == Ids{0, 0});
  REQUIRE(step.verdict);
  CHECK(step.verdict->sentence ==
        "1 of 1 elements differ in the last bits (the largest difference is 1 ulp, |diff| = "
        "5.9605e-08): the sparse gradient is stepped with other float32 operations than the "
        "Linear route's dense one: a repeated id's rows of G are applied one at a time or summed "
        "in sorted order, and Adagrad's sparse branch squares, adds and divides in another order, "
        "so each rounds differently.");
}

TEST_CASE("SparseAdam trains the embedding alone: the Linear route cannot follow", "[training]") {
  auto o = options_for(OptimizerKind::sparse_adam);
  o.sparse = true;
  SideBySideTraining t(kTable, o);
  CHECK_FALSE(t.linear_optimizer());
  CHECK(t.linear_refusal() ==
        "SparseAdam does not support dense gradients, please consider Adam instead");
  const auto step = t.step({1}, ones(1));
  CHECK_FALSE(step.verdict);
  CHECK(listed(step.changed) == std::vector<std::pair<Index, RowCause>>{{1, RowCause::batch}});
}

TEST_CASE("training refuses what PyTorch refuses, before anything changes", "[training]") {
  auto o = options_for(OptimizerKind::adam);
  o.sparse = true;
  CHECK_THROWS_WITH(SideBySideTraining(kTable, o),
                    "Adam does not support sparse gradients, please consider SparseAdam instead");
  o = options_for(OptimizerKind::sgd);
  o.padding_idx = 4;
  CHECK_THROWS_AS(SideBySideTraining(kTable, o), InputError);

  SideBySideTraining t(kTable, options_for(OptimizerKind::sgd));
  CHECK_THROWS_WITH(t.step({1, 7}, ones(2)), Catch::Contains("id 7 at position 2"));
  CHECK_THROWS_WITH(t.step({1}, Matrix::Ones(1, 3)),
                    "the upstream gradient G has 3 columns but the table has d = 2: G is (n, d), "
                    "one row per id");
  CHECK_THROWS_WITH(t.step({1, 2}, ones(1)), Catch::Contains("has 1 rows but there are 2 ids"));
  CHECK(t.embedding_weight() == kTable);
  CHECK(t.step({0}, ones(1)).step == 1);  // refused steps are not counted
}

TEST_CASE("sparse gradients: entries in position order, coalesced in torch.sort's order",
          "[training]") {
  const Matrix g = rows({{1}, {2}, {4}, {8}});
  const auto s = embedlab::embedding_sparse_backward({3, 1, 3, 2}, g, 5, Index{2});
  CHECK(s.rows == Ids{3, 1, 3});  // the padding id's row left out
  CHECK(s.values == rows({{1}, {2}, {4}}));
  CHECK_FALSE(s.coalesced);
  const auto c = embedlab::coalesce(s);
  CHECK(c.rows == Ids{1, 3});
  CHECK(c.values == rows({{2}, {5}}));
  CHECK(embedlab::to_dense(s) == rows({{0}, {2}, {0}, {5}, {0}}));
  // Up to 16 keys the sort is an insertion sort: equal keys keep their order.
  CHECK(embedlab::torch_sort_permutation({2, 0, 2, 1, 0}) == std::vector<Index>{1, 4, 3, 0, 2});
  CHECK(embedlab::torch_sort_permutation({}).empty());
}

// The draws of a walk-through (training_run.hpp): the table, then each step's G from the same
// generator; the values are PyTorch 1.13's.
TEST_CASE("each step's G follows the table from the same generator", "[training]") {
  TrainingRun run = TrainingRun::seeded(123, 6, 3, options_for(OptimizerKind::sgd));
  // torch.manual_seed(123); nn.Embedding(6, 3); torch.randn(2, 3); torch.randn(2, 3)
  CHECK(run.step({1, 2}).upstream ==
        rows({{-0.630675196647644f, 1.2340047359466553f, 0.31267645955085754f},
              {0.6971866488456726f, -0.9950488805770874f, -1.14763343334198f}}));
  CHECK(run.step({3, 3}).upstream ==
        rows({{-0.9177744388580322f, 0.9045161604881287f, -2.0975329875946045f},
              {1.1557666063308716f, -1.2156516313552856f, 0.1295240819454193f}}));
  CHECK(run.training().embedding_optimizer().state().step == 2);
}

TEST_CASE("a seeded table is drawn with its padding row zeroed, as nn.Embedding draws it",
          "[training]") {
  TrainingOptions o = options_for(OptimizerKind::adam);
  o.padding_idx = 1;
  TrainingRun run = TrainingRun::seeded(5, 4, 2, o);
  // torch.manual_seed(5); nn.Embedding(4, 2, padding_idx=1).weight
  CHECK(run.training().embedding_weight() == rows({{-0.4867807626724243f, -0.6038215756416321f},
                                                   {0, 0},
                                                   {-0.19741509854793549f, 1.9427834749221802f},
                                                   {-1.4017020463943481f, -0.7625571489334106f}}));
  CHECK(run.step({1, 1, 0}).upstream == rows({{0.6312134265899658f, -0.899135172367096f},
                                              {-0.5577934384346008f, 0.6907187700271606f},
                                              {0.2224585860967636f, -0.666225254535675f}}));
}

TEST_CASE("a given table's first G follows torch.manual_seed(gradient_seed)", "[training]") {
  TrainingRun run = TrainingRun::from_table(Matrix::Ones(4, 3), options_for(OptimizerKind::sgd), 7);
  // torch.manual_seed(7); torch.randn(1, 3)
  CHECK(run.step({2}).upstream ==
        rows({{-0.1467950940132141f, 0.7861412763595581f, 0.9468216300010681f}}));
  // The notebooks' seed by default: torch.manual_seed(123); torch.randn(1, 3)
  CHECK(TrainingRun::from_table(Matrix::Ones(4, 3), options_for(OptimizerKind::sgd))
            .step({0})
            .upstream ==
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
  const auto [argument, message] =
      error_of([] { TrainingRun::seeded(1, 100000, 100, options_for(OptimizerKind::sgd)); });
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
