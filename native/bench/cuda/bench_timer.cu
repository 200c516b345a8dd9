#include <stdexcept>
#include <string>

#include "bench_timer.cuh"
#include "cuda_check.hpp"

namespace embedlab::cuda::bench {
namespace {

constexpr unsigned kFlushBlocks = 1024;
constexpr unsigned kFlushThreads = 256;

// Reads every 16 bytes of the buffer once. The store depends on all of them, so no load can be
// dropped; it practically never happens, so the flush writes nothing.
__global__ void read_all_kernel(const uint4* __restrict__ buffer, std::size_t count,
                                unsigned* __restrict__ sink) {
  unsigned acc = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const uint4 v = buffer[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x9e3779b9u) *sink = acc;
}

cudaEvent_t new_event() {
  cudaEvent_t event = nullptr;
  check_cuda(cudaEventCreate(&event), "cudaEventCreate");
  return event;
}

double seconds_between(cudaEvent_t start, cudaEvent_t stop) {
  float ms = 0.0f;
  check_cuda(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
  return static_cast<double>(ms) / 1e3;
}

}  // namespace

ColdTimer::ColdTimer(cudaStream_t stream, std::size_t flush_bytes, int max_calls)
    : stream_(stream), flush_((flush_bytes + 15) / 16), sink_(1) {
  check_cuda(cudaMemsetAsync(flush_.data(), 0x5a, flush_.bytes(), stream_), "filling the flush");
  for (int i = 0; i < max_calls; ++i) {
    starts_.push_back(new_event());
    stops_.push_back(new_event());
  }
  batch_start_ = new_event();
  batch_stop_ = new_event();
}

ColdTimer::~ColdTimer() {
  for (const cudaEvent_t event : starts_) cudaEventDestroy(event);
  for (const cudaEvent_t event : stops_) cudaEventDestroy(event);
  cudaEventDestroy(batch_start_);
  cudaEventDestroy(batch_stop_);
}

void ColdTimer::begin_batch(int calls) {
  if (calls < 1 || calls > max_calls())
    throw std::invalid_argument("a batch of " + std::to_string(calls) + " calls: 1 to " +
                                std::to_string(max_calls()) + " can be timed");
  mark(batch_start_);
}

void ColdTimer::flush() {
  read_all_kernel<<<kFlushBlocks, kFlushThreads, 0, stream_>>>(flush_.data(), flush_.size(),
                                                               sink_.data());
  check_launch("read_all_kernel (L2 flush)");
}

void ColdTimer::mark(cudaEvent_t event) {
  check_cuda(cudaEventRecord(event, stream_), "cudaEventRecord");
}

BatchTime ColdTimer::end_batch(int calls) {
  mark(batch_stop_);
  check_cuda(cudaEventSynchronize(batch_stop_), "waiting for the timed calls");
  double sum = 0.0;
  for (int i = 0; i < calls; ++i)
    sum +=
        seconds_between(starts_[static_cast<std::size_t>(i)], stops_[static_cast<std::size_t>(i)]);
  return {sum / calls, seconds_between(batch_start_, batch_stop_) / calls};
}

}  // namespace embedlab::cuda::bench
