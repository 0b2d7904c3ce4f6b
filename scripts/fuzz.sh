#!/usr/bin/env bash
# Build the libFuzzer targets (clang, ASan + UBSan, NESVM_FUZZ=ON) and run them.
#
#   scripts/fuzz.sh --smoke        every target once over its seed corpus and
#                                  regressions (no fuzzing), then FUZZ_SECONDS
#                                  (default 60) of fuzzing each, on a scratch
#                                  copy of the corpus (the committed corpus
#                                  never grows)
#   scripts/fuzz.sh --hours H      fuzz every target for H hours (fractions
#                                  allowed), all at once, sharing the cores
#                                  (libFuzzer -fork); the grown corpus is kept
#                                  in BUILD/fuzz-corpus/<target> between runs
#   scripts/fuzz.sh --build        only build
#
# Options: --targets "reader model ..." (default: all six).
# Environment: NESVM_FUZZ_BUILD_DIR (default build-fuzz), FUZZ_SECONDS,
# FUZZ_JOBS (parallel targets in --smoke, default: the number of cores).
# Exits non-zero when a target crashes, leaks, times out or runs out of
# memory, printing the path of each input that did; crashes go to
# BUILD/fuzz-artifacts/<target>/.  To keep one as a regression: minimize it
# (BUILD/tests/fuzz/fuzz_<target> -minimize_crash=1 -runs=10000 CRASH), copy it
# to tests/fuzz/regressions/<target>/ with a README line saying what it found.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

mode=""
hours=""
targets=(reader model number scaling options import)
while [ $# -gt 0 ]; do
  case "$1" in
    --smoke) mode=smoke ;;
    --build) mode=build ;;
    --hours) mode=hours; hours=${2:?--hours needs a number}; shift ;;
    --targets) read -r -a targets <<< "${2:?--targets needs a list}"; shift ;;
    -h|--help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "fuzz.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done
[ -n "$mode" ] || { echo "fuzz.sh: give --smoke, --hours H or --build" >&2; exit 2; }

