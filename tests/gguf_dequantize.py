"""The float32 values of GGUF tables, computed here with NumPy from the block layouts of ggml's
reference C code (ggml-common.h's block_* structs, ggml-quants.c's dequantize_row_*): each product
and difference a float32 operation of its own, in the C code's order, never fused. The expected
values of the GGUF tests come from here, never from embedlab itself.

dequantize(type name, raw bytes, rows, cols) -> (rows, cols) float32.
"""
import numpy as np

F32 = np.float32


def halves(raw_u8):
    """Little-endian float16 bytes (..., 2) -> float32 values."""
    return np.ascontiguousarray(raw_u8).view("<f2")[..., 0].astype(F32)


def q8_0(b):
    d = halves(b[:, 0:2])[:, None]
    q = b[:, 2:34].view(np.int8).astype(F32)
    return q * d


def q4_0(b):
    d = halves(b[:, 0:2])[:, None]
    qs = b[:, 2:18]
    # The low nibbles are the first 16 values, the high ones the last 16.
    q = np.concatenate([(qs & 0x0F).astype(np.int16) - 8, (qs >> 4).astype(np.int16) - 8], axis=1)
    return q.astype(F32) * d


def q4_k_scales(s):
    """The 8 six-bit (scale, min) pairs packed into Q4_K's 12 bytes, (n, 8) each."""
    s = s.astype(np.int32)
    sc = np.empty((s.shape[0], 8), np.int32)
    mn = np.empty((s.shape[0], 8), np.int32)
    sc[:, 0:4] = s[:, 0:4] & 63
    mn[:, 0:4] = s[:, 4:8] & 63
    sc[:, 4:8] = (s[:, 8:12] & 0x0F) | ((s[:, 0:4] >> 6) << 4)
    mn[:, 4:8] = (s[:, 8:12] >> 4) | ((s[:, 4:8] >> 6) << 4)
    return sc, mn


def q4_k(b):
    n = b.shape[0]
    d = halves(b[:, 0:2])[:, None]
    dmin = halves(b[:, 2:4])[:, None]
    sc, mn = q4_k_scales(b[:, 4:16])
    scale = d * sc.astype(F32)  # (n, 8): one per sub-block of 32
    offset = dmin * mn.astype(F32)
    qs = b[:, 16:144].reshape(n, 4, 32)
    # Chunk k of 32 bytes: its low nibbles are sub-block 2k, its high nibbles sub-block 2k + 1.
    q = np.stack([qs & 0x0F, qs >> 4], axis=2).reshape(n, 8, 32).astype(F32)
    y = scale[:, :, None] * q - offset[:, :, None]
    return y.reshape(n, 256)


def q6_k(b):
    n = b.shape[0]
    ql = b[:, 0:128].reshape(n, 2, 64).astype(np.int32)
    qh = b[:, 128:192].reshape(n, 2, 32).astype(np.int32)
    sc = b[:, 192:208].view(np.int8).reshape(n, 2, 8).astype(F32)
    d = halves(b[:, 208:210])[:, None, None]
    lo = np.concatenate(
        [ql[:, :, 0:32] & 0x0F, ql[:, :, 32:64] & 0x0F, ql[:, :, 0:32] >> 4, ql[:, :, 32:64] >> 4],
        axis=2,
    )
    hi = np.concatenate([(qh >> shift) & 3 for shift in (0, 2, 4, 6)], axis=2)
    q = ((lo | (hi << 4)) - 32).astype(F32)  # (n, 2, 128)
    # Value p of a half has scale p // 16 of the half's 8.
    scale = d * sc  # (n, 2, 8)
    y = np.repeat(scale, 16, axis=2) * q
    return y.reshape(n, 256)


QUANTIZED = {
    "Q8_0": (q8_0, 34, 32),
    "Q4_0": (q4_0, 18, 32),
    "Q4_K": (q4_k, 144, 256),
    "Q6_K": (q6_k, 210, 256),
}


def dequantize(type_name, raw, rows, cols):
    buf = np.frombuffer(raw, np.uint8)
    if type_name == "F32":
        return buf.view("<f4").astype(F32).reshape(rows, cols)
    if type_name == "F16":
        return buf.view("<f2").astype(F32).reshape(rows, cols)
    if type_name == "BF16":
        return (buf.view("<u2").astype(np.uint32) << 16).view(F32).reshape(rows, cols)
    fn, size, _ = QUANTIZED[type_name]
    with np.errstate(over="ignore", invalid="ignore"):
        return fn(buf.reshape(-1, size)).astype(F32).reshape(rows, cols)
