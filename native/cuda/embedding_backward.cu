#include <cub/device/device_radix_sort.cuh>
#include <stdexcept>
#include <string>

#include "cuda_check.hpp"
#include "embedding_backward.cuh"

namespace embedlab::cuda {
namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned kColumns = 128;  // threads per block along dim in the deterministic sums

// The number of low bits that hold every id in [0, vocab): the sort skips the rest.
int bits_for(std::int64_t vocab) {
  int bits = 1;
  while (bits < 63 && (std::int64_t{1} << bits) < vocab) ++bits;
  return bits;
}

unsigned blocks_for(std::int64_t items) {
  return static_cast<unsigned>((items + kThreads - 1) / kThreads);
}

__global__ void iota_kernel(std::int64_t* out, std::int64_t n) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = i;
}

// Block (s, c) covers sorted position s and columns [c * kColumns, (c + 1) * kColumns). Only
// the first position of each id's run works: it accumulates the run's rows of grad_output in
// increasing position (the stable sort kept that order), from +0.0f, exactly as the CPU's
// embedding_backward: acc + g, or fma(g, scale, acc) with scale = float(1.0 / count) when
// scaling by frequency. The _rn intrinsics keep nvcc from fusing or reordering anything else.
__global__ void sum_runs_kernel(const std::int64_t* __restrict__ sorted_ids,
                                const std::int64_t* __restrict__ sorted_positions, std::int64_t n,
                                const float* __restrict__ grad_output, std::int64_t dim,
                                std::int64_t padding_idx, bool scale_grad_by_freq,
                                float* __restrict__ grad_weight) {
  const std::int64_t s = blockIdx.x;
  const std::int64_t j = blockIdx.y * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  const std::int64_t id = sorted_ids[s];
  if (j >= dim || id == padding_idx || (s > 0 && sorted_ids[s - 1] == id)) return;
  std::int64_t end = s + 1;
  while (end < n && sorted_ids[end] == id) ++end;
  const float scale = static_cast<float>(1.0 / static_cast<double>(end - s));
  float acc = 0.0f;
#pragma unroll 8
  for (std::int64_t t = s; t < end; ++t) {
    const float g = grad_output[sorted_positions[t] * dim + j];
    acc = scale_grad_by_freq ? __fmaf_rn(g, scale, acc) : __fadd_rn(acc, g);
  }
  grad_weight[id * dim + j] = acc;
}

__global__ void count_ids_kernel(const std::int64_t* __restrict__ ids, std::int64_t n,
                                 int* __restrict__ counts) {
  const std::int64_t k = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (k < n) atomicAdd(&counts[ids[k]], 1);
}

// One thread per element of grad_output; counts is null unless scaling by frequency.
__global__ void atomic_add_rows_kernel(const std::int64_t* __restrict__ ids,
                                       const float* __restrict__ grad_output, std::uint32_t dim,
                                       std::uint32_t total, std::int64_t padding_idx,
                                       const int* __restrict__ counts,
                                       float* __restrict__ grad_weight) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= total) return;
  const std::uint32_t k = i / dim;
  const std::int64_t id = ids[k];
  if (id == padding_idx) return;
  float g = grad_output[i];
  if (counts) g *= static_cast<float>(1.0 / static_cast<double>(counts[id]));
  atomicAdd(&grad_weight[id * dim + (i - k * dim)], g);
}

void check_fits(const BackwardProblem& p, std::int64_t n, std::int64_t vocab) {
  if (p.n > n || p.vocab != vocab)
    throw std::invalid_argument("embedding backward: the workspace was made for n <= " +
                                std::to_string(n) + " and vocab = " + std::to_string(vocab));
  if (p.n * p.dim > INT32_MAX)
    throw std::length_error("embedding backward: n * dim must be below 2^31");
}

void zero_grad_weight(const BackwardProblem& p, cudaStream_t stream) {
  check_cuda(cudaMemsetAsync(p.grad_weight, 0,
                             static_cast<std::size_t>(p.vocab * p.dim) * sizeof(float), stream),
             "zeroing the weight gradient");
}

