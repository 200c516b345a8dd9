#pragma once
// Sharded checkpoints: model.safetensors.index.json maps each tensor's name to the shard file
// that holds it, as Hugging Face writes it beside the shards:
//   {"metadata": {"total_size": 16060522496},
//    "weight_map": {"model.embed_tokens.weight": "model-00001-of-00004.safetensors", ...}}
// The index names the shard; the shard's own header (safetensors.hpp) gives the table's dtype,
// shape and bytes. Every error is an InputError with Argument::weights and a message for a
// learner.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "embedlab/limits.hpp"
#include "embedlab/safetensors.hpp"

namespace embedlab {

struct SafetensorsIndex {
  // (tensor, shard file name) in the order the index lists them.
  std::vector<std::pair<std::string, std::string>> weight_map;
  std::vector<std::string> shards;  // each shard once, in order of first mention
};

// The index's JSON. Refuses text that is not JSON (saying where), a top level that is not an
// object, a missing "weight_map" or one that is not an object of strings, and a shard named with
// a folder in it (a shard is a file beside the index).
SafetensorsIndex parse_safetensors_index(std::string_view json);

// Whether a file's name says it is an index: it ends in ".json".
bool is_safetensors_index_name(std::string_view path);

struct IndexedTable {
  std::string tensor;
  std::string shard;
};
// The table's tensor and its shard: the tensor called `name` (the close names are listed when
// no shard holds it), or with an empty name the only tensor named like an embedding table (the
// candidates, or that there are none, are said otherwise; the index has no shapes, so names
// decide).
IndexedTable find_indexed_table(const SafetensorsIndex& index, std::string_view name = {});

// From disk: the index at `path`, then the table in its shard, a file beside it. Errors name the
// index's path; a shard that is not there is named with the tensor the index puts in it.
SafetensorsTable load_indexed_table(const std::string& path, std::string_view name = {},
                                    const Limits& limits = default_limits);
// The index at `path`, read whole (an index is small: a few hundred KiB at most).
SafetensorsIndex read_safetensors_index(const std::string& path);
// The file beside the index that a shard name stands for.
std::string shard_path(const std::string& index_path, const std::string& shard);

}  // namespace embedlab
