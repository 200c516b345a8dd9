// The PyTorch-compatible generator and initialisers. Reference values come from outside the
// code: std::mt19937 (the same engine), hand arithmetic, and bit patterns printed by PyTorch
// 1.13.1 (tests/torch/ compares millions more against live PyTorch).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "embedlab/error.hpp"
#include "embedlab/torch_init.hpp"

using Catch::Contains;
using embedlab::Index;
using embedlab::InputError;
using embedlab::Matrix;
using embedlab::TorchGenerator;

namespace {

std::vector<float> normals(TorchGenerator& gen, Index n) {
  std::vector<float> out(static_cast<std::size_t>(n));
  gen.normal(out.data(), n, 0.0, 1.0);
  return out;
}

// How many 32-bit draws gen has made since it was seeded with `seed`.
int draws_made(TorchGenerator& gen, std::uint32_t seed) {
  const std::uint32_t next = gen.random();
  std::mt19937 engine(seed);
  for (int k = 0; k < 100000; ++k) {
    if (engine() == next) return k;
  }
  return -1;
}

// The message of the InputError that f throws (the check fails if it throws none).
template <typename F>
std::string input_error(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  FAIL("no InputError was thrown");
  return {};
}

}  // namespace

TEST_CASE("the generator is MT19937", "[torch_generator]") {
  SECTION("the 10000th draw for seed 5489 is the standard's check value") {
    TorchGenerator gen(5489);
    for (int k = 1; k < 10000; ++k) gen.random();
    CHECK(gen.random() == 4123659995u);
  }
  SECTION("the stream equals std::mt19937 across several twists") {
    for (const std::uint32_t seed : {0u, 1u, 123u, 0xFFFFFFFFu}) {
      TorchGenerator gen(seed);
      std::mt19937 engine(seed);
      for (int k = 0; k < 2000; ++k) REQUIRE(gen.random() == engine());
    }
  }
  SECTION("random64 puts the first draw in the high word") {
    TorchGenerator gen(7);
    std::mt19937 engine(7);
    const std::uint64_t high = engine();
    CHECK(gen.random64() == ((high << 32) | engine()));
  }
}

TEST_CASE("seeds wrap like torch.manual_seed", "[torch_generator]") {
  SECTION("a negative seed is its 64-bit two's complement; only the low 32 bits count") {
    TorchGenerator minus_one(-1);
    std::mt19937 engine(0xFFFFFFFFu);
    CHECK(minus_one.random() == engine());
  }
  SECTION("2^32 + 123 seeds the same stream as 123") {
    TorchGenerator a(123);
    TorchGenerator b((std::int64_t{1} << 32) + 123);
    for (int k = 0; k < 10; ++k) REQUIRE(a.random() == b.random());
  }
  SECTION("manual_seed restarts the stream") {
    TorchGenerator gen(3);
    const std::uint32_t first = gen.random();
    gen.random();
    gen.manual_seed(3);
    CHECK(gen.random() == first);
  }
}

TEST_CASE("uniform keeps the low 24 bits of a draw", "[torch_generator]") {
  // std::mt19937's first output for seed 5489 is 3499211612 = 0xD091BB5C: keep 0x91BB5C.
  TorchGenerator gen(5489);
  float x = -1.0f;
  gen.uniform(&x, 1, 0.0, 1.0);
  CHECK(x == static_cast<float>(0x91BB5C) / 16777216.0f);

  SECTION("a range [2, 6) scales by 4 and shifts by 2, one draw per element") {
    TorchGenerator g(5489);
    float y[2] = {};
    g.uniform(y, 2, 2.0, 6.0);
    CHECK(y[0] == x * 4.0f + 2.0f);  // x * 4 is exact, so fused or not gives the same float
    CHECK(draws_made(g, 5489) == 2);
  }
}

TEST_CASE("normal draws as PyTorch's two paths do", "[torch_generator]") {
  SECTION("block path: n draws, or n + 16 when n is not a multiple of 16") {
    TorchGenerator gen(11);
    normals(gen, 16);
    CHECK(draws_made(gen, 11) == 16);
    gen.manual_seed(11);
    normals(gen, 17);
    CHECK(draws_made(gen, 11) == 33);
  }
  SECTION("serial path: four draws per pair, the second sample cached") {
    TorchGenerator gen(11);
    normals(gen, 3);
    CHECK(draws_made(gen, 11) == 8);
    gen.manual_seed(11);
    normals(gen, 2);
    CHECK(draws_made(gen, 11) == 4);
  }
  SECTION("the cached sample survives the block path and is cleared by manual_seed") {
    TorchGenerator a(11);
    const float first_pair_second = normals(a, 2)[1];
    TorchGenerator b(11);
    normals(b, 1);
    normals(b, 32);
    CHECK(normals(b, 1)[0] == first_pair_second);
    b.manual_seed(11);
    TorchGenerator c(11);
    CHECK(normals(b, 1)[0] == normals(c, 1)[0]);
  }
  SECTION("mean and std scale the samples") {
    TorchGenerator a(5);
    TorchGenerator b(5);
    std::vector<float> scaled(32);
    b.normal(scaled.data(), 32, 3.0, 2.0);
    const auto plain = normals(a, 32);
    for (std::size_t k = 0; k < 32; ++k) CHECK(scaled[k] == plain[k] * 2.0f + 3.0f);
  }
}

