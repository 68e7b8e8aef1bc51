#!/usr/bin/env bash
# Installs the Debian package into a minimal Debian 12 root and runs it
# there: the dependencies come from the Debian archive through apt, as on a
# user's new machine. The root is scripts/debian-root.sh's (debootstrap's
# minbase, made once and cached; scripts/release-check.sh runs the release
# tarball in the same kind of root). Needs root, debootstrap and the Debian
# archive; apt downloads the dependencies on every run, so CI runs the
# faster scripts/deb-package-check.sh instead.
#   scripts/deb-clean-root-check.sh BUILD_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build_dir=$(cd "${1:?usage: scripts/deb-clean-root-check.sh BUILD_DIR}" && pwd)

work=$(mktemp -d)
chroot_dir="$work/root"
cleanup() {
    mountpoint -q "$chroot_dir/proc" && umount "$chroot_dir/proc"
    rm -rf "$work"
}
trap cleanup EXIT

(cd "$build_dir" && cpack -G DEB -B "$work/package" >/dev/null)
deb=$(ls "$work"/package/tfsift_*.deb)
"$root/scripts/debian-root.sh" "$chroot_dir"
cp /etc/resolv.conf "$chroot_dir/etc/resolv.conf"
cp "$deb" "$chroot_dir/tmp/tfsift.deb"
cp -r "$root/docs/examples/basic" "$chroot_dir/tmp/basic"
mount -t proc proc "$chroot_dir/proc"
chroot "$chroot_dir" sh -euc '
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq -o Dpkg::Use-Pty=0 --no-install-recommends /tmp/tfsift.deb >/dev/null
    test "$(command -v tfsift)" = /usr/bin/tfsift
    tfsift --version
    cd /tmp/basic
    status=0
    tfsift lint . >/dev/null || status=$?
    test "$status" -le 1
    test -f /usr/share/man/man1/tfsift.1.gz
'
echo "deb package: installed with its dependencies into a minimal Debian 12 root and ran there"
