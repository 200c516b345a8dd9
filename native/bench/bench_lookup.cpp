// The lookup route: embedlab::lookup (validation + allocation + kernel), the bare gather_rows
// kernel, a plain row-by-row memcpy loop (the version gather_rows improves on), gather_rows
// split over two threads, and one contiguous memcpy of the same output bytes: the physical
// floor for a lookup.
//
// Two regimes. "warm" (the sweep): every call gathers the same n random rows, which then sit
// in the caches, like the memcpy floor's source. "cold" (V = 50257 only): each call gathers
// the next of 64 batches of n random ids, ~75% of the 154 MB table, so rows come from DRAM;
// its memcpy floor copies the next of up to 48 disjoint row blocks of the same table.
#include <cstring>
#include <thread>

#include "bench_inputs.hpp"
#include "embedlab/lookup.hpp"

namespace embedlab::bench {
namespace {

constexpr Index kWarmBatches = 1;
constexpr Index kColdBatches = 64;

// The reference kernel: one memcpy per row, no prefetching, one thread.
void copy_rows_one_by_one(const float* weight, Index dim, const std::int64_t* ids, Index n,
                          float* out) {
  const auto row_bytes = static_cast<std::size_t>(dim) * sizeof(float);
  for (Index k = 0; k < n; ++k) std::memcpy(out + k * dim, weight + ids[k] * dim, row_bytes);
}

// gather_rows with the first half of the rows on a second thread (started per call).
void gather_rows_two_threads(const float* weight, Index dim, const std::int64_t* ids, Index n,
                             float* out) {
  const Index half = n / 2;
  std::thread helper(gather_rows, weight, dim, ids, half, out);
  gather_rows(weight, dim, ids + half, n - half, out + half * dim);
  helper.join();
}

using Kernel = void (*)(const float*, Index, const std::int64_t*, Index, float*);

// Times `kernel` over `batches` batches of n ids (one batch per call, round robin), after
// checking its output against the one-by-one reference on the first batch.
void time_kernel(benchmark::State& state, Kernel kernel, Index batches) {
  const Shape s = shape_of(state);
  const Matrix& weight = random_table(s.vocab, s.dim);
  const Ids& ids = random_ids(s.vocab, s.n * batches);
  Matrix expected(s.n, s.dim), out(s.n, s.dim);
  copy_rows_one_by_one(weight.data(), s.dim, ids.data(), s.n, expected.data());
  kernel(weight.data(), s.dim, ids.data(), s.n, out.data());
  if (out != expected) {
    state.SkipWithError("the kernel's rows differ from the row-by-row reference");
    return;
  }
  Index batch = 0;
  for (auto _ : state) {
    kernel(weight.data(), s.dim, ids.data() + batch * s.n, s.n, out.data());
    batch = (batch + 1) % batches;
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  count_rows(state, s);
}

// One contiguous memcpy of n * d floats from the first n rows of a table (warm), or from
// successive disjoint n-row blocks of the (V, d) table (cold).
void time_memcpy(benchmark::State& state, Index batches) {
  const Shape s = shape_of(state);
  const Matrix& source = random_table(std::max(s.vocab, s.n), s.dim);
  const Index blocks = std::max<Index>(1, std::min(batches, source.rows() / s.n));
  Matrix out(s.n, s.dim);
  Index block = 0;
  for (auto _ : state) {
    std::memcpy(out.data(), source.row(block * s.n).data(),
                static_cast<std::size_t>(out.size()) * sizeof(float));
    block = (block + 1) % blocks;
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  count_rows(state, s);
}

void BM_memcpy_floor(benchmark::State& state) { time_memcpy(state, kWarmBatches); }
void BM_row_copy_loop(benchmark::State& state) {
  time_kernel(state, copy_rows_one_by_one, kWarmBatches);
}
void BM_gather_rows(benchmark::State& state) { time_kernel(state, gather_rows, kWarmBatches); }
void BM_gather_rows_2threads(benchmark::State& state) {
  time_kernel(state, gather_rows_two_threads, kWarmBatches);
}

void BM_memcpy_floor_cold(benchmark::State& state) { time_memcpy(state, kColdBatches); }
void BM_row_copy_loop_cold(benchmark::State& state) {
  time_kernel(state, copy_rows_one_by_one, kColdBatches);
}
void BM_gather_rows_cold(benchmark::State& state) { time_kernel(state, gather_rows, kColdBatches); }
void BM_gather_rows_2threads_cold(benchmark::State& state) {
  time_kernel(state, gather_rows_two_threads, kColdBatches);
}

// The public entry point: validates the ids and allocates the (n, d) result on every call.
void BM_lookup(benchmark::State& state) {
  const Shape s = shape_of(state);
  const Matrix& weight = random_table(s.vocab, s.dim);
  const Ids& ids = random_ids(s.vocab, s.n);
  for (auto _ : state) {
    Matrix out = lookup(weight, ids);
    benchmark::DoNotOptimize(out.data());
  }
  count_rows(state, s);
}

// The large shapes where the regime and a second thread matter.
void large_shapes(benchmark::internal::Benchmark* b) {
  b->ArgNames({"V", "d", "n"})
      ->Args({50257, 64, 1024})
      ->Args({50257, 768, 1024})
      ->Unit(benchmark::kMicrosecond)
      ->UseRealTime();
}

BENCHMARK(BM_memcpy_floor)->Apply(shape_sweep);
BENCHMARK(BM_row_copy_loop)->Apply(shape_sweep);
BENCHMARK(BM_gather_rows)->Apply(shape_sweep);
BENCHMARK(BM_lookup)->Apply(shape_sweep);
BENCHMARK(BM_gather_rows_2threads)->Apply(large_shapes);
BENCHMARK(BM_memcpy_floor_cold)->Apply(large_shapes);
BENCHMARK(BM_row_copy_loop_cold)->Apply(large_shapes);
BENCHMARK(BM_gather_rows_cold)->Apply(large_shapes);
BENCHMARK(BM_gather_rows_2threads_cold)->Apply(large_shapes);

}  // namespace
}  // namespace embedlab::bench
