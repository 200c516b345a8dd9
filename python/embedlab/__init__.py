"""embedlab for Python: the embedlab core (C++17, compiled into _embedlab), for notebooks.

show(weights, ids) renders <embedding-demo> in a notebook's output with the notebook's own table,
bit for bit: an embedding lookup beside the one-hot matmul, and the core's verdict. The output is
self-contained (the element and its WebAssembly inline) and works offline, in exported HTML too;
where scripts do not run it shows a static table of the rows and the verdict.

open(path) reads a model's table from a .npy, .safetensors or GGUF file as the CLI does; Table
computes the lookup and the one-hot product on it into numpy arrays; grade() and format_tensor()
are the core's verdict and PyTorch's printing. Bad input raises EmbedlabInputError (a ValueError)
in the core's words, its `argument` naming the input.

    import embedlab
    embedlab.show(embedding, torch.tensor([2, 3, 1]))
"""

from typing import Optional

import _embedlab

from . import output
from .inputs import (
    EmbedlabInputError,
    checked_ids,
    core_table,
    dtype_name,
    input_error,
    is_tensor,
    padding_row,
    raw_bytes,
    torch,
)
from .routes import Routes, kernel_routes
from .safetensors import safetensors_bytes
from .tables import Table, format_tensor, grade, open

__version__ = "0.1.0"
__all__ = [
    "show",
    "Shown",
    "open",
    "Table",
    "Routes",
    "grade",
    "format_tensor",
    "limits",
    "EmbedlabInputError",
    "VIEWS",
    "__version__",
]

# The core's limits: max_ids, max_vocab, max_dim, max_elements.
limits = dict(_embedlab.limits)

# The element's views that draw both routes from what an output carries (view="…"); the element's
# other views, and why an output cannot show them. Together they are the element's views
# (tests/notebook/views.test.mjs holds them to web/views/registry.mjs).
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
PAGE_VIEWS = {
    "train": "it trains a table of its own",
    "positions": "it needs a table of positions beside W",
    "head": "it needs the positions and the output layer of a model",
    "benchmark": "it times the page's own tables",
}
WHOLE = "whole table"  # the element got W and computed both routes in its WebAssembly core
KERNEL = "routes from the kernel"  # W was too large: both routes ran here, the element graded them


class Shown:
    """What show() returns; Jupyter displays it (_repr_mimebundle_: text/html and text/plain).
    `path` says which of the two deliveries happened (WHOLE or KERNEL), `verdict` is the core's
    grade of the two routes (.grade, .headline, .sentence, .text), `html` is the output."""

    def __init__(self, html: str, text: str, path: str, verdict):
        self.html = html
        self.text = text
        self.path = path
        self.verdict = verdict

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"text/html": self.html, "text/plain": self.text}

    def __repr__(self) -> str:
        return self.text


def _attribute(name: str, value) -> str:
    return f' {name}="{output.html.escape(str(value), quote=True)}"'


def _item_bytes(values) -> int:
    return values.element_size() if is_tensor(values) else 4


def _check_routes_fit(weights, n: int) -> None:
    """Before the kernel computes anything: the routes of n ids, the rows drawn and the heatmap,
    in base64 beside the element's bundle, must fit one output."""
    views = _embedlab.views
    dim = weights.shape[1]
    data = (3 * n + 2 * views["edge_rows"]) * dim * _item_bytes(weights.values)
    data += views["heatmap_rows"] * views["heatmap_cols"] * 4
    size = len(output.element_script()) + 4 * data // 3
    if size > output.MAX_OUTPUT_BYTES:
        count = _embedlab.count_text
        raise input_error(
            "ids",
            f"the output would take about {count(size)} bytes, over the "
            f"{count(output.MAX_OUTPUT_BYTES)} a notebook output may take: {n} ids of d = {dim} "
            f"make each route {count(n * dim)} values; show fewer ids",
        )


