#!/usr/bin/env python3
"""Writes docs/rules.md, the index of the rule pages, from the pages themselves.

Each page of docs/rules/ (written by `tfsift rule --all-markdown docs/rules`)
starts with its id as the title, a one-sentence summary, and a table of its
default severity, whether it is on by default and whether it is fixable. The
index lists them in one table, linked.

usage: scripts/rules-index.py [--check]
  --check  write nothing; exit 1 when docs/rules.md is not what would be written
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGES = os.path.join(ROOT, "docs", "rules")
INDEX = os.path.join(ROOT, "docs", "rules.md")


def page(name):
    with open(os.path.join(PAGES, name), encoding="utf-8") as f:
        lines = f.read().splitlines()
    if len(lines) < 7 or not lines[0].startswith("# ") or lines[4] != "| default severity | enabled by default | fixable |":
        sys.exit(f"rules-index: docs/rules/{name} is not a page `tfsift rule --all-markdown` writes")
    severity, enabled, fixable = [c.strip() for c in lines[6].strip("|").split("|")]
    return lines[0][2:], lines[2], severity, enabled, fixable


def index():
    rows = [page(n) for n in sorted(os.listdir(PAGES)) if n.endswith(".md")]
    on = sum(1 for r in rows if r[3] == "yes")
    out = [
        "# Rules",
        "",
        f"tfsift has {len(rows)} rules; {on} run by default (the `recommended` preset), the others with",
        "`--preset strict`, `--enable RULE` or `.tfsift.toml` ([configuration](configuration.md)). `tfsift rules`",
        "lists them with the settings in force, and `tfsift rule ID` prints a rule's page. Fixable rules are",
        "fixed by `tfsift lint --fix` ([fixes](fixes.md)).",
        "",
        "This page is written by `scripts/rules-index.py` from the rule pages.",
        "",
        "| rule | severity | default | fixable | what it reports |",
        "|---|---|---|---|---|",
    ]
    for rule, summary, severity, enabled, fixable in rows:
        summary = summary.replace("|", "\\|")
        out.append(f"| [{rule}](rules/{rule}.md) | {severity} | {'on' if enabled == 'yes' else 'off'} | "
                   f"{fixable} | {summary} |")
    return "\n".join(out) + "\n"


def main():
    text = index()
    if sys.argv[1:] == ["--check"]:
        current = open(INDEX, encoding="utf-8").read() if os.path.exists(INDEX) else ""
        if current != text:
            print("docs/rules.md is out of date: run scripts/rules-index.py")
            return 1
        return 0
    if sys.argv[1:]:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    tmp = INDEX + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, INDEX)
    return 0


if __name__ == "__main__":
    sys.exit(main())
