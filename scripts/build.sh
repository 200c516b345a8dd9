#!/usr/bin/env bash
# Builds the native tree (CLI, benchmarks, tests) and the WebAssembly tree (module + site), each
# with every part on: a missing tool is an error here (EMBEDLAB_REQUIRE_ALL), not a part left out.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

echo "== native build (build/release)"
cmake --preset release -DEMBEDLAB_REQUIRE_ALL=ON >/dev/null
cmake --build --preset release -j "$jobs"

echo "== WebAssembly build (build/wasm)"
cmake --preset wasm -DEMBEDLAB_REQUIRE_ALL=ON >/dev/null
cmake --build --preset wasm -j "$jobs"

echo "== Python package (build/python)"
bash scripts/build-wheel.sh
