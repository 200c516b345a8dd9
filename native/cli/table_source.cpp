#include "table_source.hpp"

#include <algorithm>
#include <iomanip>
#include <utility>

#include "embedlab/error.hpp"
#include "embedlab/gguf.hpp"
#include "embedlab/ids.hpp"
#include "embedlab/safetensors.hpp"
#include "embedlab/safetensors_index.hpp"
#include "embedlab/table_files.hpp"
#include "embedlab/torch_init.hpp"
#include "embedlab/weights.hpp"

namespace embedlab::cli {
namespace {

// "[50257, 768]"
std::string shape_text(const std::vector<Index>& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

[[noreturn]] void npy_has_no_tensors(const std::string& option, const std::string& path) {
  throw InputError(Argument::weights, option + " is for .safetensors files, and " + path +
                                          " is a .npy file, which holds one array: leave " +
                                          option + " out");
}

}  // namespace

void add_table_options(CLI::App& app, TableOptions& options) {
  app.add_option("--ids", options.ids_text,
                 "token ids, as you would type them: 2,3,1 or \"2 3 1\" or \"[2, 3, 1]\"")
      ->capture_default_str();
  app.add_option("--vocab,-V", options.vocab, "vocabulary size V (default: max id + 1)");
  app.add_option("--dim,-d", options.dim, "embedding dimension d")->capture_default_str();
  auto* seed =
      app.add_option("--seed", options.seed, "torch.manual_seed for nn.Embedding's weights")
          ->capture_default_str();
  auto* tf = app.add_flag("--tf-weights", options.tf_weights,
                          "use the TensorFlow notebook's fixed weights (row i = 0.11 * i)");
  auto* file = app.add_option(
      "--weights", options.weights_file,
      "load W from a file: a .npy (2-D float16/32/64, C order, e.g. np.save('w.npy', "
      "emb.weight.detach().numpy())), a model's .safetensors (F32, F64, F16 or BF16; only the "
      "header and the rows used are read), or a sharded checkpoint's "
      "model.safetensors.index.json (the shards beside it), or a GGUF file's token_embd.weight "
      "(F32, F16, BF16, Q8_0, Q4_0, Q4_K or Q6_K, dequantized as ggml does). A file that starts "
      "with \\x93NUMPY or is named *.npy is read as .npy, one that starts with GGUF or is named "
      "*.gguf as GGUF, one named *.json as an index, any other as .safetensors");
  app.add_option("--tensor", options.tensor_name,
                 "the tensor of the .safetensors file (or index) to use as W (default: the only "
                 "2-D tensor named like an embedding table: wte.weight, "
                 "model.embed_tokens.weight, ...; in a GGUF file token_embd.weight)")
      ->needs(file);
  app.add_flag("--list-tensors", options.list_tensors,
               "list the tensors of the .safetensors file, or of every shard of an index (name, "
               "dtype, shape), and exit")
      ->needs(file);
  seed->excludes(tf)->excludes(file);
  tf->excludes(file);
}

Input make_input(const TableOptions& options) {
  return make_input(options, parse_ids(options.ids_text));
}

Input make_input(const TableOptions& options, Ids ids) {
  Input t;
  t.ids = std::move(ids);
  const std::string& path = options.weights_file;
  if (!path.empty()) {
    t.kind = TableKind::file;
    if (!options.tensor_name.empty() && table_file_format(path) == TableFormat::npy)
      npy_has_no_tensors("--tensor", path);
    TableFile file = open_table_file(path, options.tensor_name);
    t.weight = std::move(file.table);
    t.origin = std::move(file.origin);
    t.counts_blocks = file.format == TableFormat::gguf;
    t.tokens = std::move(file.tokens);
    t.vocab = t.weight.rows();
    if (options.vocab && *options.vocab != t.vocab) {
      throw InputError(Argument::vocab, "--vocab " + std::to_string(*options.vocab) +
                                            " disagrees with " + path + ", which has " +
                                            std::to_string(t.vocab) +
                                            " rows: leave --vocab out when loading weights");
    }
  } else {
    t.vocab = options.vocab ? *options.vocab : default_vocab(t.ids);
    if (options.tf_weights) {
      t.kind = TableKind::tf_fixed;
      t.weight = embedlab::Table(tf_fixed_weights(t.vocab, options.dim));
      t.origin = "the TensorFlow notebook's fixed weights: row i = 0.11 * i";
    } else {
      t.seed = options.seed;
      TorchGenerator gen(options.seed);
      t.weight = embedlab::Table(init_embedding(gen, t.vocab, options.dim));
      t.origin = "torch.manual_seed(" + std::to_string(options.seed) +
                 "); embedding = " + "torch.nn.Embedding(" + std::to_string(t.vocab) + ", " +
                 std::to_string(options.dim) + ")";
    }
  }
  check_ids(t.ids, t.vocab);
  return t;
}

namespace {

// One file's tensors (name, dtype, shape), those named like an embedding table marked, and its
// metadata.
void print_tensors(const std::string& path, const SafetensorsHeader& header, std::ostream& out) {
  const auto candidates = embedding_table_candidates(header);
  std::size_t name_width = 4, dtype_width = 5;
  for (const SafetensorsEntry& e : header.tensors) {
    name_width = std::max(name_width, e.name.size());
    dtype_width = std::max(dtype_width, e.dtype.size());
  }
  name_width = std::min<std::size_t>(name_width, 60);
  out << path << ": " << header.tensors.size()
      << (header.tensors.size() == 1 ? " tensor" : " tensors") << ", header " << header.data_start
      << " bytes, file " << header.file_size << " bytes\n";
  out << "  " << std::left << std::setw(static_cast<int>(name_width)) << "name"
      << "  " << std::setw(static_cast<int>(dtype_width)) << "dtype"
      << "  shape\n";
  for (const SafetensorsEntry& e : header.tensors) {
    const bool candidate = std::find(candidates.begin(), candidates.end(), &e) != candidates.end();
    out << (candidate ? "* " : "  ") << std::setw(static_cast<int>(name_width)) << e.name << "  "
        << std::setw(static_cast<int>(dtype_width)) << e.dtype << "  " << shape_text(e.shape)
        << "\n";
  }
  for (const auto& [key, value] : header.metadata)
    out << "__metadata__ " << key << ": " << value << "\n";
}

// The tensors of each shard of an index, read from their headers, in the order the index names
// the shards.
void print_index(const std::string& path, std::ostream& out) {
  const SafetensorsIndex index = read_safetensors_index(path);
  out << path << ": a sharded checkpoint's index, " << index.weight_map.size()
      << (index.weight_map.size() == 1 ? " tensor" : " tensors") << " in " << index.shards.size()
      << (index.shards.size() == 1 ? " shard" : " shards") << "\n";
  for (const std::string& shard : index.shards) {
    const std::string shard_file = shard_path(path, shard);
    print_tensors(shard_file, read_safetensors_header(shard_file), out);
  }
  try {
    const IndexedTable table = find_indexed_table(index);
    out << "* the embedding table, " << table.tensor << " in " << table.shard << ": --weights "
        << path << " loads it\n";
  } catch (const InputError&) {
    out << "* named like an embedding table, or none is: choose one with --tensor NAME\n";
  }
}

// A GGUF file's tensors (name, type, ne), token_embd.weight marked, its metadata, and whether the
// head is tied.
void print_gguf(const std::string& path, std::ostream& out) {
  const GgufHeader header = read_gguf_header(path);
  std::size_t name_width = 4;
  for (const GgufTensor& t : header.tensors) name_width = std::max(name_width, t.name.size());
  name_width = std::min<std::size_t>(name_width, 60);
  out << path << ": GGUF version " << header.version << ", " << header.tensors.size()
      << (header.tensors.size() == 1 ? " tensor, " : " tensors, ") << header.metadata.size()
      << (header.metadata.size() == 1 ? " metadata entry" : " metadata entries")
      << ", data from byte " << header.data_start << ", file " << header.file_size << " bytes\n";
  out << "  " << std::left << std::setw(static_cast<int>(name_width)) << "name"
      << "  type     ne\n";
  bool table = false, head = false;
  for (const GgufTensor& t : header.tensors) {
    const bool marked = t.name == kGgufTableName;
    table = table || marked;
    head = head || t.name == kGgufHeadName;
    std::string ne = "[";
    for (std::size_t k = 0; k < t.ne.size(); ++k) ne += (k ? ", " : "") + std::to_string(t.ne[k]);
    out << (marked ? "* " : "  ") << std::setw(static_cast<int>(name_width)) << t.name << "  "
        << std::setw(7) << ggml_type_name(t.type) << "  " << ne << "]\n";
  }
  for (const GgufMetadata& m : header.metadata)
    out << "metadata " << m.key << " (" << m.type << "): " << m.text << "\n";
  if (table)
    out << "* the embedding table: --weights " << path << " loads it; "
        << (head ? "output.weight is the head's own" : "no output.weight: the head is tied to it")
        << "\n";
  else
    out << "no tensor is named token_embd.weight: choose one with --tensor NAME\n";
}

}  // namespace

void print_tensor_list(const TableOptions& options, std::ostream& out) {
  const std::string& path = options.weights_file;
  const TableFormat format = table_file_format(path);
  if (format == TableFormat::npy) npy_has_no_tensors("--list-tensors", path);
  if (format == TableFormat::gguf) return print_gguf(path, out);
  if (format == TableFormat::safetensors_index) return print_index(path, out);
  const SafetensorsHeader header = read_safetensors_header(path);
  print_tensors(path, header, out);
  const auto candidates = embedding_table_candidates(header);
  if (candidates.size() == 1)
    out << "* the embedding table: --weights " << path << " loads it\n";
  else if (candidates.empty())
    out << "no tensor is named like an embedding table: choose one with --tensor NAME\n";
  else
    out << "* named like an embedding table: choose one with --tensor NAME\n";
}

}  // namespace embedlab::cli
