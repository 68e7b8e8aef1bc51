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
# libcurl, RNP, libarchive and libzip are opened when a command needs them,
# never at start-up (include/tfsift/lazy_library.hpp)...
for library in libcurl librnp libarchive libzip libbotan libgnutls; do
    grep -q "$library[-.]" <<<"$ldd_output" && fail "$library is loaded at start-up"
done

"$binary" --version >/dev/null || fail "tfsift-static --version failed"
status=0
"$binary" lint "$src/docs/examples/basic" >/dev/null || status=$?
(( status <= 1 )) || fail "tfsift-static lint of the bundled example exited $status"
# ...and opened then: the lock-file hash of a provider package (a zip) reads it
# with libzip, the same hash as the shared build's.
work_zip=$(mktemp -d)
python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1], "w").writestr("terraform-provider-x", "binary\n")' \
    "$work_zip/p.zip"
static_hash=$("$binary" debug hash "$work_zip/p.zip") || fail "tfsift-static could not hash a zip package"
shared_hash=$("$shared" debug hash "$work_zip/p.zip")
[[ $static_hash == h1:* && $static_hash == "$shared_hash" ]] \
    || fail "tfsift-static hashed a zip package as '$static_hash', tfsift as '$shared_hash'"
rm -rf "$work_zip"
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
