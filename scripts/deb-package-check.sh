#!/usr/bin/env bash
# Builds the Debian package from an existing build directory (cpack, no
# compilation), installs it with dpkg -i, runs the installed tfsift (--version,
# a lint of the bundled example, the manual page, the bash completion), and
# removes it again. Needs root; CI runs it after the build.
#   scripts/deb-package-check.sh BUILD_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build_dir=$(cd "${1:?usage: scripts/deb-package-check.sh BUILD_DIR}" && pwd)

rm -rf "$build_dir/package"
(cd "$build_dir" && cpack -G DEB -B "$build_dir/package" >/dev/null)
deb=$(ls "$build_dir"/package/tfsift_*.deb)
echo "built $(basename "$deb")"
dpkg-deb --info "$deb" | sed -n 's/^ *\(Package\|Version\|Architecture\|Depends\):/  &/p'

# Depends names runtime libraries only, never a -dev package.
depends=$(dpkg-deb --field "$deb" Depends)
[[ $depends == *libc6* && $depends == *libre2-* ]] || { echo "FAIL: Depends lacks libc6 or libre2: $depends"; exit 1; }
[[ $depends != *-dev* ]] || { echo "FAIL: Depends names a -dev package: $depends"; exit 1; }
# The libraries tfsift opens when a command needs them, which dpkg-shlibdeps
# cannot see (include/tfsift/lazy_library.hpp).
for library in libcurl librnp libarchive libzip; do
    [[ $depends == *"$library"* ]] || { echo "FAIL: Depends lacks $library: $depends"; exit 1; }
done
# Every dependency is a package of the Debian archive apt knows (not one
# installed by hand), so a fresh Debian 12 can satisfy it.
for name in $(tr ',' '\n' <<<"$depends" | sed 's/(.*)//; s/|.*//' | tr -d ' '); do
    policy=$(apt-cache policy "$name")
    grep -qE '^ +[0-9]+ https?://|^ +[0-9]+ (file|cdrom):' <<<"$policy" \
        || { echo "FAIL: Depends names $name, which no apt source offers"; exit 1; }
done
contents=$(dpkg-deb --contents "$deb")
for path in ./usr/bin/tfsift ./usr/share/man/man1/tfsift.1.gz ./usr/share/bash-completion/completions/tfsift \
            ./usr/share/zsh/vendor-completions/_tfsift ./usr/share/fish/vendor_completions.d/tfsift.fish \
            ./usr/share/doc/tfsift/copyright ./usr/share/doc/tfsift/README.md; do
    grep -q " $path\$" <<<"$contents" || { echo "FAIL: the package has no $path"; exit 1; }
done
# The manual page is compressed (gzip, no name or time stamp in its header).
member() { dpkg-deb --fsys-tarfile "$deb" | tar -xOf - "$1"; }
member ./usr/share/man/man1/tfsift.1.gz | gzip -t || { echo "FAIL: tfsift.1.gz is not gzip"; exit 1; }
# copyright in Debian's machine-readable format, with the licence of LICENSE.
copyright=$(member ./usr/share/doc/tfsift/copyright)
[[ $(head -n 1 <<<"$copyright") == "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/" ]] \
    || { echo "FAIL: copyright is not in Debian's copyright format"; exit 1; }
grep -q '^License: Apache-2.0$' <<<"$copyright" || { echo "FAIL: copyright names no Apache-2.0 licence"; exit 1; }
license_text=$(awk '/^License: Apache-2.0$/ { n = NR } { line[NR] = $0 } END { for (i = n + 1; i <= NR; i++) print line[i] }' <<<"$copyright")
[[ $(sed 's/^ //; s/^\.$//' <<<"$license_text") == "$(sed 's/[[:space:]]*$//' "$root/LICENSE" | sed '/./,$!d')" ]] \
    || { echo "FAIL: copyright does not hold LICENSE's text"; exit 1; }
# The installed README is the one for users.
cmp -s <(member ./usr/share/doc/tfsift/README.md) "$root/share/README.md" \
    || { echo "FAIL: the installed README.md is not share/README.md"; exit 1; }
# Homepage only for a configured project address.
homepage=$(sed -n 's/^TFSIFT_HOMEPAGE:[A-Z]*=//p' "$build_dir/CMakeCache.txt")
field=$(dpkg-deb --field "$deb" Homepage)
[[ $field == "$homepage" ]] || { echo "FAIL: Homepage is '$field', the configured address '$homepage'"; exit 1; }

dpkg -i "$deb"
trap 'dpkg -r tfsift >/dev/null' EXIT
/usr/bin/tfsift --version
status=0
(cd "$root/docs/examples/basic" && /usr/bin/tfsift lint .) || status=$?
# The bundled example lints clean or with findings (0 or 1), never an error.
(( status <= 1 )) || { echo "FAIL: the installed tfsift linted the example with exit $status"; exit 1; }
# The installed tfsift opens libzip when it hashes a provider package.
zip_dir=$(mktemp -d)
python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1], "w").writestr("terraform-provider-x", "binary\n")' \
    "$zip_dir/p.zip"
zip_hash=$(/usr/bin/tfsift debug hash "$zip_dir/p.zip") \
    || { echo "FAIL: the installed tfsift could not hash a zip package"; exit 1; }
[[ $zip_hash == h1:* ]] || { echo "FAIL: the installed tfsift hashed a zip package as '$zip_hash'"; exit 1; }
rm -rf "$zip_dir" 
if command -v man >/dev/null; then
    MANPAGER=cat man -P cat tfsift 2>/dev/null | grep -q 'tfsift lint' \
        || { echo "FAIL: man tfsift does not show the installed page"; exit 1; }
fi
bash --norc -c 'source /usr/share/bash-completion/completions/tfsift && complete -p tfsift' >/dev/null \
    || { echo "FAIL: the installed bash completion does not load"; exit 1; }
# fish and zsh find the installed completions on their own search paths.
if command -v fish >/dev/null; then
    # (--no-config would empty fish's completion path; a fresh HOME keeps user files out)
    fish_home=$(mktemp -d)
    found=$(HOME=$fish_home fish -c 'complete -C "tfsift li"')
    rm -rf "$fish_home"
    grep -q '^lint' <<<"$found" || { echo "FAIL: fish does not find the installed completion"; exit 1; }
fi
if command -v zsh >/dev/null; then
    zsh -fc 'for d in $fpath; do [[ -f $d/_tfsift ]] && exit 0; done; exit 1' \
        || { echo "FAIL: the installed zsh completion is not on zsh's fpath"; exit 1; }
fi
echo "deb package: installed, ran and removed"
