#!/usr/bin/env bash
# Builds tfsift with AddressSanitizer + UndefinedBehaviorSanitizer in
# build-asan/ and runs the whole ctest suite there (unit tests and the
# conformance suites against ../shared). Prints how long each step took.
#
# Usage: scripts/sanitize.sh [CTEST_ARGS...]   e.g. scripts/sanitize.sh -R hcldump
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-asan

# Any sanitizer report, a leak included, ends the process with an error.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

start=$SECONDS
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTFSIFT_SANITIZE=ON >/dev/null
cmake --build "$build" -j "$(nproc)"
built=$SECONDS
status=0
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" "$@" || status=$?
done_at=$SECONDS
echo "sanitize.sh: build $((built - start)) s, tests $((done_at - built)) s, total $((done_at - start)) s"
exit "$status"
