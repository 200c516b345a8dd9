#pragma once
// A table file on disk opened by what it holds, as every front end that takes a path opens it
// (the CLI's --weights, Python's embedlab.open()): a .npy file, one tensor of a .safetensors file,
// the table of a sharded checkpoint's model.safetensors.index.json, or a GGUF file's
// token_embd.weight (or another tensor). Its rows are read where they lie, when a computation
// needs them (table.hpp). Every error is an InputError with Argument::weights naming the path.
#include <string>
#include <string_view>
#include <vector>

#include "embedlab/limits.hpp"
#include "embedlab/table.hpp"

namespace embedlab {

enum class TableFormat { npy, safetensors, safetensors_index, gguf };

// A file that starts with "\x93NUMPY" or is named *.npy or *.npz (so that the .npy reader explains
// what is wrong with it) is .npy; one that starts with "GGUF" or is named *.gguf is GGUF; one named
// *.json is an index; any other is .safetensors.
TableFormat table_file_format(const std::string& path);

struct TableFile {
  Table table{Matrix()};
  TableFormat format = TableFormat::npy;
  std::string tensor;  // its name in the file; empty for .npy
  // One line for the reader, where W came from and how its values became float32: "W loaded from
  // model.safetensors: tensor 'wte.weight', shape [50257, 768], F32 (float32), read as it is".
  std::string origin;
  bool has_head = false;            // GGUF: the file holds output.weight (else the head is tied)
  std::vector<std::string> tokens;  // GGUF: the file's vocabulary (tokenizer.ggml.tokens), if any
};

// The table of the file at `path`: the tensor called `tensor` (empty: the one the names point to;
// a .npy file holds one array and takes no name).
TableFile open_table_file(const std::string& path, std::string_view tensor = {},
                          const Limits& limits = default_limits);

}  // namespace embedlab
