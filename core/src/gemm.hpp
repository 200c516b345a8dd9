#pragma once
// The dense GEMM behind every matrix product of the core (the one-hot and multi-hot products,
// onehot^T * G), whole or streamed through a table in blocks of rows.
//
// Each output element adds its products a slice of kGemmDepthBlock along the depth k at a time:
// each slice summed from +0, and the slices added onto the output in order. Natively the GEMM is
// Eigen's, its blocking fixed (kGemmDepthBlock, kGemmColumnBlock and kGemmColumnPanel): Eigen's
// kernel sums a slice in an order (and with or without fused multiply-adds) that depends on the
// element's place in its panel of rows and columns, so its panels are fixed too. In WebAssembly it
// is a kernel of gemm.cpp's own, which sums a slice in depth order. Either way a product cut along
// the depth into pieces that are multiples of kGemmDepthBlock, or along the output's rows into
// pieces that are multiples of kGemmColumnBlock, performs the very same operations, in the same
// order, as the product done whole: the results are bit-identical, NaN payloads included (which
// NaN survives a sum of several depends on that order).
#include "embedlab/matrix.hpp"

namespace embedlab {

// Products may be cut along the depth (k) into multiples of this many, along the output's rows
// (m) into multiples of kGemmColumnBlock, and along its columns (n) into panels that start at
// multiples of kGemmColumnPanel (Eigen's kc, nc and mc, for the product as Eigen computes it,
// transposed: see gemm.cpp).
inline constexpr Index kGemmDepthBlock = 512;
inline constexpr Index kGemmColumnBlock = 512;
inline constexpr Index kGemmColumnPanel = 1024;

// c (m, n) += a (m, k) * b (k, n), every one of the m*k*n multiply-adds performed (no shortcut for
// zeros: 0 * Inf gives NaN). All three row-major with row strides lda, ldb, ldc.
void gemm_accumulate(Index m, Index k, Index n, const float* a, Index lda, const float* b,
                     Index ldb, float* c, Index ldc);

}  // namespace embedlab
