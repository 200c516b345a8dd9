#pragma once
// NumPy .npy files: what np.save('w.npy', emb.weight.detach().numpy()) writes.
#include <string>
#include <string_view>

#include "embedlab/limits.hpp"
#include "embedlab/matrix.hpp"

namespace embedlab {

// Parses a whole .npy file held in memory: 2-D, C order, little-endian float32 or float64
// (float64 is rounded to float32). Throws InputError for other dtypes, Fortran order, wrong
// rank, a truncated or corrupt header or payload, and shapes over the limits.
Matrix parse_npy(std::string_view bytes, const Limits& limits = default_limits);

// Reads a file from disk and parses it; errors name the path.
Matrix load_npy(const std::string& path, const Limits& limits = default_limits);

// A version 1.0 .npy file holding m as '<f4', C order.
std::string to_npy(const Matrix& m);

}  // namespace embedlab
