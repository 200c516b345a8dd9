"""The walk-through with a model's table from a .safetensors file (and .npy, told apart by content),
run as a user would run it.

The files are written here (tests/safetensors_file.py: json + struct + NumPy, F16 and BF16 as bit
patterns). The table the CLI prints, and the lookup and the product, must be what PyTorch prints
for the same tensor converted with .float(); --list-tensors lists what was written; every bad
file exits with status 2 and a message on stderr that names the file and the fault. A 2 GiB
sparse file with the table at its end loads with a peak resident memory far below the file's
size: only the header and the table are read.

Usage: test_safetensors_cli.py PATH/embedlab
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

CLI = sys.argv.pop(1)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from safetensors_file import safetensors_bytes, with_header  # noqa: E402  (checks torch)

import numpy as np  # noqa: E402
import torch  # noqa: E402
from table_files import Files, torch_printout  # noqa: E402


def run(*args):
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=120)


def run_measured(*args):
    """(exit status, stdout, stderr, peak resident memory in bytes) of the CLI, the memory as the
    kernel reports it for this one child (wait4)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        child = subprocess.Popen([CLI, *args], stdout=out, stderr=err)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return child.returncode, out.read().decode(), err.read().decode(), usage.ru_maxrss * 1024


def torch_table(dtype, array):
    """The tensor PyTorch makes of the stored values, as float32."""
    if dtype in ("F16", "BF16"):
        half = torch.float16 if dtype == "F16" else torch.bfloat16
        return torch.from_numpy(array.astype(np.uint16).view(np.int16)).view(half).float()
    return torch.from_numpy(array).float()


