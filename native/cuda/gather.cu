#include <cstdint>
#include <stdexcept>
#include <string>

#include "cuda_check.hpp"
#include "gather.cuh"

namespace embedlab::cuda {
namespace {

constexpr unsigned kThreads = 256;

// T is what one thread moves: float, std::uint16_t (naive) or a 16-byte float4 or uint4; width
// is dim in units of T. i < n * width.
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

// Rows of Element moved as 16-byte Vectors.
template <typename Vector, typename Element>
void launch_sixteen_bytes(const Element* weight, std::int64_t dim, const std::int64_t* ids,
                          std::int64_t n, Element* out, cudaStream_t stream, const char* name) {
  static_assert(sizeof(Vector) == 16 && sizeof(Vector) % sizeof(Element) == 0);
  if (!sixteen_byte_rows(weight, dim * static_cast<std::int64_t>(sizeof(Element)), out))
    throw std::invalid_argument(
        std::string(name) + " needs rows of a multiple of 16 bytes and 16-byte aligned buffers");
  constexpr auto per_vector = static_cast<std::int64_t>(sizeof(Vector) / sizeof(Element));
  launch(reinterpret_cast<const Vector*>(weight), dim / per_vector, ids, n,
         reinterpret_cast<Vector*>(out), stream, name);
}

}  // namespace

void gather_rows_naive(const float* weight, std::int64_t dim, const std::int64_t* ids,
                       std::int64_t n, float* out, cudaStream_t stream) {
  launch(weight, dim, ids, n, out, stream, "gather_rows_naive (float32)");
}

void gather_rows_vec4(const float* weight, std::int64_t dim, const std::int64_t* ids,
                      std::int64_t n, float* out, cudaStream_t stream) {
  launch_sixteen_bytes<float4>(weight, dim, ids, n, out, stream, "gather_rows_vec4");
}

void gather_rows_naive(const std::uint16_t* weight, std::int64_t dim, const std::int64_t* ids,
                       std::int64_t n, std::uint16_t* out, cudaStream_t stream) {
  launch(weight, dim, ids, n, out, stream, "gather_rows_naive (2-byte)");
}

void gather_rows_vec8(const std::uint16_t* weight, std::int64_t dim, const std::int64_t* ids,
                      std::int64_t n, std::uint16_t* out, cudaStream_t stream) {
  launch_sixteen_bytes<uint4>(weight, dim, ids, n, out, stream, "gather_rows_vec8");
}

bool sixteen_byte_rows(const void* weight, std::int64_t row_bytes, const void* out) {
  const auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  return row_bytes % 16 == 0 && aligned(weight) && aligned(out);
}

void gather_rows(const float* weight, std::int64_t dim, const std::int64_t* ids, std::int64_t n,
                 float* out, cudaStream_t stream) {
  if (sixteen_byte_rows(weight, dim * static_cast<std::int64_t>(sizeof(float)), out))
    gather_rows_vec4(weight, dim, ids, n, out, stream);
  else
    gather_rows_naive(weight, dim, ids, n, out, stream);
}

void gather_rows(const std::uint16_t* weight, std::int64_t dim, const std::int64_t* ids,
                 std::int64_t n, std::uint16_t* out, cudaStream_t stream) {
  if (sixteen_byte_rows(weight, dim * static_cast<std::int64_t>(sizeof(std::uint16_t)), out))
    gather_rows_vec8(weight, dim, ids, n, out, stream);
  else
    gather_rows_naive(weight, dim, ids, n, out, stream);
}

}  // namespace embedlab::cuda
