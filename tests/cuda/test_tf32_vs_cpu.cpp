// TF32, the edge case a learner should know: with torch.backends.cuda.matmul.allow_tf32 = True
// (here ProductMath::tf32) the one-hot product no longer reproduces the lookup, because the
// tensor cores read W with 10 of its 23 mantissa bits; the result is the lookup of W rounded to
// TF32 (tf32_reference.hpp). The default FP32 path, on the same input, stays bit-identical.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <random>
#include <string>

#include "cuda_backend.hpp"
#include "embedlab/lookup.hpp"
#include "random_inputs.hpp"
#include "same_bits.hpp"
#include "tf32_reference.hpp"

using embedlab::Ids;
using embedlab::Index;
using embedlab::Matrix;
using embedlab::test::same_bits;
using namespace embedlab::cuda_test;
namespace cuda = embedlab::cuda;

TEST_CASE("TF32 breaks the one-hot product's equivalence with the lookup, FP32 keeps it") {
  std::mt19937 rng(31);
  // Multiples of 16 on every side, so that cuBLAS can use its tensor-core kernels.
  Matrix w = random_matrix(1024, 256, rng);
  const Ids ids = random_ids(512, 1024, rng);
  // Exact halfway cases (low 13 bits 0x1000) in gathered rows, where rounding to nearest
  // even and to nearest away from zero differ: 1 + 2^-11 lies between 1 and 1 + 2^-10.
  const float tie = 1.0f + std::ldexp(1.0f, -11);
  for (int k = 0; k < 16; ++k) w(ids[static_cast<std::size_t>(k)], k) = k % 2 ? tie : -tie;
  const Matrix rows = embedlab::lookup(w, ids);

  CHECK(same_bits(cuda::onehot_lookup(w, ids), rows));

  const Matrix tf32 = cuda::onehot_lookup(w, ids, cuda::ProductMath::tf32);
  Index changed = 0;
  for (Index i = 0; i < rows.size(); ++i)
    changed += std::memcmp(tf32.data() + i, rows.data() + i, sizeof(float)) != 0;
  // A random float32 has some of its low 13 bits set with probability 1 - 2^-13.
  INFO(changed << " of " << rows.size() << " values changed under TF32");
  CHECK(changed > rows.size() / 2);

  // PTX documents both rounding and truncation of tensor-core inputs: find which one explains
  // every value, and say it.
  std::string rounding;
  for (const auto mode : {cuda::Tf32Rounding::nearest_even, cuda::Tf32Rounding::nearest_away,
                          cuda::Tf32Rounding::toward_zero}) {
    if (same_bits(tf32, cuda::round_to_tf32(rows, mode))) rounding = cuda::rounding_name(mode);
  }
  CHECK_FALSE(rounding.empty());
  WARN("the TF32 one-hot product equals the lookup of W rounded to TF32, "
       << (rounding.empty() ? "in none of the three ways" : rounding));
}
