// The CUDA kernels over the CPU suite's sweep (native/bench/bench_inputs: same tables, same ids)
// plus training and inference sizes: the same-bytes copy (the floor), both float32 gathers and
// the bfloat16 one, building the one-hot matrix, the one-hot product in FP32, TF32 and bfloat16,
// and both backward versions.
//
// Timing (bench_timer.cuh): every call starts from a cold L2 and is timed alone by two CUDA
// events. A case first checks its result against the CPU core once, then a calibration times
// one call (and three more if it is short) and fixes the number of calls that fills about
// --cuda_case_ms of device time, flushes included; every repetition of the case times that many.
// Google Benchmark runs one iteration per repetition, whose time is the mean per call, so
// --benchmark_repetitions=3 gives three means and their median.
//
// Counters: calls; GB/s, the bytes the operation must move over its time; of_copy, the time of
// a cudaMemcpyAsync of the case's n * d output values (timed the same way in this run) over
// this call's time: 1 is as fast as copying the result; GFLOP/s and wasted_FLOP (2 n (V - 1) d,
// the work spent on zeros) for the one-hot products; differing, the fraction of result values
// whose bits differ from the lookup's (0 except under TF32, where the label says which rounding
// of W the result equals).
//
// Without a device it says so and exits 0 (listing the cases needs none).
#include <benchmark/benchmark.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <exception>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "bench_inputs.hpp"
#include "bench_plan.hpp"
#include "bench_timer.cuh"
#include "cuda_backend.hpp"
#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "embedding_backward.cuh"
#include "embedlab/backward.hpp"
#include "embedlab/lookup.hpp"
#include "gather.cuh"
#include "half_matrix.hpp"
#include "onehot_gemm.cuh"
#include "tf32_reference.hpp"

