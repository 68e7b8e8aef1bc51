#!/usr/bin/env python3
"""Checks `tfsift debug parse` against the HCL parse dumps of the reference
parser (hashicorp/hcl), one suite at a time.

Usage:
    hcldump_conformance.py --tfsift PATH --shared DIR --suite SUITE
                           [--excuses FILE] [--jobs N] [--batch N]
                           [--max-listed N] [--diff-lines N] [--exact-numbers]

Suites (paths relative to the shared folder):
    handwritten         tools/oracle/expected/hcldump/NAME.tf against NAME.json
    corpus              every corpus/**.tf against conformance/expected/hcldump/*.jsonl.gz
    terraform-v1.3.10   conformance/terraform-v1.3.10/testdata/**.tf against
                        tools/oracle/expected/hcldump-terraform-v1.3.10/internal/configs/testdata/**.tf.json

The referee is the shared hclcompare.py, imported as a module: numbers are
compared numerically, ranges on line and byte, and first_error_line is
compared as `hclcompare.py --error-line` does.

tfsift runs on many files per process (one compact `{"path", "dump"}` line
per file), several processes at once.

A difference is excused when the file is listed, with a reason, in the
Markdown table of the excuses file (docs/parser-differences.md): first
column the file path relative to the shared folder, second the reason.
The excused files of a suite must stay under 0.1 % of its files.

Exit status: 0 when every file matches or is excused, 1 otherwise, 2 on
usage or setup errors.
"""
import argparse
import collections
import concurrent.futures
import gzip
import json
import os
import re
import subprocess
import sys
from decimal import Decimal

HANDWRITTEN_DIR = "tools/oracle/expected/hcldump"
CORPUS_DIR = "corpus"
CORPUS_EXPECTED_DIR = "conformance/expected/hcldump"
TERRAFORM_INPUT_DIR = "conformance/terraform-v1.3.10/testdata"
TERRAFORM_EXPECTED_DIR = "tools/oracle/expected/hcldump-terraform-v1.3.10/internal/configs/testdata"

# Excuses may cover at most this fraction of a suite's files (strictly less).
MAX_EXCUSED_FRACTION = Decimal("0.001")

SANITIZER_MARKERS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:",
                     "ERROR: UndefinedBehaviorSanitizer")


class SetupError(Exception):
    pass


def load_json(data):
    """Parses JSON the way hclcompare.load does: every number as a Decimal."""
    if isinstance(data, bytes):
        data = data.decode("utf-8")
    return json.loads(data, parse_float=Decimal, parse_int=Decimal)


class Case:
    """One input file and the dump the reference parser printed for it."""
    __slots__ = ("name", "input_path", "expected")

    def __init__(self, name, input_path, expected):
        self.name = name              # path relative to the shared folder
        self.input_path = input_path  # path handed to tfsift
        self.expected = expected      # parsed oracle dump


# ---- suites ------------------------------------------------------------------

def walk_files(root, suffix):
    found = []
    for d, dirs, files in os.walk(root):
        dirs.sort()
        found += [os.path.join(d, f) for f in sorted(files) if f.endswith(suffix)]
    return found


def handwritten_cases(shared):
    folder = os.path.join(shared, HANDWRITTEN_DIR)
    cases = []
    for path in walk_files(folder, ".tf"):
        expected_path = path[:-len(".tf")] + ".json"
        if not os.path.isfile(expected_path):
            raise SetupError("no expected dump %s for %s" % (expected_path, path))
        with open(expected_path, "rb") as f:
            expected = load_json(f.read())
        cases.append(Case(os.path.relpath(path, shared), path, expected))
    return cases


def corpus_cases(shared):
    corpus = os.path.join(shared, CORPUS_DIR)
    expected_dir = os.path.join(shared, CORPUS_EXPECTED_DIR)
    expected = {}
    for name in sorted(os.listdir(expected_dir)):
        if not name.endswith(".jsonl.gz"):
            continue
        with gzip.open(os.path.join(expected_dir, name), "rb") as f:
            for line in f:
                if line.strip():
                    record = load_json(line)
                    expected[record["path"]] = record["dump"]
    cases = []
    for path in walk_files(corpus, ".tf"):
        rel = os.path.relpath(path, corpus)
        if rel not in expected:
            raise SetupError("corpus file %s has no expected dump in %s" % (rel, expected_dir))
        cases.append(Case(os.path.join(CORPUS_DIR, rel), path, expected.pop(rel)))
    if expected:
        raise SetupError("%d expected dumps have no corpus file, e.g. %s"
                         % (len(expected), sorted(expected)[0]))
    return cases


def terraform_cases(shared):
    inputs = os.path.join(shared, TERRAFORM_INPUT_DIR)
    expected_dir = os.path.join(shared, TERRAFORM_EXPECTED_DIR)
    cases = []
    for path in walk_files(inputs, ".tf"):
        rel = os.path.relpath(path, inputs)
        expected_path = os.path.join(expected_dir, rel + ".json")
        if not os.path.isfile(expected_path):
            raise SetupError("no expected dump %s for %s" % (expected_path, path))
        with open(expected_path, "rb") as f:
            expected = load_json(f.read())
        cases.append(Case(os.path.relpath(path, shared), path, expected))
    return cases


