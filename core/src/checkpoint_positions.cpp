#include "embedlab/checkpoint_positions.hpp"

#include <utility>

#include "embedlab/error.hpp"
#include "embedlab/safetensors.hpp"

namespace embedlab {

CheckpointPositions open_checkpoint_positions(std::shared_ptr<const ByteSource> source,
                                              std::string_view config_text) {
  const SafetensorsHeader header = read_safetensors_header(*source);
  const auto candidates = position_table_candidates(header);
  if (candidates.size() != 1) {
    throw InputError(Argument::weights,
                     candidates.empty()
                         ? "the file has no tensor named like a position table (GPT-2's "
                           "wpe.weight): a model with rotary positions, such as Llama, has none"
                         : "the file has " + std::to_string(candidates.size()) +
                               " tensors named like a position table, such as " +
                               candidates.front()->name + ": positions need exactly one");
  }
  SafetensorsTable token = open_safetensors_table(source);
  SafetensorsTable position = open_safetensors_table(source, candidates.front()->name);
  if (position.table.cols() != token.table.cols()) {
    throw InputError(Argument::weights, "the position table " + position.entry.name +
                                            " has d = " + std::to_string(position.table.cols()) +
                                            " but the token table " + token.entry.name +
                                            " has d = " + std::to_string(token.table.cols()) +
                                            ": they are added, so d must agree");
  }
  return {std::move(token.table), std::move(position.table), token.entry.name, position.entry.name,
          head_tying(header, config_text)};
}

}  // namespace embedlab
