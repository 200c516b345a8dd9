#pragma once
// Inputs and bookkeeping shared by the benchmark suites: the (V, d, n) sweep, random tables and
// ids from one fixed seed, throughput counters, and the rule that skips cases too slow to time.
#include <benchmark/benchmark.h>

#include "embedlab/matrix.hpp"

namespace embedlab::bench {

// Registers the sweep V in {4, 1000, 8192, 50257} x d in {5, 64, 768} x n in {3, 64, 1024},
// named "V:.../d:.../n:..." so the run script can read the shape back from the name.
void shape_sweep(benchmark::internal::Benchmark* b);

struct Shape {
  Index vocab, dim, n;
};
Shape shape_of(const benchmark::State& state);

// (vocab, dim) uniform in [-1, 1); the same values for the same shape in every run and suite.
// Cached: a sweep pays for each table once (the largest is 50257 x 768 = 154 MB).
const Matrix& random_table(Index vocab, Index dim);
// n ids uniform in [0, vocab), seeded by the shape, so every suite gathers the same rows.
const Ids& random_ids(Index vocab, Index n);

// items/s = rows produced (n per call); bytes/s = output bytes (n * d * 4 per call), the
// same definition for every method so their bytes/s compare directly with the memcpy floor.
void count_rows(benchmark::State& state, const Shape& s);
// Adds a FLOP/s counter for a dense product that performs multiply_adds per call.
void count_flops(benchmark::State& state, double multiply_adds);

// A dense product that would need more than a few seconds per call is skipped with a
// message (the JSON output records it as an error). Returns true when skipped.
bool skip_slow_product(benchmark::State& state, double multiply_adds);

}  // namespace embedlab::bench
