#!/usr/bin/env bash
# The notebook tests' Python: a venv over Debian's (which has torch, numpy and Jupyter) with the
# built wheel installed offline and the venv's own kernelspec, so that a kernel Jupyter starts
# imports embedlab (Debian's kernelspec runs /usr/bin/python3, outside the venv).
# Usage: setup-venv.sh PYTHON VENV WHEEL_DIR
set -euo pipefail
python=$1 venv=$2 wheels=$3
shopt -s nullglob
wheel=("$wheels"/embedlab-*.whl)
if ((${#wheel[@]} != 1)); then
  echo "expected one wheel in $wheels, found ${#wheel[@]}: run scripts/build-wheel.sh" >&2
  exit 1
fi
rm -rf "$venv"
"$python" -m venv --system-site-packages "$venv"
"$venv/bin/pip" install --quiet --no-deps --no-index "${wheel[0]}"
"$venv/bin/python" -m ipykernel install --sys-prefix --name python3 >/dev/null
"$venv/bin/python" -c 'import embedlab, torch, nbclient, nbconvert, notebook; print("embedlab", embedlab.__version__, "in", embedlab.__file__)'
