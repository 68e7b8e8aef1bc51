#!/usr/bin/env bash
# Unpacks a minimal Debian 12 root (debootstrap --variant=minbase bookworm:
# the essential packages and apt, none of tfsift's libraries) into an empty
# or new directory. The root is made once from Debian's archive (a few
# minutes) and kept as a tarball in a cache directory; later calls unpack the
# tarball in seconds. Delete the tarball to make a fresh root. Needs root and
# debootstrap (scripts/debian-packages.txt).
#   scripts/debian-root.sh DEST_DIR
# TFSIFT_DEBIAN_ROOT_CACHE  the cache directory (default /var/cache/tfsift)
# TFSIFT_DEBIAN_MIRROR      the archive (default http://deb.debian.org/debian)
set -euo pipefail
dest=${1:?usage: scripts/debian-root.sh DEST_DIR}
cache=${TFSIFT_DEBIAN_ROOT_CACHE:-/var/cache/tfsift}
mirror=${TFSIFT_DEBIAN_MIRROR:-http://deb.debian.org/debian}
arch=$(dpkg --print-architecture)
tarball="$cache/debian-bookworm-minbase-$arch.tar"

if [[ ! -s $tarball ]]; then
    command -v debootstrap >/dev/null \
        || { echo "debian-root.sh: needs debootstrap (apt-get install debootstrap)" >&2; exit 2; }
    mkdir -p "$cache"
    work=$(mktemp -d "$cache/make.XXXXXX")
    trap 'rm -rf "$work"' EXIT
    echo "debian-root.sh: making a minimal Debian 12 root from $mirror (once; cached in $tarball)"
    if ! debootstrap --variant=minbase --arch="$arch" bookworm "$work/root" "$mirror" >"$work/log" 2>&1; then
        tail -n 20 "$work/log" >&2
        [[ -f $work/root/debootstrap/debootstrap.log ]] && tail -n 20 "$work/root/debootstrap/debootstrap.log" >&2
        echo "debian-root.sh: debootstrap failed" >&2
        exit 1
    fi
    # Written beside the final name and renamed, so that an interrupted run
    # never leaves half a tarball for the next one to trust.
    tar -C "$work/root" --numeric-owner -cf "$work/root.tar" .
    mv "$work/root.tar" "$tarball"
    rm -rf "$work"
    trap - EXIT
fi

mkdir -p "$dest"
if [[ -n $(ls -A "$dest") ]]; then
    echo "debian-root.sh: $dest is not empty" >&2
    exit 2
fi
tar -C "$dest" --numeric-owner -xf "$tarball"
