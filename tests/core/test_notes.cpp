// The notes every front end prints under the backward pass and nn.EmbeddingBag, on inputs small
// enough to count by hand, and the difference PyTorch defines for padding_idx.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "embedlab/notes.hpp"
#include "matrix_literals.hpp"

using embedlab::BackwardFacts;
using embedlab::BagFacts;
using embedlab::BagMode;
using embedlab::Grade;
using embedlab::Matrix;
using Notes = std::vector<std::string>;

namespace {

// The grader's verdict on two (V, d) gradients.
embedlab::Verdict graded(const BackwardFacts& facts, const Matrix& scatter, const Matrix& gemm) {
  embedlab::Grader grader = embedlab::backward_grader(facts);
  grader.add(scatter.data(), gemm.data(), scatter.size());
  return grader.verdict();
}

}  // namespace

TEST_CASE("backward notes: repeated ids, rows no id asks for, the work of each route", "[notes]") {
  // ids 2, 3, 1, 3 into V = 5, d = 2: row 3 twice; rows 0 and 4 untouched.
  const BackwardFacts facts{{2, 3, 1, 3}, 5, 2, std::nullopt, false};
  const Matrix same = Matrix::Zero(5, 2);
  CHECK(embedlab::backward_notes(facts, graded(facts, same, same)) ==
        Notes{"Row 3 receives the sum of several rows of G: the id repeats in idx.",
              "2 rows get zeros: no id asked for them.",
              // n·d = 4·2, V·n·d = 5·4·2, (V − 1)·n·d = 4·4·2
              "The scatter-add did n·d = 8 additions; onehot.T @ G did V·n·d = 40 multiply-adds, "
              "32 of them by zero."});
}

TEST_CASE("backward notes: a row that differs because its id repeats 3 or more times", "[notes]") {
  const BackwardFacts facts{{1, 1, 1, 0}, 2, 2, std::nullopt, false};
  const Matrix scatter = rows({{1, 0}, {3, 0}});
  const Matrix gemm = rows({{1, 0}, {3.0000002f, 0}});  // one ulp above 3
  const auto verdict = graded(facts, scatter, gemm);
  CHECK(verdict.grade == Grade::rounding);
  const auto notes = embedlab::backward_notes(facts, verdict);
  REQUIRE(notes.size() == 3);
  CHECK(notes[1] ==
        "Row 1 differs in the last bits: with 3 or more rows of G per id, the scatter-add adds "
        "them in position order, the GEMM in its own blocked order.");
}

TEST_CASE("backward with padding_idx: a difference PyTorch defines, and its notes", "[notes]") {
  // padding_idx = -2 into V = 4 is row 2, which tokens 0 and 3 name; the GEMM adds their rows.
  const BackwardFacts facts{{2, 1, 1, 2}, 4, 2, -2, true};
  const Matrix scatter = rows({{0, 0}, {0.5f, 1}, {0, 0}, {0, 0}});
  const Matrix gemm = rows({{0, 0}, {0.5f, 1}, {3, -4}, {0, 0}});
  const auto verdict = graded(facts, scatter, gemm);
  CHECK(verdict.grade == Grade::differs);
  CHECK(verdict.headline == "differs, as PyTorch defines it");
  REQUIRE(verdict.defined);
  CHECK(verdict.defined->row == 2);
  CHECK(verdict.defined->reason ==
        "Row 2 is padding_idx: nn.Embedding gives it no gradient, while onehot.T @ G knows "
        "nothing of padding_idx and adds G[0] + G[3] into it.");
  CHECK(verdict.defined->rest == Grade::identical);
  CHECK(verdict.defined->rest_headline == "bit-identical");
  // One line: the headline, the defined row's reason and how the rest agrees, then the sentence.
  CHECK(embedlab::verdict_text(verdict) ==
        "differs, as PyTorch defines it. Row 2 is padding_idx: nn.Embedding gives it no gradient, "
        "while onehot.T @ G knows nothing of padding_idx and adds G[0] + G[3] into it. Everything "
        "else: bit-identical. " +
            verdict.sentence);
  CHECK(embedlab::backward_notes(facts, verdict) ==
        Notes{"padding_idx = -2 (row 2): row 2 of the scatter-add gets no gradient, though 2 "
              "tokens have id 2; onehot.T @ G knows nothing of padding_idx, so its row 2 is not "
              "zero.",
              "scale_grad_by_freq: each row of the scatter-add is divided by how often its id "
              "occurs in idx; onehot.T @ G knows nothing of it.",
              "Rows 1, 2 receive the sum of several rows of G: the id repeats in idx.",
              "2 rows get zeros: no id asked for them.",
              "The scatter-add did n·d = 8 additions; onehot.T @ G did V·n·d = 32 multiply-adds, "
              "24 of them by zero."});
}

TEST_CASE("padding_idx defines only its own row: a difference elsewhere still differs", "[notes]") {
  const BackwardFacts facts{{1, 0}, 2, 2, 1, false};
  const Matrix scatter = rows({{1, 1}, {0, 0}});
  SECTION("another row differs by more than rounding") {
    const auto verdict = graded(facts, scatter, rows({{2, 1}, {5, 0}}));
    CHECK(verdict.grade == Grade::differs);
    CHECK(verdict.headline == "differs");
    CHECK_FALSE(verdict.defined);
  }
  SECTION("the padding row agrees: nothing to define") {
    const auto verdict = graded(facts, scatter, scatter);
    CHECK(verdict.grade == Grade::identical);
    CHECK_FALSE(verdict.defined);
  }
  SECTION("no token names padding_idx: it changes nothing") {
    const BackwardFacts unused{{0, 0}, 3, 2, 2, false};
    const Matrix both = rows({{2, 2}, {0, 0}, {0, 0}});
    CHECK(embedlab::backward_notes(unused, graded(unused, both, both)).front() ==
          "padding_idx = 2: no token has id 2, so it changes nothing here.");
  }
}

