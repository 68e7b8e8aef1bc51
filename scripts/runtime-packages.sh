#!/usr/bin/env bash
# Prints the Debian packages that hold the shared libraries a binary loads
# (one per line, sorted): what a machine without the build packages must
# install to run it. The Dockerfile's run stage installs this list.
#   scripts/runtime-packages.sh BINARY
set -euo pipefail
binary=${1:?usage: scripts/runtime-packages.sh BINARY}
ldd "$binary" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | while read -r library; do
    # ldd names /lib paths, which merged-/usr Debian 12 may record under /usr/lib.
    package=$(dpkg -S "$library" 2>/dev/null || dpkg -S "/usr$library" 2>/dev/null || dpkg -S "$(realpath "$library")" 2>/dev/null || true)
    if [[ -z $package ]]; then
        echo "runtime-packages.sh: no Debian package holds $library" >&2
        exit 1
    fi
    echo "${package%%:*}"
done | sed 's/:amd64$//' | sort -u
