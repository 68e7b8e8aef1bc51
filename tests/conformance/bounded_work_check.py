#!/usr/bin/env python3
"""Bounded work on hostile or huge input, each case from a reproduction.

Every case builds its input in a temporary directory, runs the tfsift binary
as a user would, and checks three things: the run ends normally (no signal,
exit status 0 or 1), within a generous bound on its CPU time that only a quadratic or
exponential cost would break, and with exactly the diagnostics the limits
promise (one diagnostic for a run of invalid bytes, at most 100 of a kind per
file and one "Too many diagnostics", one error per too-deep expression, ...).
Peak memory is checked where the reproduction ran out of it.

Usage: bounded_work_check.py --tfsift PATH [--build-dir DIR] [--sanitized] [--only NAME]
"""
import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

TFSIFT = None
SANITIZED = False
BUILD_DIR = None
FAILURES = []


class Run:
    def __init__(self, rc, out, err, wall, cpu, max_rss_mb):
        self.rc, self.out, self.err, self.wall, self.max_rss_mb = rc, out, err, wall, max_rss_mb
        # CPU time (user + system) measures the work done; the machine may be
        # busy with other jobs, which only the wall time would count.
        self.seconds = cpu

    def json(self):
        return json.loads(self.out)


def run(args, cwd=None, stack_bytes=None, timeout=300):
    """Runs tfsift with `args`; returns its exit status, output, wall and CPU
    time and peak RSS (of this child alone, from wait4)."""
    def limit_stack():
        if stack_bytes is not None:
            hard = resource.getrlimit(resource.RLIMIT_STACK)[1]
            resource.setrlimit(resource.RLIMIT_STACK, (stack_bytes, hard))
    start = time.monotonic()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen([TFSIFT, *args], cwd=cwd, stdout=out, stderr=err, preexec_fn=limit_stack)
        deadline = start + timeout
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid != 0:
                break
            if time.monotonic() > deadline:
                proc.kill()
                pid, status, usage = os.wait4(proc.pid, 0)
                raise AssertionError(f"tfsift {' '.join(args[:3])} ... still running after {timeout} s: killed")
            time.sleep(0.01)
        wall = time.monotonic() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Run(proc.returncode, out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace"),
                   wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


def check(cond, message):
    if not cond:
        raise AssertionError(message)


def ended_normally(r, what):
    check(r.rc >= 0, f"{what}: killed by signal {-r.rc}\n{r.err[-2000:]}")
    check(r.rc in (0, 1), f"{what}: exit status {r.rc}\n{r.err[-2000:]}")


def within(r, seconds, what):
    check(r.seconds < seconds, f"{what}: took {r.seconds:.1f} s of CPU time (bound {seconds} s)")


def findings(doc, path_suffix=None, rule=None, message=None):
    out = []
    for f in doc["findings"]:
        if path_suffix and not f["location"]["path"].endswith(path_suffix):
            continue
        if rule and f["rule"] != rule:
            continue
        if message and not f["message"].startswith(message):
            continue
        out.append(f)
    return out


def write(path, data, mode="w"):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode) as f:
        f.write(data)


def lint_json(d, *extra, timeout=300, **kw):
    return run(["lint", "--jobs", "1", "--format", "json", *extra, d], timeout=timeout, **kw)


# ---- defect 2: NUL floods ----------------------------------------------------

