#!/usr/bin/env python3
"""Conformance of `tfsift effective` against reference documents.

Suites:
  terraform-v1.3.10  the 124 cases of ../shared/conformance/terraform-v1.3.10/expected
                     (every case must match, except those excused in
                     docs/effective-differences.md, at most 3);
  corpus             the corpus directories of ../shared/conformance/expected/effective
                     (at least --min-percent of them must match);
  opentofu           ../shared/conformance/opentofu-configs: clean directories load
                     without errors, invalid ones give errors, error/warning markers,
                     and the .tofu/.tf shadowing case; checks listed, with a
                     reason, under "## Known gaps: opentofu-configs" in
                     docs/effective-differences.md are reported but tolerated.

The referee is the shared effcompare.py. Prints the pass count and lists the
failures.
"""
import argparse
import concurrent.futures
import contextlib
import gzip
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading

# effcompare prints to stdout; redirecting it is process-wide, so one
# comparison at a time.
COMPARE_LOCK = threading.Lock()

def run_tfsift(tfsift, directory, extra=()):
    proc = subprocess.run([tfsift, "effective", directory, "--format", "json", *extra],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    return proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace")


def compare(effcompare, expected_doc, candidate_text, options, workdir):
    """Runs effcompare.main on two documents; returns (ok, lines)."""
    exp_path = os.path.join(workdir, "expected.json")
    cand_path = os.path.join(workdir, "candidate.json")
    with open(exp_path, "w", encoding="utf-8") as f:
        json.dump(expected_doc, f)
    with open(cand_path, "w", encoding="utf-8") as f:
        f.write(candidate_text)
    out = io.StringIO()
    with COMPARE_LOCK, contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        rc = effcompare.main([exp_path, cand_path, "--max-diffs", "20", *options])
    return rc == 0, out.getvalue().splitlines()


OPENTOFU_GAPS_HEADING = "## Known gaps: opentofu-configs"
# Read by the round-trip test (effective_roundtrip.cpp), not by this script.
ROUND_TRIP_HEADING = "## Round trip"


def read_excuses(path, section=None):
    """Case names listed in the differences document: lines `- \`CASE\`: reason`.

    With section=None, the lines outside the OpenTofu and round-trip
    sections (the reference-document excuses); with a heading, only the
    lines under that heading (up to the next `## ` heading)."""
    excused = {}
    if not path or not os.path.exists(path):
        return excused
    current = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            stripped = line.strip()
            if stripped.startswith("## "):
                current = stripped
                continue
            if (current == section) if section else (current not in (OPENTOFU_GAPS_HEADING, ROUND_TRIP_HEADING)):
                m = re.match(r"^[-*] `([^`]+)`: (.+)$", stripped)
                if m:
                    excused[m.group(1)] = m.group(2)
    return excused


def suite_terraform(args, effcompare):
    base = os.path.join(args.shared, "conformance", "terraform-v1.3.10")
    with open(os.path.join(base, "expected", "index.json"), encoding="utf-8") as f:
        index = json.load(f)
    excused = read_excuses(args.excuses)
    if len(excused) > 3:
        print("too many excused cases: %d (at most 3)" % len(excused))
        return 1

    def one(case):
        info = index[case]
        with open(os.path.join(base, "expected", case + ".json"), encoding="utf-8") as f:
            expected = json.load(f)
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(base, info["input"])
            if info["mode"] == "file":
                target = os.path.join(tmp, "module")
                os.mkdir(target)
                shutil.copy(src, target)
            else:
                target = src
            rc, out, err = run_tfsift(args.tfsift, target)
            if rc not in (0, 1):
                return case, False, ["tfsift exit %d: %s" % (rc, err.strip()[:300])]
            options = []
            if info.get("module_sources") == "relative to the root module":
                options = ["--ignore-key", "children", "--skip-phase", "tree"]
            ok, lines = compare(effcompare, expected, out, options, tmp)
            return case, ok, lines

    cases = sorted(index)
    results = run_parallel(one, cases, args.jobs)
    passed = [c for c, ok, _ in results if ok]
    failed = [(c, lines) for c, ok, lines in results if not ok]
    unexcused = [(c, lines) for c, lines in failed if c not in excused]
    print("terraform-v1.3.10: %d/%d cases match (%d excused)" % (len(passed), len(cases), len(failed) - len(unexcused)))
    for c, lines in failed:
        tag = " (excused: %s)" % excused[c] if c in excused else ""
        print("FAIL %s%s" % (c, tag))
        for line in lines[:args.show]:
            print("    " + line)
    return 1 if unexcused else 0


def suite_corpus(args, effcompare):
    exp_dir = os.path.join(args.shared, "conformance", "expected", "effective")
    corpus = os.path.join(args.shared, "corpus")
    items = []
    for name in sorted(os.listdir(exp_dir)):
        if not name.endswith(".jsonl.gz"):
            continue
        repo = name[:-len(".jsonl.gz")]
        with gzip.open(os.path.join(exp_dir, name), "rt", encoding="utf-8") as f:
            for line in f:
                rec = json.loads(line)
                items.append((repo, rec["dir"], rec["doc"]))

    def one(item):
        repo, d, expected = item
        with tempfile.TemporaryDirectory() as tmp:
            rc, out, err = run_tfsift(args.tfsift, os.path.join(corpus, repo, d))
            key = "%s/%s" % (repo, d)
            if rc not in (0, 1):
                return key, False, ["tfsift exit %d: %s" % (rc, err.strip()[:300])]
            ok, lines = compare(effcompare, expected, out, [], tmp)
            return key, ok, lines

    results = run_parallel(one, items, args.jobs)
    passed = sum(1 for _, ok, _ in results if ok)
    total = len(results)
    pct = 100.0 * passed / total if total else 100.0
    print("corpus: %d/%d directories match (%.2f %%, required %.1f %%)" % (passed, total, pct, args.min_percent))
    for key, ok, lines in results:
        if not ok:
            print("FAIL %s" % key)
            for line in lines[:args.show]:
                print("    " + line)
    return 0 if pct >= args.min_percent else 1


MARKER = re.compile(r"(ERROR|WARNING): (.+?)\s*$")


def suite_opentofu(args, _effcompare):
    base = os.path.join(args.shared, "conformance", "opentofu-configs")
    checks = []  # (name, ok, message)

    def load(path):
        rc, out, err = run_tfsift(args.tfsift, path, ["--engine", "opentofu"])
        if rc not in (0, 1):
            return None, "tfsift exit %d: %s" % (rc, err.strip()[:200])
        return json.loads(out), None

    def single_file(path, fn):
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copy(path, tmp)
            doc, problem = load(tmp)
            return fn(doc, problem)

    def diags(doc, severity):
        return [d for d in doc["diagnostics"] if d["severity"] == severity]

    def config_files(d):
        return sorted(n for n in os.listdir(d) if re.search(r"\.(tf|tofu)(\.json)?$", n))

    # Clean files and modules: no errors.
    for sub in ("valid-files",):
        for n in config_files(os.path.join(base, sub)):
            def check(doc, problem, n=n):
                if problem:
                    return False, problem
                # Upstream loads each of these files with the parser alone
                # (no module tree): a local module source such as "./foo"
                # names a directory that is not part of the fixture, so
                # diagnostics of the tree phase are not part of the check.
                errs = [e for e in diags(doc, "error") if e.get("phase") != "tree"]
                return not errs, "; ".join("%s:%s %s" % (e["file"], e["line"], e["summary"]) for e in errs[:3])
            ok, msg = single_file(os.path.join(base, sub, n), check)
            checks.append(("%s/%s" % (sub, n), ok, msg))
    clean_dirs = [os.path.join("valid-modules", d) for d in sorted(os.listdir(os.path.join(base, "valid-modules")))]
    clean_dirs += ["tofu-only-files", "tofu-and-tf-files", "providers-explicit-fqn", "provider_from_json",
                   "config-build", "provider-reqs", "provider-reqs-with-tests", "dir-empty"]
    clean_dirs += [os.path.join("escaping-blocks", d) for d in sorted(os.listdir(os.path.join(base, "escaping-blocks")))]
    for d in clean_dirs:
        path = os.path.join(base, d)
        if not os.path.isdir(path):
            continue
        doc, problem = load(path)
        if problem:
            checks.append((d, False, problem))
            continue
        errs = diags(doc, "error")
        checks.append((d, not errs, "; ".join("%s:%s %s" % (e["file"], e["line"], e["summary"]) for e in errs[:3])))

    # Invalid files and modules: at least one error.
    for n in config_files(os.path.join(base, "invalid-files")):
        def check(doc, problem):
            if problem:
                return False, problem
            return bool(diags(doc, "error")), "no error"
        ok, msg = single_file(os.path.join(base, "invalid-files", n), check)
        checks.append(("invalid-files/" + n, ok, msg))
    for d in sorted(os.listdir(os.path.join(base, "invalid-modules"))):
        doc, problem = load(os.path.join(base, "invalid-modules", d))
        if problem:
            checks.append(("invalid-modules/" + d, False, problem))
            continue
        checks.append(("invalid-modules/" + d, bool(diags(doc, "error")), "no error"))

    # Marker files: errors (warnings) exactly on the marked lines.
    for sub, severity in (("error-files", "error"), ("warning-files", "warning")):
        for n in config_files(os.path.join(base, sub)):
            path = os.path.join(base, sub, n)
            with open(path, encoding="utf-8", errors="replace") as f:
                marked = {}
                for i, line in enumerate(f, 1):
                    m = MARKER.search(line)
                    if m and m.group(1).lower() == severity:
                        marked.setdefault(i, []).append(m.group(2))

            def check(doc, problem, marked=marked, severity=severity):
                if problem:
                    return False, problem
                got = {}
                for d in diags(doc, severity):
                    got.setdefault(d["line"], []).append(d["summary"])
                msgs = []
                for line, summaries in marked.items():
                    for s in summaries:
                        if s not in got.get(line, []):
                            msgs.append("missing %s at line %d: %s (got %s)" % (severity, line, s, got.get(line)))
                for line in got:
                    if line not in marked:
                        msgs.append("unexpected %s at line %s: %s" % (severity, line, got[line]))
                if severity == "warning" and diags(doc, "error"):
                    msgs.append("errors in a warning file")
                return not msgs, "; ".join(msgs[:3])
            ok, msg = single_file(path, check)
            checks.append(("%s/%s" % (sub, n), ok, msg))

    # Shadowing: .tofu files hide the .tf file of the same base name.
    doc, problem = load(os.path.join(base, "tofu-and-tf-files"))
    if problem:
        checks.append(("tofu-and-tf-files shadowing", False, problem))
    else:
        files = doc["root"]["files"]["primary"] + doc["root"]["files"]["override"]
        hidden = {"resources.tf", "resources.tf.json", "variables_override.tf", "variables_override.tf.json"}
        msgs = ["loaded %s" % h for h in sorted(hidden & set(files))]
        variables = doc["root"]["variables"]
        if len(variables) != 2:
            msgs.append("%d variables, expected 2" % len(variables))
        for name, v in variables.items():
            if v.get("default", {}).get("value") != "overridden by tofu file":
                msgs.append("variable %s default %r" % (name, v.get("default")))
        resources = set(doc["root"]["resources"])
        for r in ("tf_resource.first", "tf_json_resource.a"):
            if r not in resources:
                msgs.append("missing %s" % r)
        checks.append(("tofu-and-tf-files shadowing", not msgs, "; ".join(msgs)))

    # Known gaps: checks listed, each with its reason, in the differences
    # document's opentofu section. A listed check that now passes is
    # reported so the list can shrink; an unlisted failure fails the test.
    gaps = read_excuses(args.excuses, OPENTOFU_GAPS_HEADING)
    passed = sum(1 for _, ok, _ in checks if ok)
    failed = [(name, msg) for name, ok, msg in checks if not ok]
    unlisted = [(name, msg) for name, msg in failed if name not in gaps]
    print("opentofu-configs: %d/%d checks pass (%d failing listed as known gaps)"
          % (passed, len(checks), len(failed) - len(unlisted)))
    for name, msg in failed:
        tag = " (known gap: %s)" % gaps[name] if name in gaps else ""
        print("FAIL %s: %s%s" % (name, msg, tag))
    names = {name for name, _, _ in checks}
    for name in sorted(gaps):
        if name not in names:
            print("listed gap %s is not a check of this suite" % name)
        elif name not in dict(failed):
            print("listed gap %s now passes: remove it from the list" % name)
    return 1 if unlisted else 0


def run_parallel(fn, items, jobs):
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(fn, items))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tfsift", required=True)
    ap.add_argument("--shared", required=True)
    ap.add_argument("--suite", required=True, choices=["terraform-v1.3.10", "corpus", "opentofu"])
    ap.add_argument("--excuses", help="docs/effective-differences.md")
    ap.add_argument("--min-percent", type=float, default=99.0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--show", type=int, default=5, help="difference lines shown per failure")
    args = ap.parse_args()
    sys.path.insert(0, os.path.join(args.shared, "tools", "oracle"))
    import effcompare  # the shared referee

    suite = {"terraform-v1.3.10": suite_terraform, "corpus": suite_corpus, "opentofu": suite_opentofu}[args.suite]
    return suite(args, effcompare)


if __name__ == "__main__":
    sys.exit(main())
