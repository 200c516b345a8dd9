#pragma once
// How far two float32 results agree, graded: compare() counts the elements (bits, values, NaN on
// one side, signs of zero); the verdict adds the distance in ulps, which elements differ, and one
// of four grades with a one-sentence reason. Every front end prints these texts as they are (the
// page through WASM), so they are written here once.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "embedlab/compare.hpp"
#include "embedlab/matrix.hpp"

namespace embedlab {

// The grades, best first.
enum class Grade {
  identical,  // every element holds the same 32 bits
  value,      // equal as float32 numbers: -0.0 == +0.0, NaN matches NaN
  rounding,   // the differences are within what float32 rounding explains
  differs,    // NaN on one side, an infinity against a number, or more than rounding
};

// "identical", "value", "rounding", "differs": the grade's name in the API and in style sheets.
std::string_view grade_name(Grade grade);
// "bit-identical", "equal in value", "equal up to rounding", "differs": the headline.
std::string_view grade_headline(Grade grade);

// What the headlines mean, shown where they appear.
inline constexpr std::string_view kBitIdenticalDefinition =
    "Bit-identical: the same 32 bits in both results.";
inline constexpr std::string_view kEqualInValueDefinition =
    "Equal in value: equal as float32 numbers, so \u22120.0 equals +0.0 (and NaN matches NaN).";

// A difference larger than this share of the largest magnitude in the two results is more than
// rounding: float32 addition errs by at most 2^-24 of each partial sum, so even a sum of
// thousands of terms, added in another order, stays far below it.
inline constexpr double kRoundingShare = 1.0 / 4096.0;  // 2^-12

// The pairs of routes whose results are compared, each with its own reasons.
enum class RoutePair {
  lookup,           // embedding(idx) against the one-hot product onehot @ W
  backward,         // the scatter-add dL/dW against onehot.T @ G
  bag,              // nn.EmbeddingBag's bags against M @ W
  training,         // embedding.weight against linear.weight.T, both stepped on dense gradients
  sparse_training,  // the same, the embedding's gradient sparse (nn.Embedding(sparse=True))
  head,             // the tied output layer's logits h @ W.T against PyTorch's out_head(h)
};

// "lookup", "backward", "bag", "training", "sparse_training", "head": each pair's name in the
// API.
std::string_view route_pair_name(RoutePair pair);
// The pair a name stands for; InputError (of compared) naming the pairs for anything else.
RoutePair parse_route_pair(std::string_view name);

// Why each kind of difference happens between a pair of routes: each completes
// "... elements differ ...: <reason>."
struct RouteReasons {
  std::string_view rounding;     // the same terms, rounded in another order
  std::string_view signed_zero;  // -0.0 against +0.0
  std::string_view nan;          // NaN in one result only
};
const RouteReasons& route_reasons(RoutePair pair);

// The number of float32 values from a to b: 0 when they are equal (+0.0 and -0.0 included), 1 for
// neighbours. Both finite.
std::int64_t ulp_distance(float a, float b);

// A |difference| as every front end prints it: "0", "nan", "inf", or PyTorch's scientific
// notation ("1.1921e-07").
std::string abs_diff_text(double x);

// The headline of a verdict whose only larger differences are in a row PyTorch defines to differ.
inline constexpr std::string_view kDefinedHeadline = "differs, as PyTorch defines it";

// Two routes meant to differ in one row (padding_idx: nn.Embedding gives the row no gradient,
// onehot.T @ G knows nothing of it), and how every other element agrees.
struct DefinedDifference {
  Index row = 0;
  std::string reason;  // why, in one sentence
  Grade rest = Grade::identical;
  std::string_view rest_headline;  // grade_headline(rest)
};

// "<reason> Everything else: <rest headline>.": what a front end prints between the headline and
// the sentence of a verdict with a defined difference.
std::string defined_text(const DefinedDifference& defined);

struct Verdict {
  Grade grade = Grade::identical;
  std::string_view headline;  // grade_headline(grade), or kDefinedHeadline when `defined` is set
  std::string sentence;       // why, in one sentence that does not repeat the headline
  // Set when the grade is differs, the row Grader::define_row() named differs, and every other
  // element is within rounding: the difference is PyTorch's definition, not an error.
  std::optional<DefinedDifference> defined;
  // The largest |difference|: NaN when some element is NaN on one side only, +inf where an
  // infinity meets a finite number, else compare()'s max_abs_diff.
  double max_abs_diff = 0.0;
  std::int64_t max_ulps = 0;     // over the differing elements finite on both sides
  std::vector<Index> differing;  // row-major positions of the elements whose bits differ
};

// Grades the comparison of two results fed a block at a time (streamed.hpp makes them so), in
// this order: all bits equal; all values equal; NaN on one side only; an infinity against a
// finite number; the largest |difference| within kRoundingShare of the largest finite magnitude
// in either result; else differs. Only the differing elements cost more than a compare of their
// bits, and only their positions are kept.
class Grader {
 public:
  explicit Grader(RoutePair pair) : pair_(pair) {}
  // Row `row` of results with `cols` columns is meant to differ, for `reason`: the verdict grades
  // every other element apart and, where only that row explains a difference, says so (Verdict::
  // defined). Before the first add().
  void define_row(Index row, Index cols, std::string reason);
  // The next `count` elements of each result, row-major.
  void add(const float* expected, const float* actual, Index count);
  // compare()'s counts of everything added so far, and their verdict.
  Comparison comparison() const { return comparer_.result(); }
  Verdict verdict() const;

 private:
  Verdict whole_verdict() const;  // the grade of every element, the defined row included

  RoutePair pair_;
  Comparer comparer_;
  Index elements_ = 0;
  std::vector<Index> differing_;
  std::int64_t max_ulps_ = 0;
  bool infinite_ = false;  // an infinity against a finite number, or against the other infinity
  double scale_ = 0.0;     // the largest finite magnitude in either result
  // define_row(): the row's elements [first, end), why, and the grader of everything else (the
  // row's actual values replaced by the expected ones).
  struct Defined {
    Index row = 0;
    Index first = 0;
    Index end = 0;
    std::string reason;
  };
  std::optional<Defined> defined_;
  std::unique_ptr<Grader> rest_;
  bool defined_differs_ = false;  // some bits of the defined row differ
};

// The verdict as one line of prose: "<headline>. [<defined text> ]<sentence>", e.g. "bit-identical.
// All 15 elements hold the same 32 bits in both results.": what the CLI and Python print after
// naming the two routes compared.
std::string verdict_text(const Verdict& verdict);

// Two whole results of the same shape (else InputError, of compared), graded.
Verdict grade_comparison(const Matrix& expected, const Matrix& actual, RoutePair pair);

}  // namespace embedlab
