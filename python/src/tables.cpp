// Table handles (embedlab/table.hpp) for Python: a file opened by what it holds (table_files.hpp),
// or a tensor a notebook holds, read in place (safetensors.hpp's tensor_table); the lookup, the
// one-hot product streamed through the table (streamed.hpp), a heatmap of it, and both routes
// graded. Computations run with the GIL released: they touch no Python object.
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "arrays.hpp"
#include "embedlab/encoding.hpp"
#include "embedlab/lookup.hpp"
#include "embedlab/safetensors.hpp"
#include "embedlab/streamed.hpp"
#include "embedlab/table_files.hpp"
#include "embedlab/verdict.hpp"
#include "module.hpp"

namespace embedlab::python {
namespace {

std::string format_name(TableFormat format) {
  switch (format) {
    case TableFormat::npy:
      return "npy";
    case TableFormat::safetensors:
      return "safetensors";
    case TableFormat::safetensors_index:
      return "safetensors index";
    case TableFormat::gguf:
      return "gguf";
  }
  return "";
}

Matrix streamed_product(const Table& table, const Ids& ids) {
  StreamedProduct product(table, one_hot_encoding(ids, table.rows()));
  product.run();
  return product.result();
}

// A method of ids whose (n, d) result comes back as a NumPy array, computed without the GIL.
template <typename Compute>
auto numpy_of_ids(Compute compute) {
  return [compute](const Table& t, const IdArray& ids) {
    const Ids checked = ids_from(ids);
    return matrix_to_numpy(released([&] { return compute(t, checked); }));
  };
}

}  // namespace

void bind_tables(py::module_& m) {
  py::class_<Table>(m, "Table",
                    "W (V, d) as a handle to its rows in their stored dtype, read when a "
                    "computation needs them (the core's Table).")
      .def_property_readonly("rows", &Table::rows)
      .def_property_readonly("cols", &Table::cols)
      .def_property_readonly(
          "dtype", [](const Table& t) { return std::string(stored_float_name(t.dtype())); })
      .def_property_readonly("in_memory", &Table::in_memory)
      .def_property_readonly("stored_bytes", &Table::stored_bytes)
      .def_property_readonly("blocks_decoded", &Table::blocks_decoded)
      .def("lookup", numpy_of_ids([](const Table& t, const Ids& ids) { return lookup(t, ids); }),
           py::arg("ids"), "(n, d) float32: rows W[ids[k]], read and nothing else")
      .def("product", numpy_of_ids(streamed_product), py::arg("ids"),
           "(n, d) float32: one_hot(ids, V).float() @ W, streamed through W")
      .def(
          "routes",
          [](const Table& t, const IdArray& ids) {
            const Ids checked = ids_from(ids);
            Matrix rows, out;
            const Verdict verdict = released([&] {
              rows = lookup(t, checked);
              out = streamed_product(t, checked);
              return grade_comparison(rows, out, RoutePair::lookup);
            });
            return py::make_tuple(matrix_to_numpy(rows), matrix_to_numpy(out), verdict);
          },
          py::arg("ids"), "(lookup, product, verdict): both routes and their grade")
      .def(
          "heatmap",
          [](const Table& t, Index height, Index width) {
            StreamOptions options;
            options.downsample_height = height;
            options.downsample_width = width;
            return matrix_to_numpy(released([&] {
              StreamedProduct pass(t, Encoding{0, t.rows(), {}}, options);
              pass.run();
              return pass.downsample();
            }));
          },
          py::arg("height"), py::arg("width"),
          "W in at most height x width float32 pixels, each its block's first NaN or value of "
          "largest magnitude (streamed.hpp's Downsample)")
      .def(
          "to_array",
          [](const Table& t) { return matrix_to_numpy(released([&] { return t.to_matrix(); })); },
          "W (V, d) as float32, held whole (within the limit on a matrix held whole)");

  py::class_<TableFile>(m, "TableFile", "A table file opened by what it holds")
      .def_readonly("table", &TableFile::table)
      .def_property_readonly("format", [](const TableFile& f) { return format_name(f.format); })
      .def_readonly("tensor", &TableFile::tensor)
      .def_readonly("origin", &TableFile::origin)
      .def_readonly("has_head", &TableFile::has_head)
      .def_readonly("tokens", &TableFile::tokens);

  m.def(
      "open_table",
      [](const std::string& path, const std::string& tensor) {
        return released([&] { return open_table_file(path, tensor); });
      },
      py::arg("path"), py::arg("tensor") = "",
      "The table of a .npy, .safetensors (or a sharded checkpoint's index) or GGUF file");
  m.def(
      "tensor_table",
      [](const py::object& buffer, const std::string& dtype, const std::vector<Index>& shape,
         const std::string& name) {
        return tensor_table(std::make_shared<BufferSource>(buffer), dtype, shape, name);
      },
      py::arg("buffer"), py::arg("dtype"), py::arg("shape"), py::arg("name"),
      "A table over a buffer's little-endian bytes of a .safetensors dtype (\"F32\", \"BF16\", "
      "...) and shape, read in place");
}

}  // namespace embedlab::python
