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

constexpr Index kTileRows = 4;     // output rows a tile keeps in registers
constexpr Index kTileVectors = 4;  // and 4 floats x 4 vectors = 16 output columns
constexpr Index kTileCols = 4 * kTileVectors;

// The sum over depth [k0, k1) of one element, added onto it: what a tile does 64 at a time.
void element_slice(Index k0, Index k1, const float* a, const float* b, Index ldb, float* c) {
  float sum = 0.0f;
  for (Index p = k0; p < k1; ++p) sum += a[p] * b[p * ldb];
  *c += sum;
}

// c[0:4, 0:16] += a[0:4, k0:k1] * b[k0:k1, 0:16], each element as element_slice() adds it.
void tile_slice(Index k0, Index k1, const float* a, Index lda, const float* b, Index ldb, float* c,
                Index ldc) {
  v128_t sum[kTileRows][kTileVectors];
  for (auto& row : sum)
    for (v128_t& v : row) v = wasm_f32x4_splat(0.0f);
  for (Index p = k0; p < k1; ++p) {
    v128_t bp[kTileVectors];
    for (Index q = 0; q < kTileVectors; ++q) bp[q] = wasm_v128_load(b + p * ldb + 4 * q);
    for (Index r = 0; r < kTileRows; ++r) {
      const v128_t x = wasm_f32x4_splat(a[r * lda + p]);
      for (Index q = 0; q < kTileVectors; ++q)
        sum[r][q] = wasm_f32x4_add(sum[r][q], wasm_f32x4_mul(x, bp[q]));
    }
  }
  for (Index r = 0; r < kTileRows; ++r) {
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
  for (Index k0 = 0; k0 < k; k0 += kGemmDepthBlock) {
    const Index k1 = std::min(k, k0 + kGemmDepthBlock);
    for (Index i = 0; i < m; i += kTileRows) {
      const bool whole_rows = i + kTileRows <= m;
      Index j = 0;
      if (whole_rows) {
        for (; j + kTileCols <= n; j += kTileCols)
          tile_slice(k0, k1, a + i * lda, lda, b + j, ldb, c + i * ldc + j, ldc);
      }
      for (Index r = i; r < std::min(m, i + kTileRows); ++r)
        for (Index jj = whole_rows ? j : 0; jj < n; ++jj)
          element_slice(k0, k1, a + r * lda, b + jj, ldb, c + r * ldc + jj);
    }
  }
#else
  FixedBlocking blocking;
  // Eigen's own index type (32 bits in WebAssembly): every operand is held in memory.
  using E = Eigen::Index;
  using Product = Eigen::internal::general_matrix_matrix_product<
      E, float, Eigen::RowMajor, false, float, Eigen::RowMajor, false, Eigen::RowMajor, 1>;
  Product::run(E(m), E(n), E(k), a, E(lda), b, E(ldb), c, 1, E(ldc), 1.0f, blocking);
#endif
}

}  // namespace embedlab
