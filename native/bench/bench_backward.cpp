// The backward passes: dL/dW (V, d) from an upstream gradient G (n, d). The embedding's
// scatter-add (embedlab::embedding_backward) touches n rows but allocates and zeroes all V;
// the one-hot route's onehot^T x G (embedlab::onehot_backward) is a full (V, n) x (n, d) GEMM.
#include "bench_inputs.hpp"
#include "embedlab/backward.hpp"
#include "embedlab/onehot.hpp"

namespace embedlab::bench {
namespace {

// G: any (n, d) values; a table of n rows from the shared cache serves.
const Matrix& upstream_gradient(const Shape& s) { return random_table(s.n, s.dim); }

void BM_embedding_backward(benchmark::State& state) {
  const Shape s = shape_of(state);
  const Ids& ids = random_ids(s.vocab, s.n);
  const Matrix& grad = upstream_gradient(s);
  for (auto _ : state) {
    Matrix dw = embedding_backward(ids, grad, s.vocab);
    benchmark::DoNotOptimize(dw.data());
  }
  count_rows(state, s);
}

void BM_onehot_backward(benchmark::State& state) {
  const Shape s = shape_of(state);
  const double multiply_adds =
      static_cast<double>(s.vocab) * static_cast<double>(s.n) * static_cast<double>(s.dim);
  if (skip_slow_product(state, multiply_adds)) return;
  const Matrix onehot = one_hot(random_ids(s.vocab, s.n), s.vocab);
  const Matrix& grad = upstream_gradient(s);
  for (auto _ : state) {
    Matrix dw = onehot_backward(onehot, grad);
    benchmark::DoNotOptimize(dw.data());
  }
  count_rows(state, s);
  count_flops(state, multiply_adds);
}

BENCHMARK(BM_embedding_backward)->Apply(shape_sweep);
BENCHMARK(BM_onehot_backward)->Apply(shape_sweep);

}  // namespace
}  // namespace embedlab::bench
