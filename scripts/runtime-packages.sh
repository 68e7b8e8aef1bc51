#!/usr/bin/env bash
# Prints the Debian packages that hold the shared libraries a binary loads
# (one per line, sorted): what a machine without the build packages must
# install to run it. The Dockerfile's run stage installs this list. Besides
# the libraries ldd lists, those tfsift opens when a command needs them
# (libcurl, RNP, libarchive, libzip), which the build directory the binary
# lies in names in lazy-libraries.txt.
#   scripts/runtime-packages.sh BINARY
set -euo pipefail
binary=${1:?usage: scripts/runtime-packages.sh BINARY}
mapfile -t libraries < <(ldd "$binary" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }')
(( ${#libraries[@]} > 0 )) || { echo "runtime-packages.sh: ldd found no shared library in $binary" >&2; exit 1; }
lazy_list="$(dirname "$binary")/lazy-libraries.txt"
if [[ -f $lazy_list ]]; then
    while read -r soname; do
        path=$(ldconfig -p | awk -v n="$soname" '$1 == n && /x86-64|AArch64/ && !found { print $NF; found = 1 }')
        [[ $path == /* ]] || { echo "runtime-packages.sh: cannot find $soname, which tfsift opens" >&2; exit 1; }
        libraries+=("$path")
    done <"$lazy_list"
fi

# ldd names /lib paths, which merged-/usr Debian 12 may record under /usr/lib
# (and the other way round): one dpkg query asks for both spellings.
alternate() { case $1 in /usr/*) echo "${1#/usr}" ;; *) echo "/usr$1" ;; esac; }
queries=()
for library in "${libraries[@]}"; do queries+=("$library" "$(alternate "$library")"); done
owners=$(dpkg -S "${queries[@]}" 2>/dev/null || true)

for library in "${libraries[@]}"; do
    other=$(alternate "$library")
    # Lines read "package:arch: /path" (several packages separated by ", ").
    line=$(awk -v a="$library" -v b="$other" '{ path = $NF } path == a || path == b { print; exit }' <<<"$owners")
    if [[ -z $line ]]; then
        echo "runtime-packages.sh: no Debian package holds $library" >&2
        exit 1
    fi
    package=${line%%: /*}
    package=${package%%,*}
    echo "${package%%:*}"
done | sort -u
