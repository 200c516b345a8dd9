"""The walk-through on GGUF files with the token embedding tables of real quantized models, in
bounded memory: Llama 3 8B's 128256 x 4096 as Q4_K and Gemma 3 1B's 262144 x 1152 as Q8_0 (its
rows of 1152 are not a whole number of Q6_K's 256-value blocks, so llama.cpp's quantizer stores
it as Q8_0 where a Q4_K_M file would hold Q6_K; that Q6_K file is refused, saying so).

Each is a sparse GGUF file (tests/real_model_tables.py): the rows at the ids of "Hello world" and those
PyTorch's printing shows hold random blocks with valid scales, the rest is a hole that reads as
zeros. The CLI reads the rows it needs and streams the one-hot product through every block; its
peak resident memory (GNU time) must stay within --rss-limit-mib, the verdict must be
bit-identical, each route's blocks decoded must be counted, and the table, the lookup and the
product must print as PyTorch prints the values tests/gguf_dequantize.py gives those blocks.

Usage: test_real_gguf_cli.py PATH/embedlab --rss-limit-mib N --time PATH/time
"""
import os
import subprocess
import sys
import tempfile
import unittest

from measured_cli import CLI, RSS_LIMIT, run_measured  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from gguf_file import BLOCKS, gguf_bytes  # noqa: E402
from real_model_tables import GGUF_SHAPES, HELLO_WORLD, printed_rows, write_gguf_table  # noqa: E402
from safetensors_file import np, torch  # noqa: E402  (checks torch)


def torch_printouts(vocab, rows):
    """PyTorch's printing of the table (its corners: a 7 x 143 tensor prints the same), of the
    lookup of "Hello world" and of the one-hot product."""
    corners = torch.zeros(7, 143)
    for small, row in zip([0, 1, 2, 4, 5, 6], printed_rows(vocab)):
        values = torch.from_numpy(rows[row])
        corners[small, :3] = values[:3]
        corners[small, -3:] = values[-3:]
    hello = torch.stack([torch.from_numpy(rows[i]) for i in HELLO_WORLD])
    embedding = torch.nn.Embedding.from_pretrained(hello, freeze=False)
    product = torch.mm(torch.eye(2), hello.clone().requires_grad_())
    return [str(torch.nn.Parameter(corners)), str(embedding(torch.tensor([0, 1]))), str(product)]


class RealGgufShapes(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def test_every_shape_in_bounded_memory(self):
        rng = np.random.default_rng(35)
        for model, vocab, dim, type_name in GGUF_SHAPES:
            with self.subTest(model=model):
                path = os.path.join(self.dir.name, f"{model}-{type_name}.gguf")
                rows = write_gguf_table(path, vocab, dim, type_name, rng)
                status, stdout, stderr, peak = run_measured("--weights", path, "--ids", "15496,995")
                self.assertEqual(status, 0, stderr)
                self.assertIn(
                    f"# embedding(idx) vs linear(onehot.float()): bit-identical. All "
                    f"{2 * dim:,} elements hold the same 32 bits in both results.\n",
                    stdout,
                )
                per_row = dim // BLOCKS[type_name][0]
                self.assertIn(
                    f": the lookup {2 * per_row} (2 rows x {per_row}), the product "
                    f"{vocab * per_row} (all {vocab} rows x {per_row})",
                    stdout,
                )
                for block in torch_printouts(vocab, rows):
                    self.assertIn(block, stdout)
                self.assertLessEqual(
                    peak, RSS_LIMIT, f"{model}: peak resident memory {peak >> 20} MiB"
                )
                os.remove(path)

    def test_gemma_3_1b_as_q6_k_is_refused(self):
        path = os.path.join(self.dir.name, "Gemma-3-1B-Q6_K.gguf")
        with open(path, "wb") as f:
            f.write(gguf_bytes([("token_embd.weight", "Q6_K", [1152, 262144], b"")]))
        out = subprocess.run([CLI, "--weights", path, "--ids", "1"], capture_output=True, text=True)
        self.assertEqual(out.returncode, 2)
        self.assertIn(
            "has rows of ne[0] = 1152 values, not a whole number of Q6_K blocks of 256", out.stderr
        )


if __name__ == "__main__":
    unittest.main(verbosity=2)
