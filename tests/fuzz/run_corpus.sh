#!/usr/bin/env bash
# Run a libFuzzer target once over every file of the given folders (no
# fuzzing): the seed corpus and the regressions.  README files are skipped.
# Usage: run_corpus.sh FUZZ_BINARY DIR... [-- LIBFUZZER_OPTIONS...]
set -euo pipefail
bin=$1
shift
dirs=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do dirs+=("$1"); shift; done
[ $# -gt 0 ] && shift
files=()
for d in "${dirs[@]}"; do
  [ -d "$d" ] || continue
  while IFS= read -r -d '' f; do files+=("$f"); done \
    < <(find "$d" -type f ! -name 'README*' -print0 | sort -z)
done
if [ ${#files[@]} -eq 0 ]; then
  echo "run_corpus.sh: no inputs in ${dirs[*]}" >&2
  exit 1
fi
echo "run_corpus.sh: $(basename "$bin") over ${#files[@]} inputs"
# libFuzzer runs each file given on the command line once.
exec "$bin" -rss_limit_mb=2048 -timeout=60 "$@" "${files[@]}"
