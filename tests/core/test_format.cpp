// Expected strings are PyTorch 1.13.1's own repr() of the same tensors (and the notebooks').
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "embedlab/format.hpp"
#include "matrix_literals.hpp"

using embedlab::format_tensor;
using embedlab::Matrix;
using embedlab::TensorStyle;

TEST_CASE("the notebook's embedding weight prints as in seed 002") {
  const Matrix w = rows({{0.3374f, -0.1778f, -0.3035f, -0.5880f, 1.5810f},
                         {1.3010f, 1.2753f, -0.2010f, -0.1606f, -0.4015f},
                         {0.6957f, -1.8061f, -1.1589f, 0.3255f, -0.6315f},
                         {-2.8400f, -0.7849f, -1.4096f, -0.4076f, 0.7953f}});
  TensorStyle param;
  param.header = "Parameter containing:\n";
  param.suffixes = {"requires_grad=True"};
  CHECK(format_tensor(w, param) ==
        "Parameter containing:\n"
        "tensor([[ 0.3374, -0.1778, -0.3035, -0.5880,  1.5810],\n"
        "        [ 1.3010,  1.2753, -0.2010, -0.1606, -0.4015],\n"
        "        [ 0.6957, -1.8061, -1.1589,  0.3255, -0.6315],\n"
        "        [-2.8400, -0.7849, -1.4096, -0.4076,  0.7953]], requires_grad=True)");
}

TEST_CASE("a long last line pushes grad_fn onto its own line, as in seed 002") {
  TensorStyle out;
  out.suffixes = {"grad_fn=<EmbeddingBackward0>"};
  CHECK(format_tensor(rows({{1.3010f, 1.2753f, -0.2010f, -0.1606f, -0.4015f}}), out) ==
        "tensor([[ 1.3010,  1.2753, -0.2010, -0.1606, -0.4015]],\n"
        "       grad_fn=<EmbeddingBackward0>)");
  out.suffixes = {"grad_fn=<MmBackward0>"};
  CHECK(format_tensor(rows({{0.6957f, -1.8061f}, {1.3010f, 1.2753f}}), out) ==
        "tensor([[ 0.6957, -1.8061],\n"
        "        [ 1.3010,  1.2753]], grad_fn=<MmBackward0>)");
}

TEST_CASE("one-hot matrices print as integers or as integer-valued floats") {
  TensorStyle integer;
  integer.integer = true;
  CHECK(format_tensor(rows({{0, 0, 1, 0}, {0, 0, 0, 1}, {0, 1, 0, 0}}), integer) ==
        "tensor([[0, 0, 1, 0],\n        [0, 0, 0, 1],\n        [0, 1, 0, 0]])");
  CHECK(format_tensor(rows({{0, 0, 1}, {1, 0, 0}})) ==
        "tensor([[0., 0., 1.],\n        [1., 0., 0.]])");
  CHECK(format_tensor(rows({{0.0f, -0.0f}})) == "tensor([[0., -0.]])");
}

TEST_CASE("scientific notation when magnitudes span more than 1000x") {
  CHECK(format_tensor(rows({{1e-5f, 1.0f}, {2.5f, -3.0f}})) ==
        "tensor([[ 1.0000e-05,  1.0000e+00],\n        [ 2.5000e+00, -3.0000e+00]])");
  CHECK(format_tensor(rows({{100000.0f, 2.0f}})) == "tensor([[1.0000e+05, 2.0000e+00]])");
  CHECK(format_tensor(rows({{1e9f, 1.0f}})) == "tensor([[1.0000e+09, 1.0000e+00]])");
}

TEST_CASE("nan and inf are spelled as Python does and padded to the common width") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  CHECK(format_tensor(rows({{nan, 1.5f}, {-inf, -0.0f}})) ==
        "tensor([[   nan, 1.5000],\n        [  -inf, -0.0000]])");
  CHECK(format_tensor(rows({{-nan, 1.5f}})) == "tensor([[   nan, 1.5000]])");
}

TEST_CASE("long rows wrap at 80 columns") {
  Matrix m(1, 24);
  for (int i = 0; i < 24; ++i) m(0, i) = static_cast<float>(i) / 3.0f;
  CHECK(format_tensor(m) ==
        "tensor([[0.0000, 0.3333, 0.6667, 1.0000, 1.3333, 1.6667, 2.0000, 2.3333, 2.6667,\n"
        "         3.0000, 3.3333, 3.6667, 4.0000, 4.3333, 4.6667, 5.0000, 5.3333, 5.6667,\n"
        "         6.0000, 6.3333, 6.6667, 7.0000, 7.3333, 7.6667]])");
}

