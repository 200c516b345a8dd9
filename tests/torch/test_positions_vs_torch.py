"""Positions and the tied output layer against live PyTorch 1.13.

The CLI's `positions` and `head` walk-throughs are replayed in torch: the set-up the header
states is run, then every `>>> code` step, and PyTorch's printed result must equal the CLI's
text character for character (the logits, which a BLAS sums in another order, number for number
within one unit of the last printed digit). The driver's whole logits are graded against
torch's out_head(h) here, from their bits: bit-identical or equal up to rounding, the ulps shown.
Several seeds and (B, T) shapes; the error for T > context_length carries PyTorch's own message.

Usage: test_positions_vs_torch.py --driver PATH/head_torch_driver (EMBEDLAB_CLI: the CLI)
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from oracle import f32, prepare, run_driver  # before torch: it clears ATEN_CPU_CAPABILITY
import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from safetensors_file import safetensors_bytes  # noqa: E402

ARGS = prepare(__doc__, "head_torch_driver")
CLI = os.environ["EMBEDLAB_CLI"]
NUMBER = re.compile(r"-?\d+\.\d+(?:e[+-]\d+)?")


def run(*args):
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=120)


def replay(test, stdout, scope):
    """Runs the header's code and every step in torch; returns the scope."""
    head = stdout.split("\n\n", 1)[0]
    for line in head.splitlines():
        exec(line[2:], scope)
    # A step's result runs to the next step or comment (a 3-D tensor has blank lines in it).
    blocks = re.findall(r"^>>> (.*)\n([\s\S]*?)(?=^>>> |^# |\Z)", stdout, re.MULTILINE)
    test.assertGreaterEqual(len(blocks), 2, "the walk-through's steps were not found")
    for code, printed in blocks:
        *statements, last = code.split("; ")
        for statement in statements:
            exec(statement, scope)
        theirs, mine = str(eval(last, scope)), printed.rstrip("\n")
        with test.subTest(step=code[:60]):
            if last == "logits":  # summed in another order: the same text up to the last digit
                test.assertEqual(NUMBER.sub("#", mine), NUMBER.sub("#", theirs))
                a = np.array([float(x) for x in NUMBER.findall(mine)])
                b = np.array([float(x) for x in NUMBER.findall(theirs)])
                test.assertLessEqual(float(np.abs(a - b).max()), 1.00001e-4)
            else:
                test.assertEqual(mine, theirs)
    return scope


