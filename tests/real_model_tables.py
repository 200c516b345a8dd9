"""The embedding tables of real checkpoints as sparse .safetensors files: the header gives each
table's exact name, shape and dtype; rows are written at the ids of "Hello world" in GPT-2's
tokenizer and at the rows PyTorch's printing shows, and the rest of the file is a hole, which
reads as zeros and takes no disk space. Used by the CLI's test (tests/cli) and by the measurement
behind docs/real-models.md (native/bench/real_models.py).
"""
import json
import os

import numpy as np

from safetensors_file import with_header

# (model, tensor, V, d, dtype), as the checkpoints on the Hugging Face Hub hold them.
SHAPES = [
    ("GPT-2", "wte.weight", 50257, 768, "F32"),
    ("Qwen3-0.6B", "model.embed_tokens.weight", 151936, 1024, "BF16"),
    ("Llama-3.2-1B", "model.embed_tokens.weight", 128256, 2048, "BF16"),
    ("Gemma-3-1B", "model.embed_tokens.weight", 262144, 1152, "BF16"),
    ("Llama-3-8B", "model.embed_tokens.weight", 128256, 4096, "BF16"),
    ("DeepSeek-V3", "model.embed_tokens.weight", 129280, 7168, "BF16"),
    ("Llama-3.1-405B", "model.embed_tokens.weight", 128256, 16384, "BF16"),
]

# "Hello world" in GPT-2's tokenizer.
HELLO_WORLD = [15496, 995]

VALUE_BYTES = {"F32": 4, "BF16": 2}


def printed_rows(vocab):
    """The rows PyTorch's printing of a (V, d) table shows: the first and last three."""
    return [0, 1, 2, vocab - 3, vocab - 2, vocab - 1]


def known_rows(vocab, dim, dtype, seed=0):
    """{row: stored values} for the ids of "Hello world" and the printed rows: float32 values, or
    BF16 bit patterns (the top halves of float32 values) as uint16."""
    rng = np.random.default_rng(seed)
    rows = {}
    for row in HELLO_WORLD + printed_rows(vocab):
        values = rng.standard_normal(dim).astype(np.float32)
        rows[row] = values if dtype == "F32" else (values.view(np.uint32) >> 16).astype(np.uint16)
    return rows


def write_table(path, tensor, vocab, dim, dtype, rows, extra=()):
    """A sparse .safetensors file holding the table (and `extra` small tensors after it, as
    (name, dtype, array)), with `rows` written at their places. Returns the file's size."""
    header, data_size = {}, vocab * dim * VALUE_BYTES[dtype]
    header[tensor] = {"dtype": dtype, "shape": [vocab, dim], "data_offsets": [0, data_size]}
    tail = b""
    for name, extra_dtype, array in extra:
        raw = np.ascontiguousarray(array).tobytes()
        header[name] = {
            "dtype": extra_dtype,
            "shape": list(array.shape),
            "data_offsets": [data_size + len(tail), data_size + len(tail) + len(raw)],
        }
        tail += raw
    head = with_header(json.dumps(header).encode())
    with open(path, "wb") as f:
        f.write(head)
        f.truncate(len(head) + data_size)
        for row, values in rows.items():
            f.seek(len(head) + row * dim * VALUE_BYTES[dtype])
            f.write(values.astype("<f4" if dtype == "F32" else "<u2").tobytes())
        f.seek(len(head) + data_size)
        f.write(tail)
    return os.path.getsize(path)


# GGUF files of quantized models: (model, V, d, ggml type). Gemma 3 1B's rows of 1152 are not a
# whole number of Q6_K's 256-value blocks, so llama.cpp's quantizer stores its table as Q8_0.
GGUF_SHAPES = [("Llama-3-8B", 128256, 4096, "Q4_K"), ("Gemma-3-1B", 262144, 1152, "Q8_0")]


def write_gguf_table(path, vocab, dim, type_name, rng):
    """A sparse GGUF file with token_embd.weight (V, d) of type_name: random blocks with valid
    scales (tests/gguf_file.py) at the ids of "Hello world" and the printed rows, a hole
    elsewhere. Returns {row: float32 values} as tests/gguf_dequantize.py computes them."""
    from gguf_dequantize import dequantize
    from gguf_file import BLOCKS, gguf_bytes, random_blocks

    per_block, block_bytes = BLOCKS[type_name]
    row_bytes = dim // per_block * block_bytes
    head = gguf_bytes(
        [("token_embd.weight", type_name, [dim, vocab], b"")],
        [("general.architecture", "STRING", "llama")],
    )
    rows = {}
    with open(path, "wb") as f:
        f.write(head)
        f.truncate(len(head) + vocab * row_bytes)
        for row in HELLO_WORLD + printed_rows(vocab):
            raw = random_blocks(type_name, 1, dim, rng)
            rows[row] = dequantize(type_name, raw, 1, dim)[0]
            f.seek(len(head) + row * row_bytes)
            f.write(raw)
    return rows
