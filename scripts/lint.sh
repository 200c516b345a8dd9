#!/usr/bin/env bash
# Every language held to one style by its tool, failing on the first file that differs:
# C++ and CUDA by clang-format (.clang-format), Python by black (python/pyproject.toml's
# [tool.black], for every .py file of the repository), JavaScript by Prettier (.prettierrc.json)
# and ESLint (eslint.config.mjs). `clang-format -i`, `black --config python/pyproject.toml`,
# `npx prettier --write` and `npx eslint --fix` on the same files mend most.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== clang-format --dry-run"
git ls-files -z '*.cpp' '*.hpp' '*.h' '*.cu' '*.cuh' | xargs -0 clang-format --dry-run --Werror

echo "== black --check"
git ls-files -z '*.py' | xargs -0 black --quiet --check --config python/pyproject.toml

folders=(web wasm scripts tests package)
globs=()
for folder in "${folders[@]}"; do globs+=("$folder/**/*.{mjs,js,cjs,ts}"); done

echo "== prettier --check"
npx --no-install prettier --check --log-level warn "${globs[@]}" eslint.config.mjs
echo "== eslint"
npx --no-install eslint --max-warnings 0 "${folders[@]}" eslint.config.mjs
