#!/usr/bin/env python3
"""Checks docs/test-file-diagnostics.md against the fixtures.

Each row of the page's tables names a summary, a severity, the line of
Terraform's source that writes the diagnostic and the fixture lines that
produce it (`IC/...` and `DB/...` abbreviate fixtures/rules/
invalid-configuration/failing and fixtures/rules/duplicate-block/failing).
For every fixture line this script demands:

- that the file exists and the line carries an `# expect:` comment naming
  the rule of the fixture directory;
- that `tfsift lint --recursive --format json` of the fixture case (the
  directory fixtures/rules/RULE/failing/CASE, linted as the fixture test
  lints it) reports, at that line of that file, a
  finding of that rule with that severity whose message is the summary
  (followed by ": " and the detail).

A row without a fixture must say why ("unreachable"). Two rows may not name
the same line of Terraform's source with the same summary.

usage: test_file_diagnostics_check.py --source DIR --tfsift BUILD/tfsift
"""
import argparse
import json
import os
import re
import subprocess
import sys

PAGE = "docs/test-file-diagnostics.md"
ABBREVIATIONS = {
    "IC/": "fixtures/rules/invalid-configuration/failing/",
    "DB/": "fixtures/rules/duplicate-block/failing/",
}
# A code span: `text`, or ``text with a ` inside`` (with its padding spaces).
CODE_SPAN = re.compile(r"(`+)\s?(.+?)\s?\1(?!`)")
FIXTURE = re.compile(r"^((?:IC|DB)/\S+):(\d+)$")


def cells(line):
    # Split a table row on the pipes outside code spans.
    out, current, i = [], "", 0
    while i < len(line):
        if line[i] == "`":
            j = i
            while j < len(line) and line[j] == "`":
                j += 1
            end = line.find(line[i:j], j)
            if end < 0:
                current += line[i:]
                break
            current += line[i:end + j - i]
            i = end + j - i
            continue
        if line[i] == "|":
            out.append(current.strip())
            current = ""
        else:
            current += line[i]
        i += 1
    out.append(current.strip())
    return out[1:-1]


def rows(text):
    header = None
    for number, line in enumerate(text.splitlines(), 1):
        if not line.startswith("|"):
            header = None
            continue
        c = cells(line)
        if header is None:
            header = c
            continue
        if set("".join(c)) <= set("-: "):
            continue
        yield number, dict(zip(header, c))


def findings_of(tfsift, source, case, cache):
    if case not in cache:
        run = subprocess.run([tfsift, "lint", "--recursive", "--format", "json", "--offline", case], cwd=source,
                             capture_output=True, text=True)
        if run.returncode not in (0, 1):
            raise SystemExit(f"tfsift lint {case} exited {run.returncode}: {run.stderr}")
        cache[case] = json.loads(run.stdout)["findings"]
    return cache[case]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True)
    ap.add_argument("--tfsift", required=True)
    args = ap.parse_args()
    tfsift = os.path.abspath(args.tfsift)
    with open(os.path.join(args.source, PAGE), encoding="utf-8") as f:
        text = f.read()

    problems, checked, unreachable, seen = [], 0, 0, {}
    cache = {}
    count = 0
    for number, row in rows(text):
        where = f"{PAGE}:{number}"
        count += 1
        summary = CODE_SPAN.fullmatch(row.get("Summary", ""))
        terraform = CODE_SPAN.match(row.get("Terraform", ""))
        severity = row.get("Severity", "")
        if summary is None or terraform is None or severity not in ("error", "warning"):
            problems.append(f"{where}: a row needs a `summary`, a severity and a `file.go:line`")
            continue
        summary = summary.group(2)
        location = terraform.group(2)
        if (location, summary) in seen:
            problems.append(f"{where}: {location} {summary!r} is already the row at line {seen[location, summary]}")
        seen[location, summary] = number
        fixtures = [m.group(2) for m in CODE_SPAN.finditer(row.get("Fixture", ""))]
        if not fixtures:
            if "unreachable" not in row.get("Fixture", "") and "unreachable" not in row.get("Condition", ""):
                problems.append(f"{where}: no fixture for {summary!r}, and no word on why")
            unreachable += 1
            continue
        for fixture in fixtures:
            m = FIXTURE.match(fixture)
            if m is None:
                problems.append(f"{where}: {fixture!r} is not IC/... or DB/... with a line")
                continue
            path = ABBREVIATIONS[m.group(1)[:3]] + m.group(1)[3:]
            line = int(m.group(2))
            parts = path.split("/")
            rule, case = parts[2], "/".join(parts[:5])
            full = os.path.join(args.source, path)
            if not os.path.isfile(full):
                problems.append(f"{where}: {path} does not exist")
                continue
            with open(full, encoding="utf-8") as f:
                lines = f.read().splitlines()
            text_line = lines[line - 1] if 0 < line <= len(lines) else ""
            expect = re.search(r"# expect:\s*([\w, -]+)", text_line)
            if expect is None or rule not in [r.strip() for r in expect.group(1).split(",")]:
                problems.append(f"{where}: {path}:{line} has no `# expect: {rule}`")
            found = [
                f for f in findings_of(tfsift, args.source, case, cache)
                if f["location"]["path"] == path and f["location"]["start"]["line"] == line and f["rule"] == rule
            ]
            if not any(f["severity"] == severity and (f["message"] == summary or f["message"].startswith(summary + ": "))
                       for f in found):
                got = "; ".join(f'{f["severity"]} {f["message"].split(": ")[0]}' for f in found) or "nothing"
                problems.append(f"{where}: {path}:{line} should give {severity} {summary!r}, gives {got}")
            checked += 1

    if count == 0:
        problems.append(f"{PAGE}: no table rows")
    for p in problems:
        print(p, file=sys.stderr)
    print(f"test-file diagnostics: {count} rows, {checked} fixture lines checked, {unreachable} without a fixture")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
