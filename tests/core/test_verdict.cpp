// The graded verdict on hand-built results: every grade, every reason of every pair of routes,
// each sentence written out as the page prints it.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "embedlab/compare.hpp"
#include "embedlab/error.hpp"
#include "embedlab/verdict.hpp"
#include "matrix_literals.hpp"

using embedlab::Grade;
using embedlab::Index;
using embedlab::Matrix;
using embedlab::RoutePair;
using embedlab::Verdict;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

Verdict graded(const Matrix& expected, const Matrix& actual, RoutePair pair = RoutePair::lookup) {
  return embedlab::grade_comparison(expected, actual, pair);
}

// The pairs of routes in declaration order.
const RoutePair kPairs[] = {RoutePair::lookup, RoutePair::backward, RoutePair::bag,
                            RoutePair::training, RoutePair::sparse_training};

}  // namespace

TEST_CASE("bit-identical: every element holds the same bits", "[verdict]") {
  const Matrix a = rows({{1, -2}, {0.5f, 3}});
  const Verdict v = graded(a, a);
  CHECK(v.grade == Grade::identical);
  CHECK(v.headline == "bit-identical");
  CHECK(v.sentence == "All 4 elements hold the same 32 bits in both results.");
  CHECK(v.max_abs_diff == 0.0);
  CHECK(v.max_ulps == 0);
  CHECK(v.differing.empty());
  CHECK(graded(Matrix::Zero(2, 617), Matrix::Zero(2, 617)).sentence ==
        "All 1,234 elements hold the same 32 bits in both results.");
}

TEST_CASE("equal in value: a -0.0 against +0.0, with each pair's reason", "[verdict]") {
  const Matrix lookup = rows({{-0.0f, 1}, {2, 3}});
  const Matrix product = rows({{0.0f, 1}, {2, 3}});
  const std::string reasons[] = {
      "the lookup copies a −0.0 of W as it is, while the product adds +0.0 terms (0·w), and "
      "−0.0 + 0.0 = +0.0",
      "the two routes start their sums differently, and −0.0 + 0.0 = +0.0",
      "the two routes start their sums differently, and −0.0 + 0.0 = +0.0",
      "the two routes start their sums differently, and −0.0 + 0.0 = +0.0",
      "the two routes start their sums differently, and −0.0 + 0.0 = +0.0"};
  for (int i = 0; i < 5; ++i) {
    const Verdict v = graded(lookup, product, kPairs[i]);
    CHECK(v.grade == Grade::value);
    CHECK(v.headline == "equal in value");
    CHECK(v.sentence == "1 of 4 elements differ only in the sign of zero: " + reasons[i] + ".");
    CHECK(v.max_abs_diff == 0.0);
    CHECK(v.max_ulps == 0);
    CHECK(v.differing == std::vector<Index>{0});
  }
}

TEST_CASE("the verdict as one line: headline, then sentence", "[verdict]") {
  const Matrix a = rows({{1, -2}, {0.5f, 3}});
  CHECK(embedlab::verdict_text(graded(a, a)) ==
        "bit-identical. All 4 elements hold the same 32 bits in both results.");
  CHECK(embedlab::verdict_text(graded(rows({{-0.0f, 1}}), rows({{0.0f, 1}}))) ==
        "equal in value. 1 of 2 elements differ only in the sign of zero: the lookup copies a "
        "−0.0 of W as it is, while the product adds +0.0 terms (0·w), and −0.0 + 0.0 = "
        "+0.0.");
}

TEST_CASE("equal in value: NaN on both sides with different payloads", "[verdict]") {
  const Matrix a = rows({{std::nanf("1"), 5}});
  const Matrix b = rows({{std::nanf("2"), 5}});
  const Verdict v = graded(a, b, RoutePair::bag);
  CHECK(v.grade == Grade::value);
  CHECK(v.sentence == "1 of 2 elements are NaN in both results, with different bits.");
  CHECK(v.differing == std::vector<Index>{0});
}

