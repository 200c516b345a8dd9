#pragma once
// Bit-for-bit equality of two matrices: the GPU must reproduce the CPU core's every bit (NaN
// payloads and -0.0 included), which == on floats would not check.
#include <cstddef>
#include <cstring>

#include "embedlab/matrix.hpp"

namespace embedlab::cuda_test {

inline bool same_bits(const Matrix& a, const Matrix& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), static_cast<std::size_t>(a.size()) * sizeof(float)) == 0;
}

}  // namespace embedlab::cuda_test
