#include "positions_walkthrough.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <vector>

#include "embedlab/error.hpp"
#include "embedlab/format.hpp"
#include "embedlab/ids.hpp"
#include "embedlab/lookup.hpp"
#include "embedlab/notes.hpp"
#include "embedlab/positions.hpp"
#include "embedlab/safetensors.hpp"
#include "embedlab/safetensors_index.hpp"
#include "embedlab/tied_head.hpp"
#include "embedlab/tokenizer_json.hpp"
#include "walkthrough_steps.hpp"

namespace embedlab::cli {
namespace {

// The batch and both tables, with the PyTorch code that makes them.
struct PositionInput {
  TokenBatch inputs;
  Table token{Matrix()};
  Table position{Matrix()};
  std::vector<std::string> setup;       // code lines
  std::vector<std::string> notes;       // where a file's tables came from, whether its head ties
  std::vector<std::string> vocabulary;  // the tokenizer.json beside a checkpoint's, if any
};

// "[[40, 367], [1807, 3619]]"
std::string inputs_text(const TokenBatch& b) {
  std::string s = "[";
  for (Index r = 0; r < b.rows; ++r) {
    const Ids row(b.ids.begin() + r * b.length, b.ids.begin() + (r + 1) * b.length);
    s += (r ? ", [" : "[") + list_text(row) + "]";
  }
  return s + "]";
}

// "'wpe.weight' [1024, 768]"
std::string tensor_text(const SafetensorsEntry& e) {
  std::string s = "'" + e.name + "' [";
  for (std::size_t i = 0; i < e.shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(e.shape[i]);
  return s + "]";
}

// The file's position table: --position-tensor, or the only tensor named like one.
const SafetensorsEntry& position_entry(const SafetensorsHeader& header, const std::string& path,
                                       const std::string& name) {
  if (!name.empty()) return choose_embedding_table(header, name);
  const auto candidates = position_table_candidates(header);
  if (candidates.size() == 1) return *candidates.front();
  throw InputError(Argument::weights,
                   path +
                       (candidates.empty() ? " has no tensor named like a position table "
                                             "(wpe.weight, embed_positions.weight, "
                                             "position_embeddings.weight)"
                                           : " has several tensors named like a position "
                                             "table") +
                       ": name the one to use with --position-tensor NAME (a model with rotary "
                       "positions, such as Llama, has no such table)");
}

// The text of the file `name` beside a checkpoint, or "" when there is none: at most one byte
// over `most`, the largest the core takes, so that a huge file is refused without being read.
std::string read_beside(const std::string& path, const char* name, std::size_t most) {
  const auto slash = path.find_last_of('/');
  std::ifstream file((slash == std::string::npos ? "" : path.substr(0, slash + 1)) + name,
                     std::ios::binary);
  if (!file) return "";
  std::string text(most + 1, '\0');
  file.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(file.gcount()));
  return text;
}

PositionInput make_position_input(const TableOptions& table, const PositionOptions& options) {
  PositionInput in;
  in.inputs = token_batch(parse_batches(table.ids_text));
  const Index length = in.inputs.length;
  const std::string& path = table.weights_file;
  if (path.empty()) {
    if (table.tf_weights)
      throw InputError(Argument::weights,
                       "--tf-weights has no position table: use --seed or "
                       "--weights with a checkpoint that has one");
    const Index vocab = table.vocab ? *table.vocab : default_vocab(in.inputs.ids);
    const Index context = options.context_length.value_or(length);
    check_ids(in.inputs.ids, vocab);
    check_context_length(context);
    check_context(length, context);
    PositionTables tables = seeded_position_tables(table.seed, vocab, table.dim, context);
    in.token = Table(std::move(tables.token));
    in.position = Table(std::move(tables.position));
    in.setup = {"torch.manual_seed(" + std::to_string(table.seed) + ")",
                "token_embedding_layer = torch.nn.Embedding(" + std::to_string(vocab) + ", " +
                    std::to_string(table.dim) + ")",
                "pos_embedding_layer = torch.nn.Embedding(" + std::to_string(context) + ", " +
                    std::to_string(table.dim) + ")"};
  } else {
    if (is_safetensors_index_name(path) || path.size() < 12 ||
        path.substr(path.size() - 12) != ".safetensors") {
      throw InputError(Argument::weights, path +
                                              ": positions need a .safetensors checkpoint that "
                                              "holds a position table too (GPT-2's wpe.weight)");
    }
    const Input tokens = make_input(table, in.inputs.ids);
    const SafetensorsHeader header = read_safetensors_header(path);
    const SafetensorsEntry& entry = position_entry(header, path, options.position_tensor);
    in.token = tokens.weight;
    in.position = load_safetensors_table(path, entry.name).table;
    if (in.position.cols() != in.token.cols()) {
      throw InputError(Argument::weights,
                       path + ": the position table " + tensor_text(entry) +
                           " has d = " + std::to_string(in.position.cols()) +
                           " but the token table has d = " + std::to_string(in.token.cols()) +
                           ": they are added, so d must agree");
    }
    if (options.context_length && *options.context_length != in.position.rows()) {
      throw InputError(Argument::vocab, "--context-length " +
                                            std::to_string(*options.context_length) +
                                            " disagrees with " + tensor_text(entry) +
                                            ", which has " + std::to_string(in.position.rows()) +
                                            " rows: leave --context-length out");
    }
    check_context(length, in.position.rows());
    in.setup = {"token_embedding_layer = torch.nn.Embedding.from_pretrained(wte, freeze=False)",
                "pos_embedding_layer = torch.nn.Embedding.from_pretrained(wpe, freeze=False)"};
    in.notes = {tokens.origin + " (wte)", "wpe: tensor " + tensor_text(entry) + " of " + path +
                                              ", " + dtype_conversion_text(entry.dtype)};
    const HeadTying tying = head_tying(header, read_beside(path, "config.json", kMaxConfigBytes));
    const std::string tokenizer = read_beside(path, "tokenizer.json", kMaxTokenizerBytes);
    if (!tokenizer.empty()) in.vocabulary = tokenizer_json_tokens(tokenizer);
    in.notes.push_back(std::string("the output layer ") + (tying.tied ? "is tied" : "is not tied") +
                       ": " + tying.reason);
  }
  in.setup.push_back("inputs = torch.tensor(" + inputs_text(in.inputs) + ")");
  return in;
}

void print_header(std::ostream& out, const PositionInput& in) {
  for (const std::string& line : in.setup) out << "# " << line << "\n";
  out << "\n";
  for (const std::string& line : in.notes) out << "# " << line << "\n";
  if (!in.notes.empty()) out << "\n";
}

// A (B * T, cols) matrix as the (B, T, cols) tensor it stands for.
std::string batch_tensor(const TokenBatch& b, const Matrix& m, const TensorStyle& style) {
  return format_tensor(
      b.rows, b.length, m.cols(), [&](Index s, Index t, Index j) { return m(s * b.length + t, j); },
      style);
}

// The (B, T, d) input embeddings, all steps printed or only their shape.
Matrix input_embeddings(const PositionInput& in, std::ostream& out, bool print_all) {
  const TokenBatch& b = in.inputs;
  const Index d = in.token.cols(), context = in.position.rows();
  const std::string arange = "torch.arange(" + std::to_string(b.length) + ")";
  const Matrix tokens = lookup(in.token, b.ids);
  const Matrix positions = position_rows(in.position, b.length);
  const Matrix sum = add_positions(tokens, positions);
  if (!print_all) {
    print_step(out,
               "input_embeddings = token_embedding_layer(inputs) + pos_embedding_layer(" + arange +
                   "); input_embeddings.shape",
               torch_size_text({b.rows, b.length, d}));
    return sum;
  }
  const auto looked_up = grad_fn_style("EmbeddingBackward0");
  print_step(out, "token_embeddings = token_embedding_layer(inputs); token_embeddings.shape",
             torch_size_text({b.rows, b.length, d}));
  print_step(out, "token_embeddings", batch_tensor(b, tokens, looked_up));
  print_step(out, "pos_embeddings = pos_embedding_layer(" + arange + "); pos_embeddings.shape",
             torch_size_text({b.length, d}));
  print_step(out, "pos_embeddings", format_tensor(positions, looked_up));
  const std::string product = "torch.nn.functional.one_hot(" + arange + ", " +
                              std::to_string(context) + ").float() @ pos_embedding_layer.weight";
  const Matrix by_product = position_product(in.position, b.length);
  print_step(out, product, format_tensor(by_product, grad_fn_style("MmBackward0")));
  print_verdict(out, "pos_embeddings vs " + product, positions, by_product, RoutePair::lookup);
  print_notes(out, {positions_cost_note(b.length, context, d)});
  out << "\n";
  print_step(out, "input_embeddings = token_embeddings + pos_embeddings; input_embeddings.shape",
             torch_size_text({b.rows, b.length, d}));
  print_step(out, "input_embeddings", batch_tensor(b, sum, grad_fn_style("AddBackward0")));
  return sum;
}

}  // namespace

void add_position_options(CLI::App& command, PositionOptions& options, bool head) {
  command.add_option("--context-length", options.context_length,
                     "rows of the position table, nn.Embedding(context_length, d) (default: T, "
                     "the length of each row of --ids; with --weights, the table's rows)");
  command.add_option("--position-tensor", options.position_tensor,
                     "the .safetensors tensor to use as the position table (default: the only one "
                     "named wpe.weight, embed_positions.weight or position_embeddings.weight)");
  if (head)
    command.add_option("--top-k", options.top_k,
                       "the largest logits shown for each position (default: 5, or V if fewer)");
}

void print_positions_walkthrough(const TableOptions& table, const PositionOptions& options,
                                 std::ostream& out) {
  const PositionInput in = make_position_input(table, options);
  std::ostringstream text;
  print_header(text, in);
  input_embeddings(in, text, true);
  out << text.str();
}

void print_head_walkthrough(const TableOptions& table, const PositionOptions& options,
                            std::ostream& out) {
  const PositionInput in = make_position_input(table, options);
  const TokenBatch& b = in.inputs;
  const Index vocab = in.token.rows(), d = in.token.cols(), n = b.rows * b.length;
  std::ostringstream text;
  print_header(text, in);
  Matrix h = input_embeddings(in, text, false);

  HeadOptions head;
  head.top_k = options.top_k.value_or(default_top_k(vocab));
  head.keep_columns = printed_indices(vocab, n, vocab);
  StreamedHead logits(in.token, std::move(h), head);
  logits.run();

  print_step(text,
             "out_head = torch.nn.Linear(" + std::to_string(d) + ", " + std::to_string(vocab) +
                 ", bias=False); out_head.weight = token_embedding_layer.weight; "
                 "out_head.weight is token_embedding_layer.weight",
             "True");
  print_step(text, "logits = out_head(input_embeddings); logits.shape",
             torch_size_text({b.rows, b.length, vocab}));
  const Ids& shown = head.keep_columns;
  const Matrix& kept = logits.kept_columns();
  print_step(text, "logits",
             format_tensor(
                 b.rows, b.length, vocab,
                 [&](Index s, Index t, Index v) {
                   const auto c = std::lower_bound(shown.begin(), shown.end(), v);
                   return kept(s * b.length + t, c - shown.begin());
                 },
                 grad_fn_style("UnsafeViewBackward0")));
  print_notes(text, head_cost_notes(n, static_cast<Index>(distinct_ids(b.ids).size()), vocab, d));
  // An id, and its token where a tokenizer.json lies beside the checkpoint: "40 'I'".
  const auto spelled = [&](Index id) {
    const auto v = static_cast<std::size_t>(id);
    return std::to_string(id) + (v < in.vocabulary.size() && !in.vocabulary[v].empty()
                                     ? " " + token_text(in.vocabulary[v])
                                     : "");
  };
  if (head.top_k > 0) {
    text << "# the top " << head.top_k << " logits of each position, token id"
         << (in.vocabulary.empty() ? "" : " 'its token in tokenizer.json'")
         << " (logit): the rows of W with the largest dot product with h\n";
    for (Index i = 0; i < n; ++i) {
      const auto& top = logits.top()[static_cast<std::size_t>(i)];
      std::vector<double> values;
      for (const TopLogit& t : top) values.push_back(t.logit);
      const std::vector<std::string> texts = format_elements(values, values);
      text << "# logits[" << i / b.length << ", " << i % b.length << "] (input id "
           << spelled(b.ids[static_cast<std::size_t>(i)]) << "):";
      for (std::size_t k = 0; k < top.size(); ++k)
        text << (k ? ", " : " ") << spelled(top[k].id) << " (" << texts[k] << ")";
      text << "\n";
    }
  }
  out << text.str();
}

}  // namespace embedlab::cli
