"""Next-token training through the output layer, tied and untied, against live PyTorch 1.13.

PyTorch trains `F.cross_entropy(head(embedding(seq[:-1])), seq[1:])` with the head's weight the
embedding's (tied) or its own, drawn right after the table (untied), with SGD, SGD with momentum
and Adam. What embedlab must reproduce exactly: both tables as drawn (bit for bit), and the rows
of embedding.weight each step changes (tied: every row, every step). What it computes with other
summation orders (its GEMM against PyTorch's BLAS, the C library's exp against PyTorch's
vectorised one): the loss, the logits and the weights after each step, graded here as the core
grades (within 2^-12 of the largest magnitude), the largest difference in ulps printed.
Then the CLI's `train --head` printout is replayed in torch: every printed step, the losses as
numbers, the weights to their last printed digit, the changed rows exactly.

Usage: test_objective_vs_torch.py --driver PATH/objective_torch_driver (EMBEDLAB_CLI: the CLI)
"""
import os
import re
import subprocess
import sys
import unittest
from pathlib import Path

from oracle import f32, prepare, run_driver  # before torch: it clears ATEN_CPU_CAPABILITY
import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from next_token_model import next_token_forward, next_token_model  # noqa: E402

ARGS = prepare(__doc__, "objective_torch_driver")
CLI = os.environ["EMBEDLAB_CLI"]
NUMBER = re.compile(r"-?\d+\.\d+(?:e[+-]\d+)?")

OPTIMIZERS = {
    "sgd": (lambda p: torch.optim.SGD(p, lr=0.5), "kind=sgd lr=0.5 momentum=0"),
    "momentum": (
        lambda p: torch.optim.SGD(p, lr=0.5, momentum=0.9),
        "kind=sgd lr=0.5 momentum=0.9",
    ),
    "adam": (lambda p: torch.optim.Adam(p, lr=0.05), "kind=adam lr=0.05 momentum=0"),
}
CASES = [  # seed, V, d, batches
    (7, 6, 3, [[1, 2, 3], [3, 3, 0], [0, 1, 2, 3, 4]]),
    (123, 50, 8, [[40, 3, 28, 14], [18, 36, 4, 27], [5, 5, 5]]),
    (3, 300, 16, [[299, 0, 150, 7, 7, 8], [1, 2]]),
]


def ulps(a, b):
    ordered = lambda x: np.where(
        x.view(np.uint32) >= 2**31,
        -(x.view(np.uint32).astype(np.int64) - 2**31),
        x.view(np.uint32).astype(np.int64),
    )
    return int(np.abs(ordered(a) - ordered(b)).max())


class Graded(unittest.TestCase):
    def assert_graded(self, mine, theirs, what):
        diff = float(np.abs(mine.astype(np.float64) - theirs).max())
        scale = float(max(np.abs(mine).max(), np.abs(theirs).max()))
        self.assertLessEqual(diff, scale / 4096, f"{what}: more than rounding ({diff:.4e})")
        return diff

    def test_every_optimizer_tied_and_untied(self):
        for name, (make, options) in OPTIMIZERS.items():
            for head in ("tied", "untied"):
                for seed, vocab, dim, batches in CASES:
                    with self.subTest(optimizer=name, head=head, V=vocab):
                        self.check(make, options, head, seed, vocab, dim, batches)

    def check(self, make, options, head_kind, seed, vocab, dim, batches):
        embedding, head, params = next_token_model(seed, vocab, dim, head_kind)
        opt = make(params)
        line = (
            f"train seed={seed} V={vocab} d={dim} head={head_kind} {options} batches="
            + ";".join(",".join(map(str, b)) for b in batches)
        )
        table = vocab * dim
        want = 2 * table + sum(1 + (len(b) - 1) * vocab + 2 * table + vocab for b in batches)
        ours = run_driver(ARGS.driver, [line], want, "train", 120)
        at = 0

        def take(count):
            nonlocal at
            at += count
            return ours[at - count : at]

        self.assertTrue(
            np.array_equal(take(table).view(np.uint32), f32(embedding.weight).view(np.uint32)),
            "embedding drawn",
        )
        self.assertTrue(
            np.array_equal(take(table).view(np.uint32), f32(head.weight).view(np.uint32)),
            "head drawn",
        )
        worst = 0
        for k, batch in enumerate(batches):
            seq = torch.tensor(batch)
            opt.zero_grad()
            _, logits, loss = next_token_forward(embedding, head, seq)
            before = embedding.weight.detach().clone()
            loss.backward()
            opt.step()
            mine_loss = take(1)
            self.assert_graded(mine_loss, f32(loss), f"step {k + 1} loss")
            self.assert_graded(take((len(batch) - 1) * vocab), f32(logits), f"step {k + 1} logits")
            mine_w = take(table)
            self.assert_graded(mine_w, f32(embedding.weight), f"step {k + 1} embedding.weight")
            worst = max(worst, ulps(mine_w, f32(embedding.weight)))
            self.assert_graded(take(table), f32(head.weight), f"step {k + 1} head.weight")
            changed = before.view(torch.int32) != embedding.weight.detach().view(torch.int32)
            theirs = changed.any(1).numpy().astype(np.float32)
            self.assertEqual(take(vocab).tolist(), theirs.tolist(), f"step {k + 1} rows changed")
            if head_kind == "tied" and vocab <= 50:  # (a larger V has rows whose share rounds away)
                self.assertTrue(theirs.all(), "tied: every row moves every step")
        print(
            f"  {head_kind} {options.split()[0]} V={vocab}: weights at most {worst} ulps apart",
            file=sys.stderr,
        )


