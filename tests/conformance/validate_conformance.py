#!/usr/bin/env python3
"""`tfsift lint` against the validate-class expectations of
../shared/conformance/validate/index.json (OpenTofu's own validate tests).

Every case directory is copied into a scratch directory and all of them are
linted in one run with `--recursive --engine opentofu --format json` and the
default rules (docs/json-report.md). What a case demands:
  "valid"   no finding of severity error (and no warning either when the
            case says `no_warnings`);
  "errors"  at least one error, and for every expected diagnostic a finding
            of that severity whose message is the expected summary (alone or
            followed by ": " and the detail); where the expectation gives a
            `detail_contains`, the message contains it; where it gives a file
            and a line, the finding starts on that line of that file.

A finding's message is "SUMMARY: DETAIL" (see the JSON report), so the
summary is what comes before the first ": " that follows the expected
summary text.

The excuse list is docs/conformance-out-of-scope.md, under the heading
"## Validate cases": `- \\`validate:CASE\\`: reason`. An excused case that
passes is reported so that it can be removed from the list. Prints the pass
count per origin and fails on any failing case that is not excused.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from lint_conformance import read_list

HEADING = "## Validate cases"


def read_excuses(path):
    """Case id -> reason, from the `- \`validate:ID\`: reason` lines under HEADING."""
    return {key[len("validate:"):]: reason for key, reason in read_list(path, HEADING).items()
            if key.startswith("validate:")}


def lint(tfsift, settings, scratch, dirs):
    proc = subprocess.run([tfsift, "lint", "--recursive", "--format", "json", "--engine", "opentofu",
                           "--config", settings, "--minimum-failure-severity", "error", "--jobs", "2", *dirs],
                          cwd=scratch, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    if proc.returncode not in (0, 1):
        return None, "tfsift exit %d: %s" % (proc.returncode, proc.stderr.decode("utf-8", "replace").strip()[:300])
    return json.loads(proc.stdout), None


def findings_by_case(tfsift, settings, scratch, names):
    doc, problem = lint(tfsift, settings, scratch, names)
    per_case = {n: [] for n in names}
    problems = {}
    if doc is None:
        # Pin a crash on its case.
        for n in names:
            one, p = lint(tfsift, settings, scratch, [n])
            if one is None:
                problems[n] = p
            else:
                per_case[n] = one["findings"]
        return per_case, problems
    for f in doc["findings"]:
        head, _, rest = f["location"]["path"].partition("/")
        if head in per_case:
            f["location"]["path"] = rest
            per_case[head].append(f)
    return per_case, problems


def summary_matches(message, summary):
    return message == summary or message.startswith(summary + ": ")


def judge(case, findings):
    def describe(f):
        return "%s:%d %s[%s] %s" % (f["location"]["path"], f["location"]["start"]["line"], f["severity"], f["rule"],
                                    f["message"].split("\n")[0][:100])

    problems = []
    errors = [f for f in findings if f["severity"] == "error"]
    if case["expect"] == "valid":
        if errors:
            problems.append("errors in a valid configuration: " + "; ".join(describe(f) for f in errors[:3]))
        if case.get("no_warnings"):
            warnings = [f for f in findings if f["severity"] == "warning"]
            if warnings:
                problems.append("warnings where upstream has none: " + "; ".join(describe(f) for f in warnings[:3]))
        return problems
    if not errors:
        problems.append("no error")
    for want in case.get("diagnostics", []):
        hits = [f for f in findings
                if f["severity"] == want["severity"] and summary_matches(f["message"], want["summary"])]
        if want.get("detail_contains"):
            hits = [f for f in hits if want["detail_contains"] in f["message"]]
        if want.get("file") and want.get("line"):
            hits = [f for f in hits
                    if f["location"]["path"] == want["file"] and f["location"]["start"]["line"] == want["line"]]
        if not hits:
            where = "%s:%s" % (want.get("file"), want.get("line")) if want.get("line") else "anywhere"
            near = [describe(f) for f in findings]
            problems.append("no %s \"%s\" at %s%s" % (want["severity"], want["summary"], where,
                                                    "; got " + "; ".join(near[:4]) if near else "; got nothing"))
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tfsift", required=True)
    ap.add_argument("--shared", required=True)
    ap.add_argument("--excuses", required=True, help="docs/conformance-out-of-scope.md")
    ap.add_argument("--only", help="run only the cases whose name contains this")
    args = ap.parse_args()
    args.tfsift = os.path.abspath(args.tfsift)

    base = os.path.join(args.shared, "conformance", "validate")
    with open(os.path.join(base, "index.json"), encoding="utf-8") as f:
        index = json.load(f)
    cases = [c for c in index["cases"] if not args.only or args.only in c["dir"]]
    excuses = read_excuses(args.excuses)

    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="tfsift-validate-conformance-") as scratch:
        names = []
        for c in cases:
            name = os.path.basename(c["dir"])
            shutil.copytree(os.path.join(base, c["dir"]), os.path.join(scratch, name))
            names.append(name)
        settings = os.path.join(scratch, "empty.tfsift.toml")
        open(settings, "w").close()
        per_case, crashes = findings_by_case(args.tfsift, settings, scratch, names)

    origins = {}
    failures = []
    for c in cases:
        name = os.path.basename(c["dir"])
        problems = [crashes[name]] if name in crashes else judge(c, per_case[name])
        stat = origins.setdefault("%s/%s" % (c["origin"], c["expect"]), [0, 0])
        stat[1] += 1
        if not problems:
            stat[0] += 1
            if name in excuses:
                print("listed case validate:%s now passes: remove it from the list" % name)
            continue
        failures.append((name, problems, excuses.get(name)))

    print("validate: %d cases in %.1f s" % (len(cases), time.monotonic() - started))
    for origin in sorted(origins):
        ok, total = origins[origin]
        print("  %-28s %3d/%d pass" % (origin, ok, total))
    unexcused = [f for f in failures if f[2] is None]
    print("  failing: %d excused, %d unexcused" % (len(failures) - len(unexcused), len(unexcused)))
    for name, problems, excuse in failures:
        print("%s validate:%s: %s%s" % ("FAIL" if excuse is None else "EXCUSED", name, " | ".join(problems),
                                        "" if excuse is None else "  [%s]" % excuse))
    for name in sorted(excuses):
        if not any(os.path.basename(c["dir"]) == name for c in index["cases"]):
            print("listed case validate:%s is not a case" % name)
    return 1 if unexcused else 0


if __name__ == "__main__":
    sys.exit(main())
