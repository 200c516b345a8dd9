#include "embedlab/verdict.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "embedlab/error.hpp"
#include "embedlab/float_bits.hpp"
#include "embedlab/format.hpp"

namespace embedlab {
namespace {

// \u2212 is the minus sign and \u00b7 the middle dot of "0\u00b7Inf", as the page writes them.
constexpr std::string_view kStartsDifferently =
    "the two routes start their sums differently, and \u22120.0 + 0.0 = +0.0";

const RouteReasons kLookup{
    "the two routes add the same terms in another order, and float32 addition rounds after "
    "every step",
    "the lookup copies a \u22120.0 of W as it is, while the product adds +0.0 terms "
    "(0\u00b7w), and \u22120.0 + 0.0 = +0.0",
    "W holds an Inf or NaN, and the product multiplies it by the one-hot zeros: "
    "0\u00b7Inf = NaN, which poisons every output row, while the lookup copies rows "
    "untouched"};

const RouteReasons kBackward{
    "the scatter-add adds the rows of G of a repeated id in position order, onehot.T @ G in its "
    "own blocked order, and float32 addition rounds after every step",
    kStartsDifferently,
    "G holds an Inf or NaN, and onehot.T @ G multiplies it by the zeros of onehot.T: "
    "0\u00b7Inf = NaN reaches every row of dW, while the scatter-add adds only the "
    "rows a token names"};

const RouteReasons kBag{
    "a bag adds its rows in position order, M @ W in vocabulary order, and float32 rounds every "
    "weighted term and every partial sum",
    kStartsDifferently,
    "W holds an Inf or NaN, and M @ W multiplies it by the zeros of M: 0\u00b7Inf = NaN reaches "
    "every bag, while a bag adds only its own rows"};

constexpr std::string_view kTrainingNan =
    "G holds an Inf or NaN, and onehot.T @ G multiplies it by the zeros of onehot.T: "
    "0\u00b7Inf = NaN reaches every row of the Linear route's gradient, and its "
    "optimizer step writes it into the weight";

const RouteReasons kTraining{
    "the scatter-add adds the rows of G of an id repeated three or more times in position order, "
    "onehot.T @ G in its own blocked order, so the two gradients round differently, and every "
    "optimizer step carries the difference into the weight",
    kStartsDifferently, kTrainingNan};

const RouteReasons kSparseTraining{
    "the sparse gradient is stepped with other float32 operations than the Linear route's dense "
    "one: a repeated id's rows of G are applied one at a time or summed in sorted order, and "
    "Adagrad's sparse branch squares, adds and divides in another order, so each rounds "
    "differently",
    kStartsDifferently, kTrainingNan};

const RouteReasons kHead{
    "each logit sums d products, which PyTorch's out_head(h) adds in its BLAS's blocked order "
    "(with or without fused multiply-adds) and embedlab's GEMM in its own, and float32 rounds "
    "every partial sum",
    kStartsDifferently,
    "h or W holds an Inf or NaN, and each sum that meets it turns NaN in one order of additions "
    "and not in the other"};

// A float32's bits as a signed integer in the order of the numbers: adjacent floats are adjacent
// integers, and +0.0 and -0.0 both map to 0.
std::int64_t ordered(float x) {
  const std::uint32_t bits = float_bits(x);
  return bits >= 0x80000000u ? -static_cast<std::int64_t>(bits - 0x80000000u)
                             : static_cast<std::int64_t>(bits);
}

// "3 of 15 elements"
std::string of_all(Index part, const Comparison& c) {
  return count_text(part) + " of " + count_text(c.elements) + " elements";
}

}  // namespace

std::string_view grade_name(Grade grade) {
  switch (grade) {
    case Grade::identical:
      return "identical";
    case Grade::value:
      return "value";
    case Grade::rounding:
      return "rounding";
    case Grade::differs:
      return "differs";
  }
  return "differs";
}

std::string_view grade_headline(Grade grade) {
  switch (grade) {
    case Grade::identical:
      return "bit-identical";
    case Grade::value:
      return "equal in value";
    case Grade::rounding:
      return "equal up to rounding";
    case Grade::differs:
      return "differs";
  }
  return "differs";
}

namespace {
constexpr RoutePair kPairs[] = {RoutePair::lookup,   RoutePair::backward,        RoutePair::bag,
                                RoutePair::training, RoutePair::sparse_training, RoutePair::head};
}  // namespace

std::string_view route_pair_name(RoutePair pair) {
  switch (pair) {
    case RoutePair::lookup:
      return "lookup";
    case RoutePair::backward:
      return "backward";
    case RoutePair::bag:
      return "bag";
    case RoutePair::training:
      return "training";
    case RoutePair::sparse_training:
      return "sparse_training";
    case RoutePair::head:
      return "head";
  }
  return "lookup";
}

RoutePair parse_route_pair(std::string_view name) {
  std::string names;
  for (RoutePair pair : kPairs) {
    if (name == route_pair_name(pair)) return pair;
    names +=
        std::string(names.empty() ? "" : ", ") + "'" + std::string(route_pair_name(pair)) + "'";
  }
  throw InputError(Argument::compared, "the routes compared must be one of " + names + ", got '" +
                                           std::string(name) + "'");
}

const RouteReasons& route_reasons(RoutePair pair) {
  switch (pair) {
    case RoutePair::lookup:
      return kLookup;
    case RoutePair::backward:
      return kBackward;
    case RoutePair::bag:
      return kBag;
    case RoutePair::training:
      return kTraining;
    case RoutePair::sparse_training:
      return kSparseTraining;
    case RoutePair::head:
      return kHead;
  }
  return kLookup;
}

std::int64_t ulp_distance(float a, float b) {
  const std::int64_t d = ordered(a) - ordered(b);
  return d < 0 ? -d : d;
}

std::string abs_diff_text(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return "inf";
  return x == 0.0 ? "0" : scientific_text(x);
}

void Grader::define_row(Index row, Index cols, std::string reason) {
  defined_ = Defined{row, row * cols, (row + 1) * cols, std::move(reason)};
  rest_ = std::make_unique<Grader>(pair_);
}

void Grader::add(const float* expected, const float* actual, Index count) {
  if (defined_) {
    // The rest sees the defined row as agreeing: its actual values replaced by the expected ones.
    const Index first = std::max(defined_->first, elements_);
    const Index end = std::min(defined_->end, elements_ + count);
    if (first < end) {
      std::vector<float> patched(actual, actual + count);
      for (Index i = first; i < end; ++i) {
        const Index k = i - elements_;
        defined_differs_ |= float_bits(expected[k]) != float_bits(actual[k]);
        patched[static_cast<std::size_t>(k)] = expected[k];
      }
      rest_->add(expected, patched.data(), count);
    } else {
      rest_->add(expected, actual, count);
    }
  }
  comparer_.add(expected, actual, count);
  for (Index i = 0; i < count; ++i) {
    const float a = expected[i];
    const float b = actual[i];
    if (std::isfinite(a)) scale_ = std::max(scale_, double(std::abs(a)));
    if (std::isfinite(b)) scale_ = std::max(scale_, double(std::abs(b)));
    if (float_bits(a) == float_bits(b)) continue;
    differing_.push_back(elements_ + i);
    if (std::isfinite(a) && std::isfinite(b)) {
      max_ulps_ = std::max(max_ulps_, ulp_distance(a, b));
    } else if (!std::isnan(a) && !std::isnan(b)) {
      infinite_ = true;
    }
  }
  elements_ += count;
}

Verdict Grader::verdict() const {
  Verdict v = whole_verdict();
  if (v.grade != Grade::differs || !defined_ || !defined_differs_) return v;
  const Verdict rest = rest_->verdict();
  if (rest.grade == Grade::differs) return v;
  v.headline = kDefinedHeadline;
  v.defined = DefinedDifference{defined_->row, defined_->reason, rest.grade, rest.headline};
  return v;
}

Verdict Grader::whole_verdict() const {
  const Comparison c = comparison();
  Verdict v;
  v.differing = differing_;
  v.max_ulps = max_ulps_;
  v.max_abs_diff = c.nan_mismatches > 0 ? std::numeric_limits<double>::quiet_NaN()
                   : infinite_          ? std::numeric_limits<double>::infinity()
                                        : c.max_abs_diff;

  const RouteReasons& why = route_reasons(pair_);
  const Index differing = c.elements - c.value_equal;
  const std::string largest = "the largest difference is " + count_text(v.max_ulps) +
                              (v.max_ulps == 1 ? " ulp" : " ulps") +
                              ", |diff| = " + abs_diff_text(v.max_abs_diff);
  auto grade = [&](Grade g, std::string sentence) {
    v.grade = g;
    v.headline = grade_headline(g);
    v.sentence = std::move(sentence);
    return v;
  };

  if (c.bit_identical == c.elements) {
    return grade(Grade::identical, "All " + count_text(c.elements) +
                                       " elements hold the same 32 bits in both results.");
  }
  if (c.value_equal == c.elements) {
    const Index payloads = c.elements - c.bit_identical - c.signed_zero_mismatches;
    return grade(Grade::value,
                 c.signed_zero_mismatches > 0
                     ? of_all(c.signed_zero_mismatches, c) +
                           " differ only in the sign of zero: " + std::string(why.signed_zero) + "."
                     : of_all(payloads, c) + " are NaN in both results, with different bits.");
  }
  if (c.nan_mismatches > 0) {
    return grade(Grade::differs, of_all(c.nan_mismatches, c) +
                                     " are NaN in one result only: " + std::string(why.nan) + ".");
  }
  if (infinite_) {
    return grade(Grade::differs, "An infinity in one result meets a finite number in the other.");
  }
  if (v.max_abs_diff <= kRoundingShare * scale_) {
    return grade(Grade::rounding, of_all(differing, c) + " differ in the last bits (" + largest +
                                      "): " + std::string(why.rounding) + ".");
  }
  return grade(Grade::differs, of_all(differing, c) + " differ by more than rounding explains (" +
                                   largest + ", over 2^-12 of the largest magnitude, " +
                                   abs_diff_text(scale_) + ").");
}

std::string defined_text(const DefinedDifference& defined) {
  return defined.reason + " Everything else: " + std::string(defined.rest_headline) + ".";
}

std::string verdict_text(const Verdict& verdict) {
  std::string text = std::string(verdict.headline) + ". ";
  if (verdict.defined) text += defined_text(*verdict.defined) + " ";
  return text + verdict.sentence;
}

Verdict grade_comparison(const Matrix& expected, const Matrix& actual, RoutePair pair) {
  check_comparable(expected, actual);
  Grader grader(pair);
  grader.add(expected.data(), actual.data(), expected.size());
  return grader.verdict();
}

}  // namespace embedlab
