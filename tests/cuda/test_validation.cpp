// The CUDA backend's input checks, run with every device hidden (ctest sets
// CUDA_VISIBLE_DEVICES=-1): bad input must give the CPU call's InputError, word for word. Had
// the backend touched the device first, these calls would throw CudaError instead.
#include <cuda_runtime_api.h>

#include <catch2/catch.hpp>
#include <string>

#include "cuda_backend.hpp"
#include "embedlab/backward.hpp"
#include "embedlab/error.hpp"
#include "embedlab/lookup.hpp"
#include "embedlab/onehot.hpp"

using Catch::Contains;
using embedlab::EmbeddingOptions;
using embedlab::Ids;
using embedlab::Index;
using embedlab::InputError;
using embedlab::Matrix;
namespace cuda = embedlab::cuda;

namespace {

// The message of the InputError that call() throws; fails the test if it throws none.
template <typename Call>
std::string input_error_of(Call call) {
  try {
    call();
  } catch (const InputError& e) {
    return e.what();
  }
  FAIL("no InputError was thrown");
  return "";
}

const Matrix table = Matrix::Ones(4, 8);  // V = 4, d = 8

}  // namespace

TEST_CASE("an out-of-range id is reported as on the CPU, before any device work") {
  const Ids ids{0, 7, 1};
  const std::string cpu = input_error_of([&] { embedlab::lookup(table, ids); });
  CHECK_THAT(cpu, Contains("id 7") && Contains("V = 4"));
  CHECK(input_error_of([&] { cuda::lookup(table, ids); }) == cpu);
  CHECK(input_error_of([&] { cuda::lookup(table, ids, cuda::GatherKernel::naive); }) == cpu);
  CHECK(input_error_of([&] { cuda::onehot_lookup(table, ids); }) ==
        input_error_of([&] { embedlab::one_hot(ids, table.rows()); }));
}

TEST_CASE("a negative id is reported as on the CPU") {
  const Ids ids{2, -1};
  CHECK(input_error_of([&] { cuda::lookup(table, ids); }) ==
        input_error_of([&] { embedlab::lookup(table, ids); }));
}

TEST_CASE("too many ids are reported as on the CPU") {
  const Ids ids(65537, 0);
  const std::string cpu = input_error_of([&] { embedlab::lookup(table, ids); });
  CHECK_THAT(cpu, Contains("65,537"));
  CHECK(input_error_of([&] { cuda::lookup(table, ids); }) == cpu);
}

TEST_CASE("a one-hot matrix over the size limit is refused as on the CPU") {
  const Matrix wide = Matrix::Zero(1 << 20, 1);
  const Ids ids(100, 0);  // 100 x 2^20 floats: over the 2^26 limit
  const std::string cpu = input_error_of([&] { embedlab::one_hot(ids, wide.rows()); });
  CHECK_THAT(cpu, Contains("one-hot"));
  CHECK(input_error_of([&] { cuda::onehot_lookup(wide, ids); }) == cpu);
}

TEST_CASE("the vectorised gathers refuse rows that are not a multiple of 16 bytes") {
  CHECK_THAT(input_error_of(
                 [&] { cuda::lookup(Matrix::Ones(4, 5), {0}, cuda::GatherKernel::vectorised); }),
             Contains("float32 rows need d % 4 == 0, got d = 5"));
  const cuda::Bf16Matrix twelve = cuda::to_bf16(Matrix::Ones(4, 12));  // 24-byte rows
  CHECK_THAT(input_error_of([&] { cuda::lookup(twelve, {0}, cuda::GatherKernel::vectorised); }),
             Contains("bfloat16 rows need d % 8 == 0, got d = 12"));
}

TEST_CASE("bfloat16 and float16 tables: bad ids are reported as on the CPU") {
  const Ids ids{0, 7, 1};
  const std::string cpu = input_error_of([&] { embedlab::lookup(table, ids); });
  CHECK(input_error_of([&] { cuda::lookup(cuda::to_bf16(table), ids); }) == cpu);
  CHECK(input_error_of([&] { cuda::lookup(cuda::to_f16(table), ids); }) == cpu);
  const std::string one_hot = input_error_of([&] { embedlab::one_hot(ids, table.rows()); });
  CHECK(input_error_of([&] { cuda::onehot_lookup(cuda::to_bf16(table), ids); }) == one_hot);
  CHECK(input_error_of([&] { cuda::onehot_lookup(table, ids, cuda::ProductMath::tf32); }) ==
        one_hot);
}

