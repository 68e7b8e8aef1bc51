#!/usr/bin/env python3
"""The JSON report of `tfsift lint --recursive` over ../shared/corpus is the stored one.

Lints the corpus from inside the shared directory (so that every path in the
report is relative, `corpus/...`) and compares the report byte for byte with
tests/expected/corpus-report.json.gz, apart from the tool's version. On a
difference it prints the summaries and the first findings that differ.

When a change of the report is intended, regenerate the stored report with
the same script and --update, and say why in the commit:

    python3 tests/conformance/corpus_report_check.py --tfsift build/tfsift \\
        --shared ../shared --expected tests/expected/corpus-report.json.gz --update
"""
import argparse
import gzip
import json
import re
import subprocess
import sys

VERSION = re.compile(rb'("tool": \{\n    "name": "tfsift",\n    "version": )"[^"]*"')


def report(tfsift, shared):
    proc = subprocess.run([tfsift, "lint", "--chdir", shared, "--recursive", "corpus", "--format", "json",
                           "--color", "never"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    if proc.returncode not in (0, 1):
        sys.exit("tfsift lint exit %d: %s" % (proc.returncode, proc.stderr.decode(errors="replace")[:2000]))
    return proc.stdout


def without_version(text):
    return VERSION.sub(rb'\1"-"', text)


def describe(finding):
    loc = finding["location"]
    return "%s:%d:%d %s %s" % (loc["path"], loc["start"]["line"], loc["start"]["column"], finding["rule"],
                               finding["message"][:120])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tfsift", required=True)
    ap.add_argument("--shared", required=True)
    ap.add_argument("--expected", required=True)
    ap.add_argument("--update", action="store_true", help="write the current report as the stored one")
    args = ap.parse_args()
    actual = report(args.tfsift, args.shared)
    if args.update:
        with open(args.expected, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0,
                                                          filename="") as out:
            out.write(actual)
        print("wrote %s (%d bytes of report)" % (args.expected, len(actual)))
        return 0
    with gzip.open(args.expected, "rb") as f:
        expected = f.read()
    doc = json.loads(actual)
    print("corpus report: %d files, %d findings" % (doc["summary"]["files"], len(doc["findings"])))
    if without_version(actual) == without_version(expected):
        print("identical to the stored report")
        return 0
    old = json.loads(expected)
    print("the report differs from the stored one (%d bytes against %d)" % (len(actual), len(expected)))
    print("stored summary:  %s" % json.dumps(old["summary"], sort_keys=True))
    print("current summary: %s" % json.dumps(doc["summary"], sort_keys=True))
    shown = 0
    for i, (a, b) in enumerate(zip(old["findings"], doc["findings"])):
        if a != b:
            print("finding %d:\n  stored:  %s\n  current: %s" % (i, describe(a), describe(b)))
            shown += 1
            if shown == 10:
                break
    if shown == 0:
        print("the findings agree as far as both go; the difference is in their number or in the layout")
    return 1


if __name__ == "__main__":
    sys.exit(main())
