#include "embedlab/tied_head.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <utility>

#include "embedlab/error.hpp"
#include "gemm.hpp"
#include "tensor_names.hpp"

namespace embedlab {
namespace {

// a ranks before b: the larger logit (a NaN largest), then the smaller id.
bool ranks_before(const TopLogit& a, const TopLogit& b) {
  if (std::isnan(a.logit) != std::isnan(b.logit)) return std::isnan(a.logit);
  if (!std::isnan(a.logit) && a.logit != b.logit) return a.logit > b.logit;
  return a.id < b.id;
}

}  // namespace

Index default_top_k(Index vocab) { return std::min<Index>(5, vocab); }

void check_top_k(Index k, Index vocab, Index lowest) {
  if (k >= lowest && k <= vocab) return;
  throw InputError(Argument::ids, "top-k must be between " + std::to_string(lowest) + " and V = " +
                                      std::to_string(vocab) + ", got " + std::to_string(k));
}

StreamedHead::StreamedHead(Table weight, Matrix hidden, const HeadOptions& options,
                           const Limits& limits)
    : weight_(std::move(weight)),
      hidden_t_(hidden.transpose()),
      options_(options),
      // Whole GEMM row blocks: a block's logits are then the same bits as the product's whole.
      block_rows_(stream_block_rows(weight_.cols(), options.block_rows)) {
  const Index n = hidden.rows(), vocab = weight_.rows();
  if (hidden.cols() != weight_.cols()) {
    throw InputError(Argument::dim, "h has " + std::to_string(hidden.cols()) +
                                        " columns but W has d = " + std::to_string(weight_.cols()) +
                                        ": the tied head computes h @ W.T, so h is (n, d)");
  }
  check_count(n, Argument::ids, "rows of h", limits);
  check_top_k(options_.top_k, vocab, 0);
  for (std::size_t c = 0; c < options_.keep_columns.size(); ++c) {
    const Index col = options_.keep_columns[c];
    if (col < 0 || col >= vocab || (c > 0 && col <= options_.keep_columns[c - 1]))
      throw InputError(Argument::ids, "the logits kept must be ascending, distinct ids below V");
  }
  check_elements(n, static_cast<Index>(options_.keep_columns.size()), Argument::ids,
                 "the logits kept", limits);
  if (options_.whole) {
    check_elements(n, vocab, Argument::vocab, "the logits (n x V)", limits);
    whole_ = Matrix::Zero(n, vocab);
  }
  columns_ = Matrix::Zero(n, static_cast<Index>(options_.keep_columns.size()));
  top_.resize(static_cast<std::size_t>(n));
  progress_.rows = vocab;
  progress_.bytes = weight_.stored_bytes();
  progress_.total_multiply_adds = static_cast<std::uint64_t>(n) *
                                  static_cast<std::uint64_t>(vocab) *
                                  static_cast<std::uint64_t>(weight_.cols());
}

const StreamProgress& StreamedHead::step() {
  if (done()) return progress_;
  const Index n = hidden_t_.cols(), d = weight_.cols();
  const Index first = progress_.rows_done;
  const Index count = std::min(block_rows_, progress_.rows - first);
  const float* rows = weight_.rows_at(first, count, rows_);
  // logits[:, block].T = W[block] @ h.T: (count, d) x (d, n), added onto +0.0 as torch.mm does.
  Matrix block = Matrix::Zero(count, n);
  gemm_accumulate(count, d, n, rows, d, hidden_t_.data(), n, block.data(), n);

  const auto k = static_cast<std::size_t>(options_.top_k);
  const auto& keep = options_.keep_columns;
  const auto kept_from = std::lower_bound(keep.begin(), keep.end(), first);
  const auto kept_to = std::lower_bound(keep.begin(), keep.end(), first + count);
  for (Index i = 0; i < n; ++i) {
    std::vector<TopLogit>& top = top_[static_cast<std::size_t>(i)];
    for (Index r = 0; r < count; ++r) {
      const TopLogit candidate{first + r, block(r, i)};
      if (k == 0 || (top.size() == k && !ranks_before(candidate, top.back()))) continue;
      top.insert(std::upper_bound(top.begin(), top.end(), candidate, ranks_before), candidate);
      if (top.size() > k) top.pop_back();
    }
    if (options_.whole) whole_.row(i).segment(first, count) = block.col(i).transpose();
    for (auto c = kept_from; c != kept_to; ++c)
      columns_(i, c - keep.begin()) = block(*c - first, i);
  }
  progress_.rows_done += count;
  progress_.bytes_read += static_cast<std::uint64_t>(count) * weight_.row_bytes();
  progress_.multiply_adds += static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(count) *
                             static_cast<std::uint64_t>(d);
  return progress_;
}

const StreamProgress& StreamedHead::run() {
  while (!done()) step();
  return progress_;
}

HeadTying head_tying(const SafetensorsHeader& header, std::string_view config_text) {
  if (config_text.size() > kMaxConfigBytes)
    throw InputError(Argument::weights, "config.json is over 1 MiB: not a model's config.json");
  if (!config_text.empty()) {
    nlohmann::json config;
    try {
      config = nlohmann::json::parse(config_text.begin(), config_text.end());
    } catch (const nlohmann::json::exception& e) {
      throw InputError(Argument::weights, "config.json is not JSON: " + json_error_text(e));
    }
    if (!config.is_object())
      throw InputError(Argument::weights,
                       "config.json holds " + json_text(config) + ", not an object of settings");
    const auto tie = config.find("tie_word_embeddings");
    if (tie != config.end()) {
      if (!tie->is_boolean())
        throw InputError(Argument::weights, "config.json's tie_word_embeddings is " +
                                                json_text(*tie) + ", not true or false");
      const bool tied = tie->get<bool>();
      return {tied, std::string("its config.json says \"tie_word_embeddings\": ") +
                        (tied ? "true: out_head.weight is the embedding's W"
                              : "false: the output layer has a weight of its own")};
    }
  }
  for (const SafetensorsEntry& e : header.tensors) {
    if (named_like_output_layer(e.name))
      return {false, "the file stores an output layer of its own, " + name_text(e.name) +
                         ": its logits use that weight, not the embedding's"};
  }
  return {true,
          "the file stores no lm_head.weight or output.weight: the output layer is the "
          "embedding's W, stored once"};
}

}  // namespace embedlab
