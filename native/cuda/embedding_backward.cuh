#pragma once
// The embedding backward on the device: grad_weight (vocab, dim) = scatter-add of
// grad_output's (n, dim) rows into the rows named by ids. Two versions:
//   deterministic: sort (id, position) pairs by id (stable radix sort), then one thread per
//                  (id, column) sums that id's rows in increasing position, exactly the order
//                  of the CPU's embedding_backward, so the floats are bit-identical.
//   atomic:        one thread per (position, column) does atomicAdd into grad_weight; the
//                  order of the additions, hence the last bits, change from run to run.
// Callers have checked ids against vocab and padding_idx; n * dim must be below 2^31.
#include <cuda_runtime_api.h>

#include <cstdint>

#include "device_buffer.hpp"

namespace embedlab::cuda {

// One backward call; every pointer is device memory.
struct BackwardProblem {
  const std::int64_t* ids = nullptr;   // (n)
  const float* grad_output = nullptr;  // (n, dim)
  float* grad_weight = nullptr;        // (vocab, dim), overwritten
  std::int64_t n = 0;
  std::int64_t vocab = 0;
  std::int64_t dim = 0;
  std::int64_t padding_idx = -1;  // the row in [0, vocab) that receives no gradient; -1: none
  bool scale_grad_by_freq = false;
};

// Device scratch for backward calls with up to n ids and this vocab, allocated once so that
// timed calls allocate nothing.
class BackwardWorkspace {
 public:
  BackwardWorkspace(std::int64_t n, std::int64_t vocab);

 private:
  friend void embedding_backward_deterministic(const BackwardProblem&, BackwardWorkspace&,
                                               cudaStream_t);
  friend void embedding_backward_atomic(const BackwardProblem&, BackwardWorkspace&, cudaStream_t);

  std::int64_t n_;
  std::int64_t vocab_;
  int id_bits_;                                  // radix-sort only the bits ids can use
  DeviceBuffer<std::int64_t> sorted_ids_;        // (n)
  DeviceBuffer<std::int64_t> positions_;         // (n) 0, 1, ..., n-1: the sort's values
  DeviceBuffer<std::int64_t> sorted_positions_;  // (n)
  DeviceBuffer<unsigned char> sort_scratch_;     // cub's temporary storage
  DeviceBuffer<int> counts_;                     // (vocab) ids per row, for scale_grad_by_freq
};

void embedding_backward_deterministic(const BackwardProblem& p, BackwardWorkspace& workspace,
                                      cudaStream_t stream);

void embedding_backward_atomic(const BackwardProblem& p, BackwardWorkspace& workspace,
                               cudaStream_t stream);

}  // namespace embedlab::cuda