class Positions(unittest.TestCase):
    SHAPES = [  # seed, V, d, context_length, rows
        (123, 50257, 256, 4, "40,367,2885,1464; 1807,3619,402,271"),
        (
            123,
            50257,
            256,
            4,
            "; ".join(
                ",".join(str((r * 7 + t * 13) % 50257 * 97 % 50257) for t in range(4))
                for r in range(8)
            ),
        ),
        (0, 6, 3, 4, "1,2,3"),
        (7, 10, 3, 3, "1; 2; 3; 4; 5; 6; 7; 8"),
        (-5, 20, 5, 8, "0,19,3,3,4; 5,6,7,8,9"),
        (2024, 100, 64, 16, "99,0,1,2,3,4,5,6,7,8,9,10"),
    ]

    def test_the_books_batch_and_others(self):
        for seed, vocab, dim, context, ids in self.SHAPES:
            with self.subTest(seed=seed, ids=ids[:30]):
                out = run(
                    "positions",
                    "--ids",
                    ids,
                    "-V",
                    str(vocab),
                    "-d",
                    str(dim),
                    "--context-length",
                    str(context),
                    "--seed",
                    str(seed),
                )
                self.assertEqual(out.returncode, 0, out.stderr)
                self.assertIn(": bit-identical. ", out.stdout)
                scope = replay(self, out.stdout, {"torch": torch})
                want = scope["token_embeddings"] + scope["pos_embeddings"]
                self.assertTrue(torch.equal(scope["input_embeddings"], want))

    def test_context_length_defaults_to_t(self):
        out = run("positions", "--ids", "1,2; 3,0", "-d", "3")
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("# pos_embedding_layer = torch.nn.Embedding(2, 3)", out.stdout)
        replay(self, out.stdout, {"torch": torch})

    def test_too_many_positions(self):
        try:
            torch.nn.Embedding(4, 3)(torch.arange(5))
            raise AssertionError("PyTorch accepted it")
        except IndexError as error:
            message = str(error)
        out = run("positions", "--ids", "1,2,3,4,5", "-d", "3", "--context-length", "4")
        self.assertEqual(out.returncode, 2)
        self.assertEqual(out.stdout, "")
        self.assertIn(
            "pos_embedding_layer(torch.arange(5)) raises IndexError: " + message, out.stderr
        )
        self.assertIn("rows for positions 0..3 only", out.stderr)
        out = run("positions", "--ids", "1,2", "-d", "3", "--context-length", "0")
        self.assertEqual(out.returncode, 2)
        self.assertIn(
            "context_length must be between 1 and 4,194,304 (the position table's rows), " "got 0",
            out.stderr,
        )

    def test_ragged_rows(self):
        try:
            torch.tensor([[1, 2], [3]])
            raise AssertionError("PyTorch accepted it")
        except ValueError as error:
            message = str(error)
        out = run("positions", "--ids", "1,2; 3", "-d", "3")
        self.assertEqual(out.returncode, 2)
        self.assertIn("row 2 has 1 ids but row 1 has 2", out.stderr)
        self.assertIn(message, out.stderr)


def top_ids(stdout):
    """The ids of each position's top logits, as the head walk-through lists them."""
    return [
        [int(x) for x in re.findall(r" (\d+) \(", line)]
        for line in stdout.splitlines()
        if line.startswith("# logits[")
    ]


