#!/usr/bin/python3
"""embedlab's gradients, max_norm and EmbeddingBag against real PyTorch, bit for bit.

Every case runs through grad_torch_driver (embedlab) and through torch 1.13.1 on the CPU, and the
float32 results are compared as bit patterns. Where PyTorch's order of additions is not ours, the
comparison says so and uses a tolerance instead:
  - EmbeddingBag backward: PyTorch sorts the ids with an unstable std::sort and adds each id's rows
    in that order; embedlab adds them in position order. When the sort kept every id's positions
    ascending (always for n <= 16), the bits must agree; otherwise the values must agree to 1e-5
    relative to the sum of magnitudes.
  - The one-hot route's gradient onehot^T @ G: torch's GEMM (OpenBLAS) and embedlab's (Eigen)
    block the sum differently. With at most two rows per id the bits must agree (a + b == b + a,
    and both start from +0); with three or more, the values must be close.

Usage: test_grad_vs_torch.py --driver PATH/grad_torch_driver
"""
import collections
import os
import random
import sys
import tempfile
import time

import oracle  # before torch: see oracle.py

import numpy as np
import torch
import torch.nn.functional as F
from oracle import f32

RTOL = 1e-5


class Cases:
    """Driver lines, with what torch expects of each: (label, float32 array, how to compare).
    how: "bits", or ("close", scale): |difference| <= RTOL * scale, element by element."""

    def __init__(self, folder):
        self.folder = folder
        self.lines = []
        self.expected = []
        self.files = 0

    def npy(self, array):
        self.files += 1
        path = os.path.join(self.folder, f"{self.files}.npy")
        np.save(path, np.ascontiguousarray(np.atleast_2d(array), dtype=np.float32))
        return path

    def add(self, line, *expected):
        self.lines.append(" ".join(str(word) for word in line))
        self.expected.extend(e + (len(self.lines) - 1,) for e in expected)


def pad_word(padding):
    return "none" if padding is None else padding


def mixed_gradient(rng, rows, cols):
    """Upstream gradients whose magnitudes span 1e-4..1e4, so that the order of additions shows."""
    g = torch.randn(rows, cols) * torch.pow(10.0, torch.empty(rows, cols).uniform_(-4, 4))
    if rng.random() < 0.3:
        g[torch.rand(rows, cols) < 0.1] = 0.0
    return g


def random_ids(rng, n, vocab):
    """Ids with many duplicates: a few hot rows, as in real text."""
    hot = [rng.randrange(vocab) for _ in range(rng.randint(1, 3))]
    return [rng.choice(hot) if rng.random() < 0.5 else rng.randrange(vocab) for _ in range(n)]


def dims(rng):
    return rng.choice([1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 31, 32, 33, 37, 64, 100])


# ---- the groups ----------------------------------------------------------------------------


def embedding_backward_cases(cases, rng):
    for case in range(300):
        vocab, dim = rng.randint(1, 40), dims(rng)
        n = rng.choice([1, 2, 3, 5, 16, 17, 50, 200])
        ids = random_ids(rng, n, vocab)
        padding = rng.choice([None, None, rng.randrange(-vocab, vocab)])
        sgf = rng.random() < 0.5
        g = mixed_gradient(rng, n, dim)
        w = torch.zeros(vocab, dim, requires_grad=True)
        F.embedding(torch.tensor(ids), w, padding_idx=padding, scale_grad_by_freq=sgf).backward(g)
        cases.add(
            ["backward", vocab, pad_word(padding), int(sgf), cases.npy(g.numpy())] + ids,
            ("embedding backward", f32(w.grad), "bits"),
        )
    # Over 1000 ids and rows: PyTorch's vocabulary-parallel branch.
    ids = random_ids(random.Random(5), 5000, 3000)
    g = torch.randn(5000, 8)
    w = torch.zeros(3000, 8, requires_grad=True)
    F.embedding(torch.tensor(ids), w, scale_grad_by_freq=True).backward(g)
    cases.add(
        ["backward", 3000, "none", 1, cases.npy(g.numpy())] + ids,
        ("embedding backward", f32(w.grad), "bits"),
    )


