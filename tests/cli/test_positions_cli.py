"""The positions and head walk-throughs on a GPT-2-shaped checkpoint, in bounded memory.

A sparse .safetensors file with GPT-2's tensors as the checkpoint names them, wte.weight (50257 x
768 F32, the rows of "Hello world" and those PyTorch's printing shows written, the rest a hole
that reads as zeros) and wpe.weight (1024 x 768), and no lm_head.weight: the CLI must say the head
is tied, stream the head through all 50257 rows within --rss-limit-mib of peak resident memory
(as GNU time reports it), and list as each position's top logits the ids a NumPy dot product of
the same rows ranks first.

Usage: test_positions_cli.py PATH/embedlab --rss-limit-mib N --time PATH/time
"""
import os
import re
import sys
import tempfile
import unittest

from measured_cli import CLI, RSS_LIMIT, run_measured  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from real_model_tables import HELLO_WORLD, known_rows, write_table  # noqa: E402

import numpy as np  # noqa: E402

VOCAB, DIM, CONTEXT = 50257, 768, 1024


class Gpt2Shaped(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.TemporaryDirectory()
        cls.path = os.path.join(cls.folder.name, "model.safetensors")
        cls.rows = known_rows(VOCAB, DIM, "F32")
        cls.wpe = np.random.default_rng(1).standard_normal((CONTEXT, DIM)).astype(np.float32)
        write_table(
            cls.path,
            "wte.weight",
            VOCAB,
            DIM,
            "F32",
            cls.rows,
            extra=[("wpe.weight", "F32", cls.wpe)],
        )

    @classmethod
    def tearDownClass(cls):
        cls.folder.cleanup()

    def test_head_is_tied_and_streamed(self):
        ids = ",".join(str(i) for i in HELLO_WORLD)
        rc, stdout, stderr, rss = run_measured(
            "head", "--ids", ids, "--weights", self.path, "--top-k", "3"
        )
        self.assertEqual(rc, 0, stderr)
        self.assertIn(
            "# the output layer is tied: the file stores no lm_head.weight or "
            "output.weight: the output layer is the embedding's W, stored once",
            stdout,
        )
        self.assertIn("logits.shape\ntorch.Size([1, 2, 50257])", stdout)
        self.assertLessEqual(rss, RSS_LIMIT, f"peak RSS {rss >> 20} MiB")
        print(f"  head on GPT-2's shape: peak RSS {rss / 2**20:.1f} MiB", file=sys.stderr)
        # The rows the file holds, and every other row zero: NumPy's ranking of the same dots.
        w = np.zeros((VOCAB, DIM), np.float64)
        for row, values in self.rows.items():
            w[row] = values
        listed = [
            [int(x) for x in re.findall(r" (\d+) \(", line)]
            for line in stdout.splitlines()
            if line.startswith("# logits[")
        ]
        for t, token in enumerate(HELLO_WORLD):
            h = w[token] + self.wpe[t].astype(np.float64)
            dots = w @ h
            order = sorted(range(VOCAB), key=lambda v: (-dots[v], v))[:3]
            self.assertEqual(listed[t], order)

    def test_positions_from_the_file(self):
        rc, stdout, stderr, rss = run_measured(
            "positions", "--ids", "15496,995; 995,15496", "--weights", self.path
        )
        self.assertEqual(rc, 0, stderr)
        self.assertIn("# wpe: tensor 'wpe.weight' [1024, 768] of " + self.path, stdout)
        self.assertIn("pos_embeddings.shape\ntorch.Size([2, 768])", stdout)
        self.assertIn(": bit-identical. ", stdout)
        self.assertLessEqual(rss, RSS_LIMIT, f"peak RSS {rss >> 20} MiB")


if __name__ == "__main__":
    unittest.main(verbosity=1)
