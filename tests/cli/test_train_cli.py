"""The train walk-through, run as a user would run it.

Every `>>> code` step the CLI prints is run in real PyTorch after the set-up its header states,
and PyTorch's printed result must match the CLI's text character for character; the rows each
step changed are PyTorch's (bits compared before and after opt_e.step()), and the verdict line is
graded from PyTorch's own two weights. The rows the issue measured for V = 6, d = 3 and batches
[1, 2], [3, 3], [0, 1] are asserted as a table. Refusals exit with status 2 and PyTorch's own
reason, taken from PyTorch raising it.

Usage: test_train_cli.py PATH/embedlab
"""
import re
import subprocess
import sys
import unittest
from pathlib import Path

CLI = sys.argv.pop(1)

try:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "torch"))
    from oracle import SKIP, cpu_has_avx2_fma  # before torch: it clears ATEN_CPU_CAPABILITY
    import numpy as np
    import torch
except (ImportError, SystemExit):
    torch = None


def run(*args):
    return subprocess.run([CLI, "train", *args], capture_output=True, text=True, timeout=60)


# The verdict's reasons for the two training pairs, as the core words them.
REASONS = {
    False: "the scatter-add adds the rows of G of an id repeated three or more times in position "
    "order, onehot.T @ G in its own blocked order, so the two gradients round differently, "
    "and every optimizer step carries the difference into the weight",
    True: "the sparse gradient is stepped with other float32 operations than the Linear route's "
    "dense one: a repeated id's rows of G are applied one at a time or summed in sorted "
    "order, and Adagrad's sparse branch squares, adds and divides in another order, so each "
    "rounds differently",
}


def verdict_line(expected, actual, sparse):
    """The CLI's verdict line for two float32 arrays, graded here from their bits."""
    a, b = expected.ravel(), actual.ravel()
    n = a.size
    same_bits = a.view(np.uint32) == b.view(np.uint32)
    both_nan = np.isnan(a) & np.isnan(b)
    value_equal = same_bits | both_nan | (a == b)
    prefix = "# embedding.weight vs linear.weight.T: "
    of_all = lambda k: f"{k:,} of {n:,} elements"
    if same_bits.all():
        return prefix + f"bit-identical. All {n:,} elements hold the same 32 bits in both results."
    if value_equal.all():
        zeros = int(((a == 0) & ~same_bits).sum())
        return (
            prefix + f"equal in value. {of_all(zeros)} differ only in the sign of zero: the "
            "two routes start their sums differently, and −0.0 + 0.0 = +0.0."
        )
    ordered = lambda x: np.where(
        x.view(np.uint32) >= 2**31,
        -(x.view(np.uint32).astype(np.int64) - 2**31),
        x.view(np.uint32).astype(np.int64),
    )
    ulps = int(np.abs(ordered(a) - ordered(b))[~same_bits].max())
    diff = float(np.abs(a.astype(np.float64) - b).max())
    scale = float(max(np.abs(a).max(), np.abs(b).max()))
    largest = (
        f"the largest difference is {ulps:,} {'ulp' if ulps == 1 else 'ulps'}, "
        f"|diff| = {diff:.4e}"
    )
    differing = int((~value_equal).sum())
    if diff <= scale / 4096:
        return (
            prefix + f"equal up to rounding. {of_all(differing)} differ in the last bits "
            f"({largest}): {REASONS[sparse]}."
        )
    return (
        prefix + f"differs. {of_all(differing)} differ by more than rounding explains "
        f"({largest}, over 2^-12 of the largest magnitude, {scale:.4e})."
    )


def header_code(stdout):
    """The set-up: the comment lines before the first blank line, as code."""
    head = stdout.split("\n\n", 1)[0]
    return [line[2:] for line in head.splitlines()]


def changed_rows(line):
    """'# step 2 changed rows 1, 2 (momentum), 3 (in the batch), 4..13 (...)' -> [1, 2, ..., 13]."""
    listed = re.sub(r"\([^)]*\)", "", line.split(" changed ", 1)[1])
    return [
        r
        for a, b in re.findall(r"(\d+)(?:\.\.(\d+))?", listed)
        for r in range(int(a), int(b or a) + 1)
    ]


