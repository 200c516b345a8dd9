#include "embedlab/onehot.hpp"

#include <string>

#include "embedlab/encoding.hpp"
#include "embedlab/error.hpp"
#include "embedlab/limits.hpp"
#include "encoded_product.hpp"
#include "gemm.hpp"

namespace embedlab {

Matrix one_hot(const Ids& ids, Index vocab, const Limits& limits) {
  const auto n = static_cast<Index>(ids.size());
  check_onehot_shape(n, vocab, limits);
  return dense(one_hot_encoding(ids, vocab, limits));
}

Matrix encoded_product(const Matrix& encoding, const Matrix& weight, const char* encoding_name,
                       const Limits& limits) {
  if (encoding.cols() != weight.rows()) {
    throw InputError(Argument::onehot,
                     std::string(encoding_name) + " has " + std::to_string(encoding.cols()) +
                         " columns but the weight has " + std::to_string(weight.rows()) +
                         " rows: they must both be the vocabulary size V");
  }
  check_output_shape(encoding.rows(), weight.cols(), limits);
  // Accumulate into +0, as a BLAS sgemm with beta = 0 (torch.mm) does: an all -0.0 column then
  // sums to +0.0 here too. The GEMM takes no shortcut for the zeros.
  Matrix out = Matrix::Zero(encoding.rows(), weight.cols());
  gemm_accumulate(out.rows(), encoding.cols(), out.cols(), encoding.data(), encoding.cols(),
                  weight.data(), weight.cols(), out.data(), out.cols());
  return out;
}

Matrix onehot_product(const Matrix& onehot, const Matrix& weight, const Limits& limits) {
  return encoded_product(onehot, weight, "the one-hot matrix", limits);
}

Matrix linear_weight(const Matrix& weight) { return weight.transpose(); }

}  // namespace embedlab
