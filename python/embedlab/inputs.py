"""What show() takes, checked before anything is rendered: the weights as a (V, d) table in its own
dtype, the ids as whole numbers below V. Errors are the core's words (core/src/ids.cpp,
core/src/limits.cpp, core/src/padding_idx.cpp): which id, at which position, which bound."""

from dataclasses import dataclass
from typing import Any, Optional, Tuple

import numpy as np

from .limits import MAX_DIM, MAX_IDS, MAX_VOCAB

try:  # torch is optional: numpy arrays and lists work without it
    import torch
except ImportError:  # pragma: no cover - exercised where torch is absent
    torch = None

# The safetensors dtype of each table dtype (little-endian bytes, as the file format stores them).
_NUMPY_DTYPES = {np.dtype("float32"): "F32", np.dtype("float16"): "F16", np.dtype("float64"): "F64"}
_TORCH_DTYPES = (
    {torch.float32: "F32", torch.float16: "F16", torch.bfloat16: "BF16", torch.float64: "F64"}
    if torch
    else {}
)


ITEM_BYTES = {"F32": 4, "F16": 2, "BF16": 2, "F64": 8}


class EmbedlabInputError(ValueError):
    """Bad input to show(); `argument` names it as the core does ('ids', 'weights', 'padding_idx')."""

    def __init__(self, argument: str, message: str):
        super().__init__(message)
        self.argument = argument


@dataclass
class Table:
    """W (V, d): `values` a detached torch tensor or a numpy array, as given; `name` how the output
    names it; `dtype` its safetensors dtype; `kernel` 'torch' or 'numpy', which runs the routes."""

    values: Any
    name: str
    dtype: str
    kernel: str

    @property
    def shape(self) -> Tuple[int, int]:
        return tuple(int(s) for s in self.values.shape)

    def rows(self, rows):
        """Those rows of W (an int64 array), of W's kind and dtype."""
        return self.values[torch.from_numpy(rows)] if self.kernel == "torch" else self.values[rows]


def raw_bytes(values) -> bytes:
    """A torch tensor's or numpy array's values, little-endian in their dtype, bit for bit."""
    if torch is not None and isinstance(values, torch.Tensor):
        values = values.detach().cpu().contiguous()
        if values.dtype == torch.bfloat16:  # numpy has no bfloat16: its 16 bits as they are
            return values.view(torch.int16).numpy().astype("<i2", copy=False).tobytes()
        values = values.numpy()
    return np.ascontiguousarray(values, dtype=values.dtype.newbyteorder("<")).tobytes()


def _is_tensor(value) -> bool:
    return torch is not None and isinstance(value, torch.Tensor)


def table_of(weights) -> Table:
    """An nn.Embedding (its weight), an nn.Linear (its weight.T: nn.Linear(V, d) stores W as
    (d, V)), a torch tensor, a numpy array or nested lists (float32, as torch.tensor makes them)."""
    name = "W"
    if torch is not None and isinstance(weights, torch.nn.Embedding):
        name = f"nn.Embedding({weights.num_embeddings}, {weights.embedding_dim}).weight"
        weights = weights.weight
    elif torch is not None and isinstance(weights, torch.nn.Linear):
        name = f"nn.Linear({weights.in_features}, {weights.out_features}).weight.T"
        weights = weights.weight.T
    if _is_tensor(weights):
        values = weights.detach().cpu()
        if values.dtype not in _TORCH_DTYPES:
            raise EmbedlabInputError(
                "weights", f"W must be float32, bfloat16, float16 or float64, got {values.dtype}"
            )
        table = Table(values, name, _TORCH_DTYPES[values.dtype], "torch")
    else:
        if isinstance(weights, (list, tuple)):
            values = np.asarray(weights, dtype=np.float32)
        elif isinstance(weights, np.ndarray):
            values = weights
        else:
            raise EmbedlabInputError(
                "weights",
                "W must be an nn.Embedding, an nn.Linear, a torch tensor, a numpy array or nested "
                f"lists, got {type(weights).__name__}",
            )
        if values.dtype not in _NUMPY_DTYPES:
            raise EmbedlabInputError(
                "weights", f"W must be float32, float16 or float64, got {values.dtype}"
            )
        table = Table(values, name, _NUMPY_DTYPES[values.dtype], "numpy")
    if len(table.values.shape) != 2:
        raise EmbedlabInputError(
            "weights", f"W must be a 2-D table (V, d), got shape {tuple(table.values.shape)}"
        )
    vocab, dim = table.shape
    for value, limit, what, argument in (
        (vocab, MAX_VOCAB, "the vocabulary size V", "vocab"),
        (dim, MAX_DIM, "the embedding dimension d", "dim"),
    ):
        if value < 1:
            raise EmbedlabInputError(argument, f"{what} must be at least 1, got {value}")
        if value > limit:
            raise EmbedlabInputError(argument, f"{what} = {value} is over the limit of {limit}")
    return table


def ids_of(ids, vocab: int) -> np.ndarray:
    """The ids as an int64 array of shape (n,) or (B, T), each in [0, V)."""
    if _is_tensor(ids):
        if ids.dtype.is_floating_point or ids.dtype.is_complex or ids.dtype == torch.bool:
            raise EmbedlabInputError(
                "ids", f"ids must be whole numbers (torch.long or torch.int), got {ids.dtype}"
            )
        array = ids.detach().cpu().numpy().astype(np.int64)
    else:
        array = np.asarray(ids)
        if array.dtype == object:
            raise EmbedlabInputError(
                "ids", "ids must be a 1-D list of ints or a 2-D batch of equal-length rows"
            )
        if array.size and (array.dtype == bool or not np.issubdtype(array.dtype, np.integer)):
            raise EmbedlabInputError("ids", f"ids must be whole numbers, got {array.dtype}")
        array = array.astype(np.int64)
    if array.ndim not in (1, 2):
        raise EmbedlabInputError(
            "ids", f"ids must be 1-D (n,) or a 2-D batch (B, T), got shape {tuple(array.shape)}"
        )
    n = array.size
    if n < 1:
        raise EmbedlabInputError("ids", "the number of token ids n must be at least 1, got 0")
    if n > MAX_IDS:
        raise EmbedlabInputError(
            "ids", f"too many token ids: {n} given, at most {MAX_IDS} are accepted at once"
        )
    flat = array.reshape(-1)
    bad = np.flatnonzero((flat < 0) | (flat >= vocab))
    if bad.size:
        position = int(bad[0])
        id_ = int(flat[position])
        which = f"index out of range in self: id {id_} at position {position + 1}"
        if array.ndim == 2:
            which += f" (batch {position // array.shape[1] + 1})"
        valid = f"0..{vocab - 1}"
        if id_ < 0:
            message = f"{which} is negative; ids for the vocabulary size V = {vocab} are {valid}"
        else:
            message = (
                f"{which} is not below the vocabulary size V = {vocab} (valid ids are {valid})"
            )
        raise EmbedlabInputError("ids", message)
    return array


def padding_idx_of(padding_idx: Optional[int], vocab: int) -> Optional[int]:
    """padding_idx counted from 0 (a negative one counts from the end, as nn.Embedding's)."""
    if padding_idx is None:
        return None
    p = int(padding_idx)
    if p < -vocab or p >= vocab:
        raise EmbedlabInputError(
            "padding_idx",
            f"padding_idx = {p} is outside the vocabulary: it must lie in [-{vocab}, {vocab - 1}] "
            f"for V = {vocab}",
        )
    return p + vocab if p < 0 else p
