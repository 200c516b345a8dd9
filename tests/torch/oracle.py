"""What the differential tests against real PyTorch share (test_init_vs_torch.py,
test_grad_vs_torch.py).

Import it before torch: it clears ATEN_CPU_CAPABILITY and fails with a clear message where the
system Python has no torch or numpy. Then prepare() reads the command line (a --driver that runs
embedlab's side, reading lines on stdin and writing float32 values on stdout) and skips where the
comparison means nothing; run_driver() runs it.
"""
import argparse
import os
import subprocess
import sys

# embedlab reproduces PyTorch's AVX2 kernels; an inherited override would select the scalar ones.
os.environ.pop("ATEN_CPU_CAPABILITY", None)

try:
    import numpy as np
    import torch
except ImportError as error:
    print(
        f"FAIL: {sys.executable} cannot import torch/numpy ({error}). "
        "The oracle is Debian's PyTorch 1.13.1: apt-get install -y python3-torch"
    )
    sys.exit(1)

SKIP = 77  # ctest's SKIP_RETURN_CODE for these tests


def cpu_has_avx2_fma():
    try:
        with open("/proc/cpuinfo") as f:
            flags = next((line.split() for line in f if line.startswith("flags")), [])
    except OSError:
        return False
    return "avx2" in flags and "fma" in flags


def prepare(doc, driver_name, flags=None):
    """The parsed command line: --driver, then the driver (after its emulator if any), last;
    flags: {"--name": help} of on/off options. Exits SKIP on a CPU without AVX2/FMA, and leaves
    torch on one thread."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument(
        "--driver",
        required=True,
        nargs=argparse.REMAINDER,
        help=f"{driver_name}, after its emulator if any (comes last)",
    )
    for flag, text in (flags or {}).items():
        parser.add_argument(flag, action="store_true", help=text)
    args = parser.parse_args()
    if not args.driver:
        parser.error("--driver needs the driver's path")
    if not cpu_has_avx2_fma():
        print(
            "SKIP: this CPU lacks AVX2/FMA, so PyTorch runs its scalar kernels, "
            "which embedlab does not reproduce"
        )
        sys.exit(SKIP)
    if not torch.__version__.startswith("1.13"):
        # Debian's 1.13.1 calls itself 1.13.0a0.
        print(f"note: torch {torch.__version__}; the reference was verified on 1.13.1")
    torch.set_num_threads(1)
    return args


def run_driver(driver, lines, want, name, timeout):
    """The driver's float32 values for lines; exits 1 (FAIL) when it fails or writes other than
    `want` values for group `name`."""
    result = subprocess.run(
        driver, input=("\n".join(lines) + "\n").encode(), capture_output=True, timeout=timeout
    )
    if result.returncode != 0:
        print(f"FAIL: the driver exited with {result.returncode}: {result.stderr.decode()}")
        sys.exit(1)
    ours = np.frombuffer(result.stdout, dtype=np.float32)
    if ours.size != want:
        print(f"FAIL [{name}]: the driver wrote {ours.size} floats, torch {want}")
        sys.exit(1)
    return ours


def f32(t):
    """A tensor's values as a flat float32 array."""
    return t.detach().contiguous().numpy().astype(np.float32, copy=False).ravel()


def mismatch_text(mine, theirs, k):
    """Element k of both, with their bits: 'embedlab 0.5 (0x3f000000), torch ...'."""
    return (
        f"embedlab {mine[k]!r} ({mine.view(np.uint32)[k]:#010x}), "
        f"torch {theirs[k]!r} ({theirs.view(np.uint32)[k]:#010x})"
    )
