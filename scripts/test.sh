#!/usr/bin/env bash
# Run every test: install dependencies, build from scratch with warnings as
# errors, run ctest (unit, CLI, oracle tests).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
build=${NESVM_BUILD_DIR:-build-test}
rm -rf "$build"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DNESVM_WERROR=ON >/dev/null
cmake --build "$build" -j"$(nproc)"
ctest --test-dir "$build" --output-on-failure -j"$(nproc)"
