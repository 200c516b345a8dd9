"""embedlab for Jupyter: show(weights, ids) renders <embedding-demo> in a notebook's output with
the notebook's own table, bit for bit: an embedding lookup beside the one-hot matmul, and the
verdict. The output is self-contained (the element and its WebAssembly inline) and works offline,
in exported HTML too; where scripts do not run it shows a static table of the rows and the verdict.

    import embedlab
    embedlab.show(embedding, torch.tensor([2, 3, 1]))
"""

from typing import Optional

import numpy as np

from . import output
from .inputs import (
    ITEM_BYTES,
    EmbedlabInputError,
    ids_of,
    padding_idx_of,
    raw_bytes,
    table_of,
    torch,
)
from .limits import EDGE_ROWS, HEATMAP_COLS, HEATMAP_ROWS, MAX_OUTPUT_BYTES, WHOLE_VALUES
from .routes import drawn_rows, heatmap, kernel_routes
from .safetensors import safetensors_bytes

__version__ = "0.1.0"
__all__ = ["show", "Shown", "EmbedlabInputError", "__version__"]

# The element's views that draw both routes from what an output carries (view="…").
VIEWS = (
    "compare",
    "equation",
    "routes",
    "lookup",
    "onehot",
    "matrices",
    "step",
    "printout",
    "backward",
    "bag",
)
WHOLE = "whole table"  # the element got W and computed both routes in its WebAssembly core
KERNEL = "routes from the kernel"  # W was too large: both routes ran here, the element graded them


class Shown:
    """What show() returns; Jupyter displays it (_repr_mimebundle_: text/html and text/plain).
    `path` says which of the two deliveries happened (WHOLE or KERNEL), `html` is the output."""

    def __init__(self, html: str, text: str, path: str, bit_identical: bool):
        self.html = html
        self.text = text
        self.path = path
        self.bit_identical = bit_identical

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"text/html": self.html, "text/plain": self.text}

    def __repr__(self) -> str:
        return self.text


def _attribute(name: str, value) -> str:
    return f' {name}="{output.html.escape(str(value), quote=True)}"'


def _check_routes_fit(table, n: int) -> None:
    """Before the kernel computes anything: the routes of n ids (and the rows drawn), in base64
    beside the element's bundle, must fit one output; a table sent whole is smaller."""
    vocab, dim = table.shape
    if vocab * dim <= WHOLE_VALUES:
        return
    data = (3 * n + 2 * EDGE_ROWS) * dim * ITEM_BYTES[table.dtype] + HEATMAP_ROWS * HEATMAP_COLS * 4
    size = len(output.element_script()) + 4 * data // 3
    if size > MAX_OUTPUT_BYTES:
        raise EmbedlabInputError(
            "ids",
            f"the output would take about {size:,} bytes, over the {MAX_OUTPUT_BYTES:,} a notebook "
            f"output may take: {n} ids of d = {dim} make each route {n * dim:,} values; show fewer ids",
        )


def _ids_of_text(ids, text, tokenizer):
    """The ids show() shows: `ids` as given, or those the notebook's own tokenizer gives `text`
    (anything with encode(text), as tiktoken's encodings and Hugging Face's tokenizers have; the
    output carries no tokenizer of its own)."""
    if text is None:
        if ids is None:
            raise EmbedlabInputError("ids", "give the token ids, or text= with tokenizer=")
        return ids
    if ids is not None:
        raise EmbedlabInputError("text", "give ids or text=, not both")
    if isinstance(tokenizer, (str, bytes)) or not callable(getattr(tokenizer, "encode", None)):
        raise EmbedlabInputError(
            "tokenizer",
            "text= needs tokenizer=, the notebook's tokenizer: an object with encode(text), such "
            'as tiktoken.get_encoding("gpt2") or a Hugging Face tokenizer',
        )
    return list(tokenizer.encode(text))


def _token_bytes(tokenizer, ids) -> Optional[str]:
    """The tokens attribute: each id's bytes in base64, separated by spaces, for the element's
    chips: tiktoken's decode_single_token_bytes, else the text decode([id]) gives (a Hugging Face
    tokenizer's); None for a tokenizer with neither."""
    single = getattr(tokenizer, "decode_single_token_bytes", None)
    decode = getattr(tokenizer, "decode", None)
    if callable(single):
        parts = [bytes(single(int(i))) for i in ids]
    elif callable(decode):
        parts = [decode([int(i)]).encode("utf-8") for i in ids]
    else:
        return None
    return " ".join(output.base64_text(part) for part in parts)


