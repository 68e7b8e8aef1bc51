#!/bin/bash
# End to end, as a user runs tfsift: lock file integrity and the writes of
# `--fix`. Each case is a reproduction of a defect:
#  - the only package is corrupt: no entry without checksums, the message
#    names provider, version and platform, `tfsift lock` exits 2;
#  - a lock entry without checksums is reported (lock-missing-hashes);
#  - a read-only module directory: the failed lock write exits 2 (run as an
#    unprivileged user with setpriv, since root writes anyway);
#  - stale temporary files left by `kill -9` are removed by the next repair;
#  - a second process holding the lock file's flock: the repair gives up
#    with exit 2 and the file is unchanged;
#  - `--fix` on a symlinked and on a hard-linked `.tf` file;
#  - a zip bomb stops at TFSIFT_HASH_MAX_BYTES, quickly, with a message.
# Usage: lock_integrity_check.sh TFSIFT
set -u
work=$(mktemp -d)
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
# A copy of the binary that the unprivileged user of the read-only case can
# run, wherever the build directory is.
mkdir "$work/bin"
cp "$1" "$work/bin/tfsift"
chmod 755 "$work/bin" "$work/bin/tfsift"
tfsift="$work/bin/tfsift"
# Nothing from the user's environment may add packages or mirrors.
export HOME="$work/home"
unset TF_CLI_CONFIG_FILE TERRAFORM_CONFIG TF_PLUGIN_CACHE_DIR TF_DATA_DIR XDG_DATA_HOME XDG_CONFIG_HOME
unset TFSIFT_HASH_MAX_BYTES TFSIFT_HASH_MAX_PACKAGES TFSIFT_HASH_MAX_SECONDS
export XDG_DATA_DIRS="$work/none"
# Every case repairs from the packages it puts on disk; nothing goes online.
export TFSIFT_OFFLINE=1
status=0
fail() { echo "FAIL: $*"; status=1; }
mirror_of() { echo "$1/terraform.d/plugins/registry.terraform.io/hashicorp/aws"; }

# A root module (it configures a provider) requiring hashicorp/aws, for linux_amd64.
new_module() {
  mkdir -p "$1"
  cat >"$1/main.tf" <<'EOF'
terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = "~> 5.0" }
  }
}

provider "aws" {
  region = "eu-west-1"
}
EOF
  printf 'platforms = ["linux_amd64"]\n' >"$1/.tfsift.toml"
}
good_package() {
  mkdir -p "$(mirror_of "$1")/5.1.0/linux_amd64"
  printf 'aws 5.1.0\n' >"$(mirror_of "$1")/5.1.0/linux_amd64/terraform-provider-aws_v5.1.0"
}
lock_rules=(--only lock-missing --only lock-missing-provider --only lock-missing-hashes)

# ---- the only package is corrupt ---------------------------------------------
m="$work/corrupt"
new_module "$m"
mkdir -p "$(mirror_of "$m")"
printf 'not a zip archive\n' >"$(mirror_of "$m")/terraform-provider-aws_5.1.0_linux_amd64.zip"
(cd "$m" && "$tfsift" lock --platform linux_amd64 . >/dev/null 2>"$work/out")
rc=$?
[ $rc -eq 2 ] || fail "corrupt package: tfsift lock exited $rc, not 2"
grep -q 'registry.terraform.io/hashicorp/aws 5.1.0: the linux_amd64 package at .*terraform-provider-aws_5.1.0_linux_amd64.zip cannot be hashed' "$work/out" ||
  fail "corrupt package: no message naming provider, version, platform and package: $(cat "$work/out")"
grep -q 'Added' "$work/out" && fail "corrupt package: tfsift lock says it added an entry"
[ -e "$m/.terraform.lock.hcl" ] && fail "corrupt package: tfsift lock wrote $(cat "$m/.terraform.lock.hcl")"
(cd "$m" && "$tfsift" lint --fix "${lock_rules[@]}" -q --format compact . >"$work/report" 2>"$work/out")
rc=$?
[ $rc -ne 0 ] || fail "corrupt package: lint --fix exited 0"
grep -q 'no checksum could be recorded for any platform, so no entry was added' "$work/out" ||
  fail "corrupt package: lint --fix did not say why: $(cat "$work/out")"
[ -e "$m/.terraform.lock.hcl" ] && fail "corrupt package: lint --fix wrote a lock file"

# ---- an entry without checksums is a finding ---------------------------------
cat >"$m/.terraform.lock.hcl" <<'EOF'
# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.

provider "registry.terraform.io/hashicorp/aws" {
  version     = "5.1.0"
  constraints = "~> 5.0"
}
EOF
(cd "$m" && "$tfsift" lint "${lock_rules[@]}" -q --format compact . >"$work/report" 2>&1)
rc=$?
[ $rc -eq 1 ] || fail "entry without hashes: lint exited $rc, not 1"
grep -q '.terraform.lock.hcl:4:.*lock-missing-hashes' "$work/report" || fail "entry without hashes: not reported: $(cat "$work/report")"

# ---- a read-only directory: the failed write exits 2 -------------------------
m="$work/readonly"
new_module "$m"
good_package "$m"
chmod -R a+rX "$work"
as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
(cd "$m" && "${as_nobody[@]}" "$tfsift" lock --platform linux_amd64 . >/dev/null 2>"$work/out")
rc=$?
[ $rc -eq 2 ] || fail "read-only directory: tfsift lock exited $rc, not 2: $(cat "$work/out")"
grep -q 'cannot create a temporary file.*Permission denied' "$work/out" || fail "read-only directory: $(cat "$work/out")"
(cd "$m" && "${as_nobody[@]}" "$tfsift" lint --fix "${lock_rules[@]}" -q . >/dev/null 2>"$work/out")
rc=$?
[ $rc -eq 2 ] || fail "read-only directory: lint --fix exited $rc, not 2: $(cat "$work/out")"
[ -e "$m/.terraform.lock.hcl" ] && fail "read-only directory: a lock file appeared"

