// The native side of the WASM differential test (differential.test.mjs): reads cases from stdin,
// one per line, runs each on the native core and prints one JSON result per line, so that the
// test can compare them with the same cases run through the WebAssembly module's JS API.
//
// A case is the JS function's name and its arguments, separated by tabs. Arguments: numbers and
// booleans (0/1) in decimal, ids as a comma list, text and bytes as hex, a matrix as
// "ROWSxCOLS:" followed by 8 hex digits (the float32's bits) per element, an options object as
// "key=value;key=value" (values encoded the same way; a list of strings as a comma list of hex;
// null options left out). A table handle's opener (openSeededTable, ...) takes its own arguments
// and then the ids its lookup and product run with (table_run_json). A method of a handle
// ("table.backward", ...) takes the table first, as harness.mjs says, and runs here on the
// core's whole-matrix functions, so that the module's handle is held against them.
// seededTraining and tableTraining take their arguments with the optimizer spread out (its name,
// its hyperparameters as options, the training's options) and then the batches as text, and
// step through every batch (training_json).
// Results: {"ids": [...]}, {"number": x}, {"ok": true}, {"matrix": "..."}, {"string": "..."},
// {"weight": "...", "bias": "..." or null}, {"compare": {...}}, {"backward": {...}},
// {"bag": {...}}, {"strings": [...]},
// {"renorm": {...}}, {"weights": {"values": [...], "literals": [...]}}, {"boolean": b},
// {"header": {...}}, {"tableRun": {...}}, {"index": {...}},
// {"batches": [[...], ...]}, {"training": {...}}, or
// {"error": "message", "argument": "name"}.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "embedlab/backward.hpp"
#include "embedlab/checkpoint_positions.hpp"
#include "embedlab/compare.hpp"
#include "embedlab/data_loader.hpp"
#include "embedlab/embedding_bag.hpp"
#include "embedlab/encoding.hpp"
#include "embedlab/error.hpp"
#include "embedlab/float_bits.hpp"
#include "embedlab/format.hpp"
#include "embedlab/gguf.hpp"
#include "embedlab/ids.hpp"
#include "embedlab/limits.hpp"
#include "embedlab/lookup.hpp"
#include "embedlab/max_norm.hpp"
#include "embedlab/next_token.hpp"
#include "embedlab/npy.hpp"
#include "embedlab/onehot.hpp"
#include "embedlab/padding_idx.hpp"
#include "embedlab/positions.hpp"
#include "embedlab/safetensors.hpp"
#include "embedlab/safetensors_index.hpp"
#include "embedlab/sample_weights.hpp"
#include "embedlab/streamed.hpp"
#include "embedlab/table.hpp"
#include "embedlab/tied_head.hpp"
#include "embedlab/torch_init.hpp"
#include "embedlab/training.hpp"
#include "embedlab/training_run.hpp"
#include "embedlab/verdict.hpp"
#include "embedlab/weights.hpp"
#include "embedlab/window_training.hpp"

namespace {

using namespace embedlab;

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t at; (at = text.find(separator, start)) != std::string::npos; start = at + 1)
    parts.push_back(text.substr(start, at - start));
  parts.push_back(text.substr(start));
  return parts;
}

std::string from_hex(const std::string& hex) {
  std::string bytes;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
    bytes += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  return bytes;
}

Ids ids_of(const std::string& field) {
  Ids ids;
  if (field.empty()) return ids;
  for (const std::string& id : split(field, ',')) ids.push_back(std::stoll(id));
  return ids;
}

std::vector<double> doubles_of(const std::string& field) {
  std::vector<double> values;
  if (field.empty()) return values;
  for (const std::string& x : split(field, ',')) values.push_back(std::stod(x));
  return values;
}

Matrix matrix_of(const std::string& field) {
  const std::size_t x = field.find('x'), colon = field.find(':');
  Matrix m(std::stoll(field.substr(0, x)), std::stoll(field.substr(x + 1, colon - x - 1)));
  for (Index i = 0; i < m.size(); ++i) {
    m.data()[i] = float_from_bits(
        static_cast<std::uint32_t>(std::stoul(field.substr(colon + 1 + 8 * i, 8), nullptr, 16)));
  }
  return m;
}

using Options = std::map<std::string, std::string>;