TEST_CASE("more than 1000 elements are summarised with edge items") {
  Matrix m(40, 30);
  for (int i = 0; i < 1200; ++i) m.data()[i] = static_cast<float>(i) / 7.0f;
  CHECK(format_tensor(m) ==
        "tensor([[0.0000e+00, 1.4286e-01, 2.8571e-01,  ..., 3.8571e+00, 4.0000e+00,\n"
        "         4.1429e+00],\n"
        "        [4.2857e+00, 4.4286e+00, 4.5714e+00,  ..., 8.1429e+00, 8.2857e+00,\n"
        "         8.4286e+00],\n"
        "        [8.5714e+00, 8.7143e+00, 8.8571e+00,  ..., 1.2429e+01, 1.2571e+01,\n"
        "         1.2714e+01],\n"
        "        ...,\n"
        "        [1.5857e+02, 1.5871e+02, 1.5886e+02,  ..., 1.6243e+02, 1.6257e+02,\n"
        "         1.6271e+02],\n"
        "        [1.6286e+02, 1.6300e+02, 1.6314e+02,  ..., 1.6671e+02, 1.6686e+02,\n"
        "         1.6700e+02],\n"
        "        [1.6714e+02, 1.6729e+02, 1.6743e+02,  ..., 1.7100e+02, 1.7114e+02,\n"
        "         1.7129e+02]])");
}

TEST_CASE("counts with thousands separators, numbers in scientific notation", "[format]") {
  CHECK(embedlab::count_text(0) == "0");
  CHECK(embedlab::count_text(999) == "999");
  CHECK(embedlab::count_text(1234) == "1,234");
  CHECK(embedlab::count_text(38597376) == "38,597,376");
  CHECK(embedlab::count_text(-1000) == "-1,000");
  CHECK(embedlab::scientific_text(0x1p-23) == "1.1921e-07");
  CHECK(embedlab::scientific_text(0.5) == "5.0000e-01");
  CHECK(embedlab::scientific_text(-3e10) == "-3.0000e+10");
}

TEST_CASE("floats as Python's str() writes them in PyTorch's messages", "[format]") {
  // Each expected text is what python3 -c 'print(str(x))' prints.
  CHECK(embedlab::python_float_text(0.1) == "0.1");
  CHECK(embedlab::python_float_text(-0.1) == "-0.1");
  CHECK(embedlab::python_float_text(-1.0) == "-1.0");
  CHECK(embedlab::python_float_text(-0.0) == "-0.0");
  CHECK(embedlab::python_float_text(0.0001) == "0.0001");
  CHECK(embedlab::python_float_text(1e-05) == "1e-05");
  CHECK(embedlab::python_float_text(-1.5e-7) == "-1.5e-07");
  CHECK(embedlab::python_float_text(123456789.0) == "123456789.0");
  CHECK(embedlab::python_float_text(1e15) == "1000000000000000.0");
  CHECK(embedlab::python_float_text(1e16) == "1e+16");
  CHECK(embedlab::python_float_text(1.2345678901234567e+300) == "1.2345678901234567e+300");
  CHECK(embedlab::python_float_text(2.5) == "2.5");
  CHECK(embedlab::python_float_text(1.0 / 3) == "0.3333333333333333");
  CHECK(embedlab::python_float_text(std::nan("")) == "nan");
  CHECK(embedlab::python_float_text(-HUGE_VAL) == "-inf");
}

TEST_CASE("elements one by one, in the notation their tensor's shown elements choose", "[format]") {
  using embedlab::format_elements;
  // Printed by torch 1.13.1 for the tensors of the shown values (repr, default print options).
  CHECK(format_elements({0.03125, -0.03125, 0.09375, 2.5}, {0.03125, -0.03125, 0.09375, 2.5}) ==
        std::vector<std::string>{"0.0312", "-0.0312", "0.0938", "2.5000"});
  CHECK(format_elements({1e-5, 0.5}, {1e-5, 0.5}) ==
        std::vector<std::string>{"1.0000e-05", "5.0000e-01"});
  CHECK(format_elements({1.0, -0.0, 2.0}, {1.0, -0.0}) == std::vector<std::string>{"1.", "-0."});
  // A value outside the shown ones takes their notation: scientific here, not fixed.
  CHECK(format_elements({1e-5, 0.5}, {0.25}) == std::vector<std::string>{"2.5000e-01"});
  CHECK(format_elements({0, 1}, {1, 0}, true) == std::vector<std::string>{"1", "0"});
}