def replay(test, stdout):
    scope = {"torch": torch}
    for line in stdout.split("\n\n", 1)[0].splitlines():
        exec(line[2:], scope)
    blocks = re.findall(r"^>>> (.*)\n((?:.+\n)+)", stdout, re.MULTILINE)
    comments = [line for line in stdout.splitlines() if line.startswith("# step ")]
    measured = []
    for code, printed in blocks:
        *statements, last = code.split("; ")
        before = scope["embedding"].weight.detach().clone() if "opt.step()" in code else None
        for statement in statements:
            exec(statement, scope)
        theirs, mine = str(eval(last, scope)), printed.rstrip("\n")
        with test.subTest(step=code[:50]):
            if last == "loss.item()":
                test.assertAlmostEqual(float(mine), float(theirs), delta=abs(float(theirs)) * 1e-5)
            else:
                test.assertEqual(NUMBER.sub("#", mine), NUMBER.sub("#", theirs))
                a = np.array([float(x) for x in NUMBER.findall(mine)])
                b = np.array([float(x) for x in NUMBER.findall(theirs)])
                test.assertLessEqual(float(np.abs(a - b).max()), 1.00001e-4)
        if before is not None:
            after = scope["embedding"].weight.detach()
            measured.append(
                (before.view(torch.int32) != after.view(torch.int32))
                .any(1)
                .nonzero()
                .flatten()
                .tolist()
            )
    listed = [
        [int(x) for x in re.findall(r"\d+", re.sub(r"\([^)]*\)", "", c.split(" changed ")[1]))]
        for c in comments
    ]
    test.assertEqual(listed, measured)
    return listed


class Printout(unittest.TestCase):
    def run_cli(self, *args):
        out = subprocess.run([CLI, "train", *args], capture_output=True, text=True, timeout=60)
        self.assertEqual(out.returncode, 0, out.stderr)
        return out.stdout

    def test_tied_moves_every_row(self):
        stdout = self.run_cli(
            "--ids", "1,2,3; 3,3,0", "-V", "6", "-d", "3", "--seed", "7", "--head", "tied"
        )
        self.assertEqual(replay(self, stdout), [list(range(6))] * 2)
        self.assertIn(
            "# step 1 changed rows 0 (the tied head), 1, 2 (in the batch), 3, 4, 5 "
            "(the tied head)",
            stdout,
        )

    def test_untied_sgd_moves_the_input_rows(self):
        stdout = self.run_cli(
            "--ids", "1,2,3; 3,3,0", "-V", "6", "-d", "3", "--seed", "7", "--head", "untied"
        )
        self.assertEqual(replay(self, stdout), [[1, 2], [3]])

    def test_untied_with_momentum_and_adam(self):
        for args in (["--optimizer", "sgd", "--momentum", "0.9"], ["--optimizer", "adam"]):
            with self.subTest(args=args):
                stdout = self.run_cli(
                    "--ids", "1,2,3; 3,3,0; 4,5", "-V", "6", "-d", "3", "--head", "untied", *args
                )
                self.assertEqual(replay(self, stdout), [[1, 2], [1, 2, 3], [1, 2, 3, 4]])

    def test_refusals(self):
        for args, message in (
            (["--ids", "1,2", "--head", "shared"], "the head must be 'tied'"),
            (
                ["--ids", "1,2", "--head", "tied", "--sparse"],
                "leave --sparse and --padding-idx out",
            ),
            (["--head", "tied", "--ids", "1,2; 3"], "a sequence of 1 id has no next token"),
        ):
            out = subprocess.run([CLI, "train", *args], capture_output=True, text=True, timeout=60)
            self.assertEqual(out.returncode, 2, args)
            self.assertEqual(out.stdout, "")
            self.assertIn(message, out.stderr)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"], verbosity=1)
