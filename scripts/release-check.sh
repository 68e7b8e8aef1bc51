#!/usr/bin/env bash
# Checks what scripts/release.sh made: SHA256SUMS matches both artifacts,
# the tarball holds what its README says, and it is self-contained. For the
# last, the tarball is unpacked into a minimal Debian 12 root that has none
# of the build's libraries (scripts/debian-root.sh: debootstrap's minbase,
# cached), moved away from where it was unpacked, and run there with chroot:
# `tfsift --version`, ldd (every library but glibc's comes from the
# tarball's lib/), a lint with a known finding, a lint of the bundled
# example, every bundled library resolving its own libraries inside lib/,
# and the hash of a zip package (libzip, which tfsift opens only when a
# command needs it). Needs root and debootstrap; the first run makes the
# root (a few minutes), later runs unpack the cached one.
#   scripts/release-check.sh OUT_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out_dir=$(cd "${1:?usage: scripts/release-check.sh OUT_DIR}" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }

(cd "$out_dir" && sha256sum --quiet -c SHA256SUMS) || fail "SHA256SUMS does not match the artifacts"
tarball=$(awk '$2 ~ /^\*?tfsift-.*-linux-[a-z0-9_]+\.tar\.gz$/ { sub(/^\*/, "", $2); print $2 }' "$out_dir/SHA256SUMS")
deb=$(awk '$2 ~ /^\*?tfsift_.*\.deb$/ { sub(/^\*/, "", $2); print $2 }' "$out_dir/SHA256SUMS")
[[ -n $tarball && -n $deb ]] || fail "SHA256SUMS does not list a tarball and a .deb"
name=${tarball%.tar.gz}
version=${name#tfsift-}
version=${version%-linux-*}

# What the tarball holds: one top directory, the files README.md names.
listing=$(tar -tzf "$out_dir/$tarball")
[[ -z $(grep -v "^$name/" <<<"$listing") ]] || fail "$tarball has files outside $name/"
for path in bin/tfsift README.md share/man/man1/tfsift.1.gz share/bash-completion/completions/tfsift \
            share/zsh/site-functions/_tfsift share/fish/vendor_completions.d/tfsift.fish \
            share/doc/tfsift/LICENSE share/doc/tfsift/copyright share/doc/tfsift/README.md; do
    grep -qx "$name/$path" <<<"$listing" || fail "$tarball has no $path"
done
libraries=$(sed -n "s|^$name/lib/\(.\+\)|\1|p" <<<"$listing")
[[ -n $libraries ]] || fail "$tarball has no libraries in lib/"
[[ -z $(grep -E '^(libc|libm|libpthread|libdl|librt|ld-linux[^.]*)\.so' <<<"$libraries") ]] \
    || fail "$tarball bundles a glibc library: $libraries"
[[ $(tar -xzOf "$out_dir/$tarball" "$name/README.md") == *"glibc 2.36"* ]] || fail "README.md does not say which glibc it needs"

# The minimal root, the tarball unpacked under /opt and then moved (the run
# path is relative to the binary), /proc mounted (the loader finds the
# binary's directory through /proc/self/exe).
work=$(mktemp -d)
chroot_dir="$work/root"
cleanup() {
    mountpoint -q "$chroot_dir/proc" && umount "$chroot_dir/proc"
    rm -rf "$work"
}
trap cleanup EXIT
"$root/scripts/debian-root.sh" "$chroot_dir"
# Some libraries the root has too (apt needs them): the tarball's must win.
own=$(for library in $libraries; do
    if [[ -e $chroot_dir/usr/lib/x86_64-linux-gnu/$library ]]; then echo "$library"; fi
done)
echo "the minimal root lacks $(( $(wc -w <<<"$libraries") - $(wc -w <<<"$own") )) of the $(wc -w <<<"$libraries") bundled libraries and has its own $(echo $own)"
tar -xzf "$out_dir/$tarball" -C "$chroot_dir/opt"
mv "$chroot_dir/opt/$name" "$chroot_dir/opt/moved"
ln -s /opt/moved/bin/tfsift "$chroot_dir/usr/local/bin/tfsift"
mkdir -p "$chroot_dir/tmp/broken"
printf 'resource "aws_instance" "web" {\n  ami = "x" instance_type = "y"\n}\n' > "$chroot_dir/tmp/broken/main.tf"
cp -r "$root/docs/examples/basic" "$chroot_dir/tmp/basic"
python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1], "w").writestr("terraform-provider-x", "binary\n")' \
    "$chroot_dir/tmp/provider.zip"
mount -t proc proc "$chroot_dir/proc"
chroot "$chroot_dir" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/root /bin/sh -euc '
    version_line=$(tfsift --version)
    echo "in a minimal Debian 12 root: $version_line"
    case $version_line in "tfsift '"$version"' (commit "*) ;; *) echo "FAIL: --version does not name version '"$version"' and a commit"; exit 1 ;; esac
    # Every library but glibc'\''s resolves inside the tarball.
    ldd /opt/moved/bin/tfsift > /tmp/ldd.txt
    if grep -q "not found" /tmp/ldd.txt; then cat /tmp/ldd.txt; echo "FAIL: a library is not found"; exit 1; fi
    if awk '\''$2 == "=>" && $3 !~ /^\/opt\/moved\/(bin\/\.\.\/)?lib\// { print $1 }'\'' /tmp/ldd.txt \
        | grep -vE "^(libc|libm|libpthread|libdl|librt|libresolv)\.so|^ld-linux" | grep .; then
        cat /tmp/ldd.txt; echo "FAIL: the libraries above come from the root, not from the tarball"; exit 1
    fi
    status=0
    tfsift lint /tmp/broken > /tmp/lint.txt 2>&1 || status=$?
    if [ "$status" -ne 1 ] || ! grep -q "main.tf:2:13: error\[syntax-error\]" /tmp/lint.txt; then
        cat /tmp/lint.txt; echo "FAIL: the lint of a broken file exited $status without its finding"; exit 1
    fi
    status=0
    (cd /tmp/basic && tfsift lint . > /tmp/lint.txt 2>&1) || status=$?
    if [ "$status" -gt 1 ]; then cat /tmp/lint.txt; echo "FAIL: the lint of the bundled example exited $status"; exit 1; fi
    # The libraries tfsift opens when a command needs them are in lib/ with
    # everything they load (the root has none of them): each resolves there,
    # and hashing a provider package opens libzip.
    for library in /opt/moved/lib/*; do
        if LD_LIBRARY_PATH=/opt/moved/lib ldd "$library" | grep -q "not found"; then
            LD_LIBRARY_PATH=/opt/moved/lib ldd "$library"; echo "FAIL: $library needs a library the tarball lacks"; exit 1
        fi
    done
    tfsift debug hash /tmp/provider.zip > /tmp/hash.txt 2>&1 || { cat /tmp/hash.txt; echo "FAIL: hashing a zip package failed"; exit 1; }
    grep -q "^h1:" /tmp/hash.txt || { cat /tmp/hash.txt; echo "FAIL: no h1: hash of a zip package"; exit 1; }
    zcat /opt/moved/share/man/man1/tfsift.1.gz | grep -q "^\.TH" || { echo "FAIL: the manual page does not read"; exit 1; }
'
echo "release $version: checksums match; $tarball ($(du -h "$out_dir/$tarball" | cut -f1)) runs in a minimal Debian 12 root with its own lib/: $(echo $libraries)"
