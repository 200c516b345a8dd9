"""GGUF files put together from the format's description (ggml's docs/gguf.md) with struct and
NumPy, for the tests of the reader (tests/core), the CLI (tests/cli) and the page (tests/e2e).

The format, little-endian: b"GGUF", the version (uint32), the tensor count and the metadata count
(uint64); each metadata entry a key (uint64 length + UTF-8), a value type (uint32) and the value
(an array: element type uint32, count uint64, elements); each tensor info its name, its number of
dimensions (uint32), ne[0..] (uint64, ne[0] a row's length), its ggml type (uint32) and its data
offset from the data section (uint64); then zeros up to the alignment (general.alignment, 32 by
default) and the data section, each tensor's bytes at an aligned offset.

random_blocks() makes the stored bytes of each type with random quants and valid (finite) float16
scales; gguf_dequantize.py says what they mean.
"""
import struct

import numpy as np

# ggml's type ids, and each type's (values per block, bytes per block).
GGML_TYPES = {
    "F32": 0,
    "F16": 1,
    "Q4_0": 2,
    "Q4_1": 3,
    "Q5_0": 6,
    "Q8_0": 8,
    "Q2_K": 10,
    "Q4_K": 12,
    "Q5_K": 13,
    "Q6_K": 14,
    "IQ4_XS": 23,
    "BF16": 30,
}
BLOCKS = {
    "F32": (1, 4),
    "F16": (1, 2),
    "BF16": (1, 2),
    "Q8_0": (32, 34),
    "Q4_0": (32, 18),
    "Q4_K": (256, 144),
    "Q6_K": (256, 210),
    "Q5_K": (256, 176),
    "Q2_K": (256, 84),
    "Q4_1": (32, 20),
    "Q5_0": (32, 22),
    "IQ4_XS": (256, 136),
}
TABLE_TYPES = ("F32", "F16", "BF16", "Q8_0", "Q4_0", "Q4_K", "Q6_K")

# Metadata value types: struct format of the scalars.
VALUE_TYPES = {
    "UINT8": (0, "<B"),
    "INT8": (1, "<b"),
    "UINT16": (2, "<H"),
    "INT16": (3, "<h"),
    "UINT32": (4, "<I"),
    "INT32": (5, "<i"),
    "FLOAT32": (6, "<f"),
    "BOOL": (7, "<?"),
    "STRING": (8, None),
    "ARRAY": (9, None),
    "UINT64": (10, "<Q"),
    "INT64": (11, "<q"),
    "FLOAT64": (12, "<d"),
}


def string(s):
    raw = s.encode() if isinstance(s, str) else s
    return struct.pack("<Q", len(raw)) + raw


def value(type_name, v):
    code, fmt = VALUE_TYPES[type_name]
    if type_name == "STRING":
        return string(v)
    if type_name == "ARRAY":
        element_type, items = v
        return struct.pack("<IQ", VALUE_TYPES[element_type][0], len(items)) + b"".join(
            value(element_type, x) for x in items
        )
    return struct.pack(fmt, v)


def gguf_bytes(tensors, metadata=(), version=3, alignment=32):
    """tensors: [(name, type name, ne, raw bytes)]; metadata: [(key, value type, value)], an
    ARRAY's value (element type, [items]). general.alignment, when not 32, is put first."""
    meta = list(metadata)
    if alignment != 32:
        meta.insert(0, ("general.alignment", "UINT32", alignment))
    out = b"GGUF" + struct.pack("<IQQ", version, len(tensors), len(meta))
    for key, type_name, v in meta:
        out += string(key) + struct.pack("<I", VALUE_TYPES[type_name][0]) + value(type_name, v)
    data, offsets = b"", []
    for _, _, _, raw in tensors:
        data += b"\0" * (-len(data) % alignment)
        offsets.append(len(data))
        data += raw
    for (name, type_name, ne, _), offset in zip(tensors, offsets):
        code = GGML_TYPES[type_name] if isinstance(type_name, str) else type_name
        out += string(name) + struct.pack("<I", len(ne)) + struct.pack(f"<{len(ne)}Q", *ne)
        out += struct.pack("<IQ", code, offset)
    out += b"\0" * (-len(out) % alignment)
    return out + data


def random_halves(rng, n, low=-3.0, high=3.0):
    """n finite float16 values, as uint16 bit patterns."""
    return rng.uniform(low, high, n).astype(np.float16).view(np.uint16)


def random_blocks(type_name, rows, cols, rng):
    """The stored bytes of a (rows, cols) table of `type_name`: random values (plain floats) or
    random quants with random finite float16 scales."""
    per_block, size = BLOCKS[type_name]
    n = rows * cols // per_block
    if type_name == "F32":
        return rng.standard_normal(n).astype("<f4").tobytes()
    if type_name == "F16":
        return random_halves(rng, n).astype("<u2").tobytes()
    if type_name == "BF16":
        return (
            (rng.standard_normal(n).astype(np.float32).view(np.uint32) >> 16)
            .astype("<u2")
            .tobytes()
        )
    blocks = rng.integers(0, 256, (n, size), dtype=np.uint8)
    scales = random_halves(rng, 2 * n, 1e-4, 0.05).reshape(n, 2).astype("<u2").view(np.uint8)
    if type_name in ("Q8_0", "Q4_0"):
        blocks[:, 0:2] = scales[:, 0:2]  # d first
    elif type_name == "Q4_K":
        blocks[:, 0:4] = scales  # d, dmin first
    elif type_name == "Q6_K":
        blocks[:, 208:210] = scales[:, 0:2]  # d last
    return blocks.tobytes()
