#!/usr/bin/env bash
# Runs clang-format (the style of .clang-format) in dry-run mode over the C++
# files changed since BASE (default: the merge base with `main`, else the
# last commit), uncommitted changes included, and exits 1 when one of them
# is not formatted. It changes no file; `--fix` formats them in place.
#
# usage: scripts/check-format.sh [--fix] [BASE]
set -euo pipefail

cd "$(dirname "$0")/.."
fix=0
if [[ ${1:-} == --fix ]]; then
    fix=1
    shift
fi
format=$(command -v clang-format || command -v clang-format-14 || true)
if [[ -z $format ]]; then
    echo "check-format: clang-format is not installed (Debian: apt-get install clang-format)" >&2
    exit 2
fi
base=${1:-}
if [[ -z $base ]]; then
    base=$(git merge-base HEAD main 2>/dev/null || git rev-parse HEAD~1)
fi
mapfile -t files < <({
    git diff --name-only --diff-filter=d "$base" -- '*.cpp' '*.hpp' '*.inl'
    git ls-files --others --exclude-standard -- '*.cpp' '*.hpp' '*.inl'
} | sort -u | grep -v '^third_party/' || true)
if [[ ${#files[@]} == 0 ]]; then
    echo "check-format: no C++ file changed since ${base:0:12}"
    exit 0
fi
if [[ $fix == 1 ]]; then
    "$format" --style=file -i "${files[@]}"
    echo "check-format: formatted ${#files[@]} file(s)"
    exit 0
fi
if "$format" --style=file --dry-run --Werror "${files[@]}"; then
    echo "check-format: ${#files[@]} changed file(s) formatted"
else
    echo "check-format: run scripts/check-format.sh --fix $base to format them" >&2
    exit 1
fi