def replay(test, stdout):
    """Runs the printout in torch: each step's printed result, the changed rows and the verdict.
    Returns the rows each step changed, as PyTorch changed them."""
    scope = {"torch": torch}
    for line in header_code(stdout):
        exec(line, scope)
    blocks = re.findall(r"^>>> (.*)\n((?:.+\n)+)", stdout, re.MULTILINE)
    comments = [line for line in stdout.splitlines() if line.startswith("# step ")]
    verdicts = [
        line
        for line in stdout.splitlines()
        if line.startswith("# embedding.weight vs linear.weight.T: ")
    ]
    test.assertGreaterEqual(len(blocks), 3, "the walk-through's steps were not found")
    sparse = "sparse=True" in stdout.split("\n", 2)[1]
    measured = []
    for code, printed in blocks:
        *statements, last = code.split("; ")
        before = None
        for statement in statements:
            if statement == "opt_e.step()":
                before = scope["embedding"].weight.detach().clone()
            exec(statement, scope)
        with test.subTest(step=code[:70]):
            test.assertEqual(str(eval(last, scope)), printed.rstrip("\n"))
        if before is not None:
            after = scope["embedding"].weight.detach()
            rows = (before.view(torch.int32) != after.view(torch.int32)).any(1)
            measured.append(rows.nonzero().flatten().tolist())
        if last.startswith("torch.equal("):
            mine = verdicts.pop(0)
            with test.subTest(verdict=code[:40]):
                test.assertEqual(
                    mine,
                    verdict_line(
                        scope["embedding"].weight.detach().numpy(),
                        scope["linear"].weight.T.detach().numpy(),
                        sparse,
                    ),
                )
    test.assertEqual([changed_rows(c) for c in comments], measured)
    return measured


@unittest.skipIf(torch is None, "needs a Python with torch")
class ReplayedInPyTorch(unittest.TestCase):
    def check(self, *args):
        out = run(*args)
        self.assertEqual(out.returncode, 0, out.stderr)
        return out.stdout, replay(self, out.stdout)

    def test_every_optimizer_dense(self):
        for args in (
            ["--optimizer", "sgd"],
            [
                "--optimizer",
                "sgd",
                "--momentum",
                "0.9",
                "--nesterov",
                "--weight-decay",
                "0.1",
                "--maximize",
            ],
            ["--optimizer", "sgd", "--momentum", "0.5", "--dampening", "0.5"],
            ["--optimizer", "adam", "--lr", "0.1", "--amsgrad"],
            ["--optimizer", "adam", "--betas", "0.5,0.9", "--eps", "1e-3", "--weight-decay", "0.2"],
            ["--optimizer", "adamw", "--weight-decay", "0.5", "--lr", "0.05"],
            [
                "--optimizer",
                "adagrad",
                "--lr-decay",
                "0.5",
                "--initial-accumulator-value",
                "0.1",
                "--weight-decay",
                "0.01",
            ],
            ["--optimizer", "rmsprop", "--alpha", "0.9", "--momentum", "0.5", "--centered"],
        ):
            with self.subTest(args=" ".join(args)):
                self.check("--ids", "1,2; 3,3; 0,1; 4; 2,0", "-d", "3", "--seed", "7", *args)

    def test_sparse_optimizers(self):
        for args in (
            ["--optimizer", "sgd", "--momentum", "0.9"],
            ["--optimizer", "sparse-adam", "--lr", "0.1"],
            ["--optimizer", "adagrad", "--maximize"],
        ):
            with self.subTest(args=" ".join(args)):
                stdout, _ = self.check(
                    "--ids", "1,2; 3,3; 0,1", "-V", "6", "-d", "3", "--sparse", *args
                )
                self.assertIn(", sparse=True)", stdout)

    def test_sparse_sgd_applies_a_repeated_id_twice(self):
        # Row 3's two entries are applied one at a time, the Linear route's sum at once.
        stdout, _ = self.check(
            "--ids",
            "3,3,3,3; 3,1,3",
            "-V",
            "5",
            "-d",
            "8",
            "--sparse",
            "--optimizer",
            "sgd",
            "--lr",
            "0.7",
        )
        self.assertIn("equal up to rounding", stdout)

    def test_sparse_adam_leaves_the_linear_route_out(self):
        stdout, _ = self.check("--ids", "1,2; 3", "--sparse", "--optimizer", "sparse-adam")
        self.assertIn(
            "# the Linear route cannot follow: torch.optim.SparseAdam(linear.parameters(), "
            "lr=0.001) refuses linear.weight's dense gradient: SparseAdam does not "
            "support dense gradients, please consider Adam instead",
            stdout,
        )
        self.assertNotIn("opt_l", stdout)

    def test_padding_idx(self):
        stdout, measured = self.check(
            "--ids",
            "1,2; 2,3; 0,2",
            "-d",
            "3",
            "--padding-idx",
            "2",
            "--optimizer",
            "adam",
            "--lr",
            "0.1",
        )
        self.assertIn("torch.nn.Embedding(4, 3, padding_idx=2)", stdout)
        self.assertTrue(all(2 not in rows for rows in measured))
        self.assertIn(
            "# the Linear route knows nothing of padding_idx: its row 2 moved, the "
            "embedding's did not",
            stdout,
        )
        self.assertIn("linear.weight.T: differs.", stdout)