// Ids are non-negative after validation, so sorting them as unsigned keeps their order.
cudaError_t sort_pairs(void* scratch, std::size_t& scratch_bytes, const std::int64_t* ids,
                       std::int64_t* sorted_ids, const std::int64_t* positions,
                       std::int64_t* sorted_positions, std::int64_t n, int bits,
                       cudaStream_t stream) {
  return cub::DeviceRadixSort::SortPairs(scratch, scratch_bytes,
                                         reinterpret_cast<const std::uint64_t*>(ids),
                                         reinterpret_cast<std::uint64_t*>(sorted_ids), positions,
                                         sorted_positions, n, 0, bits, stream);
}

}  // namespace

BackwardWorkspace::BackwardWorkspace(std::int64_t n, std::int64_t vocab)
    : n_(n),
      vocab_(vocab),
      id_bits_(bits_for(vocab)),
      sorted_ids_(static_cast<std::size_t>(n)),
      positions_(static_cast<std::size_t>(n)),
      sorted_positions_(static_cast<std::size_t>(n)),
      counts_(static_cast<std::size_t>(vocab)) {
  std::size_t scratch_bytes = 0;
  check_cuda(
      sort_pairs(nullptr, scratch_bytes, nullptr, nullptr, nullptr, nullptr, n, id_bits_, nullptr),
      "sizing the id sort");
  sort_scratch_ = DeviceBuffer<unsigned char>(scratch_bytes);
  if (n == 0) return;
  iota_kernel<<<blocks_for(n), kThreads>>>(positions_.data(), n);
  check_launch("iota_kernel");
  check_cuda(cudaStreamSynchronize(nullptr), "numbering the positions");
}

void embedding_backward_deterministic(const BackwardProblem& p, BackwardWorkspace& w,
                                      cudaStream_t stream) {
  check_fits(p, w.n_, w.vocab_);
  zero_grad_weight(p, stream);
  if (p.n == 0 || p.dim == 0) return;
  std::size_t scratch_bytes = w.sort_scratch_.bytes();
  check_cuda(sort_pairs(w.sort_scratch_.data(), scratch_bytes, p.ids, w.sorted_ids_.data(),
                        w.positions_.data(), w.sorted_positions_.data(), p.n, w.id_bits_, stream),
             "sorting the ids");
  const dim3 grid(static_cast<unsigned>(p.n),
                  static_cast<unsigned>((p.dim + kColumns - 1) / kColumns));
  sum_runs_kernel<<<grid, kColumns, 0, stream>>>(w.sorted_ids_.data(), w.sorted_positions_.data(),
                                                 p.n, p.grad_output, p.dim, p.padding_idx,
                                                 p.scale_grad_by_freq, p.grad_weight);
  check_launch("sum_runs_kernel");
}

void embedding_backward_atomic(const BackwardProblem& p, BackwardWorkspace& w,
                               cudaStream_t stream) {
  check_fits(p, w.n_, w.vocab_);
  zero_grad_weight(p, stream);
  if (p.n == 0 || p.dim == 0) return;
  if (p.scale_grad_by_freq) {
    check_cuda(cudaMemsetAsync(w.counts_.data(), 0, w.counts_.bytes(), stream),
               "zeroing the id counts");
    count_ids_kernel<<<blocks_for(p.n), kThreads, 0, stream>>>(p.ids, p.n, w.counts_.data());
    check_launch("count_ids_kernel");
  }
  const std::int64_t total = p.n * p.dim;
  atomic_add_rows_kernel<<<blocks_for(total), kThreads, 0, stream>>>(
      p.ids, p.grad_output, static_cast<std::uint32_t>(p.dim), static_cast<std::uint32_t>(total),
      p.padding_idx, p.scale_grad_by_freq ? w.counts_.data() : nullptr, p.grad_weight);
  check_launch("atomic_add_rows_kernel");
}

}  // namespace embedlab::cuda
