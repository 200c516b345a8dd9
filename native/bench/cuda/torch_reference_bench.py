#!/usr/bin/env python3
"""PyTorch's own kernels on the shapes of embedlab_bench_cuda, timed the same way.

Run it on the same GPU as build/.../native/bench/cuda/embedlab_bench_cuda, on the same shapes:
  embedlab_bench_cuda --benchmark_list_tests > cases.txt
  torch_reference_bench.py --shapes cases.txt --json torch_cuda.json
For each (V, d, n) it times, as the C++ benchmark names them on the right:
  torch_copy_f32, torch_copy_bf16    dst.copy_(src) of n * d values   (BM_cuda_copy_*)
  torch_embedding                    F.embedding(ids, W)              (BM_cuda_gather_vec4)
  torch_embedding_bf16               the same on W.bfloat16()         (BM_cuda_gather_bf16)
  torch_onehot_mm                    torch.mm(onehot, W), TF32 off    (BM_cuda_onehot_gemm)
  torch_onehot_mm_tf32               the same with allow_tf32 = True  (BM_cuda_onehot_gemm_tf32)
  torch_onehot_mm_bf16               both operands bfloat16           (BM_cuda_onehot_gemm_bf16)
  torch_embedding_bwd                aten.embedding_dense_backward    (BM_cuda_backward_deterministic)
The one-hot matrix is prebuilt (zeros, then a scatter of ones: F.one_hot's int64 matrix would
need 34 GB at n = 32768, V = 128256), and only the product is timed.

Timing as in bench_timer.cuh: before each call a reduction reads a buffer four times the size
of L2, then CUDA events around the call alone; the calls of a batch are queued without waiting,
and the flush lasts longer than Python takes to queue the event and the call, so Python's launch
overhead stays out of the events (the copy cases show it: torch_copy_* must time like
BM_cuda_copy_*, the same cudaMemcpyAsync). A calibration times one call (and three more
if it is short) and fixes the calls per repetition to fill about --case-ms of device time.
Each repetition's mean per call is reported, and their median.

Each one-hot product also reports `differing`: the fraction of its values whose bits differ
from F.embedding's on the same W (0 without TF32). A case that does not fit in device memory is
reported as skipped.

Without CUDA it says so and exits 0; --device cpu runs the same loop on the CPU with a wall
clock (a dry run of the script, not a reference).
"""
import argparse
import json
import re
import statistics
import sys
import time

import torch
import torch.nn.functional as F

SHAPE = re.compile(r"V:(\d+)/d:(\d+)/n:(\d+)")
MAX_CALLS = 2000
TIMING = {
    "cuda": "per call from a cold L2 (a read of 4x L2 before each call), CUDA events "
    "around the call alone",
    "cpu": "wall clock per call, no flush: a dry run of the script, not a reference",
}


def calls_for(seconds_per_call, target_seconds, max_calls=MAX_CALLS):
    """Calls per repetition: calls_for in native/bench/cuda/bench_plan.cpp, the same rule."""
    if not seconds_per_call > 0:
        return max_calls
    return int(min(max(round(target_seconds / seconds_per_call), 1), max_calls))


def shapes_in(lines):
    """The distinct (V, d, n) named in these lines, in order of first appearance."""
    seen = []
    for line in lines:
        match = SHAPE.search(line)
        if match:
            shape = tuple(int(x) for x in match.groups())
            if shape not in seen:
                seen.append(shape)
    return seen


