// libFuzzer target: the sharded-checkpoint index reader (model.safetensors.index.json) on any
// bytes returns an index or throws InputError about the weights with a message; it never
// crashes. What it returns must agree with itself: every tensor mapped to a listed shard that is
// a plain file name, every shard listed once, and the table it finds one of the index's tensors.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "embedlab/error.hpp"
#include "embedlab/safetensors_index.hpp"
#include "fuzz_check.hpp"

using embedlab::fuzz::require;

namespace {

void require_weights_error(const embedlab::InputError& e) {
  require(e.what()[0] != '\0', "an InputError has a message");
  require(e.argument() == embedlab::Argument::weights, "an index's errors are about weights");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  embedlab::SafetensorsIndex index;
  try {
    index = embedlab::parse_safetensors_index(text);
  } catch (const embedlab::InputError& e) {
    require_weights_error(e);
    return 0;
  }
  require(!index.weight_map.empty(), "an index maps at least one tensor");
  for (const auto& [tensor, shard] : index.weight_map) {
    require(std::count(index.shards.begin(), index.shards.end(), shard) == 1,
            "each tensor's shard is listed once");
    require(!shard.empty() && shard.find('/') == std::string::npos &&
                shard.find('\\') == std::string::npos,
            "a shard is a file name, never a path");
  }
  for (const std::string& shard : index.shards)
    require(std::any_of(index.weight_map.begin(), index.weight_map.end(),
                        [&](const auto& entry) { return entry.second == shard; }),
            "every listed shard holds a tensor");
  // The table by default, by each tensor's name, and by a name in no shard.
  std::vector<std::string> names{""};
  for (const auto& entry : index.weight_map) names.push_back(entry.first);
  names.push_back("no such tensor");
  for (const std::string& name : names) {
    try {
      const embedlab::IndexedTable found = embedlab::find_indexed_table(index, name);
      require(name.empty() || found.tensor == name, "the tensor named is the one found");
      require(std::find(index.weight_map.begin(), index.weight_map.end(),
                        std::make_pair(found.tensor, found.shard)) != index.weight_map.end(),
              "the table found is in the index, in its shard");
    } catch (const embedlab::InputError& e) {
      require_weights_error(e);
      require(name.empty() || name == "no such tensor" ||
                  std::none_of(index.weight_map.begin(), index.weight_map.end(),
                               [&](const auto& entry) { return entry.first == name; }),
              "a tensor the index maps is always found by its name");
    }
  }
  return 0;
}
