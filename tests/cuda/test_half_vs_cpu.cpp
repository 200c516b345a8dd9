// The GPU on bfloat16 and float16 tables against the CPU: the 2-byte gathers (naive, vec8 and
// the automatic choice) copy every bit, NaN payloads included, and the bfloat16 one-hot product
// (FP32 accumulation) equals the core's lookup of the table converted exactly to float32.
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <random>

#include "cuda_backend.hpp"
#include "embedlab/lookup.hpp"
#include "half_matrix.hpp"
#include "random_inputs.hpp"
#include "same_bits.hpp"

using embedlab::Ids;
using embedlab::Index;
using embedlab::Matrix;
using embedlab::test::same_bits;
using namespace embedlab::cuda_test;
namespace cuda = embedlab::cuda;

namespace {

template <typename T>
bool same_half_bits(const cuda::HalfMatrix<T>& a, const cuda::HalfMatrix<T>& b) {
  return a.rows == b.rows && a.cols == b.cols && a.values.size() == b.values.size() &&
         std::memcmp(a.values.data(), b.values.data(), a.values.size() * sizeof(T)) == 0;
}

// The rows picked by the plainest loop: the reference for a gather of bits.
template <typename T>
cuda::HalfMatrix<T> rows_by_loop(const cuda::HalfMatrix<T>& w, const Ids& ids) {
  cuda::HalfMatrix<T> out{static_cast<Index>(ids.size()), w.cols, {}};
  for (const auto id : ids)
    for (Index j = 0; j < w.cols; ++j) out.values.push_back(w.values[id * w.cols + j]);
  return out;
}

// Random 16-bit patterns: NaNs with payloads, infinities, subnormals and -0.0 among them.
template <typename T>
cuda::HalfMatrix<T> random_patterns(Index rows, Index cols, std::mt19937& rng) {
  std::uniform_int_distribution<unsigned> pick(0, 0xffff);
  cuda::HalfMatrix<T> m{rows, cols, std::vector<T>(static_cast<std::size_t>(rows * cols))};
  for (auto& value : m.values) {
    const auto bits = static_cast<std::uint16_t>(pick(rng));
    std::memcpy(static_cast<void*>(&value), &bits, sizeof bits);
  }
  return m;
}

template <typename T>
void check_gathers(const cuda::HalfMatrix<T>& w, const Ids& ids) {
  const cuda::HalfMatrix<T> expected = rows_by_loop(w, ids);
  INFO("V = " << w.rows << ", d = " << w.cols << ", n = " << ids.size());
  for (const auto kernel :
       {cuda::GatherKernel::naive, cuda::GatherKernel::automatic, cuda::GatherKernel::vectorised}) {
    if (kernel == cuda::GatherKernel::vectorised && w.cols % 8 != 0) continue;
    INFO("kernel " << static_cast<int>(kernel));
    CHECK(same_half_bits(cuda::lookup(w, ids, kernel), expected));
  }
}

}  // namespace

TEST_CASE("the 2-byte gathers copy bfloat16 and float16 rows bit for bit") {
  std::mt19937 rng(23);
  for (int trial = 0; trial < 40; ++trial) {
    const Index vocab = uniform(1, 3000, rng);
    const Index dim = trial % 3 == 0 ? 8 * uniform(1, 40, rng) : uniform(1, 130, rng);
    const Ids ids =
        random_ids(uniform(1, 400, rng), trial % 2 ? vocab : std::min<Index>(vocab, 3), rng);
    check_gathers(random_patterns<__nv_bfloat16>(vocab, dim, rng), ids);
    check_gathers(random_patterns<__half>(vocab, dim, rng), ids);
  }
}

TEST_CASE("the bfloat16 gather equals the CPU lookup of the table widened to float32") {
  std::mt19937 rng(29);
  // The benchmark's largest base shape, W rounded to bfloat16 as W.bfloat16() rounds it.
  const cuda::Bf16Matrix table = cuda::to_bf16(random_matrix(50257, 768, rng));
  const Ids ids = random_ids(1024, 50257, rng);
  CHECK(same_bits(cuda::to_float(cuda::lookup(table, ids)),
                  embedlab::lookup(cuda::to_float(table), ids)));
}

TEST_CASE("the bfloat16 one-hot product equals the bfloat16 lookup bit for bit") {
  std::mt19937 rng(37);
  for (int trial = 0; trial < 20; ++trial) {
    const Index vocab = uniform(1, 1500, rng);
    const Index dim = uniform(1, 100, rng);
    const cuda::Bf16Matrix table = cuda::to_bf16(random_matrix(vocab, dim, rng));
    const Ids ids = random_ids(uniform(1, 200, rng), vocab, rng);
    INFO("V = " << vocab << ", d = " << dim << ", n = " << ids.size());
    const cuda::Bf16Matrix got = cuda::onehot_lookup(table, ids);
    // Finite, nonzero weights: 1 * w plus exact zeros, summed in FP32, is w.
    CHECK(same_bits(cuda::to_float(got), embedlab::lookup(cuda::to_float(table), ids)));
    CHECK(same_half_bits(got, cuda::lookup(table, ids)));
  }
}
