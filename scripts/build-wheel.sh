#!/usr/bin/env bash
# Builds the Python package (python/) into build/python/embedlab-<version>-py3-none-any.whl, with
# the element's notebook bundle from the WebAssembly build (build/wasm/site/embedlab/notebook.mjs)
# packaged as embedlab/element.mjs. Offline, with Debian's setuptools and wheel (PYTHON: the
# Python to build with; Debian's by default, since a pyenv one may lack setuptools).
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-/usr/bin/python3}
bundle=build/wasm/site/embedlab/notebook.mjs
[[ -f $bundle ]] || { echo "no $bundle: build the wasm preset first (scripts/build.sh)" >&2; exit 1; }

rm -rf build/python
mkdir -p build/python/src
cp -r python/pyproject.toml python/README.md python/embedlab build/python/src/
rm -rf build/python/src/embedlab/__pycache__
cp "$bundle" build/python/src/embedlab/element.mjs
"$python" -m pip wheel --quiet --no-deps --no-build-isolation --no-index \
  --wheel-dir build/python build/python/src
rm -rf build/python/src
ls build/python/embedlab-*-py3-none-any.whl
