"""embedlab.open() and its Table against the CLI on the same files: .npy (float16, float32,
float64), .safetensors (BF16, with a -0.0) and GGUF (every table type). The lookup's bits must be
the file's values as an independent reading gives them (numpy; tests/gguf_dequantize.py for ggml's
blocks), the product's the lookup's where no -0.0 meets the sum; the origin line, both routes as
printed, the verdict and the blocks decoded must be what the CLI prints for the same file and ids;
a bad file's message must be the CLI's. A 2 GiB table is streamed in bounded memory.

Usage: test_open.py PATH/embedlab  (embedlab importable: PYTHONPATH=python and the module's folder)"""

import os
import re
import subprocess
import sys
import textwrap
import unittest

import numpy as np

import _embedlab
import embedlab

CLI = sys.argv.pop(1)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
from gguf_dequantize import dequantize  # noqa: E402
from gguf_file import BLOCKS, TABLE_TYPES, gguf_bytes, random_blocks  # noqa: E402
from safetensors_file import safetensors_bytes, with_header  # noqa: E402
from table_files import Files  # noqa: E402


def walkthrough(path, ids):
    """What the CLI prints for the file and ids: {origin, lookup, product, verdict, blocks}."""
    out = subprocess.run(
        [CLI, "--weights", path, "--ids", ",".join(map(str, ids))],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr

    def step(code):
        return re.search(rf">>> {re.escape(code)}\n(.*?)\n\n", out.stdout, re.S)[1]

    def line(start):
        found = [text for text in out.stdout.splitlines() if text.startswith(start)]
        return found[0][len(start) :] if found else None

    return {
        "origin": line("# "),
        "lookup": step("embedding(idx)"),
        "product": step("linear(onehot.float())"),
        "verdict": line("# embedding(idx) vs linear(onehot.float()): "),
        "blocks": line("# blocks decoded "),
    }


def printed(values, grad_fn):
    """A result as the CLI prints it: PyTorch's printing, with its grad_fn."""
    return _embedlab.format_tensor(values, suffixes=[f"grad_fn=<{grad_fn}>"])


def same_bits(a, b) -> bool:
    return a.shape == b.shape and a.astype("<f4").tobytes() == b.astype("<f4").tobytes()


class AgainstTheCli(Files):
    rng = np.random.default_rng(42)

    def check(self, path, ids, values):
        """values: the (V, d) float32 table, read independently of the core."""
        cli = walkthrough(path, ids)
        table = embedlab.open(path)
        self.assertEqual(table.origin, cli["origin"])
        self.assertEqual(table.shape, values.shape)
        lookup, product, verdict = table.routes(ids)
        self.assertTrue(same_bits(lookup, values[ids]), "the lookup is the file's rows")
        self.assertEqual(printed(lookup, "EmbeddingBackward0"), cli["lookup"])
        self.assertEqual(printed(product, "MmBackward0"), cli["product"])
        self.assertEqual(verdict.text, cli["verdict"])
        self.assertTrue(same_bits(table.lookup(ids), lookup))
        self.assertTrue(same_bits(table.product(ids), product))
        return table, verdict, cli

    def test_npy_tables_of_each_float_dtype(self):
        values = self.rng.standard_normal((7, 3))
        for dtype in ("<f2", "<f4", "<f8"):
            with self.subTest(dtype=dtype):
                path = self.write(f"w{dtype[1:]}.npy", b"")
                np.save(path, values.astype(dtype))
                _, verdict, _ = self.check(path, [6, 0, 6], values.astype(dtype).astype("<f4"))
                self.assertEqual(verdict.grade, "identical")

    def test_a_negative_zero_is_equal_in_value_not_bit_identical(self):
        bits = (self.rng.standard_normal((4, 4)).astype(np.float32).view(np.uint32) >> 16).astype(
            np.uint16
        )
        bits[2, 1] = 0x8000  # BF16 -0.0: the lookup copies it, the product adds +0.0 terms
        path = self.write("model.safetensors", safetensors_bytes([("wte.weight", "BF16", bits)]))
        values = (bits.astype(np.uint32) << 16).view(np.float32)
        table, verdict, _ = self.check(path, [2, 0], values)
        self.assertEqual((table.dtype, table.tensor), ("BF16", "wte.weight"))
        self.assertEqual((verdict.grade, verdict.headline), ("value", "equal in value"))
        self.assertEqual(list(verdict.differing), [1])

    def test_gguf_tables_of_every_type(self):
        for type_name in TABLE_TYPES:
            with self.subTest(type=type_name):
                per_block = BLOCKS[type_name][0]
                rows, cols = 5, 2 * per_block if per_block > 1 else 6
                raw = random_blocks(type_name, rows, cols, self.rng)
                tensors = [("token_embd.weight", type_name, [cols, rows], raw)]
                path = self.write(f"{type_name}.gguf", gguf_bytes(tensors))
                values = np.asarray(dequantize(type_name, raw, rows, cols), dtype=np.float32)
                table, _, cli = self.check(path, [4, 1], values)
                self.assertEqual(table.dtype, type_name)
                if per_block > 1:  # what the lookup and the product decoded, as the CLI counts
                    found = re.search(r"the lookup (\d+) .* the product (\d+) ", cli["blocks"])
                    self.assertEqual(int(found[1]) + int(found[2]), table.blocks_decoded / 2)

    def test_a_bad_file_is_refused_in_the_clis_words(self):
        files = {
            "w.npy": b"\x93NUMPY\x02\x07",
            "model.safetensors": b"\x00\x01",
            "model.gguf": b"GGUF\x63\x00\x00\x00" + bytes(16),
            "missing.npy": None,
        }
        for name, content in files.items():
            with self.subTest(file=name):
                path = self.write(name, content) if content is not None else self.path(name)
                cli = subprocess.run([CLI, "--weights", path], capture_output=True, text=True)
                with self.assertRaises(embedlab.EmbedlabInputError) as raised:
                    embedlab.open(path).lookup([0])
                self.assertEqual(raised.exception.argument, "weights")
                self.assertEqual(cli.stderr, f"error: argument --weights: {raised.exception}\n")
        with self.assertRaises(embedlab.EmbedlabInputError) as raised:
            embedlab.open(self.write("w.npy", b""), tensor="wte.weight")
        self.assertIn("a .npy file holds one array, not named tensors", str(raised.exception))

    def path(self, name):
        return os.path.join(self.dir.name, name)


class BoundedMemory(Files):
    def test_a_2_gib_table_is_streamed_a_block_at_a_time(self):
        # V x d = 262,144 x 2,048 float32 zeros but for two rows: a sparse .safetensors file.
        rows, cols = 262144, 2048
        head = with_header(
            b'{"wte.weight": {"dtype": "F32", "shape": [%d, %d], "data_offsets": [0, %d]}}'
            % (rows, cols, rows * cols * 4)
        )
        path = self.write("big.safetensors", head)
        with open(path, "r+b") as f:
            f.truncate(len(head) + rows * cols * 4)
            f.seek(len(head) + 7 * cols * 4)
            f.write(np.full(cols, 0.5, "<f4").tobytes())
        # The child's resident memory before, and its peak from then on (VmHWM, reset by
        # writing 5 to clear_refs), in KiB.
        script = textwrap.dedent(
            f"""
            import embedlab
            def status(key):
                with open("/proc/self/status") as f:
                    return next(int(l.split()[1]) for l in f if l.startswith(key + ":"))
            table = embedlab.open({path!r})
            with open("/proc/self/clear_refs", "w") as f:
                f.write("5")
            before = status("VmRSS")
            lookup, product, verdict = table.routes([7, 262143])
            grown = status("VmHWM") - before
            print(lookup[0, :2].tolist(), product[0, -1], verdict.grade, grown)
            """
        )
        out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stderr)
        first, last, grade, grown_kib = out.stdout.rsplit(" ", 3)
        self.assertEqual((first, last, grade), ("[0.5, 0.5]", "0.5", "identical"))
        # The table is 2 GiB; the stream holds a block of about 4 MiB, the results a few KiB.
        self.assertLess(int(grown_kib), 64 << 10)
        print(f"  2 GiB table streamed: peak memory grew by {int(grown_kib) >> 10} MiB")


if __name__ == "__main__":
    unittest.main()
