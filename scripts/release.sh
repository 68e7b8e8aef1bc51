#!/usr/bin/env bash
# Makes the release artifacts from a build directory configured as CI
# configures it (scripts/build.sh BUILD_DIR -DTFSIFT_WERROR=ON -DTFSIFT_STATIC=ON):
#
#   tfsift-VERSION-linux-ARCH.tar.gz  bin/tfsift, in lib/ the shared libraries
#                                     it needs that the C library does not
#                                     provide, the manual page, the shell
#                                     completions, README.md and the licences
#   tfsift_VERSION_ARCH.deb           the Debian 12 package (CPack)
#   SHA256SUMS                        sha256sum's list of both
#
#   scripts/release.sh BUILD_DIR OUT_DIR
#
# The tarball's binary is tfsift-static (re2, utf8proc, MPFR, GMP, jemalloc,
# fmt and toml++ linked in). The libraries that stay shared (OpenSSL,
# libstdc++), those it opens when a command needs them (libcurl, libarchive,
# RNP, libzip: the build's lazy-libraries.txt) and what they load in turn are
# copied from the build machine into lib/, and the binary gets the run path
# $ORIGIN/../lib, so it finds them wherever the directory is unpacked. The
# run path is written as DT_RPATH (patchelf --force-rpath), which the loader
# also searches for the libraries that those libraries load, so the copied
# libraries themselves are not modified. glibc (libc, libm, the loader, ...)
# is the one thing taken from the machine it runs on: the script fails when
# the binary or a copied library asks for a glibc newer than Debian 12's.
# Needs patchelf (scripts/debian-packages-build.txt) and dpkg.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage="usage: scripts/release.sh BUILD_DIR OUT_DIR"
[[ $# -eq 2 ]] || { echo "$usage" >&2; exit 2; }
build_dir=$(cd "$1" && pwd)
mkdir -p "$2"
out_dir=$(cd "$2" && pwd)
command -v patchelf >/dev/null || { echo "release.sh: needs patchelf (apt-get install patchelf)" >&2; exit 2; }

# The newest glibc the artifacts may ask for: Debian 12's.
max_glibc=2.36
# The libraries of glibc itself (Debian's libc6): the target machine's own.
glibc_libraries='^(ld-linux-x86-64\.so\.2|ld-linux-aarch64\.so\.1|libc\.so\.6|libm\.so\.6|libmvec\.so\.1|libpthread\.so\.0|libdl\.so\.2|librt\.so\.1|libresolv\.so\.2|libutil\.so\.1|libanl\.so\.1|libBrokenLocale\.so\.1|libnss_[a-z]+\.so\.2|libthread_db\.so\.1|libc_malloc_debug\.so\.0)$'

version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build_dir/CMakeCache.txt")
[[ -n $version ]] || { echo "release.sh: $build_dir is not a configured build directory" >&2; exit 2; }
grep -q '^TFSIFT_STATIC:BOOL=ON$' "$build_dir/CMakeCache.txt" \
    || { echo "release.sh: $build_dir was not configured with -DTFSIFT_STATIC=ON" >&2; exit 2; }
case $(uname -m) in
    x86_64) arch=x86_64 ;;
    aarch64) arch=aarch64 ;;
    *) echo "release.sh: no release for $(uname -m)" >&2; exit 2 ;;
esac

# Up to date (a no-op after the CI build): both binaries, the manual page and completions.
cmake --build "$build_dir" --target tfsift tfsift-static tfsift_shell_docs >/dev/null

name="tfsift-$version-linux-$arch"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stage="$work/$name"

# ---- the tarball ----------------------------------------------------------------
# The install rules lay out share/ as `cmake --install` does under any prefix;
# then the binary is replaced by tfsift-static.
cmake --install "$build_dir" --prefix "$stage" --strip >/dev/null
install -m 755 "$build_dir/tfsift-static" "$stage/bin/tfsift"
strip "$stage/bin/tfsift"
patchelf --force-rpath --set-rpath '$ORIGIN/../lib' "$stage/bin/tfsift"
cp "$stage/share/doc/tfsift/README.md" "$stage/README.md"

