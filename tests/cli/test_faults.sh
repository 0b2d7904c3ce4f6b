#!/usr/bin/env bash
# test_faults.sh - what nesvm does to each kind of output path, and under
# faults: a full disk, a read-only folder, devices, FIFOs, symlinks, '-',
# signals during reading, training, cross-validation and prediction, and
# kill -9 around saves.  docs/cli.md ("Output files") states the rules.
#
# Usage: test_faults.sh NESVM_BINARY SOURCE_DIR
# Full-disk and read-only cases mount a small tmpfs in a private mount
# namespace (unshare -m), which needs root; device cases make their own
# device nodes with mknod (root), so the system's /dev/null is never at risk.
# Without root those cases fall back to /dev/null and /dev/full and chmod.
set -u
if [ $# -ne 2 ]; then
    echo "usage: $0 NESVM_BINARY SOURCE_DIR" >&2
    exit 2
fi
. "$(dirname "$0")/lib.sh"

H=$HEART
ROOT=0
[ "$(id -u)" -eq 0 ] && ROOT=1
run "$BIN" train -q "$H" "$T/ref.model"
expect_ok_rc "reference model" || exit 1
run "$BIN" predict -q "$H" "$T/ref.model" "$T/ref.pred"
"$BIN" scale -s "$T/ref.range" -o "$T/ref.scaled" "$H" >/dev/null 2>&1
"$BIN" train -q --trace "$T/ref.trace" "$H" "$T/ref2.model" >/dev/null 2>&1

# Each kind of output: KIND PATH runs the command writing that output to PATH
# (stdout to $T/.out, stderr to $T/.err, status in RC); ref_of KIND is the
# file the same command writes to a regular path.
KINDS="model predict scale-o scale-s trace cv-trace"
write_to() {
    local kind=$1 path=$2
    case $kind in
    model) run "$BIN" train -q "$H" "$path" ;;
    predict) run "$BIN" predict -q "$H" "$T/ref.model" "$path" ;;
    scale-o) run "$BIN" scale -o "$path" "$H" ;;
    scale-s) run "$BIN" scale -s "$path" -o "$T/scratch.scaled" "$H" ;;
    trace) run "$BIN" train -q --trace "$path" "$H" "$T/scratch.model" ;;
    cv-trace) run "$BIN" cv -q -v 3 --trace "$path" "$H" ;;
    esac
}
ref_of() {
    case $1 in
    model) echo "$T/ref.model" ;;
    predict) echo "$T/ref.pred" ;;
    scale-o) echo "$T/ref.scaled" ;;
    scale-s) echo "$T/ref.range" ;;
    trace | cv-trace) echo "$T/ref.trace" ;;
    esac
}
# traces hold timings: compare their first line (the header) and row count
same_output() {
    local kind=$1 got=$2 want
    want=$(ref_of "$kind")
    case $kind in
    trace) [ "$(head -n 1 "$got")" = "$(head -n 1 "$want")" ] && [ "$(lines "$got")" = "$(lines "$want")" ] ;;
    cv-trace) [ "$(head -n 1 "$got")" = "$(head -n 1 "$want")" ] && [ "$(lines "$got")" -gt 3 ] ;;
    *) cmp -s "$got" "$want" ;;
    esac
}

# ------------------------------------------------------------ devices
if [ $ROOT -eq 1 ]; then
    mknod "$T/null" c 1 3 && mknod "$T/full" c 1 7 || not_ok "mknod" "cannot make device nodes as root"
    NULLDEV=$T/null
    FULLDEV=$T/full
else
    NULLDEV=/dev/null
    FULLDEV=/dev/full
fi
for k in $KINDS; do
    write_to "$k" "$NULLDEV"
    if [ "$RC" -ne 0 ]; then
        not_ok "$k to a null device" "exit $RC ($(first_line "$T/.err"))"
    elif [ ! -c "$NULLDEV" ]; then
        not_ok "$k to a null device" "the device was replaced: $(ls -l "$NULLDEV")"
        rm -f "$NULLDEV"
        mknod "$NULLDEV" c 1 3 2>/dev/null
    else
        ok "$k to a null device: written, still a device"
    fi
    write_to "$k" "$FULLDEV"
    if [ "$RC" -ne 1 ] || ! grep -q "No space left on device" "$T/.err"; then
        not_ok "$k to a full device" "exit $RC, stderr: $(first_line "$T/.err")"
    elif [ ! -c "$FULLDEV" ]; then
        not_ok "$k to a full device" "the device was replaced"
    else
        ok "$k to a full device: exit 1, 'No space left on device'"
    fi