@unittest.skipIf(torch is None, "needs a Python with torch")
class MeasuredTable(unittest.TestCase):
    """V = 6, d = 3, batches [1, 2], [3, 3], [0, 1]: the rows each step changes."""

    BATCH = [[1, 2], [3], [0, 1]]
    MOMENTUM = [[1, 2], [1, 2, 3], [0, 1, 2, 3]]
    EVERY = [list(range(6))] * 3
    TABLE = [
        (["--optimizer", "sgd"], BATCH),
        (["--optimizer", "sgd", "--momentum", "0.9"], MOMENTUM),
        (["--optimizer", "sgd", "--weight-decay", "0.01"], EVERY),
        (["--optimizer", "adam"], MOMENTUM),
        (["--optimizer", "adamw"], EVERY),
        (["--optimizer", "adagrad"], BATCH),
        (["--optimizer", "rmsprop"], BATCH),
        (["--sparse", "--optimizer", "sgd"], BATCH),
        (["--sparse", "--optimizer", "sparse-adam"], BATCH),
        (["--sparse", "--optimizer", "adagrad"], BATCH),
    ]

    def test_rows_changed_per_step(self):
        for args, expected in self.TABLE:
            with self.subTest(args=" ".join(args)):
                out = run("--ids", "1,2; 3,3; 0,1", "-V", "6", "-d", "3", *args)
                self.assertEqual(out.returncode, 0, out.stderr)
                lines = [line for line in out.stdout.splitlines() if line.startswith("# step ")]
                self.assertEqual([changed_rows(line) for line in lines], expected)
                self.assertEqual(replay(self, out.stdout), expected)

    def test_sparse_adam_is_refused(self):
        out = run("--ids", "1,2; 3,3; 0,1", "-V", "6", "-d", "3", "--sparse", "--optimizer", "adam")
        self.assertEqual(out.returncode, 2)
        self.assertEqual(out.stdout, "")
        self.assertIn(
            "Adam does not support sparse gradients, please consider SparseAdam instead", out.stderr
        )

    def test_why_rows_changed(self):
        def lines(*args):
            out = run("--ids", "1,2; 3,3; 0,1", "-V", "6", "-d", "3", *args)
            return [line for line in out.stdout.splitlines() if line.startswith("# step ")]

        self.assertEqual(
            lines("--optimizer", "sgd", "--momentum", "0.9"),
            [
                "# step 1 changed rows 1, 2 (in the batch)",
                "# step 2 changed rows 1, 2 (momentum), 3 (in the batch)",
                "# step 3 changed rows 0, 1 (in the batch), 2, 3 (momentum)",
            ],
        )
        self.assertEqual(
            lines("--optimizer", "adam")[1],
            "# step 2 changed rows 1, 2 (optimizer state), 3 (in the batch)",
        )
        self.assertEqual(
            lines("--optimizer", "adamw")[0],
            "# step 1 changed rows 0 (weight decay), 1, 2 (in the batch), "
            "3, 4, 5 (weight decay)",
        )


def torch_refusal(make, steps=((1, 2),), sparse=False, padding_idx=None):
    """The message PyTorch raises for make(params) trained on the batches."""
    embedding = torch.nn.Embedding(4, 3, sparse=sparse, padding_idx=padding_idx)
    try:
        optimizer = make(embedding.parameters())
        for batch in steps:
            optimizer.zero_grad()
            embedding(torch.tensor(batch)).backward(torch.randn(len(batch), 3))
            optimizer.step()
    except (ValueError, RuntimeError) as error:
        return str(error)
    raise AssertionError("PyTorch accepted it")


