// Every InputError names the input it is about (Argument), so the CLI, the WASM API and the page
// can show it beside the right field; and the decisions shared by every front end (bag mode
// names, per_sample_weights, limits) live in the core once.
#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "embedlab/backward.hpp"
#include "embedlab/compare.hpp"
#include "embedlab/embedding_bag.hpp"
#include "embedlab/error.hpp"
#include "embedlab/ids.hpp"
#include "embedlab/limits.hpp"
#include "embedlab/lookup.hpp"
#include "embedlab/max_norm.hpp"
#include "embedlab/onehot.hpp"
#include "embedlab/sample_weights.hpp"
#include "embedlab/torch_init.hpp"
#include "error_of.hpp"
#include "matrix_literals.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::Equals;
using embedlab::Argument;
using embedlab::Ids;
using embedlab::Matrix;

namespace {

template <class F>
Argument argument_of(F&& f) {
  return error_of(f).first;
}

}  // namespace

TEST_CASE("argument names are PyTorch's, unique, and every argument has one", "[arguments]") {
  std::set<std::string> names;
  for (const Argument a : embedlab::all_arguments()) names.insert(std::string(argument_name(a)));
  CHECK(names.size() == embedlab::all_arguments().size());
  CHECK(names.count("ids") == 1);
  CHECK(names.count("padding_idx") == 1);
  CHECK(names.count("per_sample_weights") == 1);
  CHECK(names.count("unknown") == 0);
  CHECK(argument_name(Argument::max_norm) == "max_norm");
  CHECK(argument_name(Argument::weight_decay) == "weight_decay");
  CHECK(argument_name(Argument::initial_accumulator_value) == "initial_accumulator_value");
  CHECK(names.count("lr") == 1);
  CHECK(names.count("betas") == 1);
}

