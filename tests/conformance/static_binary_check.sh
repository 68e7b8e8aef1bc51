#!/usr/bin/env bash
# tfsift-static (-DTFSIFT_STATIC=ON): the shared libraries it needs are
# exactly those CONTRIBUTING.md lists under "A mostly static binary", ldd resolves
# them all, none of the libraries linked statically is loaded by the binary
# itself, and the binary runs and reports what tfsift does.
#   static_binary_check.sh SOURCE_DIR TFSIFT_STATIC TFSIFT
set -uo pipefail
src=$1
binary=$2
shared=$3
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# The documented list: the first column of the table between the markers.
documented=$(sed -n '/<!-- static-binary-shared-libraries: begin -->/,/<!-- static-binary-shared-libraries: end -->/p' \
    "$src/CONTRIBUTING.md" | grep -oE '^\| `lib[^`]+`' | tr -d '|` ' | sort)
[[ -n $documented ]] || { echo "FAIL: CONTRIBUTING.md has no list of the static binary's shared libraries"; exit 1; }
needed=$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort)
if [[ $needed != "$documented" ]]; then
    fail "the binary needs a different set of shared libraries than CONTRIBUTING.md lists"
    diff <(echo "$documented") <(echo "$needed") | sed 's/^</  only in CONTRIBUTING.md:/; s/^>/  only in the binary:/' | grep only
fi

ldd_output=$(ldd "$binary")
echo "$ldd_output"
grep -q 'not found' <<<"$ldd_output" && fail "ldd cannot resolve every library"
for library in libre2 libutf8proc libmpfr libfmt libtomlplusplus; do
    grep -q "$library\.so" <<<"$ldd_output" && fail "$library is loaded as a shared library, not linked statically"
done

"$binary" --version >/dev/null || fail "tfsift-static --version failed"
status=0
"$binary" lint "$src/docs/examples/basic" >/dev/null || status=$?
(( status <= 1 )) || fail "tfsift-static lint of the bundled example exited $status"
# The same report as the shared build on every rule's fixtures (RE2, MPFR,
# utf8proc and GMP, now linked statically, are all used there).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$src" && "$binary" lint --recursive fixtures/rules --format json --jobs 1 >"$work/static.json")
(cd "$src" && "$shared" lint --recursive fixtures/rules --format json --jobs 1 >"$work/shared.json")
[[ -s $work/static.json ]] || fail "tfsift-static wrote no report of fixtures/rules"
cmp -s "$work/static.json" "$work/shared.json" || fail "tfsift-static and tfsift report fixtures/rules differently"

if (( failures > 0 )); then
    echo "$failures check(s) failed"
    exit 1
fi
echo "tfsift-static needs exactly the documented shared libraries: $(echo $needed)"
