#!/usr/bin/env bash
# JavaScript held to one style: Prettier's formatting (.prettierrc.json) and ESLint's rules
# (eslint.config.mjs) over every folder that holds the project's JavaScript. Fails on the first
# file that differs; `npx prettier --write` and `npx eslint --fix` with the same globs mend most.
set -euo pipefail
cd "$(dirname "$0")/.."
folders=(web wasm scripts tests package)
globs=()
for folder in "${folders[@]}"; do globs+=("$folder/**/*.{mjs,js,cjs,ts}"); done

echo "== prettier --check"
npx --no-install prettier --check --log-level warn "${globs[@]}" eslint.config.mjs
echo "== eslint"
npx --no-install eslint --max-warnings 0 "${folders[@]}" eslint.config.mjs
