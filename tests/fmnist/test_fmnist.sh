#!/usr/bin/env bash
# Fashion-MNIST end to end on a slice: convert from Debian's
# dataset-fashion-mnist with tools/fashion_mnist.py (first 2,000 training rows
# of T-shirt vs Shirt, full 2,000-row test set), then train, predict, info, cv
# and scale.  Checks exit statuses, sizes and that accuracy is far above chance.
set -u
bin=$1; src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { echo "ok - $1"; pass=$((pass+1)); }
bad() { echo "not ok - $1"; fail=$((fail+1)); }
if /usr/bin/python3 "$src/tools/fashion_mnist.py" --out "$tmp" --task tshirt-shirt --limit 2000 >/dev/null; then
  ok "convert"; else bad "convert"; fi
tr=$tmp/fmnist-tshirt-shirt.train; te=$tmp/fmnist-tshirt-shirt.test
[ "$(wc -l < "$tr")" -eq 2000 ] && [ "$(wc -l < "$te")" -eq 2000 ] && ok "row counts" || bad "row counts"
if "$bin" train -q -c 1 --max-iter 300 --threads 2 "$tr" "$tmp/m.model"; then ok "train"; else bad "train"; fi
out=$("$bin" predict "$te" "$tmp/m.model" "$tmp/pred") && ok "predict" || bad "predict"
acc=$(printf '%s\n' "$out" | sed -n 's/^Accuracy = \([0-9.]*\)% (\([0-9]*\)\/2000)$/\1/p')
awk -v a="${acc:-0}" 'BEGIN{exit !(a > 75)}' && ok "test accuracy $acc% > 75%" || bad "test accuracy '$out'"
"$bin" info "$tmp/m.model" | grep -q "^features    784$" && ok "info: 784 features" || bad "info"
cv=$("$bin" cv -v 3 --max-iter 100 "$tr") && ok "cv" || bad "cv"
printf '%s\n' "$cv" | grep -Eq '^Cross Validation Accuracy = [0-9.]+%$' && ok "cv output" || bad "cv output '$cv'"
"$bin" scale -l 0 -u 1 -s "$tmp/range" -o "$tmp/scaled" "$tr" && [ "$(wc -l < "$tmp/scaled")" -eq 2000 ] \
  && ok "scale" || bad "scale"
# issue 29 (item 7): --time-limit holds within 10% or a second inside long operations.
# On all 12,000 T-shirt/Shirt rows the RBF working set's second round computes a
# 12,000 x 12,000 kernel matrix (about 1e11 flops): a limit of 2 s stopped after 11 s.
if /usr/bin/python3 "$src/tools/fashion_mnist.py" --out "$tmp/full" --task tshirt-shirt >/dev/null 2>&1; then
  out=$("$bin" train -t rbf -g 0.02 -c 10 --threads 1 --time-limit 2 "$tmp/full/fmnist-tshirt-shirt.train" \
        "$tmp/tl.model" 2>"$tmp/tl.err")
  t=$(printf '%s\n' "$out" | sed -n 's/^classes .*, time \([0-9.]*\) s$/\1/p')
  # within a second of the limit (a sanitized build, NESVM_SANITIZED, computes
  # each of the kernel matrix's blocks several times slower: 1 s more per block)
  bound=3.0; [ -n "${NESVM_SANITIZED:-}" ] && bound=6.0
  awk -v t="${t:-99}" -v b="$bound" 'BEGIN{exit !(t <= b)}' && grep -q "exit time-limit" "$tmp/tl.err" && [ -s "$tmp/tl.model" ] \
    && ok "--time-limit 2: stopped after $t s, warned, model saved" || bad "--time-limit 2: time ${t:-?} s, $(head -c 200 "$tmp/tl.err")"
else
  bad "convert all rows"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