def case_nul_flood(tmp):
    for mb in (1, 10):
        d = os.path.join(tmp, f"nul{mb}")
        write(os.path.join(d, "ok.tf"), "locals {}\n")
        write(os.path.join(d, "zero.tf"), b"\0" * (mb << 20), "wb")
        r = lint_json(d)
        ended_normally(r, f"{mb} MB of NUL")
        within(r, 10, f"{mb} MB of NUL")
        check(r.max_rss_mb < 64 + 12 * mb, f"{mb} MB of NUL: peak RSS {r.max_rss_mb:.0f} MB")
        doc = r.json()
        invalid = findings(doc, "zero.tf", message="Invalid character")
        check(len(invalid) == 1, f"{mb} MB of NUL: {len(invalid)} 'Invalid character' findings, want 1")
        loc = invalid[0]["location"]
        check(loc["start"]["byte"] == 0 and loc["end"]["byte"] == mb << 20,
              f"{mb} MB of NUL: the diagnostic covers bytes {loc['start']['byte']}-{loc['end']['byte']}")
        check(loc["end"]["column"] == (mb << 20) + 1, f"{mb} MB of NUL: end column {loc['end']['column']}")
        total = len(findings(doc, "zero.tf"))
        check(total <= 3, f"{mb} MB of NUL: {total} findings for the file")
        print(f"  {mb} MB of NUL: {r.seconds:.2f} s CPU, peak RSS {r.max_rss_mb:.0f} MB, {total} findings, "
              f"one 'Invalid character' over all {mb << 20} bytes")

    # NULs apart: each its own diagnostic, so the per-kind limit applies.
    d = os.path.join(tmp, "nul-spaced")
    count = 200_000
    write(os.path.join(d, "zero.tf"), b"\0 " * count, "wb")
    r = lint_json(d)
    ended_normally(r, "spaced NULs")
    within(r, 10, "spaced NULs")
    doc = r.json()
    invalid = findings(doc, "zero.tf", message="Invalid character")
    more = findings(doc, "zero.tf", message="Too many diagnostics")
    check(len(invalid) == 100, f"spaced NULs: {len(invalid)} 'Invalid character' findings, want 100")
    check(len(more) == 1 and f"{count - 100} more \"Invalid character\"" in more[0]["message"],
          f"spaced NULs: the 'N more' finding is {[m['message'] for m in more]}")
    print(f"  {count} separate NULs: {r.seconds:.2f} s CPU, 100 'Invalid character' + 1 '{count - 100} more'")

    # Invalid characters between identifiers: no run to collapse, so the
    # parser itself must stop keeping them (5 million took 2.3 GB and 11 s).
    d = os.path.join(tmp, "interleaved")
    count = 5 << 20
    write(os.path.join(d, "bin.tf"), b"\x01x" * count, "wb")
    r = lint_json(d)
    ended_normally(r, "interleaved invalid characters")
    within(r, 10, "interleaved invalid characters")
    check(r.max_rss_mb < 200, f"interleaved invalid characters: peak RSS {r.max_rss_mb:.0f} MB")
    doc = r.json()
    invalid = findings(doc, "bin.tf", message="Invalid character")
    more = findings(doc, "bin.tf", message="Too many diagnostics")
    check(len(invalid) == 100, f"interleaved: {len(invalid)} 'Invalid character' findings, want 100")
    check(len(more) == 1 and f"{count - 100} more \"Invalid character\"" in more[0]["message"],
          f"interleaved: the 'N more' finding is {[m['message'] for m in more]}")
    print(f"  {count} invalid characters between identifiers (10 MB): {r.seconds:.2f} s CPU, peak RSS "
          f"{r.max_rss_mb:.0f} MB, 100 reported + 1 '{count - 100} more'")

    d = os.path.join(tmp, "nul-json")
    write(os.path.join(d, "zero.tf.json"), b"\0" * (1 << 20), "wb")
    r = lint_json(d)
    ended_normally(r, "1 MB NUL .tf.json")
    within(r, 10, "1 MB NUL .tf.json")
    total = len(findings(r.json(), "zero.tf.json"))
    check(1 <= total <= 3, f"1 MB NUL .tf.json: {total} findings")
    print(f"  1 MB NUL .tf.json: {r.seconds:.2f} s CPU, {total} finding(s)")


# ---- defect 5: module cycles and the bound on modules -----------------------

def case_module_cycle(tmp):
    d = os.path.join(tmp, "cycle")
    write(os.path.join(d, "main.tf"),
          'module "a" {\n  source = "./"\n}\nmodule "b" {\n  source = "./"\n}\nmodule "c" {\n  source = "./"\n}\n')
    r = lint_json(d, timeout=120)
    ended_normally(r, "module cycle")
    within(r, 10, "module cycle")
    check(r.max_rss_mb < 200, f"module cycle: peak RSS {r.max_rss_mb:.0f} MB")
    doc = r.json()
    cycles = findings(doc, message="Module call cycle")
    check(len(cycles) == 3, f"module cycle: {len(cycles)} 'Module call cycle' findings, want one per call (3)")
    check(not findings(doc, message="Too many modules"), "module cycle: the cycle was expanded")
    print(f"  9-line module calling ./ three times: {r.seconds:.2f} s CPU, peak RSS {r.max_rss_mb:.0f} MB, "
          f"{len(cycles)} 'Module call cycle' errors")

    # No cycle, but 3^16 modules: sixteen directories each calling the next three times.
    d = os.path.join(tmp, "fanout")
    os.makedirs(os.path.join(d, ".git"))  # one repository, so ../dN stays inside it
    for i in range(16):
        calls = "".join(f'module "m{k}" {{\n  source = "../d{i + 1}"\n}}\n' for k in range(3))
        write(os.path.join(d, f"d{i}", "main.tf"), calls)
    write(os.path.join(d, "d16", "main.tf"), "locals {}\n")
    r = lint_json(os.path.join(d, "d0"), timeout=300)
    ended_normally(r, "module fan-out")
    within(r, 60, "module fan-out")
    too_many = findings(r.json(), message="Too many modules")
    check(len(too_many) == 1 and "10000 modules" in too_many[0]["message"],
          f"module fan-out: 'Too many modules' findings: {[f['message'] for f in too_many]}")
    print(f"  3^16 modules without a cycle: {r.seconds:.2f} s CPU, peak RSS {r.max_rss_mb:.0f} MB, "
          "one 'Too many modules' error at 10000")