# The shared libraries, as the loader resolves them on this machine, glibc's left out.
mkdir -p "$stage/lib" "$stage/share/doc/tfsift/third-party"
bundled=()
while read -r soname path; do
    [[ $soname =~ $glibc_libraries ]] && continue
    [[ $path == /* ]] || { echo "release.sh: ldd cannot resolve $soname" >&2; exit 1; }
    install -m 644 "$(realpath "$path")" "$stage/lib/$soname"
    bundled+=("$path")
done < <(ldd "$build_dir/tfsift-static" | awk '$2 == "=>" { print $1, $3 }')
# The libraries tfsift opens when a command needs them (libcurl, RNP,
# libarchive, libzip: include/tfsift/lazy_library.hpp), which ldd does not
# list, and those they load in turn: found as the loader finds them.
[[ -s $build_dir/lazy-libraries.txt ]] || { echo "release.sh: $build_dir/lazy-libraries.txt is missing" >&2; exit 1; }
while read -r lazy; do
    path=$(ldconfig -p | awk -v n="$lazy" '$1 == n && /x86-64|AArch64/ && !found { print $NF; found = 1 }')
    [[ $path == /* ]] || { echo "release.sh: cannot find $lazy, which tfsift opens" >&2; exit 1; }
    while read -r soname dep; do
        [[ $soname =~ $glibc_libraries || -e $stage/lib/$soname ]] && continue
        [[ $dep == /* ]] || { echo "release.sh: ldd cannot resolve $soname, which $lazy loads" >&2; exit 1; }
        install -m 644 "$(realpath "$dep")" "$stage/lib/$soname"
        bundled+=("$dep")
    done < <(printf '%s %s\n' "$lazy" "$path"; ldd "$path" | awk '$2 == "=>" { print $1, $3 }')
done <"$build_dir/lazy-libraries.txt"
# Each library's licence: the copyright file of the Debian package that holds it.
for path in "${bundled[@]}"; do
    owner=$(dpkg -S "$path" 2>/dev/null || dpkg -S "$(realpath "$path")" 2>/dev/null || dpkg -S "/usr$path" 2>/dev/null) \
        || { echo "release.sh: no Debian package holds $path (its licence is unknown)" >&2; exit 1; }
    package=${owner%%:*}
    cp "/usr/share/doc/$package/copyright" "$stage/share/doc/tfsift/third-party/$package.copyright"
done

# Run from the unpacked directory, every library but glibc's resolves inside lib/.
outside=()
while read -r soname path; do
    [[ $soname =~ $glibc_libraries ]] && continue
    [[ $(realpath -m "$path") == "$stage/lib/$soname" ]] || outside+=("$soname ($path)")
done < <(env -u LD_LIBRARY_PATH ldd "$stage/bin/tfsift" | awk '$2 == "=>" { print $1, $3 }')
(( ${#outside[@]} == 0 )) || { echo "release.sh: the unpacked binary loads these from outside lib/: ${outside[*]}" >&2; exit 1; }
"$stage/bin/tfsift" --version >/dev/null

# No file asks for a glibc newer than $max_glibc.
newest=$(for f in "$stage/bin/tfsift" "$stage"/lib/*; do objdump -T "$f"; done \
    | grep -oE '\bGLIBC_[0-9]+\.[0-9]+(\.[0-9]+)?\b' | sed 's/GLIBC_//' | sort -uV | tail -n 1)
if [[ $(printf '%s\n%s\n' "$newest" "$max_glibc" | sort -V | tail -n 1) != "$max_glibc" ]]; then
    echo "release.sh: the artifacts need glibc $newest, newer than Debian 12's $max_glibc" >&2
    exit 1
fi

tarball="$out_dir/$name.tar.gz"
# Reproducible: sorted names, fixed owner, file times of the commit (or now).
mtime=$(git -C "$root" log -1 --format=%ct 2>/dev/null || date +%s)
tar -C "$work" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$mtime" -cf - "$name" \
    | gzip -9n >"$tarball.tmp"
mv "$tarball.tmp" "$tarball"

# ---- the Debian package -----------------------------------------------------------
(cd "$build_dir" && cpack -G DEB -B "$work/package" >/dev/null)
deb=$(ls "$work"/package/tfsift_*.deb)
cp "$deb" "$out_dir/$(basename "$deb").tmp"
mv "$out_dir/$(basename "$deb").tmp" "$out_dir/$(basename "$deb")"
deb="$out_dir/$(basename "$deb")"

# ---- the checksums ---------------------------------------------------------------------
(cd "$out_dir" && sha256sum "$(basename "$tarball")" "$(basename "$deb")" >SHA256SUMS.tmp && mv SHA256SUMS.tmp SHA256SUMS)

echo "release $version: $out_dir"
echo "  $(basename "$tarball")  $(du -h "$tarball" | cut -f1)  (needs glibc >= $newest; bundles $(ls "$stage/lib" | tr '\n' ' '))"
echo "  $(basename "$deb")  $(du -h "$deb" | cut -f1)"
echo "  SHA256SUMS"
