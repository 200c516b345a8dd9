#include "half_matrix.hpp"

#include <cstddef>

namespace embedlab::cuda {
namespace {

template <typename T, typename Round>
HalfMatrix<T> rounded(const Matrix& m, Round round) {
  HalfMatrix<T> out{m.rows(), m.cols(), std::vector<T>(static_cast<std::size_t>(m.size()))};
  for (Index i = 0; i < m.size(); ++i) out.values[static_cast<std::size_t>(i)] = round(m.data()[i]);
  return out;
}

template <typename T, typename Widen>
Matrix widened(const HalfMatrix<T>& m, Widen widen) {
  Matrix out(m.rows, m.cols);
  for (Index i = 0; i < out.size(); ++i)
    out.data()[i] = widen(m.values[static_cast<std::size_t>(i)]);
  return out;
}

}  // namespace

Bf16Matrix to_bf16(const Matrix& m) {
  return rounded<__nv_bfloat16>(m, [](float x) { return __float2bfloat16_rn(x); });
}

F16Matrix to_f16(const Matrix& m) {
  return rounded<__half>(m, [](float x) { return __float2half_rn(x); });
}

Matrix to_float(const Bf16Matrix& m) {
  return widened(m, [](__nv_bfloat16 x) { return __bfloat162float(x); });
}

Matrix to_float(const F16Matrix& m) {
  return widened(m, [](__half x) { return __half2float(x); });
}

}  // namespace embedlab::cuda
