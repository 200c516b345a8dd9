"""Both routes computed in the kernel, for a table too large to send whole: the lookup
(nn.functional.embedding) and the one-hot product (one_hot(ids, V) @ W, every multiplication by
zero included), by PyTorch when W is a torch tensor, else by numpy, in W's dtype; and what the
element draws of W: its first and last rows with the ids' rows, and a heatmap of the whole."""

import numpy as np

from .inputs import Table, torch
from .limits import EDGE_ROWS, HEATMAP_COLS, HEATMAP_ROWS


def kernel_routes(table: Table, ids: np.ndarray):
    """(lookup, product): two (n, d) tables of W's kind and dtype, for the flat ids. PyTorch has
    no float16 matmul on the CPU: a float16 W's product is taken in float32 and rounded back (the
    widening is exact, as is the rounding of a sum of one value and zeros)."""
    vocab = table.shape[0]
    if table.kernel == "torch":
        idx = torch.from_numpy(ids.astype(np.int64))
        weight = table.values
        with torch.no_grad():
            lookup = torch.nn.functional.embedding(idx, weight)
            wide = (
                weight.float() if weight.dtype == torch.float16 and not weight.is_cuda else weight
            )
            onehot = torch.nn.functional.one_hot(idx, vocab).to(wide.dtype)
            product = (onehot @ wide).to(weight.dtype)
        return lookup, product
    lookup = table.values[ids]
    onehot = np.zeros((len(ids), vocab), dtype=table.values.dtype)
    onehot[np.arange(len(ids)), ids] = 1
    with np.errstate(invalid="ignore"):  # NaN and Inf in W spread through the product, as in torch
        return lookup, onehot @ table.values


def drawn_rows(vocab: int, ids: np.ndarray) -> np.ndarray:
    """The rows of W the element draws (web/model/row-window.mjs): the first and last EDGE_ROWS
    and the ids', ascending, each once."""
    edge = np.arange(min(EDGE_ROWS, vocab))
    return np.unique(np.concatenate([edge, vocab - 1 - edge, ids]))


def _pixel_bounds(total: int, pixels: int) -> np.ndarray:
    """Pixel p stands for cells [bounds[p], bounds[p + 1]) (web/draw/heatmap.mjs's blocks)."""
    return (np.arange(pixels + 1) * total) // pixels


def heatmap(table: Table) -> np.ndarray:
    """W summarised in at most HEATMAP_ROWS x HEATMAP_COLS float32 pixels, by the core's rule
    (core/include/embedlab/streamed.hpp, Downsample): each pixel the first NaN of its block in
    row-major order, else its value of largest magnitude, the first of equal ones, from +0.0."""
    vocab, dim = table.shape
    height, width = min(vocab, HEATMAP_ROWS), min(dim, HEATMAP_COLS)
    row_bounds = _pixel_bounds(vocab, height)
    column_pixel = np.repeat(np.arange(width), np.diff(_pixel_bounds(dim, width)))
    columns = np.arange(dim)
    pixels = np.zeros((height, width), dtype=np.float32)
    for p in range(height):
        block = table.values[row_bounds[p] : row_bounds[p + 1]]
        if table.kernel == "torch":
            block = block.float().numpy()
        block = np.asarray(block, dtype=np.float32)
        nan = np.isnan(block)
        # Per column: its first NaN's row, else the first row of largest magnitude.
        key = np.where(nan, np.inf, np.abs(block))
        row = np.where(nan.any(axis=0), nan.argmax(axis=0), key.argmax(axis=0))
        is_nan = nan[row, columns]
        magnitude = key[row, columns]
        # Per pixel: NaN first, then the largest magnitude, then row-major order.
        order = np.lexsort((columns, row, -magnitude, ~is_nan, column_pixel))
        first = order[np.r_[0, np.flatnonzero(np.diff(column_pixel[order])) + 1]]
        values = block[row[first], first]
        pixels[p] = np.where(magnitude[first] == 0, np.float32(0.0), values)
    return pixels