def onehot_backward_cases(cases, rng):
    for case in range(120):
        vocab, dim = rng.randint(1, 30), dims(rng)
        n = rng.choice([1, 2, 4, 9, 40])
        ids = random_ids(rng, n, vocab)
        g = mixed_gradient(rng, n, dim)
        w = torch.zeros(vocab, dim, requires_grad=True)
        (F.one_hot(torch.tensor(ids), vocab).float() @ w).backward(g)
        most = max(collections.Counter(ids).values())
        how = (
            "bits"
            if most <= 2
            else ("close", f32(torch.zeros(vocab, dim).index_add_(0, torch.tensor(ids), g.abs())))
        )
        cases.add(
            ["onehot_backward", vocab, cases.npy(g.numpy())] + ids,
            (f"one-hot backward, {'<= 2' if most <= 2 else '3+'} rows per id", f32(w.grad), how),
        )


NORM_TYPES = [2.0, 1.0, 3.0, 2.5, 0.5, 7.0, float("inf")]


def norm_cases(cases, rng):
    for p in NORM_TYPES:
        for dim in list(range(1, 41)) + [63, 64, 65, 100, 127, 300, 1000, 4099]:
            rows = 2000 // dim + 3
            w = torch.randn(rows, dim) * torch.pow(10.0, torch.empty(rows, 1).uniform_(-3, 3))
            norms = torch.stack([w[i].norm(p) for i in range(rows)])
            cases.add(["norm", p, cases.npy(w.numpy())], (f"row norm p={p}", f32(norms), "bits"))


def renorm_cases(cases, rng):
    for case in range(300):
        vocab, dim = rng.randint(1, 20), dims(rng)
        p = rng.choice(NORM_TYPES)
        w = torch.randn(vocab, dim) * rng.choice([0.1, 1.0, 3.0])
        ids = random_ids(rng, rng.randint(1, 12), vocab)
        norm = w[rng.choice(ids)].norm(p).item()
        # Sometimes exactly the norm of a looked-up row, or one float32 step either side.
        max_norm = rng.choice(
            [
                norm,
                float(np.nextafter(np.float32(norm), np.float32(0))),
                float(np.nextafter(np.float32(norm), np.float32(np.inf))),
                norm * rng.uniform(0.2, 1.5),
                rng.uniform(0.1, 5.0),
            ]
        )
        if not max_norm > 0:
            max_norm = 1.0
        path = cases.npy(w.numpy())
        out = F.embedding(torch.tensor(ids), w, max_norm=max_norm, norm_type=p)  # renorms w
        cases.add(
            ["renorm", repr(max_norm), p, path] + ids,
            (f"max_norm: the table after, p={p}", f32(w), "bits"),
            (f"max_norm: the lookup, p={p}", f32(out), "bits"),
        )


def random_offsets(rng, n):
    bags = rng.randint(1, 6)
    return [0] + sorted(rng.randint(0, n) for _ in range(bags - 1))


def torch_sort_keeps_positions(ids):
    """Whether PyTorch's (unstable) sort left every id's positions ascending."""
    _, order = torch.tensor(ids).sort()
    seen = {}
    for k in order.tolist():
        if seen.get(ids[k], -1) > k:
            return False
        seen[ids[k]] = k
    return True


def bag_gradient_magnitudes(ids, offsets, g, psw, mode, padding, vocab):
    """For each element of dL/dW, the sum of the magnitudes of the terms added into it
    (scale_grad_by_freq only makes terms smaller)."""
    if padding is not None and padding < 0:
        padding += vocab
    total = np.zeros((vocab, g.shape[1]))
    g = np.abs(g.numpy().astype(np.float64))
    for b, start in enumerate(offsets[: g.shape[0]]):
        end = offsets[b + 1] if b + 1 < len(offsets) else len(ids)
        kept = [k for k in range(start, end) if ids[k] != padding]
        for k in kept:
            factor = abs(float(psw[k])) if psw is not None else 1.0
            total[ids[k]] += g[b] * factor / (len(kept) if mode == "mean" else 1)
    return total.ravel()


