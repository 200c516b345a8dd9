// The one-hot route: building the (n, V) one-hot matrix, the dense product with Eigen's GEMM
// (embedlab::onehot_product), the same product through an Eigen::SparseMatrix, and OpenBLAS's
// cblas_sgemm on the same shapes (one thread, and all cores) to show the dense GEMM is fair.
#include <cblas.h>

#include <Eigen/SparseCore>

#include "bench_inputs.hpp"
#include "embedlab/onehot.hpp"

namespace embedlab::bench {
namespace {

double product_multiply_adds(const Shape& s) {
  return static_cast<double>(s.n) * static_cast<double>(s.vocab) * static_cast<double>(s.dim);
}

void BM_one_hot(benchmark::State& state) {
  const Shape s = shape_of(state);
  const Ids& ids = random_ids(s.vocab, s.n);
  for (auto _ : state) {
    Matrix onehot = one_hot(ids, s.vocab);
    benchmark::DoNotOptimize(onehot.data());
  }
  count_rows(state, s);
}

void BM_onehot_product(benchmark::State& state) {
  const Shape s = shape_of(state);
  if (skip_slow_product(state, product_multiply_adds(s))) return;
  const Matrix& weight = random_table(s.vocab, s.dim);
  const Matrix onehot = one_hot(random_ids(s.vocab, s.n), s.vocab);
  for (auto _ : state) {
    Matrix out = onehot_product(onehot, weight);
    benchmark::DoNotOptimize(out.data());
  }
  count_rows(state, s);
  count_flops(state, product_multiply_adds(s));
}

void BM_onehot_sparse(benchmark::State& state) {
  const Shape s = shape_of(state);
  const Matrix& weight = random_table(s.vocab, s.dim);
  const Ids& ids = random_ids(s.vocab, s.n);
  // (n, V) with n stored ones; the product touches only the stored entries.
  Eigen::SparseMatrix<float, Eigen::RowMajor> onehot(s.n, s.vocab);
  std::vector<Eigen::Triplet<float>> ones;
  for (Index k = 0; k < s.n; ++k) ones.emplace_back(k, ids[static_cast<std::size_t>(k)], 1.0f);
  onehot.setFromTriplets(ones.begin(), ones.end());
  Matrix out(s.n, s.dim);
  for (auto _ : state) {
    out.noalias() = onehot * weight;
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  count_rows(state, s);
}

// cblas_sgemm on the same row-major operands as onehot_product, with `threads` threads
// (0: OpenBLAS's default, all cores).
void sgemm_openblas(benchmark::State& state, int threads) {
  const Shape s = shape_of(state);
  if (skip_slow_product(state, product_multiply_adds(s))) return;
  const Matrix& weight = random_table(s.vocab, s.dim);
  const Matrix onehot = one_hot(random_ids(s.vocab, s.n), s.vocab);
  const int default_threads = openblas_get_num_threads();
  openblas_set_num_threads(threads > 0 ? threads : default_threads);
  Matrix out(s.n, s.dim);
  const auto n = static_cast<int>(s.n), d = static_cast<int>(s.dim), v = static_cast<int>(s.vocab);
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, d, v, 1.0f, onehot.data(), v,
                weight.data(), d, 0.0f, out.data(), d);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  openblas_set_num_threads(default_threads);
  count_rows(state, s);
  count_flops(state, product_multiply_adds(s));
}

void BM_sgemm_openblas_1thread(benchmark::State& state) { sgemm_openblas(state, 1); }
void BM_sgemm_openblas(benchmark::State& state) { sgemm_openblas(state, 0); }

BENCHMARK(BM_one_hot)->Apply(shape_sweep);
BENCHMARK(BM_onehot_product)->Apply(shape_sweep);
BENCHMARK(BM_onehot_sparse)->Apply(shape_sweep);
BENCHMARK(BM_sgemm_openblas_1thread)->Apply(shape_sweep);
BENCHMARK(BM_sgemm_openblas)->Apply(shape_sweep);

}  // namespace
}  // namespace embedlab::bench
