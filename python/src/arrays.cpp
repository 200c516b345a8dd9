#include "arrays.hpp"

#include <cstring>

namespace embedlab::python {

Ids ids_from(const IdArray& ids) {
  if (ids.ndim() != 1) throw py::value_error("ids must be a 1-D int64 array");
  return Ids(ids.data(), ids.data() + ids.size());
}

py::array_t<std::int64_t> ids_to_numpy(const Ids& ids) {
  py::array_t<std::int64_t> out(static_cast<py::ssize_t>(ids.size()));
  if (!ids.empty()) std::memcpy(out.mutable_data(), ids.data(), ids.size() * sizeof(std::int64_t));
  return out;
}

py::array_t<float> matrix_to_numpy(const Matrix& m) {
  py::array_t<float> out({static_cast<py::ssize_t>(m.rows()), static_cast<py::ssize_t>(m.cols())});
  if (m.size() > 0)
    std::memcpy(out.mutable_data(), m.data(), static_cast<std::size_t>(m.size()) * sizeof(float));
  return out;
}

BufferSource::BufferSource(const py::object& object) {
  if (PyObject_GetBuffer(object.ptr(), &view_, PyBUF_C_CONTIGUOUS) != 0)
    throw py::error_already_set();
}

BufferSource::~BufferSource() {
  py::gil_scoped_acquire gil;  // a computation may drop the last copy with the GIL released
  PyBuffer_Release(&view_);
}

void BufferSource::read(std::uint64_t offset, std::size_t length, char* out) const {
  std::memcpy(out, bytes() + offset, length);
}

}  // namespace embedlab::python
