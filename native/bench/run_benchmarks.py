#!/usr/bin/python3
"""Runs the native benchmark suites, then plots time vs V and tabulates lookup's speedup.

    /usr/bin/python3 native/bench/run_benchmarks.py            # full run, ~4-6 min on 2 cores
    /usr/bin/python3 native/bench/run_benchmarks.py --publish  # also refresh docs/benchmarks/
    /usr/bin/python3 native/bench/run_benchmarks.py --replot   # redraw from the last JSON

Needs a Release build of the suites first:
    cmake -S . -B build/bench -DCMAKE_BUILD_TYPE=Release
    cmake --build build/bench -j2 --target embedlab_bench_lookup embedlab_bench_onehot \
        embedlab_bench_backward

Writes into --out (default results/benchmarks/): <suite>.json (Google Benchmark's own JSON),
machine.txt, time_vs_vocab.png/.svg, speedups.md (lookup over the dense product, per shape,
with the log-log slope of speedup vs V) and targets.md (the performance targets as ratios).
"""
import argparse
import json
import math
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SUITES = ["lookup", "onehot", "backward"]
# Methods drawn on the plot: (benchmark name, label, line style).
PLOTTED = [
    ("BM_memcpy_floor", "memcpy floor (contiguous)", dict(color="black", ls=":", lw=2)),
    ("BM_gather_rows", "gather_rows (lookup kernel)", dict(color="tab:green", lw=2)),
    ("BM_lookup", "lookup() incl. checks + alloc", dict(color="tab:olive", ls="--")),
    ("BM_onehot_sparse", "one-hot x W, sparse", dict(color="tab:purple")),
    ("BM_one_hot", "building the one-hot", dict(color="tab:gray", ls="--")),
    ("BM_onehot_product", "one-hot x W, dense (Eigen)", dict(color="tab:red", lw=2)),
    (
        "BM_sgemm_openblas_1thread",
        "one-hot x W, OpenBLAS 1 thread",
        dict(color="tab:orange", ls="--"),
    ),
    ("BM_embedding_backward", "embedding backward", dict(color="tab:cyan")),
    ("BM_onehot_backward", "one-hot backward (GEMM)", dict(color="tab:brown")),
]
NAME = re.compile(r"^(?P<method>BM_\w+)/V:(?P<V>\d+)/d:(?P<d>\d+)/n:(?P<n>\d+)")
TARGET_SHAPE = (50257, 768, 1024)
MULTITHREADED = {"BM_gather_rows_2threads", "BM_gather_rows_2threads_cold", "BM_sgemm_openblas"}


def machine_description():
    """'AMD EPYC, 2 cores (family 26 model 2), L3 32 MiB' from lscpu."""
    fields = {}
    for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
        key, _, value = line.partition(":")
        fields[key.strip()] = value.strip()
    return (
        f"{fields.get('Model name', '?')}, {fields.get('CPU(s)', '?')} cores "
        f"(family {fields.get('CPU family', '?')} model {fields.get('Model', '?')}), "
        f"L2 {fields.get('L2 cache', '?')}, L3 {fields.get('L3 cache', '?')}"
    )


def run_suites(args, binaries):
    """Runs each suite with its JSON written by --benchmark_out; one progress line per case."""
    # Each case runs `repetitions` times; the JSON keeps every run, the console shows only the
    # aggregates, of which the median line is printed as the case's progress line.
    common = [
        f"--benchmark_min_time={args.min_time}",
        "--benchmark_color=false",
        f"--benchmark_repetitions={args.repetitions}",
        "--benchmark_display_aggregates_only=true",
    ]
    if args.filter:
        common.append(f"--benchmark_filter={args.filter}")
    counts = {}
    for suite, binary in binaries.items():
        listed = subprocess.run(
            [binary, "--benchmark_list_tests", *common[2:]],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        counts[suite] = len(listed)
    total, done = sum(counts.values()), 0
    for suite, binary in binaries.items():
        out = args.out / f"{suite}.json"
        command = [binary, *common, f"--benchmark_out={out}", "--benchmark_out_format=json"]
        print(f"== {suite}: {counts[suite]} cases: {' '.join(map(str, command))}", flush=True)
        with subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1
        ) as process:
            for line in process.stdout:
                case_done = "_median " in line if args.repetitions > 1 else line.startswith("BM_")
                if case_done or "ERROR OCCURRED" in line:
                    done += case_done
                    print(f"[{done:3d}/{total}] {line.rstrip()}", flush=True)
        if process.returncode != 0:
            sys.exit(f"{binary} exited with status {process.returncode}")


def seconds_per_call(method, runs):
    """One number from a case's repetitions. Single-threaded methods: the median CPU time of
    the calling thread, which is the wall time when the core is ours and leaves out the time
    other processes held it (this machine is shared). Methods that use several threads would
    hide their helpers' work from that clock: for them, the fastest wall time."""
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
    if method in MULTITHREADED:
        return min(r["real_time"] * scale[r["time_unit"]] for r in runs)
    return statistics.median(r["cpu_time"] * scale[r["time_unit"]] for r in runs)


