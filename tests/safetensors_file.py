""".safetensors files put together from the format's description with json + struct + NumPy,
for the tests of the reader (tests/core) and of the CLI (tests/cli).

The format: the JSON header's length as a little-endian uint64, the header (tensor name ->
{"dtype", "shape", "data_offsets": [begin, end]} relative to the data section, and an optional
"__metadata__" object of strings) padded with spaces to a multiple of 8 bytes as the safetensors
library pads it, then the data section. F16 and BF16 values are given as uint16 bit patterns.
"""
import json
import struct
import sys

# Both users compare with PyTorch: say clearly when the system Python lacks it.
try:
    import numpy as np
    import torch  # noqa: F401
except ImportError as error:
    print(
        f"FAIL: {sys.executable} cannot import torch/numpy ({error}). "
        "The reference is Debian's PyTorch 1.13.1: apt-get install -y python3-torch"
    )
    sys.exit(1)

# How each dtype's values are written: F16 and BF16 as their bit patterns.
STORED = {
    "F32": np.dtype("<f4"),
    "F64": np.dtype("<f8"),
    "F16": np.dtype("<u2"),
    "BF16": np.dtype("<u2"),
    "I64": np.dtype("<i8"),
    "I8": np.dtype("i1"),
    "U8": np.dtype("u1"),
}


def safetensors_bytes(tensors, metadata=None):
    """tensors: [(name, dtype, array)], their data in this order. The header lists them sorted by
    name (json.dumps(sort_keys=True)), so a reader must order them by their bytes itself."""
    header, data = {}, b""
    for name, dtype, array in tensors:
        raw = np.ascontiguousarray(array, dtype=STORED[dtype]).tobytes()
        header[name] = {
            "dtype": dtype,
            "shape": list(np.shape(array)),
            "data_offsets": [len(data), len(data) + len(raw)],
        }
        data += raw
    if metadata is not None:
        header["__metadata__"] = metadata
    return with_header(json.dumps(header, sort_keys=True).encode(), data)


def with_header(header_text, data=b""):
    """A file from a header's bytes, as given (valid JSON or not), and the data section."""
    header_text += b" " * (-len(header_text) % 8)
    return struct.pack("<Q", len(header_text)) + header_text + data


def every_half_pattern():
    """All 65536 uint16 bit patterns as a (256, 256) table: every F16 (or BF16) value,
    subnormals, +-0, +-Inf and every NaN included."""
    return np.arange(65536, dtype=np.uint32).astype(np.uint16).reshape(256, 256)
