#pragma once
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace embedlab {

// The input a message is about, so that every front end (CLI, WASM API, page) shows it next to
// the right field without reading the message. The names are PyTorch's argument names.
enum class Argument {
  ids,
  vocab,
  dim,
  seed,
  weights,
  grad,
  offsets,
  mode,
  padding_idx,
  per_sample_weights,
  max_norm,
  norm_type,
  onehot,    // a one-hot or multi-hot matrix passed in (WASM API), never typed by a learner
  compared,  // the two results compare() is handed
  // torch.optim: which optimizer, and its hyperparameters
  optimizer,
  lr,
  momentum,
  dampening,
  nesterov,
  weight_decay,
  betas,
  eps,
  amsgrad,
  lr_decay,
  initial_accumulator_value,
  alpha,
  centered,
  maximize,
  // the chapter's data loader: GPTDatasetV1's windows, DataLoader's batches, the epochs
  max_length,
  stride,
  batch_size,
  epochs,
};

// "ids", "padding_idx", ...: how messages, the WASM API and the page name an argument.
std::string_view argument_name(Argument argument);
// Every argument, in declaration order: what a front end must be able to place.
const std::vector<Argument>& all_arguments();

// Bad input from a user: the message is meant to be shown verbatim to a learner
// (it names the offending value, where it is, and what was expected).
class InputError : public std::invalid_argument {
 public:
  InputError(Argument argument, const std::string& message)
      : std::invalid_argument(message), argument_(argument) {}
  Argument argument() const { return argument_; }

 private:
  Argument argument_;
};

}  // namespace embedlab
