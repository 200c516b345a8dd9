#pragma once
// What the module's files share: NumPy arrays to and from the core's types, and a table's bytes
// read in place from a Python object that holds them (a NumPy array, bytes).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>

#include "embedlab/byte_source.hpp"
#include "embedlab/matrix.hpp"

namespace embedlab::python {

namespace py = pybind11;

// A 1-D int64 array (the package hands its ids over as one) -> the core's ids, in one copy.
using IdArray = py::array_t<std::int64_t, py::array::c_style>;
Ids ids_from(const IdArray& ids);
py::array_t<std::int64_t> ids_to_numpy(const Ids& ids);

// f() run with the GIL released, for the core's computations: they touch no Python object.
template <typename F>
auto released(F&& f) {
  py::gil_scoped_release gil;
  return f();
}

// A (rows, cols) float32 NumPy array, copied.
py::array_t<float> matrix_to_numpy(const Matrix& m);

// The bytes of a C-contiguous buffer (a NumPy array, bytes), read where they lie: the object is
// held, and its buffer released (under the GIL) with the last copy of the source.
class BufferSource final : public ByteSource {
 public:
  explicit BufferSource(const py::object& object);
  ~BufferSource() override;
  BufferSource(const BufferSource&) = delete;
  BufferSource& operator=(const BufferSource&) = delete;
  std::uint64_t size() const override { return static_cast<std::uint64_t>(view_.len); }
  void read(std::uint64_t offset, std::size_t length, char* out) const override;
  const char* bytes() const override { return static_cast<const char*>(view_.buf); }

 private:
  Py_buffer view_{};
};

}  // namespace embedlab::python
