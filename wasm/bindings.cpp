// Embind bindings of the core, used through the wrapper embedlab.mjs (see README.md); the
// .safetensors reader's are in safetensors_bindings.cpp.
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

#include "embedlab/backward.hpp"
#include "embedlab/compare.hpp"
#include "embedlab/embedding_bag.hpp"
#include "embedlab/error.hpp"
#include "embedlab/format.hpp"
#include "embedlab/ids.hpp"
#include "embedlab/limits.hpp"
#include "embedlab/lookup.hpp"
#include "embedlab/max_norm.hpp"
#include "embedlab/npy.hpp"
#include "embedlab/onehot.hpp"
#include "embedlab/routes.hpp"
#include "embedlab/sample_weights.hpp"
#include "embedlab/torch_init.hpp"
#include "embedlab/verdict.hpp"
#include "embedlab/weights.hpp"
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

val seeded_table_js(double seed, double vocab, double dim) {
  return guarded([&] {
    TorchGenerator gen(to_index(seed, Argument::seed, "the seed"));
    return matrix_to_js(init_embedding(gen, to_index(vocab, Argument::vocab, "the vocabulary size V"),
                                       to_index(dim, Argument::dim, "the embedding dimension d")));
  });
}

val randn_js(double seed, double rows, double cols) {
  return guarded([&] {
    TorchGenerator gen(to_index(seed, Argument::seed, "the seed"));
    return matrix_to_js(torch_randn(gen, to_index(rows, Argument::grad, "rows"),
                                          to_index(cols, Argument::grad, "cols")));
  });
}

val tf_table_js(double vocab, double dim) {
  return guarded([&] {
    return matrix_to_js(tf_fixed_weights(to_index(vocab, Argument::vocab, "the vocabulary size V"),
                                         to_index(dim, Argument::dim, "the embedding dimension d")));
  });
}

