#pragma once
// The order in which PyTorch 1.13's CPU sort (torch.sort, stable=False) leaves equal keys.
//
// It sorts (key, position) pairs with std::sort comparing keys only. libstdc++'s std::sort is an
// introsort: median-of-three quicksort down to runs of 16, heapsort past a depth of
// 2 * floor(log2(n)), then one insertion sort. Equal keys keep their positions' order only while
// n <= 16 (insertion sort alone). Coalescing a sparse gradient sorts its rows this way and adds a
// repeated row's entries in the resulting order. Other standard libraries (libc++ under
// Emscripten) sort differently, so the algorithm is spelled out here.
#include <vector>

#include "embedlab/matrix.hpp"

namespace embedlab {

// The positions of keys in sorted order, as torch.sort(keys).indices gives them.
std::vector<Index> torch_sort_permutation(const std::vector<Index>& keys);

}  // namespace embedlab
