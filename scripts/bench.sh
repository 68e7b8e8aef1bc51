#!/usr/bin/env bash
# Builds tfsift's benchmarks in Release (build-release/) and the Go
# reference benchmark hclbench from ../shared/tools/oracle/hclbench (into
# build-release/, never into ../shared), then runs them on the same corpus:
# parse_bench (the parser alone against Go's), load_bench (loading and merging
# against parsing) and lint_bench (the `tfsift lint -r` command as users run
# it, with its processor time, peak memory and files read, against Go's parse
# in the same minute and against tfsift's own parse of the same files, with
# its instructions counted by callgrind when valgrind is installed; then the
# lint through the lint session, per stage, on one thread and on every core,
# and its cost per module on generated trees), then scaling_bench (the
# time per unit of input as each dimension grows: files per module,
# diagnostics per file, findings per line, modules per tree, lock-file size,
# `**` per glob).
#
# Usage: scripts/bench.sh [CORPUS_DIR] [parse_bench options...]
#   CORPUS_DIR defaults to ../shared/corpus
# hclbench needs the Debian packages golang-go golang-github-hashicorp-hcl-v2-dev
# golang-github-zclconf-go-cty-dev; without them the Go comparison is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-release
corpus=${1:-../shared/corpus}
shift $(( $# > 0 ? 1 : 0 ))

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j "$(nproc)" --target parse_bench load_bench lint_bench scaling_bench tfsift

hclbench_args=()
if command -v go >/dev/null; then
  out="$PWD/$build/hclbench"
  # GOPATH mode against Debian's packaged sources, no network (see the
  # oracle README); the Go build cache stays in the build directory.
  if (cd ../shared && GO111MODULE=off GOPATH=/usr/share/gocode GOFLAGS= GOCACHE="$out-gocache" \
        go build -o "$out" ./tools/oracle/hclbench); then
    hclbench_args=(--hclbench "$out")
  else
    echo "bench.sh: could not build hclbench; running without the Go comparison" >&2
  fi
else
  echo "bench.sh: go not installed; running without the Go comparison" >&2
fi

"$build/parse_bench" "${hclbench_args[@]}" "$@" "$corpus"
echo
"$build/load_bench" "$corpus"
lint_args=(--tfsift "$build/tfsift")
if command -v valgrind >/dev/null; then
  lint_args+=(--instructions)
fi
"$build/lint_bench" "${hclbench_args[@]}" "${lint_args[@]}" "$corpus"
echo
"$build/scaling_bench"
