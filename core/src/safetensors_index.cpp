#include "embedlab/safetensors_index.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "embedlab/byte_source.hpp"
#include "embedlab/error.hpp"
#include "tensor_names.hpp"

namespace embedlab {
namespace {

// In the order the index lists its tensors.
using Json = nlohmann::ordered_json;

[[noreturn]] void fail(const std::string& message) { throw InputError(Argument::weights, message); }

constexpr const char* kWhat =
    "a safetensors index (model.safetensors.index.json) is a JSON object whose \"weight_map\" "
    "maps each tensor's name to the file name of its shard";

// Refused while it is read: an index nests two deep ("weight_map", then its strings); metadata
// may hold a little more.
constexpr int kMaxDepth = 8;
// A larger index would list millions of tensors.
constexpr std::uint64_t kLargestIndex = 64 << 20;

Json parse_json(std::string_view text) {
  const auto check = [](int depth, Json::parse_event_t, Json&) {
    if (depth > kMaxDepth)
      fail("not a safetensors index: its JSON nests more than " + std::to_string(kMaxDepth) +
           " levels deep; " + kWhat);
    return true;
  };
  try {
    return Json::parse(text.begin(), text.end(), check);
  } catch (const Json::parse_error& e) {
    fail("not a safetensors index: invalid JSON (at byte offset " + std::to_string(e.byte - 1) +
         "): " + json_error_text(e) + "; " + kWhat);
  } catch (const Json::out_of_range& e) {
    fail("not a safetensors index: invalid JSON: " + json_error_text(e));
  }
}

std::string tensor_count(std::size_t n) {
  return std::to_string(n) + (n == 1 ? " tensor" : " tensors");
}

// "'a', 'b' and 3 more"
std::string names_list(const std::vector<std::string_view>& names, std::size_t shown = 5) {
  std::string text;
  for (std::size_t i = 0; i < names.size() && i < shown; ++i)
    text += (i ? ", " : "") + name_text(names[i]);
  if (names.size() > shown) text += " and " + std::to_string(names.size() - shown) + " more";
  return text;
}

}  // namespace

SafetensorsIndex parse_safetensors_index(std::string_view text) {
  const Json json = parse_json(text);
  if (!json.is_object()) fail("not a safetensors index: it is " + json_text(json) + "; " + kWhat);
  const auto map = json.find("weight_map");
  if (map == json.end())
    fail("not a safetensors index: it has no \"weight_map\"; " + std::string(kWhat));
  if (!map->is_object())
    fail("not a safetensors index: its \"weight_map\" is " + json_text(*map) + "; " + kWhat);
  SafetensorsIndex index;
  for (const auto& [tensor, shard] : map->items()) {
    if (!shard.is_string())
      fail("invalid safetensors index: \"weight_map\" maps " + name_text(tensor) + " to " +
           json_text(shard) + ", but each tensor maps to the file name of its shard");
    const std::string file = shard.get<std::string>();
    if (file.empty() || file.find_first_of("/\\") != std::string::npos || file == "." ||
        file == "..")
      fail("invalid safetensors index: \"weight_map\" puts " + name_text(tensor) +
           " in the shard " + name_text(file) +
           ", which is not a file name: shards are files beside the index");
    index.weight_map.emplace_back(tensor, file);
    if (std::find(index.shards.begin(), index.shards.end(), file) == index.shards.end())
      index.shards.push_back(file);
  }
  if (index.weight_map.empty())
    fail("invalid safetensors index: its \"weight_map\" is empty: no tensor is in any shard");
  return index;
}

bool is_safetensors_index_name(std::string_view path) {
  constexpr std::string_view kSuffix = ".json";
  return path.size() >= kSuffix.size() && path.substr(path.size() - kSuffix.size()) == kSuffix;
}

IndexedTable find_indexed_table(const SafetensorsIndex& index, std::string_view name) {
  std::vector<std::string_view> names;
  for (const auto& entry : index.weight_map) names.push_back(entry.first);
  if (!name.empty()) {
    for (const auto& [tensor, shard] : index.weight_map)
      if (tensor == name) return {tensor, shard};
    std::vector<std::string_view> close;
    for (const std::size_t i : close_names(names, name)) close.push_back(names[i]);
    fail("no shard holds a tensor named " + name_text(name) + ": the index's weight_map " +
         (close.empty() ? "has no name close to it (it lists " + tensor_count(names.size()) + ")"
                        : "has the close names " + names_list(close)));
  }
  std::vector<std::size_t> found;
  for (std::size_t i = 0; i < names.size(); ++i)
    if (named_like_embedding_table(names[i])) found.push_back(i);
  if (found.size() == 1)
    return {index.weight_map[found[0]].first, index.weight_map[found[0]].second};
  if (found.empty())
    fail(std::string("no tensor in the index is named like the embedding table (") +
         kTableNamesText + "); name the one to load among its " + tensor_count(names.size()) +
         ": " + names_list(names));
  std::vector<std::string_view> candidates;
  for (const std::size_t i : found) candidates.push_back(names[i]);
  fail(tensor_count(found.size()) + " in the index are named like the embedding table: " +
       names_list(candidates) + "; name the one to load");
}

std::string shard_path(const std::string& index_path, const std::string& shard) {
  const std::size_t slash = index_path.find_last_of('/');
  return slash == std::string::npos ? shard : index_path.substr(0, slash + 1) + shard;
}

SafetensorsIndex read_safetensors_index(const std::string& path) {
  const auto file = open_file(path, "a safetensors index");
  if (file->size() > kLargestIndex)
    fail(path + ": not a safetensors index: it is " + std::to_string(file->size()) +
         " bytes, and an index is a few hundred KiB at most");
  try {
    return parse_safetensors_index(read_range(*file, 0, file->size()));
  } catch (const InputError& e) {
    fail(path + ": " + e.what());
  }
}

SafetensorsTable load_indexed_table(const std::string& path, std::string_view name,
                                    const Limits& limits) {
  const SafetensorsIndex index = read_safetensors_index(path);
  IndexedTable table;
  try {
    table = find_indexed_table(index, name);
  } catch (const InputError& e) {
    fail(path + ": " + e.what());
  }
  const std::string shard = shard_path(path, table.shard);
  std::shared_ptr<const ByteSource> file;
  try {
    file = open_file(shard, "a .safetensors shard");
  } catch (const InputError& e) {
    fail(path + ": the index puts " + name_text(table.tensor) + " in the shard " +
         name_text(table.shard) + ", a file beside the index: " + e.what());
  }
  SafetensorsTable found =
      open_safetensors_table(std::move(file), table.tensor, limits, shard + ": ");
  found.file = shard;
  return found;
}

}  // namespace embedlab