def _ids_of_text(ids, text, tokenizer):
    """The ids show() shows: `ids` as given, or those the notebook's own tokenizer gives `text`
    (anything with encode(text), as tiktoken's encodings and Hugging Face's tokenizers have; the
    output carries no tokenizer of its own)."""
    if text is None:
        if ids is None:
            raise input_error("ids", "give the token ids, or text= with tokenizer=")
        return ids
    if ids is not None:
        raise input_error("text", "give ids or text=, not both")
    if isinstance(tokenizer, (str, bytes)) or not callable(getattr(tokenizer, "encode", None)):
        raise input_error(
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


def _check_view(view: str) -> None:
    if view in VIEWS:
        return
    if view in PAGE_VIEWS:
        raise input_error(
            "view", f'view="{view}" is a view of the page an output cannot show: {PAGE_VIEWS[view]}'
        )
    raise input_error("view", f'view="{view}" is not one of: {", ".join(VIEWS)}')


def _tensor(name: str, values):
    """(name, dtype, shape, raw bytes) of a result or rows, for the routes attribute."""
    return name, dtype_name(values), tuple(values.shape), raw_bytes(values).tobytes()


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
    <embedding-demo view=…>. Bad input raises EmbedlabInputError (a ValueError) in the core's
    words before anything is rendered."""
    _check_view(view)
    ids = _ids_of_text(ids, text, tokenizer)
    if text is not None and label is None:
        label = f"Lookup and one-hot product of the tokens of {text!r}"
    if padding_idx is None and torch is not None and isinstance(weights, torch.nn.Embedding):
        padding_idx = weights.padding_idx
    w = Table(weights)
    vocab, dim = w.shape
    ids_array = checked_ids(ids, vocab, dim)
    padding = padding_row(padding_idx, vocab)
    flat = ids_array.reshape(-1)
    whole = _embedlab.views_hold_whole(vocab, dim)
    if not whole:
        _check_routes_fit(w, len(flat))
    routes, kernel = kernel_routes(w, flat)
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
    verdict = f"embedding(idx) vs one_hot(idx, V) @ W, in {kernel}: {routes.verdict.text}"
    lookup32, product32 = core_table(routes.lookup, "lookup"), core_table(routes.product, "product")
    same = "True" if _embedlab.torch_equal(lookup32, product32) else "False"
    rows32 = lookup32.to_array()  # as the core reads them: float32
    caption = f"embedding(idx) of {w.name}: V = {vocab}, d = {dim}, {w.dtype}, {tokens}"
    fallback = output.static_table(flat, rows32, vocab, verdict, caption)

    def render(data_attribute: str, path_sentence: str) -> str:
        return (
            f'<div class="embedlab-output"><embedding-demo{attributes}{data_attribute}>'
            f"{fallback}</embedding-demo>"
            f'<p class="embedlab-path">{output.html.escape(path_sentence)}</p>'
            f'<script type="module">{output.element_script()}</script></div>'
        )

    values = f"{_embedlab.count_text(vocab * dim)} values"
    sentences = {
        WHOLE: f"W ({values}, {w.dtype}) goes whole to the element, which computes both routes "
        "in its WebAssembly core.",
        KERNEL: f"W ({values}, {w.dtype}) stays in the kernel, too large to send: both routes "
        f"ran in {kernel}; the element gets their results, the rows it draws and a heatmap "
        "of W, and grades them.",
    }
    html_text = None
    if whole:
        whole_file = safetensors_bytes([_tensor(w.name, w.values)])
        html_text = render(_attribute("table", output.base64_text(whole_file)), sentences[WHOLE])
        path = WHOLE
    if html_text is None or len(html_text.encode()) > output.MAX_OUTPUT_BYTES:
        drawn = _embedlab.drawn_rows(vocab, flat)
        drawn_values = w.values[torch.from_numpy(drawn)] if is_tensor(w.values) else w.lookup(drawn)
        routes_file = safetensors_bytes(
            [
                _tensor("lookup", routes.lookup),
                _tensor("product", routes.product),
                _tensor("rows", drawn_values),
                _tensor("heatmap", w.heatmap()),
            ],
            {"vocab": str(vocab), "kept": ",".join(str(int(r)) for r in drawn), "table": w.name},
        )
        html_text = render(_attribute("routes", output.base64_text(routes_file)), sentences[KERNEL])
        path = KERNEL
    float_rows = "embedding(idx)" if w.dtype == "F32" else "embedding(idx).float()"
    summary = "\n".join(
        [
            f"embedlab.show: {w.name}, V = {vocab}, d = {dim}, {w.dtype}, {tokens}"
            + (f", padding_idx = {padding}" if padding is not None else ""),
            sentences[path],
            f"{float_rows}:",
            _embedlab.format_tensor(rows32),
            verdict,
            f"torch.equal(embedding(idx), one_hot(idx, V) @ W): {same}",
            _embedlab.forward_cost_note(len(flat), vocab, dim),
        ]
    )
    return Shown(html_text, summary, path, routes.verdict)
