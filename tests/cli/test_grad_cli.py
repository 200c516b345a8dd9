"""The backward and bag walk-throughs, run as a user would run them.

Every `>>> code` step the CLI prints is run in real PyTorch (after the set-up its header states)
and PyTorch's printed result must match the CLI's text character for character. Bad input must
exit with status 2 and a specific message on stderr.

Usage: test_grad_cli.py PATH/embedlab
"""
import os
import re
import subprocess
import sys
import tempfile
import unittest

CLI = sys.argv.pop(1)

try:
    import numpy as np
    import torch
except ImportError:
    torch = None


def run(*args):
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=60)


def steps(stdout):
    """(code, printed result) for every '>>> ' step."""
    blocks = re.findall(r"^>>> (.*)\n((?:.+\n)+)", stdout, re.MULTILINE)
    return [(code, result.rstrip("\n")) for code, result in blocks]


def setup_code(stdout):
    """The set-up the header comments state: the seed and module, idx, offsets, psw."""
    lines = [line[2:] for line in stdout.splitlines() if line.startswith("# ")][:3]
    code = [lines[0]]
    for line in lines[1:]:
        code += re.findall(r"(?:idx|offsets|psw) = torch\.tensor\(\[[^\]]*\]\)", line)
    return code


def replay(test, stdout, skip=(), module=None):
    """Runs each step in torch and compares what it prints. `module` makes the table where the
    header states no code for it (--tf-weights, --weights)."""
    scope = {"torch": torch, "np": np}
    code = setup_code(stdout)
    test.assertGreaterEqual(len(steps(stdout)), 4, "the walk-through's steps were not found")
    for line in ([module] if module else code[:1]) + code[1:]:
        exec(line, scope)
    for code, printed in steps(stdout):
        *statements, last = code.split("; ")
        # "onehot = F.one_hot(idx, 4)" prints what it assigns, as the notebooks do.
        target, _, value = last.partition(" = ")
        if value and target.isidentifier():
            statements.append(last)
            last = target
        for statement in statements:
            exec(statement, scope)
        if last in skip:
            continue
        with test.subTest(step=code[:70]):
            test.assertEqual(str(eval(last, scope)), printed)


@unittest.skipIf(torch is None, "needs a Python with torch")
class ReplayedInPyTorch(unittest.TestCase):
    def check(self, *args, skip=(), module=None):
        out = run(*args)
        self.assertEqual(out.returncode, 0, out.stderr)
        replay(self, out.stdout, skip, module)
        return out.stdout

    def test_forward_replayed_to_torch_equal(self):
        # Every step of the forward walk-through, the last torch.equal of both routes: True for
        # the notebook's table and for a -0.0 in W (the product's +0.0 equals it in value), False
        # for a NaN in W (0 * NaN reaches every row of the product, and NaN equals nothing).
        torch_equal = ">>> torch.equal(embedding(idx), linear(onehot.float()))\n"
        self.assertIn(torch_equal + "True\n", self.check("--ids", "2,3,1"))
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "w.npy")
            for rows, equal in (([[1, -0.0], [3, 4]], "True"), ([[1, 2], [np.nan, 4]], "False")):
                np.save(path, np.array(rows, dtype=np.float32))
                stdout = self.check(
                    "--ids",
                    "0,1",
                    "--weights",
                    path,
                    module="embedding = torch.nn.Embedding.from_pretrained(torch.from_numpy("
                    f"np.load({path!r})), freeze=False); linear = torch.nn.Linear(2, 2, bias=False)",
                )
                self.assertIn(torch_equal + equal + "\n", stdout)

    def test_backward_default(self):
        stdout = self.check("backward")
        self.assertIn(
            "# embedding.weight.grad vs onehot.T @ G: bit-identical. All 20 elements "
            "hold the same 32 bits in both results.\n",
            stdout,
        )

    def test_backward_duplicates_and_options(self):
        self.check("backward", "--ids", "2,3,1,3,3,0", "-V", "6", "-d", "3", "--seed", "7")
        stdout = self.check(
            "backward", "--ids", "1,1,0,2,1", "--padding-idx", "-2", "--scale-grad-by-freq"
        )
        self.assertIn(
            "# padding_idx = -2 (row 1): row 1 of the scatter-add gets no gradient, "
            "though 3 tokens have id 1; onehot.T @ G knows nothing of padding_idx",
            stdout,
        )
        self.assertIn(
            "# scale_grad_by_freq: each row of the scatter-add is divided by how often "
            "its id occurs in idx; onehot.T @ G knows nothing of it.",
            stdout,
        )

    def test_backward_max_norm(self):
        for norm_type in ("2", "1", "3.5", "inf"):
            stdout = self.check(
                "backward", "--ids", "0,2,2,3", "--max-norm", "1.5", "--norm-type", norm_type
            )
            self.assertIn("# max_norm: rows ", stdout)

    def test_backward_grad_seed_and_file(self):
        self.check("backward", "--ids", "1,0", "--grad-seed", "5")
        stdout = self.check(
            "backward",
            "--ids",
            "1,0",
            "--tf-weights",
            module="embedding = torch.nn.Embedding.from_pretrained("
            "torch.tensor([[0.0] * 5, [0.11] * 5]), freeze=False)",
        )
        self.assertIn(">>> torch.manual_seed(123); G = torch.randn(2, 5); G", stdout)
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "g.npy")
            np.save(path, np.arange(10, dtype=np.float32).reshape(2, 5) / 4)
            stdout = self.check("backward", "--ids", "1,1", "--grad", path)
            self.assertIn("# Row 1 receives the sum of several rows of G", stdout)

    def test_bag_modes(self):
        for mode in ("sum", "mean", "max"):
            stdout = self.check("bag", "--ids", "2,3,1,3,0", "--offsets", "0,2,2", "--mode", mode)
            self.assertIn("# bag 1 = idx[2:2] = []: empty, a row of zeros", stdout)

    def test_bag_options(self):
        stdout = self.check(
            "--ids",
            "2,3,1",
            "bag",
            "--offsets",
            "0,1",
            "--mode",
            "sum",
            "--per-sample-weights",
            "1, 2, -0.5",
        )
        self.assertIn("# psw = torch.tensor([1.0, 2.0, -0.5])", stdout)
        self.check(
            "bag",
            "--ids",
            "0,1,1,2",
            "--offsets",
            "0,2,4",
            "--include-last-offset",
            "--padding-idx",
            "2",
            "--mode",
            "mean",
        )
        self.check(
            "bag",
            "--ids",
            "3,3,1",
            "--offsets",
            "0,1",
            "--padding-idx",
            "1",
            "--mode",
            "sum",
            "--per-sample-weights",
            "0.5,0.25,2",
        )

    def test_bag_scale_grad_by_freq(self):
        # Both ids occur twice: PyTorch 1.13's miscount (#190063) does not show.
        self.check(
            "bag", "--ids", "1,1,3,3", "--offsets", "0,3", "--mode", "sum", "--scale-grad-by-freq"
        )
        # Id 1 twice, id 3 once: PyTorch divides row 3 by 2; the CLI says so and differs there.
        stdout = self.check(
            "bag",
            "--ids",
            "1,1,3",
            "--mode",
            "sum",
            "--scale-grad-by-freq",
            skip=("bag.weight.grad",),
        )
        self.assertIn("pytorch/pytorch#190063", stdout)


