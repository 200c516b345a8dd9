#include "gemm.hpp"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>

#include <algorithm>
#else
#include <Eigen/Core>
#endif

namespace embedlab {
namespace {

#if defined(__wasm_simd128__)
// WebAssembly: Eigen 3.4 has no SIMD128 path (its scalar kernel, vectorised by the compiler, runs
// at about half the speed of this one), so the GEMM is a kernel of its own. Each output element
// adds its products in depth order, each product rounded before it is added (WebAssembly has no
// fused multiply-add), a slice of kGemmDepthBlock at a time from +0, and each slice onto the
// output: the rule gemm.hpp states, whatever the element's place.

// Two output rows by 16 columns: 8 vectors of sums, 4 of b's and the broadcast fit the 16 vector
// registers of x86-64, where V8 runs most pages (four rows spill, and ran 1.4 times as long).
constexpr Index kTileRows = 2;
constexpr Index kTileVectors = 4;  // 4 floats x 4 vectors = 16 output columns
constexpr Index kTileCols = 4 * kTileVectors;

// The sum over depth [k0, k1) of one element, added onto it: what a tile does 16 at a time.
void element_slice(Index k0, Index k1, const float* a, const float* b, Index ldb, float* c) {
  float sum = 0.0f;
  for (Index p = k0; p < k1; ++p) sum += a[p] * b[p * ldb];
  *c += sum;
}

// c[0:Rows, 0:16] += a[0:Rows, k0:k1] * b[k0:k1, 0:16], each element as element_slice() adds it.
template <Index Rows>
void tile_slice(Index k0, Index k1, const float* a, Index lda, const float* b, Index ldb, float* c,
                Index ldc) {
  v128_t sum[Rows][kTileVectors];
  for (auto& row : sum)
    for (v128_t& v : row) v = wasm_f32x4_splat(0.0f);
  const float* a_at[Rows];
  for (Index r = 0; r < Rows; ++r) a_at[r] = a + r * lda + k0;
  const float* b_at = b + k0 * ldb;
  for (Index p = k0; p < k1; ++p, b_at += ldb) {
    v128_t bp[kTileVectors];
    for (Index q = 0; q < kTileVectors; ++q) bp[q] = wasm_v128_load(b_at + 4 * q);
    for (Index r = 0; r < Rows; ++r) {
      const v128_t x = wasm_v128_load32_splat(a_at[r]++);
      for (Index q = 0; q < kTileVectors; ++q)
        sum[r][q] = wasm_f32x4_add(sum[r][q], wasm_f32x4_mul(x, bp[q]));
    }
  }
  for (Index r = 0; r < Rows; ++r) {
    for (Index q = 0; q < kTileVectors; ++q) {
      float* out = c + r * ldc + 4 * q;
      wasm_v128_store(out, wasm_f32x4_add(wasm_v128_load(out), sum[r][q]));
    }
  }
}
#else
// Eigen computes a row-major product as its column-major transpose: c^T (n, m) = b^T a^T, so its
// rows are our n (tiled by mc), its columns our m (tiled by nc), its depth our k (kc).
// Eigen's blocking, fixed; its packing buffers are allocated per call by Eigen (null here).
class FixedBlocking : public Eigen::internal::level3_blocking<float, float> {
 public:
  FixedBlocking() {
    this->m_mc = kGemmColumnPanel;
    this->m_nc = kGemmColumnBlock;
    this->m_kc = kGemmDepthBlock;
  }
};
#endif

}  // namespace

void gemm_accumulate(Index m, Index k, Index n, const float* a, Index lda, const float* b,
                     Index ldb, float* c, Index ldc) {
  if (m == 0 || n == 0 || k == 0) return;
#if defined(__wasm_simd128__)
  // A 16-column strip of b's slice (32 KiB) stays in the first-level cache while every row
  // tile passes over it.
  const Index whole_cols = n - n % kTileCols;
  for (Index k0 = 0; k0 < k; k0 += kGemmDepthBlock) {
    const Index k1 = std::min(k, k0 + kGemmDepthBlock);
    for (Index j = 0; j < whole_cols; j += kTileCols) {
      Index i = 0;
      for (; i + kTileRows <= m; i += kTileRows)
        tile_slice<kTileRows>(k0, k1, a + i * lda, lda, b + j, ldb, c + i * ldc + j, ldc);
      for (; i < m; ++i) tile_slice<1>(k0, k1, a + i * lda, lda, b + j, ldb, c + i * ldc + j, ldc);
    }
    for (Index i = 0; i < m; ++i)
      for (Index j = whole_cols; j < n; ++j)
        element_slice(k0, k1, a + i * lda, b + j, ldb, c + i * ldc + j);
  }
#else
  FixedBlocking blocking;
  // Eigen's own index type (32 bits in WebAssembly): every operand is held in memory.
  using E = Eigen::Index;
  using Product =
      Eigen::internal::general_matrix_matrix_product<E, float, Eigen::RowMajor, false, float,
                                                     Eigen::RowMajor, false, Eigen::RowMajor, 1>;
  Product::run(E(m), E(n), E(k), a, E(lda), b, E(ldb), c, 1, E(ldc), 1.0f, blocking);
#endif
}

}  // namespace embedlab
