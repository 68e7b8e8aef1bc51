#!/usr/bin/env python3
"""What the tfsift command line says when it is given a mistake, nothing to
lint, or many findings, run as a user would (docs/command-line.md):

  - `tfsift lnit` and `tfsift lint --recurse`: "did you mean", exit 2;
  - every error of the command line starts with "tfsift: error:";
  - a bare `tfsift` (and `tfsift debug`) prints its help and exits 2;
  - `tfsift lint README.md`: not a Terraform or OpenTofu file, exit 2;
  - an empty directory: a warning on stderr, exit 0;
  - more than 20 findings: the per-rule table, the fixable count and the
    `tfsift rule ID` line at the end; `--statistics` alone prints only the
    table; `--output FORMAT:FILE` alone prints the summary on stderr;
    `--write-baseline` says what it wrote and exits 0;
  - `tfsift rules --format json`, and `tfsift rule` with TFLint's names;
  - `--timings`: the report unchanged, then on stderr the stages and how
    often the files were read;
  - a module source from a const variable: TF_VAR_, then --var and
    --var-file in the order given.
Prints one line per check and "N passed, N failed".
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

RESULTS = []


def check(name, ok, detail=""):
    ok = bool(ok)
    RESULTS.append(ok)
    print("%s %s%s" % ("ok  " if ok else "FAIL", name, "" if ok else ": " + detail[:2000]))


def run(tfsift, cwd, *args):
    p = subprocess.run([tfsift, *args], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


# A module with 24 outputs written with the deprecated interpolation-only
# syntax (fixable by --fix) and one unused local: 25 findings of two rules.
MANY_FINDINGS = ("terraform {\n  required_version = \">= 1.3\"\n}\n\n"
                 "variable \"name\" {\n  type        = string\n  description = \"A name.\"\n}\n\n"
                 "locals {\n  unused = 1\n}\n\n"
                 + "".join("output \"o%d\" {\n  value       = \"${var.name}\"\n  description = \"Output %d.\"\n}\n\n"
                           % (i, i) for i in range(24)))


def usage_errors(tfsift, cwd):
    rc, out, err = run(tfsift, cwd, "lnit")
    check("`tfsift lnit`: unknown command, did you mean `lint`, exit 2",
          rc == 2 and err.startswith("tfsift: error: unknown command `lnit` (did you mean `lint`?)\n") and out == "",
          "%d %r" % (rc, err))
    rc, out, err = run(tfsift, cwd, "lint", "--recurse")
    check("`tfsift lint --recurse`: unknown option, did you mean `--recursive`, exit 2",
          rc == 2 and err.startswith("tfsift: error: unknown option `--recurse` for `tfsift lint` "
                                     "(did you mean `--recursive`?)\n"), "%d %r" % (rc, err))
    rc, out, err = run(tfsift, cwd, "debug", "prase")
    check("a mistyped subcommand of `tfsift debug` gets a suggestion too",
          rc == 2 and "unknown command `prase` for `tfsift debug` (did you mean `parse`?)" in err, err)
    for args in (["lint", "--format", "jsn"], ["lint", "--jobs", "0"], ["completion"], ["lint", "--fromat=json"],
                 ["rules", "extra"], ["lint", "--online", "--offline"]):
        rc, out, err = run(tfsift, cwd, *args)
        lines = [l for l in err.splitlines() if l]
        check("`tfsift %s`: exit 2, every line of the message from tfsift" % " ".join(args),
              rc == 2 and lines and lines[0].startswith("tfsift: error: ")
              and all(l.startswith("tfsift: error: ") or l.startswith("Run `tfsift") for l in lines),
              "%d %r" % (rc, err))
    rc, out, err = run(tfsift, cwd)
    check("a bare `tfsift` prints the help on stderr and exits 2",
          rc == 2 and out == "" and "Subcommands:" in err and "lint" in err and "error" not in err,
          "%d %r %r" % (rc, out, err[:500]))
    rc, out, err = run(tfsift, cwd, "debug")
    check("a bare `tfsift debug` prints its help and exits 2", rc == 2 and "parse" in err and "Subcommands:" in err,
          "%d %r" % (rc, err[:500]))
    rc, out, err = run(tfsift, cwd, "--help")
    check("`tfsift --help` prints the help on stdout and exits 0", rc == 0 and "Subcommands:" in out and err == "",
          "%d %r" % (rc, err))
    rc, out, err = run(tfsift, cwd, "lint", "--help")
    check("`tfsift lint --help` still prints the lint help", rc == 0 and "--recursive" in out, "%d %r" % (rc, err))


def nothing_to_lint(tfsift, scratch):
    write(scratch, "repo/README.md", "# notes\n")
    write(scratch, "repo/notes.txt", "notes\n")
    write(scratch, "repo/main.tf", "locals {\n  a = 1\n}\n")
    repo = os.path.join(scratch, "repo")
    for name in ("README.md", "notes.txt"):
        rc, out, err = run(tfsift, repo, "lint", name)
        check("`tfsift lint %s`: not a Terraform or OpenTofu file, exit 2" % name,
              rc == 2 and err.startswith("tfsift: error: %s: not a Terraform or OpenTofu file (" % name) and out == "",
              "%d %r %r" % (rc, out, err))
    rc, out, err = run(tfsift, repo, "lint", "main.tf")
    check("a configuration file may still be named", rc in (0, 1) and "not a Terraform" not in err, err)
    os.makedirs(os.path.join(scratch, "empty"))
    for args in (["lint", "."], ["lint", "-r", "."], ["lint", "-q", "."]):
        rc, out, err = run(tfsift, os.path.join(scratch, "empty"), *args)
        check("`tfsift %s` in an empty directory: a warning on stderr, exit 0" % " ".join(args),
              rc == 0 and re.match(r"tfsift: warning: no Terraform or OpenTofu configuration files \(.*\) "
                                   r"(in|found under) \.\n", err), "%d %r" % (rc, err))


def output(tfsift, scratch):
    mod = os.path.join(scratch, "many")
    write(scratch, "many/main.tf", MANY_FINDINGS)
    rc, out, err = run(tfsift, mod, "lint", "--color", "never")
    lines = out.rstrip("\n").split("\n")
    check("more than 20 findings: a per-rule table at the end", "\nFindings per rule:\n" in out
          and re.search(r"^ +24  deprecated-interpolation +\(24 fixable\)$", out, re.M)
          and re.search(r"^ +1  unused-declaration$", out, re.M), out[-1500:])
    check("the summary line says how many --fix would fix",
          len(lines) >= 2 and lines[-2] == "25 findings (0 errors, 25 warnings, 0 notices) in 1 of 1 file. "
                                           "24 fixable with `tfsift lint --fix`.", "\n".join(lines[-3:]))
    check("the last line names the command that explains the rules seen",
          lines[-1] == "`tfsift rule ID` explains deprecated-interpolation, unused-declaration.", lines[-1])
    check("no link under the findings", "docs:" not in out and "http" not in out, out[:500])
    rc, few, err = run(tfsift, mod, "lint", "--color", "never", "--only", "unused-declaration")
    check("20 findings or fewer: no table", rc == 1 and "Findings per rule:" not in few, few)
    rc, out, err = run(tfsift, mod, "lint", "--statistics")
    check("--statistics alone prints only the table",
          rc == 1 and out.splitlines() == [l for l in out.splitlines() if re.match(r"^ +\d+  [a-z-]+", l)]
          and len(out.splitlines()) == 2, out)
    rc, out, err = run(tfsift, mod, "lint", "--statistics", "--format", "json")
    check("--statistics --format json: the report on stdout, the table on stderr",
          rc == 1 and json.loads(out)["summary"]["findings"] == 25 and "deprecated-interpolation" in err, err)
    rc, out, err = run(tfsift, mod, "lint", "--output", "sarif:report.sarif")
    check("--output FORMAT:FILE alone: nothing on stdout, the summary line on stderr, exit 1",
          rc == 1 and out == "" and "25 findings (0 errors, 25 warnings, 0 notices)" in err
          and os.path.exists(os.path.join(mod, "report.sarif")), "%d %r %r" % (rc, out, err))
    rc, out, err = run(tfsift, mod, "lint", "--write-baseline", "baseline.json")
    check("--write-baseline says what it wrote and exits 0",
          rc == 0 and out == "" and "Wrote 25 findings to baseline.json" in err
          and os.path.exists(os.path.join(mod, "baseline.json")), "%d %r %r" % (rc, out, err))
    rc, out, err = run(tfsift, mod, "lint", "--baseline", "baseline.json")
    check("... and the baseline it wrote leaves nothing", rc == 0, "%d %r" % (rc, out + err))


def rules(tfsift, cwd):
    rc, out, err = run(tfsift, cwd, "rules", "--format", "json")
    rc2, text, _ = run(tfsift, cwd, "rules")
    try:
        doc = json.loads(out)
    except ValueError:
        doc = {}
    ids = [r.get("id") for r in doc.get("rules", [])]
    check("`tfsift rules --format json` lists the rules `tfsift rules` lists",
          rc == 0 and doc.get("schema_version") == 1
          and ids == [l.split()[0] for l in text.splitlines()[1:] if l.strip()]
          and all(set(r) == {"id", "severity", "enabled_by_default", "fixable", "category", "policy", "summary"}
                  for r in doc["rules"]), out[:500] + err)
    rc, out, err = run(tfsift, cwd, "rule", "terraform_unused_declarations")
    check("`tfsift rule terraform_unused_declarations` names its tfsift rule and explains it",
          rc == 0 and out.startswith("> TFLint's `terraform_unused_declarations` is checked by tfsift's "
                                     "`unused-declaration`.\n\n# unused-declaration\n"), "%d %r" % (rc, out[:300]))
    rc, out, err = run(tfsift, cwd, "rule", "terraform_comment_syntax")
    check("a TFLint rule without a counterpart says so, exit 1",
          rc == 1 and out == "" and "terraform_comment_syntax has no equivalent in tfsift" in err, "%d %r" % (rc, err))
    rc, out, err = run(tfsift, cwd, "rule", "terraform_unused_declaration")
    check("a mistyped TFLint name gets a suggestion",
          rc == 2 and "(did you mean `terraform_unused_declarations`?)" in err, "%d %r" % (rc, err))


def timings(tfsift, scratch):
    repo = os.path.join(scratch, "timings")
    os.makedirs(os.path.join(repo, ".git"))
    write(repo, "main.tf", "module \"m\" {\n  source = \"./modules/m\"\n}\n")
    write(repo, "versions.tf", "terraform {\n  required_version = \">= 1.3\"\n}\n")
    write(repo, "modules/m/main.tf", "locals {\n  unused = 1\n}\n")
    plain = run(tfsift, repo, "lint", "-r", ".")
    rc, out, err = run(tfsift, repo, "lint", "-r", "--timings", ".")
    check("--timings: the same report and exit status", (rc, out) == plain[:2] and rc == 1, "%d %r" % (rc, out))
    table = err[err.find("timings (seconds"):] if "timings (seconds" in err else ""
    check("--timings: the table on stderr, after everything else", table != "" and err.endswith(table),
          err[-1500:])
    for stage in ("command    wall ", "targets    ", "load       ", "rules      ", "report     ", "modules    "):
        check("--timings: the %r line" % stage.strip(), "\n  " + stage in table, table)
    m = re.search(r"files      (\d+) linted; read (\d+) times by the loaders \([0-9.]+ MB\), (\d+) by the "
                  r"module-role scan", table)
    check("--timings: 3 files linted, each read once by the loaders and once by the role scan",
          m is not None and m.groups() == ("3", "3", "3"), table)


def root_variables(tfsift, scratch):
    """A module source worked out from a const variable takes its value
    from TF_VAR_, then --var and --var-file in the order given."""
    repo = os.path.join(scratch, "root-variables")
    os.makedirs(os.path.join(repo, ".git"))
    write(repo, "main.tf", 'terraform {\n  required_version = ">= 1.15"\n}\n\nvariable "env" {\n  type  = string\n'
                           '  const = true\n}\n\nmodule "app" {\n  source = "./modules/${var.env}"\n}\n')
    for env in ("dev", "prod", "test"):
        write(repo, "modules/%s/main.tf" % env, 'variable "needs_%s" {\n  type = string\n}\n' % env)
    write(repo, "given.tfvars", 'env = "test"\n')

    def lint(*args, env=None):
        p = subprocess.run([tfsift, "lint", "--format", "compact", *args, "."], cwd=repo, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=120, env=dict(os.environ, **(env or {})))
        return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")

    rc, out, err = lint()
    check("a const variable nothing sets: the call is not loaded, and the notice names TF_VAR_env",
          "module-not-loaded" in out + err and "TF_VAR_env" in out + err, out + err)
    rc, out, err = lint(env={"TF_VAR_env": "prod"})
    check("TF_VAR_env=prod: modules/prod is loaded and checked", '"needs_prod" is required' in out, out + err)
    rc, out, err = lint("--var", "env=dev", env={"TF_VAR_env": "prod"})
    check("--var env=dev wins over TF_VAR_env", '"needs_dev" is required' in out, out + err)
    rc, out, err = lint("--var", "env=dev", "--var-file", "given.tfvars")
    check("--var then --var-file: the file's value wins", '"needs_test" is required' in out, out + err)
    rc, out, err = lint("--var-file", "given.tfvars", "--var", "env=dev")
    check("--var-file then --var: the --var value wins", '"needs_dev" is required' in out, out + err)
    rc, out, err = lint("--var", "env")
    check("--var without =: exit 2, said", rc == 2 and 'expected NAME=VALUE' in err, "%d %r" % (rc, err))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tfsift", required=True)
    args = ap.parse_args()
    tfsift = os.path.abspath(args.tfsift)
    with tempfile.TemporaryDirectory() as scratch:
        usage_errors(tfsift, scratch)
        nothing_to_lint(tfsift, scratch)
        output(tfsift, scratch)
        rules(tfsift, scratch)
        timings(tfsift, scratch)
        root_variables(tfsift, scratch)
    failed = RESULTS.count(False)
    print("%d passed, %d failed" % (RESULTS.count(True), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