class ColdTimer:
    """Per-call times (cold L2, events around the call alone) on CUDA; a plain clock on CPU."""

    def __init__(self, device):
        self.device = device
        if device.type != "cuda":
            return
        props = torch.cuda.get_device_properties(device)
        l2_bytes = getattr(props, "L2_cache_size", 0) or 256 << 20  # older torch: assume
        self.flush = torch.ones(l2_bytes, dtype=torch.int32, device=device)  # 4x L2 bytes
        event = lambda: torch.cuda.Event(enable_timing=True)
        self.starts = [event() for _ in range(MAX_CALLS)]
        self.stops = [event() for _ in range(MAX_CALLS)]
        self.batch_start, self.batch_stop = event(), event()

    def time(self, op, calls):
        """(mean seconds of one call, mean seconds per call with its flush)."""
        if self.device.type != "cuda":
            begin = time.perf_counter()
            for _ in range(calls):
                op()
            seconds = (time.perf_counter() - begin) / calls
            return seconds, seconds
        self.batch_start.record()
        for start, stop in zip(self.starts[:calls], self.stops[:calls]):
            self.flush.sum()
            start.record()
            op()
            stop.record()
        self.batch_stop.record()
        self.batch_stop.synchronize()
        calls_ms = sum(s.elapsed_time(e) for s, e in zip(self.starts[:calls], self.stops[:calls]))
        return calls_ms / calls / 1e3, self.batch_start.elapsed_time(self.batch_stop) / calls / 1e3


def differing(got, expected):
    """The fraction of values whose bits differ."""
    as_int = {torch.float32: torch.int32, torch.bfloat16: torch.int16}[got.dtype]
    return (got.view(as_int) != expected.view(as_int)).double().mean().item()


def one_hot(ids, vocab, dtype):
    return torch.zeros(ids.numel(), vocab, dtype=dtype, device=ids.device).scatter_(
        1, ids.unsqueeze(1), 1.0
    )


# Each case: (label, make). make(weight, ids, grad) builds what the case needs and returns
# (op, bytes the operation must move, TF32 on?, the result op() must equal bit for bit or None).
# Byte counts as in bench_cuda.cpp.
def copy_case(dtype):
    def make(weight, ids, grad):
        source = torch.zeros(ids.numel(), weight.shape[1], dtype=dtype, device=weight.device)
        target = torch.empty_like(source)
        return (
            lambda: target.copy_(source),
            2.0 * source.numel() * source.element_size(),
            False,
            None,
        )

    return make


def embedding_case(dtype):
    def make(weight, ids, grad):
        table = weight.to(dtype)
        n, dim = ids.numel(), weight.shape[1]
        return (
            lambda: F.embedding(ids, table),
            2.0 * n * dim * table.element_size() + 8.0 * n,
            False,
            None,
        )

    return make


def onehot_mm_case(dtype, tf32):
    def make(weight, ids, grad):
        table = weight.to(dtype)
        onehot = one_hot(ids, weight.shape[0], dtype)
        (vocab, dim), n = weight.shape, ids.numel()
        nbytes = table.element_size() * float(n * vocab + vocab * dim + n * dim)
        return lambda: torch.mm(onehot, table), nbytes, tf32, F.embedding(ids, table)

    return make


def backward_case(weight, ids, grad):
    (vocab, dim), n = weight.shape, ids.numel()
    op = lambda: torch.ops.aten.embedding_dense_backward(grad, ids, vocab, -1, False)
    return op, 4.0 * (vocab * dim + 2 * n * dim) + 8.0 * n, False, None


CASES = (
    ("torch_copy_f32", copy_case(torch.float32)),
    ("torch_copy_bf16", copy_case(torch.bfloat16)),
    ("torch_embedding", embedding_case(torch.float32)),
    ("torch_embedding_bf16", embedding_case(torch.bfloat16)),
    ("torch_onehot_mm", onehot_mm_case(torch.float32, tf32=False)),
    ("torch_onehot_mm_tf32", onehot_mm_case(torch.float32, tf32=True)),
    ("torch_onehot_mm_bf16", onehot_mm_case(torch.bfloat16, tf32=False)),
    ("torch_embedding_bwd", backward_case),
)


