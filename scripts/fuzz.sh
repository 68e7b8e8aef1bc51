#!/usr/bin/env bash
# Fuzzes tfsift's readers with libFuzzer under AddressSanitizer +
# UndefinedBehaviorSanitizer, one target at a time.
#
# Usage: scripts/fuzz.sh MINUTES [TARGET]
#   MINUTES  how long to fuzz
#   TARGET   a fuzz/*.cpp program name (default parse_fuzz):
#            parse_fuzz     HCL native syntax (and the parse-dump printer)
#            tf_json_fuzz   .tf.json configuration files
#            lock_fuzz      .terraform.lock.hcl (with a write/read round trip)
#            settings_fuzz  .tfsift.toml
#            state_fuzz     terraform.tfstate
#            tfrc_fuzz      the CLI configuration (.terraformrc, *.tfrc)
#            registry_json_fuzz  the provider registry's JSON documents
#                           (service discovery, versions list, download document)
#            mirror_json_fuzz    a network mirror's index.json and <version>.json
#            sums_fuzz      SHA256SUMS and the OpenPGP helper's JSON
#            settings_keys_fuzz  .tfsift.toml around a key of up to 200,000 parts
#            lsp_message_fuzz    the byte stream an editor writes to `tfsift server`
# Environment:
#   FUZZ_JOBS     parallel fuzzing processes (default 1)
#   FUZZ_SEEDS    how many corpus files to draw as seeds (default 1500)
#   FUZZ_MAX_LEN  largest input libFuzzer builds, in bytes (default 16384)
#   FUZZ_REGRESSION_SEEDS=0  leave fixtures/fuzz-regressions/ out of the seeds
#                 (while known crashes there are unfixed, they are found again)
#
# The seeds of parse_fuzz are drawn from ../shared/corpus (always the same
# sample), plus the hand-written oracle cases and fixtures/fuzz-regressions/.
# The other targets take the files of their format from fixtures/ and
# ../shared/, plus fixtures/fuzz-regressions/<format>/. The working corpus
# grows in fuzz/corpus-work/, crashes are written to fuzz/crashes/TARGET- (both
# are git-ignored). Turn each crash into a regression test by copying it to
# fixtures/fuzz-regressions/ (HCL) or fixtures/fuzz-regressions/<format>/
# with a name that says what it exercises.
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

# Each format's seeds, and its regression inputs (see tests/unit/fuzz_regressions_test.cpp).
case "$target" in
  parse_fuzz)    seeds=fuzz/corpus-work/seeds; format_dir="" ;;
  tf_json_fuzz)  seeds=fuzz/corpus-work/seeds-$target; format_dir=tf-json ;;
  lock_fuzz)     seeds=fuzz/corpus-work/seeds-$target; format_dir=lock ;;
  settings_fuzz) seeds=fuzz/corpus-work/seeds-$target; format_dir=settings ;;
  state_fuzz)    seeds=fuzz/corpus-work/seeds-$target; format_dir=state ;;
  tfrc_fuzz)     seeds=fuzz/corpus-work/seeds-$target; format_dir=tfrc ;;
  registry_json_fuzz) seeds=fuzz/corpus-work/seeds-$target; format_dir=registry-json ;;
  mirror_json_fuzz)   seeds=fuzz/corpus-work/seeds-$target; format_dir=mirror-json ;;
  sums_fuzz)     seeds=fuzz/corpus-work/seeds-$target; format_dir=sums ;;
  settings_keys_fuzz) seeds=fuzz/corpus-work/seeds-$target; format_dir=settings-keys ;;
  lsp_message_fuzz)   seeds=fuzz/corpus-work/seeds-$target; format_dir=lsp ;;
  *) echo "unknown fuzz target $target" >&2; exit 2 ;;
esac
work=fuzz/corpus-work/$target
mkdir -p "$seeds" "$work" fuzz/crashes
# Copies the files that `find ARGS` lists (at most max_len bytes) into the seeds.
copy_seeds() {
  find "$@" -type f -size -"$((max_len + 1))"c -print0 2>/dev/null | sort -z | while IFS= read -r -d '' f; do
    cp "$f" "$seeds/$(echo "$f" | tr '/' '_')"
  done
}
if [ -z "$(ls -A "$seeds")" ]; then
  case "$target" in
    parse_fuzz)
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
      ;;
    tf_json_fuzz) copy_seeds fixtures "$shared/conformance" "$shared/corpus" -name '*.tf.json' ;;
    lock_fuzz) copy_seeds fixtures "$shared/conformance/locks" "$shared/corpus" \( -name '*.lock.hcl' -o -path '*/locks/cases/*.hcl' \) ;;
    settings_fuzz) copy_seeds fixtures "$shared" -name '*.toml' ;;
    state_fuzz) copy_seeds fixtures "$shared" \( -name '*.tfstate' -o -name '*.tfstate.backup' \) ;;
    tfrc_fuzz) : ;;  # only the hand-written inputs of fixtures/fuzz-regressions/tfrc
    settings_keys_fuzz|lsp_message_fuzz) : ;;  # only the hand-written inputs of fixtures/fuzz-regressions/
    # The fixture registry's documents, as tests/support/fixture_registry.py builds them.
    registry_json_fuzz|mirror_json_fuzz|sums_fuzz)
      python3 - "$seeds" "$target" <<'PY'
import os, sys, tempfile
sys.path.insert(0, "tests/support")
import fixture_registry as fr
seeds, target = sys.argv[1], sys.argv[2]
with tempfile.TemporaryDirectory(prefix="tfsift-seeds-") as tmp:
    reg = fr.FixtureRegistry(os.path.join(tmp, "reg"))
    try:
        for d, _, files in os.walk(reg.tree):
            for f in files:
                path = os.path.join(d, f)
                rel = os.path.relpath(path, reg.tree)
                if target == "sums_fuzz":
                    want = f.endswith("SHA256SUMS")
                elif target == "mirror_json_fuzz":
                    want = rel.startswith("mirror/") and f.endswith(".json")
                else:
                    want = f != "expect.json" and not rel.startswith(("mirror/", "dl/")) and not f.endswith((".zip", ".sig", "SHA256SUMS"))
                if want and os.path.getsize(path) <= 16384:
                    with open(path, "rb") as src, open(os.path.join(seeds, rel.replace("/", "_")), "wb") as dst:
                        dst.write(src.read())
    finally:
        reg.stop()
PY
      ;;
  esac
fi
regressions=()
if [ "${FUZZ_REGRESSION_SEEDS:-1}" != 0 ] && [ -d "fixtures/fuzz-regressions/$format_dir" ]; then
  regressions=("fixtures/fuzz-regressions/$format_dir")
fi
echo "fuzzing $target for $minutes minute(s) with $jobs job(s); seeds: $(ls -A "$seeds" | wc -l) files"

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
  -artifact_prefix="fuzz/crashes/$target-" -print_final_stats=1 -print_funcs=0 || status=$?

crashes=$(find fuzz/crashes -type f -name "$target-*" | wc -l)
echo "fuzz/crashes/ holds $crashes file(s) of $target"
exit "$status"
