"""Both routes for the ids, and their grade by the core. W a torch tensor: the notebook's own
PyTorch runs them (F.embedding, and one_hot(ids, V) @ W with every multiplication by zero), in W's
dtype, as the notebook would; any other W: the core runs them, the product streamed through W.
Either way the core grades them, each result read as float32 by its rules (the element reads them
so too)."""

from typing import Any, NamedTuple, Tuple

import numpy as np

import _embedlab

from .inputs import core_table, is_tensor, torch


class Routes(NamedTuple):
    """lookup and product: (n, d) results, torch tensors in W's dtype where PyTorch ran them, else
    float32 numpy arrays; verdict: the core's grade of them (.grade, .headline, .sentence, .text).
    """

    lookup: Any
    product: Any
    verdict: Any


def _torch_routes(values, ids: np.ndarray):
    """PyTorch's two routes. It has no float16 matmul on the CPU: a float16 W's product is taken
    in float32 and rounded back (the widening is exact, as is the rounding of a sum of one value
    and zeros). The (n, V) one-hot is held whole, so the core checks its size first."""
    vocab = values.shape[0]
    _embedlab.check_onehot_shape(len(ids), vocab)
    idx = torch.from_numpy(ids)
    with torch.no_grad():
        lookup = torch.nn.functional.embedding(idx, values)
        wide = values.float() if values.dtype == torch.float16 else values
        onehot = torch.nn.functional.one_hot(idx, vocab).to(wide.dtype)
        product = (onehot @ wide).to(values.dtype)
    return lookup, product


def kernel_routes(table, ids: np.ndarray) -> Tuple[Routes, str]:
    """Both routes for a Table (tables.py) and the flat int64 ids (checked), graded by the core,
    and who ran them ("PyTorch 1.13.1", "the embedlab core")."""
    if is_tensor(table.values):
        lookup, product = _torch_routes(table.values, ids)
        verdict = _embedlab.grade(core_table(lookup, "lookup"), core_table(product, "product"))
        return Routes(lookup, product, verdict), f"PyTorch {torch.__version__}"
    return Routes(*table.core.routes(ids)), "the embedlab core"