SUITES = {
    "handwritten": handwritten_cases,
    "corpus": corpus_cases,
    "terraform-v1.3.10": terraform_cases,
}


# ---- excuses -----------------------------------------------------------------

def read_excuses(path):
    """Reads the Markdown table rows `| path | reason |` of the excuses file.
    Returns {path relative to the shared folder: reason}."""
    excuses = {}
    if not path:
        return excuses
    if not os.path.isfile(path):
        raise SetupError("excuses file %s does not exist" % path)
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line.startswith("|"):
                continue
            cells = [c.strip() for c in line.strip("|").split("|")]
            if len(cells) < 2 or re.fullmatch(r":?-+:?", cells[0]):
                continue
            file_cell = cells[0].strip("`").strip()
            reason = " ".join(cells[1:]).strip()
            # The header row and rows without a reason excuse nothing.
            if not file_cell.endswith(".tf") or not reason:
                continue
            excuses[file_cell] = reason
    return excuses


# ---- running tfsift ----------------------------------------------------------

class BatchResult:
    def __init__(self):
        self.dumps = {}      # input_path -> parsed dump
        self.failures = {}   # input_path -> text explaining why there is no dump
        self.sanitizer = []  # sanitizer reports seen on stderr


def run_tfsift(tfsift, paths, timeout):
    """Runs one tfsift process on `paths`. Returns (returncode, stdout, stderr);
    returncode None means the process timed out."""
    try:
        proc = subprocess.run([tfsift, "debug", "parse"] + paths, capture_output=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired as e:
        return None, e.stdout or b"", e.stderr or b""
    return proc.returncode, proc.stdout, proc.stderr


def describe_exit(code):
    if code is None:
        return "timed out"
    if code < 0:
        return "killed by signal %d" % -code
    return "exit status %d" % code


def parse_batch_output(paths, stdout):
    """Splits tfsift's output into one dump per path. A single file gives the
    bare dump; several give `{"path", "dump"}` lines in argument order."""
    dumps = {}
    text = stdout.decode("utf-8", errors="replace")
    if len(paths) == 1:
        try:
            doc = load_json(text)
        except ValueError:
            return dumps
        if isinstance(doc, dict) and "dump" in doc and "path" in doc:
            doc = doc["dump"]
        if isinstance(doc, dict):
            dumps[paths[0]] = doc
        return dumps
    wanted = set(paths)
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            record = load_json(line)
        except ValueError:
            continue
        if isinstance(record, dict) and record.get("path") in wanted and isinstance(record.get("dump"), dict):
            dumps[record["path"]] = record["dump"]
    return dumps


def sanitizer_reports(stderr):
    text = stderr.decode("utf-8", errors="replace")
    if any(m in text for m in SANITIZER_MARKERS):
        return [text[-4000:]]
    return []


def run_batch(tfsift, paths, timeout):
    result = BatchResult()
    code, stdout, stderr = run_tfsift(tfsift, paths, timeout)
    result.sanitizer += sanitizer_reports(stderr)
    dumps = parse_batch_output(paths, stdout) if code in (0, 1) else {}
    missing = [p for p in paths if p not in dumps]
    if missing and len(paths) > 1:
        # Something went wrong for the batch as a whole (a crash, a hang, a
        # malformed line): retry the files without a dump one by one, so the
        # report names the file responsible.
        for p in missing:
            sub = run_batch(tfsift, [p], timeout)
            dumps.update(sub.dumps)
            result.failures.update(sub.failures)
            result.sanitizer += sub.sanitizer
    elif missing:
        err = stderr.decode("utf-8", errors="replace").strip().splitlines()
        result.failures[paths[0]] = "tfsift %s without a dump%s" % (
            describe_exit(code), (": " + err[-1]) if err else "")
    result.dumps.update(dumps)
    return result


# ---- comparing ---------------------------------------------------------------

def import_hclcompare(shared):
    sys.path.insert(0, os.path.join(shared, "tools", "oracle"))
    try:
        import hclcompare  # noqa: E402  (the shared referee)
    finally:
        sys.path.pop(0)
    return hclcompare


def difference_kind(line):
    """A short label for a difference line, so that files can be grouped by
    the kind of mistake: the path without block names and indices, plus the
    nature of the mismatch."""
    path, _, msg = line.partition(": ")
    path = re.sub(r"\([^()]*\)", "", path)
    path = re.sub(r"\[\d+\]", "[]", path)
    path = re.sub(r"\.attributes\.[^.]+", ".attributes.*", path)
    path = re.sub(r'\.value(\.".*?"|\[\])*', ".value", path)
    if path.endswith((".start.line", ".end.line", ".start.byte", ".end.byte")):
        path = re.sub(r"^.*\.range", "range", path)
    elif ".expr" in path:
        path = "expr" + path.split(".expr", 1)[1]
    msg = re.sub(r"oracle .* != candidate .*", "mismatch", msg)
    msg = re.sub(r"\(.*\)", "", msg).strip()
    msg = re.sub(r"\d+", "N", msg)
    return "%s: %s" % (path, msg)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tfsift", required=True, help="the tfsift binary")
    ap.add_argument("--shared", required=True, help="the shared referee folder (../shared)")
    ap.add_argument("--suite", required=True, choices=sorted(SUITES))
    ap.add_argument("--excuses", help="Markdown file listing excused differences")
    ap.add_argument("--jobs", type=int, default=2, help="tfsift processes at once (default 2)")
    ap.add_argument("--batch", type=int, default=500, help="files per tfsift process (default 500)")
    ap.add_argument("--timeout", type=float, default=300, help="seconds per tfsift process")
    ap.add_argument("--max-listed", type=int, default=100, help="differing files listed in full")
    ap.add_argument("--diff-lines", type=int, default=4, help="difference lines shown per file")
    ap.add_argument("--exact-numbers", action="store_true", help="as hclcompare --exact-numbers")
    args = ap.parse_args(argv[1:])

    shared = os.path.abspath(args.shared)
    try:
        if not os.access(args.tfsift, os.X_OK):
            raise SetupError("tfsift binary %s is not executable" % args.tfsift)
        hclcompare = import_hclcompare(shared)
        cases = SUITES[args.suite](shared)
        excuses = read_excuses(args.excuses)
    except (SetupError, OSError, ValueError, ImportError) as e:
        print("hcldump-%s: setup error: %s" % (args.suite, e), file=sys.stderr)
        return 2
    if not cases:
        print("hcldump-%s: no input files found" % args.suite, file=sys.stderr)
        return 2

    batches = [cases[i:i + args.batch] for i in range(0, len(cases), max(1, args.batch))]
    differing = []      # (case, [difference lines])
    failures = []       # (case, reason): no dump at all
    sanitizer = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(run_batch, args.tfsift, [c.input_path for c in b], args.timeout)
                   for b in batches]
        for batch, future in zip(batches, futures):
            result = future.result()
            sanitizer += result.sanitizer
            for case in batch:
                if case.input_path in result.failures:
                    failures.append((case, result.failures[case.input_path]))
                    continue
                diffs = hclcompare.compare(case.expected, result.dumps[case.input_path],
                                           exact_numbers=args.exact_numbers, error_line=True)
                if diffs:
                    differing.append((case, diffs))

    total = len(cases)
    identical = total - len(differing) - len(failures)
    suite_names = {c.name for c in cases}
    suite_excuses = {n: r for n, r in excuses.items() if n in suite_names}
    unexcused = [(c, d) for c, d in differing if c.name not in suite_excuses]
    unexcused_failures = [(c, r) for c, r in failures if c.name not in suite_excuses]
    excused = [(c, d) for c, d in differing if c.name in suite_excuses]
    stale = sorted(set(suite_excuses) - {c.name for c, _ in differing} - {c.name for c, _ in failures})

    print("%s: %d/%d identical (%.2f %%)" % (args.suite, identical, total, 100.0 * identical / total))

    if failures:
        print("\n%d file(s) without a dump (crash, hang or unreadable output):" % len(failures))
        for case, reason in failures:
            print("  %s: %s" % (case.name, reason))
    if unexcused:
        print("\n%d differing file(s):" % len(unexcused))
        for case, diffs in unexcused[:args.max_listed]:
            print("  %s" % case.name)
            for line in diffs[:args.diff_lines]:
                print("      %s" % line)
            if len(diffs) > args.diff_lines:
                print("      ... %d more difference(s)" % (len(diffs) - args.diff_lines))
        if len(unexcused) > args.max_listed:
            print("  ... and %d more file(s)" % (len(unexcused) - args.max_listed))
        kinds = collections.Counter(difference_kind(d[0]) for _, d in unexcused)
        print("\ndiffering files by kind of first difference:")
        for kind, count in kinds.most_common(30):
            print("  %5d  %s" % (count, kind))
    if excused:
        print("\n%d excused difference(s) (listed in %s):" % (len(excused), args.excuses))
        for case, _ in excused:
            print("  %s: %s" % (case.name, suite_excuses[case.name]))
    if stale:
        print("\nnote: %d excused file(s) now match; remove them from %s:" % (len(stale), args.excuses))
        for name in stale:
            print("  %s" % name)
    if sanitizer:
        print("\nsanitizer reports (%d), the first:" % len(sanitizer))
        print(sanitizer[0])

    ok = True
    if unexcused or unexcused_failures or sanitizer:
        ok = False
    if suite_excuses and Decimal(len(suite_excuses)) >= MAX_EXCUSED_FRACTION * total:
        print("\nFAIL: %d excused file(s) is not under 0.1 %% of %d" % (len(suite_excuses), total))
        ok = False
    if not ok:
        print("\nFAIL: %s" % args.suite)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
