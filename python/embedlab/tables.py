"""The core's tables in Python: embedlab.open(path) for a .npy, .safetensors (or a sharded
checkpoint's index) or GGUF file, read where it lies as the CLI's --weights reads it (its rows when
a computation needs them, quantized blocks dequantized exactly as ggml does), or Table(W) over a
notebook's own tensor; the lookup, the one-hot product streamed through W, both routes graded, a
heatmap, into numpy arrays. Every error is the core's (the CLI prints the same words)."""

import os
from typing import List, Optional

import numpy as np

import _embedlab

from .inputs import checked_ids, core_table, weights_of
from .routes import Routes


class Table:
    """W (V, d) as the core holds it: in its stored dtype (F32, F64, F16, BF16, or ggml's Q8_0,
    Q4_0, Q4_K, Q6_K blocks), its rows read and made float32 when a computation needs them.
    Table(W) takes what show() takes (an nn.Embedding, an nn.Linear, a tensor, an array); a file's
    comes from embedlab.open(). Results are float32 numpy arrays."""

    def __init__(self, weights):
        # values: the notebook's own tensor or array, whose bytes the core reads in place; core:
        # the core's handle on them (_embedlab.Table).
        self.values, self.name = weights_of(weights)
        self.core = core_table(self.values, self.name)
        self.origin: Optional[str] = None
        self.tensor: Optional[str] = None
        self.format: Optional[str] = None
        self.tokens: List[str] = []

    @classmethod
    def _of_file(cls, opened) -> "Table":
        table = cls.__new__(cls)
        table.values, table.core = None, opened.table
        table.tensor = opened.tensor or None
        table.name = table.tensor or "W"
        table.origin, table.format, table.tokens = opened.origin, opened.format, list(opened.tokens)
        return table

    @property
    def shape(self):
        """(V, d)"""
        return self.core.rows, self.core.cols

    @property
    def dtype(self) -> str:
        """How its values are stored: "F32", "BF16", "Q4_K", ..."""
        return self.core.dtype

    @property
    def blocks_decoded(self) -> int:
        """The stored blocks (of a quantized table) made float32 so far by its computations."""
        return self.core.blocks_decoded

    def _flat(self, ids):
        array = checked_ids(ids, *self.shape)
        return array, np.ascontiguousarray(array.reshape(-1))

    def lookup(self, ids) -> np.ndarray:
        """embedding(ids): the rows W[ids], shaped ids.shape + (d,); those rows are read, no other."""
        array, flat = self._flat(ids)
        return self.core.lookup(flat).reshape(array.shape + (-1,))

    def product(self, ids) -> np.ndarray:
        """one_hot(ids, V).float() @ W, every multiplication by zero done, streamed through W a
        block of rows at a time (the (n, V) one-hot is never held); shaped as lookup()'s."""
        array, flat = self._flat(ids)
        return self.core.product(flat).reshape(array.shape + (-1,))

    def routes(self, ids) -> Routes:
        """Both routes for the ids, flattened to (n, d), and the core's verdict on them."""
        _, flat = self._flat(ids)
        return Routes(*self.core.routes(flat))

    def heatmap(self, height: Optional[int] = None, width: Optional[int] = None) -> np.ndarray:
        """W in at most height x width pixels (default: as many as the element's heatmap draws),
        each the first NaN of its block of W, else its value of largest magnitude."""
        views = _embedlab.views
        return self.core.heatmap(height or views["heatmap_rows"], width or views["heatmap_cols"])

    def numpy(self) -> np.ndarray:
        """W as a (V, d) float32 array, held whole (within the core's limit on a matrix held
        whole)."""
        return self.core.to_array()

    def __repr__(self) -> str:
        vocab, dim = self.shape
        return f"<embedlab.Table V = {vocab}, d = {dim}, {self.dtype}: {self.origin or self.name}>"


def open(path, tensor: Optional[str] = None) -> Table:  # noqa: A001 - embedlab.open, as gzip.open
    """The table of a file, opened by what it holds, as the CLI's --weights opens it: a .npy file,
    a .safetensors file's embedding table (or the tensor named), a sharded checkpoint's
    model.safetensors.index.json, a GGUF file's token_embd.weight (or the tensor named). Only the
    header is read now. Errors name the path."""
    return Table._of_file(_embedlab.open_table(os.fspath(path), tensor or ""))


def grade(expected, actual, pair: str = "lookup"):
    """The core's verdict on two results of the same shape (torch tensors or numpy arrays, each
    read as float32 by the core's rules): .grade ("identical", "value", "rounding", "differs"),
    .headline, .sentence, .text. pair: which routes they are ("lookup", "backward", "bag", ...),
    for the reasons the sentence gives."""
    tables = [
        core_table(_rows(r), name) for r, name in ((expected, "expected"), (actual, "actual"))
    ]
    return _embedlab.grade(*tables, pair)


def _rows(values):
    """A result of any shape as the (rows, last dim) matrix the core compares: a (B, T, d) batch
    as B * T rows."""
    return values.reshape(-1, values.shape[-1]) if values.ndim != 2 else values


def format_tensor(values) -> str:
    """A (rows, cols) tensor or array as PyTorch prints it (its default print options), read as
    float32 by the core's rules."""
    return _embedlab.format_tensor(core_table(values, "values").to_array())
