# lib.sh - shared pieces of the command-line test scripts (sourced).
#
# After `. lib.sh NESVM_BINARY SOURCE_DIR`: $BIN (a private copy of the
# binary), $SRC, $HEART, $PY, a temporary folder $T (the current folder,
# removed on exit), and the helpers below.  Every case prints "ok - NAME" or
# "not ok - NAME: WHY"; finish prints "N passed, M failed" and sets the status.
abspath() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s/%s\n' "$PWD" "$1" ;; esac; }
BIN=$(abspath "$1")
SRC=$(abspath "$2")
HEART=/usr/share/doc/liblinear-tools/examples/heart_scale
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

T=$(mktemp -d "${TMPDIR:-/tmp}/nesvm_cli.XXXXXX") || { echo "cannot create temp dir" >&2; exit 1; }
trap 'rm -rf "$T"' EXIT
# Run everything inside the temp dir so that default output paths
# (DATA.model in the current folder) land there too.
cd "$T" || exit 1
# Test a private copy: other people may rebuild the binary while this runs.
if cp "$BIN" "$T/nesvm" 2>/dev/null; then BIN=$T/nesvm; fi

PASS=0
FAIL=0
ok() { echo "ok - $1"; PASS=$((PASS + 1)); }
not_ok() { echo "not ok - $1: $2"; FAIL=$((FAIL + 1)); }

# run CMD...: run with stdin from /dev/null; sets RC, output in $T/.out, $T/.err
run() {
    "$@" <"/dev/null" >"$T/.out" 2>"$T/.err"
    RC=$?
}
# run_in FILE CMD...: like run but with stdin from FILE
run_in() {
    local in=$1
    shift
    "$@" <"$in" >"$T/.out" 2>"$T/.err"
    RC=$?
}
first_line() { head -n 1 "$1" | cut -c 1-200; }
# nesvm's temporaries are ".NAME.nesvm-tmp-PID-XXXXXX"; '*.tmp*' catches others
tmp_leftovers() { find "$T" \( -name '*.tmp*' -o -name '*nesvm-tmp*' \) | head -n 3 | tr '\n' ' '; }
clean_tmp() { find "$T" \( -name '*.tmp*' -o -name '*nesvm-tmp*' \) -exec rm -f {} +; }

# expect_fail NAME STATUS STDERR_SUBSTRING TARGET -- CMD...
# Checks: exact exit status, stderr contains the substring, TARGET (when
# not empty) does not exist, no *.tmp* file left in the temp dir.
expect_fail() {
    local name=$1 want=$2 msg=$3 target=$4
    shift 4
    [ "$1" = "--" ] && shift
    [ -n "$target" ] && rm -f "$target"
    run "$@"
    check_fail "$name" "$want" "$msg" "$target"
}
expect_fail_in() {
    local name=$1 want=$2 msg=$3 target=$4 in=$5
    shift 5
    [ "$1" = "--" ] && shift
    [ -n "$target" ] && rm -f "$target"
    run_in "$in" "$@"
    check_fail "$name" "$want" "$msg" "$target"
}
check_fail() {
    local name=$1 want=$2 msg=$3 target=$4 left
    if [ "$RC" -ne "$want" ]; then
        not_ok "$name" "exit status $RC, expected $want (stderr: $(first_line "$T/.err"))"
    elif [ "$want" -eq 1 ] && ! grep -q "^nesvm [a-z]*: error: " "$T/.err"; then
        not_ok "$name" "stderr lacks 'nesvm CMD: error: ' (stderr: $(first_line "$T/.err"))"
    elif [ "$want" -eq 2 ] && [ -z "${NO_TRY:-}" ] && ! grep -q "^Try 'nesvm.*--help'\.$" "$T/.err"; then
        not_ok "$name" "usage error without a 'Try ... --help' line (stderr: $(first_line "$T/.err"))"
    elif ! grep -qF -- "$msg" "$T/.err"; then
        not_ok "$name" "stderr lacks '$msg' (stderr: $(first_line "$T/.err"))"
    elif [ -n "$target" ] && [ -e "$target" ]; then
        not_ok "$name" "output file '$target' was created"
    elif left=$(tmp_leftovers) && [ -n "$left" ]; then
        not_ok "$name" "temporary file(s) left behind: $left"
    else
        ok "$name"
    fi
    [ -n "$target" ] && rm -f "$target"
    clean_tmp
}

# expect_ok NAME CMD...: exit status 0 (caller checks content afterwards)
expect_ok_rc() {
    if [ "$RC" -ne 0 ]; then
        not_ok "$1" "exit status $RC, expected 0 (stderr: $(first_line "$T/.err"))"
        return 1
    fi
    return 0
}

lines() { wc -l <"$1" | tr -d ' '; }

finish() {
    echo "$PASS passed, $FAIL failed"
    [ "$FAIL" -eq 0 ]
}
