#!/usr/bin/env python3
"""Adopting tfsift in an existing repository, end to end.

Builds small repositories in a scratch directory and runs the tfsift binary
as a user would:
  - baseline round trip: --write-baseline, then lines added above every
    finding and one new problem: --baseline reports only the new problem;
  - --fix on a subdirectory never changes the repository-wide result except
    removing what it fixed (an ignore the shared module's findings use stays);
  - --add-ignore, after which nothing is reported; --diff changes nothing;
  - --exit-zero; .gitignore in recursive mode and --no-gitignore; the hint
    at -r; comma lists and "did you mean"; tflint-ignore comments;
    `tfsift init --from-tflint`; policies in `tfsift rules`; platforms.
Prints one line per check and "N passed, N failed".
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

RESULTS = []


def check(name, ok, detail=""):
    ok = bool(ok)
    RESULTS.append(ok)
    print("%s %s%s" % ("ok  " if ok else "FAIL", name, "" if ok else ": " + detail[:1500]))


def run(tfsift, cwd, *args):
    p = subprocess.run([tfsift, *args], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def findings(tfsift, cwd, *args):
    rc, out, err = run(tfsift, cwd, "lint", "--format", "json", *args)
    if rc not in (0, 1):
        raise RuntimeError("lint failed (%d): %s" % (rc, err))
    return rc, [(f["rule"], f["location"]["path"], f["location"]["start"]["line"]) for f in json.loads(out)["findings"]]


def with_text(root, found):
    """Findings as (rule, path, text of their line): line moves do not count."""
    out = []
    for rule, path, line in found:
        with open(os.path.join(root, path)) as f:
            lines = f.read().split("\n")
        out.append((rule, path, lines[line - 1].strip() if line - 1 < len(lines) else ""))
    return sorted(out)


def write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


MODULE_CALLS = """module "vpc" {
  source = "terraform-aws-modules/vpc/aws"
  version = "~> 5.0"
}
"""


def make_repo(root):
    os.makedirs(os.path.join(root, ".git"))
    # The rules these checks use are opinionated ones: the strict preset. The
    # module-wide style rules would only add findings the checks do not
    # count (the scratch modules declare no required_version and leave a
    # local unused on purpose, and no registry module is installed).
    write(root, ".tfsift.toml", 'preset = "strict"\n\n[rules]\n'
          'required-version-missing = "off"\nunused-declaration = "off"\nmodule-not-loaded = "off"\n')
    write(root, "envs/prod/main.tf", MODULE_CALLS + 'module "net" {\n  source = "../../modules/net"\n}\n')
    # A shared module: shared-module-max-version applies to it in every scope,
    # and an ignore comment serves it.
    write(root, "modules/net/versions.tf",
          'terraform {\n  required_providers {\n'
          '    aws = {\n      source  = "hashicorp/aws"\n'
          '      # tfsift-ignore: shared-module-max-version -- the platform team caps majors\n'
          '      version = ">= 5.0, < 6.0"\n    }\n  }\n}\n')


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tfsift", required=True)
    tfsift = os.path.abspath(ap.parse_args().tfsift)
    with tempfile.TemporaryDirectory(prefix="tfsift-adoption-") as scratch:
        # ---- baseline round trip ------------------------------------------
        repo = os.path.join(scratch, "baseline")
        make_repo(repo)
        _, before = findings(tfsift, repo, "-r", ".")
        rc, _, err = run(tfsift, repo, "lint", "-r", ".", "--write-baseline", ".tfsift-baseline.json", "--exit-zero", "-q")
        check("--write-baseline writes the file and --exit-zero exits 0",
              rc == 0 and os.path.exists(os.path.join(repo, ".tfsift-baseline.json")) and before, err)
        rc, after_write = findings(tfsift, repo, "-r", ".", "--baseline", ".tfsift-baseline.json")
        check("right after writing it, the baseline leaves nothing", rc == 0 and after_write == [], str(after_write))
        path = os.path.join(repo, "envs/prod/main.tf")
        with open(path) as f:
            old = f.read()
        with open(path, "w") as f:
            f.write("# moved down\n\nlocals {\n  a = 1\n}\n\n" + old +
                    'module "new" {\n  source = "terraform-aws-modules/iam/aws"\n  version = "~> 5.0"\n}\n')
        rc, now = findings(tfsift, repo, "-r", ".", "--baseline", ".tfsift-baseline.json")
        check("after lines added above and one new problem, only the new problem is reported",
              len(now) == 1 and now[0][0] == "module-version-unpinned" and now[0][2] >= 14 and rc == 1, str(now))
        write(repo, "broken.json", "{\n  \"tfsift_baseline\": 1,\n  \"findings\": [\n")
        rc, _, err = run(tfsift, repo, "lint", "-r", ".", "--baseline", "broken.json")
        check("a broken baseline is exit 2 with FILE:LINE:COLUMN", rc == 2 and "broken.json:4:1: error:" in err, err)

        # ---- --fix on a subdirectory keeps the repository-wide result -------
        repo = os.path.join(scratch, "fix")
        make_repo(repo)
        write(repo, "envs/prod/extra.tf", "# tfsift-ignore: provider-version-missing\nlocals {\n  b = 2\n}\n")
        _, whole_before = findings(tfsift, repo, "-r", ".")
        whole_before = with_text(repo, whole_before)
        for sub in ("modules/net", "envs/prod", "modules/net/versions.tf"):
            run(tfsift, repo, "lint", "--fix", sub, "-q")
        _, whole_after = findings(tfsift, repo, "-r", ".")
        whole_after = with_text(repo, whole_after)
        removed = [f for f in whole_before if f not in whole_after]
        added = [f for f in whole_after if f not in whole_before]
        with open(os.path.join(repo, "modules/net/versions.tf")) as f:
            shared_text = f.read()
        check("--fix on subdirectories only removes what it fixed from the repository-wide run",
              added == [] and removed and all(r[0] == "unused-ignore" for r in removed)
              and "tfsift-ignore: shared-module-max-version" in shared_text,
              "added %s removed %s" % (added, removed))

        # ---- --diff, --show-fixes, --add-ignore --------------------------------
        repo = os.path.join(scratch, "ignore")
        make_repo(repo)
        write(repo, "envs/prod/extra.tf", "# tfsift-ignore: provider-version-missing\nlocals {\n  b = 2\n}\n")
        rc, out, err = run(tfsift, repo, "lint", "-r", ".", "--diff")
        with open(os.path.join(repo, "envs/prod/extra.tf")) as f:
            untouched = f.read().startswith("# tfsift-ignore")
        check("--diff prints the diff, exits 1 and changes nothing",
              rc == 1 and "--- a/envs/prod/extra.tf" in out and "-# tfsift-ignore: provider-version-missing" in out and untouched,
              out + err)
        rc, out, err = run(tfsift, repo, "lint", "-r", ".", "--fix", "--show-fixes")
        check("--fix --show-fixes prints each fix and the diff",
              "Fixed envs/prod/extra.tf:1:" in err and "+++ b/envs/prod/extra.tf" in out, out + err)
        _, before = findings(tfsift, repo, "-r", ".")
        rc, out, err = run(tfsift, repo, "lint", "-r", ".", "--add-ignore", "--ignore-reason", "adopted", "-q")
        _, after = findings(tfsift, repo, "-r", ".")
        with open(os.path.join(repo, "envs/prod/main.tf")) as f:
            text = f.read()
        # What remains are ignore comments that were unused before (an ignore
        # of an ignore is not written).
        check("--add-ignore suppresses every finding with a reasoned comment",
              before and all(f[0] == "unused-ignore" and f in before for f in after) and "# tfsift-ignore: module-version-unpinned -- adopted" in text, "%s %s" % (after, err))

        # ---- papercuts -----------------------------------------------------------
        repo = os.path.join(scratch, "papercuts")
        make_repo(repo)
        write(repo, ".gitignore", "build/\n")
        write(repo, "build/gen/main.tf", 'provider "aws" {}\n')
        _, plain = findings(tfsift, repo, "-r", ".")
        _, everything = findings(tfsift, repo, "-r", ".", "--no-gitignore")
        check(".gitignore'd directories are skipped by -r, linted with --no-gitignore",
              not any(p.startswith("build/") for _, p, _ in plain) and any(p.startswith("build/") for _, p, _ in everything),
              str(plain))
        rc, out, err = run(tfsift, repo, "lint", ".")
        check("a directory with configuration only below it gets a hint at -r",
              rc == 0 and "use --recursive (-r)" in err, err)
        rc, _, err = run(tfsift, repo, "lint", "-r", ".", "--only", "module-version-unpinned,lock-mising")
        check("comma lists are split, and an unknown id gets a suggestion",
              rc == 2 and "unknown rule lock-mising (did you mean `lock-missing`?)" in err, err)
        rc, got = findings(tfsift, repo, "-r", ".", "--only", "module-version-unpinned,shared-module-max-version",
                           "--no-gitignore")
        check("--only takes a comma list",
              got and {r for r, _, _ in got} <= {"module-version-unpinned", "shared-module-max-version"}, str(got))
        write(repo, "envs/dev/main.tf", MODULE_CALLS.replace('  version', '  # tflint-ignore: terraform_module_version\n  version'))
        _, got = findings(tfsift, repo, "envs/dev")
        check("tflint-ignore comments suppress the mapped rule and are never unused",
              not any(r in ("module-version-unpinned", "unused-ignore") for r, _, _ in got), str(got))
        write(repo, ".tflint.hcl", 'plugin "terraform" {\n  preset = "all"\n}\n'
                                   'rule "terraform_module_version" {\n  enabled = false\n}\n')
        os.remove(os.path.join(repo, ".tfsift.toml"))
        rc, _, err = run(tfsift, repo, "init", "--from-tflint", ".tflint.hcl")
        with open(os.path.join(repo, ".tfsift.toml")) as f:
            toml = f.read()
        check("tfsift init --from-tflint writes .tfsift.toml",
              rc == 0 and 'preset = "strict"' in toml and 'module-version-unpinned = "off"' in toml, toml + err)
        rc, _, err = run(tfsift, repo, "init", "--from-tflint", ".tflint.hcl")
        check("tfsift init does not replace a settings file", rc == 2 and "--force" in err, err)
        write(repo, ".tfsift.toml", 'platforms = ["linux_amd46"]\n\n[[policy]]\nid = "team-names"\nkind = "naming"\n'
                                    'targets = ["resource"]\npattern = "^[a-z_]+$"\n')
        rc, _, err = run(tfsift, repo, "lint", ".")
        check("a platforms typo is an error with its position and a suggestion",
              rc == 2 and ".tfsift.toml:1:" in err and "did you mean `amd64`" in err, err)
        write(repo, ".tfsift.toml", '[[policy]]\nid = "team-names"\nkind = "naming"\ntargets = ["resource"]\n'
                                    'pattern = "^[a-z_]+$"\n')
        rc, out, err = run(tfsift, repo, "rules")
        rc2, out2, err2 = run(tfsift, repo, "rule", "team-names")
        check("tfsift rules and tfsift rule know the settings' policies",
              rc == 0 and "team-names" in out and rc2 == 0 and "# team-names" in out2, out + err + out2 + err2)
    passed = sum(RESULTS)
    print("%d passed, %d failed" % (passed, len(RESULTS) - passed))
    return 0 if all(RESULTS) else 1


if __name__ == "__main__":
    sys.exit(main())
