#include "embedlab/padding_idx.hpp"

#include <string>

#include "embedlab/error.hpp"

namespace embedlab {

Index resolve_padding_idx(std::optional<Index> padding_idx, Index vocab) {
  if (!padding_idx) return -1;
  const Index p = *padding_idx;
  if (p < -vocab || p >= vocab) {
    throw InputError(Argument::padding_idx,
                     "padding_idx = " + std::to_string(p) +
                         " is outside the vocabulary: it must lie in [-" + std::to_string(vocab) +
                         ", " + std::to_string(vocab - 1) + "] for V = " + std::to_string(vocab));
  }
  return p < 0 ? p + vocab : p;
}

}  // namespace embedlab
