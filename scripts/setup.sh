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
# The Python package, into .venv (Debian's Python is externally managed; the
# venv sees Debian's numpy, scipy, scikit-learn and cffi), linked with the
# static library just built; then scikit-learn's digits with nesvm.SVC.
[ -x .venv/bin/python ] || /usr/bin/python3 -m venv --system-site-packages .venv
NESVM_STATIC_LIB="$PWD/build/libnesvm.a" .venv/bin/pip install -q --no-build-isolation --no-index ./python
rm -rf python/build python/nesvm.egg-info
echo "== .venv/bin/python: nesvm.SVC on scikit-learn's digits"
.venv/bin/python - <<'PYEOF'
import nesvm
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
X, y = load_digits(return_X_y=True)
Xtr, Xte, ytr, yte = train_test_split(X / 16, y, random_state=0)
clf = nesvm.SVC(C=10, gamma=0.02).fit(Xtr, ytr)
print("nesvm %s: nesvm.SVC test accuracy %.4f on digits" % (nesvm.version(), clf.score(Xte, yte)))
PYEOF
