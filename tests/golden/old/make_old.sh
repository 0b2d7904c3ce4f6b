#!/bin/bash
# make_old.sh NESVM_BINARY OUTDIR - the model files of tests/golden/old, written
# by an old nesvm (format 1, every parameter listed): this folder's files were
# written by commit 0a56f8a's build (`git worktree add /tmp/old 0a56f8a`, built
# with cmake in Release), on heart_scale and on heart_scale relabelled into three
# classes by row number (three.txt, as tests/golden/test_golden.py makes it).
# NAME.dv is that build's `predict --decision-values` of its training data.
# test_old_models.c (ctest golden_old) loads each file with today's code.
set -eu
BIN=$(realpath "$1")
OUT=$(realpath "$2")
HEART=/usr/share/doc/liblinear-tools/examples/heart_scale
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cp "$HEART" "$W/heart_scale"
awk '{ $1 = (NR - 1) % 3 + 1; print }' "$HEART" >"$W/three.txt"
cd "$W"
case_() { # NAME DATA ARGS...
    local name=$1 data=$2
    shift 2
    "$BIN" train -q --threads 1 "$@" "$data" "$OUT/$name.model"
    "$BIN" predict -q --decision-values "$data" "$OUT/$name.model" "$OUT/$name.dv"
}
case_ linear heart_scale
case_ linear_lp_opts heart_scale --svm-type lp -e 0.01 --threads 2 --seed 7
case_ linear_nobias heart_scale -B -1
case_ linear_float heart_scale --float
case_ linear_weights heart_scale -c 0.5 -w1 2 -w-1 0.5
case_ linear_prob heart_scale -b 1
case_ linear_nesterov heart_scale --method nesterov --max-iter 300
case_ linear_ovr three.txt --multiclass ovr
case_ rbf heart_scale -t rbf -g 0.1
case_ poly_gamma_auto heart_scale -t poly -d 2 -r 1
case_ rbf_ovo_gamma_auto three.txt -t rbf
case_ rbf_reduced heart_scale -t rbf --basis 40
case_ rbf_prob_ovo three.txt -t rbf -g 0.2 -b 1
case_ nssvm_rbf_auto heart_scale --solver nssvm -t rbf
case_ ssvm_rbf_coef_greedy heart_scale --solver ssvm -t rbf --kernel-norm coef --basis 30 --basis-select greedy
case_ gs_rbf heart_scale --solver gs -t rbf
case_ gs_sigmoid_cap heart_scale --solver gs -t sigmoid -g 0.01 -r 0.5 --cap 1 -m 1
case_ hyperpass_bias heart_scale --solver hyperpass -B 1
case_ pegasos_ovr three.txt --solver pegasos -e 0.01 --batch 50 --multiclass ovr
