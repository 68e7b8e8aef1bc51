#!/bin/bash
# Remote module calls without the network, as a user meets them:
#   - `tfsift lock --offline` on a root whose providers come only from a
#     registry module that is not installed writes nothing, names the call
#     and exits 2 (never "no need for changes");
#   - with the module installed in .terraform/modules (laid out by hand as
#     `terraform init` does), `tfsift lock` records the provider the module
#     requires, from a filesystem mirror, byte for byte as expected;
#   - `tfsift lint` (no flag) checks the call's arguments against the
#     installed module and says nothing about the module's own files, and
#     reports one module-not-loaded notice while it is not installed.
# Usage: remote_modules_check.sh TFSIFT LOCK_E2E_FIXTURE_DIR
set -u
tfsift=$1
fixture=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HOME="$work/home"
unset TF_CLI_CONFIG_FILE TERRAFORM_CONFIG TF_PLUGIN_CACHE_DIR TF_DATA_DIR XDG_DATA_HOME XDG_CONFIG_HOME \
    XDG_CACHE_HOME TFSIFT_CACHE_DIR
export XDG_DATA_DIRS="$work/none"
export TFSIFT_CACHE_DIR="$work/module-cache"
status=0
fail() { echo "remote_modules_check: $*"; status=1; }

mkdir -p "$work/root"
cp -a "$fixture/input/terraform.d" "$work/root/"
cd "$work/root" || exit 1
cat >main.tf <<'HCL'
module "keys" {
  source  = "example-org/keys/tls"
  version = "~> 1.2"
  name    = "deploy"
  algo    = "ED25519"
}
HCL

# 1. Not installed, offline: nothing written, exit 2, the call named.
"$tfsift" lock --offline --platform linux_amd64 --fs-mirror terraform.d/plugins . >"$work/out.txt" 2>"$work/err.txt"
code=$?
[ $code -eq 2 ] || fail "lock with a module not loaded: exit $code, expected 2"
[ -e .terraform.lock.hcl ] && fail "lock wrote a lock file without the module's providers"
grep -q 'main.tf:2:3: module.keys ("example-org/keys/tls") is not loaded' "$work/err.txt" ||
    fail "lock did not name the call: $(cat "$work/err.txt")"
grep -qi "success" "$work/out.txt" "$work/err.txt" && fail "lock claimed success: $(cat "$work/out.txt")"

# ... and lint says so once, on the call's source, as a notice (exit 0).
"$tfsift" lint --format compact . >"$work/lint.txt" 2>&1
code=$?
[ $code -eq 0 ] || fail "lint with a module not loaded: exit $code, expected 0: $(cat "$work/lint.txt")"
[ "$(grep -c 'module-not-loaded' "$work/lint.txt")" -eq 1 ] || fail "expected one module-not-loaded notice: $(cat "$work/lint.txt")"
grep -q '^main.tf:2:3: ' "$work/lint.txt" || fail "the notice is not on the call's source: $(cat "$work/lint.txt")"

# 2. Installed as `terraform init` lays it out (version 1.2.4 matches ~> 1.2).
mkdir -p .terraform/modules/keys
cat >.terraform/modules/modules.json <<'JSON'
{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"keys","Source":"registry.terraform.io/example-org/keys/tls","Version":"1.2.4","Dir":".terraform/modules/keys"}]}
JSON
cat >.terraform/modules/keys/main.tf <<'HCL'
terraform {
  required_providers {
    tls = { source = "hashicorp/tls", version = "~> 4.0" }
  }
}

variable "name" {
  type = string
}

variable "unused" {
  bogus = 1
}

resource "tls_private_key" "this" {
  algorithm = "ED25519"
}
HCL
"$tfsift" lock --platform linux_amd64 --platform darwin_arm64 --fs-mirror terraform.d/plugins . 2>"$work/err.txt"
code=$?
[ $code -eq 0 ] || fail "lock with the module installed: exit $code: $(cat "$work/err.txt")"
# The header and the tls entry of the lock file `terraform providers lock`
# writes for the same mirror and platforms.
{
    sed -n '1,3p' "$fixture/expected-lock-command.terraform.lock.hcl"
    sed -n '/^provider "registry.terraform.io\/hashicorp\/tls"/,/^}/p' "$fixture/expected-lock-command.terraform.lock.hcl"
} >"$work/expected.hcl"
cmp -s "$work/expected.hcl" .terraform.lock.hcl || { diff -u "$work/expected.hcl" .terraform.lock.hcl; fail "lock file differs"; }

# 3. lint checks the call against the installed module, offline and
# without a flag: `algo` is not a variable of it. Nothing is reported in
# the module's own files (`bogus` is not an argument of a variable block).
"$tfsift" lint --format compact --preset strict . >"$work/lint.txt" 2>&1
grep -q '^main.tf:5:3: .*module-arguments-invalid' "$work/lint.txt" ||
    fail "the call's unsupported argument is not reported: $(cat "$work/lint.txt")"
grep -q 'module-not-loaded' "$work/lint.txt" && fail "an installed module reported as not loaded"
grep -q '\.terraform/' "$work/lint.txt" && fail "findings inside the installed module: $(cat "$work/lint.txt")"
# ... unless the settings ask for them.
echo 'remote_module_findings = true' >.tfsift.toml
"$tfsift" lint --format compact --preset strict . >"$work/lint.txt" 2>&1
grep -q '^\.terraform/modules/keys/main.tf:12:3: error\[invalid-configuration\]' "$work/lint.txt" ||
    fail "remote_module_findings = true shows nothing inside the module: $(cat "$work/lint.txt")"
rm .tfsift.toml

# 4. The lock file rules see the module's requirement: tls is not stale.
"$tfsift" lint --format compact --only lock-stale-provider . >"$work/lint.txt" 2>&1
[ -s "$work/lint.txt" ] && fail "lock-stale-provider with the module installed: $(cat "$work/lint.txt")"

exit $status
