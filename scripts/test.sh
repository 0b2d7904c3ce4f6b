#!/usr/bin/env bash
# Run every test: install dependencies, build from scratch with warnings as
# errors, run ctest (unit, CLI, oracle, install tests); then again under
# ASan+UBSan; then the unit tests of a build without OpenMP; then the unit
# and MPI tests of a build with MPI (mpirun, 2 and 3 ranks); then the fuzz
# targets (clang, libFuzzer, ASan+UBSan) over their corpora and for about a
# minute each (FUZZ_SECONDS).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
build=${NESVM_BUILD_DIR:-build-test}
rm -rf "$build"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DNESVM_WERROR=ON >/dev/null
cmake --build "$build" -j"$(nproc)"
ctest --test-dir "$build" --output-on-failure -j"$(nproc)"

# The same suite under AddressSanitizer + UndefinedBehaviorSanitizer (leak checks on).
asan=${NESVM_ASAN_BUILD_DIR:-build-test-asan}
rm -rf "$asan"
cmake -S . -B "$asan" -DCMAKE_BUILD_TYPE=Debug -DNESVM_SANITIZE=ON >/dev/null
cmake --build "$asan" -j"$(nproc)"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir "$asan" --output-on-failure -j"$(nproc)"

# The build without OpenMP must stay warning-free and pass the unit tests.
noomp=${NESVM_NOOMP_BUILD_DIR:-build-test-noomp}
rm -rf "$noomp"
cmake -S . -B "$noomp" -DNESVM_OPENMP=OFF -DNESVM_WERROR=ON >/dev/null
cmake --build "$noomp" -j"$(nproc)"
ctest --test-dir "$noomp" --output-on-failure -j"$(nproc)" -R '^unit_'

# The build with MPI (-DNESVM_WITH_MPI=ON): warning-free, its unit tests, and the
# communicator's collectives under mpirun with 2 and 3 ranks.
mpi=${NESVM_MPI_BUILD_DIR:-build-test-mpi}
rm -rf "$mpi"
cmake -S . -B "$mpi" -DNESVM_WITH_MPI=ON -DNESVM_WERROR=ON >/dev/null
cmake --build "$mpi" -j"$(nproc)"
ctest --test-dir "$mpi" --output-on-failure -R '^unit_|^mpi_'

# Fuzzing: each libFuzzer target over its seeds and regressions, then
# FUZZ_SECONDS (default 60) of fuzzing each, two at a time on two cores.
fuzz=${NESVM_FUZZ_BUILD_DIR:-build-test-fuzz}
rm -rf "$fuzz"
NESVM_FUZZ_BUILD_DIR=$fuzz FUZZ_SECONDS=${FUZZ_SECONDS:-60} bash scripts/fuzz.sh --smoke
