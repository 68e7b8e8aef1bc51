#!/usr/bin/env python3
"""`tfsift lint` against the verdicts of Terraform's and OpenTofu's own loaders.

Suites (one engine each):
  opentofu           ../shared/conformance/opentofu-configs       (--engine opentofu)
  terraform-v1.3.10  ../shared/conformance/terraform-v1.3.10/testdata (--engine terraform)

Every case is linted with the default rules and `--format json`
(docs/json-report.md). What a case demands:
  markers      every `ERROR: ` / `WARNING: ` comment of an error-files /
               warning-files file is matched by a finding of that severity
               starting on that line; warning files give no error at all;
  errors/warnings files (config-diagnostics): every `PATH:LINE,COL-COL: ...`
               entry is matched by a finding of that severity in that file
               starting on that line (a path not starting at the case
               directory may be the tail of the file's path);
  clean        no error;
  invalid      at least one error.
Single files (valid-files, invalid-files, error-files, warning-files, ...)
are each copied alone into a scratch directory and linted as a module, as the
upstream tests load them. For the Terraform suite every error and warning of
Terraform's own reference document for the case
(../shared/conformance/terraform-v1.3.10/expected/CASE.json, except those
marked `version_gap`) must also be matched by a finding of that severity
starting on its line. Module directories are copied whole and linted with
`--recursive`, so that a child module is also linted on its own, in the role
of a called module (rules about shared modules report in its files). For the Terraform suite the clean / invalid verdict
of a directory comes from Terraform's own error count in
../shared/conformance/terraform-v1.3.10/expected/index.json.

The excuse list is docs/conformance-out-of-scope.md:
  under "## Out of scope": `- \`SUITE:CASE\`: reason` - failures beyond what a
      static linter can know; tolerated, and reported when they start passing;
  under "## Awaiting catalogue rules": `- \`SUITE:CASE\`: rule-id, what` - the
      case needs a catalogue rule that is not written yet. It is reported as
      "pending" while `tfsift rules` does not list that rule; once the rule
      exists the case must pass like any other.
Prints the pass count per category; fails on any other failing case.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

MARKER = re.compile(r"(ERROR|WARNING): (.+?)\s*$")
CONFIG_FILE = re.compile(r"\.(tf|tofu)(\.json)?$")
DIAG_ENTRY = re.compile(r"^(\S+?):(\d+),(\d+)-(\d+): ")
UNANCHORED = ".../"  # an expected path that may be the tail of a longer one

OUT_OF_SCOPE_HEADING = "## Out of scope"
PENDING_HEADING = "## Awaiting catalogue rules"
KNOWN_GAPS_HEADING = "## Known gaps"


class Case:
    """One thing to lint: a single file (copied alone) or a module directory."""

    def __init__(self, suite, category, name, path, is_file):
        self.suite, self.category, self.name, self.path, self.is_file = suite, category, name, path, is_file
        self.clean = False            # no error allowed (beyond `expected` lines)
        self.invalid = False          # at least one error
        self.expected = []            # (relative file, line, severity, text)
        self.no_errors = False        # no error at all (warning files)

    @property
    def key(self):
        return "%s:%s/%s" % (self.suite, self.category, self.name) if self.category else "%s:%s" % (self.suite, self.name)


def config_files(d):
    return sorted(n for n in os.listdir(d) if CONFIG_FILE.search(n))


def markers_of(path):
    found = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for i, line in enumerate(f, 1):
            m = MARKER.search(line)
            if m:
                found.append((os.path.basename(path), i, m.group(1).lower(), m.group(2)))
    return found


def diagnostics_file_entries(case_dir, name, severity):
    """Entries of a config-diagnostics `errors` / `warnings` file: the file
    (relative to the case directory), line and text. Lines without a location
    continue the previous entry's detail.

    Upstream's test looks for each entry as a substring of a diagnostic's
    text, so an entry whose path does not start at the case directory (the
    OpenTofu and Terraform `invalid-provider` cases name `main.tf` for an
    error in `mod/main.tf`) stands for any file ending in that path; such a
    path is returned with UNANCHORED in front."""
    path = os.path.join(case_dir, name)
    if not os.path.exists(path):
        return []
    case = os.path.basename(case_dir)
    entries = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = DIAG_ENTRY.match(line)
            if not m:
                continue
            rel = m.group(1)
            for prefix in ("testdata/config-diagnostics/%s/" % case, "%s/" % case):
                if rel.startswith(prefix):
                    rel = rel[len(prefix):]
                    break
            else:
                rel = UNANCHORED + rel
            entries.append((rel, int(m.group(2)), severity, line[m.end():].strip()))
    return entries


def opentofu_cases(base):
    suite = "opentofu"
    cases = []

    def add(category, name, path, is_file, **how):
        c = Case(suite, category, name, path, is_file)
        for k, v in how.items():
            setattr(c, k, v)
        cases.append(c)
        return c

    for n in config_files(os.path.join(base, "valid-files")):
        add("valid-files", n, os.path.join(base, "valid-files", n), True, clean=True)
    for d in sorted(os.listdir(os.path.join(base, "valid-modules"))):
        add("valid-modules", d, os.path.join(base, "valid-modules", d), False, clean=True)
    for n in config_files(os.path.join(base, "invalid-files")):
        add("invalid-files", n, os.path.join(base, "invalid-files", n), True, invalid=True)
    for d in sorted(os.listdir(os.path.join(base, "invalid-modules"))):
        add("invalid-modules", d, os.path.join(base, "invalid-modules", d), False, invalid=True)
    # Each file gives one "Invalid import provider argument", at the import
    # block's `provider` argument (upstream's tests name the line).
    import_provider_lines = {"import-and-module-clash.tf": 9, "import-and-no-resource.tf": 5,
                             "import-and-resource-clash.tf": 9}
    for n in config_files(os.path.join(base, "invalid-import-files")):
        expected = [(n, import_provider_lines[n], "error", "Invalid import provider argument")] \
            if n in import_provider_lines else []
        add("invalid-import-files", n, os.path.join(base, "invalid-import-files", n), True, invalid=True,
            expected=expected)
    for sub, severity in (("error-files", "error"), ("warning-files", "warning")):
        for n in config_files(os.path.join(base, sub)):
            path = os.path.join(base, sub, n)
            add(sub, n, path, True, expected=markers_of(path), no_errors=severity == "warning")
    cd = os.path.join(base, "config-diagnostics")
    for d in sorted(os.listdir(cd)):
        path = os.path.join(cd, d)
        expected = diagnostics_file_entries(path, "errors", "error") + diagnostics_file_entries(path, "warnings", "warning")
        has_errors = os.path.exists(os.path.join(path, "errors"))
        add("config-diagnostics", d, path, False, expected=expected, clean=not has_errors)
    for d in ["tofu-only-files", "tofu-and-tf-files", "providers-explicit-fqn", "provider_from_json", "config-build",
              "provider-reqs", "provider-reqs-with-tests", "dir-empty", "nested-backend-warning", "nested-cloud-warning"]:
        add("other", d, os.path.join(base, d), False, clean=True)
    for d in sorted(os.listdir(os.path.join(base, "escaping-blocks"))):
        add("other", "escaping-blocks/" + d, os.path.join(base, "escaping-blocks", d), False, clean=True)
    for d in ["duplicate-local-name", "provider_for_each"]:
        add("other", d, os.path.join(base, d), False, invalid=True)
    # Upstream demands exactly six errors: the connection and provisioner
    # blocks and the four lifecycle arguments of the second ephemeral block.
    add("other", "ephemeral-blocks", os.path.join(base, "ephemeral-blocks"), False,
        expected=[("main.tf", n, "error", "not valid in an ephemeral resource") for n in (18, 21, 26, 27, 28, 29)],
        clean=True)
    add("other", "nested-errors", os.path.join(base, "nested-errors"), False,
        expected=[("child_c/child_c.tf", 5, "error", "Unsupported block type")], clean=True)
    add("other", "variable-empty-deprecated", os.path.join(base, "variable-empty-deprecated"), False,
        expected=[("main.tf", 1, "error", "Invalid `deprecated` value"),
                  ("main.tf", 7, "error", "Invalid `deprecated` value")], clean=True)
    # uninit-module-and-provider-refs is left out: upstream uses it to build a
    # plan graph, and states no verdict about loading it.
    return cases


def terraform_cases(root):
    suite = "terraform-v1.3.10"
    base = os.path.join(root, "testdata")
    with open(os.path.join(root, "expected", "index.json"), encoding="utf-8") as f:
        index = json.load(f)
    cases = []
    for name, entry in sorted(index.items()):
        category, _, rest = name.partition("__")
        if category == "other":
            category, rest = "other", rest.replace("__", "/")
        path = os.path.join(root, entry["input"])
        is_file = entry["mode"] == "file"
        c = Case(suite, category, rest, path, is_file)
        # Terraform's own verdict; errors that only v1.3.10 gives do not count.
        errors = entry.get("errors", 0) - (entry.get("version_gap_errors") or 0)
        if category in ("error-files", "warning-files"):
            c.expected = markers_of(path)
            c.no_errors = category == "warning-files"
        elif category == "config-diagnostics":
            c.expected = (diagnostics_file_entries(path, "errors", "error")
                          + diagnostics_file_entries(path, "warnings", "warning"))
        # Terraform's own diagnostics for the case, from the reference
        # document: each error and warning must be matched too.
        with open(os.path.join(root, "expected", name + ".json"), encoding="utf-8") as f:
            reference = json.load(f)
        for d in reference.get("diagnostics", []):
            if d.get("version_gap") or d.get("severity") not in ("error", "warning"):
                continue
            c.expected.append((d["file"], d["line"], d["severity"], d["summary"]))
        seen = set()
        c.expected = [e for e in c.expected if (e[0], e[1], e[2]) not in seen and not seen.add((e[0], e[1], e[2]))]
        c.clean = errors == 0
        c.invalid = errors > 0
        cases.append(c)
    return cases


def read_list(path, heading):
    """`- \`KEY\`: text` lines under one `## ` heading of the excuse document."""
    items = {}
    if not path or not os.path.exists(path):
        return items
    current = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            s = line.strip()
            if s.startswith("## "):
                current = s
                continue
            if current == heading:
                m = re.match(r"^[-*] `([^`]+)`: (.+)$", s)
                if m:
                    items[m.group(1)] = m.group(2)
    return items


def stage(cases, scratch):
    """Copies every case into its own numbered directory under `scratch`."""
    for i, c in enumerate(cases):
        dest = os.path.join(scratch, str(i))
        if c.is_file:
            os.mkdir(dest)
            shutil.copy(c.path, dest)
        else:
            shutil.copytree(c.path, dest)


def lint(tfsift, engine, settings, scratch, dirs, jobs):
    proc = subprocess.run([tfsift, "lint", "--recursive", "--format", "json", "--engine", engine, "--config", settings,
                           "--minimum-failure-severity", "error", "--jobs", str(jobs), *dirs],
                          cwd=scratch, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    if proc.returncode not in (0, 1):
        return None, "tfsift exit %d: %s" % (proc.returncode, proc.stderr.decode("utf-8", "replace").strip()[:300])
    return json.loads(proc.stdout), None


def findings_by_case(tfsift, engine, settings, scratch, count, jobs):
    """Lints all cases in one run; on a crash, lints them one by one so the
    crash is pinned on its case."""
    dirs = [str(i) for i in range(count)]
    doc, problem = lint(tfsift, engine, settings, scratch, dirs, jobs)
    per_case = {i: [] for i in range(count)}
    problems = {}
    if doc is None:
        for i in range(count):
            one, p = lint(tfsift, engine, settings, scratch, [str(i)], 1)
            if one is None:
                problems[i] = p
            else:
                per_case[i] = one["findings"]
        return per_case, problems
    for f in doc["findings"]:
        head, _, rest = f["location"]["path"].partition("/")
        if head.isdigit() and int(head) in per_case:
            f["location"]["path"] = rest
            per_case[int(head)].append(f)
    return per_case, problems


def judge(case, findings):
    """Returns the problems of one case (empty when it passes)."""
    def line(f):
        return f["location"]["start"]["line"]

    def describe(f):
        return "%s:%d %s[%s]" % (f["location"]["path"], line(f), f["severity"], f["rule"])

    def in_file(f, rel):
        path = f["location"]["path"]
        if rel.startswith(UNANCHORED):
            tail = rel[len(UNANCHORED):]
            return path == tail or path.endswith("/" + tail)
        return path == rel

    problems = []
    errors = [f for f in findings if f["severity"] == "error"]
    matched = set()
    for rel, ln, severity, text in case.expected:
        hit = [f for f in findings
               if f["severity"] == severity and line(f) == ln and in_file(f, rel)]
        if hit:
            matched.update(id(f) for f in hit)
        else:
            near = [describe(f) for f in findings if in_file(f, rel) and line(f) == ln]
            problems.append("no %s at %s:%d (%s)%s" % (severity, rel, ln, text[:80],
                                                       "; got " + ", ".join(near) if near else ""))
    if case.no_errors and errors:
        problems.append("errors in a file Terraform accepts: " + ", ".join(describe(f) for f in errors[:3]))
    elif case.clean:
        extra = [f for f in errors if id(f) not in matched]
        if extra:
            problems.append("unexpected errors: " + ", ".join(describe(f) for f in extra[:3]))
    if case.invalid and not errors:
        problems.append("no error")
    return problems


def rule_ids(tfsift):
    proc = subprocess.run([tfsift, "rules"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    return {line.split()[0] for line in proc.stdout.decode().splitlines() if line.strip()}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tfsift", required=True)
    ap.add_argument("--shared", required=True)
    ap.add_argument("--suite", required=True, choices=["opentofu", "terraform-v1.3.10"])
    ap.add_argument("--excuses", required=True, help="docs/conformance-out-of-scope.md")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    args.tfsift = os.path.abspath(args.tfsift)  # tfsift runs in the scratch directory

    started = time.monotonic()
    if args.suite == "opentofu":
        engine, cases = "opentofu", opentofu_cases(os.path.join(args.shared, "conformance", "opentofu-configs"))
    else:
        engine, cases = "terraform", terraform_cases(os.path.join(args.shared, "conformance", "terraform-v1.3.10"))
    out_of_scope = read_list(args.excuses, OUT_OF_SCOPE_HEADING)
    # Known gaps are tolerated like out-of-scope cases but are tfsift's to fix.
    out_of_scope.update(read_list(args.excuses, KNOWN_GAPS_HEADING))
    pending = read_list(args.excuses, PENDING_HEADING)
    known_rules = rule_ids(args.tfsift)

    with tempfile.TemporaryDirectory(prefix="tfsift-lint-conformance-") as scratch:
        cases_dir = os.path.join(scratch, "cases")
        os.mkdir(cases_dir)
        settings = os.path.join(scratch, "empty.tfsift.toml")
        open(settings, "w").close()
        stage(cases, cases_dir)
        per_case, crashes = findings_by_case(args.tfsift, engine, settings, cases_dir, len(cases), args.jobs)

    categories = {}
    failures = []  # (case, problems, status)
    for i, c in enumerate(cases):
        problems = [crashes[i]] if i in crashes else judge(c, per_case[i])
        stat = categories.setdefault(c.category or "other", [0, 0])
        stat[1] += 1
        if not problems:
            stat[0] += 1
            continue
        if c.key in out_of_scope:
            status = "out of scope: " + out_of_scope[c.key]
        elif c.key in pending and pending[c.key].split(",")[0].strip() not in known_rules:
            status = "pending: " + pending[c.key]
        else:
            status = None
        failures.append((c, problems, status))

    print("%s (engine %s): %d cases in %.1f s" % (args.suite, engine, len(cases), time.monotonic() - started))
    for cat in sorted(categories):
        ok, total = categories[cat]
        print("  %-22s %3d/%d pass" % (cat, ok, total))
    unexcused = [f for f in failures if f[2] is None]
    excused = [f for f in failures if f[2] and f[2].startswith("out of scope")]
    waiting = [f for f in failures if f[2] and f[2].startswith("pending")]
    print("  failing: %d out of scope, %d pending a catalogue rule, %d unexcused"
          % (len(excused), len(waiting), len(unexcused)))
    for c, problems, status in excused + waiting + unexcused:
        print("%s %s: %s%s" % ("FAIL" if status is None else status.split(":")[0].upper(), c.key,
                               "; ".join(problems), "" if status is None else "  [%s]" % status))
    keys = {c.key for c in cases}
    failing = {c.key for c, _, _ in failures}
    for listing, what in ((out_of_scope, "out-of-scope"), (pending, "pending")):
        for key in sorted(listing):
            if not key.startswith(args.suite + ":"):
                continue
            if key not in keys:
                print("listed %s case %s is not a case of this suite" % (what, key))
            elif key not in failing:
                print("listed %s case %s now passes: remove it from the list" % (what, key))
    return 1 if unexcused else 0


if __name__ == "__main__":
    sys.exit(main())