TEST_CASE("max_norm's note names the rows it scaled", "[notes]") {
  CHECK(embedlab::max_norm_note({}, 1.5) ==
        "max_norm: no looked-up row had a norm above 1.5; W is unchanged.");
  CHECK(embedlab::max_norm_note({3}, 1.0) ==
        "max_norm: row 3 had a norm above 1.0 and was scaled down in place.");
  CHECK(embedlab::max_norm_note({0, 2}, 2.0) ==
        "max_norm: rows 0, 2 had norms above 2.0 and were scaled down in place.");
}

TEST_CASE("bag notes: padding_idx, the rows read and the product's work, mode max", "[notes]") {
  // ids 2, 3, 1, 0 in bags [2, 3] and [1, 0], V = 4, d = 3, padding_idx = 0 left out of bag 1.
  BagFacts facts{{2, 3, 1, 0}, 4, 3, BagMode::mean, 0, false, {2, 1}};
  CHECK(embedlab::bag_notes(facts) ==
        Notes{"padding_idx = 0: its ids are left out of every bag and of the count a mean "
              "divides by.",
              // 3 rows read, 3·3 floats; B·V·d = 2·4·3
              "The bags read 3 rows of W (9 floats); M @ W did B·V·d = 24 multiply-adds."});
  facts.mode = BagMode::max;
  facts.padding_idx = -1;  // row 3
  CHECK(embedlab::bag_notes(facts) ==
        Notes{"padding_idx = -1 (id 3): its ids are left out of every bag.",
              "mode='max' takes, column by column, the largest entry of the bag's rows: no "
              "multi-hot matrix M gives that as M @ W, since a maximum is not a weighted sum."});
}

TEST_CASE("bag gradient notes: where PyTorch 1.13 divides by another id's count", "[notes]") {
  // PyTorch 1.13 gives the g-th distinct id the count of the g-th sorted id. ids 1, 0, 0: the
  // distinct ids 0 (count 2) and 1 (count 1) get the counts of sorted ids 0 and 0: row 1 is
  // divided by 2.
  BagFacts facts{{1, 0, 0}, 2, 1, BagMode::sum, std::nullopt, true, {3}};
  CHECK(embedlab::bag_gradient_notes(facts).size() == 1);
  facts.ids = {1, 1, 0, 0};  // sorted 0, 0, 1, 1: counts 2 and 2, each its own
  CHECK(embedlab::bag_gradient_notes(facts).empty());
  facts.ids = {1, 0, 0};
  facts.scale_grad_by_freq = false;
  CHECK(embedlab::bag_gradient_notes(facts).empty());
}

TEST_CASE("the cost of each route: forward, positions and the tied head", "[notes]") {
  // ids 2, 3, 1 into V = 4, d = 5: 3·5 copies, 3·4·5 multiply-adds, 3·3·5 by zero.
  CHECK(embedlab::forward_cost_note(3, 4, 5) ==
        "The lookup copied n·d = 15 floats; the one-hot product did n·V·d = 60 multiply-adds, "
        "45 of them by zero.");
  // GPT-2's table, two ids: 2·50,257·768 = 77,194,752; 2·50,256·768 = 77,193,216.
  CHECK(embedlab::forward_cost_note(2, 50257, 768) ==
        "The lookup copied n·d = 1,536 floats; the one-hot product did n·V·d = 77,194,752 "
        "multiply-adds, 77,193,216 of them by zero.");
  CHECK(embedlab::forward_cost_note(1, 1, 1) ==
        "The lookup copied n·d = 1 float; the one-hot product did n·V·d = 1 multiply-add, 0 of "
        "them by zero.");
  // T = 4 positions of GPT-2's 1,024, d = 256: 4·256; 4·1,024·256; 4·1,023·256.
  CHECK(embedlab::positions_cost_note(4, 1024, 256) ==
        "The position lookup copied T·d = 1,024 floats; the one-hot product did "
        "T·context_length·d = 1,048,576 multiply-adds, 1,047,552 of them by zero.");
  // n = 32 positions (30 distinct ids) into GPT-2's 50,257 × 16: 32·16 floats, 32·50,257·16
  // multiply-adds.
  CHECK(embedlab::head_cost_notes(32, 30, 50257, 16) ==
        Notes{"The input lookup read a row for each of the n = 32 ids, 30 distinct of the 50,257 "
              "rows of W, copying n·d = 512 floats.",
              "The output layer read all 50,257 rows of W: n·V·d = 25,731,584 multiply-adds, none "
              "wasted: every logit scores one next token."});
  // More ids than rows: n = 6 ids of V = 4, every row read.
  CHECK(embedlab::head_cost_notes(6, 4, 4, 5)[0] ==
        "The input lookup read a row for each of the n = 6 ids, 4 distinct of the 4 rows of W, "
        "copying n·d = 30 floats.");
  CHECK(embedlab::head_cost_notes(1, 1, 1, 1)[0] ==
        "The input lookup read a row for each of the n = 1 id, 1 distinct of the 1 row of W, "
        "copying n·d = 1 float.");
}
