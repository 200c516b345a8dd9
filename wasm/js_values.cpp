// The conversions between JavaScript values and the core's types that every binding file uses
// (js_values.hpp).
#include "js_values.hpp"

#include <emscripten/bind.h>

#include <optional>
#include <string>
#include <vector>

#include "embedlab/limits.hpp"

namespace embedlab::js {
namespace {

// JavaScript numbers hold whole numbers exactly up to 2^53: a larger id would arrive rounded,
// and an error about it would name another id.
constexpr std::int64_t kLargestExactId = std::int64_t{1} << 53;

}  // namespace

std::optional<Index> padding_idx_from_js(const val& options) {
  const val padding = options["paddingIdx"];
  if (padding.isNull()) return std::nullopt;
  return to_index(padding.as<double>(), Argument::padding_idx, "paddingIdx");
}

val exact_ids_to_js(const Ids& ids, const std::string& where) {
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] > kLargestExactId)
      throw InputError(Argument::ids,
                       where + "token " + std::to_string(i + 1) + " is " + std::to_string(ids[i]) +
                           ": ids above 2^53 = " + std::to_string(kLargestExactId) +
                           " cannot be passed on exactly as JavaScript numbers (no vocabulary "
                           "is that large)");
  }
  return int64s_to_js(ids);
}

Ids int64s_from_js(const val& values, Argument argument, const std::string& noun) {
  check_count(static_cast<Index>(values["length"].as<double>()), argument, (noun + "s").c_str());
  const std::vector<double> numbers = emscripten::convertJSArrayToNumberVector<double>(values);
  Ids out(numbers.size());
  for (std::size_t i = 0; i < numbers.size(); ++i)
    out[i] = to_index(numbers[i], argument,
                      [&] { return "the " + noun + " at position " + std::to_string(i + 1); });
  return out;
}

std::string bytes_from_js(const val& bytes) {
  std::string out(bytes["length"].as<std::size_t>(), '\0');
  val(emscripten::typed_memory_view(out.size(), reinterpret_cast<unsigned char*>(out.data())))
      .call<void>("set", bytes);
  return out;
}

Ids ids_from_js(const val& ids) {
  check_id_count(static_cast<Index>(ids["length"].as<double>()));
  return int64s_from_js(ids, Argument::ids, "id");
}

val int64s_to_js(const Ids& values) {
  const std::vector<double> numbers(values.begin(), values.end());
  return val::global("Float64Array")
      .new_(emscripten::typed_memory_view(numbers.size(), numbers.data()));
}

Matrix matrix_from_js(const val& m, Argument argument, const std::string& name) {
  const Index rows = to_index(m["rows"].as<double>(), argument, name + ".rows");
  const Index cols = to_index(m["cols"].as<double>(), argument, name + ".cols");
  check_elements(rows, cols, argument, name.c_str());
  const auto length = m["data"]["length"].as<double>();
  if (length != static_cast<double>(rows * cols))
    throw InputError(argument, name + ".data holds " + js_text(length) + " numbers, but " + name +
                                   " is " + std::to_string(rows) + " x " + std::to_string(cols) +
                                   " = " + std::to_string(rows * cols));
  Matrix out(rows, cols);
  if (out.size() > 0)
    val(emscripten::typed_memory_view(out.size(), out.data())).call<void>("set", m["data"]);
  return out;
}

val comparison_to_js(const Comparison& c) {
  val out = val::object();
  out.set("elements", static_cast<double>(c.elements));
  out.set("bitIdentical", static_cast<double>(c.bit_identical));
  out.set("valueEqual", static_cast<double>(c.value_equal));
  out.set("nanMismatches", static_cast<double>(c.nan_mismatches));
  out.set("signedZeroMismatches", static_cast<double>(c.signed_zero_mismatches));
  out.set("maxAbsDiff", c.max_abs_diff);
  out.set("identical", c.identical);
  out.set("torchEqual", c.torch_equal);
  return out;
}

val strings_to_js(const std::vector<std::string>& items) {
  val out = val::array();
  for (const std::string& item : items) out.call<void>("push", item);
  return out;
}

// null, or { row, text, rest: { state, headline } }: text is defined_text(), printed between the
// verdict's headline and sentence.
val defined_to_js(const std::optional<DefinedDifference>& defined) {
  if (!defined) return val::null();
  val out = val::object();
  out.set("row", static_cast<double>(defined->row));
  out.set("text", defined_text(*defined));
  val rest = val::object();
  rest.set("state", std::string(grade_name(defined->rest)));
  rest.set("headline", std::string(defined->rest_headline));
  out.set("rest", rest);
  return out;
}

val verdict_to_js(const Verdict& v) {
  val out = val::object();
  out.set("state", std::string(grade_name(v.grade)));
  out.set("headline", std::string(v.headline));
  out.set("sentence", v.sentence);
  out.set("maxAbsDiff", v.max_abs_diff);
  out.set("maxAbsDiffText", abs_diff_text(v.max_abs_diff));
  out.set("maxUlps", static_cast<double>(v.max_ulps));
  out.set("defined", defined_to_js(v.defined));
  if (v.differing.empty()) {
    out.set("differing", val::null());
  } else {
    const std::vector<std::int32_t> positions(v.differing.begin(), v.differing.end());
    out.set("differing",
            val::global("Int32Array")
                .new_(emscripten::typed_memory_view(positions.size(), positions.data())));
  }
  return out;
}

val graded_to_js(const Grader& grader) {
  val out = comparison_to_js(grader.comparison());
  out.set("grade", verdict_to_js(grader.verdict()));
  return out;
}

val graded_to_js(const Matrix& expected, const Matrix& actual, RoutePair pair) {
  check_comparable(expected, actual);
  Grader grader(pair);
  grader.add(expected.data(), actual.data(), expected.size());
  return graded_to_js(grader);
}

val bag_output_to_js(const BagOutput& bags) {
  val out = val::object();
  out.set("output", matrix_to_js(bags.output));
  out.set("bagSize", int64s_to_js(bags.bag_size));
  out.set("maxRows", int64s_to_js(bags.max_rows));
  return out;
}

BagOutput bag_output_from_js(const val& forward) {
  BagOutput bags;
  bags.output = matrix_from_js(forward["output"], Argument::grad, "forward.output");
  bags.bag_size = int64s_from_js(forward["bagSize"], Argument::grad, "forward.bagSize entry");
  bags.max_rows = int64s_from_js(forward["maxRows"], Argument::grad, "forward.maxRows entry");
  return bags;
}

EmbeddingOptions embedding_options_from_js(const val& options) {
  EmbeddingOptions out;
  out.padding_idx = padding_idx_from_js(options);
  out.scale_grad_by_freq = options["scaleGradByFreq"].as<bool>();
  return out;
}

BagOptions bag_options_from_js(const val& options) {
  BagOptions out;  // the core's defaults (nn.EmbeddingBag's) where the wrapper passes null
  if (!options["mode"].isNull()) out.mode = parse_bag_mode(options["mode"].as<std::string>());
  out.include_last_offset = options["includeLastOffset"].as<bool>();
  out.padding_idx = padding_idx_from_js(options);
  const val weights = options["perSampleWeights"];
  if (!weights.isNull()) {
    check_count(static_cast<Index>(weights["length"].as<double>()), Argument::per_sample_weights,
                "per_sample_weights");
    out.per_sample_weights = emscripten::convertJSArrayToNumberVector<float>(weights);
  }
  out.scale_grad_by_freq = options["scaleGradByFreq"].as<bool>();
  return out;
}

}  // namespace embedlab::js