class ModelTables(Files):
    rng = np.random.default_rng(7)
    bf16 = (rng.standard_normal((6, 4)).astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
    f16 = rng.standard_normal((5, 3)).astype(np.float16).view(np.uint16)
    f32 = rng.standard_normal((4, 2)).astype(np.float32)
    f64 = rng.standard_normal((3, 2)) * 100.0
    TENSORS = [
        ("transformer.wte.weight", "BF16", bf16),
        ("transformer.wpe.weight", "F16", f16),
        ("transformer.h.0.attn.bias", "F32", np.zeros((1, 1, 2, 2), dtype=np.float32)),
        ("lm_head.weight", "F32", f32),
        ("proj.f64", "F64", f64),
        ("position_ids", "I64", np.arange(4, dtype=np.int64).reshape(1, 4)),
    ]

    def model(self):
        return self.write(
            "model.safetensors", safetensors_bytes(self.TENSORS, metadata={"format": "pt"})
        )

    def check_walkthrough(self, args, dtype, array, ids, origin):
        out = run(*args, "--ids", ",".join(map(str, ids)))
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("# W loaded from " + origin + "\n", out.stdout)
        self.assertIn(
            f"# embedding(idx) vs linear(onehot.float()): bit-identical. All "
            f"{len(ids) * array.shape[1]} elements hold the same 32 bits in both "
            "results.\n",
            out.stdout,
        )
        for block in torch_printout(torch_table(dtype, array), ids):
            with self.subTest(block=block[:50]):
                self.assertIn(block, out.stdout)

    def test_the_embedding_table_is_chosen_and_printed_as_torch_prints_it(self):
        path = self.model()
        self.check_walkthrough(
            ["--weights", path],
            "BF16",
            self.bf16,
            [5, 0, 2, 5],
            f"{path}: tensor 'transformer.wte.weight', shape [6, 4], BF16 (bfloat16), converted "
            "to float32 exactly",
        )

    def test_a_named_tensor_of_each_float_dtype(self):
        path = self.model()
        for name, dtype, array, how in [
            (
                "transformer.wpe.weight",
                "F16",
                self.f16,
                "F16 (float16), converted to float32 exactly",
            ),
            ("lm_head.weight", "F32", self.f32, "F32 (float32), as stored"),
            ("proj.f64", "F64", self.f64, "F64 (float64), rounded to float32"),
        ]:
            with self.subTest(dtype=dtype):
                shape = f"[{array.shape[0]}, {array.shape[1]}]"
                self.check_walkthrough(
                    ["--weights", path, "--tensor", name],
                    dtype,
                    array,
                    [1, 0],
                    f"{path}: tensor '{name}', shape {shape}, {how}",
                )

    def test_list_tensors(self):
        path = self.model()
        out = run("--weights", path, "--list-tensors")
        self.assertEqual(out.returncode, 0, out.stderr)
        lines = out.stdout.splitlines()
        self.assertEqual(lines[0].split(": ")[0], path)
        self.assertIn(": 6 tensors", lines[0])
        rows = [line[2:].split(None, 2) for line in lines[2:8]]
        # In the order of their bytes, as written.
        self.assertEqual(
            rows, [[name, dtype, str(list(array.shape))] for name, dtype, array in self.TENSORS]
        )
        self.assertTrue(lines[2].startswith("* transformer.wte.weight"))
        self.assertTrue(all(line.startswith("  ") for line in lines[3:8]))
        self.assertIn("__metadata__ format: pt", lines)
        self.assertIn("* the embedding table", out.stdout)

    def test_npy_is_told_apart_by_its_first_bytes(self):
        table = self.rng.standard_normal((3, 2)).astype(np.float16)
        path = os.path.join(self.dir.name, "table.npy")
        np.save(path, table)
        renamed = path[: -len(".npy")] + ".bin"
        os.rename(path, renamed)
        self.check_walkthrough(
            ["--weights", renamed], "F16", table.view(np.uint16), [2, 1], renamed
        )
        for option in (["--list-tensors"], ["--tensor", "x"]):
            out = run("--weights", renamed, *option)
            self.assertEqual(out.returncode, 2)
            self.assertIn(
                f"{option[0]} is for .safetensors files, and {renamed} is a .npy file", out.stderr
            )

    def test_a_2_gib_file_costs_its_table_not_its_size(self):
        # The header promises 2 GiB of U8 padding before the table; truncate() makes it a hole.
        gib2 = 2 << 30
        header = (
            b'{"padding": {"dtype": "U8", "shape": [%d], "data_offsets": [0, %d]}, '
            b'"model.embed_tokens.weight": {"dtype": "BF16", "shape": [6, 4], '
            b'"data_offsets": [%d, %d]}}' % (gib2, gib2, gib2, gib2 + 48)
        )
        head = with_header(header)
        path = self.write("sparse.safetensors", head)
        with open(path, "r+b") as f:
            f.truncate(len(head) + gib2)
            f.seek(0, os.SEEK_END)
            f.write(self.bf16.astype("<u2").tobytes())
        self.assertEqual(os.path.getsize(path), len(head) + gib2 + 48)
        status, stdout, stderr, peak = run_measured("--weights", path, "--ids", "3")
        self.assertEqual(status, 0, stderr)
        self.assertIn(torch_printout(torch_table("BF16", self.bf16), [3])[0], stdout)
        # Reading the file whole would take 2 GiB; the CLI's own code and libraries, even with
        # AddressSanitizer's shadow memory, take far less than 512 MiB.
        self.assertLess(peak, 512 << 20)


class ShardedCheckpoints(Files):
    """model.safetensors.index.json and its shards, as Hugging Face writes them."""

    rng = np.random.default_rng(11)
    table = (rng.standard_normal((5, 3)).astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
    WEIGHT_MAP = {
        "lm_head.weight": "model-00002-of-00002.safetensors",
        "model.embed_tokens.weight": "model-00001-of-00002.safetensors",
        "model.norm.weight": "model-00002-of-00002.safetensors",
    }

    def checkpoint(
        self, shards=("model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors")
    ):
        contents = {
            "model-00001-of-00002.safetensors": safetensors_bytes(
                [("model.embed_tokens.weight", "BF16", self.table)]
            ),
            "model-00002-of-00002.safetensors": safetensors_bytes(
                [
                    ("lm_head.weight", "F32", np.ones((5, 3), np.float32)),
                    ("model.norm.weight", "F32", np.ones(3, np.float32)),
                ]
            ),
        }
        for shard in shards:
            self.write(shard, contents[shard])
        return self.write(
            "model.safetensors.index.json",
            json.dumps({"metadata": {"total_size": 94}, "weight_map": self.WEIGHT_MAP}).encode(),
        )

    def test_the_index_names_the_shard_that_holds_the_table(self):
        index = self.checkpoint()
        shard = os.path.join(self.dir.name, "model-00001-of-00002.safetensors")
        out = run("--weights", index, "--ids", "4,0,4")
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn(
            f"# W loaded from {index}, shard model-00001-of-00002.safetensors: tensor "
            "'model.embed_tokens.weight', shape [5, 3], BF16 (bfloat16), converted to "
            "float32 exactly\n",
            out.stdout,
        )
        for block in torch_printout(torch_table("BF16", self.table), [4, 0, 4]):
            self.assertIn(block, out.stdout)
        # The shard alone is a .safetensors file like any other.
        alone = run("--weights", shard, "--ids", "4,0,4")
        self.assertEqual(alone.returncode, 0, alone.stderr)
        self.assertEqual(alone.stdout.split("\n", 1)[1], out.stdout.split("\n", 1)[1])

    def test_list_tensors_lists_every_shard(self):
        index = self.checkpoint()
        out = run("--weights", index, "--list-tensors")
        self.assertEqual(out.returncode, 0, out.stderr)
        lines = out.stdout.splitlines()
        self.assertEqual(lines[0], f"{index}: a sharded checkpoint's index, 3 tensors in 2 shards")
        self.assertTrue(
            lines[1].startswith(
                os.path.join(self.dir.name, "model-00002-of-00002.safetensors") + ": 2 tensors"
            )
        )
        self.assertIn("* model.embed_tokens.weight  BF16   [5, 3]", out.stdout)
        self.assertIn("  lm_head.weight     F32    [5, 3]", out.stdout)
        self.assertEqual(
            lines[-1],
            "* the embedding table, model.embed_tokens.weight in "
            f"model-00001-of-00002.safetensors: --weights {index} loads it",
        )

    def test_a_missing_shard_a_table_in_no_shard_and_an_index_that_is_not_one(self):
        index = self.checkpoint(shards=("model-00002-of-00002.safetensors",))
        out = run("--weights", index)
        self.assertEqual(out.returncode, 2)
        self.assertIn(
            f"error: argument --weights: {index}: the index puts 'model.embed_tokens.weight' in the shard "
            "'model-00001-of-00002.safetensors', a file beside the index: cannot open "
            f"{os.path.join(self.dir.name, 'model-00001-of-00002.safetensors')}: "
            "No such file or directory",
            out.stderr,
        )
        out = run("--weights", index, "--tensor", "embed_tokens.weight")
        self.assertIn(
            f"error: argument --weights: {index}: no shard holds a tensor named 'embed_tokens.weight': the "
            "index's weight_map has the close names 'model.embed_tokens.weight'",
            out.stderr,
        )
        out = run("--weights", index, "--tensor", "lm_head.weight", "--ids", "1")
        self.assertEqual(out.returncode, 0, out.stderr)
        self.write("model.safetensors.index.json", b'{"metadata": {"total_size": 94}}')
        out = run("--weights", index)
        self.assertEqual(out.returncode, 2)
        self.assertIn(
            f'error: argument --weights: {index}: not a safetensors index: it has no "weight_map"; a '
            "safetensors index (model.safetensors.index.json) is a JSON object whose "
            '"weight_map" maps each tensor\'s name to the file name of its shard',
            out.stderr,
        )


class BadFiles(Files):
    def check_error(self, content, *fragments, args=()):
        path = self.write("bad.safetensors", content)
        out = run("--weights", path, *args)
        self.assertEqual(out.returncode, 2, out.stdout + out.stderr)
        self.assertEqual(out.stdout, "")
        self.assertIn(f"error: argument --weights: {path}: ", out.stderr)
        for fragment in fragments:
            self.assertIn(fragment, out.stderr)

    def entry(self, dtype="F32", shape=(2, 2), offsets=(0, 16)):
        return {"dtype": dtype, "shape": list(shape), "data_offsets": list(offsets)}

    def test_header_length_past_the_end_or_over_100_mb(self):
        self.check_error(
            with_header(b"{}")[:8] + b"{}",
            "truncated .safetensors file",
            "header length of 8 bytes, but only 2 bytes follow",
        )
        self.check_error(
            (100_000_001).to_bytes(8, "little") + b"{}",
            "header length of 100000001 bytes, over the format's limit",
        )
        self.check_error(b"1234", "not a .safetensors file: it is 4 bytes long")

    def test_invalid_json_says_where(self):
        self.check_error(
            with_header(b'{"wte.weight": {"dtype": "F32",\n "shape": [2, 2],\n}}'),
            "invalid JSON in the .safetensors header",
            "line 3, column 1",
        )

    def test_entries_with_a_missing_or_wrong_field(self):
        def header(**entry):
            return with_header(json.dumps({"wte.weight": entry}).encode(), bytes(16))

        self.check_error(
            header(dtype="F32", shape=[2, 2]), "tensor 'wte.weight' has no \"data_offsets\""
        )
        self.check_error(
            header(dtype="F32", shape=[2, "2"], data_offsets=[0, 16]),
            '"shape" should be a list of non-negative integers',
        )

    def test_unsupported_dtypes_are_named(self):
        for dtype, meaning in [
            ("I8", "int8"),
            ("U8", "uint8"),
            ("BOOL", "bool"),
            ("F8_E4M3", "float8 e4m3"),
        ]:
            with self.subTest(dtype=dtype):
                content = with_header(
                    json.dumps({"wte.weight": self.entry(dtype, (2, 2), (0, 4))}).encode(), bytes(4)
                )
                self.check_error(
                    content,
                    f"tensor 'wte.weight' is {dtype} ({meaning})",
                    "the supported dtypes are F32, F64, F16 and BF16",
                )

    def test_offsets_reversed_outside_overlapping_or_of_the_wrong_size(self):
        def file(entries, data=bytes(32)):
            return with_header(json.dumps(entries).encode(), data)

        self.check_error(file({"wte.weight": self.entry(offsets=(16, 0))}), "are reversed")
        self.check_error(
            file({"wte.weight": self.entry(offsets=(16, 32))}, bytes(20)),
            "run past the end of the data section, which holds 20 bytes",
        )
        self.check_error(
            file({"wte.weight": self.entry(), "b": self.entry(offsets=(8, 24))}),
            "tensors 'wte.weight'",
            "and 'b'",
            "overlap",
        )
        self.check_error(
            file({"wte.weight": self.entry(shape=(2, 3))}),
            "hold 16 bytes, but shape [2, 3] of F32 needs 24",
        )

    def test_the_table_must_be_2_d_and_within_the_limits(self):
        self.check_error(
            safetensors_bytes([("wte.weight", "F32", np.zeros(3, np.float32))]),
            "no tensor looks like the embedding table",
            "the file holds 1 tensor and none is 2-D",
        )
        self.check_error(
            safetensors_bytes([("bias", "F32", np.zeros(3, np.float32))]),
            "tensor 'bias' has shape [3] (1-D)",
            args=("--tensor", "bias"),
        )
        huge = with_header(
            json.dumps(
                {"wte.weight": self.entry("BF16", (5_000_000, 1), (0, 10_000_000))}
            ).encode(),
            bytes(10_000_000),
        )
        self.check_error(huge, "the vocabulary size V = 5,000,000 is over the limit of 4,194,304")

    def test_a_missing_name_lists_the_close_ones_and_several_candidates_are_listed(self):
        tensors = [
            ("shared.weight", "F32", np.zeros((2, 2), np.float32)),
            ("decoder.embed_tokens.weight", "F32", np.zeros((2, 2), np.float32)),
        ]
        self.check_error(
            safetensors_bytes(tensors),
            "2 tensors look like the embedding table: 'shared.weight' (F32 [2, 2]), "
            "'decoder.embed_tokens.weight' (F32 [2, 2]); name the one to load",
        )
        self.check_error(
            safetensors_bytes(tensors),
            "no tensor is named 'embed_tokens.weight' in the file; close names: "
            "'decoder.embed_tokens.weight'",
            args=("--tensor", "embed_tokens.weight"),
        )


if __name__ == "__main__":
    unittest.main(verbosity=2)
