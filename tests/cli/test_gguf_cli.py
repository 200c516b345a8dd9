"""The walk-through with a table from a GGUF file, run as a user would run it.

The files are written here (tests/gguf_file.py: struct + NumPy, random blocks with valid float16
scales) in every table type: F32, F16, BF16, Q8_0, Q4_0, Q4_K and Q6_K. The table the CLI prints,
and the lookup and the product, must be what PyTorch prints for the values that
tests/gguf_dequantize.py (NumPy, from ggml's reference dequantize_row_*) gives the blocks; the
verdict is bit-identical; the blocks each route decoded are counted from the format (a lookup:
n rows, the product: all V rows); the rows are labelled with the file's own tokens.
--list-tensors lists what was written; every corrupt file exits with status 2 and a message on
stderr that names the file and the field.

Usage: test_gguf_cli.py PATH/embedlab
"""
import os
import struct
import subprocess
import sys
import unittest

CLI = sys.argv.pop(1)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from gguf_dequantize import dequantize  # noqa: E402
from gguf_file import BLOCKS, TABLE_TYPES, gguf_bytes, random_blocks  # noqa: E402
from safetensors_file import np, torch  # noqa: E402  (checks torch)
from table_files import Files, torch_printout  # noqa: E402


def run(*args):
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=120)


class Tables(Files):
    rng = np.random.default_rng(33)

    def model(self, type_name, rows, head, tokens=True):
        per_block = BLOCKS[type_name][0]
        cols = 2 * per_block if per_block > 1 else 6
        raw = random_blocks(type_name, rows, cols, self.rng)
        tensors = [
            ("token_embd.weight", type_name, [cols, rows], raw),
            ("output_norm.weight", "F32", [cols], np.ones(cols, "<f4").tobytes()),
        ]
        if head:
            tensors.append(("output.weight", "Q8_0", [64, rows], bytes(34 * 2 * rows)))
        metadata = [("general.architecture", "STRING", "llama")]
        if tokens:
            metadata.append(
                (
                    "tokenizer.ggml.tokens",
                    "ARRAY",
                    ("STRING", [f"t{i}" for i in range(rows - 1)] + ["\u0120caf\u00e9"]),
                )
            )
        path = self.write(f"{type_name}.gguf", gguf_bytes(tensors, metadata))
        return path, dequantize(type_name, raw, rows, cols), cols

    def test_every_type_is_printed_as_torch_prints_its_reference_values(self):
        for k, type_name in enumerate(TABLE_TYPES):
            with self.subTest(type=type_name):
                rows, ids = 9, [8, 0, 3, 8]
                path, values, cols = self.model(type_name, rows, head=k % 2 == 0)
                out = run("--weights", path, "--ids", ",".join(map(str, ids)))
                self.assertEqual(out.returncode, 0, out.stderr)
                self.assertIn(
                    f"# W loaded from {path}: tensor 'token_embd.weight', ne "
                    f"[{cols}, {rows}] read as (V, d) = ({rows}, {cols}), {type_name}",
                    out.stdout,
                )
                self.assertIn(
                    "the head has its own output.weight"
                    if k % 2 == 0
                    else "no output.weight: the head is tied to this table",
                    out.stdout,
                )
                self.assertIn(
                    "# the file's tokens: 8 = '\u0120caf\u00e9', 0 = 't0', 3 = 't3', "
                    "8 = '\u0120caf\u00e9'\n",
                    out.stdout,
                )
                # A block with a negative scale holds -0.0 where its quant is zero: the lookup
                # copies it, the product adds it onto +0.0.
                rows_used = values[ids]
                negative_zeros = int(np.sum((rows_used == 0) & np.signbit(rows_used)))
                verdict = "# embedding(idx) vs linear(onehot.float()): "
                if negative_zeros == 0:
                    verdict += (
                        f"bit-identical. All {len(ids) * cols:,} elements hold the same "
                        "32 bits in both results.\n"
                    )
                else:
                    verdict += (
                        f"equal in value. {negative_zeros:,} of {len(ids) * cols:,} elements "
                        "differ only in the sign of zero: the lookup copies a −0.0"
                    )
                self.assertIn(verdict, out.stdout)
                for block in torch_printout(torch.from_numpy(values), ids):
                    self.assertIn(block, out.stdout)
                per_block = BLOCKS[type_name][0]
                per_row = cols // per_block
                if type_name == "F32":
                    self.assertIn(
                        "# blocks decoded: none by either route: F32 rows are read as " "stored\n",
                        out.stdout,
                    )
                else:
                    self.assertIn(
                        f": the lookup {len(ids) * per_row} ({len(ids)} rows x {per_row}),"
                        f" the product {rows * per_row} (all {rows} rows x {per_row})",
                        out.stdout,
                    )

    def test_list_tensors_marks_the_table_and_says_whether_the_head_is_tied(self):
        for head in (True, False):
            path, _, cols = self.model("Q6_K", 3, head)
            out = run("--weights", path, "--list-tensors")
            self.assertEqual(out.returncode, 0, out.stderr)
            lines = out.stdout.splitlines()
            self.assertEqual(
                lines[0],
                f"{path}: GGUF version 3, {3 if head else 2} tensors, 2 "
                f"metadata entries, data from byte {lines[0].split('byte ')[1].split(',')[0]}"
                f", file {os.path.getsize(path)} bytes",
            )
            self.assertEqual(
                lines[2].split(), ["*", "token_embd.weight", "Q6_K", f"[{cols},", "3]"]
            )
            self.assertEqual(lines[3].split(), ["output_norm.weight", "F32", f"[{cols}]"])
            self.assertIn('metadata general.architecture (STRING): "llama"', lines)
            self.assertIn(
                'metadata tokenizer.ggml.tokens (ARRAY[STRING]): [3 elements: "t0", '
                '"t1", "\u0120caf\u00e9"]',
                lines,
            )
            self.assertEqual(
                lines[-1],
                f"* the embedding table: --weights {path} loads it; "
                + (
                    "output.weight is the head's own"
                    if head
                    else "no output.weight: the head is tied to it"
                ),
            )

    def test_another_tensor_by_name_and_no_tokens(self):
        path, _, _ = self.model("Q4_0", 4, head=True, tokens=False)
        out = run("--weights", path, "--tensor", "output.weight", "--ids", "1")
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn(
            "tensor 'output.weight', ne [64, 4] read as (V, d) = (4, 64), Q8_0", out.stdout
        )
        self.assertNotIn("the file's tokens", out.stdout)
        self.assertIn(": the lookup 2 (1 rows x 2), the product 8 (all 4 rows x 2)", out.stdout)


