#pragma once
// The positions and head walk-throughs: a (B, T) batch of token ids, its token embeddings plus
// position embeddings (positions.hpp), printed as PyTorch prints them, and the same W used again
// as the tied output layer (tied_head.hpp).
#include <CLI/CLI.hpp>
#include <optional>
#include <ostream>
#include <string>

#include "table_source.hpp"

namespace embedlab::cli {

struct PositionOptions {
  std::optional<Index> context_length;  // default: T, or the checkpoint's position table's rows
  std::string position_tensor;          // a .safetensors tensor (default: the one named wpe...)
  std::optional<Index> top_k;  // the head's top logits per position: min(5, V) unless given
};

// Registers --context-length and --position-tensor; with `head`, --top-k too.
void add_position_options(CLI::App& command, PositionOptions& options, bool head);

// table.ids_text holds the rows of the batch, "40,367,2885,1464; 1807,3619,402,271". Everything
// is computed before anything is printed, so bad input prints nothing on out.
void print_positions_walkthrough(const TableOptions& table, const PositionOptions& options,
                                 std::ostream& out);
void print_head_walkthrough(const TableOptions& table, const PositionOptions& options,
                            std::ostream& out);

}  // namespace embedlab::cli
