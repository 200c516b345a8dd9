// The GPU forward routes against the CPU core, bit for bit: the float32 gathers (naive, vec4 and
// the automatic choice) against embedlab::lookup, the one-hot SGEMM against
// embedlab::onehot_product. The 2-byte tables and TF32 have files of their own.
#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <random>

#include "cuda_backend.hpp"
#include "embedlab/compare.hpp"
#include "embedlab/float_bits.hpp"
#include "embedlab/lookup.hpp"
#include "embedlab/onehot.hpp"
#include "embedlab/verdict.hpp"
#include "random_inputs.hpp"
#include "same_bits.hpp"

using embedlab::Ids;
using embedlab::Index;
using embedlab::Matrix;
using embedlab::test::same_bits;
using namespace embedlab::cuda_test;
namespace cuda = embedlab::cuda;

namespace {

// Each gather that applies to this width must reproduce the CPU lookup's bits.
void check_gathers(const Matrix& w, const Ids& ids) {
  const Matrix expected = embedlab::lookup(w, ids);
  INFO("V = " << w.rows() << ", d = " << w.cols() << ", n = " << ids.size());
  for (const auto kernel :
       {cuda::GatherKernel::naive, cuda::GatherKernel::automatic, cuda::GatherKernel::vectorised}) {
    if (kernel == cuda::GatherKernel::vectorised && w.cols() % 4 != 0) continue;
    INFO("kernel " << static_cast<int>(kernel));
    const Matrix got = cuda::lookup(w, ids, kernel);
    INFO(embedlab::grade_comparison(expected, got, embedlab::RoutePair::lookup).sentence);
    CHECK(same_bits(got, expected));
  }
}

}  // namespace

TEST_CASE("the GPU gathers equal the CPU lookup on random shapes with repeated ids") {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 60; ++trial) {
    const Index vocab = uniform(1, 3000, rng);
    const Index dim = trial % 3 == 0 ? 4 * uniform(1, 40, rng) : uniform(1, 130, rng);
    const Index n = uniform(1, 400, rng);
    check_gathers(random_matrix(vocab, dim, rng),
                  random_ids(n, trial % 2 ? vocab : std::min<Index>(vocab, 3), rng));
  }
}

TEST_CASE("the GPU gathers equal the CPU lookup on the benchmark's largest shape") {
  std::mt19937 rng(11);
  check_gathers(random_matrix(50257, 768, rng), random_ids(1024, 50257, rng));
}

TEST_CASE("the GPU gathers copy NaN payloads, infinities and -0.0 bit for bit") {
  Matrix w = Matrix::Ones(3, 8);
  w(0, 1) = embedlab::float_from_bits(0x7fc00123u);  // a quiet NaN with a payload
  w(1, 2) = embedlab::float_from_bits(0xff800000u);  // -Inf
  w(2, 3) = -0.0f;
  check_gathers(w, {2, 0, 1, 0});
}

TEST_CASE("the GPU one-hot SGEMM equals the CPU one-hot product and the lookup") {
  std::mt19937 rng(13);
  for (int trial = 0; trial < 20; ++trial) {
    const Index vocab = uniform(1, 1500, rng);
    const Index dim = uniform(1, 100, rng);
    const Index n = uniform(1, 200, rng);
    const Matrix w = random_matrix(vocab, dim, rng);
    const Ids ids = random_ids(n, vocab, rng);
    INFO("V = " << vocab << ", d = " << dim << ", n = " << n);
    const Matrix got = cuda::onehot_lookup(w, ids);
    // Finite, nonzero weights: 1 * w plus exact zeros is w in any order of addition.
    CHECK(same_bits(got, embedlab::onehot_product(embedlab::one_hot(ids, vocab), w)));
    CHECK(same_bits(got, embedlab::lookup(w, ids)));
  }
}

TEST_CASE("the GPU one-hot SGEMM turns an Inf into NaN in other rows, as the CPU product does") {
  Matrix w = Matrix::Ones(3, 2);
  w(0, 1) = std::numeric_limits<float>::infinity();
  const Ids ids{1, 2};
  const Matrix got = cuda::onehot_lookup(w, ids);
  const auto result =
      embedlab::compare(embedlab::onehot_product(embedlab::one_hot(ids, 3), w), got);
  CHECK(result.value_equal == result.elements);  // NaN where the CPU has NaN, equal elsewhere
  CHECK(std::isnan(got(0, 1)));
}
