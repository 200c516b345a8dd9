#!/usr/bin/python3
"""The CLI on the embedding tables of real checkpoints (docs/real-models.md): for each shape of
tests/real_model_tables.py, a sparse .safetensors file, then the walk-through for the ids of
"Hello world" (n = 2) and for 16 ids, timed from the start of the process to the lookup's rows on
stdout and to the product's verdict, its peak resident memory as GNU time reports it.

    /usr/bin/python3 native/bench/real_models.py build/release/native/cli/embedlab [--dir DIR]

Prints a Markdown table. The files are sparse: their holes read as zeros from memory, so the
times leave out the disk (a real 4.2 GB file read cold takes what the disk takes on top); each is
walked once, untimed, before the timed runs, so that both find it in the page cache.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from real_model_tables import HELLO_WORLD, SHAPES, known_rows, write_table  # noqa: E402

SIXTEEN = HELLO_WORLD + [0, 1, 2, 3, 42, 100, 220, 318, 464, 1000, 2000, 3290, 10000, 50000]


def walk(cli, path, ids):
    """(seconds to the lookup's rows, seconds to the verdict, peak resident MiB, verdict)."""
    with tempfile.NamedTemporaryFile(mode="r") as report:
        start = time.perf_counter()
        child = subprocess.Popen(
            [
                "/usr/bin/time",
                "-f",
                "%M",
                "-o",
                report.name,
                cli,
                "--weights",
                path,
                "--ids",
                ",".join(map(str, ids)),
            ],
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        rows_at = verdict_at = None
        verdict = ""
        for line in child.stdout:
            if rows_at is None and line.startswith(">>> embedding(idx)"):
                rows_at = time.perf_counter() - start
            if line.startswith("# match") or line.startswith("# mismatch"):
                verdict_at = time.perf_counter() - start
                verdict = line[2:].strip()
        if child.wait() != 0:
            raise SystemExit(f"{cli} failed on {path}")
        return rows_at, verdict_at, int(report.read().split()[-1]) / 1024, verdict


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cli")
    parser.add_argument(
        "--dir", default=None, help="where the sparse files go (default: a temp dir)"
    )
    args = parser.parse_args()
    folder = tempfile.TemporaryDirectory(dir=args.dir)
    print(
        "| model | table | file | n | lookup's rows (s) | verdict (s) | peak RSS (MiB) | verdict |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---|")
    for model, tensor, vocab, dim, dtype in SHAPES:
        path = os.path.join(folder.name, "model.safetensors")
        size = write_table(path, tensor, vocab, dim, dtype, known_rows(vocab, dim, dtype))
        walk(args.cli, path, HELLO_WORLD)  # a first read fills the page cache with the file's holes
        for ids in (HELLO_WORLD, SIXTEEN):
            rows_at, verdict_at, peak, verdict = walk(args.cli, path, ids)
            print(
                f"| {model} | {vocab} x {dim} {dtype} | {size / 1e9:.2f} GB | {len(ids)} | "
                f"{rows_at:.2f} | {verdict_at:.2f} | {peak:.0f} | {verdict.split(':')[0]} |"
            )
        os.remove(path)


if __name__ == "__main__":
    main()