done
# nesvm grid's CSV: a device is written in place, never read back as a CSV to
# resume from (reading /dev/full never ends: its memory is capped here, except
# under AddressSanitizer, which cannot start with a cap); a write error is reported
run "$BIN" grid -q -t rbf -log2c 0,1,1 -log2g 0,0,1 --out "$NULLDEV" "$H"
[ "$RC" -eq 0 ] && [ -c "$NULLDEV" ] && ok "grid --out a null device: written, still a device" ||
    not_ok "grid --out a null device" "exit $RC ($(first_line "$T/.err"))"
(grep -q __asan_init "$BIN" || ulimit -v 4000000; run "$BIN" grid -q -t rbf -log2c 0,1,1 -log2g 0,0,1 --out "$FULLDEV" "$H"; exit $RC)
RC=$?
[ "$RC" -eq 1 ] && grep -q "^nesvm grid: error: cannot write '$FULLDEV': No space left on device$" "$T/.err" &&
    [ -c "$FULLDEV" ] && ok "grid --out a full device: exit 1, 'No space left on device'" ||
    not_ok "grid --out a full device" "exit $RC ($(first_line "$T/.err"))"

# As another user, a device that user may write is usable (mkstemp in /dev
# used to fail with 'Permission denied').
if [ $ROOT -eq 1 ] && command -v setpriv >/dev/null; then
    cp "$H" "$T/heart.pub" && chmod 755 "$T" && chmod 644 "$T/heart.pub"
    setpriv --reuid=65534 --regid=65534 --clear-groups "$BIN" train -q "$T/heart.pub" /dev/null \
        >"$T/.out" 2>"$T/.err"
    [ $? -eq 0 ] && [ -c /dev/null ] && ok "train to /dev/null as an unprivileged user" ||
        not_ok "train to /dev/null as an unprivileged user" "$(first_line "$T/.err")"
fi

# ------------------------------------------------------------ FIFOs
for k in $KINDS; do
    rm -f "$T/fifo" "$T/fifo.out"
    mkfifo "$T/fifo"
    cat "$T/fifo" >"$T/fifo.out" &
    reader=$!
    write_to "$k" "$T/fifo"
    wait $reader
    if [ "$RC" -ne 0 ]; then
        not_ok "$k to a FIFO" "exit $RC ($(first_line "$T/.err"))"
    elif [ ! -p "$T/fifo" ]; then
        not_ok "$k to a FIFO" "the FIFO was replaced"
    elif ! same_output "$k" "$T/fifo.out"; then
        not_ok "$k to a FIFO" "the reader got other bytes than a file gets"
    else
        ok "$k to a FIFO: the reader gets the output, still a FIFO"
    fi
done

# ------------------------------------------------------------ symlinks
for k in $KINDS; do
    rm -f "$T/target" "$T/link"
    echo old >"$T/target"
    ln -s target "$T/link"
    write_to "$k" "$T/link"
    if [ "$RC" -ne 0 ]; then
        not_ok "$k to a symlink" "exit $RC ($(first_line "$T/.err"))"
    elif [ ! -L "$T/link" ] || [ "$(readlink "$T/link")" != target ]; then
        not_ok "$k to a symlink" "the link was replaced"
    elif ! same_output "$k" "$T/target"; then
        not_ok "$k to a symlink" "the target does not hold the output"
    else
        ok "$k to a symlink: the target is replaced, the link stays"
    fi
    rm -f "$T/link" "$T/nowhere"
    ln -s nowhere "$T/link"
    write_to "$k" "$T/link"
    if [ "$RC" -ne 1 ] || ! grep -q "is a symbolic link to a file that cannot be reached" "$T/.err"; then
        not_ok "$k to a dangling symlink" "exit $RC, stderr: $(first_line "$T/.err")"
    elif [ -e "$T/nowhere" ] || [ ! -L "$T/link" ] || [ -n "$(tmp_leftovers)" ]; then
        not_ok "$k to a dangling symlink" "something was created: $(ls "$T" | tr '\n' ' ')"
    else
        ok "$k to a dangling symlink: refused, nothing created"
    fi
    clean_tmp
done

