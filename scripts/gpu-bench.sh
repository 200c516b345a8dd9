#!/usr/bin/env bash
# The CUDA backend on a GPU in one go: its tests, its benchmark and PyTorch's on the same shapes,
# and one report (docs/cuda.md, "Running it on a GPU").
#
#   scripts/gpu-bench.sh pack [--build-dir DIR]
#       On a build machine (no GPU needed): a portable release build of the CUDA test and
#       benchmark programs, copied with libbenchmark into .device/gpu-bench/ (git-ignored), for
#       a GPU machine that has CUDA and PyTorch but not this project's build dependencies.
#   scripts/gpu-bench.sh run [--out DIR] [--reps N] [--case-ms MS] [--filter REGEX] [--sanitize]
#                            [--tests-only]
#       On the GPU machine: the programs from .device/gpu-bench/ (or, without them, a build in
#       build/gpu), then the CUDA tests (none may skip), the benchmark sweep (N repetitions,
#       default 3), torch_reference_bench.py on the same shapes, and the report. Writes into
#       DIR (default $OUT, else results/gpu-bench): device.txt, tests.log, cuda.json, cuda.log,
#       cases.txt, torch_cuda.json, torch.log, table.md. --sanitize adds compute-sanitizer's
#       memcheck and racecheck on the GPU tests (a minute or two more); --tests-only stops
#       after the tests.
#
# Budget on an H100 (estimated, not yet measured; docs/cuda.md shows the sums): the tests ~5 s;
# the benchmark's 439 cases x 3 repetitions of ~20 ms of device time, with calibrations, uploads
# and CPU checks, 1.5 to 2 min; PyTorch's 328 cases 1 to 1.5 min: about 4 min in all. Each step
# has a time limit of its own, which keeps the whole under 9 min.
set -euo pipefail
cd "$(dirname "$0")/.."

PACK=.device/gpu-bench
PROGRAMS=(cuda_vs_cpu_tests cuda_validation_tests cuda_host_tests embedlab_bench_cuda)

say() { printf '[gpu-bench %4ds] %s\n' "$SECONDS" "$*"; }
die() { say "error: $*" >&2; exit 1; }

build() {  # build DIR: a portable release build of PROGRAMS
  local dir=$1
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DEMBEDLAB_CUDA=ON -DEMBEDLAB_NATIVE_ARCH=OFF \
    >/dev/null
  cmake --build "$dir" -j "${JOBS:-2}" --target "${PROGRAMS[@]}"
}

where_built() {  # where_built DIR PROGRAM
  case $2 in
    embedlab_bench_cuda) echo "$1/native/bench/cuda/$2" ;;
    *) echo "$1/tests/cuda/$2" ;;
  esac
}

pack() {
  local dir=build/gpu
  while (($#)); do
    case $1 in
      --build-dir) dir=$2; shift 2 ;;
      *) die "pack: unknown option $1" ;;
    esac
  done
  say "building ${PROGRAMS[*]} in $dir (portable: no -march=native)"
  build "$dir"
  rm -rf "$PACK"
  mkdir -p "$PACK/bin" "$PACK/lib"
  for program in "${PROGRAMS[@]}"; do cp "$(where_built "$dir" "$program")" "$PACK/bin/"; done
  # Google Benchmark is the one shared library the GPU machine lacks (CUDA's come from it).
  cp -L /lib/x86_64-linux-gnu/libbenchmark.so.1debian "$PACK/lib/"
  say "packed $(du -sh "$PACK" | cut -f1) into $PACK: carry it, then run scripts/gpu-bench.sh run"
}

run() {
  local out=${OUT:-results/gpu-bench} reps=3 case_ms=20 filter=. sanitize=0 tests_only=0
  while (($#)); do
    case $1 in
      --out) out=$2; shift 2 ;;
      --reps) reps=$2; shift 2 ;;
      --case-ms) case_ms=$2; shift 2 ;;
      --filter) filter=$2; shift 2 ;;
      --sanitize) sanitize=1; shift ;;
      --tests-only) tests_only=1; shift ;;
      *) die "run: unknown option $1" ;;
    esac
  done
  mkdir -p "$out"
  local bin=$PACK/bin
  if [[ -x $bin/embedlab_bench_cuda ]]; then
    say "using the programs packed in $PACK"
    export LD_LIBRARY_PATH=$PWD/$PACK/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  else
    say "no $PACK: building in build/gpu"
    build build/gpu
    bin=$PWD/build/gpu/packed
    mkdir -p "$bin"
    for program in "${PROGRAMS[@]}"; do ln -sf "$PWD/$(where_built build/gpu "$program")" "$bin/"; done
  fi

  say "device"
  {
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv || true
    nvcc --version | tail -2 || true
    python3 -c 'import torch; print("torch", torch.__version__, "CUDA", torch.version.cuda)' || true
    date -u +%Y-%m-%dT%H:%M:%SZ
  } 2>&1 | tee "$out/device.txt"

  say "tests"
  local rc=0
  {
    timeout 120 "$bin/cuda_host_tests"
    CUDA_VISIBLE_DEVICES=-1 timeout 60 "$bin/cuda_validation_tests"
    timeout 240 "$bin/cuda_vs_cpu_tests" || rc=$?
    ((rc != 77)) || die "the GPU tests skipped: no usable CUDA device here"
    ((rc == 0)) || die "the GPU tests failed (exit $rc)"
    if ((sanitize)); then
      for tool in memcheck racecheck; do
        say "compute-sanitizer --tool $tool"
        timeout 300 compute-sanitizer --tool "$tool" --error-exitcode 1 "$bin/cuda_vs_cpu_tests"
      done
    fi
  } 2>&1 | tee "$out/tests.log"
  ((!tests_only)) || { say "done (tests only)"; return; }

  "$bin/embedlab_bench_cuda" --benchmark_list_tests --benchmark_filter="$filter" >"$out/cases.txt"
  say "benchmark: $(wc -l <"$out/cases.txt") cases x $reps repetitions (progress: one line per run)"
  # A benchmark that stops early leaves its JSON cut short: say so, run PyTorch's anyway.
  timeout 270 "$bin/embedlab_bench_cuda" --benchmark_filter="$filter" \
    --benchmark_repetitions="$reps" --cuda_case_ms="$case_ms" \
    --benchmark_out="$out/cuda.json" --benchmark_out_format=json 2>&1 | tee "$out/cuda.log" ||
    say "warning: embedlab_bench_cuda stopped early (exit ${PIPESTATUS[0]}): see cuda.log"

  say "PyTorch on the same shapes"
  timeout 210 python3 native/bench/cuda/torch_reference_bench.py --shapes "$out/cases.txt" \
    --repetitions "$reps" --case-ms "$case_ms" --json "$out/torch_cuda.json" 2>&1 |
    tee "$out/torch.log" || say "warning: torch_reference_bench.py stopped early: see torch.log"

  say "report: $out/table.md"
  python3 native/bench/cuda/gpu_bench_table.py --ours "$out/cuda.json" --torch "$out/torch_cuda.json" \
    --note "$(head -2 "$out/device.txt" | tail -1)" \
    --note "command: scripts/gpu-bench.sh run --reps $reps --case-ms $case_ms --filter '$filter'" \
    >"$out/table.md" || die "no report: a JSON file is missing or cut short"
  sed -n '/^## Targets/,/^## The one-hot/p' "$out/table.md" | head -n -1
  say "done"
}

case ${1:-} in
  pack) shift; pack "$@" ;;
  run) shift; run "$@" ;;
  *) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 2 ;;
esac
