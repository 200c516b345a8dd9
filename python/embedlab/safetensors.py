"""A .safetensors file's bytes (https://huggingface.co/docs/safetensors): an 8-byte little-endian
header length, a JSON header naming each tensor's dtype, shape and byte range, then the tensors'
raw little-endian bytes. The form in which an output hands tables to the element, whose core reads
F32, F64, F16 and BF16 tables bit for bit (wasm/README.md)."""

import json
import struct
from typing import Dict, Iterable, Tuple

# name, safetensors dtype, shape, raw bytes
Tensor = Tuple[str, str, Tuple[int, ...], bytes]


def safetensors_bytes(tensors: Iterable[Tensor], metadata: Dict[str, str] = None) -> bytes:
    header = {}
    data = []
    offset = 0
    for name, dtype, shape, raw in tensors:
        header[name] = {
            "dtype": dtype,
            "shape": list(shape),
            "data_offsets": [offset, offset + len(raw)],
        }
        data.append(raw)
        offset += len(raw)
    if metadata:
        header["__metadata__"] = metadata
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)  # the tensors start 8-byte aligned
    return struct.pack("<Q", len(text)) + text + b"".join(data)
