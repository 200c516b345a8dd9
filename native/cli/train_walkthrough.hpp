#pragma once
// The train walk-through: nn.Embedding and nn.Linear on one-hot rows trained side by side with
// one torch.optim optimizer each (training.hpp), printed step by step as PyTorch prints it: W
// after each step, the rows the step changed and why, and the verdict against the Linear route.
#include <CLI/CLI.hpp>
#include <optional>
#include <ostream>
#include <string>

#include "table_source.hpp"

namespace embedlab::cli {

// The optimizer as typed: each hyperparameter is PyTorch's default unless given, and giving one
// the optimizer does not take is an error.
struct TrainOptions {
  std::string optimizer = "sgd";
  std::optional<double> lr, momentum, dampening, weight_decay, eps, lr_decay,
      initial_accumulator_value, alpha;
  std::string betas;  // "B1,B2"
  bool nesterov = false, maximize = false, amsgrad = false, centered = false;
  bool sparse = false;  // nn.Embedding(..., sparse=True)
  std::optional<Index> padding_idx;
  std::string head;  // "tied" or "untied": next-token prediction through an output layer
  // With --max-length, the one sequence of --ids is cut into the chapter's windows
  // (data_loader.hpp) and trained epoch after epoch (window_training.hpp).
  std::optional<Index> max_length, stride;  // stride: max_length unless given
  std::optional<Index> batch_size, epochs;  // 1 unless given
  bool shuffle = false;
  bool positions = false;  // pos = nn.Embedding(max_length, d), added to tok(x)
};

// Registers --optimizer, the hyperparameters, --sparse, --padding-idx, --head and the loader's
// --max-length, --stride, --batch-size, --shuffle, --epochs, --positions.
void add_train_options(CLI::App& command, TrainOptions& options);

// table.ids_text holds the batches, "1,2; 3,3; 0,1"; V defaults to the largest id + 1. Step k's
// G is torch.randn(len(batch k), d), drawn after the table in order (training_run.hpp). With a
// head and --max-length, it holds one sequence, and each step's loss.item() is printed on a line
// of its own before the steps. Everything is computed before anything is printed, so bad input
// prints nothing on out.
void print_train_walkthrough(const TableOptions& table, const TrainOptions& options,
                             std::ostream& out);

}  // namespace embedlab::cli