class TiedHead(unittest.TestCase):
    CASES = [  # seed, V, d, context_length, B, T, block rows
        (123, 50257, 256, 4, 2, 4, 0),
        (123, 50257, 256, 4, 2, 4, 512),
        (1, 1000, 768, 8, 3, 5, 0),
        (9, 7, 2, 2, 1, 2, 0),
    ]

    def test_logits_graded_against_out_head(self):
        for seed, vocab, dim, context, rows, length, block in self.CASES:
            with self.subTest(seed=seed, V=vocab, d=dim, block=block):
                gen = np.random.default_rng(seed)
                ids = gen.integers(0, vocab, size=(rows, length))
                torch.manual_seed(seed)
                tok = torch.nn.Embedding(vocab, dim)
                pos = torch.nn.Embedding(context, dim)
                h = tok(torch.tensor(ids)) + pos(torch.arange(length))
                out_head = torch.nn.Linear(dim, vocab, bias=False)
                out_head.weight = tok.weight
                logits = f32(out_head(h))
                top = torch.topk(out_head(h).reshape(-1, vocab), min(5, vocab))
                n = rows * length
                k = min(5, vocab)
                line = f"head {seed} {vocab} {dim} {context} {rows} {length} {block} " + " ".join(
                    str(i) for i in ids.ravel()
                )
                ours = run_driver(ARGS.driver, [line], n * dim + n * vocab + n * k * 2, "head", 300)
                mine_h, mine = ours[: n * dim], ours[n * dim : n * dim + n * vocab]
                self.assertTrue(
                    np.array_equal(mine_h.view(np.uint32), f32(h).view(np.uint32)),
                    "input_embeddings: the lookup side must be bit-identical",
                )
                same = mine.view(np.uint32) == logits.view(np.uint32)
                diff = np.abs(mine.astype(np.float64) - logits).max()
                scale = max(np.abs(mine).max(), np.abs(logits).max())
                self.assertLessEqual(diff, scale / 4096, "more than rounding")
                ordered = lambda x: np.where(
                    x.view(np.uint32) >= 2**31,
                    -(x.view(np.uint32).astype(np.int64) - 2**31),
                    x.view(np.uint32).astype(np.int64),
                )
                ulps = int(np.abs(ordered(mine) - ordered(logits)).max())
                print(
                    f"  V={vocab} d={dim} n={n}: "
                    f"{'bit-identical' if same.all() else 'equal up to rounding'}, "
                    f"{int((~same).sum()):,} of {same.size:,} differ, at most {ulps} ulps, "
                    f"|diff| <= {diff:.4e}"
                )
                pairs = ours[n * dim + n * vocab :].reshape(n, k, 2)
                # The top ids agree wherever torch's neighbouring logits are further apart than
                # the rounding measured above.
                for r in range(n):
                    values = top.values[r].detach().numpy()
                    gaps = np.diff(values)
                    if (np.abs(gaps) > 2 * diff).all():
                        self.assertEqual(
                            pairs[r, :, 0].astype(int).tolist(), top.indices[r].tolist()
                        )

    def test_head_walkthrough_replayed(self):
        for seed, ids in ((123, "40,367,2885,1464; 1807,3619,402,271"), (5, "1,2; 3,4; 5,6")):
            with self.subTest(seed=seed):
                out = run(
                    "head",
                    "--ids",
                    ids,
                    "-V",
                    "50257",
                    "-d",
                    "256",
                    "--seed",
                    str(seed),
                    "--top-k",
                    "3",
                )
                self.assertEqual(out.returncode, 0, out.stderr)
                scope = replay(self, out.stdout, {"torch": torch})
                top = torch.topk(scope["logits"].reshape(-1, 50257), 3)
                self.assertEqual(top_ids(out.stdout), top.indices.tolist())

    def test_the_notebooks_shape_takes_min_5_v_and_counts_ids(self):
        # V = 4 rows: with no --top-k, the top 4; the lookup reads a row per id, 2 of them twice.
        out = run("head", "--ids", "2,3,1,2,3,0", "-V", "4", "-d", "5")
        self.assertEqual(out.returncode, 0, out.stderr)
        scope = replay(self, out.stdout, {"torch": torch})
        top = torch.topk(scope["logits"].reshape(-1, 4), 4)
        self.assertEqual(top_ids(out.stdout), top.indices.tolist())
        self.assertIn("# the top 4 logits of each position", out.stdout)
        self.assertIn(
            "# The input lookup read a row for each of the n = 6 ids, 4 distinct of the 4 rows of W, "
            "copying n·d = 30 floats.",
            out.stdout,
        )


