"""Writes .safetensors files (and a float16 .npy) for the [torch] tests in test_safetensors.cpp,
with what PyTorch makes of each table.

The files are put together from the format's description with json + struct + NumPy (an 8-byte
little-endian header length, the JSON header padded with spaces to a multiple of 8 bytes as the
safetensors library pads it, then the data); F16 and BF16 values are written as uint16 bit
patterns. For every 2-D float tensor NAME in FILE.safetensors, FILE/NAME.f32 holds the float32
values PyTorch 1.13 gives it (torch.float16/bfloat16/float64 -> .float()), little-endian, and
FILE.tensors lists the tensors as the header should read: "name dtype dim dim ..." per line, in
the order of their bytes.
Usage: safetensors_reference.py OUTPUT_DIR
"""
import json
import os
import struct
import sys

try:
    import numpy as np
    import torch
except ImportError as error:
    print(f"FAIL: {sys.executable} cannot import torch/numpy ({error}). "
          "The reference is Debian's PyTorch 1.13.1: apt-get install -y python3-torch")
    sys.exit(1)

# dtype -> (how its bytes are written, how torch reads them back)
STORED = {
    "F32": (np.dtype("<f4"), None),
    "F64": (np.dtype("<f8"), None),
    "F16": (np.dtype("<u2"), torch.float16),
    "BF16": (np.dtype("<u2"), torch.bfloat16),
    "I64": (np.dtype("<i8"), None),
    "U8": (np.dtype("u1"), None),
}


def as_float32_by_torch(dtype, array):
    """What PyTorch makes of the stored values as float32."""
    bits_as = STORED[dtype][1]
    if bits_as is not None:  # uint16 bit patterns, reinterpreted as torch's half types
        t = torch.from_numpy(array.astype(np.uint16).view(np.int16)).view(bits_as)
    else:
        t = torch.from_numpy(array)
    return t.float().numpy().astype("<f4")


def write_safetensors(out, file, tensors, metadata=None):
    """tensors: [(name, dtype, array)] written in this order; the header lists them sorted by name
    (as json.dumps(sort_keys=True) does), so the reader must order them by their bytes."""
    header, data = {}, b""
    for name, dtype, array in tensors:
        raw = np.ascontiguousarray(array, dtype=STORED[dtype][0]).tobytes()
        header[name] = {"dtype": dtype, "shape": list(array.shape),
                        "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    if metadata is not None:
        header["__metadata__"] = metadata
    text = json.dumps(header, sort_keys=True).encode()
    text += b" " * (-len(text) % 8)
    with open(os.path.join(out, file + ".safetensors"), "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + data)

    os.makedirs(os.path.join(out, file), exist_ok=True)
    with open(os.path.join(out, file + ".tensors"), "w") as f:
        for name, dtype, array in tensors:
            f.write(" ".join([name, dtype, *map(str, array.shape)]) + "\n")
            if array.ndim == 2 and dtype in ("F32", "F64", "F16", "BF16"):
                with open(os.path.join(out, file, name + ".f32"), "wb") as values:
                    values.write(as_float32_by_torch(dtype, array).tobytes())


def every_half_pattern():
    """All 65536 uint16 bit patterns as a (256, 256) table: every f16 (or bf16) value, subnormals,
    +-0, +-Inf and every NaN included."""
    return np.arange(65536, dtype=np.uint32).astype(np.uint16).reshape(256, 256)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(12)
    # Bit patterns of ordinary values, plus +-0, +-Inf, NaNs and subnormals in the first row.
    bf16 = (rng.standard_normal((5, 3)).astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
    bf16[0] = [0x8000, 0x7F80, 0x0001]
    f16 = rng.standard_normal((3, 4)).astype(np.float16).view(np.uint16)
    f16[0] = [0x7C01, 0xFC00, 0x03FF, 0x8001]
    write_safetensors(out, "dtypes", [
        ("model.embed_tokens.weight", "BF16", bf16),
        ("model.norm.weight", "F32", rng.standard_normal(3).astype(np.float32)),
        ("position_ids", "I64", np.arange(7, dtype=np.int64).reshape(1, 7)),
        ("lm_head.f16", "F16", f16),
        ("mask", "U8", np.ones((2, 2), dtype=np.uint8)),
        ("proj.f32", "F32", rng.standard_normal((4, 3)).astype(np.float32)),
        # float64 values that need rounding to float32, and a float32 subnormal
        ("proj.f64", "F64", np.append(rng.standard_normal(9) * 1e3, 1e-40).reshape(2, 5)),
    ], metadata={"format": "pt", "source": "safetensors_reference.py"})
    write_safetensors(out, "halves", [("f16.weight", "F16", every_half_pattern()),
                                      ("bf16.weight", "BF16", every_half_pattern())])
    # The same f16 patterns as NumPy saves them, and what torch makes of them.
    np.save(os.path.join(out, "every_f16.npy"), every_half_pattern().view("<f2"))


if __name__ == "__main__":
    main()