val npy_table_js(const val& bytes) {
  return guarded([&] {
    const auto data = emscripten::convertJSArrayToNumberVector<unsigned char>(bytes);
    return matrix_to_js(
        parse_npy(std::string_view(reinterpret_cast<const char*>(data.data()), data.size())));
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

val lookup_js(const val& weight, const val& ids) {
  return guarded([&] { return matrix_to_js(lookup(matrix_from_js(weight, Argument::weights, "W"), ids_from_js(ids))); });
}

val one_hot_js(const val& ids, double vocab) {
  return guarded([&] {
    return matrix_to_js(one_hot(ids_from_js(ids), to_index(vocab, Argument::vocab, "the vocabulary size V")));
  });
}

val onehot_product_js(const val& onehot, const val& weight) {
  return guarded([&] {
    return matrix_to_js(onehot_product(matrix_from_js(onehot, Argument::onehot, "onehot"), matrix_from_js(weight, Argument::weights, "W")));
  });
}

val linear_weight_js(const val& weight) {
  return guarded([&] { return matrix_to_js(linear_weight(matrix_from_js(weight, Argument::weights, "W"))); });
}

val compare_js(const val& expected, const val& actual, const std::string& pair) {
  return guarded([&] {
    return graded_to_js(matrix_from_js(expected, Argument::compared, "expected"),
                        matrix_from_js(actual, Argument::compared, "actual"), parse_route_pair(pair));
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
    const auto texts = format_elements(emscripten::convertJSArrayToNumberVector<double>(shown),
                                       emscripten::convertJSArrayToNumberVector<double>(values), integer);
    val out = val::array();
    for (std::size_t i = 0; i < texts.size(); ++i) out.set(i, texts[i]);
    return out;
  });
}

// The page's request in one call: W crosses once and the n x V one-hot never leaves the module
// (copying it out and back in was most of a keystroke's time at n = 64, V = 4096).
val both_routes_js(const val& weight, const val& ids) {
  return guarded([&] {
    const Routes routes = both_routes(matrix_from_js(weight, Argument::weights, "W"), ids_from_js(ids));
    val out = val::object();
    out.set("comparison", graded_to_js(routes.lookup, routes.product, RoutePair::lookup));
    out.set("lookup", matrix_to_js(routes.lookup));
    out.set("product", matrix_to_js(routes.product));
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
      return val(format_tensor(rows, cols, [&](Index i, Index j) {
        return at.call<float>("call", m, static_cast<double>(i), static_cast<double>(j));
      }, style));
    }
    return val(format_tensor(matrix_from_js(m, Argument::compared, "M"), style));
  });
}

val embedding_backward_js(const val& ids, const val& grad, double vocab, const val& options) {
  return guarded([&] {
    return matrix_to_js(embedding_backward(ids_from_js(ids), matrix_from_js(grad, Argument::grad, "G"),
                                           to_index(vocab, Argument::vocab, "the vocabulary size V"),
                                           embedding_options_from_js(options)));
  });
}

val onehot_backward_js(const val& onehot, const val& grad) {
  return guarded([&] {
    return matrix_to_js(onehot_backward(matrix_from_js(onehot, Argument::onehot, "onehot"), matrix_from_js(grad, Argument::grad, "G")));
  });
}

val embedding_bag_js(const val& weight, const val& ids, const val& offsets, const val& options) {
  return guarded([&] {
    return bag_output_to_js(embedding_bag(matrix_from_js(weight, Argument::weights, "W"),
                                          ids_from_js(ids),
                                          int64s_from_js(offsets, Argument::offsets, "offset"),
                                          bag_options_from_js(options)));
  });
}

val bag_matrix_js(const val& ids, const val& offsets, double vocab, const val& options) {
  return guarded([&] {
    return matrix_to_js(bag_matrix(ids_from_js(ids), int64s_from_js(offsets, Argument::offsets, "offset"),
                                   to_index(vocab, Argument::vocab, "the vocabulary size V"),
                                   bag_options_from_js(options)));
  });
}

// forward: what embeddingBag returned for the same ids, offsets and options.
val embedding_bag_backward_js(const val& ids, const val& offsets, const val& grad,
                              const val& forward, double vocab, const val& options) {
  return guarded([&] {
    return matrix_to_js(embedding_bag_backward(
        ids_from_js(ids), int64s_from_js(offsets, Argument::offsets, "offset"), matrix_from_js(grad, Argument::grad, "G"),
        bag_output_from_js(forward),
        to_index(vocab, Argument::vocab, "the vocabulary size V"), bag_options_from_js(options)));
  });
}

// W is not changed: the result holds a renormalised copy and the rows that were scaled.
val embedding_renorm_js(const val& weight, const val& ids, double max_norm, double norm_type) {
  return guarded([&] {
    Matrix w = matrix_from_js(weight, Argument::weights, "W");
    const Ids scaled = embedding_renorm(w, ids_from_js(ids), max_norm, norm_type);
    val out = val::object();
    out.set("weight", matrix_to_js(w));
    out.set("scaledRows", int64s_to_js(scaled));
    return out;
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
  return out;
}

}  // namespace
}  // namespace embedlab

EMSCRIPTEN_BINDINGS(embedlab) {
  using namespace embedlab;
  emscripten::function("parseIds", &parse_ids_js);
  emscripten::function("defaultVocab", &default_vocab_js);
  emscripten::function("checkIds", &check_ids_js);
  emscripten::function("seededTable", &seeded_table_js);
  emscripten::function("randn", &randn_js);
  emscripten::function("tfTable", &tf_table_js);
  emscripten::function("npyTable", &npy_table_js);
  emscripten::function("linearInit", &linear_init_js);
  emscripten::function("lookup", &lookup_js);
  emscripten::function("oneHot", &one_hot_js);
  emscripten::function("onehotProduct", &onehot_product_js);
  emscripten::function("linearWeight", &linear_weight_js);
  emscripten::function("compare", &compare_js);
  emscripten::function("bothRoutes", &both_routes_js);
  emscripten::function("formatTensor", &format_tensor_js);
  emscripten::function("formatElements", &format_elements_js);
  emscripten::function("verdictDefinitions", &verdict_definitions_js);
  emscripten::function("limits", &limits_js);
  emscripten::function("argumentNames", &argument_names_js);
  emscripten::function("parseSampleWeights", &parse_sample_weights_js);
  emscripten::function("checkSizes", &check_sizes_js);
  emscripten::function("checkIdCount", &check_id_count_js);
  emscripten::function("embeddingBackward", &embedding_backward_js);
  emscripten::function("onehotBackward", &onehot_backward_js);
  emscripten::function("embeddingBag", &embedding_bag_js);
  emscripten::function("bagMatrix", &bag_matrix_js);
  emscripten::function("embeddingBagBackward", &embedding_bag_backward_js);
  emscripten::function("embeddingRenorm", &embedding_renorm_js);
}