TEST_CASE("differs: NaN in one result only, with each pair's reason", "[verdict]") {
  const Matrix lookup = rows({{kInf, 1}, {2, 3}});
  const Matrix product = rows({{kInf, 1}, {std::nanf(""), 3}});
  const std::string reasons[] = {
      "W holds an Inf or NaN, and the product multiplies it by the one-hot zeros: 0·Inf = NaN, "
      "which poisons every output row, while the lookup copies rows untouched",
      "G holds an Inf or NaN, and onehot.T @ G multiplies it by the zeros of onehot.T: 0·Inf = "
      "NaN reaches every row of dW, while the scatter-add adds only the rows a token names",
      "W holds an Inf or NaN, and M @ W multiplies it by the zeros of M: 0·Inf = NaN reaches "
      "every bag, while a bag adds only its own rows",
      "G holds an Inf or NaN, and onehot.T @ G multiplies it by the zeros of onehot.T: 0·Inf = "
      "NaN reaches every row of the Linear route's gradient, and its optimizer step writes it "
      "into the weight",
      "G holds an Inf or NaN, and onehot.T @ G multiplies it by the zeros of onehot.T: 0·Inf = "
      "NaN reaches every row of the Linear route's gradient, and its optimizer step writes it "
      "into the weight"};
  for (int i = 0; i < 5; ++i) {
    const Verdict v = graded(lookup, product, kPairs[i]);
    CHECK(v.grade == Grade::differs);
    CHECK(v.headline == "differs");
    CHECK(v.sentence == "1 of 4 elements are NaN in one result only: " + reasons[i] + ".");
    CHECK(std::isnan(v.max_abs_diff));
    CHECK(v.differing == std::vector<Index>{2});
  }
}

TEST_CASE("differs: an infinity against a finite number", "[verdict]") {
  const Verdict v = graded(rows({{1, kInf}}), rows({{1, 2}}));
  CHECK(v.grade == Grade::differs);
  CHECK(v.sentence == "An infinity in one result meets a finite number in the other.");
  CHECK(v.max_abs_diff == std::numeric_limits<double>::infinity());
  CHECK(v.max_ulps == 0);
  CHECK(v.differing == std::vector<Index>{1});
}

TEST_CASE("equal up to rounding: one ulp apart, with each pair's reason", "[verdict]") {
  const Matrix a = rows({{1, 2}, {-3, 4}});
  Matrix b = a;
  b(0, 0) = std::nextafter(1.0f, 2.0f);   // 1 + 2^-23: 1 ulp, |diff| = 1.1920928955078125e-07
  b(1, 0) = std::nextafter(-3.0f, 0.0f);  // -3 + 2^-22: 1 ulp
  const std::string reasons[] = {
      "the two routes add the same terms in another order, and float32 addition rounds after "
      "every step",
      "the scatter-add adds the rows of G of a repeated id in position order, onehot.T @ G in its "
      "own blocked order, and float32 addition rounds after every step",
      "a bag adds its rows in position order, M @ W in vocabulary order, and float32 rounds every "
      "weighted term and every partial sum",
      "the scatter-add adds the rows of G of an id repeated three or more times in position "
      "order, onehot.T @ G in its own blocked order, so the two gradients round differently, and "
      "every optimizer step carries the difference into the weight",
      "the sparse gradient is stepped with other float32 operations than the Linear route's "
      "dense one: a repeated id's rows of G are applied one at a time or summed in sorted order, "
      "and Adagrad's sparse branch squares, adds and divides in another order, so each rounds "
      "differently"};
  for (int i = 0; i < 5; ++i) {
    const Verdict v = graded(a, b, kPairs[i]);
    CHECK(v.grade == Grade::rounding);
    CHECK(v.headline == "equal up to rounding");
    CHECK(v.sentence ==
          "2 of 4 elements differ in the last bits (the largest difference is 1 "
          "ulp, |diff| = 2.3842e-07): " +
              reasons[i] + ".");
    CHECK(v.max_abs_diff == 0x1p-22);
    CHECK(v.max_ulps == 1);
    CHECK(v.differing == std::vector<Index>{0, 2});
  }
}

TEST_CASE("equal up to rounding counts ulps in the plural", "[verdict]") {
  const Matrix a = rows({{1}});
  const Matrix b = rows({{1 + 0x1p-22f}});  // the ulp of 1 is 2^-23
  CHECK(graded(a, b, RoutePair::lookup).sentence ==
        "1 of 1 elements differ in the last bits (the largest difference is 2 ulps, |diff| = "
        "2.3842e-07): the two routes add the same terms in another order, and float32 addition "
        "rounds after every step.");
}