class KeyLines(unittest.TestCase):
    def test_forward_stays_the_default(self):
        out = run("--ids", "2,3,1")
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn(">>> linear(onehot.float())", out.stdout)
        self.assertNotIn("backward(G)", out.stdout)

    def test_table_options_work_on_either_side_of_the_subcommand(self):
        before = run("--ids", "4,1", "-d", "3", "backward")
        after = run("backward", "--ids", "4,1", "-d", "3")
        self.assertEqual(before.returncode, 0, before.stderr)
        self.assertEqual(before.stdout, after.stdout)
        self.assertIn("torch.nn.Embedding(5, 3)", before.stdout)

    def test_bag_reports_the_multi_hot_product(self):
        out = run("bag", "--ids", "2,3,1", "--offsets", "0,2", "--mode", "sum")
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn(">>> M @ bag.weight", out.stdout)
        self.assertIn(
            "# out vs M @ bag.weight: bit-identical. All 10 elements hold the same 32 "
            "bits in both results.\n",
            out.stdout,
        )

    def test_help_lists_the_subcommands(self):
        out = run("--help")
        self.assertEqual(out.returncode, 0)
        self.assertIn("backward", out.stdout)
        self.assertIn("bag", out.stdout)


class BadInput(unittest.TestCase):
    def check(self, message, *args):
        out = run(*args)
        self.assertEqual(out.returncode, 2, out.stdout)
        self.assertIn(message, out.stderr)
        self.assertEqual(out.stdout, "")

    def test_backward(self):
        self.check("max_norm must be a positive number", "backward", "--max-norm", "-1")
        self.check("--norm-type requires --max-norm", "backward", "--norm-type", "1")
        self.check("--grad excludes --grad-seed", "backward", "--grad", "g.npy", "--grad-seed", "1")
        self.check(
            "id 7 at position 2 is not below the vocabulary size V = 4",
            "backward",
            "--ids",
            "1,7",
            "-V",
            "4",
        )

    def test_backward_grad_file_shape(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "g.npy")
            with open(path, "wb") as f:  # a (1, 5) float32 .npy, written by hand
                header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 5), }"
                header += " " * (118 - len(header)) + "\n"
                f.write(b"\x93NUMPY\x01\x00" + bytes([len(header), 0]) + header.encode())
                f.write(bytes(20))
            self.check(
                "is 1 x 5 but the upstream gradient dL/dout must be (3, 5)",
                "backward",
                "--grad",
                path,
            )

    def test_bag(self):
        self.check(
            "offsets[0] = 1 but the first bag must start at the first id", "bag", "--offsets", "1,2"
        )
        self.check("offsets[2] = 1 is less than offsets[1] = 2", "bag", "--offsets", "0,2,1")
        self.check("offsets[1] = 9 is past the end of the ids", "bag", "--offsets", "0,9")
        self.check('--offsets: token 2 is "x"', "bag", "--offsets", "0,x")
        self.check(
            "only supported for mode='sum' (got mode='mean')",
            "bag",
            "--per-sample-weights",
            "1,2,3",
        )
        self.check(
            "per_sample_weights has 2 values but there are 3 ids",
            "bag",
            "--mode",
            "sum",
            "--per-sample-weights",
            "1,2",
        )
        self.check(
            'per_sample_weights: value 2 is "y", which is not a finite number',
            "bag",
            "--mode",
            "sum",
            "--per-sample-weights",
            "1,y,3",
        )
        self.check("must be n = 3", "bag", "--offsets", "0,2", "--include-last-offset")
        self.check("mode must be 'sum', 'mean' or 'max', got 'foo'", "bag", "--mode", "foo")


if __name__ == "__main__":
    unittest.main(verbosity=1)
