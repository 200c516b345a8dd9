#pragma once
// padding_idx as nn.Embedding and nn.EmbeddingBag take it.
#include <optional>

#include "embedlab/matrix.hpp"

namespace embedlab {

// None, or a row in [-V, V) where a negative value counts from the end (-1 is row V - 1).
// Returns the row in [0, V), or -1 for none; throws InputError outside [-V, V).
Index resolve_padding_idx(std::optional<Index> padding_idx, Index vocab);

}  // namespace embedlab
