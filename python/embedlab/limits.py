"""The core's limits (core/include/embedlab/limits.hpp) and where show() switches from sending the
whole table to sending what the element draws (web/model/row-window.mjs's WHOLE_FLOATS: a table
the page holds whole). Kept equal to theirs by the notebook tests' bad-input cases."""

MAX_IDS = 65536  # token ids in one request
MAX_VOCAB = 1 << 22  # rows of W
MAX_DIM = 1 << 16  # columns of W
WHOLE_VALUES = 1 << 18  # V * d up to this: the whole table goes, the element computes both routes
EDGE_ROWS = 3  # the first and last rows the element draws (PyTorch's printing)
HEATMAP_ROWS, HEATMAP_COLS = 256, 512  # the most pixels of the element's heatmap of W
MAX_OUTPUT_BYTES = 2_000_000  # every output's HTML, element and data included
