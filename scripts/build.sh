#!/usr/bin/env bash
# Builds the native tree (CLI, benchmarks, tests) and the WebAssembly tree (module + site).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

echo "== native build (build/release)"
cmake --preset release >/dev/null
cmake --build --preset release -j "$jobs"

echo "== WebAssembly build (build/wasm)"
export NODE_PATH=/usr/share/nodejs  # Emscripten's JS optimizer needs Debian's acorn
cmake --preset wasm >/dev/null
cmake --build --preset wasm -j "$jobs"

echo "== Python package (build/python)"
bash scripts/build-wheel.sh