def load_results(out):
    """{(method, V, d, n): seconds per call} and [(name, message)] of skipped cases."""
    runs, skipped = {}, {}
    for suite in SUITES:
        path = out / f"{suite}.json"
        if not path.exists():
            continue
        for run in json.loads(path.read_text())["benchmarks"]:
            match = NAME.match(run["name"])
            if run.get("error_occurred"):
                skipped[run["run_name"]] = run.get("error_message", "")
            elif match and run.get("run_type") == "iteration":
                key = (match["method"], int(match["V"]), int(match["d"]), int(match["n"]))
                runs.setdefault(key, []).append(run)
    times = {key: seconds_per_call(key[0], rs) for key, rs in runs.items()}
    return times, sorted(skipped.items())


def axes_values(times):
    vocabs = sorted({k[1] for k in times})
    dims = sorted({k[2] for k in times})
    ns = sorted({k[3] for k in times})
    return vocabs, dims, ns


def plot(times, machine, out):
    vocabs, dims, ns = axes_values(times)
    fig, axes = plt.subplots(
        len(dims), len(ns), figsize=(4.2 * len(ns), 3.4 * len(dims)), sharex=True, squeeze=False
    )
    for row, d in enumerate(dims):
        for col, n in enumerate(ns):
            ax = axes[row][col]
            for method, label, style in PLOTTED:
                points = [
                    (v, times[(method, v, d, n)]) for v in vocabs if (method, v, d, n) in times
                ]
                if points:
                    xs, ys = zip(*points)
                    ax.loglog(xs, [y * 1e6 for y in ys], marker="o", ms=3, label=label, **style)
            ax.set_title(f"d = {d}, n = {n}", fontsize=10)
            ax.grid(True, which="major", alpha=0.3)
            if row == len(dims) - 1:
                ax.set_xlabel("vocabulary size V")
            if col == 0:
                ax.set_ylabel("time per call (µs)")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=4, fontsize=9, frameon=False)
    fig.suptitle(
        f"Embedding lookup vs one-hot product (native, Release, median CPU time of 3 runs)\n{machine}",
        fontsize=11,
    )
    fig.tight_layout(rect=(0, 0.07, 1, 0.95))
    for suffix in ("png", "svg"):
        fig.savefig(out / f"time_vs_vocab.{suffix}", dpi=110)
    plt.close(fig)


def loglog_slope(vocabs, speedups):
    """Slope of log(speedup) against log(V): 1 means the speedup grows in proportion to V."""
    return float(np.polyfit(np.log(vocabs), np.log(speedups), 1)[0])


def speedup_table(times, machine):
    vocabs, dims, ns = axes_values(times)
    lines = [
        f"# Lookup speedup over the dense one-hot product\n",
        f"Machine: {machine}\n",
        "Speedup = time(onehot_product, Eigen dense GEMM) / time(lookup()); both single-"
        "threaded, both allocate their (n, d) result. Slope = least-squares slope of "
        "log(speedup) vs log(V) over V >= 1000 (1.0 = grows in proportion to V).\n",
    ]
    slopes = []
    for d in dims:
        lines.append(f"\n## d = {d}\n")
        lines.append(
            "| V | " + " | ".join(f"n = {n}: speedup (lookup µs, dense µs)" for n in ns) + " |"
        )
        lines.append("|---:|" + "---:|" * len(ns))
        for v in vocabs:
            cells = []
            for n in ns:
                lookup, dense = times.get(("BM_lookup", v, d, n)), times.get(
                    ("BM_onehot_product", v, d, n)
                )
                cells.append(
                    f"**{dense / lookup:,.0f}x** ({lookup * 1e6:.3g}, {dense * 1e6:.3g})"
                    if lookup and dense
                    else "skipped"
                )
            lines.append(f"| {v} | " + " | ".join(cells) + " |")
        row = []
        for n in ns:
            pairs = [
                (v, times[("BM_onehot_product", v, d, n)] / times[("BM_lookup", v, d, n)])
                for v in vocabs
                if v >= 1000
                and ("BM_onehot_product", v, d, n) in times
                and ("BM_lookup", v, d, n) in times
            ]
            if len(pairs) >= 2:
                slope = loglog_slope(*zip(*pairs))
                slopes.append(slope)
                row.append(f"n = {n}: {slope:.2f}")
        lines.append(f"\nlog-log slope of speedup vs V: {', '.join(row)}\n")
    if slopes:
        lines.append(f"\nMean slope over all (d, n): **{sum(slopes) / len(slopes):.2f}**\n")
    return "\n".join(lines)


def ratio_line(label, numerator, denominator, target):
    if numerator is None or denominator is None:
        return f"| {label} | not measured | {target} |"
    return f"| {label} | {numerator / denominator:.2f} | {target} |"