Options options_of(const std::string& field) {
  Options options;
  if (field.empty()) return options;
  for (const std::string& entry : split(field, ';')) {
    const std::size_t eq = entry.find('=');
    options[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  return options;
}

TensorStyle style_of(const Options& o) {
  TensorStyle style;
  if (o.count("header")) style.header = from_hex(o.at("header"));
  if (o.count("suffixes") && !o.at("suffixes").empty())
    for (const std::string& suffix : split(o.at("suffixes"), ','))
      style.suffixes.push_back(from_hex(suffix));
  style.integer = o.count("integer") && o.at("integer") == "1";
  return style;
}

EmbeddingOptions embedding_options_of(const Options& o) {
  EmbeddingOptions options;
  if (o.count("paddingIdx")) options.padding_idx = std::stoll(o.at("paddingIdx"));
  options.scale_grad_by_freq = o.count("scaleGradByFreq") && o.at("scaleGradByFreq") == "1";
  return options;
}

BagOptions bag_options_of(const Options& o) {
  BagOptions options;  // the core's defaults, where the case leaves an option out
  if (o.count("mode")) options.mode = parse_bag_mode(from_hex(o.at("mode")));
  options.include_last_offset = o.count("includeLastOffset") && o.at("includeLastOffset") == "1";
  if (o.count("paddingIdx")) options.padding_idx = std::stoll(o.at("paddingIdx"));
  if (o.count("perSampleWeights") && !o.at("perSampleWeights").empty())
    for (const std::string& w : split(o.at("perSampleWeights"), ','))
      options.per_sample_weights.push_back(static_cast<float>(std::stod(w)));
  options.scale_grad_by_freq = o.count("scaleGradByFreq") && o.at("scaleGradByFreq") == "1";
  return options;
}

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned char>(c));
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string number_json(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", x);
  return text;
}

std::string matrix_json(const Matrix& m) {
  std::string out = "\"" + std::to_string(m.rows()) + "x" + std::to_string(m.cols()) + ":";
  for (Index i = 0; i < m.size(); ++i) {
    char hex[9];
    std::snprintf(hex, sizeof hex, "%08" PRIx32, float_bits(m.data()[i]));
    out += hex;
  }
  return out + "\"";
}

std::string ids_json(const Ids& ids) {
  std::string out = "[";
  for (std::size_t i = 0; i < ids.size(); ++i)
    out += (i ? ", " : "") + number_json(static_cast<double>(ids[i]));
  return out + "]";
}

std::string compare_json(const Comparison& c) {
  return "{\"elements\": " + std::to_string(c.elements) +
         ", \"bitIdentical\": " + std::to_string(c.bit_identical) +
         ", \"valueEqual\": " + std::to_string(c.value_equal) +
         ", \"nanMismatches\": " + std::to_string(c.nan_mismatches) +
         ", \"signedZeroMismatches\": " + std::to_string(c.signed_zero_mismatches) +
         ", \"maxAbsDiff\": " + number_json(c.max_abs_diff) +
         ", \"identical\": " + (c.identical ? "true" : "false") +
         ", \"torchEqual\": " + (c.torch_equal ? "true" : "false") + "}";
}

std::string u64_json(std::uint64_t x) { return number_json(static_cast<double>(x)); }

// JSON has no NaN or infinity: those travel as the strings JavaScript's String() gives them.
std::string finite_or_name_json(double x) {
  if (std::isnan(x)) return "\"NaN\"";
  if (std::isinf(x)) return x > 0 ? "\"Infinity\"" : "\"-Infinity\"";
  return number_json(x);
}

std::string grade_json(const Verdict& v) {
  std::string differing = "null";
  if (!v.differing.empty()) {
    differing = "[";
    for (std::size_t i = 0; i < v.differing.size(); ++i)
      differing += (i ? ", " : "") + std::to_string(v.differing[i]);
    differing += "]";
  }
  std::string defined = "null";
  if (v.defined) {
    defined = "{\"row\": " + std::to_string(v.defined->row) +
              ", \"text\": " + json_string(defined_text(*v.defined)) +
              ", \"rest\": {\"state\": " + json_string(std::string(grade_name(v.defined->rest))) +
              ", \"headline\": " + json_string(std::string(v.defined->rest_headline)) + "}}";
  }
  return "{\"state\": " + json_string(std::string(grade_name(v.grade))) +
         ", \"headline\": " + json_string(std::string(v.headline)) +
         ", \"sentence\": " + json_string(v.sentence) +
         ", \"maxAbsDiff\": " + finite_or_name_json(v.max_abs_diff) +
         ", \"maxAbsDiffText\": " + json_string(abs_diff_text(v.max_abs_diff)) +
         ", \"maxUlps\": " + std::to_string(v.max_ulps) + ", \"differing\": " + differing +
         ", \"defined\": " + defined + "}";
}

// compare()'s counts with the core's grade for `pair`, as the module returns them.
std::string graded_json(const Matrix& expected, const Matrix& actual, RoutePair pair) {
  const Comparison c = compare(expected, actual);
  const std::string counts = compare_json(c);
  return counts.substr(0, counts.size() - 1) +
         ", \"grade\": " + grade_json(grade_comparison(expected, actual, pair)) + "}";
}

std::string header_json(const SafetensorsHeader& header, const std::string& name) {
  const auto candidates = embedding_table_candidates(header);
  std::string tensors = "[";
  for (const SafetensorsEntry& e : header.tensors) {
    std::string shape = "[";
    for (std::size_t i = 0; i < e.shape.size(); ++i)
      shape += (i ? ", " : "") + number_json(static_cast<double>(e.shape[i]));
    const bool candidate = std::find(candidates.begin(), candidates.end(), &e) != candidates.end();
    tensors += std::string(tensors.size() > 1 ? ", " : "") + "{\"name\": " + json_string(e.name) +
               ", \"dtype\": " + json_string(e.dtype) + ", \"shape\": " + shape + "]" +
               ", \"begin\": " + u64_json(e.begin) + ", \"end\": " + u64_json(e.end) +
               ", \"candidate\": " + (candidate ? "true" : "false") +
               ", \"conversion\": " + json_string(dtype_conversion_text(e.dtype)) + "}";
  }
  std::string metadata = "[";
  for (const auto& [key, value] : header.metadata)
    metadata += std::string(metadata.size() > 1 ? ", " : "") + "[" + json_string(key) + ", " +
                json_string(value) + "]";
  std::string table = "null", table_error = "null";
  try {
    table = json_string(choose_embedding_table(header, name).name);
  } catch (const InputError& e) {
    table_error = json_string(e.what());
  }
  return "{\"fileSize\": " + u64_json(header.file_size) +
         ", \"dataStart\": " + u64_json(header.data_start) + ", \"tensors\": " + tensors +
         "], \"metadata\": " + metadata + "], \"table\": " + table +
         ", \"tableError\": " + table_error + "}";
}

// A whole GGUF file's header as the module's ggufHeader gives it (wasm/gguf_bindings.cpp).
std::string gguf_header_json(const std::string& file, const std::string& name) {
  const GgufHeader h = read_gguf_header(*memory_source(file));
  std::string tensors = "[", metadata = "[", table = "null", error = "null";
  bool head = false;
  for (const GgufTensor& t : h.tensors) {
    std::string ne = "[", shape = "[";
    for (std::size_t i = 0; i < t.ne.size(); ++i) ne += (i ? ", " : "") + u64_json(t.ne[i]);
    const std::vector<Index> dims = gguf_shape(t);
    for (std::size_t i = 0; i < dims.size(); ++i)
      shape += (i ? ", " : "") + std::to_string(dims[i]);
    tensors += std::string(tensors.size() > 1 ? ", " : "") + "{\"name\": " + json_string(t.name) +
               ", \"dtype\": " + json_string(ggml_type_name(t.type)) + ", \"ne\": " + ne +
               "], \"shape\": " + shape + "], \"begin\": " + u64_json(t.begin) +
               ", \"end\": " + u64_json(t.end) +
               ", \"candidate\": " + (t.name == kGgufTableName ? "true" : "false") +
               ", \"conversion\": " + json_string(ggml_conversion_text(t.type)) + "}";
    head = head || t.name == kGgufHeadName;
  }
  for (const GgufMetadata& m : h.metadata)
    metadata += std::string(metadata.size() > 1 ? ", " : "") + "[" + json_string(m.key) + ", " +
                json_string(m.type + ": " + m.text) + "]";
  std::string tokens = h.tokens.empty() ? "null" : "[";
  for (std::size_t i = 0; i < h.tokens.size(); ++i)
    tokens += (i ? ", " : "") + json_string(h.tokens[i]) + (i + 1 == h.tokens.size() ? "]" : "");
  try {
    table = json_string(choose_gguf_table(h, name).name);
  } catch (const InputError& e) {
    error = json_string(e.what());
  }
  return "{\"header\": {\"version\": " + std::to_string(h.version) +
         ", \"fileSize\": " + u64_json(h.file_size) + ", \"dataStart\": " + u64_json(h.data_start) +
         ", \"tensors\": " + tensors + "], \"metadata\": " + metadata +
         "], \"hasHead\": " + (head ? "true" : "false") + ", \"tokens\": " + tokens +
         ", \"table\": " + table + ", \"tableError\": " + error + "}}";
}

// A table handle's run as the JS harness makes it: its description, its rows, its lookup, its
// product streamed in blocks of 512 rows with a 3 x 4 heatmap of W, and their comparison.
std::string table_run_json(const Table& t, const std::string& name, const Ids& ids,
                           std::string conversion = {}) {
  const Matrix rows = lookup(t, ids);
  StreamOptions options;
  options.block_rows = 512;
  options.downsample_height = 3;
  options.downsample_width = 4;
  StreamedProduct product(t, one_hot_encoding(ids, t.rows()), options);
  product.run();
  const std::string dtype(stored_float_name(t.dtype()));
  if (conversion.empty()) conversion = dtype_conversion_text(dtype);
  Matrix weight(t.rows(), t.cols());
  t.read_rows(0, t.rows(), weight.data());
  return "{\"tableRun\": {\"info\": {\"rows\": " + std::to_string(t.rows()) +
         ", \"cols\": " + std::to_string(t.cols()) + ", \"dtype\": " + json_string(dtype) +
         ", \"name\": " + (name.empty() ? "null" : json_string(name)) +
         ", \"conversion\": " + json_string(conversion) +
         ", \"inMemory\": " + (t.in_memory() ? "true" : "false") +
         ", \"storedBytes\": " + u64_json(t.stored_bytes()) +
         "}, \"weight\": " + matrix_json(weight) + ", \"lookup\": " + matrix_json(rows) +
         ", \"product\": " + matrix_json(product.result()) +
         ", \"comparison\": " + graded_json(rows, product.result(), RoutePair::lookup) +
         ", \"heatmap\": " + matrix_json(product.downsample()) + "}}";
}

// An optimizer's name and its hyperparameters ("lr=0.1;betas=0.9,0.999;nesterov=1"), with the
// training options ("sparse=1;paddingIdx=-1"): each hyperparameter over PyTorch's defaults, as
// the JS API puts them.
TrainingOptions training_options_of(const std::string& name, const Options& hyper,
                                    const Options& o) {
  TrainingOptions t;
  t.optimizer = optimizer_defaults(parse_optimizer(name));
  for (const auto& [key, value] : hyper) {
    const auto& all = all_arguments();
    const std::string& wanted = key;  // C++17 lambdas cannot capture a structured binding
    const Argument a = *std::find_if(all.begin(), all.end(),
                                     [&](Argument x) { return argument_name(x) == wanted; });
    switch (option_form(a)) {
      case OptionForm::number:
        set_optimizer_option(t.optimizer, a, std::stod(value));
        break;
      case OptionForm::flag:
        set_optimizer_option(t.optimizer, a, value == "1" ? 1.0 : 0.0);
        break;
      case OptionForm::pair: {
        const std::vector<double> betas = doubles_of(value);
        set_optimizer_betas(t.optimizer, betas.at(0), betas.at(1));
        break;
      }
    }
  }
  t.sparse = o.count("sparse") && o.at("sparse") == "1";
  if (o.count("paddingIdx")) t.padding_idx = std::stoll(o.at("paddingIdx"));
  return t;
}

// optimizer.state[embedding.weight] for one row, as rowState() returns it.
std::string row_state_json(const SideBySideTraining& t, Index row) {
  std::string state = "[";
  for (const RowState& s : row_state(t.embedding_optimizer().state(), row))
    state += std::string(state.size() > 1 ? ", " : "") +
             "{\"name\": " + json_string(std::string(s.name)) +
             ", \"values\": " + matrix_json(s.values) + "}";
  return "{\"step\": " + std::to_string(t.embedding_optimizer().state().step) +
         ", \"state\": " + state + "]}";
}

// A training run as the JS harness makes it: its start, then each batch's step with every row's
// optimizer state after it.
std::string training_json(TrainingRun run, const std::vector<Ids>& batches) {
  const SideBySideTraining& t = run.training();
  std::string out =
      "{\"training\": {\"weight\": " + matrix_json(t.embedding_weight()) +
      ", \"paddingRow\": " + (t.padding_row() < 0 ? "null" : std::to_string(t.padding_row())) +
      ", \"linearRefusal\": " +
      (t.linear_refusal().empty() ? "null" : json_string(t.linear_refusal())) + ", \"steps\": [";
  for (std::size_t b = 0; b < batches.size(); ++b) {
    const DrawnStep drawn = run.step(batches[b]);
    const TrainingStep& s = drawn.step;
    Ids rows;
    std::string causes = "[";
    for (const ChangedRow& c : s.changed) {
      rows.push_back(c.row);
      causes += std::string(causes.size() > 1 ? ", " : "") +
                json_string(std::string(row_cause_name(c.cause)));
    }
    std::string states = "[";
    for (Index r = 0; r < t.embedding_weight().rows(); ++r)
      states += std::string(r ? ", " : "") + row_state_json(t, r);
    const bool linear = s.verdict.has_value();
    out +=
        std::string(b ? ", " : "") + "{\"step\": " + std::to_string(s.step) +
        ", \"batch\": " + ids_json(batches[b]) + ", \"upstream\": " + matrix_json(drawn.upstream) +
        ", \"embeddingWeight\": " + matrix_json(t.embedding_weight()) +
        ", \"linearWeight\": " + (linear ? matrix_json(t.linear_weight()) : "null") +
        ", \"changedRows\": " + ids_json(rows) + ", \"changedCauses\": " + causes + "]" +
        ", \"linearChanged\": " + (linear ? ids_json(s.linear_changed) : "null") +
        ", \"verdict\": " +
        (linear ? graded_json(t.embedding_weight(), t.linear_weight(),
                              t.options().sparse ? RoutePair::sparse_training : RoutePair::training)
                : "null") +
        ", \"rowStates\": " + states + "]}";
  }
  return out + "]}}";
}

// A positions handle's embed() and each position's top 3 ids, for batch on these tables;
// `extra` is appended inside "positions" (a checkpoint's names and tying).
// { maxLength, stride, batchSize, shuffle } as the cases give them.
LoaderOptions loader_of(const Options& o) {
  LoaderOptions loader;
  loader.max_length = std::stoll(o.at("maxLength"));
  loader.stride = std::stoll(o.at("stride"));
  loader.batch_size = std::stoll(o.at("batchSize"));
  loader.shuffle = o.at("shuffle") == "1";
  return loader;
}

// The harness's windowRun(): the drawn tables, then each of `steps` steps' batch and changed rows.
std::string window_json(WindowTraining& run, Index steps) {
  static const char* roles[] = {"none", "input", "target", "input_and_target"};
  const NextTokenTraining& m = run.model();
  std::string out = "{\"windowTraining\": {\"weight\": " + matrix_json(m.embedding_weight()) +
                    ", \"positionWeight\": " +
                    (m.context_length() > 0 ? matrix_json(m.position_weight()) : "null") +
                    ", \"windows\": " + std::to_string(run.loader().windows()) +
                    ", \"batchesPerEpoch\": " + std::to_string(run.loader().batches_per_epoch()) +
                    ", \"steps\": [";
  for (Index k = 0; k < steps; ++k) {
    const WindowStep s = run.step();
    Ids rows;
    std::string causes = "[", named = "[";
    for (std::size_t i = 0; i < s.step.changed.size(); ++i) {
      const ChangedRow& c = s.step.changed[i];
      rows.push_back(c.row);
      causes += (i ? ", " : "") + json_string(std::string(row_cause_name(c.cause)));
      named += (i ? ", " : "") + json_string(roles[static_cast<int>(c.role)]);
    }
    out += std::string(k ? ", " : "") + "{\"epoch\": " + std::to_string(s.batch.epoch) +
           ", \"windows\": " + ids_json(s.batch.windows) +
           ", \"inputs\": " + ids_json(s.step.inputs) +
           ", \"targets\": " + ids_json(s.step.targets) + ", \"changedRows\": " + ids_json(rows) +
           ", \"changedCauses\": " + causes + "], \"changedRoles\": " + named + "]}";
  }
  return out + "]}}";
}

std::string positions_json(const Table& token, const Table& position, const std::string& text,
                           const std::string& extra) {
  const TokenBatch batch = token_batch(parse_batches(text));
  check_ids(batch.ids, token.rows());
  check_context(batch.length, position.rows());
  const Matrix tokens = lookup(token, batch.ids);
  const Matrix positions = position_rows(position, batch.length);
  const Matrix product = position_product(position, batch.length);
  HeadOptions options;
  options.top_k = 3;
  StreamedHead head(token, add_positions(tokens, positions), options);
  head.run();
  std::string top = "[";
  for (std::size_t i = 0; i < head.top().size(); ++i) {
    Ids ids;
    for (const TopLogit& t : head.top()[i]) ids.push_back(t.id);
    top += (i ? ", " : "") + ids_json(ids);
  }
  return "{\"positions\": {\"rows\": " + std::to_string(batch.rows) +
         ", \"length\": " + std::to_string(batch.length) +
         ", \"tokenEmbeddings\": " + matrix_json(tokens) +
         ", \"posEmbeddings\": " + matrix_json(positions) +
         ", \"positionProduct\": " + matrix_json(product) +
         ", \"comparison\": " + graded_json(positions, product, RoutePair::lookup) +
         ", \"inputEmbeddings\": " + matrix_json(add_positions(tokens, positions)) +
         ", \"topIds\": " + top + "]" + extra + "}}";
}

std::string run(const std::vector<std::string>& a) {
  const std::string& op = a.at(0);
  if (op == "parseIds") return "{\"ids\": " + ids_json(parse_ids(from_hex(a.at(1)))) + "}";
  if (op == "defaultVocab")
    return "{\"number\": " + number_json(static_cast<double>(default_vocab(ids_of(a.at(1))))) + "}";
  if (op == "checkIds") {
    check_ids(ids_of(a.at(1)), std::stoll(a.at(2)));
    return "{\"ok\": true}";
  }
  if (op == "randn") {
    TorchGenerator gen(std::stoll(a.at(1)));
    return "{\"matrix\": " +
           matrix_json(torch_randn(gen, std::stoll(a.at(2)), std::stoll(a.at(3)))) + "}";
  }
  if (op == "linearInit") {
    TorchGenerator gen(std::stoll(a.at(1)));
    const bool bias = a.at(4) == "1";
    const LinearParams p = init_linear(gen, std::stoll(a.at(2)), std::stoll(a.at(3)), bias);
    return "{\"weight\": " + matrix_json(p.weight) +
           ", \"bias\": " + (bias ? matrix_json(p.bias) : "null") + "}";
  }
  if (op == "compare") {
    const RoutePair pair = a.size() > 3 ? parse_route_pair(from_hex(a.at(3))) : RoutePair::lookup;
    return "{\"compare\": " + graded_json(matrix_of(a.at(1)), matrix_of(a.at(2)), pair) + "}";
  }
  if (op == "formatElements") {
    std::string out = "{\"strings\": [";
    const Options o = options_of(a.at(3));
    const auto texts = format_elements(doubles_of(a.at(1)), doubles_of(a.at(2)),
                                       o.count("integer") && o.at("integer") == "1");
    for (std::size_t i = 0; i < texts.size(); ++i) out += (i ? ", " : "") + json_string(texts[i]);
    return out + "]}";
  }
  if (op == "formatTensor")
    return "{\"string\": " +
           json_string(format_tensor(matrix_of(a.at(1)), style_of(options_of(a.at(2))))) + "}";
  if (op == "parseSampleWeights") {
    const SampleWeights w = parse_sample_weights(from_hex(a.at(1)));
    std::string values = "[", texts = "[", literals = "[";
    for (std::size_t i = 0; i < w.values.size(); ++i) {
      values += (i ? ", " : "") + number_json(w.values[i]);
      texts += (i ? ", " : "") + json_string(w.texts[i]);
      literals += (i ? ", " : "") + json_string(w.literals[i]);
    }
    return "{\"weights\": {\"values\": " + values + "], \"texts\": " + texts +
           "], \"literals\": " + literals + "]}}";
  }
  if (op == "checkSizes") {
    check_request_sizes(std::stoll(a.at(1)), std::stoll(a.at(2)), std::stoll(a.at(3)),
                        a.size() <= 5 || a.at(5) == "1", default_limits,
                        a.size() > 4 && a.at(4) == "1" ? Argument::ids : Argument::vocab);
    return "{\"ok\": true}";
  }
  if (op == "checkIdCount") {
    check_id_count(std::stoll(a.at(1)), default_limits);
    return "{\"ok\": true}";
  }
  if (op == "checkPaddingIdx") {
    resolve_padding_idx(std::stoll(a.at(1)), std::stoll(a.at(2)));
    return "{\"ok\": true}";
  }
  if (op == "table.backward") {
    const Matrix grad = matrix_of(a.at(3));
    const Table t(tf_fixed_weights(std::stoll(a.at(1)), grad.cols()));  // as the module opens it
    const Ids ids = ids_of(a.at(2));
    const Matrix scatter =
        embedding_backward(ids, grad, t.rows(), embedding_options_of(options_of(a.at(4))));
    return "{\"backward\": {\"scatter\": " + matrix_json(scatter) + ", \"gemm\": " +
           (a.at(5) == "1" ? matrix_json(onehot_backward(one_hot(ids, t.rows()), grad)) : "null") +
           "}}";
  }
  if (op == "table.embeddingBag") {
    const BagOutput bags = embedding_bag(parse_npy(from_hex(a.at(1))), ids_of(a.at(2)),
                                         ids_of(a.at(3)), bag_options_of(options_of(a.at(4))));
    return "{\"bag\": {\"output\": " + matrix_json(bags.output) +
           ", \"bagSize\": " + ids_json(bags.bag_size) +
           ", \"maxRows\": " + ids_json(bags.max_rows) + "}}";
  }
  if (op == "table.bagBackward") {
    const Matrix weight = parse_npy(from_hex(a.at(1)));
    const Ids ids = ids_of(a.at(2)), offsets = ids_of(a.at(3));
    const BagOptions options = bag_options_of(options_of(a.at(5)));
    const BagOutput forward = embedding_bag(weight, ids, offsets, options);
    return "{\"matrix\": " +
           matrix_json(embedding_bag_backward(ids, offsets, matrix_of(a.at(4)), forward,
                                              weight.rows(), options)) +
           "}";
  }
  if (op == "table.bagMatrix") {
    const Table t(tf_fixed_weights(std::stoll(a.at(1)), 1));  // as the module opens it
    return "{\"matrix\": " +
           matrix_json(bag_matrix(ids_of(a.at(2)), ids_of(a.at(3)), t.rows(),
                                  bag_options_of(options_of(a.at(4))))) +
           "}";
  }
  if (op == "table.renorm") {
    Matrix weight = parse_npy(from_hex(a.at(1)));
    const Ids scaled =
        embedding_renorm(weight, ids_of(a.at(2)), std::stod(a.at(3)), std::stod(a.at(4)));
    return "{\"renorm\": {\"weight\": " + matrix_json(weight) +
           ", \"scaledRows\": " + ids_json(scaled) + "}}";
  }
  if (op == "table.rowsAt") {
    const std::string file = from_hex(a.at(1));
    const SafetensorsEntry entry =
        open_safetensors_table(memory_source(file), from_hex(a.at(2))).entry;
    const Matrix whole = convert_safetensors_table(
        entry, std::string_view(file).substr(entry.begin, entry.end - entry.begin));
    return "{\"matrix\": " +
           matrix_json(whole.middleRows(std::stoll(a.at(3)), std::stoll(a.at(4)))) + "}";
  }
  if (op == "hasNpyMagic")
    return std::string("{\"boolean\": ") + (has_npy_magic(from_hex(a.at(1))) ? "true" : "false") +
           "}";
  if (op == "hasGgufMagic")
    return std::string("{\"boolean\": ") + (has_gguf_magic(from_hex(a.at(1))) ? "true" : "false") +
           "}";
  if (op == "ggufHeader") return gguf_header_json(from_hex(a.at(1)), from_hex(a.at(3)));
  if (op == "openGgufTable") {
    const GgufTable t = open_gguf_table(memory_source(from_hex(a.at(1))), from_hex(a.at(2)));
    return table_run_json(t.table, t.tensor.name, ids_of(a.at(3)),
                          ggml_conversion_text(t.tensor.type));
  }
  if (op == "safetensorsHeaderSize")
    return "{\"number\": " +
           u64_json(safetensors_header_size(from_hex(a.at(1)), std::stoull(a.at(2)))) + "}";
  if (op == "safetensorsHeader")
    return "{\"header\": " +
           header_json(parse_safetensors_header(from_hex(a.at(1)), std::stoull(a.at(2))),
                       a.size() > 3 ? from_hex(a.at(3)) : std::string()) +
           "}";
  if (op == "safetensorsIndex") {
    const SafetensorsIndex index = parse_safetensors_index(from_hex(a.at(1)));
    std::string map = "[", shards = "[", table = "null", error = "null";
    for (const auto& [tensor, shard] : index.weight_map)
      map += std::string(map.size() > 1 ? ", " : "") + "[" + json_string(tensor) + ", " +
             json_string(shard) + "]";
    for (const std::string& shard : index.shards)
      shards += std::string(shards.size() > 1 ? ", " : "") + json_string(shard);
    try {
      const IndexedTable found = find_indexed_table(index, from_hex(a.at(2)));
      table = "{\"tensor\": " + json_string(found.tensor) +
              ", \"shard\": " + json_string(found.shard) + "}";
    } catch (const InputError& e) {
      error = json_string(e.what());
    }
    return "{\"index\": {\"weightMap\": " + map + "], \"shards\": " + shards +
           "], \"table\": " + table + ", \"tableError\": " + error + "}}";
  }
  if (op == "openSeededTable") {
    TorchGenerator gen(std::stoll(a.at(1)));
    return table_run_json(Table(init_embedding(gen, std::stoll(a.at(2)), std::stoll(a.at(3)))), "",
                          ids_of(a.at(4)));
  }
  if (op == "openTfTable")
    return table_run_json(Table(tf_fixed_weights(std::stoll(a.at(1)), std::stoll(a.at(2)))), "",
                          ids_of(a.at(3)));
  if (op == "openNpyTable")
    return table_run_json(open_npy_table(memory_source(from_hex(a.at(1)))), "", ids_of(a.at(2)));
  if (op == "openSafetensorsTable") {
    const SafetensorsTable t =
        open_safetensors_table(memory_source(from_hex(a.at(1))), from_hex(a.at(2)));
    return table_run_json(t.table, t.entry.name, ids_of(a.at(3)));
  }
  if (op == "parseBatches") {
    std::string out = "{\"batches\": [";
    const std::vector<Ids> batches = parse_batches(from_hex(a.at(1)));
    for (std::size_t b = 0; b < batches.size(); ++b) out += (b ? ", " : "") + ids_json(batches[b]);
    return out + "]}";
  }
  if (op == "optimizerCode") {
    const TrainingOptions t = training_options_of(from_hex(a.at(1)), options_of(a.at(2)), {});
    check_optimizer_options(t.optimizer);
    return "{\"string\": " + json_string(optimizer_code(t.optimizer, from_hex(a.at(3)))) + "}";
  }
  if (op == "checkTraining") {
    check_training(
        std::stoll(a.at(1)), std::stoll(a.at(2)),
        training_options_of(from_hex(a.at(3)), options_of(a.at(4)), options_of(a.at(5))));
    return "{\"ok\": true}";
  }
  if (op == "seededTraining") {
    const std::vector<Ids> batches = parse_batches(from_hex(a.at(7)));
    return training_json(
        TrainingRun::seeded(
            std::stoll(a.at(1)), std::stoll(a.at(2)), std::stoll(a.at(3)),
            training_options_of(from_hex(a.at(4)), options_of(a.at(5)), options_of(a.at(6)))),
        batches);
  }
  if (op == "tableTraining") {
    const std::vector<Ids> batches = parse_batches(from_hex(a.at(5)));
    const Options o = options_of(a.at(4));
    const std::int64_t grad_seed =
        o.count("gradSeed") ? std::stoll(o.at("gradSeed")) : kNotebookSeed;
    return training_json(
        TrainingRun::from_table(matrix_of(a.at(1)),
                                training_options_of(from_hex(a.at(2)), options_of(a.at(3)), o),
                                grad_seed),
        batches);
  }
  if (op == "openSeededPositions") {
    PositionTables tables = seeded_position_tables(std::stoll(a.at(1)), std::stoll(a.at(2)),
                                                   std::stoll(a.at(3)), std::stoll(a.at(4)));
    return positions_json(Table(std::move(tables.token)), Table(std::move(tables.position)),
                          from_hex(a.at(5)), "");
  }
  if (op == "openCheckpointPositions") {
    const CheckpointPositions c =
        open_checkpoint_positions(memory_source(from_hex(a.at(1))), from_hex(a.at(2)));
    return positions_json(c.token, c.position, from_hex(a.at(3)),
                          ", \"checkpoint\": {\"tokenTensor\": " + json_string(c.token_tensor) +
                              ", \"positionTensor\": " + json_string(c.position_tensor) +
                              ", \"tied\": " + (c.tying.tied ? "true" : "false") +
                              ", \"tyingReason\": " + json_string(c.tying.reason) + "}");
  }
  if (op == "seededNextTokenTraining") {
    const TrainingOptions t = training_options_of(from_hex(a.at(5)), options_of(a.at(6)), {});
    NextTokenTraining run =
        NextTokenTraining::seeded(std::stoll(a.at(1)), std::stoll(a.at(2)), std::stoll(a.at(3)),
                                  parse_head_kind(from_hex(a.at(4))), t.optimizer);
    std::string out = "{\"nextToken\": {\"weight\": " + matrix_json(run.embedding_weight()) +
                      ", \"headWeight\": " + matrix_json(run.head_weight()) + ", \"steps\": [";
    const std::vector<Ids> batches = parse_batches(from_hex(a.at(7)));
    for (std::size_t b = 0; b < batches.size(); ++b) {
      const NextTokenStep step = run.step(batches[b]);
      Ids rows;
      std::string causes = "[";
      for (std::size_t i = 0; i < step.changed.size(); ++i) {
        rows.push_back(step.changed[i].row);
        causes += (i ? ", " : "") + json_string(std::string(row_cause_name(step.changed[i].cause)));
      }
      out += std::string(b ? ", " : "") + "{\"inputs\": " + ids_json(step.inputs) +
             ", \"targets\": " + ids_json(step.targets) + ", \"changedRows\": " + ids_json(rows) +
             ", \"changedCauses\": " + causes + "]}";
    }
    return out + "]}}";
  }
  if (op == "checkLoader") {
    check_loader(std::stoll(a.at(1)), loader_of(options_of(a.at(2))));
    return "{\"ok\": true}";
  }
  if (op == "windowTraining") {
    const TrainingOptions t = training_options_of(from_hex(a.at(6)), options_of(a.at(7)), {});
    const Options o = options_of(a.at(8));
    WindowTraining run =
        WindowTraining::seeded(std::stoll(a.at(1)), std::stoll(a.at(2)), std::stoll(a.at(3)),
                               parse_head_kind(from_hex(a.at(5))), t.optimizer,
                               o.at("positions") == "1", ids_of(a.at(4)), loader_of(o));
    return window_json(run, std::stoll(a.at(9)));
  }
  if (op == "openPositionTables") {
    const Matrix token = matrix_of(a.at(1)), position = matrix_of(a.at(2));
    check_position_tables(token, position);
    return positions_json(Table(token), Table(position), from_hex(a.at(3)), "");
  }
  throw std::runtime_error("unknown case " + op);
}

}  // namespace

int main() {
  for (std::string line; std::getline(std::cin, line);) {
    std::string result;
    try {
      result = run(split(line, '\t'));
    } catch (const embedlab::InputError& e) {
      result = "{\"error\": " + json_string(e.what()) + ", \"argument\": " +
               json_string(std::string(embedlab::argument_name(e.argument()))) + "}";
    }
    std::cout << result << '\n';
  }
  return 0;
}
