#!/usr/bin/env bash
# Install dependencies, build nesvm, and run the main job on the built-in
# default dataset: train on heart_scale (shipped by Debian's liblinear-tools),
# save the model, predict, and cross-validate.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
data=${1:-/usr/share/doc/liblinear-tools/examples/heart_scale}
echo "== nesvm train -c 1 $data heart.model"
./build/nesvm train -c 1 "$data" heart.model
echo "== nesvm predict $data heart.model heart.predictions"
./build/nesvm predict "$data" heart.model heart.predictions
echo "== nesvm cv -v 5 $data"
./build/nesvm cv -q -v 5 "$data"
