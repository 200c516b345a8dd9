// A Matrix written out in a test, row by row: rows({{1, 2}, {3, 4}}) is the (2, 2) Matrix
// [[1, 2], [3, 4]].
#pragma once

#include <initializer_list>
#include <stdexcept>

#include "embedlab/matrix.hpp"

inline embedlab::Matrix rows(std::initializer_list<std::initializer_list<float>> values) {
  const auto cols = static_cast<Eigen::Index>(values.begin()->size());
  embedlab::Matrix m(static_cast<Eigen::Index>(values.size()), cols);
  Eigen::Index r = 0;
  for (auto row : values) {
    if (static_cast<Eigen::Index>(row.size()) != cols) {
      throw std::logic_error("a matrix literal's rows must all have the same length");
    }
    Eigen::Index c = 0;
    for (float v : row) m(r, c++) = v;
    ++r;
  }
  return m;
}
