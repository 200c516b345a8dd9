// Timing entry points of the benchmark module (embedlab-bench-core.mjs, wrapped by
// wasm/bench/embedlab-bench.mjs), built apart from the module the page and the package load.
// The table, ids and results stay in WASM memory between calls and each method runs `calls`
// times inside one call from JavaScript, so the harness's clock, read around that call,
// measures no JS <-> WASM copies (the public API in bindings.cpp copies its arguments and
// results on every call).
//
//   benchLoad(table: Float32Array (V*d), vocab, dim, ids: Int32Array) -> undefined | error
//   benchRun(method, calls) -> undefined | error; method is one of
//     "memcpy"  one contiguous copy of the n*d output floats (the floor)
//     "gather"  gather_rows, the lookup kernel, into a reused (n, d) buffer
//     "lookup"  lookup(): id checks, allocation, kernel
//     "oneHot"  building the (n, V) one-hot matrix
//     "dense"   onehot_product: the (n, V) x (V, d) GEMM on a one-hot built beforehand
//   benchOutput() -> Float32Array copy of the last "gather"/"lookup"/"dense" result
// Errors come back as { embedlabError: message, argument? }: `argument` where the core's
// InputError names one; a harness's misuse (unknown method, no table loaded) has none.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "embedlab/error.hpp"
#include "embedlab/ids.hpp"
#include "embedlab/limits.hpp"
#include "embedlab/lookup.hpp"
#include "embedlab/onehot.hpp"

namespace embedlab {
namespace {

using emscripten::val;

struct BenchInputs {
  Matrix table;   // (V, d)
  Ids ids;        // n
  Matrix onehot;  // (n, V), built on the first "dense" call
  Matrix source;  // (n, d): what the memcpy floor copies, contiguous
  Matrix out;     // (n, d)
};

BenchInputs& inputs() {
  static BenchInputs state;
  return state;
}

template <class F>
val error_as_value(F f) {
  val out = val::object();
  try {
    return f();
  } catch (const InputError& e) {
    out.set("argument", std::string(argument_name(e.argument())));
    out.set("embedlabError", std::string(e.what()));
  } catch (const std::exception& e) {  // bad_alloc, a harness's misuse: the message is the report
    out.set("embedlabError", std::string(e.what()));
  }
  return out;
}

val bench_load(const val& table, double vocab, double dim, const val& ids) {
  return error_as_value([&] {
    BenchInputs& s = inputs();
    const auto v = static_cast<Index>(vocab), d = static_cast<Index>(dim);
    check_table_shape(v, d);
    if (table["length"].as<double>() != static_cast<double>(v * d))
      throw InputError(Argument::weights, "benchLoad: the table must hold V * d = " +
                                              std::to_string(v * d) + " floats");
    check_id_count(static_cast<Index>(ids["length"].as<double>()));
    const std::vector<std::int32_t> id32 =
        emscripten::convertJSArrayToNumberVector<std::int32_t>(ids);
    Ids checked(id32.begin(), id32.end());
    check_ids(checked, v);
    check_output_shape(static_cast<Index>(checked.size()), d);
    // Only inputs that passed every check are kept: the kernels trust them.
    s = BenchInputs{};  // frees the previous shape's memory first
    s.table.resize(v, d);
    val(emscripten::typed_memory_view(s.table.size(), s.table.data())).call<void>("set", table);
    s.ids = std::move(checked);
    s.source = Matrix::Zero(static_cast<Index>(s.ids.size()), d);
    s.out.resize(s.source.rows(), d);
    return val::undefined();
  });
}

// One call of `method`; the result lands in s.out where there is one.
void run_once(BenchInputs& s, const std::string& method) {
  if (method == "memcpy") {
    std::memcpy(s.out.data(), s.source.data(),
                static_cast<std::size_t>(s.out.size()) * sizeof(float));
  } else if (method == "gather") {
    gather_rows(s.table.data(), s.table.cols(), s.ids.data(), s.out.rows(), s.out.data());
  } else if (method == "lookup") {
    s.out = lookup(s.table, s.ids);
  } else if (method == "oneHot") {
    s.onehot = one_hot(s.ids, s.table.rows());
  } else if (method == "dense") {
    s.out = onehot_product(s.onehot, s.table);
  }
}

val bench_run(const std::string& method, double calls) {
  return error_as_value([&] {
    BenchInputs& s = inputs();
    if (s.table.size() == 0) throw std::logic_error("benchRun: call benchLoad first");
    if (method != "memcpy" && method != "gather" && method != "lookup" && method != "oneHot" &&
        method != "dense")
      throw std::invalid_argument("benchRun: unknown method \"" + method + "\"");
    if (method == "dense" && s.onehot.cols() != s.table.rows())
      s.onehot = one_hot(s.ids, s.table.rows());
    for (double k = 0; k < calls; ++k) run_once(s, method);
    return val::undefined();
  });
}

val bench_output() {
  const Matrix& out = inputs().out;
  return val::global("Float32Array").new_(emscripten::typed_memory_view(out.size(), out.data()));
}

}  // namespace
}  // namespace embedlab

EMSCRIPTEN_BINDINGS(embedlab_bench) {
  emscripten::function("benchLoad", &embedlab::bench_load);
  emscripten::function("benchRun", &embedlab::bench_run);
  emscripten::function("benchOutput", &embedlab::bench_output);
}
