#pragma once
// What every binding file of the page's module (bindings.cpp, safetensors_bindings.cpp) shares:
// JS numbers checked into the core's types, matrices copied out, and the core's errors turned
// into values. Errors never cross as C++ exceptions: each entry point returns its result, or
// { embedlabError: message, argument: name or null }, which the wrapper embedlab.mjs throws as
// an EmbedlabError whose argument says which input the message is about.
#include <emscripten/val.h>

#include <cmath>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "embedlab/backward.hpp"
#include "embedlab/compare.hpp"
#include "embedlab/embedding_bag.hpp"
#include "embedlab/error.hpp"
#include "embedlab/matrix.hpp"
#include "embedlab/verdict.hpp"

namespace embedlab::js {

using emscripten::val;

// How JavaScript writes the number, so a message shows what the caller passed.
inline std::string js_text(double x) { return val(x).call<std::string>("toString"); }

// Whether a JS number is a whole number representable as int64.
inline bool is_int64(double x) {
  constexpr double kTwoPow63 = 9223372036854775808.0;
  return std::isfinite(x) && std::trunc(x) == x && x >= -kTwoPow63 && x < kTwoPow63;
}

// A JS number that must be a whole number representable as int64: cast without overflow.
inline Index to_index(double x, Argument argument, const std::string& what) {
  if (is_int64(x)) return static_cast<Index>(x);
  if (!std::isfinite(x) || std::trunc(x) != x)
    throw InputError(argument, what + " must be a whole number, got " + js_text(x));
  throw InputError(argument, what + " = " + js_text(x) + " is too large: it must fit in int64");
}

// The same, with x's name spelled (what() -> std::string) only for a message: a loop over the
// ids runs at every keystroke.
template <typename What, typename = std::enable_if_t<std::is_invocable_v<const What&>>>
Index to_index(double x, Argument argument, const What& what) {
  return is_int64(x) ? static_cast<Index>(x) : to_index(x, argument, what());
}

// A fresh Float32Array copy: a view into WASM memory would be detached when memory grows.
inline val matrix_to_js(const Matrix& m) {
  val out = val::object();
  out.set("rows", static_cast<double>(m.rows()));
  out.set("cols", static_cast<double>(m.cols()));
  out.set("data",
          val::global("Float32Array").new_(emscripten::typed_memory_view(m.size(), m.data())));
  return out;
}

// Any array of whole numbers -> int64s; `noun` names an element in messages ("id", "offset").
// The count is checked before anything is allocated.
Ids int64s_from_js(const val& values, Argument argument, const std::string& noun);
// A Uint8Array's bytes, in one bulk copy.
std::string bytes_from_js(const val& bytes);
Ids ids_from_js(const val& ids);
val int64s_to_js(const Ids& values);
// An array of strings (the core's notes, a parser's texts).
val strings_to_js(const std::vector<std::string>& items);
// Parsed ids as a Float64Array; InputError (of ids) for an id above 2^53, which a JS number
// cannot hold exactly. where: the start of the message ("" or "batch 2: ").
val exact_ids_to_js(const Ids& ids, const std::string& where);

// { rows, cols, data } -> Matrix, with one bulk copy after the shape is checked.
Matrix matrix_from_js(const val& m, Argument argument, const std::string& name);

val comparison_to_js(const Comparison& c);
// The core's grade of two compared results (verdict.hpp): what every front end prints.
val verdict_to_js(const Verdict& v);
// compare()'s counts with the core's grade beside them, as `grade`: of everything the grader was
// fed, or of two whole results (InputError of compared unless their shapes agree).
val graded_to_js(const Grader& grader);
val graded_to_js(const Matrix& expected, const Matrix& actual, RoutePair pair);

// { output, bagSize, maxRows }: what embeddingBag returns, and takes back as a forward result.
val bag_output_to_js(const BagOutput& bags);
BagOutput bag_output_from_js(const val& forward);

// Options objects arrive complete from the wrapper: { paddingIdx: number or null, ... }.
std::optional<Index> padding_idx_from_js(const val& options);
EmbeddingOptions embedding_options_from_js(const val& options);
BagOptions bag_options_from_js(const val& options);

// argument: null where no input is to blame (memory, an internal error).
inline val error_value(const std::string& message, const val& argument = val::null()) {
  val out = val::object();
  out.set("embedlabError", message);
  out.set("argument", argument);
  return out;
}

// Runs f(), turning what the core throws into an error value with its message verbatim.
template <class F>
val guarded(F f) {
  try {
    return f();
  } catch (const InputError& e) {
    return error_value(e.what(), val(std::string(argument_name(e.argument()))));
  } catch (const std::bad_alloc&) {
    return error_value(
        "out of memory: the WebAssembly module could not allocate enough memory for this "
        "request (it can use at most 2 GiB); try a smaller vocabulary, dimension or id list");
  } catch (const std::exception& e) {
    return error_value(std::string("internal error in embedlab: ") + e.what());
  }
}

// out.table = found(), or null with out.tableError the core's InputError: a file whose table
// cannot be chosen is still described, and the page says why beside it.
template <class F>
void set_table_or_error(val& out, F found) {
  try {
    out.set("table", found());
    out.set("tableError", val::null());
  } catch (const InputError& e) {
    out.set("table", val::null());
    out.set("tableError", std::string(e.what()));
  }
}

}  // namespace embedlab::js
