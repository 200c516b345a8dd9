#pragma once
// per_sample_weights as a learner types them: "1, 0.5, 2" or "[1, 0.5, 2]". One rule for the
// CLI's --per-sample-weights and the page's field.
#include <string>
#include <string_view>
#include <vector>

#include "embedlab/limits.hpp"

namespace embedlab {

struct SampleWeights {
  std::vector<float> values;
  std::vector<std::string> texts;  // each value as typed, to show it back

  // Each value as a Python float literal ("1" becomes "1.0"), so that printed code's
  // torch.tensor([...]) is float32 as the values are.
  std::vector<std::string> literals;
};

// Commas, spaces and one pair of brackets separate the values; each must be a finite number.
// Empty text gives no weights. Throws InputError (of per_sample_weights) naming the value and
// its 1-based position; more than limits.max_ids values are refused before any is stored.
SampleWeights parse_sample_weights(std::string_view text, const Limits& limits = default_limits);

}  // namespace embedlab