// Printed by /usr/bin/python3 with torch 1.13.1, as float.hex() of each element:
//   torch.manual_seed(0); torch.randn(3); torch.randn(17); torch.randn(1);
//   l = torch.nn.Linear(3, 2); l.weight; l.bias; torch.rand(4)
TEST_CASE("one seed, a sequence of tensors and a Linear, as PyTorch prints them", "[torch_init]") {
  TorchGenerator gen(0);
  const Matrix serial = embedlab::torch_randn(gen, 1, 3);
  const Matrix block = embedlab::torch_randn(gen, 1, 17);
  const Matrix spare = embedlab::torch_randn(gen, 1, 1);
  const auto linear = embedlab::init_linear(gen, 3, 2);
  const Matrix uniform = embedlab::torch_rand(gen, 1, 4);

  const std::vector<float> want_serial = {0x1.8a7eb8p+0f, -0x1.2c78ap-2f, -0x1.16e292p+1f};
  const std::vector<float> want_block = {
      -0x1.6caceap-2f, -0x1.42febep-3f, 0x1.7193b6p+0f,  0x1.106f42p-2f, 0x1.54e68ap-3f,
      0x1.bfaefap-1f,  -0x1.25d59ep-3f, -0x1.c926dep-4f, -0x1.3a279p-1f, 0x1.424e6ep+0f,
      0x1.00a334p+1f,  0x1.b83674p-5f,  0x1.3c71ecp-1f,  -0x1.a6b5ap-2f, -0x1.aea00cp-1f,
      -0x1.28741p+1f,  -0x1.a30f72p-4f};
  const std::vector<float> want_weight = {-0x1.2f1a16p-2f, 0x1.9017aap-4f,  -0x1.1400d6p-1f,
                                          -0x1.ab2f9cp-2f, -0x1.30c8e6p-2f, 0x1.7503c4p-2f};
  const std::vector<float> want_bias = {0x1.5aa314p-2f, -0x1.06327ep-2f};
  const std::vector<float> want_uniform = {0x1.ed869cp-2f, 0x1.a3ba4p-1f, 0x1.fe7f82p-1f,
                                           0x1.659a12p-1f};

  auto as_vector = [](const Matrix& m) {
    return std::vector<float>(m.data(), m.data() + m.size());
  };
  CHECK(as_vector(serial) == want_serial);
  CHECK(as_vector(block) == want_block);
  CHECK(spare(0, 0) == 0x1.23096cp-1f);  // the sample cached by randn(3)
  CHECK(linear.weight.rows() == 2);
  CHECK(linear.weight.cols() == 3);
  CHECK(as_vector(linear.weight) == want_weight);
  CHECK(as_vector(linear.bias) == want_bias);
  CHECK(as_vector(uniform) == want_uniform);
}

TEST_CASE("Embedding: normal_(0, 1) then the padding row zeroed", "[torch_init]") {
  TorchGenerator plain_gen(9);
  const Matrix plain = embedlab::init_embedding(plain_gen, 6, 4);
  for (const Index padding : {Index{2}, Index{-4}}) {  // -4 is row 2 of 6
    TorchGenerator gen(9);
    const Matrix padded = embedlab::init_embedding(gen, 6, 4, padding);
    for (Index row = 0; row < 6; ++row) {
      if (row == 2) {
        CHECK(padded.row(row).isZero(0.0f));
      } else {
        CHECK(padded.row(row) == plain.row(row));
      }
    }
  }
}

TEST_CASE("Linear: weight before bias, within 1/sqrt(in)", "[torch_init]") {
  TorchGenerator with_bias(4);
  TorchGenerator without_bias(4);
  const auto a = embedlab::init_linear(with_bias, 10, 7, true);
  const auto b = embedlab::init_linear(without_bias, 10, 7, false);
  CHECK(a.weight == b.weight);
  CHECK(b.bias.size() == 0);
  REQUIRE(a.bias.rows() == 1);
  REQUIRE(a.bias.cols() == 7);
  // kaiming_uniform_(a = sqrt(5)) gives the bound sqrt(3) * sqrt(2 / 6) / sqrt(in) = 1/sqrt(in).
  const float bound = 1.0f / std::sqrt(10.0f);
  CHECK(a.weight.cwiseAbs().maxCoeff() <= bound);
  CHECK(a.bias.cwiseAbs().maxCoeff() <= bound);
}

TEST_CASE("bad arguments are InputErrors that name the value", "[torch_init]") {
  TorchGenerator gen;
  CHECK_THAT(input_error([&] { embedlab::torch_randn(gen, 0, 3); }), Contains("0 x 3"));
  CHECK_THAT(input_error([&] { embedlab::torch_rand(gen, 2, -1); }), Contains("2 x -1"));
  CHECK_THAT(input_error([&] { embedlab::torch_randn(gen, 1 << 20, 1 << 20); }),
             Contains("over the limit"));
  CHECK_THAT(input_error([&] { embedlab::init_embedding(gen, 0, 5); }), Contains("got 0"));
  CHECK_THAT(input_error([&] { embedlab::init_embedding(gen, 4, 5, 4); }),
             Contains("padding_idx = 4") && Contains("[-4, 3]"));
  CHECK_THAT(input_error([&] { embedlab::init_embedding(gen, 4, 5, -5); }),
             Contains("padding_idx = -5"));
  CHECK_THAT(input_error([&] { embedlab::init_linear(gen, 0, 5); }), Contains("got 0"));
}

// The generator's own parameters never come from a learner (the factories check shapes first):
// misuse is a programming error, not an InputError with a field to show it under.
TEST_CASE("the generator rejects a negative count, std or range", "[torch_init]") {
  TorchGenerator gen;
  float x = 0.0f;
  CHECK_THROWS_WITH(gen.normal(&x, -1, 0.0, 1.0), Contains("got -1"));
  CHECK_THROWS_WITH(gen.normal(&x, 1, 0.0, -2.0), Contains("std = -2"));
  CHECK_THROWS_WITH(gen.uniform(&x, 1, 1.0, 0.0), Contains("from <= to"));
  CHECK_THROWS_AS(gen.normal(&x, -1, 0.0, 1.0), std::invalid_argument);
}
