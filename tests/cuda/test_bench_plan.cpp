// The benchmark's device-free arithmetic (native/bench/cuda/bench_plan): calls per case, device
// memory per case, the one-hot product's FLOPs. Expected values are worked out by hand in the
// comments.
#include <catch2/catch.hpp>

#include "bench_plan.hpp"

using Catch::Contains;
using namespace embedlab::cuda::bench;

TEST_CASE("calibration: calls fill the target time, at least one, at most the cap") {
  // A 4-microsecond call behind a 40-microsecond flush: 20 ms / 44 us = 454.5..., rounded.
  CHECK(calls_for(44e-6, 0.020, 2000) == 455);
  CHECK(calls_for(4e-6, 0.020, 2000) == 2000);  // 5000 wanted: capped
  CHECK(calls_for(0.690, 0.020, 2000) == 1);    // the Llama-size FP32 product: one call
  CHECK(calls_for(0.020, 0.020, 2000) == 1);
  CHECK(calls_for(0.008, 0.020, 2000) == 3);   // 2.5: halves round away from zero
  CHECK(calls_for(0.0, 0.020, 2000) == 2000);  // too short for the events to see
}

TEST_CASE("memory: the largest one-hot product fits in 80 GiB, and a smaller card skips it") {
  const Shape llama{128256, 4096, 32768};
  // (32768 x 128256 + 128256 x 4096 + 32768 x 4096) x 4 bytes + 8 x 32768 bytes of ids.
  CHECK(onehot_product_bytes(llama, 4) == 19'449'249'792u);
  CHECK(onehot_product_bytes(llama, 2) == 9'724'755'968u);
  const std::uint64_t gib = std::uint64_t{1} << 30;
  CHECK(memory_shortfall(onehot_product_bytes(llama, 4), 80 * gib).empty());
  const std::string why = memory_shortfall(onehot_product_bytes(llama, 4), 16 * gib);
  CHECK_THAT(why, Contains("18.1 GiB") && Contains("16.0 GiB free"));
  CHECK(memory_shortfall(onehot_product_bytes(llama, 2), 16 * gib).empty());
  // The reserve counts: 9.06 GiB do not fit in 9.3 GiB with 0.5 GiB kept back.
  CHECK_FALSE(memory_shortfall(onehot_product_bytes(llama, 2), 93 * gib / 10).empty());
}

TEST_CASE("memory: every other kind of case at the largest shape") {
  const Shape s{128256, 4096, 32768};
  CHECK(copy_bytes(s, 4) == 1'073'741'824u);       // 2 x 32768 x 4096 x 4
  CHECK(gather_bytes(s, 2) == 1'319'370'752u);     // (128256 + 32768) x 4096 x 2 + 8 x 32768
  CHECK(onehot_fill_bytes(s) == 16'811'032'576u);  // 32768 x 128256 x 4 + 8 x 32768
  // W's gradient and G in float32, four int64 arrays of n, V int32 counts, 32 n of sort scratch:
  // (128256 + 32768) x 4096 x 4 + 32 x 32768 + 4 x 128256 + 32 x 32768.
  CHECK(backward_bytes(s) == 2'640'827'392u);
}

TEST_CASE("FLOPs of the one-hot product and those spent on zeros") {
  CHECK(product_flops({4, 5, 3}) == 120.0);  // 2 x 3 x 4 x 5
  CHECK(wasted_flops({4, 5, 3}) == 90.0);    // 2 x 3 x 3 x 5
  CHECK(wasted_flops({1, 7, 9}) == 0.0);     // V = 1: the one-hot is all ones
  CHECK(product_flops({128256, 4096, 32768}) == 34'428'457'844'736.0);
  CHECK(wasted_flops({128256, 4096, 32768}) == 34'428'189'409'280.0);
}
