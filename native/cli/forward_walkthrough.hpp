#pragma once
#include <ostream>

#include "table_source.hpp"

namespace embedlab::cli {

// Replays the notebook: the table, each lookup, the one-hot matrix, the Linear weight, the
// product, and the verdict, printed as PyTorch prints them.
void print_forward_walkthrough(const Input& input, std::ostream& out);

}  // namespace embedlab::cli