def show(
    weights,
    ids=None,
    *,
    text: Optional[str] = None,
    tokenizer=None,
    view: str = "equation",
    padding_idx: Optional[int] = None,
    label: Optional[str] = None,
) -> Shown:
    """W (an nn.Embedding, an nn.Linear whose weight.T is W, a (V, d) torch tensor in float32,
    bfloat16, float16 or float64, a numpy array or nested lists) and ids (1-D, or a (B, T) batch
    shown as B x T tokens), or a text and the tokenizer that makes its ids, in
    <embedding-demo view=…>. Bad input raises EmbedlabInputError (a ValueError) in the element's
    words before anything is rendered."""
    if view not in VIEWS:
        raise EmbedlabInputError("view", f'view="{view}" is not one of: {", ".join(VIEWS)}')
    ids = _ids_of_text(ids, text, tokenizer)
    if text is not None and label is None:
        label = f"Lookup and one-hot product of the tokens of {text!r}"
    if padding_idx is None and torch is not None and isinstance(weights, torch.nn.Embedding):
        padding_idx = weights.padding_idx
    table = table_of(weights)
    vocab, dim = table.shape
    ids_array = ids_of(ids, vocab)
    padding = padding_idx_of(padding_idx, vocab)
    flat = ids_array.reshape(-1)
    _check_routes_fit(table, len(flat))
    lookup, product = kernel_routes(table, flat)
    same = output.bit_identical(lookup, product)
    kernel = (
        f"PyTorch {torch.__version__}" if table.kernel == "torch" else f"numpy {np.__version__}"
    )
    batch = ids_array.ndim == 2
    tokens = f"{ids_array.shape[0]} × {ids_array.shape[1]} tokens" if batch else f"{len(flat)} ids"
    title = label or (f"Lookup and one-hot product of {tokens}" if batch else None)
    attributes = _attribute("ids", ", ".join(str(int(i)) for i in flat)) + _attribute("view", view)
    if title:
        attributes += _attribute("label", title)
    token_bytes = None if text is None else _token_bytes(tokenizer, flat)
    if token_bytes is not None:  # the chips of the text's tokens
        attributes += _attribute("tokens", token_bytes)
    if padding is not None:  # where the backward and bag views' padding_idx starts
        attributes += _attribute("padding_idx", str(padding))
    verdict = f"{kernel}: embedding(idx) and one_hot(idx, V) @ W are " + (
        "bit-identical" if same else "NOT bit-identical"
    )
    caption = f"embedding(idx) of {table.name}: V = {vocab}, d = {dim}, {table.dtype}, {tokens}"
    fallback = output.static_table(flat, output.as_float64(lookup), verdict, caption)

    def render(data_attribute: str, path_sentence: str) -> str:
        return (
            f'<div class="embedlab-output"><embedding-demo{attributes}{data_attribute}>'
            f"{fallback}</embedding-demo>"
            f'<p class="embedlab-path">{output.html.escape(path_sentence)}</p>'
            f'<script type="module">{output.element_script()}</script></div>'
        )

    values = f"{vocab * dim:,} values"
    sentences = {
        WHOLE: f"W ({values}, {table.dtype}) goes whole to the element, which computes both "
        "routes in its WebAssembly core.",
        KERNEL: f"W ({values}, {table.dtype}) stays in the kernel, too large to send: both routes "
        f"ran in {kernel}; the element gets their results, the rows it draws and a heatmap of W, "
        "and grades them.",
    }
    html_text = None
    if vocab * dim <= WHOLE_VALUES:
        whole = safetensors_bytes(
            [(table.name, table.dtype, (vocab, dim), raw_bytes(table.values))]
        )
        html_text = render(_attribute("table", output.base64_text(whole)), sentences[WHOLE])
        path = WHOLE
    if html_text is None or len(html_text.encode()) > MAX_OUTPUT_BYTES:
        rows = drawn_rows(vocab, flat)
        pixels = heatmap(table)
        routes = safetensors_bytes(
            [
                ("lookup", table.dtype, (len(flat), dim), raw_bytes(lookup)),
                ("product", table.dtype, (len(flat), dim), raw_bytes(product)),
                ("rows", table.dtype, (len(rows), dim), raw_bytes(table.rows(rows))),
                ("heatmap", "F32", pixels.shape, raw_bytes(pixels)),
            ],
            {"vocab": str(vocab), "kept": ",".join(str(int(r)) for r in rows), "table": table.name},
        )
        html_text = render(_attribute("routes", output.base64_text(routes)), sentences[KERNEL])
        path = KERNEL
    summary = "\n".join(
        [
            f"embedlab.show: {table.name}, V = {vocab}, d = {dim}, {table.dtype}, {tokens}"
            + (f", padding_idx = {padding}" if padding is not None else ""),
            sentences[path],
            "embedding(idx):",
            output.text_rows(flat, output.as_float64(lookup)),
            verdict,
        ]
    )
    return Shown(html_text, summary, path, same)