# ------------------------------------------------------------ '-' is standard output
for k in $KINDS; do
    write_to "$k" -
    if [ "$RC" -ne 0 ]; then
        not_ok "$k to '-'" "exit $RC ($(first_line "$T/.err"))"
    elif ! same_output "$k" "$T/.out"; then
        not_ok "$k to '-'" "standard output differs from the file output"
    elif [ -e "$T/-" ]; then
        not_ok "$k to '-'" "a file named '-' was created"
    else
        ok "$k to '-': standard output"
    fi
done
# /dev/stdout is a link to a pipe (no path behind it): written through the link
"$BIN" train -q "$H" /dev/stdout 2>"$T/.err" | cat >"$T/devstdout.model"
cmp -s "$T/devstdout.model" "$T/ref.model" && ok "train to /dev/stdout (a pipe)" ||
    not_ok "train to /dev/stdout (a pipe)" "$(first_line "$T/.err")"
run "$BIN" train "$H" -
grep -q "^read 270 rows" "$T/.err" && head -n 1 "$T/.out" | grep -q "^nesvm_model 3$" &&
    ok "train to '-': the summary goes to stderr" || not_ok "train to '-': summary on stderr" "$(first_line "$T/.out")"
expect_fail "train: model and trace both '-'" 2 "cannot both go to standard output" "" -- \
    "$BIN" train --trace - "$H" -
expect_fail "scale -s - without -o" 2 "give the scaled data a file with -o FILE" "" -- "$BIN" scale -s - "$H"

# ------------------------------------------------------------ a folder, standard output full
for k in $KINDS; do
    mkdir -p "$T/adir"
    write_to "$k" "$T/adir"
    [ "$RC" -eq 1 ] && grep -q "Is a directory" "$T/.err" && [ -d "$T/adir" ] &&
        ok "$k to a folder: refused" || not_ok "$k to a folder" "exit $RC, $(first_line "$T/.err")"
done
for cmd in "predict $H $T/ref.model" "cv -v 3 $H" "info $T/ref.model" "train $H $T/x.model" "--help" "train --help" "scale $H"; do
    # shellcheck disable=SC2086
    "$BIN" $cmd >"$FULLDEV" 2>"$T/.err"
    rc=$?
    # one message: main's "cannot write to standard output", or the command's
    # own when the failed write was its output ('standard output')
    [ $rc -eq 1 ] && [ "$(grep -c . "$T/.err")" -eq 1 ] &&
        grep -Eq "cannot write (to standard output|'standard output'): (.*: )?No space left on device" "$T/.err" &&
        ok "nesvm $cmd > full device: exit 1, reported" ||
        not_ok "nesvm $cmd > full device" "exit $rc, $(first_line "$T/.err")"
done

