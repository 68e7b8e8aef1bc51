#!/bin/bash
# End to end: a module tree whose lock file has a stale entry, a missing
# entry, a version outside the constraints and a hash that does not match,
# with a filesystem mirror holding packages for two platforms.
# `tfsift lint` must report each at the recorded line, `tfsift lint
# --unsafe-fixes` (the repair changes a version) must say what it could not
# repair and leave exactly the hand-written lock file, and the lint after the
# fix must report only what the repair cannot mend.
# Usage: lock_fix_check.sh TFSIFT FIXTURE_DIR
set -u
tfsift=$1
fixture=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -a "$fixture/input" "$work/root"
# Nothing from the user's environment may add packages or mirrors.
export HOME="$work/home"
unset TF_CLI_CONFIG_FILE TERRAFORM_CONFIG TF_PLUGIN_CACHE_DIR TF_DATA_DIR XDG_DATA_HOME XDG_CONFIG_HOME
export XDG_DATA_DIRS="$work/none"
rules=(lock-syntax lock-missing lock-missing-provider lock-stale-provider lock-version-mismatch
       lock-constraints-drift lock-hash-mismatch lock-platforms-incomplete)
only=()
for r in "${rules[@]}"; do only+=(--only "$r"); done
status=0
cd "$work/root" || exit 1

"$tfsift" lint "${only[@]}" --format compact -q . >"$work/before.txt" 2>"$work/before.err"
[ $? -eq 1 ] || { echo "lint before the fix: expected exit status 1"; status=1; }
diff -u "$fixture/findings-before.txt" "$work/before.txt" || status=1

cp .terraform.lock.hcl "$work/original.hcl"
# --fix repairs the lock file only when a lock rule it repairs is selected.
"$tfsift" lint --fix --only module-version-unpinned -q . >/dev/null 2>&1
cmp "$work/original.hcl" .terraform.lock.hcl || { echo "--fix touched the lock file with no lock rule selected"; status=1; }
# The repair changes the locked version of aws (as `init -upgrade` would): an
# unsafe fix, which --fix alone leaves for --unsafe-fixes.
"$tfsift" lint --fix "${only[@]}" --format compact -q . >/dev/null 2>&1
cmp "$work/original.hcl" .terraform.lock.hcl || { echo "--fix applied the unsafe lock repair"; status=1; }
"$tfsift" lint --unsafe-fixes "${only[@]}" --format compact -q . >"$work/after.txt" 2>"$work/fix.txt"
diff -u "$fixture/fix-output.txt" "$work/fix.txt" || status=1
cmp "$fixture/expected.terraform.lock.hcl" .terraform.lock.hcl || { diff -u "$fixture/expected.terraform.lock.hcl" .terraform.lock.hcl; status=1; }
diff -u "$fixture/findings-after.txt" "$work/after.txt" || status=1

# A second --fix changes nothing: the file is already what init would write.
"$tfsift" lint --unsafe-fixes "${only[@]}" --format compact . >/dev/null 2>"$work/fix2.txt"
cmp "$fixture/expected.terraform.lock.hcl" .terraform.lock.hcl || status=1
grep -q "Fixed 0 findings in 0 files" "$work/fix2.txt" || { echo "second --fix rewrote the file: $(cat "$work/fix2.txt")"; status=1; }

# A lock file tfsift cannot parse is never overwritten.
printf 'provider "registry.terraform.io/hashicorp/aws" {\n  version = \n' >.terraform.lock.hcl
cp .terraform.lock.hcl "$work/broken.hcl"
"$tfsift" lint --fix "${only[@]}" --format compact -q . >/dev/null 2>&1
cmp "$work/broken.hcl" .terraform.lock.hcl || { echo "--fix overwrote an unparsable lock file"; status=1; }
# `tfsift lock` from scratch, packages from the mirror only, for two platforms.
rm -rf "$work/fresh" && cp -a "$fixture/input" "$work/fresh" && rm "$work/fresh/.terraform.lock.hcl"
cd "$work/fresh" || exit 1
"$tfsift" lock --platform linux_amd64 --platform darwin_arm64 --fs-mirror terraform.d/plugins . 2>"$work/lock.txt"
[ $? -eq 0 ] || { cat "$work/lock.txt"; echo "tfsift lock failed"; status=1; }
cmp "$fixture/expected-lock-command.terraform.lock.hcl" .terraform.lock.hcl ||
    { diff -u "$fixture/expected-lock-command.terraform.lock.hcl" .terraform.lock.hcl; status=1; }
# A platform no package exists for: nothing written, so the write asked for
# failed (exit status 2).
cp .terraform.lock.hcl "$work/locked.hcl"
"$tfsift" lock --platform windows_amd64 --fs-mirror terraform.d/plugins . 2>/dev/null
[ $? -eq 2 ] || { echo "tfsift lock for a missing platform: expected exit status 2"; status=1; }
cmp "$work/locked.hcl" .terraform.lock.hcl || { echo "tfsift lock wrote after a failure"; status=1; }
exit $status