build=${NESVM_FUZZ_BUILD_DIR:-build-fuzz}
case "$build" in /*) ;; *) build=$root/$build ;; esac
cores=$(nproc)

command -v clang >/dev/null || { echo "fuzz.sh: clang is missing (apt-get install clang libclang-rt-14-dev libomp-14-dev)" >&2; exit 2; }
mkdir -p "$build"
if ! { CC=clang cmake -S . -B "$build" -DNESVM_FUZZ=ON -DBUILD_TESTING=OFF \
         -DCMAKE_BUILD_TYPE=RelWithDebInfo &&
       cmake --build "$build" -j"$cores" --target fuzz_all; } >"$build/fuzz-build.log" 2>&1; then
  tail -n 40 "$build/fuzz-build.log" >&2
  echo "fuzz.sh: the build failed (log: $build/fuzz-build.log)" >&2
  exit 1
fi
[ "$mode" = build ] && { echo "fuzz.sh: built $build/tests/fuzz/fuzz_*"; exit 0; }

# Inputs longer than these are not generated (the seeds fit in them).
max_len() {
  case "$1" in
    reader) echo 16384 ;;  # gzip seeds that inflate to > 1 MB are ~4 KB
    model) echo 8192 ;;
    import) echo 8192 ;;
    number) echo 4096 ;;   # numbers far beyond 511 characters
    scaling) echo 4096 ;;
    options) echo 1024 ;;
  esac
}
common=(-rss_limit_mb=2048 -timeout=10 -print_final_stats=1)
artifacts=$build/fuzz-artifacts
logs=$build/fuzz-logs
mkdir -p "$artifacts" "$logs"

# A target's dictionary of keywords, when it has one.
dict() { [ -f "tests/fuzz/dict/$1.dict" ] && echo "-dict=tests/fuzz/dict/$1.dict" || true; }

# Report the failing inputs a target left in its artifact folder: each
# input's path, the log's lines that say why, and the input itself (gzip,
# base64), so that a failure on a machine whose files are gone (CI) can be
# replayed: base64 -d | gunzip > crash; BUILD/tests/fuzz/fuzz_T crash.
report() {
  local t=$1 found=0
  while IFS= read -r -d '' f; do
    echo "fuzz.sh: fuzz_$t FAILED on input $f" >&2
    grep -h -E 'FUZZ CHECK FAILED|ERROR: |runtime error|SUMMARY|OMP: |^    #[0-9] ' "$logs/$t".*.log 2>/dev/null |
      head -n 40 | sed 's/^/  /' >&2
    echo "  the input ($(wc -c <"$f") bytes; base64 -d | gunzip):" >&2
    gzip -9c "$f" | base64 -w 100 | sed 's/^/  /' >&2
    found=1
  done < <(find "$artifacts/$t" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
             -o -name 'oom-*' \) -newer "$artifacts/.start" -print0 2>/dev/null)
  return $found
}

touch "$artifacts/.start"
status=0

if [ "$mode" = smoke ]; then
  secs=${FUZZ_SECONDS:-60}
  # 1. the committed inputs, as plain inputs
  for t in "${targets[@]}"; do
    if bash tests/fuzz/run_corpus.sh "$build/tests/fuzz/fuzz_$t" tests/fuzz/corpus/$t \
         tests/fuzz/regressions/$t >"$logs/$t.corpus.log" 2>&1; then
      echo "fuzz.sh: fuzz_$t: corpus and regressions pass"
    else
      echo "fuzz.sh: fuzz_$t FAILED on its corpus or regressions (log: $logs/$t.corpus.log):" >&2
      grep -E '^Running: ' "$logs/$t.corpus.log" | tail -1 | sed 's/^Running: /  input: /' >&2
      grep -E 'FUZZ CHECK FAILED|ERROR: |runtime error' "$logs/$t.corpus.log" | head -3 | sed 's/^/  /' >&2
      status=1
    fi
  done
  # 2. bounded fuzzing on scratch copies of the corpus
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/nesvm-fuzz-smoke.XXXXXX")
  trap 'rm -rf "$scratch"' EXIT
  jobs_max=${FUZZ_JOBS:-$cores}
  pids=()
  for t in "${targets[@]}"; do
    mkdir -p "$scratch/$t" "$artifacts/$t"
    find tests/fuzz/corpus/$t tests/fuzz/regressions/$t -type f ! -name 'README*' \
      -exec cp -t "$scratch/$t" {} + 2>/dev/null || true
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || true; done
    echo "fuzz.sh: fuzzing fuzz_$t for ${secs}s (log: $logs/$t.fuzz.log)"
    "$build/tests/fuzz/fuzz_$t" "${common[@]}" -max_len="$(max_len "$t")" $(dict "$t") \
      -max_total_time="$secs" -artifact_prefix="$artifacts/$t/" "$scratch/$t" \
      >"$logs/$t.fuzz.log" 2>&1 &
    pids+=($!)
  done
  i=0
  for t in "${targets[@]}"; do
    if ! wait "${pids[$i]}"; then status=1; fi
    grep -E 'stat::number_of_executed_units' "$logs/$t.fuzz.log" | sed "s/^/fuzz.sh: fuzz_$t: /" || true
    report "$t" || status=1
    i=$((i + 1))
  done
else
  secs=$(awk -v h="$hours" 'BEGIN { s = int(h * 3600); if (s < 1) s = 1; print s }')
  n=${#targets[@]}
  workers=$(( cores / n )); [ "$workers" -ge 1 ] || workers=1
  pids=()
  for t in "${targets[@]}"; do
    corpus=$build/fuzz-corpus/$t
    mkdir -p "$corpus" "$artifacts/$t"
    if [ -z "$(ls -A "$corpus")" ]; then
      find tests/fuzz/corpus/$t tests/fuzz/regressions/$t -type f ! -name 'README*' \
        -exec cp -t "$corpus" {} + 2>/dev/null || true
    fi
    echo "fuzz.sh: fuzzing fuzz_$t for ${secs}s with $workers worker(s) (corpus $corpus, log $logs/$t.fuzz.log)"
    "$build/tests/fuzz/fuzz_$t" "${common[@]}" -max_len="$(max_len "$t")" $(dict "$t") \
      -max_total_time="$secs" -fork="$workers" -ignore_crashes=1 -ignore_ooms=1 \
      -ignore_timeouts=1 -artifact_prefix="$artifacts/$t/" "$corpus" \
      >"$logs/$t.fuzz.log" 2>&1 &
    pids+=($!)
  done
  i=0
  for t in "${targets[@]}"; do
    wait "${pids[$i]}" || status=1
    report "$t" || status=1
    i=$((i + 1))
  done
fi

if [ "$status" -ne 0 ]; then
  echo "fuzz.sh: FAILED (inputs above; logs in $logs)" >&2
  exit 1
fi
echo "fuzz.sh: all targets passed"
