"""The walk-through on the embedding tables of real checkpoints, from GPT-2 (50257 x 768 F32)
to Llama 3.1 405B (128256 x 16384 BF16, 4.2 GB), in bounded memory.

Each table is a sparse .safetensors file with the checkpoint's exact shape and dtype
(tests/real_model_tables.py): the rows at the ids of "Hello world" and those PyTorch's printing
shows are written, the rest is a hole that reads as zeros. The CLI reads the rows it needs and
streams the one-hot product through the whole file; its peak resident memory (as GNU time
reports it) must stay within --rss-limit-mib (128 MiB in a release build), the verdict must be "bit-identical", and
the table, the lookup and the product must print as PyTorch prints the same values, converted by
PyTorch itself (BF16 bit patterns viewed as torch.bfloat16, then .float()). A sharded
checkpoint's index (Llama 3 8B in 4 shards, the table in the first) works the same way.

Usage: test_real_shapes_cli.py PATH/embedlab --rss-limit-mib N --time PATH/time
"""
import json
import os
import sys
import tempfile
import unittest

from measured_cli import CLI, RSS_LIMIT, run_measured  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from real_model_tables import (
    HELLO_WORLD,
    SHAPES,
    known_rows,
    printed_rows,
    write_table,
)  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402


def torch_rows(dtype, stored):
    """The float32 rows PyTorch makes of the stored values."""
    if dtype == "BF16":
        return (
            torch.from_numpy(stored.astype(np.uint16).view(np.int16)).view(torch.bfloat16).float()
        )
    return torch.from_numpy(stored)


def torch_printouts(vocab, dim, dtype, rows):
    """What PyTorch prints for the table, its lookup of "Hello world" and the one-hot product. The
    table is summarised (first and last three rows and columns): a 7 x 143 tensor with the same
    corners prints the same, so the table itself is never made."""
    corners = torch.zeros(7, 143)
    for small, row in zip([0, 1, 2, 4, 5, 6], printed_rows(vocab)):
        values = torch_rows(dtype, rows[row])
        corners[small, :3] = values[:3]
        corners[small, -3:] = values[-3:]
    hello = torch.stack([torch_rows(dtype, rows[i]) for i in HELLO_WORLD])
    embedding = torch.nn.Embedding.from_pretrained(hello, freeze=False)
    product = torch.mm(torch.eye(2), hello.clone().requires_grad_())
    return [str(torch.nn.Parameter(corners)), str(embedding(torch.tensor([0, 1]))), str(product)]


class RealShapes(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def check_walkthrough(self, args, shape, rows):
        model, _, vocab, dim, dtype = shape
        status, stdout, stderr, peak = run_measured(*args, "--ids", "15496,995")
        self.assertEqual(status, 0, stderr)
        self.assertIn(
            f"# embedding(idx) vs linear(onehot.float()): bit-identical. All {2 * dim:,} "
            "elements hold the same 32 bits in both results.\n",
            stdout,
        )
        for block in torch_printouts(vocab, dim, dtype, rows):
            with self.subTest(model=model, block=block[:40]):
                self.assertIn(block, stdout)
        self.assertLessEqual(peak, RSS_LIMIT, f"{model}: peak resident memory {peak >> 20} MiB")

    def test_every_shape_in_bounded_memory(self):
        for shape in SHAPES:
            model, tensor, vocab, dim, dtype = shape
            with self.subTest(model=model):
                path = os.path.join(self.dir.name, f"{model}.safetensors")
                rows = known_rows(vocab, dim, dtype)
                size = write_table(path, tensor, vocab, dim, dtype, rows)
                self.assertGreater(size, vocab * dim * (4 if dtype == "F32" else 2))
                self.check_walkthrough(["--weights", path], shape, rows)
                os.remove(path)

    def test_a_sharded_checkpoint_in_bounded_memory(self):
        shape = next(s for s in SHAPES if s[0] == "Llama-3-8B")
        _, tensor, vocab, dim, dtype = shape
        shards = [f"model-0000{i}-of-00004.safetensors" for i in range(1, 5)]
        rows = known_rows(vocab, dim, dtype, seed=1)
        norm = np.ones(dim, np.float32).view(np.uint32) >> 16
        write_table(
            os.path.join(self.dir.name, shards[0]),
            tensor,
            vocab,
            dim,
            dtype,
            rows,
            extra=[("model.layers.0.input_layernorm.weight", "BF16", norm.astype("<u2"))],
        )
        index = os.path.join(self.dir.name, "model.safetensors.index.json")
        with open(index, "w") as f:
            json.dump(
                {
                    "metadata": {"total_size": 16060522496},
                    "weight_map": {
                        tensor: shards[0],
                        "model.layers.0.input_layernorm.weight": shards[0],
                        "model.norm.weight": shards[3],
                        "lm_head.weight": shards[3],
                    },
                },
                f,
            )
        self.check_walkthrough(["--weights", index], shape, rows)


if __name__ == "__main__":
    unittest.main(verbosity=2)
