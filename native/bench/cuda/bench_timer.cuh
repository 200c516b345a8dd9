#pragma once
// How embedlab_bench_cuda times a call: from a cold L2, between two CUDA events, many calls per
// host wait.
//
// Before each call a kernel reads a buffer four times the L2's size, so the call finds none of
// its data (nor the previous call's) in L2; a read, not a memset, so the lines it leaves are
// clean and the timed call pays no write-back of the flush's data. Events around the call alone
// keep the flush out of the time. The calls of a batch are queued back to back and the host
// waits once at the end; and the flush (~70 us on an H100) outlasts what even Python needs to
// queue an event and the call, so the device never idles inside the timed interval waiting for
// the host: launch overhead stays out of the events. A batch of 4-microsecond calls costs about
// (flush + call) x calls of device time, nothing more.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <vector>

#include "device_buffer.hpp"

namespace embedlab::cuda::bench {

struct BatchTime {
  double call_seconds;       // mean time of one call, between its own two events
  double iteration_seconds;  // mean device time per call with its flush: what a batch costs
};

class ColdTimer {
 public:
  // flush_bytes: four times the L2 size. max_calls: the longest batch (a pair of events each).
  ColdTimer(cudaStream_t stream, std::size_t flush_bytes, int max_calls);
  ColdTimer(const ColdTimer&) = delete;
  ColdTimer& operator=(const ColdTimer&) = delete;
  ~ColdTimer();

  int max_calls() const { return static_cast<int>(starts_.size()); }

  // Queues `calls` (1..max_calls) times: flush, event, op() on the timer's stream, event; then
  // waits once.
  template <typename Op>
  BatchTime time(Op op, int calls) {
    begin_batch(calls);
    for (int i = 0; i < calls; ++i) {
      flush();
      mark(starts_[static_cast<std::size_t>(i)]);
      op();
      mark(stops_[static_cast<std::size_t>(i)]);
    }
    return end_batch(calls);
  }

 private:
  void begin_batch(int calls);
  void flush();
  void mark(cudaEvent_t event);
  BatchTime end_batch(int calls);

  cudaStream_t stream_;
  DeviceBuffer<uint4> flush_;
  DeviceBuffer<unsigned> sink_;  // written only if the flush's checksum hits a magic value
  std::vector<cudaEvent_t> starts_;
  std::vector<cudaEvent_t> stops_;
  cudaEvent_t batch_start_ = nullptr;
  cudaEvent_t batch_stop_ = nullptr;
};

}  // namespace embedlab::cuda::bench
