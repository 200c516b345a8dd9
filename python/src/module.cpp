// _embedlab: the core (core/) for Python, the compiled half of the package embedlab. A thin layer:
// it converts arguments, and raises the core's InputError as EmbedlabInputError (a ValueError)
// with the core's own message and its argument's name, so that the package spells no limit,
// message, grade or printing rule of its own.
#include "module.hpp"

#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "arrays.hpp"
#include "embedlab/compare.hpp"
#include "embedlab/error.hpp"
#include "embedlab/format.hpp"
#include "embedlab/ids.hpp"
#include "embedlab/limits.hpp"
#include "embedlab/notes.hpp"
#include "embedlab/padding_idx.hpp"
#include "embedlab/row_window.hpp"
#include "embedlab/verdict.hpp"

namespace embedlab::python {
namespace {

py::dict limits_dict() {
  py::dict d;
  d["max_ids"] = default_limits.max_ids;
  d["max_vocab"] = default_limits.max_vocab;
  d["max_dim"] = default_limits.max_dim;
  d["max_elements"] = default_limits.max_elements;
  return d;
}

py::dict views_dict() {
  py::dict d;
  d["whole_values"] = kWholeViewValues;
  d["edge_rows"] = kEdgeRows;
  d["heatmap_rows"] = kHeatmapRows;
  d["heatmap_cols"] = kHeatmapCols;
  return d;
}

void bind_errors(py::module_& m) {
  // Created once, kept for the module's life (pybind11's pattern for a custom exception).
  static py::exception<InputError> error(m, "EmbedlabInputError", PyExc_ValueError);
  error.doc() =
      "Bad input, in the core's words; `argument` names the input it is about, as PyTorch names "
      "its arguments ('ids', 'vocab', 'dim', 'weights', 'padding_idx', ...).";
  py::register_exception_translator([](std::exception_ptr raised) {
    try {
      if (raised) std::rethrow_exception(raised);
    } catch (const InputError& e) {
      py::object instance = py::handle(error.ptr())(e.what());  // an instance, not yet raised
      instance.attr("argument") = std::string(argument_name(e.argument()));
      PyErr_SetObject(error.ptr(), instance.ptr());
    }
  });
  std::vector<std::string> names;
  for (const Argument a : all_arguments()) names.emplace_back(argument_name(a));
  m.attr("argument_names") = names;
}

void bind_checks(py::module_& m) {
  m.attr("limits") = limits_dict();
  m.def("check_request_sizes",
        [](Index n, Index vocab, Index dim) { check_request_sizes(n, vocab, dim, false); });
  m.def("check_onehot_shape", [](Index n, Index vocab) { check_onehot_shape(n, vocab); });
  m.def("parse_ids", [](const std::string& text) { return ids_to_numpy(parse_ids(text)); });
  m.def("check_ids", [](const IdArray& ids, Index vocab) { check_ids(ids_from(ids), vocab); });
  m.def("resolve_padding_idx", [](std::optional<Index> padding_idx, Index vocab) {
    return resolve_padding_idx(padding_idx, vocab);
  });
  m.attr("views") = views_dict();
  m.def("views_hold_whole", &views_hold_whole);
  m.def("drawn_rows", [](Index vocab, const IdArray& ids) {
    return ids_to_numpy(drawn_rows(vocab, ids_from(ids)));
  });
}

void bind_printing(py::module_& m) {
  m.def(
      "format_tensor",
      [](const Matrix& values, const std::string& header, const std::vector<std::string>& suffixes,
         bool integer) {
        return format_tensor(values, TensorStyle{header, suffixes, integer});
      },
      py::arg("values"), py::arg("header") = "", py::arg("suffixes") = std::vector<std::string>{},
      py::arg("integer") = false);
  m.def("format_elements", &format_elements, py::arg("shown"), py::arg("values"),
        py::arg("integer") = false);
  m.def("printed_indices", &printed_indices, py::arg("size"), py::arg("rows"), py::arg("cols"));
  m.def("count_text", &count_text);
}

void bind_verdicts(py::module_& m) {
  py::class_<Verdict>(m, "Verdict", "Two results graded by the core (verdict.hpp)")
      .def_property_readonly("grade", [](const Verdict& v) { return grade_name(v.grade); })
      .def_property_readonly("headline", [](const Verdict& v) { return std::string(v.headline); })
      .def_readonly("sentence", &Verdict::sentence)
      .def_property_readonly("text", &verdict_text)
      .def_readonly("max_abs_diff", &Verdict::max_abs_diff)
      .def_readonly("max_ulps", &Verdict::max_ulps)
      .def_property_readonly("differing",
                             [](const Verdict& v) { return ids_to_numpy(v.differing); })
      .def("__repr__", &verdict_text);
  m.def(
      "grade",
      [](const Table& expected, const Table& actual, const std::string& pair) {
        const RoutePair parsed = parse_route_pair(pair);
        const Matrix a = expected.to_matrix(), b = actual.to_matrix();
        return released([&] { return grade_comparison(a, b, parsed); });
      },
      py::arg("expected"), py::arg("actual"), py::arg("pair") = "lookup");
  m.def("torch_equal", [](const Table& a, const Table& b) {
    const Matrix x = a.to_matrix(), y = b.to_matrix();
    return released([&] { return torch_equal(x, y); });
  });
  m.def("forward_cost_note", &forward_cost_note, py::arg("n"), py::arg("vocab"), py::arg("dim"));
}

}  // namespace
}  // namespace embedlab::python

PYBIND11_MODULE(_embedlab, m) {
  using namespace embedlab::python;
  m.doc() = "The embedlab core (C++17): the package embedlab's checks, tables, routes and verdicts";
  bind_errors(m);
  bind_checks(m);
  bind_printing(m);
  bind_verdicts(m);
  bind_tables(m);
}
