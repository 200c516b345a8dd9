#!/usr/bin/env bash
# The main job: install what is missing, build everything, serve the page on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
port=${PORT:-8000}

scripts/install-deps.sh
scripts/build.sh

site=build/wasm/site
echo
echo "Serving the page at http://127.0.0.1:${port}/ (Ctrl-C stops)"
exec python3 -m http.server "$port" --bind 127.0.0.1 --directory "$site"
