#!/usr/bin/env python3
"""PyTorch's own CUDA kernels on the shapes of embedlab_bench_cuda, timed the same way.

Run it next to build/.../native/cuda/embedlab_bench_cuda on the same GPU. For each (V, d, n)
of the sweep it times
  torch_embedding:      F.embedding(ids, W)                    (our gather)
  torch_onehot_mm:      torch.mm(onehot, W), onehot prebuilt  (our one-hot SGEMM)
  torch_embedding_bwd:  aten.embedding_dense_backward(G, ids, V, -1, False)  (our backward)
with CUDA events around each call alone, after overwriting a buffer twice the size of L2, and
reports GB/s with the same byte counts as the C++ benchmark and that as a fraction of a
device-to-device copy measured in the same run. TF32 is off, as in our cuBLAS call.

Without CUDA it says so and exits 0; --device cpu runs the same loop on the CPU with a wall
clock (a dry run of the script, not a reference).
"""
import argparse
import itertools
import json
import sys
import time

import torch
import torch.nn.functional as F

VOCABS = (4, 1000, 8192, 50257)
DIMS = (5, 64, 768)
COUNTS = (3, 64, 1024)
LABELS = ("torch_embedding", "torch_onehot_mm", "torch_embedding_bwd")


class Timer:
    """Seconds per call of op(), each call starting with a cold L2 (CUDA) or a plain clock."""

    def __init__(self, device):
        self.device = device
        if device.type == "cuda":
            props = torch.cuda.get_device_properties(device)
            l2_bytes = getattr(props, "L2_cache_size", 0) or 256 << 20  # older torch: assume
            self.flush = torch.empty(2 * l2_bytes, dtype=torch.uint8, device=device)
            self.start = torch.cuda.Event(enable_timing=True)
            self.stop = torch.cuda.Event(enable_timing=True)

    def seconds(self, op, repeats):
        op()  # warm-up: first calls pick kernels and allocate
        total = 0.0
        for i in range(repeats):
            if self.device.type == "cuda":
                self.flush.fill_(i & 0xFF)
                self.start.record()
                op()
                self.stop.record()
                self.stop.synchronize()
                total += self.start.elapsed_time(self.stop) / 1e3
            else:
                begin = time.perf_counter()
                op()
                total += time.perf_counter() - begin
        return total / repeats


def copy_bytes_per_second(timer, device):
    """Best of several 512 MiB device-to-device copies; each byte is read once, written once."""
    nbytes = 512 << 20
    src = torch.ones(nbytes, dtype=torch.uint8, device=device)
    dst = torch.empty_like(src)
    best = min(timer.seconds(lambda: dst.copy_(src), 1) for _ in range(10))
    return 2.0 * nbytes / best


def cases(vocab, dim, n, device, generator):
    """(name, op, bytes moved per call) for one shape; bytes as in bench_cuda.cpp."""
    weight = torch.rand(vocab, dim, generator=generator).mul_(2).sub_(1).to(device)
    ids = torch.randint(0, vocab, (n,), generator=generator).to(device)
    onehot = F.one_hot(ids, vocab).float()
    grad = torch.rand(n, dim, generator=generator).to(device)
    ops = (
        (lambda: F.embedding(ids, weight), 8.0 * n * dim + 8.0 * n),
        (lambda: torch.mm(onehot, weight), 4.0 * (n * vocab + vocab * dim + n * dim)),
        (lambda: torch.ops.aten.embedding_dense_backward(grad, ids, vocab, -1, False),
         4.0 * (vocab * dim + 2 * n * dim) + 8.0 * n),
    )
    for label, (op, nbytes) in zip(LABELS, ops):
        yield label, op, nbytes


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--device", default="cuda", choices=("cuda", "cpu"))
    parser.add_argument("--repeats", type=int, default=50, help="timed calls per case")
    parser.add_argument("--filter", default="", help="only names containing this text")
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args()

    if args.device == "cuda" and not torch.cuda.is_available():
        print("torch_reference_bench: no CUDA device visible to PyTorch "
              f"(torch {torch.__version__}); nothing to benchmark. Run it on a GPU machine.")
        return 0
    device = torch.device(args.device)
    torch.backends.cuda.matmul.allow_tf32 = False
    generator = torch.Generator().manual_seed(20240607)
    timer = Timer(device)
    copy = copy_bytes_per_second(timer, device)
    name = torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu"
    print(f"device: {name}, torch {torch.__version__}, copy bandwidth {copy / 1e9:.1f} GB/s")
    print(f"{'case':<46} {'time (us)':>10} {'GB/s':>8} {'of_copy':>8}")

    results = []
    for vocab, dim, n in itertools.product(VOCABS, DIMS, COUNTS):
        shape = f"V:{vocab}/d:{dim}/n:{n}"
        if not any(args.filter in f"{label}/{shape}" for label in LABELS):
            continue  # build no tensors for a shape nothing will time
        for label, op, nbytes in cases(vocab, dim, n, device, generator):
            case = f"{label}/{shape}"
            if args.filter not in case:
                continue
            seconds = timer.seconds(op, args.repeats)
            rate = nbytes / seconds
            print(f"{case:<46} {seconds * 1e6:>10.2f} {rate / 1e9:>8.1f} {rate / copy:>8.3f}")
            results.append({"name": case, "seconds": seconds, "GB/s": rate / 1e9,
                            "of_copy": rate / copy})
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"device": name, "torch": torch.__version__, "copy_GBps": copy / 1e9,
                       "results": results}, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
