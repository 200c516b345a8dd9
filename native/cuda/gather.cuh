#pragma once
// The lookup's row gather on the device: out (n, dim) row k = weight (vocab, dim) row ids[k].
// Every version runs one thread per output element over a flat grid, so all n rows are in
// flight at once and the memory system sees n * dim independent requests:
//   naive: one value per thread (4-byte float32, or 2-byte) loads and stores, any dim; the
//          reference the fast versions are tested against.
//   vec4:  float32 rows, one 16-byte float4 per thread (a quarter of the instructions and
//          transactions); needs dim % 4 == 0.
//   vec8:  2-byte rows, eight values (16 bytes) per thread; needs dim % 8 == 0.
// The 16-byte versions also need weight and out 16-byte aligned (cudaMalloc's are).
// 2-byte rows are bfloat16 or float16: a gather copies bits, so one kernel serves both.
// Callers have checked ids against vocab; n * dim must be below 2^31 (the core's limits keep it
// under 2^29). Empty work launches nothing. Launch failures throw CudaError.
#include <cuda_runtime_api.h>

#include <cstdint>

namespace embedlab::cuda {

void gather_rows_naive(const float* weight, std::int64_t dim, const std::int64_t* ids,
                       std::int64_t n, float* out, cudaStream_t stream);
void gather_rows_vec4(const float* weight, std::int64_t dim, const std::int64_t* ids,
                      std::int64_t n, float* out, cudaStream_t stream);

void gather_rows_naive(const std::uint16_t* weight, std::int64_t dim, const std::int64_t* ids,
                       std::int64_t n, std::uint16_t* out, cudaStream_t stream);
void gather_rows_vec8(const std::uint16_t* weight, std::int64_t dim, const std::int64_t* ids,
                      std::int64_t n, std::uint16_t* out, cudaStream_t stream);

// Whether a 16-byte version may run: rows of a multiple of 16 bytes, both buffers aligned.
bool sixteen_byte_rows(const void* weight, std::int64_t row_bytes, const void* out);

// The 16-byte version where it applies, naive otherwise.
void gather_rows(const float* weight, std::int64_t dim, const std::int64_t* ids, std::int64_t n,
                 float* out, cudaStream_t stream);
void gather_rows(const std::uint16_t* weight, std::int64_t dim, const std::int64_t* ids,
                 std::int64_t n, std::uint16_t* out, cudaStream_t stream);

}  // namespace embedlab::cuda
