"""What show() and Table() take, converted for the core: the weights as a (V, d) table handle over
their own bytes in their own dtype, the ids as int64. Only the conversion is written here (which
Python objects are a table, which are ids, numpy's and torch's dtype names as .safetensors spells
them); every check of the values, limit and message is the core's, through _embedlab."""

from typing import Any, Optional, Tuple

import numpy as np

import _embedlab

try:  # torch is optional: numpy arrays and lists work without it
    import torch
except ImportError:  # pragma: no cover - exercised where torch is absent
    torch = None

EmbedlabInputError = _embedlab.EmbedlabInputError
EmbedlabInputError.__module__ = "embedlab"  # where users meet it: embedlab.EmbedlabInputError

# numpy's and torch's dtype names (str(dtype), without "torch.") as the .safetensors format names
# them, which is how the core is told a tensor's dtype; a name not here goes as it is, and the core
# says it is not one it reads.
_DTYPE_NAMES = {
    "float32": "F32",
    "float16": "F16",
    "bfloat16": "BF16",
    "float64": "F64",
    "bool": "BOOL",
    "uint8": "U8",
    "int8": "I8",
    "int16": "I16",
    "uint16": "U16",
    "int32": "I32",
    "uint32": "U32",
    "int64": "I64",
    "uint64": "U64",
    "complex64": "C64",
}


def input_error(argument: str, message: str) -> EmbedlabInputError:
    """An EmbedlabInputError about one of the Python API's own arguments (text=, view=, ...)."""
    error = EmbedlabInputError(message)
    error.argument = argument
    return error


def is_tensor(value) -> bool:
    return torch is not None and isinstance(value, torch.Tensor)


def dtype_name(values) -> str:
    """A torch tensor's or numpy array's dtype as .safetensors names it ("F32", "BF16", "I64")."""
    name = str(values.dtype).replace("torch.", "")
    return _DTYPE_NAMES.get(name, name)


def raw_bytes(values) -> np.ndarray:
    """A torch tensor's or numpy array's values, little-endian in their dtype, C order, as a numpy
    array the core reads in place (a copy only where the layout needs one)."""
    if is_tensor(values):
        values = values.detach().cpu().contiguous()
        if values.dtype == torch.bfloat16:  # numpy has no bfloat16: its 16 bits as they are
            values = values.view(torch.int16)
        values = values.numpy()
    return np.ascontiguousarray(values, dtype=values.dtype.newbyteorder("<"))


def core_table(values, name: str):
    """The core's handle on a (V, d) tensor or array, over its own bytes; the core checks that it
    is 2-D, of a dtype a table holds, and within the limits (errors of weights, vocab, dim)."""
    return _embedlab.tensor_table(
        raw_bytes(values), dtype_name(values), tuple(int(s) for s in values.shape), name
    )


def weights_of(weights) -> Tuple[Any, str]:
    """W's values and how outputs name it, from an nn.Embedding (its weight), an nn.Linear (its
    weight.T: nn.Linear(V, d) stores W as (d, V)), a torch tensor (detached), a numpy array or
    nested lists (float32, as torch.tensor makes them)."""
    name = "W"
    if torch is not None and isinstance(weights, torch.nn.Embedding):
        name = f"nn.Embedding({weights.num_embeddings}, {weights.embedding_dim}).weight"
        weights = weights.weight
    elif torch is not None and isinstance(weights, torch.nn.Linear):
        name = f"nn.Linear({weights.in_features}, {weights.out_features}).weight.T"
        weights = weights.weight.T
    if is_tensor(weights):
        values = weights.detach().cpu()
    elif isinstance(weights, (list, tuple)):
        values = np.asarray(weights, dtype=np.float32)
    elif isinstance(weights, np.ndarray):
        values = weights
    else:
        raise input_error(
            "weights",
            "W must be an nn.Embedding, an nn.Linear, a torch tensor, a numpy array or nested "
            f"lists, got {type(weights).__name__}",
        )
    return values, name


def ids_of(ids) -> np.ndarray:
    """The ids as an int64 array of shape (n,) or (B, T); their values are the core's to check.
    A string is read as the page and the CLI read typed ids ("2, 3, 1", "[2, 3, 1]", ...)."""
    if isinstance(ids, str):
        return _embedlab.parse_ids(ids)
    if is_tensor(ids):
        if ids.dtype.is_floating_point or ids.dtype.is_complex or ids.dtype == torch.bool:
            raise input_error(
                "ids", f"ids must be whole numbers (torch.long or torch.int), got {ids.dtype}"
            )
        array = ids.detach().cpu().numpy().astype(np.int64)
    else:
        array = np.asarray(ids)
        if array.dtype == object:
            raise input_error(
                "ids", "ids must be a 1-D list of ints or a 2-D batch of equal-length rows"
            )
        if array.size and (array.dtype == bool or not np.issubdtype(array.dtype, np.integer)):
            raise input_error("ids", f"ids must be whole numbers, got {array.dtype}")
        array = array.astype(np.int64)
    if array.ndim not in (1, 2):
        raise input_error(
            "ids", f"ids must be 1-D (n,) or a 2-D batch (B, T), got shape {tuple(array.shape)}"
        )
    return array


def checked_ids(ids, vocab: int, dim: int) -> np.ndarray:
    """ids_of(ids), then the core's checks of a request for them into a (V, d) table: how many
    (at least 1, at most the limit), the results' size, and each id below V."""
    array = ids_of(ids)
    flat = np.ascontiguousarray(array.reshape(-1))
    _embedlab.check_request_sizes(len(flat), vocab, dim)
    _embedlab.check_ids(flat, vocab)
    return array


def padding_row(padding_idx: Optional[int], vocab: int) -> Optional[int]:
    """padding_idx as a row in [0, V) (a negative one counts from the end, as nn.Embedding's), or
    None; the core checks its range."""
    if padding_idx is None:
        return None
    return _embedlab.resolve_padding_idx(int(padding_idx), vocab)
