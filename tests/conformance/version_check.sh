#!/usr/bin/env bash
# `tfsift --version` names the version and the commit the binary was built
# from, and cmake/build_info.cmake, which records the commit at build time,
# takes it from git only at the top of a git work tree and from
# -DTFSIFT_COMMIT= before git.
#   version_check.sh SOURCE_DIR TFSIFT_BINARY
set -uo pipefail
src=$1
tfsift=$2
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

line=$("$tfsift" --version) || fail "tfsift --version exited $?"
echo "$line"
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$(dirname "$tfsift")/CMakeCache.txt" 2>/dev/null)
[[ -n $version ]] || version=$(sed -n 's/^project(tfsift VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
if [[ ! $line =~ ^tfsift\ ([0-9]+\.[0-9]+\.[0-9]+)\ \(commit\ ([0-9A-Za-z._+-]+)\;\ registry\ requests\ as\ Terraform\ [0-9.]+\ /\ OpenTofu\ [0-9.]+\)$ ]]; then
    fail "the version line does not read 'tfsift VERSION (commit ID; registry requests as ...)'"
else
    [[ ${BASH_REMATCH[1]} == "$version" ]] || fail "the version is ${BASH_REMATCH[1]}, the project's is $version"
    shown=${BASH_REMATCH[2]}
    if [[ $(git -C "$src" rev-parse --show-toplevel 2>/dev/null) == "$(cd "$src" && pwd -P)" ]]; then
        head=$(git -C "$src" rev-parse --short=12 HEAD)
        [[ ${shown%-dirty} == "$head" ]] \
            || fail "the binary names commit $shown, the source tree is at $head (rebuild after committing)"
    fi
fi

# The recording script on its own, as the build runs it.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
record() {  # SOURCE [COMMIT]: prints the commit the generated file defines
    rm -f "$work/info.cpp"
    cmake -DSOURCE="$1" -DOUT="$work/info.cpp" -DCOMMIT="${2:-}" -P "$src/cmake/build_info.cmake" >"$work/log" 2>&1 || return 1
    sed -n 's/.*build_commit() { return "\(.*\)"; }.*/\1/p' "$work/info.cpp"
}
got=$(record "$src" v1.2.3-custom) || fail "-DTFSIFT_COMMIT=v1.2.3-custom was refused: $(cat "$work/log")"
[[ $got == v1.2.3-custom ]] || fail "-DTFSIFT_COMMIT=v1.2.3-custom recorded '$got'"
record "$src" 'a"b' >/dev/null && fail "a commit with a quote was accepted"
grep -q 'TFSIFT_COMMIT must be' "$work/log" || fail "a commit with a quote gives no clear message: $(cat "$work/log")"
mkdir -p "$work/plain"
got=$(record "$work/plain") || fail "a source tree outside git failed: $(cat "$work/log")"
[[ -z $got ]] || fail "a source tree outside git recorded '$got'"
# A source tree unpacked inside some other repository is not that repository's commit.
git init -q "$work/outer" && mkdir -p "$work/outer/tfsift-src"
git -C "$work/outer" -c user.email=t@example.com -c user.name=t commit -q --allow-empty -m outer
got=$(record "$work/outer/tfsift-src") || fail "a source tree inside another repository failed"
[[ -z $got ]] || fail "a source tree inside another repository recorded that repository's commit '$got'"
got=$(record "$work/outer") || fail "a git work tree failed"
[[ $got == "$(git -C "$work/outer" rev-parse --short=12 HEAD)" ]] || fail "a git work tree recorded '$got'"
# Unchanged text leaves the file (and its time stamp) alone: nothing recompiles.
cmake -DSOURCE="$work/outer" -DOUT="$work/info.cpp" -P "$src/cmake/build_info.cmake"
touch -d '2001-01-01' "$work/info.cpp"
cmake -DSOURCE="$work/outer" -DOUT="$work/info.cpp" -P "$src/cmake/build_info.cmake"
[[ $(stat -c %Y "$work/info.cpp") == "$(date -d 2001-01-01 +%s)" ]] || fail "an unchanged commit rewrote the file"

if (( failures > 0 )); then
    echo "$failures check(s) failed"
    exit 1
fi
echo "tfsift --version names version $version and its commit"
