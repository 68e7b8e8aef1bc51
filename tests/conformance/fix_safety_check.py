#!/usr/bin/env python3
"""Every safe fix keeps a configuration valid and meaning the same.

Applies `tfsift lint --fix` to copies of every rule fixture and of the
corpus modules that have something to fix (../shared/corpus is read in
place; only the directories holding a fixable finding are copied, with
their own files, into a scratch directory), then demands:

  * every file that parsed without errors still does, with tfsift's parser
    (`tfsift debug parse`) and, when it has been built
    (../shared/tools/oracle/README.md), with hashicorp/hcl's (`hcldump`);
  * no error-severity finding appears that was not there before;
  * a second `--fix` changes nothing;
  * the meaning is kept: the parse dump of every attribute (with ranges left
    out) is the same before and after. A dump holds the evaluator's value of
    every constant expression and the references and functions of every
    other, so for constant input this compares the values of the old and the
    new expression. `lookup(m, k)` becomes `m[k]` on purpose: for files it
    rewrites, `lookup` leaves the functions and a reference is compared by
    its first two names;
  * a fixture file with an expected result beside it (`main.tf.fixed`, as
    clang-tidy's fix tests keep one) is fixed into exactly that text.

Prints the files fixed, the fixes applied, and the findings of fixable
rules whose fix was withheld because of where they stand ("refused by
position"; lock-file repairs, which need a registry, are not counted).

Exit status: 0 when all holds, 1 otherwise, 2 on setup errors.
"""
import argparse
import collections
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

CONFIG_SUFFIXES = (".tf", ".tofu", ".hcl")  # the native-syntax files a fix may write
FIXED_MARK = re.compile(r"Fixed (\d+) findings? in (\d+) files?")


def run(cmd, cwd=None, timeout=900):
    return subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)


def lint_json(tfsift, root, paths):
    proc = run([tfsift, "lint", "--chdir", root, "--recursive", "--offline", "--format", "json", "--color",
                "never", *paths])
    if proc.returncode not in (0, 1):
        sys.exit("tfsift lint exit %d: %s" % (proc.returncode, proc.stderr.decode(errors="replace")[:2000]))
    return json.loads(proc.stdout)["findings"]


def lint_fix(tfsift, root, paths):
    proc = run([tfsift, "lint", "--chdir", root, "--recursive", "--offline", "--fix", "--color", "never",
                "--format", "compact", *paths])
    err = proc.stderr.decode(errors="replace")
    if proc.returncode not in (0, 1):
        sys.exit("tfsift lint --fix exit %d: %s" % (proc.returncode, err[:2000]))
    m = FIXED_MARK.search(err)
    if not m:
        sys.exit("tfsift lint --fix printed no summary: %s" % err[:2000])
    return int(m.group(1)), int(m.group(2)), err


def fixable_rules(tfsift):
    """The ids `tfsift rules` marks fixable (columns: id, severity, default, fixable, summary)."""
    proc = run([tfsift, "rules"])
    if proc.returncode != 0:
        sys.exit("tfsift rules: %s" % proc.stderr.decode(errors="replace"))
    rows = [line.split() for line in proc.stdout.decode().splitlines()[1:]]
    return {r[0] for r in rows if len(r) > 3 and r[3] == "yes"}


def config_files(root):
    out = []
    for d, dirs, files in os.walk(root):
        dirs.sort()
        for f in sorted(files):
            if f.endswith(CONFIG_SUFFIXES) or f.endswith(".tf.json") or f.endswith(".tofu.json"):
                out.append(os.path.join(d, f))
    return out


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def parse_dumps(tfsift, paths):
    """{path: dump} for the native-syntax files among `paths`."""
    native = [p for p in paths if p.endswith(CONFIG_SUFFIXES)]
    dumps = {}
    for i in range(0, len(native), 200):
        batch = native[i:i + 200]
        proc = run([tfsift, "debug", "parse", *batch])
        lines = proc.stdout.decode(errors="replace").splitlines()
        if len(batch) == 1:
            dumps[batch[0]] = json.loads(proc.stdout)
            continue
        for line in lines:
            doc = json.loads(line)
            dumps[doc["path"]] = doc["dump"]
    return dumps


