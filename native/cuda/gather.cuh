#pragma once
// The lookup's row gather on the device: out (n, dim) row k = weight (vocab, dim) row ids[k].
// Both versions run one thread per output element over a flat grid, so all n rows are in
// flight at once and the memory system sees n * dim independent requests:
//   naive: 4-byte loads and stores, any dim; the reference the fast version is tested against.
//   vec4:  16-byte float4 loads and stores (a quarter of the instructions and transactions);
//          needs dim % 4 == 0 and 16-byte aligned weight and out.
// Callers have checked ids against vocab; n * dim must be below 2^31 (the core's limits keep it
// under 2^29). Empty work launches nothing. Launch failures throw CudaError.
#include <cuda_runtime_api.h>

#include <cstdint>

namespace embedlab::cuda {

void gather_rows_naive(const float* weight, std::int64_t dim, const std::int64_t* ids,
                       std::int64_t n, float* out, cudaStream_t stream);

void gather_rows_vec4(const float* weight, std::int64_t dim, const std::int64_t* ids,
                      std::int64_t n, float* out, cudaStream_t stream);

// Whether gather_rows_vec4 may run on these pointers and this width.
bool vec4_applicable(const float* weight, std::int64_t dim, const float* out);

// vec4 where applicable, naive otherwise.
void gather_rows(const float* weight, std::int64_t dim, const std::int64_t* ids, std::int64_t n,
                 float* out, cudaStream_t stream);

}  // namespace embedlab::cuda
