#!/usr/bin/env python3
"""`tfsift lint --fix` end to end, on a throw-away module.

The module has two unused ignore comments (their `unused-ignore` notices carry
a safe fix) and one finding without a fix. Checks that SARIF offers the fixes,
that `--fix` rewrites the file, says "Fixed 2 findings in 1 file", reports
only what remains, and that a second `--fix` has nothing left to do.
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

FIXED_TF = """\
variable "region" {
  type = string
}

variable "zone" {
  bogus = 1
}
"""


def run(tfsift, cwd, *args):
    proc = subprocess.run([tfsift, "lint", "--color", "never", "--minimum-failure-severity", "notice", *args],
                          cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


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

    for p in problems:
        print("FAIL " + p)
    if not problems:
        print("--fix: 2 safe fixes applied, remaining findings reported, nothing left on a second run")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
