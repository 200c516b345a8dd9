#pragma once
// What the views draw of a (V, d) matrix, W or a gradient of W: a small one whole; of a larger one
// only the rows drawn (the first and last kEdgeRows, PyTorch's printing's and the picture's ends,
// and the rows the ids name) and a heatmap of the whole of at most kHeatmapRows x kHeatmapCols
// pixels (streamed.hpp's Downsample). The page's row window (web/model/row-window.mjs) and the
// Python package's outputs follow these numbers.
#include "embedlab/matrix.hpp"

namespace embedlab {

// Held whole up to this many values (1 MiB of float32): every notebook-sized table.
inline constexpr Index kWholeViewValues = Index{1} << 18;
inline constexpr Index kEdgeRows = 3;
inline constexpr Index kHeatmapRows = 256;
inline constexpr Index kHeatmapCols = 512;

// Whether the views hold a (rows, cols) matrix whole.
bool views_hold_whole(Index rows, Index cols);

// The rows of a (vocab, .) matrix the views draw for these ids (checked by the caller): ascending,
// each once.
Ids drawn_rows(Index vocab, const Ids& ids);

}  // namespace embedlab
