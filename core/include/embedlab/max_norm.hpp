#pragma once
// nn.Embedding(max_norm=..., norm_type=...): before a lookup, each looked-up row whose norm
// exceeds max_norm is scaled down in place (torch.embedding_renorm_), so W itself changes.
#include "embedlab/limits.hpp"
#include "embedlab/matrix.hpp"
#include "embedlab/table.hpp"

namespace embedlab {

// The norm_type-norm of one float32 row as PyTorch 1.13's x86-64 CPU kernels compute it:
// in float32, never in double. norm_type is first rounded to float, as PyTorch does.
//   2:   eight float lanes, lane j += x[i]^2 for i = j mod 8 (fused multiply-add), the lanes
//        added left to right, then the last d mod 8 squares (those the compiler vectorised by
//        four are rounded before the add, the rest fused), then sqrtf;
//   1:   |x| added left to right;  inf: the largest |x|;
//   p:   powf(|x|, p) added left to right, then powf(sum, 1.0f / p).
float row_norm(const float* row, Index dim, double norm_type = 2.0);

// For each distinct id (ascending), if norm = row_norm(W(id, :)) exceeds max_norm, the row is
// multiplied by float(max_norm / (double(norm) + 1e-7)): the comparison and the scale in double,
// the product in float, as in PyTorch. Validates ids against W and requires max_norm > 0 and
// norm_type > 0 (both finite, except norm_type = inf). Returns the rows that were scaled.
Ids embedding_renorm(Matrix& weight, const Ids& ids, double max_norm, double norm_type = 2.0,
                     const Limits& limits = default_limits);
// The same on a table handle: reads the rows the ids name and replaces those it scales
// (Table::with_rows).
Ids embedding_renorm(Table& weight, const Ids& ids, double max_norm, double norm_type = 2.0,
                     const Limits& limits = default_limits);

}  // namespace embedlab
