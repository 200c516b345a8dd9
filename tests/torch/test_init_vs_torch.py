#!/usr/bin/python3
"""embedlab's PyTorch-compatible initialisation against real PyTorch, bit for bit.

Every script below (seed, then modules and tensor factories in order) runs twice: through
torch_oracle_driver (embedlab) and through torch itself. The float32 results are compared as
int32 bit patterns; a single differing bit fails the test.

Usage: test_init_vs_torch.py [--deep] --driver [EMULATOR...] PATH/torch_oracle_driver
(the WebAssembly build: --driver /usr/bin/node PATH/torch_oracle_driver.js)
"""
import collections
import random
import sys
import time

import oracle  # before torch: see oracle.py

import numpy as np
import torch
import torch.nn.functional as F

U64 = 1 << 64


# ---- the two interpreters of one script ------------------------------------------------


def run_torch(script):
    """The results of one script in PyTorch, as a list of (label, float32 array)."""
    out = []
    table = None
    for cmd in script:
        op, args = cmd[0], cmd[1:]
        if op == "seed":
            torch.manual_seed(args[0])
        elif op == "randn":
            out.append((cmd, torch.randn(*args)))
        elif op == "rand":
            out.append((cmd, torch.rand(*args)))
        elif op == "embedding":
            vocab, dim = args[:2]
            padding = args[2] if len(args) > 2 else None
            table = torch.nn.Embedding(vocab, dim, padding_idx=padding).weight.detach()
            out.append((cmd, table))
        elif op == "linear":
            layer = torch.nn.Linear(args[0], args[1], bias=args[2] == "bias")
            out.append((cmd + ("weight",), layer.weight.detach()))
            if layer.bias is not None:
                out.append((cmd + ("bias",), layer.bias.detach()))
        elif op == "lookup":
            out.append((cmd, F.embedding(torch.tensor(args), table)))
        elif op == "onehot":
            onehot = F.one_hot(torch.tensor(args), table.shape[0]).float()
            out.append((cmd, onehot @ table))
        else:
            raise ValueError(f"unknown op {op}")
    return [(label, oracle.f32(t)) for label, t in out]


def driver_line(cmd):
    op, args = cmd[0], list(cmd[1:])
    if op == "seed":
        # torch takes seeds up to 2^64 - 1; the driver takes the same 64 bits as int64.
        args = [args[0] - U64 if args[0] >= 1 << 63 else args[0]]
    return " ".join([op] + [str(a) for a in args])


# ---- the scripts ------------------------------------------------------------------------

SEEDS = [
    0,
    1,
    42,
    123,
    2**31 - 1,
    2**31,
    2**32 - 1,
    2**32,
    2**32 + 123,
    2**63 - 1,
    -1,
    -123,
    -(2**31),
    -(2**63),
    2**63,
    2**64 - 1,
    67280421310721,
]


def notebook_scripts():
    """The notebooks' sequence for every seed: the table, its lookups, then the Linear."""
    rng = random.Random(7)
    seeds = SEEDS + [rng.randrange(-(2**63), U64) for _ in range(40)]
    return [
        [
            ("seed", s),
            ("embedding", 4, 5),
            ("lookup", 2, 3, 1),
            ("onehot", 3, 2, 0, 1),
            ("seed", s),
            ("linear", 4, 5, "nobias"),
            ("randn", 3, 7),
            ("rand", 2, 9),
        ]
        for s in seeds
    ]


def normal_size_scripts():
    """normal_ at every small size (serial below 16, block at 16, tails), and some larger."""
    sizes = list(range(1, 80)) + [127, 128, 129, 1000, 4099, 65536 + 5]
    scripts = [[("seed", 1000 + n), ("randn", 1, n)] for n in sizes]
    scripts += [
        [("seed", 2000 + v * 31 + d), ("embedding", v, d)]
        for v in range(1, 9)
        for d in (1, 2, 3, 5, 8, 17)
    ]
    return scripts


def normal_cache_scripts():
    """The serial path's spare sample outlives calls, uniform_ and the block path."""
    body = [
        ("randn", 1, 1),
        ("randn", 1, 1),
        ("randn", 1, 1),
        ("embedding", 5, 3),
        ("rand", 1, 3),
        ("randn", 1, 1),
        ("embedding", 4, 4),
        ("randn", 1, 1),
        ("linear", 3, 2, "bias"),
        ("randn", 1, 3),
        ("randn", 2, 10),
        ("randn", 1, 1),
    ]
    scripts = [[("seed", s)] + body + [("seed", s), ("randn", 1, 1)] for s in SEEDS]
    # An odd serial count leaves a spare sample behind for the next module.
    scripts += [
        [("seed", s), ("embedding", 3, 5), ("embedding", 1, 7), ("randn", 1, 1)] for s in SEEDS
    ]
    return scripts


