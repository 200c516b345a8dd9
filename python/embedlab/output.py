"""What show() displays: one self-contained HTML output (the element with its data in attributes,
the notebook bundle inline in a module script) with a static table inside the element that shows
where scripts do not run, and a text/plain summary. Numbers are printed by the core, as PyTorch
prints them."""

import base64
import html
from importlib import resources
from typing import List, Optional

import numpy as np

import _embedlab

# Every output's HTML, element and data included, is at most this many bytes: what a notebook
# holds comfortably per output (the notebook's own bound, not the core's).
MAX_OUTPUT_BYTES = 2_000_000

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


def _with_gaps(indices: List[int]) -> List[Optional[int]]:
    """The printed indices with None where PyTorch's printing leaves some out."""
    out: List[Optional[int]] = []
    for k, i in enumerate(indices):
        if k and i != indices[k - 1] + 1:
            out.append(None)
        out.append(i)
    return out


def static_table(
    ids: np.ndarray, lookup: np.ndarray, vocab: int, verdict: str, caption: str
) -> str:
    """The rows of embedding(idx) (float32, (n, d)) and the verdict as a plain HTML table: what
    shows where scripts are stripped. PyTorch's printing picks the cells: the rows it prints of
    embedding(idx), the columns it prints of W (V, d), so that a wide table stays narrow; the
    numbers are in the notation it prints them in."""
    n, d = lookup.shape
    rows = _embedlab.printed_indices(n, n, d)
    cols = _embedlab.printed_indices(d, vocab, d)
    shown = lookup[np.ix_(rows, cols)].astype(np.float64).ravel().tolist()
    texts = iter(_embedlab.format_elements(shown, shown))
    cells = {(i, j): next(texts) for i in rows for j in cols}
    head = "".join(f"<th>{'…' if j is None else j}</th>" for j in _with_gaps(cols))
    body = "".join(
        "<tr><th>⋮</th></tr>"
        if i is None
        else f"<tr><th>{int(ids[i])}</th>"
        + "".join(f"<td>{'…' if j is None else cells[i, j]}</td>" for j in _with_gaps(cols))
        + "</tr>"
        for i in _with_gaps(rows)
    )
    return (
        '<table class="embedlab-static"><caption>'
        + html.escape(caption)
        + f"</caption><thead><tr><th>id</th>{head}</tr></thead><tbody>{body}</tbody></table>"
        + f'<p class="embedlab-static-verdict">{html.escape(verdict)}</p>'
    )
