#include "cuda_backend.hpp"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

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
    // Plain FP32 arithmetic; TF32 would round the weights and the one-hot product would no
    // longer reproduce the lookup.
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

Matrix to_host(const DeviceBuffer<float>& buffer, Index rows, Index cols, cudaStream_t stream) {
  Matrix out(rows, cols);
  buffer.download(out.data(), stream);
  check_cuda(cudaStreamSynchronize(stream), "waiting for the GPU");
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

Matrix lookup(const Matrix& weight, const Ids& ids, GatherKernel kernel) {
  const auto n = static_cast<Index>(ids.size());
  check_id_count(n);
  check_ids(ids, weight.rows());
  if (kernel == GatherKernel::vec4 && weight.cols() % 4 != 0)
    throw InputError(Argument::dim, "the vec4 gather needs d % 4 == 0, got d = " + std::to_string(weight.cols()));
  const cudaStream_t stream = context().stream();
  const auto w = to_device(weight.data(), count(weight.rows(), weight.cols()), stream);
  const auto d_ids = to_device(ids.data(), ids.size(), stream);
  DeviceBuffer<float> out(count(n, weight.cols()));
  switch (kernel) {
    case GatherKernel::automatic:
      gather_rows(w.data(), weight.cols(), d_ids.data(), n, out.data(), stream);
      break;
    case GatherKernel::naive:
      gather_rows_naive(w.data(), weight.cols(), d_ids.data(), n, out.data(), stream);
      break;
    case GatherKernel::vec4:
      gather_rows_vec4(w.data(), weight.cols(), d_ids.data(), n, out.data(), stream);
      break;
  }
  return to_host(out, n, weight.cols(), stream);
}

Matrix onehot_lookup(const Matrix& weight, const Ids& ids) {
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
  onehot_gemm(ctx.blas(), onehot.data(), w.data(), n, vocab, weight.cols(), out.data());
  return to_host(out, n, weight.cols(), ctx.stream());
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