def run_case(timer, make, inputs, repetitions, case_seconds):
    """One case's record: repetitions' mean seconds per call, calls, differing; or why skipped."""
    try:
        op, nbytes, tf32, expected = make(*inputs)
        torch.backends.cuda.matmul.allow_tf32 = tf32
        record = {}
        result = op()  # first call: kernel choice, allocations; and the value to compare
        if expected is not None:
            record["differing"] = differing(result, expected)
        del result, expected
        per_call = timer.time(op, 1)[1]
        if per_call < case_seconds:
            per_call = timer.time(op, 3)[1]
        calls = calls_for(per_call, case_seconds)
        seconds = [timer.time(op, calls)[0] for _ in range(repetitions)]
        median = statistics.median(seconds)
        record.update(
            {
                "seconds": seconds,
                "median_seconds": median,
                "calls": calls,
                "GB/s": nbytes / median / 1e9,
            }
        )
        return record
    except RuntimeError as error:  # torch.cuda.OutOfMemoryError is one
        if "out of memory" not in str(error):
            raise
        return {"skipped": "out of device memory"}
    finally:
        torch.backends.cuda.matmul.allow_tf32 = False
        if timer.device.type == "cuda":
            torch.cuda.empty_cache()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--shapes",
        help="a file naming shapes as V:1000/d:64/n:64, e.g. the "
        "output of embedlab_bench_cuda --benchmark_list_tests",
    )
    parser.add_argument("--shape", action="append", default=[], help="one more V:../d:../n:..")
    parser.add_argument("--device", default="cuda", choices=("cuda", "cpu"))
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument(
        "--case-ms",
        type=float,
        default=20.0,
        help="device time per repetition of a case (default 20)",
    )
    parser.add_argument("--filter", default="", help="only cases whose name contains this text")
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args()
    lines = list(args.shape)
    if args.shapes:
        with open(args.shapes) as listing:
            lines += listing.read().splitlines()
    shapes = shapes_in(lines)
    if not shapes:
        parser.error("no shapes: give --shapes FILE or --shape V:../d:../n:..")
    if args.repetitions < 1 or not args.case_ms > 0:
        parser.error("--repetitions must be at least 1 and --case-ms positive")

    if args.device == "cuda" and not torch.cuda.is_available():
        print(
            "torch_reference_bench: no CUDA device visible to PyTorch "
            f"(torch {torch.__version__}); nothing to benchmark. Run it on a GPU machine."
        )
        return 0
    device = torch.device(args.device)
    generator = torch.Generator(device=device).manual_seed(20240607)
    timer = ColdTimer(device)
    name = torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu"
    print(
        f"device: {name}, torch {torch.__version__} (CUDA {torch.version.cuda}), "
        f"{len(shapes)} shapes x {len(CASES)} cases, {args.repetitions} repetitions",
        flush=True,
    )
    print(f"{'case':<52} {'median us':>10} {'calls':>6} {'GB/s':>8}", flush=True)

    results = []
    for vocab, dim, n in shapes:
        shape = f"V:{vocab}/d:{dim}/n:{n}"
        chosen = [(label, make) for label, make in CASES if args.filter in f"{label}/{shape}"]
        if not chosen:
            continue  # build no tensors for a shape nothing will time
        weight = torch.rand(vocab, dim, generator=generator, device=device).mul_(2).sub_(1)
        ids = torch.randint(0, vocab, (n,), generator=generator, device=device)
        grad = torch.rand(n, dim, generator=generator, device=device)
        for label, make in chosen:
            case = f"{label}/{shape}"
            record = {"name": case}
            record.update(
                run_case(timer, make, (weight, ids, grad), args.repetitions, args.case_ms / 1e3)
            )
            results.append(record)
            if "skipped" in record:
                print(f"{case:<52} skipped: {record['skipped']}", flush=True)
            else:
                print(
                    f"{case:<52} {record['median_seconds'] * 1e6:>10.2f} {record['calls']:>6} "
                    f"{record['GB/s']:>8.1f}",
                    flush=True,
                )
        del weight, ids, grad
    if args.json:
        with open(args.json, "w") as out:
            json.dump(
                {
                    "device": name,
                    "torch": torch.__version__,
                    "cuda": torch.version.cuda,
                    "timing": TIMING[device.type],
                    "case_ms": args.case_ms,
                    "repetitions": args.repetitions,
                    "results": results,
                },
                out,
                indent=1,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