def torch_bag_count_fix(ids, vocab):
    """PyTorch 1.13's EmbeddingBag backward (CPU) divides the g-th distinct id (ascending) by
    counts[sorted_ids[g]] instead of counts[id] (pytorch/pytorch#190063). Returns, per row of
    W, the factor that turns its gradient into the documented one, or None if all are right."""
    counts = collections.Counter(ids)
    ordered = sorted(ids)
    fix = np.ones(vocab)
    for g, v in enumerate(sorted(counts)):
        fix[v] = counts[ordered[g]] / counts[v]
    return None if (fix == 1).all() else fix


def bag_cases(cases, rng):
    for case in range(400):
        vocab, dim = rng.randint(1, 25), dims(rng)
        n = rng.choice([0, 1, 2, 3, 5, 8, 16, 17, 30, 60])
        ids = random_ids(rng, n, vocab)
        mode = rng.choice(["sum", "mean", "max"])
        offsets = random_offsets(rng, n)
        ilo = rng.random() < 0.3
        if ilo:
            offsets = offsets + [n]
        padding = rng.choice([None, None, rng.randrange(-vocab, vocab)])
        sgf = rng.random() < 0.3 and mode != "max"
        psw = None
        if mode == "sum" and n and rng.random() < 0.5:
            psw = torch.randn(n) * rng.choice([1.0, 100.0])
            if rng.random() < 0.3:
                psw[rng.randrange(n)] = 0.0
        w = (torch.randn(vocab, dim) * rng.choice([0.01, 1.0, 100.0])).requires_grad_()
        if mode == "max" and rng.random() < 0.3:
            w.data = w.data.round()  # ties: the first maximum wins
        bags = len(offsets) - (1 if ilo else 0)
        g = mixed_gradient(rng, bags, dim)
        out = F.embedding_bag(
            torch.tensor(ids, dtype=torch.long),
            w,
            torch.tensor(offsets, dtype=torch.long),
            mode=mode,
            per_sample_weights=psw,
            include_last_offset=ilo,
            padding_idx=padding,
            scale_grad_by_freq=sgf,
        )
        out.backward(g)
        expected_grad = f32(w.grad)
        fix = torch_bag_count_fix(ids, vocab) if sgf else None
        if fix is not None:
            expected_grad = f32(w.grad * torch.tensor(fix, dtype=torch.float32)[:, None])
            how = ("close", bag_gradient_magnitudes(ids, offsets, g, psw, mode, padding, vocab))
            note = " (scale_grad_by_freq, PyTorch's count corrected)"
        elif torch_sort_keeps_positions(ids) or mode == "max":
            how, note = "bits", ""
        else:
            how = ("close", bag_gradient_magnitudes(ids, offsets, g, psw, mode, padding, vocab))
            note = " (PyTorch's unstable sort)"
        label = f"bag {mode}" + (" weighted" if psw is not None else "")
        cases.add(
            [
                "bag",
                mode,
                int(ilo),
                pad_word(padding),
                int(sgf),
                cases.npy(w.detach().numpy()),
                cases.npy(g.numpy()),
                "none" if psw is None else cases.npy(psw.numpy()),
                "|",
            ]
            + ids
            + ["|"]
            + offsets,
            (label + ": output", f32(out), "bits"),
            (label + ": backward" + note, expected_grad, how),
        )


