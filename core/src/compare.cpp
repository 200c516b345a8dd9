#include "embedlab/compare.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "embedlab/error.hpp"
#include "embedlab/float_bits.hpp"

namespace embedlab {

void check_comparable(const Matrix& expected, const Matrix& actual) {
  if (expected.rows() != actual.rows() || expected.cols() != actual.cols()) {
    throw InputError(Argument::compared, "cannot compare a " + std::to_string(expected.rows()) +
                                             " x " + std::to_string(expected.cols()) +
                                             " result with a " + std::to_string(actual.rows()) +
                                             " x " + std::to_string(actual.cols()) + " one");
  }
}

Comparison compare(const Matrix& expected, const Matrix& actual) {
  check_comparable(expected, actual);
  Comparer comparer;
  comparer.add(expected.data(), actual.data(), expected.size());
  return comparer.result();
}

bool torch_equal(const Matrix& a, const Matrix& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() && compare(a, b).torch_equal;
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
      nan_on_both_ += std::isnan(a);
    } else if (std::isnan(a) != std::isnan(b)) {
      ++c.nan_mismatches;
    } else if (std::isnan(a)) {
      ++c.value_equal;  // NaN on both sides, different payloads: both results agree it is NaN
      ++nan_on_both_;
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
  c.torch_equal = c.value_equal - nan_on_both_ == c.elements;
  return c;
}

}  // namespace embedlab