# ---- defect 8: the evaluator under a 1 MiB stack -----------------------------

def chain(terms):
    return " + ".join(["1"] * terms)


def case_eval_stack(tmp):
    d = os.path.join(tmp, "chain")
    path = os.path.join(d, "main.tf")
    write(path, f"locals {{\n  x = {chain(999)}\n}}\n")
    r = run(["debug", "parse", path], stack_bytes=1 << 20)
    ended_normally(r, "999-term chain, debug parse, 1 MiB stack")
    if SANITIZED:
        print("  999-term chain under a 1 MiB stack: no crash (sanitizer build: its value may be left out)")
    else:
        check('"value": 999' in r.out.replace('"value":999', '"value": 999'),
              f"999-term chain under a 1 MiB stack: not evaluated to 999: {r.out[:300]}")
        print("  999-term chain under a 1 MiB stack: evaluated to 999")
    r = lint_json(d, stack_bytes=1 << 20)
    ended_normally(r, "999-term chain, lint, 1 MiB stack")
    check(not findings(r.json(), message="Expression too complex"), "999-term chain: 'Expression too complex' from lint")
    print(f"  999-term chain, lint under a 1 MiB stack: exit {r.rc}, no error")

    # The deepest nesting each syntax accepts, under the same small stack.
    for name, text in (("main.tf", "locals {\n  x = " + "[" * 253 + "1" + "]" * 253 + "\n}\n"),
                       ("main.tf.json", '{"locals": {"x": ' + "[" * 998 + "1" + "]" * 998 + "}}")):
        d = os.path.join(tmp, "nest-" + name)
        write(os.path.join(d, name), text)
        r = lint_json(d, stack_bytes=1 << 20)
        ended_normally(r, f"deepest nesting in {name}, 1 MiB stack")
        errors = [f for f in r.json()["findings"] if f["severity"] == "error"]
        check(not errors, f"deepest nesting in {name}: {[f['message'][:80] for f in errors[:3]]}")
        print(f"  deepest accepted nesting in {name} under a 1 MiB stack: exit {r.rc}, no error")


# ---- defect 12: one too-deep expression, one error --------------------------

def case_cascade(tmp):
    # A variable's default is evaluated while loading; 1,390 terms are 390
    # levels past the evaluator's limit, and each operand waiting above the
    # cut used to add its own error.
    d = os.path.join(tmp, "deep")
    write(os.path.join(d, "main.tf"), f'variable "v" {{\n  default = {chain(1390)}\n}}\n')
    r = lint_json(d, stack_bytes=1 << 20)
    ended_normally(r, "1390-term chain")
    within(r, 10, "1390-term chain")
    doc = r.json()
    errors = [f for f in doc["findings"] if f["severity"] == "error"]
    check(len(errors) == 1 and errors[0]["message"].startswith("Expression too complex"),
          f"1390-term chain: {len(errors)} errors: {[f['message'][:60] for f in errors[:5]]}")
    print("  1390-term chain: one error ('Expression too complex')")

    for depth in (300, 1000):
        d = os.path.join(tmp, f"nest{depth}")
        write(os.path.join(d, "main.tf"), f"locals {{\n  x = {'[' * depth}1{']' * depth}\n}}\n")
        r = lint_json(d)
        ended_normally(r, f"{depth} nested brackets")
        within(r, 10, f"{depth} nested brackets")
        errors = [f for f in r.json()["findings"] if f["severity"] == "error"]
        check(len(errors) == 1 and "Nesting too deep" in errors[0]["message"],
              f"{depth} nested brackets: {len(errors)} errors: {[f['message'][:60] for f in errors[:5]]}")
        print(f"  {depth} nested brackets: one error ('Nesting too deep')")


# ---- defect 9: quadratic and exponential time ------------------------------

