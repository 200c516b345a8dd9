#pragma once
// The chapter's data: GPTDatasetV1's sliding windows over one sequence of token ids, batched in
// torch.utils.data.DataLoader's order, as this PyTorch 1.13 program makes them:
//
//   for i in range(0, len(ids) - max_length, stride):              # GPTDatasetV1
//       input_ids.append(torch.tensor(ids[i:i + max_length]))
//       target_ids.append(torch.tensor(ids[i + 1:i + max_length + 1]))
//   loader = DataLoader(dataset, batch_size=B, shuffle=shuffle, drop_last=True)
//   for epoch in range(E):
//       for x, y in loader:                                        # x, y: (B, max_length)
//
// Each epoch's iter(loader) draws a _base_seed from the global generator
// (torch.empty((), dtype=torch.int64).random_()); with shuffle=True its RandomSampler then draws
// a seed the same way, seeds a torch.Generator of its own with it, and the windows come in the
// order of torch.randperm(len(dataset), generator=...) (torch_init.hpp). Without shuffle they
// come in order. drop_last=True leaves each epoch's last len(dataset) % B windows out.
//
// Checks, before anything is drawn or allocated (check_loader): max_length, stride and batch_size
// at least 1; a window and its target, max_length + 1 ids, within the sequence; at least
// batch_size windows, so that an epoch has a full batch. Each InputError names the argument to
// change (max_length, stride, batch_size) and says why.
#include <cstdint>

#include "embedlab/limits.hpp"
#include "embedlab/matrix.hpp"
#include "embedlab/positions.hpp"
#include "embedlab/torch_generator.hpp"

namespace embedlab {

struct LoaderOptions {
  Index max_length = 4;  // T: the ids of a window, and the rows of the position table
  Index stride = 4;      // from one window's start to the next's
  Index batch_size = 2;  // B
  bool shuffle = false;
};

// len(range(0, n - max_length, stride)): the windows of a sequence of n ids (0 when max_length
// >= n), for max_length and stride at least 1.
Index window_count(Index n, Index max_length, Index stride);

// Everything DataLoader's constructor checks, for a sequence of n ids.
void check_loader(Index n, const LoaderOptions& options, const Limits& limits = default_limits);

// The epochs a training runs: at least 1, at most kMaxEpochs.
inline constexpr Index kMaxEpochs = 1'000'000;
void check_epochs(Index epochs);

// One batch of the loader: x, y and where they came from.
struct LoaderBatch {
  Index epoch = 0;    // 1 for the first
  Index batch = 0;    // within its epoch, 1 for the first
  Ids windows;        // the dataset's indices of its B windows, in the batch's order
  TokenBatch inputs;  // x (B, max_length)
  Ids targets;        // y (B * max_length), row-major
};

class DataLoader {
 public:
  // ids: the sequence, each id already checked against V; options checked here.
  DataLoader(Ids ids, const LoaderOptions& options, const Limits& limits = default_limits);

  // The next batch; an epoch's first draws, from `global`, what iter(loader) draws.
  LoaderBatch next(TorchGenerator& global);

  Index windows() const { return windows_; }
  Index batches_per_epoch() const { return windows_ / options_.batch_size; }
  const Ids& ids() const { return ids_; }
  const LoaderOptions& options() const { return options_; }
  // The inputs of these windows (dataset indices), one row each, and their targets.
  TokenBatch inputs_of(const Ids& windows) const;
  Ids targets_of(const Ids& windows) const;

 private:
  Ids ids_;
  LoaderOptions options_;
  Index windows_;
  Index epoch_ = 0;  // the epoch under way, 0 before the first
  Index taken_ = 0;  // its batches taken
  Ids order_;        // its windows' order
};

}  // namespace embedlab
