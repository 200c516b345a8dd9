#!/usr/bin/env python3
"""native/bench/cuda/gpu_bench_table.py on made-up JSON in the formats of both benchmarks.

Usage: test_gpu_bench_table.py PATH/TO/gpu_bench_table.py
The times are invented so that each target comes out one way; every expected number below is
worked out by hand from them.
"""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = sys.argv.pop(1)
spec = importlib.util.spec_from_file_location("gpu_bench_table", SCRIPT)
table = importlib.util.module_from_spec(spec)
spec.loader.exec_module(table)

GPT2 = "V:50257/d:768/n:1024"
LLAMA = "V:128256/d:4096/n:8192"  # n * d = 2^25: a bandwidth-bound size


def ours_run(benchmark, shape, micros, repetition, **fields):
    run = {
        "name": f"BM_cuda_{benchmark}/{shape}/iterations:1/manual_time",
        "run_type": "iteration",
        "repetition_index": repetition,
        "real_time": micros,
        "time_unit": "us",
    }
    run.update(fields)
    return run


def ours_case(benchmark, shape, micros, **fields):
    return [ours_run(benchmark, shape, t, i, **fields) for i, t in enumerate(micros)]


def ours_error(benchmark, shape, message):
    return [
        {
            "name": f"BM_cuda_{benchmark}/{shape}/iterations:1/manual_time",
            "run_type": "iteration",
            "repetition_index": i,
            "error_occurred": True,
            "error_message": message,
        }
        for i in range(3)
    ]


OURS = {
    "context": {
        "cuda_device": "Made-up GPU",
        "cuda_driver_version": "13000",
        "date": "today",
        "cuda_runtime_version": "13000",
        "cublas_version": "130100",
        "cuda_timing": "per call from a cold L2",
    },
    "benchmarks": ours_case("copy_f32", GPT2, [3.0, 3.2, 3.1])
    + ours_case("gather_vec4", GPT2, [5.0, 4.0, 6.0], of_copy=0.6)
    + ours_case("gather_naive", GPT2, [8.0, 8.0, 8.0])
    + ours_case("onehot_gemm", GPT2, [1600.0, 1610.0, 1620.0])
    + ours_case(
        "onehot_gemm_tf32",
        GPT2,
        [400.0, 400.0, 400.0],
        differing=0.99,
        label="equals the lookup of W rounded to TF32, nearest, ties away from zero",
    )
    + ours_case("backward_deterministic", GPT2, [60.0, 61.0, 62.0])
    +
    # An aggregate must be ignored: its time would otherwise count as a fourth repetition.
    [
        {
            "name": f"BM_cuda_gather_vec4/{GPT2}/iterations:1/manual_time_median",
            "run_type": "aggregate",
            "aggregate_name": "median",
            "real_time": 999.0,
            "time_unit": "us",
        }
    ]
    + ours_case("copy_f32", LLAMA, [100.0, 100.0, 100.0])
    + ours_case("gather_vec4", LLAMA, [105.0, 105.0, 105.0])
    + ours_case("gather_bf16", LLAMA, [60.0, 60.0, 60.0], label="vec8")
    + ours_error("onehot_gemm", LLAMA, "skipped: needs 18.1 GiB of device memory, 16.0 GiB free")
    + ours_error("backward_deterministic", LLAMA, "the GPU result differs from the CPU core's"),
}


def torch_case(label, shape, micros, **fields):
    result = {"name": f"{label}/{shape}", "seconds": [t * 1e-6 for t in micros]}
    result.update(fields)
    return result


TORCH = {
    "device": "Made-up GPU",
    "torch": "2.11.0",
    "cuda": "13.0",
    "repetitions": 3,
    "results": [
        torch_case("torch_embedding", GPT2, [10.0, 11.0, 12.0]),
        torch_case("torch_onehot_mm", GPT2, [1500.0, 1500.0, 1500.0], differing=0.0),
        torch_case("torch_embedding_bwd", GPT2, [120.0, 120.0, 120.0]),
        torch_case("torch_embedding", LLAMA, [104.0, 104.0, 104.0]),
        {"name": f"torch_onehot_mm/{LLAMA}", "skipped": "out of device memory"},
    ],
}


