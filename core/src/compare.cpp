#include "embedlab/compare.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "embedlab/error.hpp"
#include "embedlab/float_bits.hpp"

namespace embedlab {
namespace {

std::string verdict_for(const Comparison& c) {
  const auto all = std::to_string(c.elements);
  if (c.identical) return "match: all " + all + " elements are bit-identical";
  std::string v = "mismatch: " + std::to_string(c.bit_identical) + " of " + all +
                  " elements are bit-identical";
  if (c.nan_mismatches > 0) {
    v += "; " + std::to_string(c.nan_mismatches) +
         " are NaN on one side only (an Inf or NaN in W poisons the product: 0 * Inf = NaN"
         " reaches every row of the one-hot product, while the lookup copies rows untouched)";
  }
  if (c.signed_zero_mismatches > 0) {
    v += "; " + std::to_string(c.signed_zero_mismatches) +
         " differ only in the sign of zero (a -0.0 in W is copied by the lookup, but the"
         " product adds +0.0 terms and gives +0.0)";
  }
  const Index other = c.elements - c.value_equal - c.nan_mismatches;
  if (other > 0) {
    v += "; " + std::to_string(other) + " differ in value, max |difference| = " +
         std::to_string(c.max_abs_diff);
  }
  return v;
}

}  // namespace

void check_comparable(const Matrix& expected, const Matrix& actual) {
  if (expected.rows() != actual.rows() || expected.cols() != actual.cols()) {
    throw InputError(Argument::compared, "cannot compare a " + std::to_string(expected.rows()) + " x " +
                     std::to_string(expected.cols()) + " result with a " +
                     std::to_string(actual.rows()) + " x " + std::to_string(actual.cols()) +
                     " one");
  }
}

Comparison compare(const Matrix& expected, const Matrix& actual) {
  check_comparable(expected, actual);
  Comparer comparer;
  comparer.add(expected.data(), actual.data(), expected.size());
  return comparer.result();
}

void Comparer::add(const float* expected, const float* actual, Index count) {
  Comparison& c = c_;
  c.elements += count;
  for (Index i = 0; i < count; ++i) {
    const float a = expected[i];
    const float b = actual[i];
    if (float_bits(a) == float_bits(b)) {
      ++c.bit_identical;
      ++c.value_equal;
    } else if (std::isnan(a) != std::isnan(b)) {
      ++c.nan_mismatches;
    } else if (std::isnan(a)) {
      ++c.value_equal;  // NaN on both sides, different payloads: both results agree it is NaN
    } else if (a == b) {
      ++c.value_equal;
      if (a == 0.0f) ++c.signed_zero_mismatches;
    }
    if (std::isfinite(a) && std::isfinite(b)) {
      c.max_abs_diff = std::max(c.max_abs_diff, std::abs(double(a) - double(b)));
    }
  }
}

Comparison Comparer::result() const {
  Comparison c = c_;
  c.identical = c.bit_identical == c.elements;
  c.verdict = verdict_for(c);
  return c;
}

}  // namespace embedlab
