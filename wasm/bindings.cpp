// Embind bindings of the core that need no table, used through the wrapper embedlab.mjs (see
// README.md): ids and weights as typed, the checks a front end runs before any work, the
// generator's draws, PyTorch's printing and the graded comparison. What is computed on a table
// (a lookup, a product, a gradient, bags) is its handle's (table_bindings.cpp).
// Data crosses the boundary in bulk: arrays come in through one typed-array copy
// (convertJSArrayToNumberVector) and results go out as freshly copied typed arrays, never as
// views into WASM memory (a view is detached when memory grows).
// Errors never cross as C++ exceptions: each entry point returns its result or an error value
// (js_values.hpp).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <optional>
#include <string>
#include <vector>

#include "embedlab/compare.hpp"
#include "embedlab/error.hpp"
#include "embedlab/format.hpp"
#include "embedlab/ids.hpp"
#include "embedlab/limits.hpp"
#include "embedlab/padding_idx.hpp"
#include "embedlab/sample_weights.hpp"
#include "embedlab/tied_head.hpp"
#include "embedlab/torch_init.hpp"
#include "embedlab/verdict.hpp"
#include "js_values.hpp"

namespace embedlab {
namespace {

using emscripten::val;
using namespace js;

val parse_ids_js(const std::string& text) {
  return guarded([&] { return exact_ids_to_js(parse_ids(text), ""); });
}

val default_vocab_js(const val& ids) {
  return guarded([&] { return val(static_cast<double>(default_vocab(ids_from_js(ids)))); });
}

val check_ids_js(const val& ids, double vocab) {
  return guarded([&] {
    check_ids(ids_from_js(ids), to_index(vocab, Argument::vocab, "the vocabulary size V"));
    return val::undefined();
  });
}

val randn_js(double seed, double rows, double cols) {
  return guarded([&] {
    TorchGenerator gen(to_index(seed, Argument::seed, "the seed"));
    return matrix_to_js(torch_randn(gen, to_index(rows, Argument::grad, "rows"),
                                    to_index(cols, Argument::grad, "cols")));
  });
}

val linear_init_js(double seed, double in_features, double out_features, bool bias) {
  return guarded([&] {
    TorchGenerator gen(to_index(seed, Argument::seed, "the seed"));
    const LinearParams p = init_linear(gen, to_index(in_features, Argument::vocab, "in_features"),
                                       to_index(out_features, Argument::dim, "out_features"), bias);
    val out = val::object();
    out.set("weight", matrix_to_js(p.weight));
    out.set("bias", bias ? matrix_to_js(p.bias) : val::null());
    return out;
  });
}

val compare_js(const val& expected, const val& actual, const std::string& pair) {
  return guarded([&] {
    return graded_to_js(matrix_from_js(expected, Argument::compared, "expected"),
                        matrix_from_js(actual, Argument::compared, "actual"),
                        parse_route_pair(pair));
  });
}

// The words the grades are explained with, shown where a verdict appears.
val verdict_definitions_js() {
  val out = val::object();
  out.set("identical", std::string(kBitIdenticalDefinition));
  out.set("value", std::string(kEqualInValueDefinition));
  return out;
}

// Each of values (any numbers) as PyTorch prints an element of a tensor whose shown elements are
// `shown`: an Array of strings.
val format_elements_js(const val& shown, const val& values, bool integer) {
  return guarded([&] {
    const auto texts =
        format_elements(emscripten::convertJSArrayToNumberVector<double>(shown),
                        emscripten::convertJSArrayToNumberVector<double>(values), integer);
    val out = val::array();
    for (std::size_t i = 0; i < texts.size(); ++i) out.set(i, texts[i]);
    return out;
  });
}

// suffixes: an array of strings (checked by the wrapper); few and short, so read one by one.
// m: a matrix, or cells { rows, cols, at(i, j) } of one not held whole (a table's window), whose
// at() is called for the printed elements only.
val format_tensor_js(const val& m, const std::string& header, const val& suffixes, bool integer) {
  return guarded([&] {
    TensorStyle style;
    style.header = header;
    style.suffixes = emscripten::vecFromJSArray<std::string>(suffixes);
    style.integer = integer;
    if (m["data"].isUndefined()) {
      const Index rows = to_index(m["rows"].as<double>(), Argument::compared, "M.rows");
      const Index cols = to_index(m["cols"].as<double>(), Argument::compared, "M.cols");
      const val at = m["at"];
      return val(format_tensor(
          rows, cols,
          [&](Index i, Index j) {
            return at.call<float>("call", m, static_cast<double>(i), static_cast<double>(j));
          },
          style));
    }
    return val(format_tensor(matrix_from_js(m, Argument::compared, "M"), style));
  });
}

// { values: Float32Array, texts: ["1", "0.5"], literals: ["1.0", "0.5"] }: the weights, as
// typed, and as Python literals.
val parse_sample_weights_js(const std::string& text) {
  return guarded([&] {
    const SampleWeights w = parse_sample_weights(text);
    val out = val::object();
    out.set("values", val::global("Float32Array")
                          .new_(emscripten::typed_memory_view(w.values.size(), w.values.data())));
    out.set("texts", strings_to_js(w.texts));
    out.set("literals", strings_to_js(w.literals));
    return out;
  });
}

// Every matrix a request for n ids, V and d makes (W, the one-hot, the results) against the
// limits, before anything is made. vocabFromIds: V was not typed but is max(ids) + 1, so V's
// errors are errors of the ids.
val check_sizes_js(double n, double vocab, double dim, bool vocab_from_ids, bool held) {
  return guarded([&] {
    const Argument vocab_from = vocab_from_ids ? Argument::ids : Argument::vocab;
    const Index rows = to_index(n, Argument::ids, "the number of ids n");
    const Index v = to_index(vocab, vocab_from, "the vocabulary size V");
    const Index d = to_index(dim, Argument::dim, "the embedding dimension d");
    check_request_sizes(rows, v, d, held, default_limits, vocab_from);
    return val::undefined();
  });
}

// n ids against the most one request takes: the core's message, for ids that come from elsewhere
// (a tokenizer's) before anything else is made of them.
val check_id_count_js(double n) {
  return guarded([&] {
    check_id_count(to_index(n, Argument::ids, "the number of ids n"), default_limits);
    return val::undefined();
  });
}

// padding_idx (null: none) against V: the core's range, [-V, V).
val check_padding_idx_js(const val& padding_idx, double vocab) {
  return guarded([&] {
    std::optional<Index> p;
    if (!padding_idx.isNull())
      p = to_index(padding_idx.as<double>(), Argument::padding_idx, "padding_idx");
    resolve_padding_idx(p, to_index(vocab, Argument::vocab, "the vocabulary size V"));
    return val::undefined();
  });
}

// Every argument name an error can carry, in the core's order.
val argument_names_js() {
  val out = val::array();
  for (const Argument a : all_arguments()) out.call<void>("push", std::string(argument_name(a)));
  return out;
}

val limits_js() {
  val out = val::object();
  out.set("maxIds", static_cast<double>(default_limits.max_ids));
  out.set("maxVocab", static_cast<double>(default_limits.max_vocab));
  out.set("maxDim", static_cast<double>(default_limits.max_dim));
  out.set("maxElements", static_cast<double>(default_limits.max_elements));
  out.set("maxConfigBytes", static_cast<double>(kMaxConfigBytes));
  return out;
}

}  // namespace
}  // namespace embedlab

EMSCRIPTEN_BINDINGS(embedlab) {
  using namespace embedlab;
  emscripten::function("parseIds", &parse_ids_js);
  emscripten::function("defaultVocab", &default_vocab_js);
  emscripten::function("checkIds", &check_ids_js);
  emscripten::function("randn", &randn_js);
  emscripten::function("linearInit", &linear_init_js);
  emscripten::function("compare", &compare_js);
  emscripten::function("formatTensor", &format_tensor_js);
  emscripten::function("formatElements", &format_elements_js);
  emscripten::function("verdictDefinitions", &verdict_definitions_js);
  emscripten::function("limits", &limits_js);
  emscripten::function("argumentNames", &argument_names_js);
  emscripten::function("parseSampleWeights", &parse_sample_weights_js);
  emscripten::function("checkSizes", &check_sizes_js);
  emscripten::function("checkIdCount", &check_id_count_js);
  emscripten::function("checkPaddingIdx", &check_padding_idx_js);
}
