// The GPU backward against the CPU core's embedding_backward: the deterministic kernel bit for
// bit, the atomic kernel within a rounding bound, on random shapes with many repeated ids,
// padding_idx (also negative) and scale_grad_by_freq.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <vector>

#include "cuda_backend.hpp"
#include "embedlab/backward.hpp"
#include "embedlab/compare.hpp"
#include "embedlab/padding_idx.hpp"
#include "embedlab/verdict.hpp"
#include "random_inputs.hpp"
#include "same_bits.hpp"

using embedlab::EmbeddingOptions;
using embedlab::Ids;
using embedlab::Index;
using embedlab::Matrix;
using embedlab::test::same_bits;
using namespace embedlab::cuda_test;
namespace cuda = embedlab::cuda;

namespace {

struct Case {
  Ids ids;
  Matrix grad_output;
  Index vocab;
  EmbeddingOptions options;
};

// Few distinct ids, so most rows of the gradient are sums of many terms, where the order of
// the additions shows in the last bits.
Case random_case(std::mt19937& rng, int trial) {
  Case c;
  c.vocab = uniform(1, 2000, rng);
  const Index n = uniform(1, 1500, rng);
  const Index distinct = trial % 3 == 0 ? c.vocab : std::min<Index>(c.vocab, uniform(1, 8, rng));
  c.ids = random_ids(n, distinct, rng);
  c.grad_output = random_matrix(n, uniform(1, 150, rng), rng);
  if (trial % 4 == 1) c.options.padding_idx = c.ids[0];
  if (trial % 4 == 3) c.options.padding_idx = -c.vocab + c.ids[0];  // the same row, from the end
  c.options.scale_grad_by_freq = trial % 5 >= 3;
  return c;
}

std::string describe(const Case& c) {
  return "V = " + std::to_string(c.vocab) + ", d = " + std::to_string(c.grad_output.cols()) +
         ", n = " + std::to_string(c.ids.size()) + ", padding_idx = " +
         (c.options.padding_idx ? std::to_string(*c.options.padding_idx) : "none") +
         (c.options.scale_grad_by_freq ? ", scale_grad_by_freq" : "");
}

// Any order of summing m terms x_i in float32 lies within (m - 1) u sum |x_i| of the exact sum
// (to first order, u = 2^-24), so two orders lie within 2 (m - 1) u sum |x_i| of each other;
// one more u per term covers the atomic kernel's rounding of g * scale before adding. Checks
// |atomic - cpu| <= 2 m u sum |x_i| for every element.
void check_within_rounding(const Case& c, const Matrix& cpu, const Matrix& atomic) {
  const Index padding = embedlab::resolve_padding_idx(c.options.padding_idx, c.vocab);
  std::vector<Index> counts(static_cast<std::size_t>(c.vocab), 0);
  for (const auto id : c.ids) ++counts[static_cast<std::size_t>(id)];
  Matrix magnitude = Matrix::Zero(c.vocab, c.grad_output.cols());
  for (std::size_t k = 0; k < c.ids.size(); ++k) {
    if (c.ids[k] == padding) continue;
    const double scale = c.options.scale_grad_by_freq ? 1.0 / counts[c.ids[k]] : 1.0;
    magnitude.row(c.ids[k]) += c.grad_output.row(static_cast<Index>(k)).cwiseAbs() * scale;
  }
  const double u = std::ldexp(1.0, -24);
  Index outside = 0;
  for (Index v = 0; v < c.vocab; ++v) {
    const double bound = 2.0 * static_cast<double>(counts[v]) * u;
    for (Index j = 0; j < cpu.cols(); ++j) {
      if (std::abs(double{atomic(v, j)} - cpu(v, j)) > bound * magnitude(v, j)) ++outside;
    }
  }
  CHECK(outside == 0);
}

}  // namespace

TEST_CASE(
    "the deterministic GPU backward equals the CPU's bit for bit, the atomic one to rounding") {
  std::mt19937 rng(17);
  for (int trial = 0; trial < 40; ++trial) {
    const Case c = random_case(rng, trial);
    INFO(describe(c));
    const Matrix cpu = embedlab::embedding_backward(c.ids, c.grad_output, c.vocab, c.options);
    const Matrix deterministic = cuda::embedding_backward(c.ids, c.grad_output, c.vocab, c.options,
                                                          cuda::BackwardKernel::deterministic);
    INFO(embedlab::grade_comparison(cpu, deterministic, embedlab::RoutePair::backward).sentence);
    CHECK(same_bits(deterministic, cpu));
    check_within_rounding(c, cpu,
                          cuda::embedding_backward(c.ids, c.grad_output, c.vocab, c.options,
                                                   cuda::BackwardKernel::atomic));
  }
}

TEST_CASE("one id repeated 5000 times is summed in position order, where order matters") {
  std::mt19937 rng(19);
  Case c;
  c.vocab = 3;
  c.ids = Ids(5000, 1);
  c.grad_output = random_matrix(5000, 33, rng);
  // Large and small magnitudes mixed: summed backwards, the float result differs.
  for (Index k = 0; k < 5000; k += 7) c.grad_output.row(k) *= 1e4f;
  Matrix backwards = Matrix::Zero(1, 33);
  for (Index k = 4999; k >= 0; --k) backwards += c.grad_output.row(k);
  const Matrix cpu = embedlab::embedding_backward(c.ids, c.grad_output, c.vocab);
  REQUIRE_FALSE(same_bits(backwards, cpu.row(1)));  // so this test can tell orders apart
  CHECK(same_bits(cuda::embedding_backward(c.ids, c.grad_output, c.vocab), cpu));
}