# ---- stale temporary files are removed by the next repair --------------------
m="$work/stale"
new_module "$m"
good_package "$m"
gone=$(bash -c 'echo $$')  # a process that has ended
touch "$m/..terraform.lock.hcl.tmp123456" "$m/..terraform.lock.hcl.tfsift-$gone-42.tmp" "$m/..terraform.lock.hcl.tmp99"
touch -d '10 minutes ago' "$m/..terraform.lock.hcl.tmp123456"
(cd "$m" && "$tfsift" lint --fix "${lock_rules[@]}" -q . >/dev/null 2>"$work/out")
rc=$?
[ $rc -eq 0 ] || fail "stale temp files: lint --fix exited $rc: $(cat "$work/out")"
[ -e "$m/..terraform.lock.hcl.tmp123456" ] && fail "stale temp files: the one left by an earlier version stayed"
[ -e "$m/..terraform.lock.hcl.tfsift-$gone-42.tmp" ] && fail "stale temp files: the one of an ended process stayed"
[ -e "$m/..terraform.lock.hcl.tmp99" ] || fail "stale temp files: a fresh one (possibly in use) was removed"
grep -q 'h1:' "$m/.terraform.lock.hcl" 2>/dev/null || fail "stale temp files: the lock file was not written"
ls -a "$m" | grep -q 'tfsift-.*\.tmp' && fail "stale temp files: the run left its own temporary file"

# ---- another process holds the lock file's flock -----------------------------
before=$(cat "$m/.terraform.lock.hcl")
flock "$m/.terraform.lock.hcl" sleep 30 &
holder=$!
sleep 0.5
start=$(date +%s)
(cd "$m" && "$tfsift" lock --platform linux_amd64 --platform darwin_arm64 . >/dev/null 2>"$work/out")
rc=$?
elapsed=$(($(date +%s) - start))
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
[ $rc -eq 2 ] || fail "held flock: tfsift lock exited $rc, not 2: $(cat "$work/out")"
grep -q 'is locked by another process' "$work/out" || fail "held flock: $(cat "$work/out")"
[ "$elapsed" -lt 20 ] || fail "held flock: waited ${elapsed}s"
[ "$(cat "$m/.terraform.lock.hcl")" = "$before" ] || fail "held flock: the lock file changed"

# ---- --fix and links ---------------------------------------------------------
repo="$work/links"
mkdir -p "$repo/.git" "$repo/shared" "$repo/app"
fixable='# tfsift-ignore: duplicate-block
locals {
  a = 1
}
'
printf '%s' "$fixable" >"$repo/shared/locals.tf"
ln -s ../shared/locals.tf "$repo/app/locals.tf"
(cd "$repo/app" && "$tfsift" lint --fix --only unused-ignore --only duplicate-block -q . >/dev/null 2>"$work/out")
rc=$?
[ $rc -eq 0 ] || fail "symlinked .tf: lint --fix exited $rc: $(cat "$work/out")"
[ -L "$repo/app/locals.tf" ] || fail "symlinked .tf: the link was replaced by a file"
grep -q 'tfsift-ignore' "$repo/shared/locals.tf" && fail "symlinked .tf: the target was not fixed"

mkdir -p "$repo/hard"
printf '%s' "$fixable" >"$repo/hard/locals.tf"
ln "$repo/hard/locals.tf" "$repo/twin.tf.txt"
(cd "$repo/hard" && "$tfsift" lint --fix --only unused-ignore --only duplicate-block -q . >/dev/null 2>"$work/out")
rc=$?
[ $rc -eq 2 ] || fail "hard-linked .tf: lint --fix exited $rc, not 2"
grep -q 'has 2 hard links' "$work/out" || fail "hard-linked .tf: $(cat "$work/out")"
[ "$(cat "$repo/twin.tf.txt")" = "$(printf '%s' "$fixable")" ] || fail "hard-linked .tf: the other name changed"
[ "$(stat -c %h "$repo/hard/locals.tf")" = 2 ] || fail "hard-linked .tf: the link was broken"

# ---- a zip bomb stops at the run's byte limit --------------------------------
m="$work/bomb"
new_module "$m"
mkdir -p "$(mirror_of "$m")"
python3 - "$(mirror_of "$m")/terraform-provider-aws_5.1.0_linux_amd64.zip" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    with z.open("terraform-provider-aws_v5.1.0", "w") as f:
        block = bytes(1 << 20)
        for _ in range(256):
            f.write(block)
PY
start=$(date +%s)
(cd "$m" && TFSIFT_HASH_MAX_BYTES=$((8 << 20)) "$tfsift" lock --platform linux_amd64 . >/dev/null 2>"$work/out")
rc=$?
elapsed=$(($(date +%s) - start))
[ $rc -eq 2 ] || fail "zip bomb: tfsift lock exited $rc, not 2"
grep -q 'hashing stopped: this run read or decompressed 8 MiB from packages, its limit (TFSIFT_HASH_MAX_BYTES)' "$work/out" ||
  fail "zip bomb: $(cat "$work/out")"
[ "$elapsed" -lt 10 ] || fail "zip bomb: took ${elapsed}s"
(cd "$m" && TFSIFT_HASH_MAX_BYTES=lots "$tfsift" lock --platform linux_amd64 . >/dev/null 2>"$work/out")
grep -q 'TFSIFT_HASH_MAX_BYTES="lots" is not a positive whole number' "$work/out" || fail "bad limit: $(cat "$work/out")"

[ $status -eq 0 ] && echo "lock integrity: every case passed"
exit $status
