// The CUDA kernels over the CPU suite's sweep, on the CPU suite's tables and ids
// (native/bench/bench_inputs): both gathers, building the one-hot matrix, the one-hot SGEMM,
// and both backward versions. Each call is timed alone between two CUDA events; before each
// repetition a buffer twice the size of L2 is overwritten, so no repetition finds the previous
// one's data in cache. Counters: GB/s (the bytes the operation must move, over the time) and
// of_copy (that as a fraction of this device's cudaMemcpy device-to-device bandwidth, measured
// at start-up in the same run). Without a device it says so and exits 0.
#include <benchmark/benchmark.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <exception>
#include <iostream>
#include <memory>
#include <string>

#include "bench_inputs.hpp"
#include "cuda_backend.hpp"
#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "embedding_backward.cuh"
#include "embedlab/backward.hpp"
#include "embedlab/lookup.hpp"
#include "gather.cuh"
#include "onehot_gemm.cuh"

namespace embedlab::cuda {
namespace {

using embedlab::bench::random_ids;
using embedlab::bench::random_table;
using embedlab::bench::Shape;
using embedlab::bench::shape_of;

// What every benchmark shares, set up once in main().
class Device {
 public:
  Device() {
    check_cuda(cudaStreamCreate(&stream_), "cudaStreamCreate");
    check_cublas(cublasCreate(&blas_), "cublasCreate");
    check_cublas(cublasSetStream(blas_, stream_), "cublasSetStream");
    check_cublas(cublasSetMathMode(blas_, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
    check_cuda(cudaEventCreate(&start_), "cudaEventCreate");
    check_cuda(cudaEventCreate(&stop_), "cudaEventCreate");
    int l2_bytes = 0;
    check_cuda(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, 0), "reading the L2 size");
    flush_ = DeviceBuffer<unsigned char>(2 * static_cast<std::size_t>(l2_bytes));
    copy_bytes_per_second_ = measure_copy_bandwidth();
    cudaDeviceProp prop{};
    check_cuda(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    benchmark::AddCustomContext("cuda_device", prop.name);
    benchmark::AddCustomContext("cuda_l2_bytes", std::to_string(l2_bytes));
    benchmark::AddCustomContext("cuda_copy_GBps", std::to_string(copy_bytes_per_second_ / 1e9));
  }
  ~Device() {
    cudaEventDestroy(stop_);
    cudaEventDestroy(start_);
    cublasDestroy(blas_);
    cudaStreamDestroy(stream_);
  }

  cudaStream_t stream() const { return stream_; }
  cublasHandle_t blas() const { return blas_; }

  // Seconds that op() takes on the stream, starting from a cold L2.
  template <typename Op>
  double time_cold(Op op) {
    check_cuda(cudaMemsetAsync(flush_.data(), ++flushes_ & 0xff, flush_.bytes(), stream_),
               "flushing L2");
    check_cuda(cudaEventRecord(start_, stream_), "cudaEventRecord");
    op();
    check_cuda(cudaEventRecord(stop_, stream_), "cudaEventRecord");
    check_cuda(cudaEventSynchronize(stop_), "cudaEventSynchronize");
    float ms = 0.0f;
    check_cuda(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
    return ms / 1e3;
  }

  double copy_bytes_per_second() const { return copy_bytes_per_second_; }

 private:
  // The best of several 512 MiB device-to-device copies; each byte is read once and written once.
  double measure_copy_bandwidth() {
    constexpr std::size_t kBytes = std::size_t{512} << 20;
    DeviceBuffer<unsigned char> from(kBytes);
    DeviceBuffer<unsigned char> to(kBytes);
    const auto copy = [&] {
      check_cuda(cudaMemcpyAsync(to.data(), from.data(), kBytes, cudaMemcpyDeviceToDevice, stream_),
                 "timing cudaMemcpy");
    };
    check_cuda(cudaMemsetAsync(from.data(), 1, kBytes, stream_), "cudaMemset");
    copy();
    double best = 1e30;
    for (int i = 0; i < 10; ++i) best = std::min(best, time_cold(copy));
    return 2.0 * kBytes / best;
  }

  cudaStream_t stream_ = nullptr;
  cublasHandle_t blas_ = nullptr;
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
  DeviceBuffer<unsigned char> flush_;
  unsigned flushes_ = 0;
  double copy_bytes_per_second_ = 0.0;
};

Device* device = nullptr;

template <typename T>
DeviceBuffer<T> upload(const T* host, std::size_t count) {
  DeviceBuffer<T> buffer(count);
  buffer.upload(host, device->stream());
  return buffer;
}

// Before timing: the device result must equal the CPU core's bit for bit.
bool matches(benchmark::State& state, const DeviceBuffer<float>& result, const Matrix& expected) {
  Matrix got(expected.rows(), expected.cols());
  result.download(got.data(), device->stream());
  check_cuda(cudaStreamSynchronize(device->stream()), "waiting for the GPU");
  if (std::memcmp(got.data(), expected.data(), result.bytes()) == 0) return true;
  state.SkipWithError("the GPU result differs from the CPU core's");
  return false;
}

// Times op over the state's iterations and reports bytes (moved per call) as GB/s and as a
// fraction of the copy bandwidth. Returns the mean seconds per call.
template <typename Op>
double time_iterations(benchmark::State& state, double bytes, Op op) {
  double seconds = 0.0;
  for (auto _ : state) {
    const double t = device->time_cold(op);
    state.SetIterationTime(t);
    seconds += t;
  }
  const double per_second = bytes * static_cast<double>(state.iterations()) / seconds;
  state.counters["GB/s"] = per_second / 1e9;
  state.counters["of_copy"] = per_second / device->copy_bytes_per_second();
  return seconds / static_cast<double>(state.iterations());
}

// A CUDA error inside a benchmark ends that benchmark with the message, not the program.
template <typename Body>
void guarded(benchmark::State& state, Body body) {
  try {
    body();
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

// A lookup on the device, for both routes: the CPU suite's table and ids for the state's shape,
// uploaded, and a buffer for the (n, d) result.
struct DeviceLookup {
  explicit DeviceLookup(const Shape& shape)
      : s(shape),
        weight(random_table(s.vocab, s.dim)),
        ids(random_ids(s.vocab, s.n)),
        w(upload(weight.data(), static_cast<std::size_t>(weight.size()))),
        d_ids(upload(ids.data(), ids.size())),
        out(static_cast<std::size_t>(s.n * s.dim)) {}

  // Before timing: the result on the device must be the CPU core's lookup, bit for bit.
  bool matches_cpu(benchmark::State& state) const {
    return matches(state, out, embedlab::lookup(weight, ids));
  }

  Shape s;
  const Matrix& weight;
  const Ids& ids;
  DeviceBuffer<float> w;
  DeviceBuffer<std::int64_t> d_ids;
  DeviceBuffer<float> out;
};

// Read n rows of d floats and the n ids, write n rows.
double gather_bytes(const Shape& s) { return 4.0 * 2 * s.n * s.dim + 8.0 * s.n; }

using GatherFn = void (*)(const float*, std::int64_t, const std::int64_t*, std::int64_t, float*,
                          cudaStream_t);

void run_gather(benchmark::State& state, GatherFn gather) {
  guarded(state, [&] {
    const DeviceLookup l(shape_of(state));
    const auto op = [&] {
      gather(l.w.data(), l.s.dim, l.d_ids.data(), l.s.n, l.out.data(), device->stream());
    };
    op();
    if (!l.matches_cpu(state)) return;
    time_iterations(state, gather_bytes(l.s), op);
  });
}

void BM_cuda_gather_naive(benchmark::State& state) { run_gather(state, gather_rows_naive); }
void BM_cuda_gather_vec4(benchmark::State& state) { run_gather(state, gather_rows_vec4); }

void BM_cuda_one_hot_fill(benchmark::State& state) {
  guarded(state, [&] {
    const Shape s = shape_of(state);
    const Ids& ids = random_ids(s.vocab, s.n);
    const auto d_ids = upload(ids.data(), ids.size());
    DeviceBuffer<float> onehot(static_cast<std::size_t>(s.n * s.vocab));
    const auto op = [&] {
      fill_one_hot(d_ids.data(), s.n, s.vocab, onehot.data(), device->stream());
    };
    time_iterations(state, 4.0 * s.n * s.vocab, op);  // writes the (n, V) matrix
  });
}

void BM_cuda_onehot_gemm(benchmark::State& state) {
  guarded(state, [&] {
    const DeviceLookup l(shape_of(state));
    const Shape& s = l.s;
    DeviceBuffer<float> onehot(static_cast<std::size_t>(s.n * s.vocab));
    fill_one_hot(l.d_ids.data(), s.n, s.vocab, onehot.data(), device->stream());
    const auto op = [&] {
      onehot_gemm(device->blas(), onehot.data(), l.w.data(), s.n, s.vocab, s.dim, l.out.data());
    };
    op();
    if (!l.matches_cpu(state)) return;
    // Reads both operands once and writes the result: the least any GEMM can move.
    const double seconds =
        time_iterations(state, 4.0 * (s.n * s.vocab + s.vocab * s.dim + s.n * s.dim), op);
    state.counters["GFLOP/s"] = 2.0 * s.n * s.vocab * s.dim / seconds / 1e9;
  });
}

void run_backward(benchmark::State& state, bool deterministic) {
  guarded(state, [&] {
    const Shape s = shape_of(state);
    const Ids& ids = random_ids(s.vocab, s.n);
    // The table's first n rows serve as the upstream gradient (n, d).
    const Matrix grad_output = random_table(std::max(s.vocab, s.n), s.dim).topRows(s.n);
    const auto d_ids = upload(ids.data(), ids.size());
    const auto grad = upload(grad_output.data(), static_cast<std::size_t>(grad_output.size()));
    DeviceBuffer<float> grad_weight(static_cast<std::size_t>(s.vocab * s.dim));
    BackwardWorkspace workspace(s.n, s.vocab);
    BackwardProblem p;
    p.ids = d_ids.data();
    p.grad_output = grad.data();
    p.grad_weight = grad_weight.data();
    p.n = s.n;
    p.vocab = s.vocab;
    p.dim = s.dim;
    const auto op = [&] {
      if (deterministic)
        embedding_backward_deterministic(p, workspace, device->stream());
      else
        embedding_backward_atomic(p, workspace, device->stream());
    };
    op();
    if (deterministic &&
        !matches(state, grad_weight, embedlab::embedding_backward(ids, grad_output, s.vocab)))
      return;
    // Zero the (V, d) gradient, read G and the ids, write at most n rows.
    time_iterations(state, 4.0 * (s.vocab * s.dim + 2 * s.n * s.dim) + 8.0 * s.n, op);
  });
}

void BM_cuda_backward_deterministic(benchmark::State& state) { run_backward(state, true); }
void BM_cuda_backward_atomic(benchmark::State& state) { run_backward(state, false); }

// The CPU suite's sweep (native/bench: shape_sweep), timed by CUDA events instead of the clock.
void cuda_sweep(benchmark::internal::Benchmark* b, std::vector<std::int64_t> dims) {
  b->ArgNames({"V", "d", "n"})
      ->ArgsProduct({{4, 1000, 8192, 50257}, std::move(dims), {3, 64, 1024}})
      ->Unit(benchmark::kMicrosecond)
      ->UseManualTime();
}

void all_dims(benchmark::internal::Benchmark* b) { cuda_sweep(b, {5, 64, 768}); }
void dims_divisible_by_4(benchmark::internal::Benchmark* b) { cuda_sweep(b, {64, 768}); }

BENCHMARK(BM_cuda_gather_naive)->Apply(all_dims);
BENCHMARK(BM_cuda_gather_vec4)->Apply(dims_divisible_by_4);
BENCHMARK(BM_cuda_one_hot_fill)->Apply(all_dims);
BENCHMARK(BM_cuda_onehot_gemm)->Apply(all_dims);
BENCHMARK(BM_cuda_backward_deterministic)->Apply(all_dims);
BENCHMARK(BM_cuda_backward_atomic)->Apply(all_dims);

}  // namespace
}  // namespace embedlab::cuda

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  const std::string why = embedlab::cuda::device_unavailable_reason();
  if (!why.empty()) {
    std::cout << "embedlab_bench_cuda: no CUDA device here (" << why
              << "); nothing to benchmark. Run it on a machine with an NVIDIA GPU.\n";
    return 0;
  }
  try {
    const auto device = std::make_unique<embedlab::cuda::Device>();
    embedlab::cuda::device = device.get();
    benchmark::RunSpecifiedBenchmarks();
  } catch (const std::exception& e) {
    std::cerr << "embedlab_bench_cuda: " << e.what() << "\n";
    return 1;
  }
  benchmark::Shutdown();
  return 0;
}
