"""The walk-through must print the notebooks' tensors verbatim.

Every `tensor(...)` block printed in the notebooks (PyTorch's own output, kept verbatim in
tests/fixtures/notebooks/) is cut out of the notebook text and must appear, character for
character, in the CLI's output for the same ids.
Bad input must exit with status 2 and a specific message on stderr.
"""
import os
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import numpy as np

CLI = sys.argv.pop(1)
NOTEBOOKS = Path(sys.argv.pop(1))


def printed_tensors(text):
    """The tensor(...) blocks a notebook printed (they start a line; code and comments don't),
    with 'Parameter containing:' headers kept."""
    blocks = []
    for m in re.finditer(r"^(Parameter containing:\n)?tensor\(", text, re.MULTILINE):
        depth, i = 0, m.end() - 1
        while True:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            if depth == 0:
                break
            i += 1
        blocks.append(text[m.start() : i + 1])
    return blocks


def run(*args):
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=60)


class NotebookOutput(unittest.TestCase):
    def check_notebook(self, notebook_file, ids, expected_blocks):
        blocks = printed_tensors((NOTEBOOKS / notebook_file).read_text())
        self.assertEqual(
            len(blocks), expected_blocks, "the notebook's printed tensors were not all found"
        )
        out = run("--ids", ids)
        self.assertEqual(out.returncode, 0, out.stderr)
        for block in blocks:
            with self.subTest(block=block[:60]):
                self.assertIn(block, out.stdout)
        self.assertIn(
            "# embedding(idx) vs linear(onehot.float()): bit-identical. All "
            f"{len(ids.split(',')) * 5} elements hold the same 32 bits in both results.\n",
            out.stdout,
        )

    def test_seed_002_ids_2_3_1(self):
        # weight, two single lookups, idx lookup, one-hot, fresh Linear weight, product, lookup again
        self.check_notebook("002.txt", "2,3,1", 8)

    def test_seed_004_ids_3_2_0_1(self):
        # weight, one single lookup, idx lookup, one-hot, fresh Linear weight, the assigned
        # transpose, product, lookup again
        self.check_notebook("004.txt", "3,2,0,1", 8)

    def test_tf_fixed_weights(self):
        out = run("--ids", "2,3,1", "--tf-weights")
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn(
            "tensor([[0.2200, 0.2200, 0.2200, 0.2200, 0.2200],\n"
            "        [0.3300, 0.3300, 0.3300, 0.3300, 0.3300],\n"
            "        [0.1100, 0.1100, 0.1100, 0.1100, 0.1100]]",
            out.stdout,
        )


class GradedVerdict(unittest.TestCase):
    """The verdict line for tables that make the two routes part ways; each sentence is written
    out as the page prints it."""

    def verdict_line(self, table, ids):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "w.npy")
            np.save(path, np.array(table, dtype=np.float32))
            out = run("--ids", ids, "--weights", path)
        self.assertEqual(out.returncode, 0, out.stderr)
        return next(
            line for line in out.stdout.splitlines() if line.startswith("# embedding(idx) vs")
        )

    def test_negative_zero_is_equal_in_value(self):
        # The lookup copies W[0, 0] = -0.0; the product sums 1*(-0.0) + 0*2 = +0.0.
        self.assertEqual(
            self.verdict_line([[-0.0, 1], [2, 3]], "0,1"),
            "# embedding(idx) vs linear(onehot.float()): equal in value. 1 of 4 "
            "elements differ only in the sign of zero: the lookup copies a −0.0 of W "
            "as it is, while the product adds +0.0 terms (0·w), and −0.0 + 0.0 = +0.0.",
        )

    def test_inf_makes_nan_in_the_product(self):
        # Row 0 of the product is 0*Inf + 1*2 = NaN in column 0.
        self.assertEqual(
            self.verdict_line([[float("inf"), 1], [2, 3]], "1,0"),
            "# embedding(idx) vs linear(onehot.float()): differs. 1 of 4 elements "
            "are NaN in one result only: W holds an Inf or NaN, and the product "
            "multiplies it by the one-hot zeros: 0·Inf = NaN, which poisons every "
            "output row, while the lookup copies rows untouched.",
        )


class BadInput(unittest.TestCase):
    """What only the CLI is asked: its files and options. The bad ids, sizes and files every front
    end shares are the conformance list's (tests/fixtures/bad-inputs.json, tests/conformance)."""

    def check_error(self, args, *fragments):
        out = run(*args)
        self.assertEqual(out.returncode, 2, out.stdout + out.stderr)
        self.assertEqual(out.stdout, "")
        for fragment in fragments:
            self.assertIn(fragment, out.stderr)

    def test_missing_weights_file(self):
        self.check_error(["--ids", "1", "--weights", "/nonexistent/w.npy"], "/nonexistent/w.npy")

    def test_conflicting_sources(self):
        self.check_error(["--ids", "1", "--seed", "1", "--tf-weights"], "excludes")

    def test_help_has_examples(self):
        out = run("--help")
        self.assertEqual(out.returncode, 0)
        self.assertIn("Examples:", out.stdout)


if __name__ == "__main__":
    unittest.main(verbosity=2)