# ------------------------------------------------------------ full disk, read-only folder
if [ $ROOT -eq 1 ] && command -v unshare >/dev/null && unshare -m true 2>/dev/null; then
    for k in $KINDS; do
        mkdir -p "$T/mnt"
        # a 64 KiB tmpfs holding the old output, then filled to the last byte
        unshare -m bash -c '
            mount -t tmpfs -o size=64k tmpfs "$1" || exit 90
            echo old-output >"$1/out"
            dd if=/dev/zero of="$1/filler" bs=4k 2>/dev/null
            . "$2/tests/cli/lib_write.sh" "$3" "$4" "$1/out" "$5" "$6"
            echo "rc=$RC"
            cat "$1/out"
            ls -a "$1" | grep -c nesvm-tmp' _ "$T/mnt" "$SRC" "$k" "$BIN" "$H" "$T/ref.model" >"$T/fs.out" 2>"$T/fs.err"
        if grep -q "^rc=1$" "$T/fs.out" && grep -q "^old-output$" "$T/fs.out" &&
            [ "$(tail -n 1 "$T/fs.out")" = 0 ] && grep -q "No space left on device" "$T/fs.err"; then
            ok "$k on a full disk: exit 1, reason given, the old file intact, no temporary left"
        else
            not_ok "$k on a full disk" "$(tr '\n' '|' <"$T/fs.out") $(first_line "$T/fs.err")"
        fi
        unshare -m bash -c '
            mount -t tmpfs -o size=1m tmpfs "$1" || exit 90
            echo old-output >"$1/out"
            mount -o remount,ro "$1" || exit 91
            . "$2/tests/cli/lib_write.sh" "$3" "$4" "$1/out" "$5" "$6"
            echo "rc=$RC"
            cat "$1/out"' _ "$T/mnt" "$SRC" "$k" "$BIN" "$H" "$T/ref.model" >"$T/fs.out" 2>"$T/fs.err"
        if grep -q "^rc=1$" "$T/fs.out" && grep -q "^old-output$" "$T/fs.out" &&
            grep -q "Read-only file system" "$T/fs.err"; then
            ok "$k in a read-only folder: exit 1, reason given, the old file intact"
        else
            not_ok "$k in a read-only folder" "$(tr '\n' '|' <"$T/fs.out") $(first_line "$T/fs.err")"
        fi
    done
    # nesvm grid on a full disk: the CSV is rewritten whole after each gamma, so
    # the file is always one that a rerun resumes from.  GARGS: 110 points.
    GARGS=(grid -t rbf -v 3)
    "$BIN" "${GARGS[@]}" --out "$T/gref.csv" "$H" >"$T/gref.out" 2>&1
    head -n 6 "$T/gref.csv" >"$T/gpart.csv"
    # full from the start: exit 1, the old CSV (3 points) intact, no temporary
    unshare -m bash -c '
        mount -t tmpfs -o size=64k tmpfs "$1" || exit 90
        cp "$2" "$1/g.csv"
        dd if=/dev/zero of="$1/filler" bs=4k 2>/dev/null
        "$3" "${@:5}" --out "$1/g.csv" "$4" >/dev/null
        echo "rc=$?"
        cmp -s "$2" "$1/g.csv" && echo intact
        ls -a "$1" | grep -c nesvm-tmp' _ "$T/mnt" "$T/gpart.csv" "$BIN" "$H" "${GARGS[@]}" >"$T/fs.out" 2>"$T/fs.err"
    if grep -q "^rc=1$" "$T/fs.out" && grep -q "^intact$" "$T/fs.out" && [ "$(tail -n 1 "$T/fs.out")" = 0 ] &&
        [ "$(cat "$T/fs.err")" = "nesvm grid: error: cannot write '$T/mnt/g.csv': No space left on device" ]; then
        ok "grid on a full disk: exit 1, reason given, the old CSV intact, no temporary left"
    else
        not_ok "grid on a full disk" "$(tr '\n' '|' <"$T/fs.out") $(first_line "$T/fs.err")"
    fi
    # a page left (the CSV outgrows it midway): exit 1; the file holds the points
    # of the gammas done, whole lines of the uninterrupted CSV, and a rerun with
    # room resumes them to that very CSV
    unshare -m bash -c '
        mount -t tmpfs -o size=64k tmpfs "$1" || exit 90
        cp "$2" "$1/g.csv"
        dd if=/dev/zero of="$1/filler" bs=4k count=$(($(stat -f -c %a "$1") - 1)) 2>/dev/null
        "$3" "${@:5}" --out "$1/g.csv" "$4" >/dev/null
        echo "rc=$?"
        cp "$1/g.csv" "$1/../gcut.csv"
        rm "$1/filler"
        "$3" "${@:5}" --out "$1/g.csv" "$4"
        cp "$1/g.csv" "$1/../gdone.csv"' _ "$T/mnt" "$T/gpart.csv" "$BIN" "$H" "${GARGS[@]}" >"$T/fs.out" 2>"$T/fs.err"
    k=$(($(lines "$T/gcut.csv") - 3))
    if grep -q "^rc=1$" "$T/fs.out" && grep -q "No space left on device" "$T/fs.err" && [ "$k" -gt 3 ] &&
        [ "$k" -lt 110 ] && cmp -s "$T/gcut.csv" <(head -n $((k + 3)) "$T/gref.csv") &&
        grep -q "^resumed $k of 110 points from " "$T/fs.out" && cmp -s "$T/gdone.csv" "$T/gref.csv"; then
        ok "grid: a disk full midway: exit 1, $k of 110 points kept whole, resumed to the full CSV"
    else
        not_ok "grid: a disk full midway" "k=$k $(head -c 300 "$T/fs.out" | tr '\n' '|') $(first_line "$T/fs.err")"
    fi
else
    # without root: a folder without write permission
    mkdir -p "$T/ro" && echo old-output >"$T/ro/out" && chmod 555 "$T/ro"
    for k in $KINDS; do
        write_to "$k" "$T/ro/out"
        [ "$RC" -eq 1 ] && grep -q "Permission denied" "$T/.err" && grep -q "^old-output$" "$T/ro/out" &&
            ok "$k in a read-only folder" || not_ok "$k in a read-only folder" "exit $RC, $(first_line "$T/.err")"
    done
    chmod 755 "$T/ro"
