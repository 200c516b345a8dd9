#pragma once
// Bit-for-bit equality of two matrices, NaN payloads and -0.0 included, which == on floats would
// not check: the tests compare the lookup with the product, a parse with its source, the GPU with
// the CPU this way.
#include <cstddef>
#include <cstring>

#include "embedlab/matrix.hpp"

namespace embedlab::test {

inline bool same_bits(const Matrix& a, const Matrix& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), static_cast<std::size_t>(a.size()) * sizeof(float)) == 0;
}

}  // namespace embedlab::test
