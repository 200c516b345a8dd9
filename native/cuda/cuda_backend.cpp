#include "cuda_backend.hpp"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "embedding_backward.cuh"
#include "embedlab/error.hpp"
#include "embedlab/ids.hpp"
#include "embedlab/limits.hpp"
#include "gather.cuh"
#include "onehot_gemm.cuh"

namespace embedlab::cuda {
namespace {

// Device 0, one stream and one cuBLAS handle for the whole process, created on first use:
// i.e. only after a call's input has passed validation.
class Context {
 public:
  Context() {
    int devices = 0;
    check_cuda(cudaGetDeviceCount(&devices), "looking for a CUDA device");
    if (devices == 0) throw CudaError("looking for a CUDA device: none found");
    check_cuda(cudaStreamCreate(&stream_), "cudaStreamCreate");
    check_cublas(cublasCreate(&blas_), "cublasCreate");
    check_cublas(cublasSetStream(blas_, stream_), "cublasSetStream");
    // Plain FP32 for the FP32 compute type (TF32 would round the weights and the one-hot
    // product would no longer reproduce the lookup); TF32 is asked for per call.
    check_cublas(cublasSetMathMode(blas_, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
  }
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  ~Context() {  // at exit: nothing left to report errors to
    cublasDestroy(blas_);
    cudaStreamDestroy(stream_);
  }

  cudaStream_t stream() const { return stream_; }
  cublasHandle_t blas() const { return blas_; }

 private:
  cudaStream_t stream_ = nullptr;
  cublasHandle_t blas_ = nullptr;
};

Context& context() {
  static Context instance;  // a failed construction throws and is retried on the next call
  return instance;
}

std::size_t count(Index rows, Index cols) { return static_cast<std::size_t>(rows * cols); }

template <typename T>
DeviceBuffer<T> to_device(const T* host, std::size_t n, cudaStream_t stream) {
  DeviceBuffer<T> buffer(n);
  buffer.upload(host, stream);
  return buffer;
}

// The buffer's values into host memory that holds as many, once the stream is done.
template <typename T>
void copy_to_host(const DeviceBuffer<T>& buffer, T* host, cudaStream_t stream) {
  buffer.download(host, stream);
  check_cuda(cudaStreamSynchronize(stream), "waiting for the GPU");
}

Matrix to_host(const DeviceBuffer<float>& buffer, Index rows, Index cols, cudaStream_t stream) {
  Matrix out(rows, cols);
  copy_to_host(buffer, out.data(), stream);
  return out;
}

}  // namespace

std::string device_unavailable_reason() {
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess) {
    cudaGetLastError();
    return std::string("cudaGetDeviceCount failed: ") + cudaGetErrorString(status);
  }
  return devices == 0 ? "cudaGetDeviceCount found no CUDA device" : "";
}

namespace {

const char* dtype_name(const float*) { return "float32"; }
const char* dtype_name(const __nv_bfloat16*) { return "bfloat16"; }
const char* dtype_name(const __half*) { return "float16"; }

// A 2-byte table's values must fill its shape; the float32 Matrix cannot be wrong this way.
template <typename T>
void check_half_table(const HalfMatrix<T>& weight) {
  const std::string table = std::string("a ") + dtype_name(weight.values.data()) + " table of " +
                            std::to_string(weight.rows) + " x " + std::to_string(weight.cols);
  if (weight.rows < 0 || weight.cols < 0)
    throw InputError(Argument::weights, table + ": a size cannot be negative");
  if (weight.values.size() != count(weight.rows, weight.cols))
    throw InputError(Argument::weights, table + " needs " +
                                            std::to_string(weight.rows * weight.cols) +
                                            " values, got " + std::to_string(weight.values.size()));
}

// The checks of embedlab::lookup, and the vectorised kernel's width.
template <typename T>
void check_lookup(Index vocab, Index dim, const Ids& ids, GatherKernel kernel, const T* dtype) {
  check_output_shape(static_cast<Index>(ids.size()), dim);
  check_ids(ids, vocab);
  const auto per_16_bytes = static_cast<Index>(16 / sizeof(T));
  if (kernel == GatherKernel::vectorised && dim % per_16_bytes != 0)
    throw InputError(Argument::dim,
                     std::string("the vectorised gather moves 16 bytes at a time: ") +
                         dtype_name(dtype) + " rows need d % " + std::to_string(per_16_bytes) +
                         " == 0, got d = " + std::to_string(dim));
}

void gather_sixteen_bytes(const float* w, Index dim, const std::int64_t* ids, Index n, float* out,
                          cudaStream_t stream) {
  gather_rows_vec4(w, dim, ids, n, out, stream);
}
void gather_sixteen_bytes(const std::uint16_t* w, Index dim, const std::int64_t* ids, Index n,
                          std::uint16_t* out, cudaStream_t stream) {
  gather_rows_vec8(w, dim, ids, n, out, stream);
}

// The chosen gather over a device copy of weight (vocab, dim) of E (float, or the bits of a
// 2-byte value); the n rows come back into out.
template <typename E>
void gather_on_device(const E* weight, Index vocab, Index dim, const Ids& ids, GatherKernel kernel,
                      E* out) {
  const cudaStream_t stream = context().stream();
  const auto n = static_cast<Index>(ids.size());
  const auto w = to_device(weight, count(vocab, dim), stream);
  const auto d_ids = to_device(ids.data(), ids.size(), stream);
  DeviceBuffer<E> rows(count(n, dim));
  switch (kernel) {
    case GatherKernel::automatic:
      gather_rows(w.data(), dim, d_ids.data(), n, rows.data(), stream);
      break;
    case GatherKernel::naive:
      gather_rows_naive(w.data(), dim, d_ids.data(), n, rows.data(), stream);
      break;
    case GatherKernel::vectorised:
      gather_sixteen_bytes(w.data(), dim, d_ids.data(), n, rows.data(), stream);
      break;
  }
  copy_to_host(rows, out, stream);
}

template <typename T>
HalfMatrix<T> half_lookup(const HalfMatrix<T>& weight, const Ids& ids, GatherKernel kernel) {
  check_half_table(weight);
  check_lookup(weight.rows, weight.cols, ids, kernel, weight.values.data());
  const auto n = static_cast<Index>(ids.size());
  HalfMatrix<T> out{n, weight.cols, std::vector<T>(count(n, weight.cols))};
  static_assert(sizeof(T) == sizeof(std::uint16_t));  // the gather copies the 16 bits
  gather_on_device(reinterpret_cast<const std::uint16_t*>(weight.values.data()), weight.rows,
                   weight.cols, ids, kernel, reinterpret_cast<std::uint16_t*>(out.values.data()));
  return out;
}

}  // namespace

Matrix lookup(const Matrix& weight, const Ids& ids, GatherKernel kernel) {
  check_lookup(weight.rows(), weight.cols(), ids, kernel, weight.data());
  Matrix out(static_cast<Index>(ids.size()), weight.cols());
  gather_on_device(weight.data(), weight.rows(), weight.cols(), ids, kernel, out.data());
  return out;
}

Bf16Matrix lookup(const Bf16Matrix& weight, const Ids& ids, GatherKernel kernel) {
  return half_lookup(weight, ids, kernel);
}

F16Matrix lookup(const F16Matrix& weight, const Ids& ids, GatherKernel kernel) {
  return half_lookup(weight, ids, kernel);
}

Matrix onehot_lookup(const Matrix& weight, const Ids& ids, ProductMath math) {
  const auto n = static_cast<Index>(ids.size());
  const Index vocab = weight.rows();
  check_onehot_shape(n, vocab);
  check_ids(ids, vocab);
  const Context& ctx = context();
  const auto w = to_device(weight.data(), count(vocab, weight.cols()), ctx.stream());
  const auto d_ids = to_device(ids.data(), ids.size(), ctx.stream());
  DeviceBuffer<float> onehot(count(n, vocab));
  DeviceBuffer<float> out(count(n, weight.cols()));
  fill_one_hot(d_ids.data(), n, vocab, onehot.data(), ctx.stream());
  onehot_gemm(ctx.blas(), onehot.data(), w.data(), n, vocab, weight.cols(), out.data(), math);
  return to_host(out, n, weight.cols(), ctx.stream());
}

Bf16Matrix onehot_lookup(const Bf16Matrix& weight, const Ids& ids) {
  check_half_table(weight);
  const auto n = static_cast<Index>(ids.size());
  check_onehot_shape(n, weight.rows);
  check_ids(ids, weight.rows);
  const Context& ctx = context();
  const auto w = to_device(weight.values.data(), weight.values.size(), ctx.stream());
  const auto d_ids = to_device(ids.data(), ids.size(), ctx.stream());
  DeviceBuffer<__nv_bfloat16> onehot(count(n, weight.rows));
  DeviceBuffer<__nv_bfloat16> out(count(n, weight.cols));
  fill_one_hot(d_ids.data(), n, weight.rows, onehot.data(), ctx.stream());
  onehot_gemm(ctx.blas(), onehot.data(), w.data(), n, weight.rows, weight.cols, out.data());
  Bf16Matrix result{n, weight.cols, std::vector<__nv_bfloat16>(out.size())};
  copy_to_host(out, result.values.data(), ctx.stream());
  return result;
}

Matrix embedding_backward(const Ids& ids, const Matrix& grad_output, Index vocab,
                          const EmbeddingOptions& options, BackwardKernel kernel) {
  const Index padding = check_backward_input(ids, grad_output, vocab, options);
  const cudaStream_t stream = context().stream();
  const auto n = static_cast<Index>(ids.size());
  const Index dim = grad_output.cols();
  const auto d_ids = to_device(ids.data(), ids.size(), stream);
  const auto grad = to_device(grad_output.data(), count(n, dim), stream);
  DeviceBuffer<float> grad_weight(count(vocab, dim));
  BackwardWorkspace workspace(n, vocab);
  BackwardProblem problem;
  problem.ids = d_ids.data();
  problem.grad_output = grad.data();
  problem.grad_weight = grad_weight.data();
  problem.n = n;
  problem.vocab = vocab;
  problem.dim = dim;
  problem.padding_idx = padding;
  problem.scale_grad_by_freq = options.scale_grad_by_freq;
  switch (kernel) {
    case BackwardKernel::deterministic:
      embedding_backward_deterministic(problem, workspace, stream);
      break;
    case BackwardKernel::atomic:
      embedding_backward_atomic(problem, workspace, stream);
      break;
  }
  return to_host(grad_weight, vocab, dim, stream);
}

}  // namespace embedlab::cuda
