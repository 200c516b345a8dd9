#!/usr/bin/env bash
# Installs what the build and the tests need and is not there yet (Debian 12, as root):
# Debian packages through apt-get, then the npm packages pinned in package-lock.json.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  cmake g++ make pkg-config   # the native build
  libeigen3-dev               # dense maths in the core
  nlohmann-json3-dev          # the .safetensors header's JSON, in the core (header-only)
  libcli11-dev                # the walk-through's command line
  catch2                      # unit tests of the core
  libbenchmark-dev            # native benchmarks
  libopenblas-dev             # the sgemm the benchmarks hold Eigen's GEMM against
  clang libclang-rt-14-dev    # ASan/UBSan build and the libFuzzer targets
  clang-format black          # the C++ and Python style checks (scripts/lint.sh)
  emscripten                  # the WebAssembly module
  chromium                    # end-to-end tests of the page
  fonts-liberation fonts-dejavu-core  # text for Chromium (only recommended by its package)
  fonts-noto-color-emoji      # emoji in the Text mode's token chips, in Chromium's screenshots
  python3-torch python3-numpy # the oracle for the differential tests, and .npy fixtures
  python3-matplotlib          # benchmark plots
  python3-venv                # the notebook tests' venv, which installs the built wheel offline
  pybind11-dev python3-dev    # the Python package's module: the core bound with pybind11
  python3-setuptools python3-wheel python3-pip  # building the Python package's wheel offline
  jupyter-notebook            # the notebook tests: a classic Notebook server driven by Chromium
  python3-nbclient python3-nbconvert  # the notebook tests: execute a notebook, export it as HTML
  python3-ipykernel           # the kernel the notebook tests run, and its kernelspec for the venv
  time                        # GNU time: peak memory of the walk-through on real model shapes
)
command -v node >/dev/null && command -v npm >/dev/null || packages+=(nodejs npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "== installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# npm ci installs exactly what package-lock.json pins (playwright-core; about a second).
echo "== npm ci"
npm ci --no-audit --no-fund --prefer-offline
