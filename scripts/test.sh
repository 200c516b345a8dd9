#!/usr/bin/env bash
# Every test: install what is missing, lint the JavaScript, build native + WebAssembly + the
# sanitizer tree, then run ctest in each (unit, PyTorch differential, WASM, Chromium end-to-end,
# ASan/UBSan, fuzz).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

scripts/install-deps.sh
scripts/lint.sh
scripts/build.sh

echo "== sanitizer build (build/sanitize: clang, ASan + UBSan, libFuzzer)"
cmake --preset sanitize -DEMBEDLAB_REQUIRE_ALL=ON >/dev/null
cmake --build --preset sanitize -j "$jobs"

echo "== tests under ASan + UBSan, and the fuzzers"
ctest --preset sanitize -j "$jobs"

echo "== all tests of the release build"
ctest --preset release