TEST_CASE("errors name the input the learner has to change", "[arguments]") {
  const Matrix w = Matrix::Zero(4, 3);
  CHECK(argument_of([] { embedlab::parse_ids("2, x"); }) == Argument::ids);
  CHECK(argument_of([&] { embedlab::lookup(w, {7}); }) == Argument::ids);
  CHECK(argument_of([] { embedlab::check_ids({1}, 0); }) == Argument::vocab);
  CHECK(argument_of([] { embedlab::check_table_shape(5, 0); }) == Argument::dim);
  CHECK(argument_of([] { embedlab::check_table_shape(5, 70'000); }) == Argument::dim);
  CHECK(argument_of([] { embedlab::check_table_shape(5'000'000, 5); }) == Argument::vocab);
  CHECK(argument_of([] { embedlab::one_hot({1}, 5'000'000); }) == Argument::vocab);
  CHECK(argument_of([&] { embedlab::embedding_bag(w, {1, 2}, {1}); }) == Argument::offsets);
  CHECK(argument_of([&] {
          embedlab::BagOptions o;
          o.mode = embedlab::BagMode::sum;
          o.per_sample_weights = {1.0f};
          embedlab::embedding_bag(w, {1, 2}, {0}, o);
        }) == Argument::per_sample_weights);
  CHECK(argument_of([&] {
          embedlab::BagOptions o;
          o.padding_idx = 9;
          embedlab::embedding_bag(w, {1, 2}, {0}, o);
        }) == Argument::padding_idx);
  CHECK(argument_of([] {
          embedlab::BagOptions o;
          o.mode = embedlab::BagMode::max;
          embedlab::bag_matrix({1}, {0}, 4, o);
        }) == Argument::mode);
  CHECK(argument_of([] {
          embedlab::embedding_backward({1, 2}, Matrix::Zero(3, 2), 4);
        }) == Argument::grad);
  Matrix copy = w;
  CHECK(argument_of([&] { embedlab::embedding_renorm(copy, {1}, -1.0); }) == Argument::max_norm);
  CHECK(argument_of([&] { embedlab::embedding_renorm(copy, {1}, 1.0, 0.0); }) ==
        Argument::norm_type);
  CHECK(argument_of([&] { embedlab::onehot_product(Matrix::Zero(1, 5), w); }) == Argument::onehot);
  CHECK(argument_of([&] { embedlab::compare(w, Matrix::Zero(1, 1)); }) == Argument::compared);
  embedlab::TorchGenerator gen;
  CHECK(argument_of([&] { embedlab::torch_randn(gen, 0, 3); }) == Argument::grad);
  CHECK(argument_of([&] { embedlab::init_embedding(gen, 0, 5); }) == Argument::vocab);
  CHECK(argument_of([&] { embedlab::init_embedding(gen, 4, 0); }) == Argument::dim);
  CHECK(argument_of([&] { embedlab::init_embedding(gen, 4, 5, 4); }) == Argument::padding_idx);
}

TEST_CASE("an id that makes the default V too large is an error of the ids", "[arguments]") {
  const auto [argument, message] = error_of([] { embedlab::default_vocab({3, 99'999'999}); });
  CHECK(argument == Argument::ids);
  CHECK_THAT(message, Equals("token 2 is 99999999: the vocabulary size max(ids) + 1 = 100,000,000 "
                             "would be over the limit of 4,194,304 rows; use a smaller id"));
  CHECK(embedlab::default_vocab({3, 4'194'303}) == 4'194'304);
  // A default V within its limit can still make a V x d table held whole too large: that is the
  // ids' doing too.
  CHECK(argument_of([] {
          embedlab::check_held_table(100'000, 768, embedlab::default_limits, Argument::ids);
        }) == Argument::ids);
}

TEST_CASE("an unknown bag mode is an error, never a silent default", "[arguments]") {
  CHECK(embedlab::parse_bag_mode("sum") == embedlab::BagMode::sum);
  CHECK(embedlab::parse_bag_mode("mean") == embedlab::BagMode::mean);
  CHECK(embedlab::parse_bag_mode("max") == embedlab::BagMode::max);
  for (const char* bad : {"", "Sum", "mean ", "min", "average"}) {
    const auto [argument, message] = error_of([&] { embedlab::parse_bag_mode(bad); });
    CHECK(argument == Argument::mode);
    CHECK_THAT(message, Contains("mode must be 'sum', 'mean' or 'max', got '"));
  }
  CHECK(embedlab::bag_mode_name(embedlab::BagMode::mean) == "mean");
}

TEST_CASE("per_sample_weights: one rule for the CLI and the page", "[arguments]") {
  const auto w = embedlab::parse_sample_weights("[1, 0.5,2e0 ]");
  CHECK(w.values == std::vector<float>{1.0f, 0.5f, 2.0f});
  CHECK(w.texts == std::vector<std::string>{"1", "0.5", "2e0"});
  CHECK(w.literals == std::vector<std::string>{"1.0", "0.5", "2e0"});
  CHECK(embedlab::parse_sample_weights("").values.empty());
  CHECK(embedlab::parse_sample_weights("  ").values.empty());
  const auto [argument, message] = error_of([] { embedlab::parse_sample_weights("1, y, 3"); });
  CHECK(argument == Argument::per_sample_weights);
  CHECK_THAT(message, Equals("per_sample_weights: value 2 is \"y\", which is not a finite "
                             "number, e.g. 1, 0.5, 2"));
  CHECK_THAT(error_of([] { embedlab::parse_sample_weights("1, inf"); }).second,
             Contains("value 2 is \"inf\""));
  CHECK_THAT(error_of([] { embedlab::parse_sample_weights(",,"); }).second,
             Contains("holds no number"));
  embedlab::Limits small;
  small.max_ids = 2;
  CHECK_THAT(error_of([&] { embedlab::parse_sample_weights("1 2 3", small); }).second,
             Contains("3 given, at most 2"));
}

TEST_CASE("shrunken limits reach every entry point that allocates", "[arguments]") {
  embedlab::Limits small;
  small.max_elements = 8;
  const Matrix w = Matrix::Zero(4, 3);  // 12 floats: fine as an input, too large to make
  embedlab::TorchGenerator gen(1);
  CHECK_THAT(error_of([&] { embedlab::init_embedding(gen, 4, 3, {}, small); }).second,
             Contains("over the limit of 8 floats"));
  CHECK_THAT(error_of([&] { embedlab::torch_randn(gen, 3, 3, small); }).second,
             Contains("over the limit of 8 floats"));
  CHECK_THAT(error_of([&] {
               embedlab::lookup(w, {0, 1, 2}, small);
             }).second,
             Contains("the result (n x d) would be 3 x 3"));
  CHECK_THAT(error_of([&] {
               embedlab::one_hot({0, 1, 2}, 4, small);
             }).second,
             Contains("the one-hot matrix (n x V) would be 3 x 4"));
  CHECK_THAT(error_of([&] { embedlab::onehot_product(Matrix::Zero(3, 4), w, small); }).second,
             Contains("the result (n x d) would be 3 x 3"));
  CHECK_THAT(
      error_of([&] { embedlab::embedding_backward({0}, Matrix::Zero(1, 3), 4, {}, small); }).second,
      Contains("the embedding table (V x d) would be 4 x 3"));
  CHECK_THAT(error_of([&] {
               embedlab::bag_matrix({0, 1, 2}, {0, 1, 2}, 4, {}, small);
             }).second,
             Contains("the multi-hot matrix (B x V) would be 3 x 4"));
  embedlab::Limits few_ids;
  few_ids.max_ids = 2;
  CHECK_THAT(error_of([&] {
               embedlab::embedding_bag(w, {0, 1, 2}, {0}, {}, few_ids);
             }).second,
             Contains("too many token ids: 3 given, at most 2"));
  CHECK_THAT(error_of([&] {
               embedlab::embedding_bag(w, {0, 1}, {0, 0, 1}, {}, few_ids);
             }).second,
             Contains("too many bags: 3 given, at most 2"));
}