def case_many_files(tmp):
    d = os.path.join(tmp, "files")
    n = 50_000
    os.makedirs(d)
    for i in range(n):
        with open(os.path.join(d, f"f{i}.tf"), "w") as f:
            f.write(f'resource "aws_instance" "r{i}" {{\n  ami = "x"\n}}\n')
    r = lint_json(d, timeout=600)
    ended_normally(r, "50,000 files")
    within(r, 120, "50,000 files")
    doc = r.json()
    check(doc["summary"]["files"] == n, f"50,000 files: {doc['summary']['files']} files read")
    print(f"  one module of {n} files: {r.seconds:.2f} s CPU, peak RSS {r.max_rss_mb:.0f} MB")


def case_many_diagnostics(tmp):
    d = os.path.join(tmp, "diags")
    n = 40_000
    write(os.path.join(d, "main.tf"), "".join(f"not_a_block_{i} {{\n}}\n" for i in range(n)))
    r = lint_json(d)
    ended_normally(r, "40,000 loader diagnostics")
    within(r, 10, "40,000 loader diagnostics")
    doc = r.json()
    kind = findings(doc, message="Unsupported block type")
    more = findings(doc, message="Too many diagnostics")
    check(len(kind) == 100, f"40,000 loader diagnostics: {len(kind)} reported, want 100")
    check(len(more) == 1 and f"{n - 100} more \"Unsupported block type\" diagnostics" in more[0]["message"],
          f"40,000 loader diagnostics: {[m['message'] for m in more]}")
    check(more[0]["location"]["start"]["line"] == 2 * 100 + 1,
          f"40,000 loader diagnostics: 'Too many' points at line {more[0]['location']['start']['line']}")
    print(f"  {n} loader diagnostics in one file: {r.seconds:.2f} s CPU, 100 reported + 1 '{n - 100} more'")


def outputs_json(n):
    return "{\"output\":{" + ",".join(
        f"\"o{i}\":{{\"value\":1,\"precondition\":[{{\"condition\":true,\"error_message\":\"x\"}}]}}"
        for i in range(n)) + "}}"


def resources_json(n):
    # Each resource names a provider configuration nobody declares: two
    # findings per resource from rule checks (not loader diagnostics, which
    # the per-kind limit would cut at 100).
    return "{\"resource\":{" + ",".join(
        f"\"p{i}_thing\":{{\"r\":{{\"provider\":\"p{i}.alias\"}}}}" for i in range(n)) + "}}"


def case_long_line(tmp):
    d = os.path.join(tmp, "longline")
    n = 48_000
    text = resources_json(n)
    write(os.path.join(d, "main.tf.json"), text)
    for fmt in ("json", "sarif", "text"):
        # provider-alias-undeclared is in the strict preset.
        r = run(["lint", "--jobs", "1", "--preset", "strict", "--format", fmt, d], timeout=600)
        ended_normally(r, f"long line, {fmt}")
        within(r, 30, f"long line, {fmt}")
        if fmt == "json":
            got = len(findings(r.json(), rule="provider-alias-undeclared"))
            check(got == n, f"long line: {got} provider-alias-undeclared findings, want {n}")
        if fmt == "sarif":
            check(len(r.out) < 2000 * 2 * n, f"long line: SARIF report of {len(r.out)} bytes")
        if fmt == "text":
            longest = max(len(line) for line in r.out.splitlines())
            check(longest < 1000, f"long line: a text report line of {longest} bytes")
        print(f"  {len(text) / 1e6:.1f} MB one-line .tf.json, {2 * n} findings, {fmt}: {r.seconds:.2f} s CPU "
              f"({r.wall:.2f} s wall), {len(r.out) / 1e6:.1f} MB report")

    # Loader diagnostics on one line are limited per kind like any others.
    d = os.path.join(tmp, "longline-loader")
    n = 28_000
    write(os.path.join(d, "main.tf.json"), outputs_json(n))
    r = lint_json(d)
    ended_normally(r, "long line, loader diagnostics")
    within(r, 10, "long line, loader diagnostics")
    doc = r.json()
    constant = findings(doc, rule="condition-constant")
    more = findings(doc, message="Too many diagnostics")
    check(len(constant) == 100 and len(more) == 1 and f"{n - 100} more" in more[0]["message"],
          f"long line: {len(constant)} condition-constant, {[m['message'] for m in more]}")
    print(f"  {n} constant conditions on one line: {r.seconds:.2f} s CPU, 100 reported + 1 '{n - 100} more'")


