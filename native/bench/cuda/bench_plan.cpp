#include "bench_plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace embedlab::cuda::bench {
namespace {

std::uint64_t u(Index x) { return static_cast<std::uint64_t>(x); }

std::string gib(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GiB", static_cast<double>(bytes) / (1u << 30));
  return text;
}

}  // namespace

int calls_for(double seconds_per_call, double target_seconds, int max_calls) {
  if (!(seconds_per_call > 0.0)) return max_calls;  // too short for the events to see
  const double calls = std::round(target_seconds / seconds_per_call);
  return static_cast<int>(std::clamp(calls, 1.0, static_cast<double>(max_calls)));
}

std::uint64_t copy_bytes(const Shape& s, int element_bytes) {
  return 2 * u(s.n) * u(s.dim) * u(element_bytes);
}

std::uint64_t gather_bytes(const Shape& s, int element_bytes) {
  return (u(s.vocab) + u(s.n)) * u(s.dim) * u(element_bytes) + 8 * u(s.n);
}

std::uint64_t onehot_fill_bytes(const Shape& s) { return u(s.n) * u(s.vocab) * 4 + 8 * u(s.n); }

std::uint64_t onehot_product_bytes(const Shape& s, int element_bytes) {
  return (u(s.n) * u(s.vocab) + u(s.vocab) * u(s.dim) + u(s.n) * u(s.dim)) * u(element_bytes) +
         8 * u(s.n);
}

std::uint64_t backward_bytes(const Shape& s) {
  // grad_weight (V, d) and G (n, d) in float32; ids, sorted ids, positions and sorted positions
  // (int64); per-row counts (int32); cub's radix-sort scratch, about the size of its inputs.
  return (u(s.vocab) + u(s.n)) * u(s.dim) * 4 + 4 * 8 * u(s.n) + 4 * u(s.vocab) + 32 * u(s.n);
}

std::string memory_shortfall(std::uint64_t needed, std::uint64_t free_bytes) {
  if (needed + kReservedBytes <= free_bytes) return "";
  return "skipped: needs " + gib(needed) + " of device memory, " + gib(free_bytes) + " free (" +
         gib(kReservedBytes) + " kept in reserve)";
}

double product_flops(const Shape& s) {
  return 2.0 * static_cast<double>(s.n) * static_cast<double>(s.vocab) * static_cast<double>(s.dim);
}

double wasted_flops(const Shape& s) {
  return 2.0 * static_cast<double>(s.n) * static_cast<double>(s.vocab - 1) *
         static_cast<double>(s.dim);
}

}  // namespace embedlab::cuda::bench
