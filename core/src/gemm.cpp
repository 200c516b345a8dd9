#include "gemm.hpp"

#include <Eigen/Core>

namespace embedlab {
namespace {

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

}  // namespace

void gemm_accumulate(Index m, Index k, Index n, const float* a, Index lda, const float* b,
                     Index ldb, float* c, Index ldc) {
  if (m == 0 || n == 0 || k == 0) return;
  FixedBlocking blocking;
  // Eigen's own index type (32 bits in WebAssembly): every operand is held in memory.
  using E = Eigen::Index;
  using Product = Eigen::internal::general_matrix_matrix_product<
      E, float, Eigen::RowMajor, false, float, Eigen::RowMajor, false, Eigen::RowMajor, 1>;
  Product::run(E(m), E(n), E(k), a, E(lda), b, E(ldb), c, 1, E(ldc), 1.0f, blocking);
}

}  // namespace embedlab