def linear_scripts():
    shapes = [(i, o) for i in (1, 2, 3, 4, 5, 7, 16, 17, 64, 100, 768, 50257) for o in (1, 5, 16)]
    return [
        [("seed", 3000 + 7 * i + o), ("linear", i, o, bias)]
        for i, o in shapes
        for bias in ("bias", "nobias")
    ]


def padding_scripts():
    scripts = []
    for padding in (0, 3, 9, -1, -10):
        ids = [padding % 10, 1, padding % 10, 9, 0]
        scripts.append(
            [
                ("seed", 4000 + padding),
                ("embedding", 10, 3, padding),
                ("lookup", *ids),
                ("onehot", *ids),
                ("embedding", 2, 4, 1),
                ("embedding", 40, 3, padding),
            ]
        )
    return scripts


def large_scripts():
    # 2^24 normals: Box-Muller sees about 63% of all 2^24 float uniforms on each side.
    return [
        [("seed", 5), ("randn", 4096, 4096)],
        [("seed", 6), ("embedding", 50257, 16), ("lookup", 50256, 0, 1234, 1234)],
        [("seed", 7), ("rand", 1000, 1000)],
        [("seed", 8), ("linear", 1024, 1024, "bias")],
    ]


def random_scripts(count=400):
    """Random sequences of modules and factories, mostly small so that paths and the cache mix."""
    rng = random.Random(2024)

    def size():
        return rng.choice([1, 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 33, 100, 257])

    scripts = []
    for _ in range(count):
        script = [("seed", rng.randrange(-(2**63), U64))]
        vocab = None
        for _ in range(rng.randint(1, 8)):
            kind = rng.choice(["randn", "rand", "embedding", "linear", "lookup", "onehot"])
            if kind in ("randn", "rand"):
                script.append((kind, size(), size()))
            elif kind == "embedding":
                vocab, dim = size(), size()
                padding = rng.choice([None, None, rng.randrange(-vocab, vocab)])
                script.append(("embedding", vocab, dim) + (() if padding is None else (padding,)))
            elif kind == "linear":
                script.append(("linear", size(), size(), rng.choice(["bias", "nobias"])))
            elif vocab is not None:
                script.append((kind, *[rng.randrange(vocab) for _ in range(rng.randint(1, 9))]))
        scripts.append(script)
    return scripts


GROUPS = [
    ("notebook sequence, many seeds", notebook_scripts),
    ("normal_ sizes (serial, block, tails)", normal_size_scripts),
    ("serial-path cache across calls", normal_cache_scripts),
    ("Linear weight and bias", linear_scripts),
    ("padding_idx", padding_scripts),
    ("large tensors", large_scripts),
    ("random sequences", random_scripts),
]


def deep_scripts():
    """Opt-in (--deep): 16 more tensors of 2^24 normals (about 20 s, 2 GiB of memory)."""
    return [[("seed", 6000 + k), ("randn", 4096, 4096)] for k in range(16)]


def main():
    args = oracle.prepare(__doc__, "torch_oracle_driver", {"--deep": "also run deep_scripts()"})

    start = time.perf_counter()
    total_values = total_bad = 0
    per_op = collections.Counter()
    groups = GROUPS + ([("deep: 16 x 2^24 normals", deep_scripts)] if args.deep else [])
    for name, make in groups:
        scripts = make()
        expected = [run_torch(s) for s in scripts]
        want = sum(a.size for results in expected for _, a in results)
        ours = oracle.run_driver(
            args.driver, [driver_line(cmd) for s in scripts for cmd in s], want, name, timeout=300
        )
        offset = bad = shown = 0
        for index, results in enumerate(expected):
            for label, theirs in results:
                mine = ours[offset : offset + theirs.size]
                offset += theirs.size
                per_op[label[0]] += theirs.size
                differ = np.flatnonzero(mine.view(np.int32) != theirs.view(np.int32))
                bad += differ.size
                for k in differ[: max(0, 3 - shown)]:
                    shown += 1
                    print(
                        f"  mismatch [{name}] script {index} {label} element {k}: "
                        f"{oracle.mismatch_text(mine, theirs, k)}"
                    )
        print(f"{name}: {len(scripts)} scripts, {want} values, {bad} mismatching")
        total_values += want
        total_bad += bad

    seconds = time.perf_counter() - start
    print("values per op: " + ", ".join(f"{op} {n}" for op, n in sorted(per_op.items())))
    verdict = "PASS" if total_bad == 0 else "FAIL"
    print(
        f"{verdict}: {total_values} float32 values compared bit for bit with torch "
        f"{torch.__version__}, {total_bad} mismatching ({seconds:.1f} s)"
    )
    sys.exit(0 if total_bad == 0 else 1)


if __name__ == "__main__":
    main()