def without_ranges(node):
    if isinstance(node, dict):
        return {k: without_ranges(v) for k, v in node.items() if k not in ("range", "first_error_line")}
    if isinstance(node, list):
        return [without_ranges(v) for v in node]
    return node


def loosen_lookups(node):
    """A dump as `lookup(m, k)` -> `m[k]` leaves it: no `lookup` among the
    functions, references compared by their first two names."""
    if isinstance(node, dict):
        if "refs" in node and "funcs" in node:
            refs = sorted({".".join(re.split(r"[.\[]", r)[:2]) for r in node["refs"]})
            funcs = sorted(f for f in node["funcs"] if f not in ("lookup", "core::lookup"))
            return {"refs": refs, "funcs": funcs}
        return {k: loosen_lookups(v) for k, v in node.items()}
    if isinstance(node, list):
        return [loosen_lookups(v) for v in node]
    return node


def normalised(dump, loose):
    d = without_ranges(dump)
    if isinstance(d, dict) and "body" in d:
        d = d["body"]

    def sort_refs(node):
        if isinstance(node, dict):
            if "refs" in node and "funcs" in node:
                return {"refs": sorted(set(node["refs"])), "funcs": sorted(set(node["funcs"]))}
            return {k: sort_refs(v) for k, v in node.items()}
        if isinstance(node, list):
            return [sort_refs(v) for v in node]
        return node

    d = sort_refs(d)
    return loosen_lookups(d) if loose else d


def first_difference(a, b, where="body"):
    if type(a) is not type(b):
        return where
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return "%s.%s" % (where, k)
            d = first_difference(a[k], b[k], "%s.%s" % (where, k))
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return where
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, "%s[%d]" % (where, i))
            if d:
                return d
        return None
    return None if a == b else where


def oracle_errors(hcldump, path):
    proc = run([hcldump, path], timeout=60)
    try:
        return json.loads(proc.stdout)["errors"]
    except (ValueError, KeyError):
        return 1


def error_keys(findings, root):
    keys = collections.Counter()
    for f in findings:
        if f["severity"] == "error":
            keys[(f["rule"], f["location"]["path"], f["message"])] += 1
    return keys