def header(tensors=1, metadata=0, version=3):
    return b"GGUF" + struct.pack("<IQQ", version, tensors, metadata)


def tensor_info(name, ne, type_id, offset=0):
    raw = name.encode()
    return (
        struct.pack("<Q", len(raw))
        + raw
        + struct.pack("<I", len(ne))
        + struct.pack(f"<{len(ne)}Q", *ne)
        + struct.pack("<IQ", type_id, offset)
    )


def padded(b):
    return b + b"\0" * (-len(b) % 32)


class CorruptFiles(Files):
    GOOD = gguf_bytes([("token_embd.weight", "Q8_0", [32, 2], bytes(68))])
    CASES = [
        ("truncated", GOOD[:-1], "runs past the end of the file"),
        (
            "truncated header",
            GOOD[:60],
            "tensor 0 'token_embd.weight''s ne[0] needs 8 bytes at byte 53",
        ),
        ("bad magic", b"GGML" + GOOD[4:], 'not a GGUF file: it starts with "GGML"'),
        ("version 1", header(version=1) + GOOD[24:], "GGUF version 1 (32-bit counts"),
        ("version 9", header(version=9) + GOOD[24:], "GGUF version 9 is not read"),
        (
            "absurd tensor count",
            header(tensors=2**62) + GOOD[24:],
            "the tensor count, 4611686018427387904, is more than",
        ),
        (
            "absurd metadata count",
            header(metadata=2**40) + GOOD[24:],
            "the metadata count, 1099511627776, is more than",
        ),
        (
            "absurd name length",
            header() + struct.pack("<Q", 2**50) + b"x" * 40,
            "tensor 0's name is 1125899906842624 bytes long; at most 65535",
        ),
        (
            "absurd array length",
            header(0, 1)
            + struct.pack("<Q", 1)
            + b"k"
            + struct.pack("<IIQ", 9, 8, 2**61)
            + b"x" * 40,
            'metadata "k" claims 2305843009213693952 elements of STRING',
        ),
        (
            "absurd dimensions",
            padded(header() + tensor_info("token_embd.weight", [2**31, 2**31], 0)),
            "is 4611686018427387904 blocks of 4 bytes, more than the whole file's",
        ),
        (
            "overflowing dimensions",
            padded(header() + tensor_info("token_embd.weight", [2**33] * 2, 0)),
            "make more than 2^63 elements",
        ),
        (
            "five dimensions",
            padded(header() + tensor_info("token_embd.weight", [1] * 5, 0)),
            "has 5 dimensions; GGUF tensors have 1 to 4",
        ),
        (
            "row not whole blocks",
            padded(header() + tensor_info("token_embd.weight", [1152, 2], 14)) + bytes(2000),
            "rows of ne[0] = 1152 values, not a whole number of Q6_K blocks of 256",
        ),
        (
            "unsupported type",
            padded(header() + tensor_info("token_embd.weight", [256, 2], 10)) + bytes(168),
            "Q2_K tables are not read; the types read are F32, F16, BF16, Q8_0, Q4_0, "
            "Q4_K and Q6_K",
        ),
        (
            "unknown type",
            padded(header() + tensor_info("token_embd.weight", [4, 2], 77)),
            "type 77 tables are not read",
        ),
        (
            "offset past the end",
            padded(header() + tensor_info("token_embd.weight", [32, 2], 8, 2**40)) + bytes(68),
            "at data offset 1099511627776 runs past the end of the file",
        ),
        (
            "no table",
            gguf_bytes([("tok_embd.weight", "F32", [2, 2], bytes(16))]),
            "no tensor is named 'token_embd.weight' in the file (1 tensor); close names: "
            "'tok_embd.weight'",
        ),
    ]

    def test_each_is_refused_with_status_2_naming_the_file_and_the_field(self):
        for name, content, message in self.CASES:
            with self.subTest(case=name):
                path = self.write("model.gguf", content)
                for args in (["--ids", "0"], ["--list-tensors"]):
                    out = run("--weights", path, *args)
                    if args == ["--list-tensors"] and name in (
                        "unsupported type",
                        "unknown type",
                        "no table",
                    ):
                        self.assertEqual(out.returncode, 0, out.stderr)  # listed, not loaded
                        continue
                    self.assertEqual(out.returncode, 2, out.stdout + out.stderr)
                    self.assertTrue(
                        out.stderr.startswith(f"error: argument --weights: {path}: "), out.stderr
                    )
                    self.assertIn(message, out.stderr)
                    self.assertEqual(len(out.stderr.splitlines()), 1, out.stderr)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