namespace embedlab::cuda::bench {
namespace {

using embedlab::bench::random_ids;
using embedlab::bench::random_table;
using embedlab::bench::shape_of;

// The training sizes exceed the core's 2^26-value cap on one matrix, which bounds what a
// learner can request, not what a benchmark compares against.
constexpr Limits kBenchLimits{65536, 1 << 20, 8192, Index{1} << 40};

constexpr int kMaxCalls = 2000;

// What every case shares, set up once in main().
class Bench {
 public:
  explicit Bench(double case_seconds) : case_seconds_(case_seconds) {
    check_cuda(cudaStreamCreate(&stream_), "cudaStreamCreate");
    check_cublas(cublasCreate(&blas_), "cublasCreate");
    check_cublas(cublasSetStream(blas_, stream_), "cublasSetStream");
    check_cublas(cublasSetMathMode(blas_, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
    int l2_bytes = 0;
    check_cuda(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, 0), "reading the L2 size");
    timer_ =
        std::make_unique<ColdTimer>(stream_, 4 * static_cast<std::size_t>(l2_bytes), kMaxCalls);
    record_context(l2_bytes);
  }
  Bench(const Bench&) = delete;
  Bench& operator=(const Bench&) = delete;
  ~Bench() {
    timer_.reset();
    cublasDestroy(blas_);
    cudaStreamDestroy(stream_);
  }

  cudaStream_t stream() const { return stream_; }
  cublasHandle_t blas() const { return blas_; }

  // The calls each repetition of case `key` times, calibrated on its first use.
  template <typename Op>
  int calls(const std::string& key, Op op) {
    const auto found = calls_.find(key);
    if (found != calls_.end()) return found->second;
    double per_call = timer_->time(op, 1).iteration_seconds;
    if (per_call < case_seconds_) per_call = timer_->time(op, 3).iteration_seconds;
    return calls_[key] = calls_for(per_call, case_seconds_, kMaxCalls);
  }

  template <typename Op>
  BatchTime time(Op op, int calls) {
    return timer_->time(op, calls);
  }

  // Mean seconds of a device-to-device copy of `bytes`, timed as the cases are; 0 when there is
  // not the memory for it. Measured once per size.
  double copy_seconds(std::uint64_t bytes) {
    const auto found = copies_.find(bytes);
    if (found != copies_.end()) return found->second;
    double seconds = 0.0;
    if (memory_shortfall(2 * bytes, free_bytes()).empty()) {
      DeviceBuffer<unsigned char> from(bytes);
      DeviceBuffer<unsigned char> to(bytes);
      const auto copy = [&] { copy_async(to, from); };
      copy();
      seconds = time(copy, calls("copy/" + std::to_string(bytes), copy)).call_seconds;
    }
    return copies_[bytes] = seconds;
  }

  void copy_async(DeviceBuffer<unsigned char>& to, const DeviceBuffer<unsigned char>& from) const {
    check_cuda(
        cudaMemcpyAsync(to.data(), from.data(), from.bytes(), cudaMemcpyDeviceToDevice, stream_),
        "cudaMemcpyAsync (device to device)");
  }

  // Whether case `key` has passed its check against the CPU (its first repetition's).
  bool passed(const std::string& key) const { return passed_.count(key) > 0; }
  void mark_passed(const std::string& key) { passed_.insert(key); }

  static std::uint64_t free_bytes() {
    std::size_t free = 0;
    std::size_t total = 0;
    check_cuda(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
    return free;
  }

 private:
  void record_context(int l2_bytes) const {
    cudaDeviceProp prop{};
    check_cuda(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    int driver = 0;
    int runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    int cublas = 0;
    cublasGetVersion(blas_, &cublas);
    benchmark::AddCustomContext("cuda_device", prop.name);
    benchmark::AddCustomContext("cuda_memory_bytes", std::to_string(prop.totalGlobalMem));
    benchmark::AddCustomContext("cuda_l2_bytes", std::to_string(l2_bytes));
    benchmark::AddCustomContext("cuda_driver_version", std::to_string(driver));
    benchmark::AddCustomContext("cuda_runtime_version", std::to_string(runtime));
    benchmark::AddCustomContext("cublas_version", std::to_string(cublas));
    benchmark::AddCustomContext(
        "cuda_timing",
        "per call from a cold L2 (a read of 4x L2 before each call), CUDA events "
        "around the call alone; calls per repetition calibrated to about " +
            std::to_string(case_seconds_ * 1e3) + " ms of device time");
  }

  double case_seconds_;
  cudaStream_t stream_ = nullptr;
  cublasHandle_t blas_ = nullptr;
  std::unique_ptr<ColdTimer> timer_;
  std::map<std::string, int> calls_;
  std::map<std::uint64_t, double> copies_;
  std::set<std::string> passed_;
};

Bench* bench = nullptr;

std::string shape_key(const Shape& s) {
  return "V:" + std::to_string(s.vocab) + "/d:" + std::to_string(s.dim) +
         "/n:" + std::to_string(s.n);
}

template <typename T>
DeviceBuffer<T> upload(const T* host, std::size_t count) {
  DeviceBuffer<T> buffer(count);
  buffer.upload(host, bench->stream());
  return buffer;
}

template <typename T>
std::vector<T> download(const DeviceBuffer<T>& buffer) {
  std::vector<T> host(buffer.size());
  buffer.download(host.data(), bench->stream());
  check_cuda(cudaStreamSynchronize(bench->stream()), "waiting for the GPU");
  return host;
}

Matrix download_matrix(const DeviceBuffer<float>& buffer, Index rows, Index cols) {
  Matrix m(rows, cols);
  buffer.download(m.data(), bench->stream());
  check_cuda(cudaStreamSynchronize(bench->stream()), "waiting for the GPU");
  return m;
}

Matrix download_matrix(const DeviceBuffer<__nv_bfloat16>& buffer, Index rows, Index cols) {
  return to_float(Bf16Matrix{rows, cols, download(buffer)});
}

// The fraction of values whose bits differ (NaN payloads and -0.0 count).
double differing(const Matrix& got, const Matrix& expected) {
  Index count = 0;
  for (Index i = 0; i < got.size(); ++i)
    count += std::memcmp(got.data() + i, expected.data() + i, sizeof(float)) != 0;
  return got.size() == 0 ? 0.0 : static_cast<double>(count) / static_cast<double>(got.size());
}

// The lookup's rows on the CPU: every route must reproduce them.
Matrix cpu_rows(const Shape& s) {
  return embedlab::lookup(random_table(s.vocab, s.dim), random_ids(s.vocab, s.n), kBenchLimits);
}

// The same rows as bfloat16 values (rounding commutes with picking rows).
Matrix cpu_rows_bf16(const Shape& s) { return to_float(to_bf16(cpu_rows(s))); }

const Bf16Matrix& bf16_table(Index vocab, Index dim) {
  static std::map<std::pair<Index, Index>, Bf16Matrix> cache;
  auto [it, inserted] = cache.try_emplace({vocab, dim});
  if (inserted) it->second = to_bf16(random_table(vocab, dim));
  return it->second;
}

// What run_case needs to know about one case.
struct Case {
  std::string key;                 // benchmark and shape: keys the check and the call count
  double bytes_moved = 0.0;        // for GB/s
  std::uint64_t output_bytes = 0;  // the copy of these bytes is the case's floor; 0: none
};

// Skips the case with a message when the device has not the memory for it.
bool lacks_memory(benchmark::State& state, std::uint64_t needed) {
  const std::string why = memory_shortfall(needed, Bench::free_bytes());
  if (why.empty()) return false;
  state.SkipWithError(why.c_str());
  return true;
}

// One case: op() once and check() (true when the result is right; until it has passed once),
// then one batch of calibrated calls per repetition. Returns the mean seconds per call, or 0
// when the case was skipped.
template <typename Op, typename Check>
double run_case(benchmark::State& state, const Case& c, Op op, Check check) {
  op();
  if (!bench->passed(c.key)) {
    if (!check()) {
      state.SkipWithError("the GPU result differs from the CPU core's");
      return 0.0;
    }
    bench->mark_passed(c.key);
  }
  const int calls = bench->calls(c.key, op);
  double seconds = 0.0;
  for (auto _ : state) {
    seconds = bench->time(op, calls).call_seconds;
    state.SetIterationTime(seconds);
  }
  state.counters["calls"] = calls;
  state.counters["GB/s"] = c.bytes_moved / seconds / 1e9;
  if (c.output_bytes > 0) {
    const double floor = bench->copy_seconds(c.output_bytes);
    if (floor > 0.0) state.counters["of_copy"] = floor / seconds;
  }
  return seconds;
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

std::uint64_t output_bytes(const Shape& s, int element_bytes) {
  return static_cast<std::uint64_t>(s.n * s.dim) * static_cast<std::uint64_t>(element_bytes);
}

// The same-bytes floor: copying n * d values device to device.
void run_copy(benchmark::State& state, const char* name, int element_bytes) {
  guarded(state, [&] {
    const Shape s = shape_of(state);
    if (lacks_memory(state, copy_bytes(s, element_bytes))) return;
    const std::uint64_t bytes = output_bytes(s, element_bytes);
    DeviceBuffer<unsigned char> from(bytes);
    DeviceBuffer<unsigned char> to(bytes);
    const Case c{std::string(name) + "/" + shape_key(s), 2.0 * static_cast<double>(bytes), bytes};
    run_case(
        state, c, [&] { bench->copy_async(to, from); }, [] { return true; });
  });
}

void BM_cuda_copy_f32(benchmark::State& state) { run_copy(state, "copy_f32", 4); }
void BM_cuda_copy_bf16(benchmark::State& state) { run_copy(state, "copy_bf16", 2); }

using GatherF32 = void (*)(const float*, std::int64_t, const std::int64_t*, std::int64_t, float*,
                           cudaStream_t);

void run_gather_f32(benchmark::State& state, const char* name, GatherF32 gather) {
  guarded(state, [&] {
    const Shape s = shape_of(state);
    if (lacks_memory(state, gather_bytes(s, 4))) return;
    const Matrix& weight = random_table(s.vocab, s.dim);
    const Ids& ids = random_ids(s.vocab, s.n);
    const auto w = upload(weight.data(), static_cast<std::size_t>(weight.size()));
    const auto d_ids = upload(ids.data(), ids.size());
    DeviceBuffer<float> out(static_cast<std::size_t>(s.n * s.dim));
    const Case c{std::string(name) + "/" + shape_key(s), 8.0 * s.n * s.dim + 8.0 * s.n,
                 output_bytes(s, 4)};
    run_case(
        state, c, [&] { gather(w.data(), s.dim, d_ids.data(), s.n, out.data(), bench->stream()); },
        [&] { return differing(download_matrix(out, s.n, s.dim), cpu_rows(s)) == 0.0; });
  });
}

void BM_cuda_gather_naive(benchmark::State& state) {
  run_gather_f32(state, "gather_naive", gather_rows_naive);
}
void BM_cuda_gather_vec4(benchmark::State& state) {
  run_gather_f32(state, "gather_vec4", gather_rows_vec4);
}

// bfloat16 rows, vec8 where d % 8 == 0 (the label says which kernel ran).
void BM_cuda_gather_bf16(benchmark::State& state) {
  guarded(state, [&] {
    const Shape s = shape_of(state);
    if (lacks_memory(state, gather_bytes(s, 2))) return;
    const Bf16Matrix& weight = bf16_table(s.vocab, s.dim);
    const Ids& ids = random_ids(s.vocab, s.n);
    const auto w =
        upload(reinterpret_cast<const std::uint16_t*>(weight.values.data()), weight.values.size());
    const auto d_ids = upload(ids.data(), ids.size());
    DeviceBuffer<std::uint16_t> out(static_cast<std::size_t>(s.n * s.dim));
    const Case c{"gather_bf16/" + shape_key(s), 4.0 * s.n * s.dim + 8.0 * s.n, output_bytes(s, 2)};
    const auto check = [&] {
      const std::vector<std::uint16_t> bits = download(out);
      Bf16Matrix got{s.n, s.dim, std::vector<__nv_bfloat16>(bits.size())};
      std::memcpy(static_cast<void*>(got.values.data()), bits.data(),
                  bits.size() * sizeof(std::uint16_t));
      return differing(to_float(got), cpu_rows_bf16(s)) == 0.0;
    };
    run_case(
        state, c,
        [&] { gather_rows(w.data(), s.dim, d_ids.data(), s.n, out.data(), bench->stream()); },
        check);
    const auto row_bytes = s.dim * static_cast<Index>(sizeof(std::uint16_t));
    state.SetLabel(sixteen_byte_rows(w.data(), row_bytes, out.data()) ? "vec8" : "naive");
  });
}

void BM_cuda_one_hot_fill(benchmark::State& state) {
  guarded(state, [&] {
    const Shape s = shape_of(state);
    if (lacks_memory(state, onehot_fill_bytes(s))) return;
    const Ids& ids = random_ids(s.vocab, s.n);
    const auto d_ids = upload(ids.data(), ids.size());
    DeviceBuffer<float> onehot(static_cast<std::size_t>(s.n * s.vocab));
    const Case c{"one_hot_fill/" + shape_key(s), 4.0 * s.n * s.vocab, 0};
    run_case(
        state, c, [&] { fill_one_hot(d_ids.data(), s.n, s.vocab, onehot.data(), bench->stream()); },
        [] { return true; });
  });
}

// Which rounding of W to TF32 the product equals, if any.
std::string tf32_label(const Matrix& got, const Shape& s) {
  const Matrix rows = cpu_rows(s);
  for (const auto rounding :
       {Tf32Rounding::nearest_even, Tf32Rounding::nearest_away, Tf32Rounding::toward_zero}) {
    if (differing(got, round_to_tf32(rows, rounding)) == 0.0)
      return std::string("equals the lookup of W rounded to TF32, ") + rounding_name(rounding);
  }
  return "equals the lookup of no TF32 rounding of W";
}

// The one-hot product on element type T (float or __nv_bfloat16): one-hot prebuilt, the GEMM
// alone timed. Under TF32 the result is not checked but measured: `differing` and the label.
template <typename T>
void run_onehot_gemm(benchmark::State& state, const char* name, const T* table, ProductMath math) {
  const Shape s = shape_of(state);
  constexpr int element_bytes = sizeof(T);
  if (lacks_memory(state, onehot_product_bytes(s, element_bytes))) return;
  const Ids& ids = random_ids(s.vocab, s.n);
  const auto w = upload(table, static_cast<std::size_t>(s.vocab * s.dim));
  const auto d_ids = upload(ids.data(), ids.size());
  DeviceBuffer<T> onehot(static_cast<std::size_t>(s.n * s.vocab));
  DeviceBuffer<T> out(static_cast<std::size_t>(s.n * s.dim));
  fill_one_hot(d_ids.data(), s.n, s.vocab, onehot.data(), bench->stream());
  const auto op = [&] {
    if constexpr (std::is_same_v<T, float>)
      onehot_gemm(bench->blas(), onehot.data(), w.data(), s.n, s.vocab, s.dim, out.data(), math);
    else
      onehot_gemm(bench->blas(), onehot.data(), w.data(), s.n, s.vocab, s.dim, out.data());
  };
  const auto expected = [&] { return std::is_same_v<T, float> ? cpu_rows(s) : cpu_rows_bf16(s); };
  // Under TF32, what the check found, for every repetition to report.
  static std::map<std::string, std::pair<double, std::string>> tf32_found;
  const std::string key = std::string(name) + "/" + shape_key(s);
  const auto check = [&] {
    const Matrix got = download_matrix(out, s.n, s.dim);
    const double differ = differing(got, expected());
    if (math != ProductMath::tf32) return differ == 0.0;
    tf32_found[key] = {differ, tf32_label(got, s)};
    return true;
  };
  const Case c{key,
               element_bytes * static_cast<double>(s.n * s.vocab + s.vocab * s.dim + s.n * s.dim),
               output_bytes(s, element_bytes)};
  const double seconds = run_case(state, c, op, check);
  if (seconds == 0.0) return;
  state.counters["GFLOP/s"] = product_flops(s) / seconds / 1e9;
  state.counters["wasted_FLOP"] = wasted_flops(s);
  if (math == ProductMath::tf32) {
    state.counters["differing"] = tf32_found[key].first;
    state.SetLabel(tf32_found[key].second);
  }
}

void BM_cuda_onehot_gemm(benchmark::State& state) {
  guarded(state, [&] {
    const Shape s = shape_of(state);
    run_onehot_gemm(state, "onehot_gemm", random_table(s.vocab, s.dim).data(), ProductMath::fp32);
  });
}

void BM_cuda_onehot_gemm_tf32(benchmark::State& state) {
  guarded(state, [&] {
    const Shape s = shape_of(state);
    run_onehot_gemm(state, "onehot_gemm_tf32", random_table(s.vocab, s.dim).data(),
                    ProductMath::tf32);
  });
}

void BM_cuda_onehot_gemm_bf16(benchmark::State& state) {
  guarded(state, [&] {
    const Shape s = shape_of(state);
    run_onehot_gemm(state, "onehot_gemm_bf16", bf16_table(s.vocab, s.dim).values.data(),
                    ProductMath::fp32);
  });
}

void run_backward(benchmark::State& state, bool deterministic) {
  guarded(state, [&] {
    const Shape s = shape_of(state);
    if (lacks_memory(state, backward_bytes(s))) return;
    const Ids& ids = random_ids(s.vocab, s.n);
    // The first n rows of a table serve as the upstream gradient (n, d).
    const Matrix& rows = random_table(std::max(s.vocab, s.n), s.dim);
    const auto d_ids = upload(ids.data(), ids.size());
    const auto grad = upload(rows.data(), static_cast<std::size_t>(s.n * s.dim));
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
        embedding_backward_deterministic(p, workspace, bench->stream());
      else
        embedding_backward_atomic(p, workspace, bench->stream());
    };
    // The atomic version's last bits vary from run to run: only the deterministic one is checked.
    const auto check = [&] {
      return !deterministic ||
             differing(download_matrix(grad_weight, s.vocab, s.dim),
                       embedlab::embedding_backward(ids, rows.topRows(s.n), s.vocab, {},
                                                    kBenchLimits)) == 0.0;
    };
    // Zero the (V, d) gradient, read G and the ids, write at most n rows.
    const Case c{
        std::string(deterministic ? "backward_deterministic/" : "backward_atomic/") + shape_key(s),
        4.0 * (s.vocab * s.dim + 2 * s.n * s.dim) + 8.0 * s.n, output_bytes(s, 4)};
    run_case(state, c, op, check);
  });
}

void BM_cuda_backward_deterministic(benchmark::State& state) { run_backward(state, true); }
void BM_cuda_backward_atomic(benchmark::State& state) { run_backward(state, false); }

// The CPU suite's sweep (native/bench: shape_sweep), then training and inference sizes: GPT-2
// (V = 50257, d = 768) on batches of 8192 and 32768 tokens, Llama 3 8B (V = 128256, d = 4096) on
// 1024, 8192 and 32768.
constexpr std::array<std::array<std::int64_t, 3>, 5> kModelShapes{{
    {50257, 768, 8192},
    {50257, 768, 32768},
    {128256, 4096, 1024},
    {128256, 4096, 8192},
    {128256, 4096, 32768},
}};

void cuda_sweep(benchmark::internal::Benchmark* b, std::vector<std::int64_t> dims) {
  b->ArgNames({"V", "d", "n"})
      ->ArgsProduct({{4, 1000, 8192, 50257}, std::move(dims), {3, 64, 1024}});
  for (const auto& shape : kModelShapes) b->Args({shape[0], shape[1], shape[2]});
  b->Unit(benchmark::kMicrosecond)->UseManualTime()->Iterations(1);
}

void all_dims(benchmark::internal::Benchmark* b) { cuda_sweep(b, {5, 64, 768}); }
void dims_divisible_by_4(benchmark::internal::Benchmark* b) { cuda_sweep(b, {64, 768}); }

BENCHMARK(BM_cuda_copy_f32)->Apply(all_dims);
BENCHMARK(BM_cuda_copy_bf16)->Apply(all_dims);
BENCHMARK(BM_cuda_gather_naive)->Apply(all_dims);
BENCHMARK(BM_cuda_gather_vec4)->Apply(dims_divisible_by_4);
BENCHMARK(BM_cuda_gather_bf16)->Apply(all_dims);
BENCHMARK(BM_cuda_one_hot_fill)->Apply(all_dims);
BENCHMARK(BM_cuda_onehot_gemm)->Apply(all_dims);
BENCHMARK(BM_cuda_onehot_gemm_tf32)->Apply(all_dims);
BENCHMARK(BM_cuda_onehot_gemm_bf16)->Apply(all_dims);
BENCHMARK(BM_cuda_backward_deterministic)->Apply(all_dims);
BENCHMARK(BM_cuda_backward_atomic)->Apply(all_dims);

// Takes --cuda_case_ms=MS (device time per repetition of a case, default 20) out of argv;
// throws std::invalid_argument unless MS is a positive number.
double take_case_seconds(int& argc, char** argv) {
  double ms = 20.0;
  const std::string flag = "--cuda_case_ms=";
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind(flag, 0) != 0) {
      argv[kept++] = argv[i];
      continue;
    }
    const std::string value = arg.substr(flag.size());
    std::size_t used = 0;
    ms = std::stod(value, &used);
    if (used != value.size() || !(ms > 0.0)) throw std::invalid_argument(value);
  }
  argc = kept;
  return ms / 1e3;
}

bool listing_only(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--benchmark_list_tests" || arg == "--benchmark_list_tests=true") return true;
  }
  return false;
}

}  // namespace
}  // namespace embedlab::cuda::bench

int main(int argc, char** argv) {
  namespace bench = embedlab::cuda::bench;
  double case_seconds = 0.0;
  try {
    case_seconds = bench::take_case_seconds(argc, argv);
  } catch (const std::exception&) {
    std::cerr << "embedlab_bench_cuda: --cuda_case_ms takes a positive number of milliseconds\n";
    return 1;
  }
  const bool listing = bench::listing_only(argc, argv);  // before Initialize takes the flag
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  if (listing) {
    benchmark::RunSpecifiedBenchmarks();
    return 0;
  }
  const std::string why = embedlab::cuda::device_unavailable_reason();
  if (!why.empty()) {
    std::cout << "embedlab_bench_cuda: no CUDA device here (" << why
              << "); nothing to benchmark. Run it on a machine with an NVIDIA GPU.\n";
    return 0;
  }
  try {
    const auto shared = std::make_unique<bench::Bench>(case_seconds);
    bench::bench = shared.get();
    benchmark::RunSpecifiedBenchmarks();
  } catch (const std::exception& e) {
    std::cerr << "embedlab_bench_cuda: " << e.what() << "\n";
    return 1;
  }
  benchmark::Shutdown();
  return 0;
}
