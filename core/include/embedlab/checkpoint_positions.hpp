#pragma once
// A .safetensors checkpoint's token and position tables, as the page opens them from a File:
// the token table its names point to (choose_embedding_table), its only tensor named like a
// position table (GPT-2's wpe.weight), their d checked to agree, and whether its output layer
// is the token table (head_tying). Both tables are read where they lie in the source.
#include <memory>
#include <string>
#include <string_view>

#include "embedlab/byte_source.hpp"
#include "embedlab/table.hpp"
#include "embedlab/tied_head.hpp"

namespace embedlab {

struct CheckpointPositions {
  Table token{Matrix()};
  Table position{Matrix()};
  std::string token_tensor;
  std::string position_tensor;
  HeadTying tying;
};

// InputError (of weights) when the file has no position table or several, or when the two
// tables' d differ; config_text: its config.json's text, or empty for none.
CheckpointPositions open_checkpoint_positions(std::shared_ptr<const ByteSource> source,
                                              std::string_view config_text = {});

}  // namespace embedlab