def targets_table(times, machine):
    """The issue's performance targets, each as a ratio of two cases from the same run."""
    v, d, n = TARGET_SHAPE
    t = lambda method: times.get((method, v, d, n))  # noqa: E731
    floor = t("BM_memcpy_floor")
    lines = [
        f"# Performance targets at V = {v}, d = {d}, n = {n}\n",
        f"Machine: {machine}\n",
        "| ratio | measured | target |",
        "|---|---:|---|",
        ratio_line(
            "gather_rows throughput / memcpy floor (warm rows)",
            floor,
            t("BM_gather_rows"),
            ">= 0.75",
        ),
        ratio_line(
            "lookup() throughput / memcpy floor (warm rows)", floor, t("BM_lookup"), ">= 0.75"
        ),
        ratio_line(
            "row-copy loop throughput / memcpy floor (warm rows)",
            floor,
            t("BM_row_copy_loop"),
            "the baseline",
        ),
        ratio_line(
            "gather_rows 2 threads / memcpy floor (warm rows)",
            floor,
            t("BM_gather_rows_2threads"),
            "-",
        ),
        ratio_line(
            "gather_rows throughput / memcpy floor (cold rows)",
            t("BM_memcpy_floor_cold"),
            t("BM_gather_rows_cold"),
            ">= 0.75",
        ),
        ratio_line(
            "row-copy loop / memcpy floor (cold rows)",
            t("BM_memcpy_floor_cold"),
            t("BM_row_copy_loop_cold"),
            "the baseline",
        ),
        ratio_line(
            "gather_rows 2 threads / memcpy floor (cold rows)",
            t("BM_memcpy_floor_cold"),
            t("BM_gather_rows_2threads_cold"),
            "-",
        ),
        ratio_line(
            "Eigen dense time / OpenBLAS sgemm time, 1 thread each",
            t("BM_onehot_product"),
            t("BM_sgemm_openblas_1thread"),
            "<= 1.2",
        ),
        ratio_line(
            "Eigen dense (1 thread) / OpenBLAS sgemm, all cores",
            t("BM_onehot_product"),
            t("BM_sgemm_openblas"),
            "(for reference)",
        ),
    ]
    gemm = [
        times[("BM_onehot_product", *s)] / times[("BM_sgemm_openblas_1thread", *s)]
        for (m, *s) in times
        if m == "BM_onehot_product"
        and ("BM_sgemm_openblas_1thread", *s) in times
        and times[("BM_onehot_product", *s)] > 1e-3
    ]
    if gemm:
        lines.append(
            f"\nEigen / OpenBLAS (1 thread) over all {len(gemm)} shapes slower than 1 ms: "
            f"geometric mean {math.exp(sum(map(math.log, gemm)) / len(gemm)):.2f}, "
            f"worst {max(gemm):.2f}."
        )
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--build-dir", type=Path, default=ROOT / "build/bench")
    parser.add_argument("--out", type=Path, default=ROOT / "results/benchmarks")
    parser.add_argument(
        "--min-time",
        type=float,
        default=0.05,
        help="seconds per case (Google Benchmark 1.7.1: a plain number)",
    )
    parser.add_argument(
        "--repetitions",
        type=int,
        default=3,
        help="runs per case; see seconds_per_call for the number kept",
    )
    parser.add_argument("--filter", help="regex of benchmark names, passed to every suite")
    parser.add_argument("--replot", action="store_true", help="skip running; redraw from the JSON")
    parser.add_argument(
        "--publish", action="store_true", help="copy the plot and tables into docs/benchmarks/"
    )
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    machine = machine_description()
    if not args.replot:
        binaries = {s: args.build_dir / f"native/bench/embedlab_bench_{s}" for s in SUITES}
        missing = [str(b) for b in binaries.values() if not b.exists()]
        if missing:
            print("not built, skipped: " + ", ".join(missing), flush=True)
        run_suites(args, {s: b for s, b in binaries.items() if b.exists()})
        (args.out / "machine.txt").write_text(machine + "\n")
    times, skipped = load_results(args.out)
    for name, message in skipped:
        print(f"skipped {name}: {message}")
    plot(times, machine, args.out)
    (args.out / "speedups.md").write_text(speedup_table(times, machine))
    (args.out / "targets.md").write_text(targets_table(times, machine))
    print((args.out / "targets.md").read_text())
    print(f"wrote {args.out}/: time_vs_vocab.png/.svg, speedups.md, targets.md, <suite>.json")
    if args.publish:
        docs = ROOT / "docs/benchmarks"
        docs.mkdir(parents=True, exist_ok=True)
        for name in ("time_vs_vocab.svg", "time_vs_vocab.png", "speedups.md", "targets.md"):
            shutil.copy(args.out / name, docs / name)
        print(f"published to {docs}/")


if __name__ == "__main__":
    main()