@unittest.skipIf(torch is None, "needs a Python with torch")
class Refusals(unittest.TestCase):
    def check(self, message, *args):
        out = run("--ids", "1,2; 3,0", *args)
        self.assertEqual(out.returncode, 2, out.stdout)
        self.assertEqual(out.stdout, "")
        self.assertIn(message, out.stderr)

    def test_pytorchs_own_reasons(self):
        optim = torch.optim
        cases = [
            (lambda p: optim.Adam(p), True, None, ["--sparse", "--optimizer", "adam"]),
            (lambda p: optim.AdamW(p), True, None, ["--sparse", "--optimizer", "adamw"]),
            (lambda p: optim.RMSprop(p), True, None, ["--sparse", "--optimizer", "rmsprop"]),
            (lambda p: optim.SparseAdam(p), False, None, ["--optimizer", "sparse-adam"]),
            (
                lambda p: optim.SGD(p, lr=0.1, weight_decay=0.1),
                True,
                None,
                ["--sparse", "--optimizer", "sgd", "--weight-decay", "0.1"],
            ),
            (
                lambda p: optim.Adagrad(p, weight_decay=0.1),
                True,
                None,
                ["--sparse", "--optimizer", "adagrad", "--weight-decay", "0.1"],
            ),
            (lambda p: optim.SGD(p, lr=-1.0), False, None, ["--lr", "-1"]),
            (lambda p: optim.SGD(p, lr=0.1, momentum=-0.5), False, None, ["--momentum", "-0.5"]),
            (lambda p: optim.SGD(p, lr=0.1, nesterov=True), False, None, ["--nesterov"]),
            (
                lambda p: optim.SGD(p, lr=0.1, momentum=0.9, dampening=0.1, nesterov=True),
                False,
                None,
                ["--momentum", "0.9", "--dampening", "0.1", "--nesterov"],
            ),
            (
                lambda p: optim.Adam(p, betas=(0.9, 1.0)),
                False,
                None,
                ["--optimizer", "adam", "--betas", "0.9,1"],
            ),
            (
                lambda p: optim.Adam(p, eps=-1e-8),
                False,
                None,
                ["--optimizer", "adam", "--eps", "-1e-8"],
            ),
            (
                lambda p: optim.AdamW(p, weight_decay=-0.01),
                False,
                None,
                ["--optimizer", "adamw", "--weight-decay", "-0.01"],
            ),
            (
                lambda p: optim.Adagrad(p, lr_decay=-1.0),
                False,
                None,
                ["--optimizer", "adagrad", "--lr-decay", "-1"],
            ),
            (
                lambda p: optim.Adagrad(p, initial_accumulator_value=-1.0),
                False,
                None,
                ["--optimizer", "adagrad", "--initial-accumulator-value", "-1"],
            ),
            (
                lambda p: optim.RMSprop(p, alpha=-0.5),
                False,
                None,
                ["--optimizer", "rmsprop", "--alpha", "-0.5"],
            ),
            (
                lambda p: optim.SparseAdam(p, lr=0.0),
                True,
                None,
                ["--sparse", "--optimizer", "sparse-adam", "--lr", "0"],
            ),
        ]
        for make, sparse, padding, args in cases:
            with self.subTest(args=" ".join(args)):
                self.check(torch_refusal(make, sparse=sparse, padding_idx=padding), *args)

    def test_a_batch_of_padding_alone(self):
        # Only a first gradient with no entries fails; later ones are no-ops.
        for name, optimizer in (
            ("sparse-adam", torch.optim.SparseAdam),
            ("adagrad", torch.optim.Adagrad),
        ):
            message = torch_refusal(
                lambda p: optimizer(p), steps=((2, 2),), sparse=True, padding_idx=2
            )
            out = run(
                "--ids",
                "2, 2; 1",
                "-V",
                "4",
                "-d",
                "3",
                "--sparse",
                "--padding-idx",
                "2",
                "--optimizer",
                name,
            )
            self.assertEqual(out.returncode, 2)
            self.assertEqual(out.stdout, "")
            self.assertIn(message, out.stderr)
            self.assertIn("every id of the first batch is padding_idx", out.stderr)
            out = run(
                "--ids",
                "1, 2; 2, 2; 2",
                "-V",
                "4",
                "-d",
                "3",
                "--sparse",
                "--padding-idx",
                "2",
                "--optimizer",
                name,
            )
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertEqual(
                [
                    changed_rows(line)
                    for line in out.stdout.splitlines()
                    if line.startswith("# step ")
                ],
                [[1], [], []],
            )

    def test_options_and_batches(self):
        self.check("torch.optim.Adam takes no momentum", "--optimizer", "adam", "--momentum", "0.9")
        self.check("torch.optim.SGD takes no betas", "--betas", "0.9,0.99")
        self.check(
            "optimizer must be one of 'sgd', 'adam', 'adamw', 'adagrad', 'rmsprop', "
            "'sparse-adam', got 'lion'",
            "--optimizer",
            "lion",
        )
        self.check(
            "--betas takes two numbers B1,B2, e.g. 0.9,0.999, got '0.9'",
            "--optimizer",
            "adam",
            "--betas",
            "0.9",
        )
        out = run("--ids", "1,2;;3")
        self.assertEqual(out.returncode, 2)
        self.assertIn("batch 2 is empty", out.stderr)
        out = run("--ids", "1,2; 3,x")
        self.assertEqual(out.returncode, 2)
        self.assertIn('batch 2: token 2 is "x"', out.stderr)
        out = run("--ids", "1,2; 7", "-V", "4")
        self.assertEqual(out.returncode, 2)
        self.assertIn("id 7 at position 3 is not below the vocabulary size V = 4", out.stderr)


if __name__ == "__main__":
    if torch is not None and not cpu_has_avx2_fma():
        print("SKIP: this CPU lacks AVX2/FMA, so PyTorch's optimizer kernels round otherwise")
        sys.exit(SKIP)
    unittest.main(verbosity=1)