def copy_inputs(shared, fixtures, scratch, corpus_dirs):
    shutil.copytree(fixtures, os.path.join(scratch, "fixtures"), symlinks=True)
    for rel in sorted(corpus_dirs):
        src = os.path.join(shared, rel)
        dst = os.path.join(scratch, rel)
        os.makedirs(dst, exist_ok=True)
        for name in os.listdir(src):
            p = os.path.join(src, name)
            if os.path.isfile(p) and not os.path.islink(p):
                shutil.copy2(p, os.path.join(dst, name))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tfsift", required=True)
    ap.add_argument("--shared", required=True)
    ap.add_argument("--fixtures", required=True, help="fixtures/rules of the source tree")
    args = ap.parse_args()
    tfsift = os.path.abspath(args.tfsift)
    shared = os.path.abspath(args.shared)
    fixtures = os.path.abspath(args.fixtures)
    if not os.path.isdir(os.path.join(shared, "corpus")):
        print("no corpus at %s" % shared, file=sys.stderr)
        return 2
    fixable = fixable_rules(tfsift)
    hcldump = os.path.join(shared, "tools", "oracle", "bin", "hcldump")
    if not os.access(hcldump, os.X_OK):
        hcldump = None

    # The corpus modules with a fixable finding, and the fixes withheld.
    refused = collections.Counter()
    corpus_dirs = set()
    for f in lint_json(tfsift, shared, ["corpus"]):
        if f["rule"] not in fixable:
            continue
        if f["fix"] is None:
            if not f["rule"].startswith("lock-"):
                refused[f["rule"]] += 1
            continue
        if f["fix"]["applicability"] == "safe":
            corpus_dirs.add(os.path.dirname(f["location"]["path"]))

    failures = []
    with tempfile.TemporaryDirectory(prefix="tfsift-fix-safety-") as scratch:
        copy_inputs(shared, fixtures, scratch, corpus_dirs)
        targets = ["fixtures"] + (["corpus"] if corpus_dirs else [])
        files = config_files(scratch)
        before_hash = {p: digest(p) for p in files}
        before_dumps = parse_dumps(tfsift, files)
        before = lint_json(tfsift, scratch, targets)
        for f in before:
            if f["rule"] in fixable and f["fix"] is None and not f["rule"].startswith("lock-") and \
                    f["location"]["path"].startswith("fixtures/"):
                refused[f["rule"]] += 1
        lookup_files = {os.path.join(scratch, f["location"]["path"]) for f in before
                        if f["rule"] == "deprecated-lookup" and f["fix"]}

        fixes, files_fixed, _ = lint_fix(tfsift, scratch, targets)
        after_files = config_files(scratch)
        changed = [p for p in after_files if before_hash.get(p) != digest(p)]
        after_dumps = parse_dumps(tfsift, changed)
        for p in changed:
            rel = os.path.relpath(p, scratch)
            if p.endswith((".tf.json", ".tofu.json")):
                failures.append("%s: a JSON file was rewritten" % rel)
                continue
            if p not in before_dumps or p not in after_dumps:
                continue
            old, new = before_dumps[p], after_dumps[p]
            if new["errors"] > old["errors"] or (old["errors"] == 0 and new["errors"] > 0):
                failures.append("%s: parses with errors after the fix (line %s)" % (rel, new.get("first_error_line")))
                continue
            if hcldump and old["errors"] == 0 and oracle_errors(hcldump, p) > 0:
                failures.append("%s: hashicorp/hcl finds errors after the fix" % rel)
            # A lock file's repair changes its content on purpose (the lock
            # tests check what it writes); it only has to stay parseable.
            if old["errors"] == 0 and not p.endswith(".terraform.lock.hcl"):
                loose = p in lookup_files
                where = first_difference(normalised(old, loose), normalised(new, loose))
                if where:
                    failures.append("%s: the parse dump differs after the fix at %s" % (rel, where))

        after = lint_json(tfsift, scratch, targets)
        new_errors = error_keys(after, scratch) - error_keys(before, scratch)
        for (rule, path, message), n in sorted(new_errors.items()):
            failures.append("%s: a new error after the fix: %s: %s" % (path, rule, message[:160]))

        second_hash = {p: digest(p) for p in config_files(scratch)}
        again, again_files, err = lint_fix(tfsift, scratch, targets)
        third_hash = {p: digest(p) for p in config_files(scratch)}
        if again != 0 or again_files != 0 or second_hash != third_hash:
            moved = sorted(os.path.relpath(p, scratch) for p in third_hash if second_hash.get(p) != third_hash[p])
            failures.append("a second --fix changed something (%d findings, %d files: %s)\n%s" %
                            (again, again_files, ", ".join(moved[:10]), err[:1500]))

        expected_results = 0
        for d, _, names in os.walk(fixtures):
            for name in names:
                if not name.endswith(".fixed"):
                    continue
                expected_results += 1
                rel = os.path.relpath(os.path.join(d, name[:-len(".fixed")]), fixtures)
                with open(os.path.join(d, name), encoding="utf-8") as f:
                    want = f.read()
                with open(os.path.join(scratch, "fixtures", rel), encoding="utf-8") as f:
                    got = f.read()
                if got != want:
                    failures.append("fixtures/rules/%s: the fixed file is not %s.fixed:\n%s" % (rel, name[:-6], got))

    print("fix safety: %d files fixed, %d fixes applied (%d corpus directories, the rule fixtures); "
          "%d fixed files compared with their .fixed; hashicorp/hcl %s" %
          (files_fixed, fixes, len(corpus_dirs), expected_results, "checked" if hcldump else "not built, not checked"))
    print("fixes refused by position (findings of fixable rules offered without a fix): %d%s" % (sum(refused.values()),
                                                 "".join(" %s=%d" % kv for kv in sorted(refused.items()))))
    for f in failures:
        print("FAIL " + f)
    if fixes == 0:
        print("FAIL no fix was applied at all: the harness checked nothing")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
