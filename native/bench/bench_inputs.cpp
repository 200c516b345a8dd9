#include "bench_inputs.hpp"

#include <map>
#include <random>
#include <string>
#include <utility>

namespace embedlab::bench {
namespace {

constexpr std::uint32_t kSeed = 20240607;

// Eigen's one-threaded GEMM does ~7e10 multiply-adds per second with AVX-512 here and ~3.5e10
// with AVX2, so this cap keeps every timed product under ~2 s; the sweep's largest is 3.95e10.
constexpr double kMaxMultiplyAdds = 6e10;

}  // namespace

void shape_sweep(benchmark::internal::Benchmark* b) {
  b->ArgNames({"V", "d", "n"})
      ->ArgsProduct({{4, 1000, 8192, 50257}, {5, 64, 768}, {3, 64, 1024}})
      ->Unit(benchmark::kMicrosecond)
      ->UseRealTime();  // wall time: some kernels use more than one thread
}

Shape shape_of(const benchmark::State& state) {
  return {state.range(0), state.range(1), state.range(2)};
}

const Matrix& random_table(Index vocab, Index dim) {
  static std::map<std::pair<Index, Index>, Matrix> cache;
  auto [it, inserted] = cache.try_emplace({vocab, dim});
  if (inserted) {
    std::seed_seq seed{kSeed, static_cast<std::uint32_t>(vocab), static_cast<std::uint32_t>(dim)};
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    it->second.resize(vocab, dim);
    for (Index i = 0; i < it->second.size(); ++i) it->second.data()[i] = uniform(rng);
  }
  return it->second;
}

const Ids& random_ids(Index vocab, Index n) {
  static std::map<std::pair<Index, Index>, Ids> cache;
  auto [it, inserted] = cache.try_emplace({vocab, n});
  if (inserted) {
    std::seed_seq seed{kSeed + 1, static_cast<std::uint32_t>(vocab), static_cast<std::uint32_t>(n)};
    std::mt19937 rng(seed);
    std::uniform_int_distribution<Index> pick(0, vocab - 1);
    it->second.resize(static_cast<std::size_t>(n));
    for (auto& id : it->second) id = pick(rng);
  }
  return it->second;
}

void count_rows(benchmark::State& state, const Shape& s) {
  state.SetItemsProcessed(state.iterations() * s.n);
  state.SetBytesProcessed(state.iterations() * s.n * s.dim * static_cast<Index>(sizeof(float)));
}

void count_flops(benchmark::State& state, double multiply_adds) {
  state.counters["FLOP/s"] =
      benchmark::Counter(2.0 * multiply_adds * state.iterations(), benchmark::Counter::kIsRate);
}

bool skip_slow_product(benchmark::State& state, double multiply_adds) {
  if (multiply_adds <= kMaxMultiplyAdds) return false;
  state.SkipWithError(("skipped: " + std::to_string(multiply_adds) +
                       " multiply-adds would take more than a few seconds per call")
                          .c_str());
  return true;
}

}  // namespace embedlab::bench
