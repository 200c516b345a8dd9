#pragma once
// The arithmetic of embedlab_bench_cuda that needs no device, so a unit test can check it on any
// machine: how many calls a case times, the device memory a case allocates, and the FLOPs of
// the one-hot product.
#include <cstdint>
#include <string>

#include "bench_inputs.hpp"

namespace embedlab::cuda::bench {

using embedlab::bench::Shape;

// The calls one repetition times: enough to fill target_seconds of device time, given what one
// call took in the calibration (its L2 flush included), rounded to the nearest count; at least
// 1, at most max_calls.
int calls_for(double seconds_per_call, double target_seconds, int max_calls);

// Device bytes each kind of case allocates for shape s, with element_bytes per value (4 for
// float32, 2 for bfloat16); ids are int64.
std::uint64_t copy_bytes(const Shape& s, int element_bytes);            // source and destination
std::uint64_t gather_bytes(const Shape& s, int element_bytes);          // table, ids, rows
std::uint64_t onehot_fill_bytes(const Shape& s);                        // float32 one-hot, ids
std::uint64_t onehot_product_bytes(const Shape& s, int element_bytes);  // one-hot, table, ids, out
std::uint64_t backward_bytes(const Shape& s);  // gradient of W, G, ids and the sort's scratch

// Kept free beside a case: cuBLAS's workspace, CUDA's own allocations.
inline constexpr std::uint64_t kReservedBytes = std::uint64_t{512} << 20;

// "" when `needed` bytes fit in `free_bytes` with kReservedBytes to spare; else why the case is
// skipped, with both sizes in GiB.
std::string memory_shortfall(std::uint64_t needed, std::uint64_t free_bytes);

// 2 n V d: every multiply and add of the one-hot product.
double product_flops(const Shape& s);
// 2 n (V - 1) d: those spent on the zeros of the one-hot matrix.
double wasted_flops(const Shape& s);

}  // namespace embedlab::cuda::bench