fi

# ------------------------------------------------------------ signals
# A training that runs until stopped (Nesterov steps to a 1e-15 gap).
LONG=(--method nesterov -e 1e-15 -c 1000 --max-iter 100000000)
# signal_case NAME SIGNAL WANT_STATUS CMD...: start, signal after 0.5 s, wait.
signal_case() {
    local name=$1 sig=$2 want=$3
    shift 3
    rm -f "$T/sig.model" "$T/sig.trace" "$T/sig.pred"
    # job control: a background job keeps the default SIGINT (without it the
    # shell starts background jobs with SIGINT ignored)
    set -m
    "$@" >"$T/.out" 2>"$T/.err" &
    local pid=$!
    set +m
    sleep 0.5
    kill -s "$sig" $pid
    wait $pid
    local rc=$?
    local left
    left=$(ls "$T" | grep -E "^sig\.|nesvm-tmp" | tr '\n' ' ')
    if [ $rc -ne "$want" ]; then
        not_ok "$name" "exit $rc, expected $want ($(first_line "$T/.err"))"
    elif [ "${name#*reading}" = "$name" ] && [ "${name#*prediction}" = "$name" ] &&
        ! grep -q "error: .*training cancelled at iteration [0-9]" "$T/.err"; then
        not_ok "$name" "no 'training cancelled' message ($(first_line "$T/.err"))"
    elif [ -n "$left" ]; then
        not_ok "$name" "left behind: $left"
    else
        ok "$name: exit $want, nothing written"
    fi
}
signal_case "SIGINT during training" INT 130 "$BIN" train -q --trace "$T/sig.trace" "${LONG[@]}" "$H" "$T/sig.model"
signal_case "SIGTERM during training" TERM 143 "$BIN" train -q "${LONG[@]}" "$H" "$T/sig.model"
signal_case "SIGINT during cross-validation" INT 130 "$BIN" cv -q -v 3 --trace "$T/sig.trace" "${LONG[@]}" "$H"
signal_case "SIGTERM during cross-validation" TERM 143 "$BIN" cv -q -v 3 "${LONG[@]}" "$H"
# reading and predicting from a FIFO whose writer stalls after some rows
stall_fifo() {
    rm -f "$T/slow"
    mkfifo "$T/slow"
    (head -n 100 "$H"; sleep 20) >"$T/slow" &
    STALL=$!
}
stall_fifo
signal_case "SIGINT during reading" INT 130 "$BIN" train -q "$T/slow" "$T/sig.model"
kill $STALL 2>/dev/null
stall_fifo
signal_case "SIGTERM during reading" TERM 143 "$BIN" train -q "$T/slow" "$T/sig.model"
kill $STALL 2>/dev/null
stall_fifo
signal_case "SIGINT during prediction" INT 130 "$BIN" predict "$T/slow" "$T/ref.model" "$T/sig.pred"
kill $STALL 2>/dev/null
stall_fifo
signal_case "SIGTERM during prediction" TERM 143 "$BIN" predict "$T/slow" "$T/ref.model" "$T/sig.pred"
kill $STALL 2>/dev/null
wait 2>/dev/null

# --checkpoint: SIGTERM saves the state; --resume continues it to the very
# model of an uninterrupted run (Pegasos continues exactly)
PEG=(--solver pegasos -e 1e-5)
run "$BIN" train -q "${PEG[@]}" "$H" "$T/peg.model"
rm -f "$T/ck"
set -m
"$BIN" train -q --checkpoint "$T/ck" "${PEG[@]}" "$H" "$T/sig.model" >"$T/.out" 2>"$T/.err" &
pid=$!
set +m
sleep 0.7
kill -TERM $pid
wait $pid
rc=$?
if [ $rc -ne 143 ] || [ -e "$T/sig.model" ] || [ ! -s "$T/ck" ] ||
    ! grep -q "the training's state is saved in '$T/ck': continue it with --resume" "$T/.err"; then
    not_ok "SIGTERM with --checkpoint" "exit $rc, $(tr '\n' '|' <"$T/.err")"
else
    ok "SIGTERM with --checkpoint: exit 143, state saved, no model"
