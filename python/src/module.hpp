#pragma once
// The parts of the module _embedlab, each binding one part of the core.
#include <pybind11/pybind11.h>

namespace embedlab::python {

void bind_tables(pybind11::module_& m);  // tables.cpp

}  // namespace embedlab::python
