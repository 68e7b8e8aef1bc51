#!/usr/bin/env python3
"""`tfsift lint --jobs N` gives the same report as `--jobs 1`.

Lints the given directories recursively with one job and with several, in
JSON and in the text format, and demands byte-identical output and the same
exit status. Prints the number of modules and findings compared.
"""
import argparse
import json
import subprocess
import sys


def lint(tfsift, paths, jobs, fmt):
    proc = subprocess.run([tfsift, "lint", "--recursive", "--format", fmt, "--color", "never",
                           "--jobs", str(jobs), *paths],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=900)
    return proc.returncode, proc.stdout, proc.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tfsift", required=True)
    ap.add_argument("--jobs", type=int, default=3)
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()
    failed = False
    for fmt in ("json", "text"):
        one = lint(args.tfsift, args.paths, 1, fmt)
        many = lint(args.tfsift, args.paths, args.jobs, fmt)
        if one[0] not in (0, 1):
            print("tfsift --jobs 1 exit %d: %s" % (one[0], one[2].decode(errors="replace")[:500]))
            return 1
        if fmt == "json":
            doc = json.loads(one[1])
            print("json: %d files, %d findings" % (doc["summary"]["files"], len(doc["findings"])))
            if not doc["findings"]:
                print("no findings at all: nothing was compared")
                failed = True
        if one != many:
            failed = True
            print("%s report differs between --jobs 1 and --jobs %d (exit %d vs %d)" % (fmt, args.jobs, one[0], many[0]))
            a, b = one[1].decode(errors="replace").splitlines(), many[1].decode(errors="replace").splitlines()
            for i, (x, y) in enumerate(zip(a, b)):
                if x != y:
                    print("first difference at line %d:\n  -j1: %s\n  -j%d: %s" % (i + 1, x[:200], args.jobs, y[:200]))
                    break
            else:
                print("lengths differ: %d vs %d lines" % (len(a), len(b)))
    if not failed:
        print("--jobs 1 and --jobs %d: identical reports and exit status" % args.jobs)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