def case_sarif_snippet(tmp):
    from report_formats_check import check_sarif_shape, find_multitool
    d = os.path.join(tmp, "sarif")
    n = 400
    text = resources_json(n)
    write(os.path.join(d, "main.tf.json"), text)
    sarif = os.path.join(tmp, "long-line.sarif")
    # Two findings per resource; the module-level required-version-missing is not counted.
    r = run(["lint", "--jobs", "1", "--preset", "strict", "--disable", "required-version-missing", "--output", f"sarif:{sarif}", d])
    ended_normally(r, "SARIF of a one-line file")
    size = os.path.getsize(sarif)
    check(size < 2000 * 2 * n, f"SARIF of a {len(text)} byte one-line file: {size} bytes")
    results = check_sarif_shape(sarif)
    check(results == 2 * n, f"SARIF: {results} results, want {2 * n}")
    with open(sarif, encoding="utf-8") as f:
        doc = json.load(f)
    for res in doc["runs"][0]["results"]:
        loc = res["locations"][0]["physicalLocation"]
        snippet = loc["region"].get("snippet", {}).get("text", "")
        check(len(snippet) <= 1024 and "contextRegion" not in loc, "SARIF: a long snippet was copied")
    print(f"  {len(text)} byte one-line file, {2 * n} results: SARIF {size} bytes")
    tool = find_multitool(BUILD_DIR)
    if tool is None:
        print("  Sarif.Multitool not found: the validator was not run on it")
        return
    log = os.path.join(tmp, "validation.sarif")
    proc = subprocess.run([tool, "validate", "--output", log, sarif], capture_output=True, text=True)
    check(proc.returncode == 0 and os.path.exists(log), f"Sarif.Multitool failed: {proc.stdout}{proc.stderr}")
    with open(log, encoding="utf-8-sig") as f:
        validation = json.load(f)
    errors = [x for run_ in validation["runs"] for x in run_.get("results", []) if x.get("level") == "error"]
    check(not errors, f"Sarif.Multitool: {errors[:3]}")
    print("  Sarif.Multitool validate: no errors")


def case_glob(tmp):
    d = os.path.join(tmp, "glob")
    deep = os.path.join(d, *[f"d{i}" for i in range(20)])
    write(os.path.join(deep, "main.tf"), "locals {}\n")
    write(os.path.join(d, "main.tf"), "locals {}\n")
    os.makedirs(os.path.join(d, ".git"))
    pattern = "**/" * 24 + "nothing.tf"
    write(os.path.join(d, ".tfsift.toml"), f'exclude = ["{pattern}"]\n')
    r = run(["lint", "--recursive", "--format", "json", d], timeout=120)
    ended_normally(r, "24 ** in exclude")
    within(r, 10, "24 ** in exclude")
    check(r.json()["summary"]["files"] == 2, f"24 ** in exclude: {r.json()['summary']['files']} files linted")
    write(os.path.join(d, ".tfsift.toml"), f'exclude = ["{"**/" * 24}main.tf"]\n')
    r = run(["lint", "--recursive", "--format", "json", d], timeout=120)
    ended_normally(r, "24 ** in exclude, matching")
    within(r, 10, "24 ** in exclude, matching")
    check(r.json()["summary"]["files"] == 0, f"24 ** matching: {r.json()['summary']['files']} files linted")
    print(f"  24 '**' in an exclude glob over a 21-level tree: {r.seconds:.2f} s")


CASES = {
    "nul-flood": case_nul_flood,
    "module-cycle": case_module_cycle,
    "eval-stack": case_eval_stack,
    "cascade": case_cascade,
    "many-files": case_many_files,
    "many-diagnostics": case_many_diagnostics,
    "long-line": case_long_line,
    "sarif-snippet": case_sarif_snippet,
    "glob": case_glob,
}


def main():
    global TFSIFT, SANITIZED, BUILD_DIR
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tfsift", required=True)
    ap.add_argument("--build-dir")
    ap.add_argument("--sanitized", action="store_true", help="a sanitizer build: larger frames")
    ap.add_argument("--only", action="append", choices=sorted(CASES))
    args = ap.parse_args()
    TFSIFT, SANITIZED, BUILD_DIR = os.path.abspath(args.tfsift), args.sanitized, args.build_dir
    failed = []
    for name in args.only or CASES:
        tmp = tempfile.mkdtemp(prefix=f"tfsift-{name}-")
        print(name)
        try:
            CASES[name](tmp)
        except AssertionError as e:
            print(f"  FAILED: {e}")
            failed.append(name)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    if failed:
        print("failed: " + ", ".join(failed))
        return 1
    print(f"all {len(args.only or CASES)} cases passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
