// The chapter's data loader: GPTDatasetV1's windows counted and cut by hand, DataLoader's order
// and torch.randperm against values PyTorch 1.13 printed, and each check naming the argument to
// change. (tests/torch/test_objective_vs_torch.py holds it against live PyTorch on many shapes.)
#include <catch2/catch.hpp>

#include "embedlab/data_loader.hpp"
#include "embedlab/torch_init.hpp"
#include "error_of.hpp"

using Catch::Matchers::Contains;
using embedlab::Argument;
using embedlab::DataLoader;
using embedlab::Ids;
using embedlab::LoaderOptions;
using embedlab::TorchGenerator;

namespace {

LoaderOptions options(embedlab::Index length, embedlab::Index stride, embedlab::Index batch,
                      bool shuffle = false) {
  LoaderOptions o;
  o.max_length = length;
  o.stride = stride;
  o.batch_size = batch;
  o.shuffle = shuffle;
  return o;
}

}  // namespace

TEST_CASE("windows: len(range(0, n - max_length, stride))", "[loader]") {
  CHECK(embedlab::window_count(10, 4, 4) == 2);  // i = 0, 4
  CHECK(embedlab::window_count(9, 4, 4) == 2);   // i = 0, 4 (ids 4..8)
  CHECK(embedlab::window_count(8, 4, 4) == 1);   // i = 0
  CHECK(embedlab::window_count(5, 4, 1) == 1);
  CHECK(embedlab::window_count(4, 4, 1) == 0);
  CHECK(embedlab::window_count(10, 2, 3) == 3);  // i = 0, 3, 6
}

TEST_CASE("a window's inputs and its targets, shifted by one", "[loader]") {
  DataLoader data({10, 11, 12, 13, 14, 15, 16}, options(3, 2, 2));
  REQUIRE(data.windows() == 2);  // i = 0, 2
  TorchGenerator global(123);
  const auto batch = data.next(global);
  CHECK(batch.windows == Ids{0, 1});
  CHECK(batch.inputs.rows == 2);
  CHECK(batch.inputs.length == 3);
  CHECK(batch.inputs.ids == Ids{10, 11, 12, 12, 13, 14});
  CHECK(batch.targets == Ids{11, 12, 13, 13, 14, 15});
  CHECK(batch.epoch == 1);
  CHECK(data.next(global).epoch == 2);
}

TEST_CASE("DataLoader's order with shuffle=True is PyTorch's, epoch after epoch", "[loader]") {
  // torch.manual_seed(123); DataLoader(list(range(7)), batch_size=2, shuffle=True,
  // drop_last=True), three epochs: [[1, 5], [3, 0], [2, 4]], [[0, 6], [1, 3], [5, 2]],
  // [[3, 0], [6, 4], [5, 2]]
  DataLoader data(Ids(8, 0), options(1, 1, 2, true));
  REQUIRE(data.windows() == 7);
  TorchGenerator global(123);
  const std::vector<Ids> expected = {{1, 5}, {3, 0}, {2, 4}, {0, 6}, {1, 3},
                                     {5, 2}, {3, 0}, {6, 4}, {5, 2}};
  for (std::size_t k = 0; k < expected.size(); ++k) {
    const auto batch = data.next(global);
    CHECK(batch.windows == expected[k]);
    CHECK(batch.epoch == static_cast<embedlab::Index>(k / 3 + 1));
    CHECK(batch.batch == static_cast<embedlab::Index>(k % 3 + 1));
  }
}

TEST_CASE("torch.randperm and the seeds DataLoader draws are PyTorch's", "[loader]") {
  TorchGenerator g(42);  // g = torch.Generator(); g.manual_seed(42); torch.randperm(10, g)
  CHECK(embedlab::torch_randperm(g, 10) == Ids{2, 6, 1, 8, 4, 5, 0, 9, 3, 7});
  TorchGenerator global(123);  // torch.empty((), dtype=torch.int64).random_()
  CHECK(embedlab::torch_random_int64(global) == 3624216819017203053LL);
}

TEST_CASE("the loader's checks name max_length, stride or batch_size", "[loader]") {
  const auto error = [](Ids ids, LoaderOptions o) {
    return error_of([&] { DataLoader(std::move(ids), o); });
  };
  const auto [too_long, long_message] = error(Ids{1, 2, 3}, options(3, 1, 1));
  CHECK(too_long == Argument::max_length);
  CHECK_THAT(long_message, Contains("needs its target, shifted by one: 4 ids, and the sequence "
                                    "has 3 ids") &&
                               Contains("Make max_length at most 2"));
  const auto [few, few_message] = error(Ids{1, 2, 3, 4, 5}, options(2, 2, 3));
  CHECK(few == Argument::batch_size);
  CHECK_THAT(few_message, Contains("cut the 5 ids into 2 windows, fewer than batch_size = 3") &&
                              Contains("Make batch_size at most 2"));
  CHECK(error(Ids{1, 2, 3}, options(0, 1, 1)).first == Argument::max_length);
  CHECK(error(Ids{1, 2, 3}, options(1, 0, 1)).first == Argument::stride);
  CHECK(error(Ids{1, 2, 3}, options(1, 1, 0)).first == Argument::batch_size);
  CHECK(error_of([] { embedlab::check_epochs(0); }).first == Argument::epochs);
  // Counts written as the core's other messages write them: thousands apart by commas.
  CHECK(error_of([] { embedlab::check_epochs(0); }).second ==
        "epochs must be between 1 and 1,000,000, got 0");
  const auto [wide, wide_message] = error(Ids(1500, 1), options(1200, 1200, 2));
  CHECK(wide == Argument::batch_size);
  CHECK_THAT(wide_message,
             Contains("max_length = 1,200 and stride = 1,200 cut the 1,500 ids into 1 window"));
}
