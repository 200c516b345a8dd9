#pragma once
// Where the walk-through's embedding table comes from: a PyTorch seed, the TensorFlow notebook's
// fixed weights, or a file (.npy, one tensor of a .safetensors file, or a GGUF file's
// token_embd.weight or another tensor); and the ids it is looked up with.
#include <CLI/CLI.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "embedlab/matrix.hpp"
#include "embedlab/table.hpp"

namespace embedlab::cli {

struct TableOptions {
  std::string ids_text = "2, 3, 1";
  std::optional<Index> vocab;  // default: max(ids) + 1, like the notebooks
  Index dim = 5;
  std::int64_t seed = 123;
  bool tf_weights = false;
  std::string weights_file;  // .npy, or .safetensors with tensor_name (default: the embedding)
  std::string tensor_name;
  bool list_tensors = false;
};

// Registers --ids, --vocab, --dim, --seed, --tf-weights, --weights, --tensor, --list-tensors.
void add_table_options(CLI::App& app, TableOptions& options);

enum class TableKind { seeded, tf_fixed, file };

// The parsed ids, V, and the (V, d) table, validated. A seeded or TensorFlow table is held in
// memory; a file's rows are read where they lie, when a step needs them.
struct Input {
  Ids ids;
  Index vocab = 0;
  embedlab::Table weight{Matrix()};
  TableKind kind = TableKind::seeded;
  std::int64_t seed = 0;  // for TableKind::seeded
  std::string origin;     // one line for the reader: "torch.manual_seed(123); nn.Embedding(4, 5)"
  bool counts_blocks = false;       // a GGUF table: the walk-through says what each route decoded
  std::vector<std::string> tokens;  // a GGUF file's vocabulary (tokenizer.ggml.tokens), if any
};
Input make_input(const TableOptions& options);
// The same for ids already read from options.ids_text (the train walk-through's batches, joined).
Input make_input(const TableOptions& options, Ids ids);

// --list-tensors: the tensors of the --weights .safetensors or GGUF file (name, dtype, shape), the
// embedding table marked, and its metadata. Reads the header only.
void print_tensor_list(const TableOptions& options, std::ostream& out);

}  // namespace embedlab::cli