def bag_matrix_cases(cases, rng):
    """M (B, V): counts, per-sample weights added in position order, or counts / size in float."""
    for case in range(100):
        vocab = rng.randint(1, 12)
        n = rng.choice([1, 3, 8, 20])
        ids = random_ids(rng, n, vocab)
        offsets = random_offsets(rng, n)
        mode = rng.choice(["sum", "mean"])
        padding = rng.choice([None, rng.randrange(vocab)])
        psw = (
            np.float32(np.random.default_rng(case).standard_normal(n))
            if mode == "sum" and rng.random() < 0.5
            else None
        )
        ends = offsets[1:] + [n]
        m = np.zeros((len(offsets), vocab), np.float32)
        for b, (start, end) in enumerate(zip(offsets, ends)):
            kept = [k for k in range(start, end) if ids[k] != padding]
            for k in kept:
                m[b, ids[k]] += np.float32(1) if psw is None else psw[k]
            if mode == "mean" and kept:
                m[b] /= np.float32(len(kept))
        cases.add(
            [
                "bag_matrix",
                mode,
                0,
                pad_word(padding),
                vocab,
                "none" if psw is None else cases.npy(psw),
                "|",
            ]
            + ids
            + ["|"]
            + offsets,
            (f"bag matrix {mode}", m.ravel(), "bits"),
        )


GROUPS = [
    ("embedding backward (padding_idx, scale_grad_by_freq)", embedding_backward_cases),
    ("one-hot backward vs torch's GEMM", onehot_backward_cases),
    ("row norms (norm_type)", norm_cases),
    ("max_norm renorm and lookup", renorm_cases),
    ("EmbeddingBag forward and backward", bag_cases),
    ("EmbeddingBag multi-hot matrix", bag_matrix_cases),
]


def compare(mine, theirs, how):
    """(values compared, bit-identical, failing)."""
    same_bits = mine.view(np.int32) == theirs.view(np.int32)
    if how == "bits":
        ok = same_bits
    else:
        ok = same_bits | (np.abs(mine.astype(np.float64) - theirs) <= RTOL * how[1])
    return theirs.size, int(same_bits.sum()), np.flatnonzero(~ok)


def main():
    args = oracle.prepare(__doc__, "grad_torch_driver")
    torch.manual_seed(0)

    start = time.perf_counter()
    totals = collections.Counter()
    per_label = collections.defaultdict(lambda: [0, 0])  # values, bit-identical
    failed = 0
    with tempfile.TemporaryDirectory() as folder:
        for name, make in GROUPS:
            cases = Cases(folder)
            make(cases, random.Random(name))
            want = sum(e[1].size for e in cases.expected)
            ours = oracle.run_driver(args.driver, cases.lines, want, name, timeout=600)
            offset = bad = 0
            for label, theirs, how, line in cases.expected:
                mine = ours[offset : offset + theirs.size]
                offset += theirs.size
                count, same, failing = compare(mine, theirs, how)
                per_label[label][0] += count
                per_label[label][1] += same
                totals["bits" if how == "bits" else "tolerance"] += count
                totals["identical"] += same
                if failing.size and bad < 3:
                    print(f"  in: {cases.lines[line][:300]}")
                for k in failing[: max(0, 3 - bad)]:
                    print(
                        f"  mismatch [{label}] element {k}: {oracle.mismatch_text(mine, theirs, k)}"
                    )
                bad += failing.size
            print(f"{name}: {len(cases.lines)} cases, {want} values, {bad} failing")
            failed += bad
    for label, (count, same) in sorted(per_label.items()):
        print(f"  {label}: {same} of {count} bit-identical")
    seconds = time.perf_counter() - start
    verdict = "PASS" if failed == 0 else "FAIL"
    print(
        f"{verdict}: {totals['bits']} float32 values compared bit for bit and "
        f"{totals['tolerance']} within a tolerance (order of additions differs; "
        f"{totals['identical']} of all values bit-identical) with torch {torch.__version__}, "
        f"{failed} failing ({seconds:.1f} s)"
    )
    sys.exit(0 if failed == 0 else 1)


if __name__ == "__main__":
    main()