fi
run "$BIN" train -q --resume "$T/ck" --checkpoint "$T/ck" "${PEG[@]}" "$H" "$T/sig.model"
expect_ok_rc "train --resume" && { cmp -s "$T/sig.model" "$T/peg.model" &&
    ok "train --resume: the same model as an uninterrupted run" || not_ok "train --resume" "models differ"; }
head -n 100 "$H" >"$T/heart100"
expect_fail "train --resume with other data" 1 "was made from other data (270 rows, 13 features) than these (100 rows" \
    "$T/o.model" -- "$BIN" train --resume "$T/ck" "${PEG[@]}" "$T/heart100" "$T/o.model"
expect_fail "train --resume with other options" 1 "was made with other parameters" "$T/o.model" -- \
    "$BIN" train --resume "$T/ck" --solver pegasos -e 1e-4 "$H" "$T/o.model"
expect_fail "train --resume of a missing file" 1 "cannot open checkpoint" "$T/o.model" -- \
    "$BIN" train --resume "$T/none" "$H" "$T/o.model"
expect_fail "train --checkpoint with -v" 2 "--checkpoint and --resume cannot be combined with -v" "" -- \
    "$BIN" train -v 3 --checkpoint "$T/ck2" "$H"
expect_fail "train --checkpoint -" 2 "--checkpoint needs a file" "$T/o.model" -- \
    "$BIN" train --checkpoint - "$H" "$T/o.model"
expect_fail "train --checkpoint-every -1" 2 "bad value '-1' for --checkpoint-every" "$T/o.model" -- \
    "$BIN" train --checkpoint-every -1 "$H" "$T/o.model"
rm -f "$T/sig.model" "$T/ck"

# ------------------------------------------------------------ kill -9 and saves
# A temporary left by a killed writer (its PID no longer runs) is removed by
# the next save of the same file; one of a running writer is not.
sh -c 'exit 0' &
deadpid=$!
wait $deadpid
cp "$T/ref.model" "$T/k.model"
printf 'nesvm_model 1\nsolver nes' >"$T/.k.model.nesvm-tmp-$deadpid-AbC123"
printf 'partial' >"$T/.k.model.nesvm-tmp-$$-XyZ789" # this shell runs: kept
run "$BIN" info "$T/k.model"
expect_ok_rc "old model loads next to a stale temporary" && ok "old model intact next to a stale temporary"
run "$BIN" train -q -c 2 "$H" "$T/k.model"
if [ -e "$T/.k.model.nesvm-tmp-$deadpid-AbC123" ]; then
    not_ok "stale temporary removed by the next save" "still there"
elif [ ! -e "$T/.k.model.nesvm-tmp-$$-XyZ789" ]; then
    not_ok "a running writer's temporary is kept" "removed"
else
    ok "the next save removes a dead writer's temporary, keeps a running one's"
fi
rm -f "$T/.k.model.nesvm-tmp-$$-XyZ789"
# Real kills at random moments of a training and its save: the model file is
# always the old one or a complete new one, and one save later no temporary
# is left.
"$BIN" train -q -t 2 -c 4 "$SRC/tests/data/breast_cancer_scale" "$T/kill.model" >/dev/null 2>&1
cp "$T/kill.model" "$T/kill.old"
bad=0
for i in $(seq 1 20); do
    "$BIN" train -q -t 2 -c $((i % 5 + 1)) "$SRC/tests/data/breast_cancer_scale" "$T/kill.model" >/dev/null 2>&1 &
    pid=$!
    sleep "0.0$((RANDOM % 10))$((RANDOM % 10))"
    kill -9 $pid 2>/dev/null
    wait $pid 2>/dev/null
    "$BIN" info "$T/kill.model" >/dev/null 2>&1 || bad=$((bad + 1))
done
[ $bad -eq 0 ] && ok "kill -9 at 20 random moments: the model always loads" ||
    not_ok "kill -9 during saves" "$bad of 20 left a model that does not load"
"$BIN" train -q -t 2 "$SRC/tests/data/breast_cancer_scale" "$T/kill.model" >/dev/null 2>&1
[ -z "$(ls -a "$T" | grep "kill.model.nesvm-tmp")" ] && ok "after kills, one save leaves no temporary" ||
    not_ok "after kills, one save leaves no temporary" "$(ls -a "$T" | grep nesvm-tmp | tr '\n' ' ')"

[ -c /dev/null ] && ok "the system's /dev/null is still a device" || not_ok "/dev/null" "replaced!"
finish
