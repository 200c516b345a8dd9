"""Writes .safetensors files (and a float16 .npy) for the [torch] tests in test_safetensors.cpp,
with what PyTorch makes of each table.

The files come from tests/safetensors_file.py (json + struct + NumPy, F16 and BF16 as uint16 bit
patterns). For every 2-D float tensor NAME of FILE.safetensors, FILE/NAME.f32 holds the float32
values PyTorch 1.13 gives it (torch.float16/bfloat16/float64 -> .float()), little-endian, and
FILE.tensors lists the tensors as the header should read: "name dtype dim dim ..." per line, in
the order of their bytes.
Usage: safetensors_reference.py OUTPUT_DIR
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from safetensors_file import every_half_pattern, safetensors_bytes  # noqa: E402  (checks torch)

import numpy as np  # noqa: E402
import torch  # noqa: E402

TABLE_DTYPES = ("F32", "F64", "F16", "BF16")


def as_float32_by_torch(dtype, array):
    """What PyTorch makes of the stored values as float32."""
    if dtype in ("F16", "BF16"):  # uint16 bit patterns, reinterpreted as torch's half types
        half = torch.float16 if dtype == "F16" else torch.bfloat16
        t = torch.from_numpy(array.astype(np.uint16).view(np.int16)).view(half)
    else:
        t = torch.from_numpy(array)
    return t.float().numpy().astype("<f4")


def write(out, file, tensors, metadata=None):
    with open(os.path.join(out, file + ".safetensors"), "wb") as f:
        f.write(safetensors_bytes(tensors, metadata))
    os.makedirs(os.path.join(out, file), exist_ok=True)
    with open(os.path.join(out, file + ".tensors"), "w") as f:
        for name, dtype, array in tensors:
            f.write(" ".join([name, dtype, *map(str, array.shape)]) + "\n")
            if array.ndim == 2 and dtype in TABLE_DTYPES:
                with open(os.path.join(out, file, name + ".f32"), "wb") as values:
                    values.write(as_float32_by_torch(dtype, array).tobytes())


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(12)
    # Bit patterns of ordinary values, plus +-0, +-Inf, NaNs and subnormals in the first row.
    bf16 = (rng.standard_normal((5, 3)).astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
    bf16[0] = [0x8000, 0x7F80, 0x0001]
    f16 = rng.standard_normal((3, 4)).astype(np.float16).view(np.uint16)
    f16[0] = [0x7C01, 0xFC00, 0x03FF, 0x8001]
    write(
        out,
        "dtypes",
        [
            ("model.embed_tokens.weight", "BF16", bf16),
            ("model.norm.weight", "F32", rng.standard_normal(3).astype(np.float32)),
            ("position_ids", "I64", np.arange(7, dtype=np.int64).reshape(1, 7)),
            ("lm_head.f16", "F16", f16),
            ("mask", "U8", np.ones((2, 2), dtype=np.uint8)),
            ("proj.f32", "F32", rng.standard_normal((4, 3)).astype(np.float32)),
            # float64 values that need rounding to float32, and a float32 subnormal
            ("proj.f64", "F64", np.append(rng.standard_normal(9) * 1e3, 1e-40).reshape(2, 5)),
        ],
        metadata={"format": "pt", "source": "safetensors_reference.py"},
    )
    write(
        out,
        "halves",
        [
            ("f16.weight", "F16", every_half_pattern()),
            ("bf16.weight", "BF16", every_half_pattern()),
        ],
    )
    # The same F16 patterns as NumPy saves them ('<f2').
    np.save(os.path.join(out, "every_f16.npy"), every_half_pattern().view("<f2"))


if __name__ == "__main__":
    main()
