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

The chapter's loop (`train --max-length`): GPTDatasetV1's windows of one sequence through
DataLoader(batch_size, shuffle, drop_last=True), epoch after epoch, with and without positions.
Exactly: the DataLoader's order of windows every epoch (shuffle=True draws from the global
generator after the modules), the drawn tables (the head's init drawn tied or not), the rows each
step changes and which ids named them; graded: the losses, logits and weights. The CLI's printout
runs as PyTorch: its program (the comments at its top), each step replayed, and its loss lines
those of the issue's program.

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
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from next_token_model import (  # noqa: E402
    chapter_forward,
    chapter_loader,
    chapter_model,
    next_token_forward,
    next_token_model,
)

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


def reader(values):
    """take(count): the next count of values, from the first on."""
    at = 0

    def take(count):
        nonlocal at
        at += count
        return values[at - count : at]

    take.done = lambda: at == len(values)
    return take


class GradedCase(unittest.TestCase):
    def assert_graded(self, mine, theirs, what, loose=None, within=0.0):
        """Within 2^-12 of the largest magnitude; where `loose` (a mask of theirs' shape), within
        `within` instead."""
        diff = np.abs(mine.astype(np.float64) - np.asarray(theirs).reshape(-1))
        scale = float(max(np.abs(mine).max(), np.abs(theirs).max()))
        if loose is not None:
            loose = loose.reshape(-1)
            self.assertLessEqual(float(diff[loose].max(initial=0.0)), within, f"{what}: loose")
            diff = diff[~loose]
        worst = float(diff.max(initial=0.0))
        self.assertLessEqual(worst, scale / 4096, f"{what}: more than rounding ({worst:.4e})")
        return worst


class Graded(GradedCase):
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
        take = reader(ours)

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


def replay(test, stdout, table="embedding"):
    scope = {"torch": torch}
    for line in stdout.split("\n\n", 1)[0].splitlines():
        exec(line[2:], scope)
    blocks = re.findall(r"^>>> (.*)\n((?:.+\n)+)", stdout, re.MULTILINE)
    comments = [line for line in stdout.splitlines() if line.startswith("# step ")]
    measured = []
    for code, printed in blocks:
        *statements, last = code.split("; ")
        before = scope[table].weight.detach().clone() if "opt.step()" in code else None
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
                test.assertLessEqual(float(np.abs(a - b).max(initial=0.0)), 1.00001e-4)
        if before is not None:
            after = scope[table].weight.detach()
            measured.append(
                (before.view(torch.int32) != after.view(torch.int32))
                .any(1)
                .nonzero()
                .flatten()
                .tolist()
            )
    # "0..11, 12 (why)": the rows listed, a run a..b written out.
    runs = lambda text: [
        r
        for a, b in re.findall(r"(\d+)(?:\.\.(\d+))?", re.sub(r"\([^)]*\)", "", text))
        for r in range(int(a), int(b or a) + 1)
    ]
    listed = [runs(c.split(" changed ")[1]) for c in comments]
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
        # Seq [1, 2, 3]: inputs [1, 2], targets [2, 3]; tied, the head pulls the targets' rows.
        self.assertIn(
            "# step 1 changed rows 0 (the tied head), 1 (in the batch: input), 2 (in the batch: "
            "input and target), 3 (in the batch: target), 4, 5 (the tied head)",
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


LOADER_CASES = [  # n ids, max_length, stride, batch_size
    (9, 4, 4, 1),
    (10, 2, 1, 3),
    (37, 5, 2, 4),
    (300, 8, 3, 16),
    (65536, 1, 1, 4096),  # randperm of 65535 windows
]


class Loader(unittest.TestCase):
    def test_the_dataloaders_order_every_epoch(self):
        lines, want = [], []
        for seed in (0, 7, 123, 2**40 + 3):
            for n, length, stride, batch in LOADER_CASES:
                for shuffle in (False, True):
                    torch.manual_seed(seed)
                    loader = chapter_loader(list(range(n)), length, stride, batch, shuffle)
                    # Each batch's windows, by the first id of their inputs.
                    order = [
                        int(x[i, 0]) // stride
                        for _ in range(3)
                        for x, _ in loader
                        for i in range(len(x))
                    ]
                    want.append(order)
                    lines.append(
                        f"loader n={n} max_length={length} stride={stride} batch_size={batch} "
                        f"shuffle={int(shuffle)} seed={seed} epochs=3"
                    )
        ours = run_driver(ARGS.driver, lines, sum(map(len, want)), "loader", 120)
        at = 0
        for line, order in zip(lines, want):
            with self.subTest(line):
                self.assertEqual(ours[at : at + len(order)].astype(int).tolist(), order)
            at += len(order)


OPTIMIZERS_BY_NAME = {
    "adamw": (lambda p, lr: torch.optim.AdamW(p, lr=lr), "kind=adamw momentum=0"),
    "sgd": (lambda p, lr: torch.optim.SGD(p, lr=lr), "kind=sgd momentum=0"),
    "momentum": (lambda p, lr: torch.optim.SGD(p, lr=lr, momentum=0.9), "kind=sgd momentum=0.9"),
}
# seed, V, d, head, positions, max_length, stride, batch_size, shuffle, epochs, optimizer, lr, n ids
CHAPTER_CASES = [
    (7, 6, 3, "tied", True, 4, 1, 2, True, 3, "adamw", 0.05, 12),
    (123, 50, 8, "untied", False, 3, 2, 2, False, 2, "sgd", 0.5, 20),
    (3, 300, 16, "tied", False, 5, 5, 1, True, 2, "momentum", 0.1, 40),
    (11, 40, 4, "untied", True, 2, 3, 3, True, 4, "adamw", 0.01, 30),
    (2**33 + 5, 20, 2, "tied", True, 6, 4, 2, False, 3, "sgd", 0.3, 31),
    (0, 64, 5, "untied", True, 4, 1, 5, True, 2, "momentum", 0.2, 26),
]
# The page's defaults at GPT-2's size: its text's ids, two steps.
TEXT_IDS = [2025, 11525, 12083, 7679, 318, 257, 5752, 35847, 25, 262, 976, 15274, 1282, 422, 257]


# Adam divides each gradient by its own running magnitude: an element whose gradient is about
# its eps (1e-08), a far row's softmax share summed over positions that cancel, has last bits the
# summation order sets, and moves by up to lr either way. Such elements are held within lr a step.
TINY_GRAD = 1e-6


class ChapterTraining(GradedCase):
    def test_the_chapters_loop(self):
        rng = np.random.default_rng(5)
        cases = [(*c[:-1], rng.integers(0, c[1], c[-1]).tolist(), None) for c in CHAPTER_CASES] + [
            (123, 50257, 5, "tied", True, 4, 4, 2, True, 2, "adamw", 0.03, TEXT_IDS, None)
        ]
        for case in cases:
            with self.subTest(case=case[:-2]):
                self.check(*case)

    def check(
        self,
        seed,
        vocab,
        dim,
        head_kind,
        positions,
        length,
        stride,
        batch,
        shuffle,
        epochs,
        name,
        lr,
        ids,
        steps,
    ):
        make, options = OPTIMIZERS_BY_NAME[name]
        tok, pos, head, params = chapter_model(
            seed, vocab, dim, head_kind, length if positions else 0
        )
        drawn = [f32(tok.weight), f32(pos.weight) if pos else np.zeros(0, np.float32)]
        drawn.append(f32(head.weight))
        loader = chapter_loader(ids, length, stride, batch, shuffle)
        opt = make(params, lr)
        steps = epochs * len(loader) if steps is None else steps
        line = (
            f"windows seed={seed} V={vocab} d={dim} head={head_kind} {options} lr={lr} "
            f"positions={int(positions)} max_length={length} stride={stride} batch_size={batch} "
            f"shuffle={int(shuffle)} steps={steps} ids={','.join(map(str, ids))}"
        )
        n = batch * length
        sizes = [a.size for a in drawn]
        want = sum(sizes) + steps * (batch + 1 + n * vocab + sum(sizes) + 2 * vocab)
        ours = run_driver(ARGS.driver, [line], want, "windows", 300)
        take = reader(ours)

        for what, theirs in zip(("tok", "pos", "head"), drawn):
            self.assertTrue(
                np.array_equal(take(theirs.size).view(np.uint32), theirs.view(np.uint32)),
                f"{what}.weight drawn",
            )
        windows = {tuple(x.tolist()): i for i, (x, _) in enumerate(loader.dataset)}
        sensitive = np.zeros((vocab, dim), dtype=bool)
        k = 0
        for _ in range(epochs):
            for x, y in loader:
                if k == steps:
                    break
                k += 1
                mine_windows = take(batch).astype(int).tolist()
                theirs_windows = [windows[tuple(row.tolist())] for row in x]
                # Windows of equal ids are one: compare their inputs.
                self.assertEqual(
                    [loader.dataset[w][0].tolist() for w in mine_windows],
                    [loader.dataset[w][0].tolist() for w in theirs_windows],
                    f"step {k} windows",
                )
                before = tok.weight.detach().clone()
                opt.zero_grad()
                _, logits, loss = chapter_forward(tok, pos, head, x, y)
                loss.backward()
                if name == "adamw":
                    sensitive |= tok.weight.grad.abs().numpy() < TINY_GRAD
                opt.step()
                self.assert_graded(take(1), f32(loss), f"step {k} loss")
                self.assert_graded(take(n * vocab), f32(logits), f"step {k} logits")
                self.assert_graded(
                    take(tok.weight.numel()),
                    f32(tok.weight),
                    f"step {k} tok",
                    loose=sensitive,
                    within=lr * k,
                )
                if pos is not None:
                    self.assert_graded(take(pos.weight.numel()), f32(pos.weight), f"step {k} pos")
                tied = head_kind == "tied"  # the head's weight is tok's
                self.assert_graded(
                    take(head.weight.numel()),
                    f32(head.weight),
                    f"step {k} head",
                    loose=sensitive if tied else None,
                    within=lr * k,
                )
                changed = (before.view(torch.int32) != tok.weight.detach().view(torch.int32)).any(1)
                self.assertEqual(
                    take(vocab).tolist(),
                    changed.numpy().astype(np.float32).tolist(),
                    f"step {k} rows changed",
                )
                inputs, targets = set(x.flatten().tolist()), set(y.flatten().tolist())
                roles = take(vocab).astype(int).tolist()
                for r in changed.nonzero().flatten().tolist():
                    role = (r in inputs) + 2 * (head_kind == "tied" and r in targets)
                    self.assertEqual(roles[r], role, f"step {k} row {r}'s role")
        self.assertTrue(take.done(), "every value the driver wrote was read")


CHAPTER_CLI = [
    "--ids",
    "1,2,3,4,5,1,2,3,0,4,5,2",
    "-V",
    "6",
    "-d",
    "3",
    "--seed",
    "7",
    "--max-length",
    "3",
    "--stride",
    "2",
    "--batch-size",
    "2",
    "--shuffle",
    "--epochs",
    "3",
]


class ChapterPrintout(unittest.TestCase):
    def run_cli(self, *args, rc=0):
        out = subprocess.run([CLI, "train", *args], capture_output=True, text=True, timeout=60)
        self.assertEqual(out.returncode, rc, out.stderr)
        return out

    def test_the_printout_is_the_program_step_by_step(self):
        for head, extra in (
            ("tied", ["--positions", "--optimizer", "adamw", "--lr", "0.05"]),
            ("untied", ["--optimizer", "sgd", "--lr", "0.5"]),
        ):
            with self.subTest(head=head):
                stdout = self.run_cli(*CHAPTER_CLI, "--head", head, *extra).stdout
                header, rest = stdout.split("\n\n", 1)
                self.assertIn(
                    "# loader = torch.utils.data.DataLoader(dataset, batch_size=2, shuffle=True, drop_last=True)",
                    header,
                )
                summary, rest = rest.split("\n", 1)
                self.assertEqual(
                    summary,
                    "# 5 windows of max_length = 3 ids (stride 2) in 2 batches of 2 an epoch (drop_last=True leaves 1 out), 3 epochs: 6 steps, each step's loss.item():",
                )
                losses = [float(v) for v in rest.split("\n\n", 1)[0].splitlines()]
                self.assertEqual(len(losses), 6)
                # The program, run as it is written, prints the same losses.
                scope = {"torch": torch}
                for line in header.splitlines():
                    exec(line[2:], scope)
                printed = []
                for x, y in scope["batches"]:
                    h = scope["tok"](x) + (scope["pos"](torch.arange(3)) if head == "tied" else 0)
                    loss = F.cross_entropy(scope["head"](h).flatten(0, 1), y.flatten())
                    scope["opt"].zero_grad()
                    loss.backward()
                    scope["opt"].step()
                    printed.append(loss.item())
                for mine, theirs in zip(losses, printed):
                    self.assertAlmostEqual(mine, theirs, delta=abs(theirs) * 1e-5)
                self.assertEqual(len(replay(self, stdout, table="tok")), 6)

    def test_bad_windows_are_named_before_any_work(self):
        for args, argument in (
            (["--ids", "1,2,3", "--max-length", "3", "--head", "tied"], "max_length"),
            (
                ["--ids", "1,2,3,4,5", "--max-length", "2", "--batch-size", "3", "--head", "tied"],
                "batch_size",
            ),
            (["--ids", "1,2; 3,4", "--max-length", "1", "--head", "tied"], "one sequence"),
            (["--ids", "1,2,3", "--stride", "1", "--head", "tied"], "give --max-length"),
            (["--ids", "1,2,3", "--max-length", "1"], "give --head"),
            (
                ["--ids", "1,2,3,4", "--max-length", "1", "--stride", "0", "--head", "tied"],
                "stride must be at least 1",
            ),
            (
                ["--ids", "1,2,3,4", "--max-length", "1", "--epochs", "0", "--head", "tied"],
                "epochs must be between 1",
            ),
        ):
            with self.subTest(args=args):
                out = self.run_cli(*args, rc=2)
                self.assertEqual(out.stdout, "")
                self.assertIn(argument, out.stderr)
        out = self.run_cli("--ids", "1,2,3", "--max-length", "3", "--head", "tied", rc=2)
        self.assertIn(
            "a window of max_length = 3 ids needs its target, shifted by one: 4 ids, "
            "and the sequence has 3 ids",
            out.stderr,
        )


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"], verbosity=1)
