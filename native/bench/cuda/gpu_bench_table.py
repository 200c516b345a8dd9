#!/usr/bin/env python3
"""One markdown report from embedlab_bench_cuda's JSON and torch_reference_bench.py's JSON.

  gpu_bench_table.py --ours cuda.json --torch torch_cuda.json [--note TEXT]... > table.md

Every time is the median of the repetitions' means per call. The report holds:
  - the side-by-side table: each operation, ours next to PyTorch's by name, per shape, with
    "of copy" (the same-bytes cudaMemcpyAsync's time over the operation's: 1 is as fast as
    copying the result) and PyTorch's time over ours (above 1: ours is faster);
  - the CUDA backend's targets (Report.targets()), each met, not met (with the worst case),
    or not measured;
  - the one-hot product's cost at training and inference sizes, in seconds and wasted FLOPs;
  - what TF32 does to the one-hot product's bits.
Standard library only, so it runs wherever the benchmarks ran.
"""
import argparse
import json
import re
import statistics
import sys

NAME = re.compile(r"BM_cuda_(\w+?)/(V:(\d+)/d:(\d+)/n:(\d+))")
TORCH_NAME = re.compile(r"(torch_\w+?)/(V:(\d+)/d:(\d+)/n:(\d+))$")
TIME_UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
COUNTERS = ("of_copy", "GB/s", "calls", "GFLOP/s", "wasted_FLOP", "differing")
F32_GATHER = ("gather_vec4", "gather_naive")  # the float32 gather: vec4 where d % 4 == 0

# (operation, our benchmarks (the first one measured is shown), PyTorch's, floor element).
ROWS = (
    ("copy, float32 (the floor)", ("copy_f32",), "torch_copy_f32", "f32"),
    ("copy, bfloat16 (the floor)", ("copy_bf16",), "torch_copy_bf16", "bf16"),
    ("gather, float32", F32_GATHER, "torch_embedding", "f32"),
    ("gather, float32, naive kernel", ("gather_naive",), None, "f32"),
    ("gather, bfloat16", ("gather_bf16",), "torch_embedding_bf16", "bf16"),
    ("one-hot fill, float32", ("one_hot_fill",), None, None),
    ("one-hot product, FP32", ("onehot_gemm",), "torch_onehot_mm", "f32"),
    ("one-hot product, TF32", ("onehot_gemm_tf32",), "torch_onehot_mm_tf32", "f32"),
    ("one-hot product, bfloat16", ("onehot_gemm_bf16",), "torch_onehot_mm_bf16", "bf16"),
    ("backward, deterministic", ("backward_deterministic",), "torch_embedding_bwd", "f32"),
    ("backward, atomic", ("backward_atomic",), None, "f32"),
)


class Case:
    """One benchmark on one shape: its repetitions' seconds, counters, label, or its error."""

    def __init__(self):
        self.seconds, self.counters, self.label, self.error = [], {}, "", ""

    @property
    def median(self):
        return statistics.median(self.seconds) if self.seconds else None

    def counter(self, name):
        values = self.counters.get(name)
        return statistics.median(values) if values else None


def shape_of(match):
    return tuple(int(match.group(i)) for i in (3, 4, 5))


def read_ours(report):
    """{(benchmark, shape): Case} from Google Benchmark's JSON (aggregates ignored: the
    repetitions are read one by one)."""
    cases = {}
    for run in report.get("benchmarks", []):
        match = NAME.match(run["name"])
        if not match or run.get("run_type") == "aggregate":
            continue
        case = cases.setdefault((match.group(1), shape_of(match)), Case())
        if run.get("error_occurred"):
            case.error = run.get("error_message", "error")
            continue
        case.seconds.append(run["real_time"] * TIME_UNITS[run.get("time_unit", "ns")])
        for name in COUNTERS:
            if name in run:
                case.counters.setdefault(name, []).append(run[name])
        case.label = run.get("label", case.label)
    return cases


def read_torch(report):
    cases = {}
    for result in report.get("results", []):
        match = TORCH_NAME.match(result["name"])
        if not match:
            continue
        case = cases.setdefault((match.group(1), shape_of(match)), Case())
        case.error = result.get("skipped", "")
        case.seconds = list(result.get("seconds", []))
        if "differing" in result:
            case.counters["differing"] = [result["differing"]]
    return cases


def micros(seconds):
    if seconds is None:
        return "—"
    us = seconds * 1e6
    return f"{us:,.0f}" if us >= 100 else f"{us:.1f}" if us >= 10 else f"{us:.2f}"


def ratio(x):
    """Two decimals; two significant digits below 0.1 (a one-hot product is ~0.002 of a copy)."""
    return "—" if x is None else f"{x:.2f}" if x >= 0.1 else f"{x:.2g}"


