#!/usr/bin/env bash
# Fuzzes the HCL parser (and the parse-dump printer run on its result) with
# libFuzzer under AddressSanitizer + UndefinedBehaviorSanitizer.
#
# Usage: scripts/fuzz.sh MINUTES [TARGET]
#   MINUTES  how long to fuzz
#   TARGET   a fuzz/*.cpp program name (default parse_fuzz)
# Environment:
#   FUZZ_JOBS     parallel fuzzing processes (default 1)
#   FUZZ_SEEDS    how many corpus files to draw as seeds (default 1500)
#   FUZZ_MAX_LEN  largest input libFuzzer builds, in bytes (default 16384)
#   FUZZ_REGRESSION_SEEDS=0  leave fixtures/fuzz-regressions/ out of the seeds
#                 (while known crashes there are unfixed, they are found again)
#
# The seeds are drawn from ../shared/corpus (always the same sample), plus the
# hand-written oracle cases and fixtures/fuzz-regressions/. The working corpus
# grows in fuzz/corpus-work/, crashes are written to fuzz/crashes/ (both are
# git-ignored). Turn each crash into a regression test by copying it to
# fixtures/fuzz-regressions/ with a name that says what it exercises.
set -euo pipefail
cd "$(dirname "$0")/.."

minutes=${1:?usage: scripts/fuzz.sh MINUTES [TARGET]}
target=${2:-parse_fuzz}
jobs=${FUZZ_JOBS:-1}
seed_count=${FUZZ_SEEDS:-1500}
max_len=${FUZZ_MAX_LEN:-16384}
shared=../shared
build=build-fuzz

CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTFSIFT_FUZZ=ON -DTFSIFT_SANITIZE=ON >/dev/null
cmake --build "$build" -j "$(nproc)" --target "$target"

seeds=fuzz/corpus-work/seeds
work=fuzz/corpus-work/$target
mkdir -p "$seeds" "$work" fuzz/crashes
if [ -z "$(ls -A "$seeds")" ]; then
  # A fixed sample (same seed every time) so that runs are comparable.
  python3 - "$shared/corpus" "$seeds" "$seed_count" "$max_len" <<'PY'
import os, random, shutil, sys
corpus, seeds, count, max_len = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
files = sorted(os.path.join(d, f) for d, _, fs in os.walk(corpus) for f in fs
               if f.endswith(".tf") and os.path.getsize(os.path.join(d, f)) <= max_len)
for path in random.Random(1).sample(files, min(count, len(files))):
    shutil.copyfile(path, os.path.join(seeds, "corpus-" + os.path.relpath(path, corpus).replace("/", "_")))
PY
  for f in "$shared"/tools/oracle/expected/hcldump/*.tf; do cp "$f" "$seeds/handwritten-$(basename "$f")"; done
fi
regressions=()
if [ "${FUZZ_REGRESSION_SEEDS:-1}" != 0 ] && [ -d fixtures/fuzz-regressions ]; then
  regressions=(fixtures/fuzz-regressions)
fi
echo "fuzzing $target for $minutes minute(s) with $jobs job(s); seeds: $(ls "$seeds" | wc -l) files"

extra=()
[ -f "fuzz/$target.dict" ] && extra+=(-dict="fuzz/$target.dict")
# Fork mode (even with one job): the fuzzing runs in child processes, so a
# crash is saved and fuzzing goes on to find the next one instead of stopping;
# a known crashing input among the seeds does not end the run either.
extra+=(-fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
"$build/$target" "$work" "$seeds" "${regressions[@]}" "${extra[@]}" \
  -max_total_time="$((minutes * 60))" -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" \
  -artifact_prefix=fuzz/crashes/ -print_final_stats=1 -print_funcs=0 || status=$?

crashes=$(find fuzz/crashes -type f | wc -l)
echo "fuzz/crashes/ holds $crashes file(s)"
exit "$status"
