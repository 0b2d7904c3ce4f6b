#!/usr/bin/env bash
# Install the build tree into a temporary prefix, then build and run a
# consumer through the CMake package (shared and static) and through pkg-config.
set -euo pipefail
build=$1; here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
cmake -S "$here" -B "$tmp/b" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/b" >/dev/null
pass=0; fail=0
check() { if "$@"; then pass=$((pass+1)); else echo "not ok - $*"; fail=$((fail+1)); fi; }
check "$tmp/b/consumer_shared"
check "$tmp/b/consumer_static"
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
check cc "$here/consumer.c" $(pkg-config --cflags --libs nesvm) -o "$tmp/c_pc"
check env LD_LIBRARY_PATH="$tmp/prefix/lib" "$tmp/c_pc"
# only nesvm_* symbols are exported
extra=$(nm -D --defined-only "$tmp"/prefix/lib/libnesvm.so | awk '$2=="T" && $3 !~ /^nesvm_/' | wc -l)
check test "$extra" -eq 0
check test -L "$tmp/prefix/lib/libnesvm.so.0"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
