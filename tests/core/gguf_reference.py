"""Writes GGUF files for the [.gguf] tests in test_gguf.cpp, with the float32 values their tables
hold as gguf_dequantize.py computes them from ggml's reference semantics.

For each table type T: T.gguf, whose token_embd.weight is a (rows, cols) table of T with random
blocks (tests/gguf_file.py), and T.f32, its float32 values, row-major, little-endian. tables.txt
lists "T rows cols" per line. The files vary what else a reader must get right: version 2 or 3,
general.alignment, metadata of every value type, tokenizer.ggml.tokens, and output.weight present
(a head of its own) or not (tied).
Usage: gguf_reference.py OUTPUT_DIR
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from gguf_dequantize import dequantize  # noqa: E402
from gguf_file import BLOCKS, TABLE_TYPES, gguf_bytes, random_blocks  # noqa: E402

import numpy as np  # noqa: E402

# Every metadata value type, arrays included.
METADATA = [
    ("general.architecture", "STRING", "llama"),
    ("general.name", "STRING", "tiny \u00e9mbedding"),
    ("u8", "UINT8", 200),
    ("i8", "INT8", -100),
    ("u16", "UINT16", 60000),
    ("i16", "INT16", -30000),
    ("u32", "UINT32", 4000000000),
    ("i32", "INT32", -2000000000),
    ("f32", "FLOAT32", 0.5),
    ("flag", "BOOL", True),
    ("u64", "UINT64", 2**63 + 5),
    ("i64", "INT64", -(2**62)),
    ("f64", "FLOAT64", -1.25),
    ("tokenizer.ggml.scores", "ARRAY", ("FLOAT32", [0.0, -1.5, -2.0, -3.0, -4.0])),
    ("tokenizer.ggml.token_type", "ARRAY", ("INT32", [1, 1, 3, 1, 1])),
    ("empty", "ARRAY", ("UINT8", [])),
]


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(32)
    listing = []
    for k, type_name in enumerate(TABLE_TYPES):
        per_block = BLOCKS[type_name][0]
        rows, cols = 7, (2 * per_block if per_block > 1 else 5)
        raw = random_blocks(type_name, rows, cols, rng)
        tokens = [f"tok{i}" for i in range(rows - 1)] + ["\u2581caf\u00e9"]
        tensors = [
            ("token_embd.weight", type_name, [cols, rows], raw),
            ("output_norm.weight", "F32", [cols], np.ones(cols, "<f4").tobytes()),
        ]
        if k % 2 == 0:  # a head of its own; the others tie it
            tensors.append(("output.weight", "F16", [cols, rows], bytes(2 * rows * cols)))
        metadata = METADATA + [("tokenizer.ggml.tokens", "ARRAY", ("STRING", tokens))]
        data = gguf_bytes(
            tensors, metadata, version=2 if k % 3 == 0 else 3, alignment=64 if k % 2 else 32
        )
        with open(os.path.join(out, type_name + ".gguf"), "wb") as f:
            f.write(data)
        with open(os.path.join(out, type_name + ".f32"), "wb") as f:
            f.write(dequantize(type_name, raw, rows, cols).astype("<f4").tobytes())
        listing.append(f"{type_name} {rows} {cols}")
    with open(os.path.join(out, "tables.txt"), "w") as f:
        f.write("\n".join(listing) + "\n")


if __name__ == "__main__":
    main()
