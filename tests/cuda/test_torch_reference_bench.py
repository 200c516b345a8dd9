#!/usr/bin/env python3
"""native/bench/cuda/torch_reference_bench.py as a dry run on the CPU (real PyTorch, tiny shapes).

Usage: test_torch_reference_bench.py PATH/TO/torch_reference_bench.py
Checks what the GPU run relies on: the shapes come from embedlab_bench_cuda's case names, every
case of every shape is reported under the name gpu_bench_table.py pairs it by, with its
repetitions and median, and the one-hot products reproduce F.embedding's bits (no TF32 on a CPU).
"""
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import unittest

SCRIPT = sys.argv.pop(1)
spec = importlib.util.spec_from_file_location("torch_reference_bench", SCRIPT)
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)

LABELS = [
    "torch_copy_f32",
    "torch_copy_bf16",
    "torch_embedding",
    "torch_embedding_bf16",
    "torch_onehot_mm",
    "torch_onehot_mm_tf32",
    "torch_onehot_mm_bf16",
    "torch_embedding_bwd",
]


class Arithmetic(unittest.TestCase):
    def test_calls_follow_the_cpp_rule(self):
        # As tests/cuda/test_bench_plan.cpp: 20 ms / 44 us = 454.5 -> 455, capped, at least 1.
        self.assertEqual(bench.calls_for(44e-6, 0.020), 455)
        self.assertEqual(bench.calls_for(4e-6, 0.020), 2000)
        self.assertEqual(bench.calls_for(0.690, 0.020), 1)
        self.assertEqual(bench.calls_for(0.0, 0.020), 2000)

    def test_shapes_from_benchmark_names(self):
        names = [
            "BM_cuda_copy_f32/V:4/d:5/n:3/iterations:1/manual_time",
            "BM_cuda_gather_vec4/V:1000/d:64/n:64/iterations:1/manual_time",
            "BM_cuda_gather_naive/V:4/d:5/n:3/iterations:1/manual_time",
            "a line without a shape",
        ]
        self.assertEqual(bench.shapes_in(names), [(4, 5, 3), (1000, 64, 64)])


class DryRun(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.TemporaryDirectory()
        listing = os.path.join(cls.folder.name, "cases.txt")
        with open(listing, "w") as out:
            out.write(
                "BM_cuda_gather_vec4/V:4/d:8/n:3/iterations:1/manual_time\n"
                "BM_cuda_onehot_gemm/V:4/d:8/n:3/iterations:1/manual_time\n"
                "BM_cuda_onehot_gemm/V:300/d:16/n:40/iterations:1/manual_time\n"
            )
        cls.json_path = os.path.join(cls.folder.name, "torch.json")
        cls.result = subprocess.run(
            [
                sys.executable,
                SCRIPT,
                "--device",
                "cpu",
                "--shapes",
                listing,
                "--repetitions",
                "2",
                "--case-ms",
                "1",
                "--json",
                cls.json_path,
            ],
            capture_output=True,
            text=True,
        )

    @classmethod
    def tearDownClass(cls):
        cls.folder.cleanup()

    def test_every_case_of_every_shape(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        with open(self.json_path) as report:
            results = json.load(report)["results"]
        expected = [
            f"{label}/{shape}" for shape in ("V:4/d:8/n:3", "V:300/d:16/n:40") for label in LABELS
        ]
        self.assertEqual([r["name"] for r in results], expected)
        for r in results:
            self.assertEqual(len(r["seconds"]), 2, r["name"])
            self.assertEqual(r["median_seconds"], statistics.median(r["seconds"]), r["name"])
            self.assertGreaterEqual(r["calls"], 1, r["name"])
            if "onehot_mm" in r["name"]:
                self.assertEqual(r["differing"], 0.0, r["name"])
        self.assertIn("torch_embedding_bwd/V:300/d:16/n:40", self.result.stdout)  # progress lines

    def test_no_shapes_is_an_error(self):
        run = subprocess.run(
            [sys.executable, SCRIPT, "--device", "cpu"], capture_output=True, text=True
        )
        self.assertEqual(run.returncode, 2)
        self.assertIn("no shapes", run.stderr)

    def test_without_cuda_it_says_so(self):
        import torch

        if torch.cuda.is_available():
            self.skipTest("this machine has CUDA")
        run = subprocess.run(
            [sys.executable, SCRIPT, "--shape", "V:4/d:5/n:3"], capture_output=True, text=True
        )
        self.assertEqual(run.returncode, 0)
        self.assertIn("no CUDA device visible to PyTorch", run.stdout)


if __name__ == "__main__":
    unittest.main()
