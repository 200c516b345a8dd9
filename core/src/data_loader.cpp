#include "embedlab/data_loader.hpp"

#include <string>
#include <utility>

#include "embedlab/error.hpp"
#include "embedlab/format.hpp"
#include "embedlab/torch_init.hpp"

namespace embedlab {
namespace {

void check_at_least_one(Index value, Argument argument, const char* why) {
  if (value >= 1) return;
  throw InputError(argument, std::string(argument_name(argument)) + " must be at least 1" + why +
                                 ", got " + count_text(value));
}

std::string ids_text(Index n) { return count_text(n) + (n == 1 ? " id" : " ids"); }

}  // namespace

Index window_count(Index n, Index max_length, Index stride) {
  return n <= max_length ? 0 : (n - max_length + stride - 1) / stride;
}

void check_loader(Index n, const LoaderOptions& o, const Limits& limits) {
  check_at_least_one(o.max_length, Argument::max_length, ": a window holds max_length ids");
  check_at_least_one(o.stride, Argument::stride,
                     ": range(0, len(ids) - max_length, stride) needs a step");
  check_at_least_one(o.batch_size, Argument::batch_size, ": a batch holds batch_size windows");
  check_count(n, Argument::ids, "token ids", limits);
  if (o.max_length >= n) {
    throw InputError(Argument::max_length,
                     "a window of max_length = " + count_text(o.max_length) +
                         " ids needs its target, shifted by one: " + count_text(o.max_length + 1) +
                         " ids, and the sequence has " + ids_text(n) +
                         ", so range(0, len(ids) - max_length, stride) is empty. " +
                         (n >= 2 ? "Make max_length at most " + count_text(n - 1)
                                 : std::string("Give at least 2 ids")) +
                         ", or give a longer sequence.");
  }
  const Index windows = window_count(n, o.max_length, o.stride);
  if (windows < o.batch_size) {
    throw InputError(
        Argument::batch_size,
        "max_length = " + count_text(o.max_length) + " and stride = " + count_text(o.stride) +
            " cut the " + ids_text(n) + " into " + count_text(windows) +
            (windows == 1 ? " window" : " windows") +
            ", fewer than batch_size = " + count_text(o.batch_size) +
            ": DataLoader(drop_last=True) drops a batch that is not full, so no batch would "
            "train. Make batch_size at most " +
            count_text(windows) + ", the stride smaller, or the sequence longer.");
  }
}

void check_epochs(Index epochs) {
  if (epochs >= 1 && epochs <= kMaxEpochs) return;
  throw InputError(Argument::epochs, "epochs must be between 1 and " + count_text(kMaxEpochs) +
                                         ", got " + count_text(epochs));
}

DataLoader::DataLoader(Ids ids, const LoaderOptions& options, const Limits& limits)
    : ids_(std::move(ids)), options_(options), windows_(0) {
  check_loader(static_cast<Index>(ids_.size()), options_, limits);
  windows_ = window_count(static_cast<Index>(ids_.size()), options_.max_length, options_.stride);
}

LoaderBatch DataLoader::next(TorchGenerator& global) {
  if (epoch_ == 0 || taken_ == batches_per_epoch()) {
    // iter(loader): _BaseDataLoaderIter draws its _base_seed, then the RandomSampler its own.
    torch_random_int64(global);
    if (options_.shuffle) {
      TorchGenerator sampler(torch_random_int64(global));
      order_ = torch_randperm(sampler, windows_);
    } else {
      order_.resize(static_cast<std::size_t>(windows_));
      for (Index w = 0; w < windows_; ++w) order_[static_cast<std::size_t>(w)] = w;
    }
    ++epoch_;
    taken_ = 0;
  }
  LoaderBatch out;
  out.epoch = epoch_;
  out.batch = ++taken_;
  const auto begin =
      order_.begin() + static_cast<std::ptrdiff_t>((taken_ - 1) * options_.batch_size);
  out.windows.assign(begin, begin + static_cast<std::ptrdiff_t>(options_.batch_size));
  out.inputs = inputs_of(out.windows);
  out.targets = targets_of(out.windows);
  return out;
}

TokenBatch DataLoader::inputs_of(const Ids& windows) const {
  TokenBatch x;
  x.rows = static_cast<Index>(windows.size());
  x.length = options_.max_length;
  for (const std::int64_t w : windows) {
    const auto start = static_cast<std::size_t>(w * options_.stride);
    x.ids.insert(x.ids.end(), ids_.begin() + static_cast<std::ptrdiff_t>(start),
                 ids_.begin() + static_cast<std::ptrdiff_t>(start) + options_.max_length);
  }
  return x;
}

Ids DataLoader::targets_of(const Ids& windows) const {
  Ids y;
  for (const std::int64_t w : windows) {
    const auto start = static_cast<std::size_t>(w * options_.stride + 1);
    y.insert(y.end(), ids_.begin() + static_cast<std::ptrdiff_t>(start),
             ids_.begin() + static_cast<std::ptrdiff_t>(start) + options_.max_length);
  }
  return y;
}

}  // namespace embedlab