class Checkpoint(unittest.TestCase):
    """GPT-2's tensor names, small: wte and wpe replayed, and the head's tying told apart."""

    def write(self, folder, extra=(), config=None):
        rng = np.random.default_rng(3)
        self.wte = rng.standard_normal((50, 8)).astype(np.float32)
        self.wpe = rng.standard_normal((6, 8)).astype(np.float32)
        tensors = [("wte.weight", "F32", self.wte), ("wpe.weight", "F32", self.wpe), *extra]
        path = Path(folder) / "model.safetensors"
        path.write_bytes(safetensors_bytes(tensors))
        if config is not None:
            (Path(folder) / "config.json").write_text(config)
        return str(path)

    def test_replayed_and_tied(self):
        with tempfile.TemporaryDirectory() as folder:
            path = self.write(folder)
            out = run("positions", "--ids", "1,49,3; 4,5,0", "--weights", path)
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertIn(
                "# the output layer is tied: the file stores no lm_head.weight", out.stdout
            )
            replay(
                self,
                out.stdout,
                {"torch": torch, "wte": torch.tensor(self.wte), "wpe": torch.tensor(self.wpe)},
            )
            out = run("head", "--ids", "1,49,3; 4,5,0", "--weights", path, "--top-k", "2")
            self.assertEqual(out.returncode, 0, out.stderr)
            replay(
                self,
                out.stdout,
                {"torch": torch, "wte": torch.tensor(self.wte), "wpe": torch.tensor(self.wpe)},
            )

    def test_top_k_spelled_by_the_tokenizer_beside(self):
        # A byte-level vocabulary as tokenizer.json writes it: ids 0 to 49, one added token.
        vocab = {("\u0120" if i % 2 else "") + f"t{i}": i for i in range(49)}
        with tempfile.TemporaryDirectory() as folder:
            path = self.write(folder)
            (Path(folder) / "tokenizer.json").write_text(
                json.dumps(
                    {
                        "model": {"type": "BPE", "vocab": vocab},
                        "added_tokens": [{"id": 49, "content": "<|endoftext|>"}],
                    }
                )
            )
            out = run("head", "--ids", "1,49,3; 4,5,0", "--weights", path, "--top-k", "2")
            self.assertEqual(out.returncode, 0, out.stderr)
            spelled = {i: t for t, i in vocab.items()} | {49: "<|endoftext|>"}
            h = (
                torch.tensor(self.wte)[torch.tensor([[1, 49, 3], [4, 5, 0]])]
                + torch.tensor(self.wpe)[:3]
            )
            top = torch.topk((h @ torch.tensor(self.wte).T).reshape(-1, 50), 2).indices
            lines = [line for line in out.stdout.splitlines() if line.startswith("# logits[")]
            self.assertEqual(len(lines), 6)
            for line, ids, given in zip(lines, top.tolist(), [1, 49, 3, 4, 5, 0]):
                self.assertIn(f"(input id {given} '{spelled[given]}')", line)
                listed = [(int(i), t) for i, t in re.findall(r" (\d+) '([^']*)' \(", line)]
                self.assertEqual(listed, [(i, spelled[i]) for i in ids], line)

    def test_untied(self):
        with tempfile.TemporaryDirectory() as folder:
            path = self.write(folder, [("lm_head.weight", "F32", np.zeros((50, 8), np.float32))])
            out = run("positions", "--ids", "1,2", "--weights", path)
            self.assertIn(
                "# the output layer is not tied: the file stores an output layer of its "
                "own, 'lm_head.weight'",
                out.stdout,
            )
        with tempfile.TemporaryDirectory() as folder:
            path = self.write(folder, config='{"tie_word_embeddings": false}')
            out = run("positions", "--ids", "1,2", "--weights", path)
            self.assertIn(
                "# the output layer is not tied: its config.json says "
                '"tie_word_embeddings": false',
                out.stdout,
            )
            (Path(folder) / "config.json").write_text('{"tie_word_embeddings": "yes"}')
            out = run("positions", "--ids", "1,2", "--weights", path)
            self.assertEqual(out.returncode, 2)
            self.assertIn('tie_word_embeddings is the string "yes", not true or false', out.stderr)

    def test_checkpoint_errors(self):
        with tempfile.TemporaryDirectory() as folder:
            path = self.write(folder)
            out = run("positions", "--ids", "1,2,3,4,5,6,7", "--weights", path)
            self.assertEqual(out.returncode, 2)
            self.assertIn("context_length = 6", out.stderr)
            out = run("positions", "--ids", "1,2", "--weights", path, "--context-length", "4")
            self.assertEqual(out.returncode, 2)
            self.assertIn("--context-length 4 disagrees with 'wpe.weight' [6, 8]", out.stderr)
            nowpe = Path(folder) / "nowpe.safetensors"
            nowpe.write_bytes(safetensors_bytes([("wte.weight", "F32", self.wte)]))
            out = run("positions", "--ids", "1,2", "--weights", str(nowpe))
            self.assertEqual(out.returncode, 2)
            self.assertIn("has no tensor named like a position table", out.stderr)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"], verbosity=1)
