"""What show() displays: one self-contained HTML output (the element with its data in attributes,
the notebook bundle inline in a module script) with a static table inside the element that shows
where scripts do not run, and a text/plain summary."""

import base64
import html
from importlib import resources

import numpy as np

from .inputs import raw_bytes, torch

_ELEMENT = None  # the notebook bundle's text, read once


def element_script() -> str:
    """The element's bundle (scripts/build-site.mjs's notebook.mjs), packaged as element.mjs."""
    global _ELEMENT
    if _ELEMENT is None:
        _ELEMENT = resources.files(__package__).joinpath("element.mjs").read_text("utf-8")
        # Inline in <script>, "</script" would end it; the bundle is minified JavaScript, where it
        # can only stand in a string, in which "<\/script" reads the same.
        _ELEMENT = _ELEMENT.replace("</script", "<\\/script")
    return _ELEMENT


def base64_text(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def as_float64(values) -> np.ndarray:
    """A kernel's (n, d) result as float64, for printing and comparing (exact for every dtype)."""
    if torch is not None and isinstance(values, torch.Tensor):
        return values.detach().to(torch.float64).numpy()
    return np.asarray(values, dtype=np.float64)


def bit_identical(lookup, product) -> bool:
    """Whether the two results hold the same bits (NaN payloads, -0.0 and all)."""
    return tuple(lookup.shape) == tuple(product.shape) and raw_bytes(lookup) == raw_bytes(product)


def _number(value: float) -> str:
    """PyTorch's short printing of one value (4 decimals), as the element prints it."""
    if np.isnan(value):
        return "nan"
    if np.isinf(value):
        return "inf" if value > 0 else "-inf"
    return f"{value:.4f}"


def _columns(dim: int):
    """The columns printed: all up to 6, else the first and last 3 with an ellipsis between, as
    PyTorch prints a wide tensor."""
    return list(range(dim)) if dim <= 6 else [0, 1, 2, None, dim - 3, dim - 2, dim - 1]


def _rows(ids: np.ndarray, lookup: np.ndarray):
    """(id, row) of the rows printed: all up to 6, else the first and last 3 with (None, None)
    between, as PyTorch prints a long tensor."""
    pairs = list(zip(ids, lookup))
    return pairs if len(pairs) <= 6 else pairs[:3] + [(None, None)] + pairs[-3:]


def _cells(row, columns):
    return ["…" if j is None else _number(row[j]) for j in columns]


def static_table(ids: np.ndarray, lookup: np.ndarray, verdict: str, caption: str) -> str:
    """The rows and the verdict as a plain HTML table: what shows where scripts are stripped."""
    columns = _columns(lookup.shape[1])
    head = "".join(f"<th>{'…' if j is None else j}</th>" for j in columns)
    body = "".join(
        "<tr><th>⋮</th></tr>"
        if i is None
        else f"<tr><th>{int(i)}</th>"
        + "".join(f"<td>{c}</td>" for c in _cells(row, columns))
        + "</tr>"
        for i, row in _rows(ids, lookup)
    )
    return (
        '<table class="embedlab-static"><caption>'
        + html.escape(caption)
        + f"</caption><thead><tr><th>id</th>{head}</tr></thead><tbody>{body}</tbody></table>"
        + f'<p class="embedlab-static-verdict">{html.escape(verdict)}</p>'
    )


def text_rows(ids: np.ndarray, lookup: np.ndarray) -> str:
    """embedding(idx)'s rows as text, one per id (wide rows shortened as PyTorch does)."""
    columns = _columns(lookup.shape[1])
    return "\n".join(
        "     ...," if i is None else f"  {int(i):>6}: [" + ", ".join(_cells(row, columns)) + "]"
        for i, row in _rows(ids, lookup)
    )
