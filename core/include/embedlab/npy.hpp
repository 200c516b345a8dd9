#pragma once
// NumPy .npy files: what np.save('w.npy', emb.weight.detach().numpy()) writes.
#include <string>
#include <string_view>

#include "embedlab/byte_source.hpp"
#include "embedlab/limits.hpp"
#include "embedlab/matrix.hpp"
#include "embedlab/table.hpp"

namespace embedlab {

// Parses a whole .npy file held in memory (format version 1.0, 2.0 or 3.0): 2-D, C order,
// little-endian float16, float32 or float64 (float16 converts exactly; float64 is rounded to
// float32, and a finite value too large for float32 is an error). Throws InputError (argument
// weights) for a wrong magic or version, other dtypes (named), Fortran order, a rank other than 2
// or a zero dimension (the shape is named), a truncated or corrupt header or payload (bytes
// expected vs present), and shapes over the limits (checked before anything is allocated).
Matrix parse_npy(std::string_view bytes, const Limits& limits = default_limits);

// The table of a .npy file read through a source: its header now, with parse_npy's checks and
// messages, its values when a computation reads them, where they lie (held in memory when they
// are at most kHeldTableBytes). `context` starts every message, those of later reads too.
Table open_npy_table(std::shared_ptr<const ByteSource> source,
                     const Limits& limits = default_limits, const std::string& context = {});

// Whether bytes (a file's first bytes, 6 are enough) start as every .npy file does, "\x93NUMPY":
// how a front end tells a .npy file from a .safetensors one.
bool has_npy_magic(std::string_view first_bytes);

// Reads a file from disk, its header then its data, to a matrix held whole (within
// limits.max_elements); errors name the path.
Matrix load_npy(const std::string& path, const Limits& limits = default_limits);

// A version 1.0 .npy file holding m as '<f4', C order: byte for byte what np.save writes.
std::string to_npy(const Matrix& m);

}  // namespace embedlab