class Report(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.text = table.render(OURS, TORCH, ["nvidia-smi: driver 580.1"])
        cls.lines = cls.text.splitlines()

    def line(self, start):
        found = [line for line in self.lines if line.startswith(start)]
        self.assertEqual(len(found), 1, f"one line starting {start!r}:\n{self.text}")
        return found[0]

    def test_header_names_device_versions_and_notes(self):
        self.assertIn(
            "Made-up GPU, driver 13000, CUDA runtime 13000, cuBLAS 130100, today", self.text
        )
        self.assertIn("PyTorch: 2.11.0 (CUDA 13.0)", self.text)
        self.assertIn("- nvidia-smi: driver 580.1", self.lines)

    def test_side_by_side_row(self):
        # Medians 5.0 and 11.0 us; floor 3.1 us: 3.1 / 5.0 = 0.62, 3.1 / 11 = 0.28; 11 / 5 = 2.20.
        self.assertEqual(
            self.line("| 50257 | 768 | 1024 | gather, float32 |"),
            "| 50257 | 768 | 1024 | gather, float32 | gather_vec4 | 5.00 | 0.62 | "
            "torch_embedding | 11.0 | 0.28 | 2.20 |",
        )

    def test_skips_and_failures_are_shown_not_dropped(self):
        row = self.line("| 128256 | 4096 | 8192 | one-hot product, FP32 |")
        self.assertIn("skipped: needs 18.1 GiB of device memory, 16.0 GiB free", row)
        self.assertIn("out of device memory", row)

    def test_targets(self):
        def target(start):
            return self.line(f"- {start}")

        # 100 / 105 = 0.952 at the one shape with n * d >= 2^24.
        self.assertIn(
            "**met** (lowest 0.95 at V = 128256, d = 4096, n = 8192)",
            target("float32 gather ≥ 0.90 of the same-bytes copy"),
        )
        self.assertIn(
            "**met** (2.20× at V = 50257, d = 768, n = 1024)",
            target("float32 gather ≥ 1.5× F.embedding"),
        )
        # 104 / 105 = 0.990: slower than PyTorch at the Llama shape.
        self.assertIn(
            "**not met, 1 of 2 shapes fail** (slowest 0.99× at V = 128256, d = 4096, " "n = 8192)",
            target("float32 gather never slower"),
        )
        # 120 / 61 = 1.967; the Llama backward failed its check, so it has no time.
        self.assertIn("**met** (lowest 1.97× at V = 50257", target("deterministic backward ≥ 1.5×"))
        self.assertIn(
            "**not met** (V = 128256, d = 4096, n = 8192)",
            target("deterministic backward bit-identical"),
        )
        # 1610 / 1500 = 1.073 > 1.05.
        self.assertIn(
            "**not met, 1 of 1 shapes fail** (ours at worst 1.073× PyTorch's time",
            target("one-hot SGEMM within 1.05×"),
        )
        # 105 / 60 = 1.75 < 1.8.
        self.assertIn(
            "**not met, 1 of 1 shapes fail** (lowest 1.75× at V = 128256",
            target("bfloat16 gather ≥ 1.8×"),
        )

    def test_onehot_cost_at_training_size(self):
        # 2 x 8192 x 128255 x 4096 = 8.607e12 FLOPs on zeros; the product itself was skipped.
        row = self.line("| 128256 | 4096 | 8192 | 105 |")
        self.assertIn("skipped: needs 18.1 GiB", row)
        self.assertIn("| 8.61e+12 |", row)
        self.assertNotIn("| 50257 | 768 | 1024 | 5.00 |", self.text)  # inference size: not here

    def test_tf32_row(self):
        self.assertEqual(
            self.line("| 50257 | 768 | 1024 | 99.0% |"),
            "| 50257 | 768 | 1024 | 99.0% | equals the lookup of W rounded to TF32, "
            "nearest, ties away from zero | — |",
        )

    def test_aggregates_are_not_repetitions(self):
        self.assertNotIn("999", self.text)

    def test_command_line(self):
        with tempfile.TemporaryDirectory() as folder:
            ours, theirs = os.path.join(folder, "ours.json"), os.path.join(folder, "torch.json")
            for path, content in ((ours, OURS), (theirs, TORCH)):
                with open(path, "w") as out:
                    json.dump(content, out)
            run = subprocess.run(
                [
                    sys.executable,
                    SCRIPT,
                    "--ours",
                    ours,
                    "--torch",
                    theirs,
                    "--note",
                    "nvidia-smi: driver 580.1",
                ],
                capture_output=True,
                text=True,
                check=True,
            )
        self.assertEqual(run.stdout, self.text)


if __name__ == "__main__":
    unittest.main()
