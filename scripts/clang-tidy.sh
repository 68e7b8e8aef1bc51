#!/usr/bin/env bash
# Runs clang-tidy over tfsift's own sources using the build's compile database.
# Usage: scripts/clang-tidy.sh BUILD_DIR
set -euo pipefail
build=${1:?usage: scripts/clang-tidy.sh BUILD_DIR}
tidy=$(command -v clang-tidy || command -v clang-tidy-14)
# Tracked and new (not ignored) files alike, so work not yet committed is checked too.
mapfile -t files < <(git ls-files --cached --others --exclude-standard 'src/*.cpp' 'rules/*.cpp' 2>/dev/null \
                     || find src rules -name '*.cpp')
# A tracked file deleted in the working tree is listed by git but not checked.
existing=()
for f in "${files[@]}"; do [ -f "$f" ] && existing+=("$f"); done
printf '%s\n' "${existing[@]}" | xargs -P "$(nproc)" -n 4 "$tidy" -p "$build" --quiet
