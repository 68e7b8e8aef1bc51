#!/usr/bin/env python3
"""`tfsift lint --fix` end to end, on a throw-away module.

The module has two unused ignore comments (their `unused-ignore` notices carry
a safe fix) and one finding without a fix. Checks that SARIF offers the fixes,
that `--fix` rewrites the file, says "Fixed 2 findings in 1 file", reports
only what remains, and that a second `--fix` has nothing left to do.

A second module has a lock file with an entry nothing requires: its repair is
one whole-file fix of `.terraform.lock.hcl`, which SARIF lists, `--diff`
shows without writing, and `--fix` writes.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

MAIN_TF = """\
# tfsift-ignore: invalid-configuration
variable "region" {
  type = string # tfsift-ignore: syntax-error -- not needed any more
}

variable "zone" {
  bogus = 1
}
"""

LOCK_HEADER = """\
# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.
"""

NULL_ENTRY = """
provider "registry.terraform.io/hashicorp/null" {
  version = "3.2.2"
  hashes = [
    "h1:zT1ZbegaAYHwQa+QwIFugArWikRJI9dqohj8xb0GY88=",
  ]
}
"""

RANDOM_ENTRY = """
provider "registry.terraform.io/hashicorp/random" {
  version = "3.6.0"
  hashes = [
    "h1:R5Ucn26riKIEijcsiOMBR3uOAjuOMfI1x7XvH4P6B1w=",
  ]
}
"""

LOCK_MAIN_TF = """\
terraform {
  required_providers {
    null = {
      source = "hashicorp/null"
    }
  }
}

provider "null" {}
"""

FIXED_TF = """\
variable "region" {
  type = string
}

variable "zone" {
  bogus = 1
}
"""


def run(tfsift, cwd, *args, env=None):
    proc = subprocess.run([tfsift, "lint", "--color", "never", "--minimum-failure-severity", "notice", *args],
                          cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60, env=env)
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


def check_lock_fix(tfsift, tmp, expect):
    """The lock file repair is a fix like the others."""
    home = os.path.join(tmp, "home")
    os.makedirs(home)
    rc_file = os.path.join(home, ".terraformrc")
    open(rc_file, "w").close()
    # No package of this machine, and no network: the repair only drops an entry.
    env = {k: v for k, v in os.environ.items() if k not in ("TF_PLUGIN_CACHE_DIR", "TF_DATA_DIR")}
    env.update(HOME=home, TF_CLI_CONFIG_FILE=rc_file, TFSIFT_OFFLINE="1")
    module = os.path.join(tmp, "locked")
    os.makedirs(module)
    with open(os.path.join(module, ".tfsift.toml"), "w") as f:
        f.write('[rules]\nrequired-version-missing = "off"\nprovider-version-missing = "off"\n')
    with open(os.path.join(module, "main.tf"), "w") as f:
        f.write(LOCK_MAIN_TF)
    lock = os.path.join(module, ".terraform.lock.hcl")
    before = LOCK_HEADER + NULL_ENTRY + RANDOM_ENTRY
    after = LOCK_HEADER + NULL_ENTRY
    with open(lock, "w") as f:
        f.write(before)

    def lock_text():
        with open(lock) as f:
            return f.read()

    rc, out, err = run(tfsift, module, "--format", "sarif", ".", env=env)
    results = json.loads(out)["runs"][0]["results"]
    stale = [r for r in results if r["ruleId"] == "lock-stale-provider"]
    expect(len(stale) == 1, "sarif: %d lock-stale-provider results, expected 1 (%s)" % (len(stale), err.strip()))
    for r in stale:
        fixes = r.get("fixes", [])
        expect(len(fixes) == 1, "sarif: the lock finding has %d fixes, expected 1" % len(fixes))
        changes = [c for fix in fixes for c in fix["artifactChanges"]]
        expect([c["artifactLocation"]["uri"] for c in changes] == [".terraform.lock.hcl"] or
               all(c["artifactLocation"]["uri"].endswith("locked/.terraform.lock.hcl") for c in changes),
               "sarif: the lock fix changes %s" % [c["artifactLocation"] for c in changes])
        inserted = [rep["insertedContent"]["text"] for c in changes for rep in c["replacements"]]
        expect(inserted == [after], "sarif: the lock fix inserts %r" % inserted)
        regions = [rep["deletedRegion"] for c in changes for rep in c["replacements"]]
        expect(regions and regions[0].get("startLine") == 1 and regions[0].get("startColumn") == 1,
               "sarif: the lock fix does not replace the file from its start: %s" % regions)

    rc, out, err = run(tfsift, module, "--diff", ".", env=env)
    expect(rc == 1, "--diff: exit %d, expected 1 (%s)" % (rc, err.strip()))
    expect("+++ b/.terraform.lock.hcl" in out, "--diff does not show the lock file:\n" + out)
    expect('-provider "registry.terraform.io/hashicorp/random" {' in out,
           "--diff does not remove the stale entry:\n" + out)
    expect(lock_text() == before, "--diff changed the lock file")

    rc, out, err = run(tfsift, module, "--fix", "--format", "json", ".", env=env)
    expect(lock_text() == after, "lock file after --fix:\n" + lock_text())
    rules = sorted(f["rule"] for f in json.loads(out)["findings"])
    expect("lock-stale-provider" not in rules, "findings after --fix: %s" % rules)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tfsift", required=True)
    args = ap.parse_args()
    args.tfsift = os.path.abspath(args.tfsift)  # tfsift runs in the scratch directory
    problems = []

    def expect(cond, what):
        if not cond:
            problems.append(what)

    with tempfile.TemporaryDirectory(prefix="tfsift-fix-") as tmp:
        with open(os.path.join(tmp, ".tfsift.toml"), "w") as f:
            # The snippet is bare on purpose; the rules about how a module is
            # written would report it and are not what this check is about.
            f.write('[rules]\nunused-declaration = "off"\nvariable-type-missing = "off"\n'
                    'required-version-missing = "off"\n')
        path = os.path.join(tmp, "main.tf")
        with open(path, "w") as f:
            f.write(MAIN_TF)

        rc, out, err = run(args.tfsift, tmp, "--format", "sarif", ".")
        sarif = json.loads(out)
        results = sarif["runs"][0]["results"]
        with_fixes = [r for r in results if r.get("fixes")]
        expect(rc == 1, "sarif run: exit %d, expected 1 (%s)" % (rc, err.strip()))
        expect(len(with_fixes) == 2, "sarif: %d results with fixes, expected 2" % len(with_fixes))

        rc, out, err = run(args.tfsift, tmp, "--fix", "--format", "json", ".")
        with open(path) as f:
            fixed = f.read()
        expect(fixed == FIXED_TF, "file after --fix:\n" + fixed)
        expect("Fixed 2 findings in 1 file" in err, "--fix said: " + err.strip())
        doc = json.loads(out)
        rules = sorted(f["rule"] for f in doc["findings"])
        expect(rules == ["invalid-configuration"], "findings after --fix: %s" % rules)
        expect(rc == 1, "--fix exit %d, expected 1 (an invalid argument remains)" % rc)

        rc, out, err = run(args.tfsift, tmp, "--fix", ".")
        expect("Fixed 0 findings in 0 files" in err, "second --fix said: " + err.strip())
        with open(path) as f:
            expect(f.read() == FIXED_TF, "second --fix changed the file")

        check_lock_fix(args.tfsift, tmp, expect)

    for p in problems:
        print("FAIL " + p)
    if not problems:
        print("--fix: 2 safe fixes applied, remaining findings reported, nothing left on a second run")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
