#pragma once
// Comparing the lookup result with the one-hot product, element by element and bit by bit.
#include <string>

#include "embedlab/matrix.hpp"

namespace embedlab {

struct Comparison {
  Index elements = 0;                // n * d
  Index bit_identical = 0;           // same 32-bit pattern
  Index value_equal = 0;             // same value: bit-identical, +0 vs -0, or NaN on both sides
  Index nan_mismatches = 0;          // NaN on one side only (0 * Inf = NaN poisons the product)
  Index signed_zero_mismatches = 0;  // -0.0 vs +0.0: equal in value, different in bits
  double max_abs_diff = 0.0;         // over elements finite on both sides
  bool identical = false;            // every element bit-identical
  // torch.equal(expected, actual): every element equal as a float (-0.0 == +0.0, and NaN equals
  // nothing, itself included), what a script that checks both routes prints.
  bool torch_equal = false;
};

// expected: the lookup rows; actual: the one-hot product. Same shape required.
Comparison compare(const Matrix& expected, const Matrix& actual);

// torch.equal(a, b): false for two shapes, else compare()'s torch_equal.
bool torch_equal(const Matrix& a, const Matrix& b);

// The check compare() runs first: an InputError (Argument::compared) unless the shapes agree.
void check_comparable(const Matrix& expected, const Matrix& actual);

// compare() a piece at a time, for results made in blocks (streamed.hpp): the same counts as
// comparing them whole. What they mean is verdict.hpp's Grader.
class Comparer {
 public:
  // The next `count` elements of each result.
  void add(const float* expected, const float* actual, Index count);
  Comparison result() const;

 private:
  Comparison c_;
  Index nan_on_both_ = 0;  // equal in value here, never to torch.equal
};

}  // namespace embedlab
