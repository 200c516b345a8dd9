#!/usr/bin/env bash
# Builds the Python package (python/) into build/python/embedlab-<version>-<python>-<platform>.whl:
# the package, its compiled module _embedlab (the core bound with pybind11, built in the release
# tree, build/release) and the element's notebook bundle from the WebAssembly build
# (build/wasm/site/embedlab/notebook.mjs) as embedlab/element.mjs. Offline, with Debian's
# setuptools and wheel (PYTHON: the Python to build for; Debian's by default, since a pyenv one
# may lack setuptools and numpy).
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-/usr/bin/python3}
bundle=build/wasm/site/embedlab/notebook.mjs
[[ -f $bundle ]] || { echo "no $bundle: build the wasm preset first (scripts/build.sh)" >&2; exit 1; }
[[ -f build/release/CMakeCache.txt ]] ||
  { echo "no build/release: configure the release preset first (scripts/build.sh)" >&2; exit 1; }

rm -rf build/python
EMBEDLAB_CMAKE_BUILD_DIR=$PWD/build/release EMBEDLAB_ELEMENT_BUNDLE=$PWD/$bundle \
  CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)} \
  "$python" -m pip wheel --quiet --no-deps --no-build-isolation --no-index \
  --wheel-dir build/python ./python
rm -rf python/build python/embedlab.egg-info  # setuptools' leftovers of an in-tree build
ls build/python/embedlab-*.whl