TEST_CASE("bfloat16 and float16 tables: sizes are checked as on the CPU") {
  const Matrix wide = Matrix::Zero(1 << 20, 1);
  const Ids many(100, 0);  // a 100 x 2^20 one-hot matrix: over the limit
  CHECK(input_error_of([&] { cuda::onehot_lookup(cuda::to_bf16(wide), many); }) ==
        input_error_of([&] { embedlab::one_hot(many, wide.rows()); }));
  const Ids too_many(65537, 0);
  CHECK(input_error_of([&] { cuda::lookup(cuda::to_f16(table), too_many); }) ==
        input_error_of([&] { embedlab::lookup(table, too_many); }));
}

TEST_CASE("a 2-byte table whose values do not fill its shape is refused") {
  cuda::Bf16Matrix short_table = cuda::to_bf16(table);
  short_table.values.pop_back();
  const auto check = [](const InputError& e) {
    return e.argument() == embedlab::Argument::weights &&
           std::string(e.what()) == "a bfloat16 table of 4 x 8 needs 32 values, got 31";
  };
  CHECK_THROWS_MATCHES(cuda::lookup(short_table, {0}), InputError,
                       Catch::Predicate<InputError>(check));
  CHECK_THROWS_MATCHES(cuda::onehot_lookup(short_table, {0}), InputError,
                       Catch::Predicate<InputError>(check));
  cuda::F16Matrix negative = cuda::to_f16(table);
  negative.rows = -4;
  CHECK_THAT(input_error_of([&] { cuda::lookup(negative, {0}); }),
             Contains("a float16 table of -4 x 8: a size cannot be negative"));
}

TEST_CASE("the backward checks ids, gradient rows and padding_idx as on the CPU") {
  const Matrix grad = Matrix::Ones(3, 8);
  const auto both_kernels_match = [&](const Ids& ids, const Matrix& g, Index vocab,
                                      const EmbeddingOptions& options, const char* detail) {
    const std::string cpu =
        input_error_of([&] { embedlab::embedding_backward(ids, g, vocab, options); });
    CHECK_THAT(cpu, Contains(detail));
    for (const auto kernel : {cuda::BackwardKernel::deterministic, cuda::BackwardKernel::atomic}) {
      CHECK(input_error_of([&] { cuda::embedding_backward(ids, g, vocab, options, kernel); }) ==
            cpu);
    }
  };
  both_kernels_match({0, 4, 1}, grad, 4, {}, "id 4");
  both_kernels_match({0, 1}, grad, 4, {}, "3 rows");
  EmbeddingOptions padding;
  padding.padding_idx = -5;
  both_kernels_match({0, 1, 2}, grad, 4, padding, "padding_idx = -5");
  both_kernels_match({0, 1, 2}, grad, 0, {}, "V");
}

TEST_CASE("valid input without a device throws CudaError with the CUDA runtime's text") {
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status == cudaSuccess && devices > 0) {
    WARN("a CUDA device is visible: run with CUDA_VISIBLE_DEVICES=-1, as ctest does");
    return;
  }
  const std::string runtime_text =
      status == cudaSuccess ? "none found" : cudaGetErrorString(status);
  const auto device_error = Catch::Matchers::Message("looking for a CUDA device: " + runtime_text);
  CHECK_THROWS_MATCHES(cuda::lookup(table, {0, 1}), cuda::CudaError, device_error);
  CHECK_THROWS_MATCHES(cuda::lookup(cuda::to_bf16(table), {0, 1}), cuda::CudaError, device_error);
  CHECK_THROWS_MATCHES(cuda::onehot_lookup(table, {0, 1}, cuda::ProductMath::tf32), cuda::CudaError,
                       device_error);
  CHECK_THAT(cuda::device_unavailable_reason(), Contains(runtime_text));
}