class Report:
    def __init__(self, ours, torch):
        self.ours, self.torch = ours, torch
        self.shapes = []
        for _, shape in list(ours) + list(torch):
            if shape not in self.shapes:
                self.shapes.append(shape)

    def our_case(self, names, shape):
        """The first of these benchmarks measured (or failed) on this shape, with its name."""
        for name in names:
            case = self.ours.get((name, shape))
            if case is not None:
                return name, case
        return None, None

    def floor(self, element, shape):
        case = self.ours.get((f"copy_{element}", shape)) if element else None
        return case.median if case else None

    def table(self):
        lines = [
            "| V | d | n | operation | ours | µs | of copy | PyTorch | µs | of copy | "
            "PyTorch ÷ ours |",
            "|---:|---:|---:|---|---|---:|---:|---|---:|---:|---:|",
        ]
        for operation, our_names, torch_name, element in ROWS:
            for shape in self.shapes:
                name, case = self.our_case(our_names, shape)
                theirs = self.torch.get((torch_name, shape)) if torch_name else None
                if case is None and theirs is None:
                    continue
                floor = self.floor(element, shape)
                ours_cell = self.cell(case, floor)
                torch_cell = self.cell(theirs, floor)
                speed = (
                    theirs.median / case.median
                    if case and theirs and case.median and theirs.median
                    else None
                )
                lines.append(
                    f"| {shape[0]} | {shape[1]} | {shape[2]} | {operation} | "
                    f"{name or '—'} | {ours_cell} | {torch_name or '—'} | {torch_cell} | "
                    f"{ratio(speed)} |"
                )
        return lines

    @staticmethod
    def cell(case, floor):
        """'µs | of copy', or the error across both columns."""
        if case is None:
            return "— | —"
        if case.median is None:
            return f"{case.error or 'no time'} | —"
        return f"{micros(case.median)} | {ratio(floor / case.median if floor else None)}"

    def ours_median(self, names, shape):
        _, case = self.our_case(names, shape)
        return case.median if case else None

    def torch_median(self, name, shape):
        case = self.torch.get((name, shape))
        return case.median if case else None

    def targets(self):
        gather = lambda s: self.ours_median(F32_GATHER, s)
        ours = lambda name: lambda s: self.ours_median((name,), s)
        torch = lambda name: lambda s: self.torch_median(name, s)
        big = [s for s in self.shapes if s[1] * s[2] >= 1 << 24]
        large_n = [s for s in self.shapes if s[2] >= 1024]
        at = lambda s: f"V = {s[0]}, d = {s[1]}, n = {s[2]}"
        lines = []

        def ratios(numerator, denominator, shapes):
            """(shape, numerator / denominator) where both were measured: larger is better."""
            return [
                (s, numerator(s) / denominator(s))
                for s in shapes
                if numerator(s) and denominator(s)
            ]

        def verdict(text, values, bound, worst):
            """Met when every value >= bound; names the worst (smallest) value either way."""
            if not values:
                lines.append(f"- {text}: **not measured**")
                return
            failing = sum(1 for _, v in values if v < bound)
            shape, value = min(values, key=lambda sv: sv[1])
            state = f"not met, {failing} of {len(values)} shapes fail" if failing else "met"
            lines.append(f"- {text}: **{state}** ({worst(value)} at {at(shape)})")

        verdict(
            "float32 gather ≥ 0.90 of the same-bytes copy where n·d ≥ 2^24",
            ratios(ours("copy_f32"), gather, big),
            0.90,
            lambda v: f"lowest {v:.2f}",
        )
        verdict(
            "float32 gather ≥ 1.5× F.embedding at V = 50257, d = 768, n = 1024",
            ratios(
                torch("torch_embedding"),
                gather,
                [s for s in self.shapes if s == (50257, 768, 1024)],
            ),
            1.5,
            lambda v: f"{v:.2f}×",
        )
        verdict(
            "float32 gather never slower than F.embedding",
            ratios(torch("torch_embedding"), gather, self.shapes),
            1.0,
            lambda v: f"slowest {v:.2f}×",
        )
        backward = (torch("torch_embedding_bwd"), ours("backward_deterministic"))
        verdict(
            "deterministic backward ≥ 1.5× embedding_dense_backward at n ≥ 1024",
            ratios(*backward, large_n),
            1.5,
            lambda v: f"lowest {v:.2f}×",
        )
        verdict(
            "deterministic backward never slower than embedding_dense_backward",
            ratios(*backward, self.shapes),
            1.0,
            lambda v: f"slowest {v:.2f}×",
        )
        unequal = [
            at(s)
            for s in self.shapes
            if "differs" in getattr(self.ours.get(("backward_deterministic", s)), "error", "")
        ]
        checked = ratios(*backward, self.shapes)
        lines.append(
            "- deterministic backward bit-identical to the CPU: "
            + (
                f"**not met** ({'; '.join(unequal)})"
                if unequal
                else "**met** (every case checks its result before it is timed)"
                if checked
                else "**not measured**"
            )
        )
        # Within 1.05x: ours / PyTorch <= 1.05, i.e. PyTorch / ours >= 1 / 1.05.
        verdict(
            "one-hot SGEMM within 1.05× of torch.mm",
            ratios(torch("torch_onehot_mm"), ours("onehot_gemm"), self.shapes),
            1 / 1.05,
            lambda v: f"ours at worst {1 / v:.3f}× PyTorch's time",
        )
        verdict(
            "bfloat16 gather ≥ 1.8× the float32 gather where n·d ≥ 2^24",
            ratios(gather, ours("gather_bf16"), big),
            1.8,
            lambda v: f"lowest {v:.2f}×",
        )
        return lines

    def onehot_cost(self):
        """The model shapes (a batch of 8192 tokens or more, or Llama 3's V)."""
        lines = [
            "| V | d | n | gather µs | one-hot FP32 s | TF32 s | bfloat16 s | wasted FLOPs | "
            "FP32 ÷ gather |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for shape in self.shapes:
            vocab, dim, n = shape
            if n < 8192 and vocab != 128256:
                continue
            gather = self.ours_median(F32_GATHER, shape)
            products = [
                self.ours.get((name, shape))
                for name in ("onehot_gemm", "onehot_gemm_tf32", "onehot_gemm_bf16")
            ]
            cells = [
                f"{c.median:.4f}" if c and c.median else (c.error if c else "—") for c in products
            ]
            fp32 = self.ours_median(("onehot_gemm",), shape)
            slower = f"{fp32 / gather:,.0f}" if fp32 and gather else "—"
            lines.append(
                f"| {vocab} | {dim} | {n} | {micros(gather)} | {' | '.join(cells)} | "
                f"{2.0 * n * (vocab - 1) * dim:.3g} | {slower} |"
            )
        return lines

    def tf32(self):
        lines = [
            "| V | d | n | ours: values differing from the lookup | what they equal | "
            "PyTorch: values differing from F.embedding |",
            "|---:|---:|---:|---:|---|---:|",
        ]
        for shape in self.shapes:
            ours = self.ours.get(("onehot_gemm_tf32", shape))
            theirs = self.torch.get(("torch_onehot_mm_tf32", shape))
            if not ours and not theirs:
                continue
            differ = lambda c: (
                f"{c.counter('differing'):.1%}" if c and c.counter("differing") is not None else "—"
            )
            lines.append(
                f"| {shape[0]} | {shape[1]} | {shape[2]} | {differ(ours)} | "
                f"{ours.label if ours else '—'} | {differ(theirs)} |"
            )
        return lines


def render(ours_report, torch_report, notes):
    report = Report(read_ours(ours_report), read_torch(torch_report))
    context = ours_report.get("context", {})
    lines = ["# The CUDA backend against PyTorch, one device call", ""]
    lines.append(
        f"- ours: {context.get('cuda_device', '?')}, driver "
        f"{context.get('cuda_driver_version', '?')}, CUDA runtime "
        f"{context.get('cuda_runtime_version', '?')}, cuBLAS "
        f"{context.get('cublas_version', '?')}, {context.get('date', '?')}"
    )
    lines.append(
        f"- PyTorch: {torch_report.get('torch', '?')} (CUDA {torch_report.get('cuda', '?')}) "
        f"on {torch_report.get('device', '?')}"
    )
    lines.append(
        f"- timing: {context.get('cuda_timing', '?')}; median of "
        f"{torch_report.get('repetitions', '?')} repetitions"
    )
    lines += [f"- {note}" for note in notes]
    lines += ["", "## Targets", ""] + report.targets()
    lines += [
        "",
        "## The one-hot product at training and inference sizes",
        "",
    ] + report.onehot_cost()
    lines += ["", "## TF32 and the equivalence", ""] + report.tf32()
    lines += ["", "## Every case, ours next to PyTorch's", ""] + report.table()
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ours", required=True, help="embedlab_bench_cuda's --benchmark_out JSON")
    parser.add_argument("--torch", required=True, help="torch_reference_bench.py's --json")
    parser.add_argument("--note", action="append", default=[], help="a line for the header")
    args = parser.parse_args()
    with open(args.ours) as ours, open(args.torch) as theirs:
        sys.stdout.write(render(json.load(ours), json.load(theirs), args.note))
    return 0


if __name__ == "__main__":
    sys.exit(main())