TEST_CASE("differs: more than 2^-12 of the largest magnitude", "[verdict]") {
  const Verdict v = graded(rows({{1, 2, 3}}), rows({{1, 2.5f, 3}}));
  CHECK(v.grade == Grade::differs);
  // 2 = 0x40000000 and 2.5 = 0x40200000: 2^21 floats apart.
  CHECK(v.sentence ==
        "1 of 3 elements differ by more than rounding explains (the largest "
        "difference is 2,097,152 ulps, |diff| = 5.0000e-01, over 2^-12 of the "
        "largest magnitude, 3.0000e+00).");
  CHECK(v.max_abs_diff == 0.5);
  CHECK(v.max_ulps == 2097152);
}

TEST_CASE("grades, headlines and definitions are the page's words", "[verdict]") {
  CHECK(embedlab::grade_name(Grade::identical) == "identical");
  CHECK(embedlab::grade_name(Grade::value) == "value");
  CHECK(embedlab::grade_name(Grade::rounding) == "rounding");
  CHECK(embedlab::grade_name(Grade::differs) == "differs");
  CHECK(embedlab::grade_headline(Grade::rounding) == "equal up to rounding");
  CHECK(embedlab::kBitIdenticalDefinition == "Bit-identical: the same 32 bits in both results.");
  CHECK(embedlab::kEqualInValueDefinition ==
        "Equal in value: equal as float32 numbers, so −0.0 equals +0.0 (and NaN matches NaN).");
}

TEST_CASE("ulp distance and |diff| text", "[verdict]") {
  CHECK(embedlab::ulp_distance(0.0f, -0.0f) == 0);
  CHECK(embedlab::ulp_distance(1.0f, std::nextafter(1.0f, 2.0f)) == 1);
  const float tiny = std::numeric_limits<float>::denorm_min();
  CHECK(embedlab::ulp_distance(-tiny, tiny) == 2);
  CHECK(embedlab::ulp_distance(-1.0f, 1.0f) == 2 * 0x3f800000LL);
  CHECK(embedlab::abs_diff_text(0.0) == "0");
  CHECK(embedlab::abs_diff_text(std::nan("")) == "nan");
  CHECK(embedlab::abs_diff_text(HUGE_VAL) == "inf");
  CHECK(embedlab::abs_diff_text(0x1p-23) == "1.1921e-07");
  CHECK(embedlab::abs_diff_text(1.03125) == "1.0312e+00");  // a tie, to the even digit
}

TEST_CASE("grading results of another shape than compared is an error", "[verdict]") {
  const Matrix a = Matrix::Zero(2, 2);
  CHECK_THROWS_WITH(embedlab::grade_comparison(a, Matrix::Zero(2, 3), RoutePair::lookup),
                    "cannot compare a 2 x 2 result with a 2 x 3 one");
}

TEST_CASE("each pair of routes has one name, and an unknown one names them all", "[verdict]") {
  for (RoutePair pair : {RoutePair::lookup, RoutePair::backward, RoutePair::bag,
                         RoutePair::training, RoutePair::sparse_training, RoutePair::head}) {
    CHECK(embedlab::parse_route_pair(embedlab::route_pair_name(pair)) == pair);
  }
  CHECK(embedlab::route_pair_name(RoutePair::sparse_training) == "sparse_training");
  CHECK_THROWS_WITH(embedlab::parse_route_pair("forward"),
                    "the routes compared must be one of 'lookup', 'backward', 'bag', 'training', "
                    "'sparse_training', 'head', got 'forward'");
}

TEST_CASE("a Grader fed a block at a time grades as the whole results would", "[verdict]") {
  // The 4096 of the first block is the scale the second block's 0.5 difference is measured
  // against: within 2^-12 of it, so rounding, at position 3 of the whole.
  const float expected[] = {4096, 0, 1, 0.5f};
  const float actual[] = {4096, 0, 1, 1.0f};
  embedlab::Grader grader(RoutePair::bag);
  grader.add(expected, actual, 2);
  grader.add(expected + 2, actual + 2, 2);
  const Verdict v = grader.verdict();
  CHECK(v.grade == Grade::rounding);
  CHECK(v.differing == std::vector<Index>{3});
  CHECK(v.max_ulps == 0x800000);  // 0.5 to 1.0: one binade of float32
  CHECK(v.max_abs_diff == 0.5);
  CHECK(grader.comparison().elements == 4);
  CHECK(grader.comparison().bit_identical == 3);
  // The second block alone has no such scale: more than rounding.
  embedlab::Grader alone(RoutePair::bag);
  alone.add(expected + 2, actual + 2, 2);
  CHECK(alone.verdict().grade == Grade::differs);
}
