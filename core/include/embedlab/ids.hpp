#pragma once
// Token ids: parsing what people type, and checking them against a vocabulary.
#include <string_view>
#include <vector>

#include "embedlab/limits.hpp"
#include "embedlab/matrix.hpp"

namespace embedlab {

// Accepts "2, 3, 1", "2 3 1", "[2, 3, 1]", "(2, 3, 1)", "tensor([2, 3, 1])" and
// "torch.tensor([2, 3, 1])", with any mix of commas and whitespace (newlines included) and one
// trailing comma. Throws InputError naming the offending token and its 1-based position ("token
// 2") when a token is not an integer, is negative or does not fit in int64; naming the character
// position for unbalanced brackets, nested lists, empty entries ("2,,3") and stray text; when
// there are no ids; and when there are more than limits.max_ids (counted before allocating).
Ids parse_ids(std::string_view text, const Limits& limits = default_limits);

// "1,2; 3,3; 0,1" -> {{1, 2}, {3, 3}, {0, 1}}: batches separated by semicolons (one trailing
// semicolon allowed), each read as parse_ids reads ids; its messages begin "batch 2: ". At most
// limits.max_ids ids in all batches together.
std::vector<Ids> parse_batches(std::string_view text, const Limits& limits = default_limits);

// Throws InputError (of vocab) if vocab < 1, or (of ids) if any id is outside [0, vocab), in
// PyTorch's words plus the detail: "index out of range in self: id 7 at position 3 is not below the
// vocabulary size V = 4 (valid ids are 0..3)".
void check_ids(const Ids& ids, Index vocab);

// The ids in ascending order, each once: the rows of W that they name.
Ids distinct_ids(Ids ids);

// How often each id in [0, vocab) occurs: the divisor of scale_grad_by_freq. ids are checked.
std::vector<Index> id_counts(const Ids& ids, Index vocab);

// The notebook's default vocabulary size: max(ids) + 1. Throws on an empty list, a negative
// id, or an id whose max + 1 is over limits.max_vocab (an error of the ids: no V was typed).
Index default_vocab(const Ids& ids, const Limits& limits = default_limits);

}  // namespace embedlab
