#include <cstdint>
#include <stdexcept>
#include <string>

#include "cuda_check.hpp"
#include "gather.cuh"

namespace embedlab::cuda {
namespace {

constexpr unsigned kThreads = 256;

// T is float (naive) or float4 (vec4); width is dim in units of T. i < n * width.
template <typename T>
__global__ void gather_rows_kernel(const T* __restrict__ weight, std::uint32_t width,
                                   const std::int64_t* __restrict__ ids, std::uint32_t total,
                                   T* __restrict__ out) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= total) return;
  const std::uint32_t k = i / width;  // output row; 32-bit division is several times cheaper
  const std::uint32_t j = i - k * width;
  out[i] = weight[static_cast<std::uint64_t>(ids[k]) * width + j];
}

template <typename T>
void launch(const T* weight, std::int64_t width, const std::int64_t* ids, std::int64_t n, T* out,
            cudaStream_t stream, const char* name) {
  const std::int64_t total = n * width;
  if (total == 0) return;
  if (total > INT32_MAX)
    throw std::length_error(std::string(name) + ": n * dim must be below 2^31");
  const auto blocks = static_cast<unsigned>((total + kThreads - 1) / kThreads);
  gather_rows_kernel<T><<<blocks, kThreads, 0, stream>>>(
      weight, static_cast<std::uint32_t>(width), ids, static_cast<std::uint32_t>(total), out);
  check_launch(name);
}

}  // namespace

void gather_rows_naive(const float* weight, std::int64_t dim, const std::int64_t* ids,
                       std::int64_t n, float* out, cudaStream_t stream) {
  launch(weight, dim, ids, n, out, stream, "gather_rows_naive");
}

void gather_rows_vec4(const float* weight, std::int64_t dim, const std::int64_t* ids,
                      std::int64_t n, float* out, cudaStream_t stream) {
  if (!vec4_applicable(weight, dim, out))
    throw std::invalid_argument("gather_rows_vec4 needs dim % 4 == 0 and 16-byte aligned buffers");
  launch(reinterpret_cast<const float4*>(weight), dim / 4, ids, n, reinterpret_cast<float4*>(out),
         stream, "gather_rows_vec4");
}

bool vec4_applicable(const float* weight, std::int64_t dim, const float* out) {
  const auto aligned = [](const float* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  return dim % 4 == 0 && aligned(weight) && aligned(out);
}

void gather_rows(const float* weight, std::int64_t dim, const std::int64_t* ids, std::int64_t n,
                 float* out, cudaStream_t stream) {
  if (vec4_applicable(weight, dim, out))
    gather_rows_vec4(weight, dim, ids, n, out, stream);
  else
    gather_rows_naive(weight, dim, ids, n, out, stream);
}

}  // namespace embedlab::cuda
