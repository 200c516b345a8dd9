#pragma once
// Token ids: parsing what people type, and checking them against a vocabulary.
#include <string_view>

#include "embedlab/limits.hpp"
#include "embedlab/matrix.hpp"

namespace embedlab {

// Accepts "2, 3, 1", "2 3 1", "[2, 3, 1]", "tensor([2, 3, 1])" (and mixes of commas and
// whitespace). Throws InputError naming the offending token and its 1-based position when a
// token is not an integer or is negative, when there are no ids, or more than limits.max_ids.
Ids parse_ids(std::string_view text, const Limits& limits = default_limits);

// Throws InputError if any id is outside [0, vocab), in PyTorch's words plus the detail:
// "index out of range in self: id 7 (position 2) is not below the vocabulary size V = 4".
void check_ids(const Ids& ids, Index vocab);

// The notebook's default vocabulary size: max(ids) + 1. Throws on an empty list.
Index default_vocab(const Ids& ids);

}  // namespace embedlab
