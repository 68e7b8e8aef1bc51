#!/usr/bin/env python3
"""Checks tfsift's machine-readable reports on real runs.

  --check xml    checkstyle and JUnit XML are well-formed (xml.etree) and hold
                 one entry per finding of the JSON report of the same run.
  --check sarif  GitHub code scanning's documented values and limits hold
                 (GITHUB_SARIF_RULES below), and Microsoft's SARIF validator
                 (Sarif.Multitool validate --rule-kind "Sarif;Gh": the SARIF
                 rules and GitHub's ingestion rules) reports 0 errors and 0
                 warnings; the notes it prints are the ones docs/ci.md
                 explains (ACCEPTED_NOTES). The validator is looked up in
                 $SARIF_MULTITOOL, then in BUILD_DIR/node_modules (where .ci/run
                 installs it with npm); without it the test is skipped (exit 77).
  --check github-limits  generated modules with 5,001 and 25,001 findings: the
                 SARIF report comes with the warning for GitHub's display limit
                 and for its limit on results per run; a small run with none.

Every PATH is linted with `tfsift lint --recursive`; one scan writes all
formats through --output.
"""
import argparse
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

SKIP = 77


FORMATS = ("json", "sarif", "checkstyle", "junit")
SARIF_CATEGORY = "tfsift-check/reports"


def lint(tfsift, paths, outdir):
    outputs = {fmt: os.path.join(outdir, "report." + fmt) for fmt in FORMATS}
    cmd = [tfsift, "lint", "--recursive", "--minimum-failure-severity", "error", "--sarif-category", SARIF_CATEGORY]
    for fmt, path in outputs.items():
        cmd += ["--output", f"{fmt}:{path}"]
    cmd += paths
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        sys.exit(f"tfsift failed with exit code {proc.returncode}:\n{proc.stderr}")
    return outputs, proc


def check_xml(outputs):
    with open(outputs["json"], encoding="utf-8") as f:
        report = json.load(f)
    count = len(report["findings"])
    checkstyle = ET.parse(outputs["checkstyle"]).getroot()
    assert checkstyle.tag == "checkstyle", checkstyle.tag
    errors = checkstyle.findall("./file/error")
    assert len(errors) == count, f"checkstyle has {len(errors)} errors, JSON {count} findings"
    for e in errors:
        assert int(e.get("line")) >= 1 and int(e.get("column")) >= 1
        assert e.get("severity") in ("error", "warning", "info"), e.get("severity")
        assert e.get("source", "").startswith("tfsift."), e.get("source")
    junit = ET.parse(outputs["junit"]).getroot()
    assert junit.tag == "testsuites", junit.tag
    failures = junit.findall("./testsuite/testcase/failure")
    assert len(failures) == count, f"JUnit has {len(failures)} failures, JSON {count} findings"
    assert int(junit.get("failures")) == count
    print(f"checkstyle and JUnit XML well-formed, {count} findings each")


def find_multitool(build_dir):
    candidates = []
    if os.environ.get("SARIF_MULTITOOL"):
        candidates.append(os.environ["SARIF_MULTITOOL"])
    if build_dir:
        candidates.append(os.path.join(build_dir, "node_modules", "@microsoft", "sarif-multitool-linux", "Sarif.Multitool"))
        candidates.append(os.path.join(build_dir, "node_modules", ".bin", "sarif-multitool-linux"))
    for c in candidates:
        if os.path.isfile(c):
            if not os.access(c, os.X_OK):
                os.chmod(c, 0o755)  # npm may skip the package's chmod postinstall script
            return c
    return None


# GitHub code scanning's rules for an uploaded SARIF file, from "SARIF
# support for code scanning" (the reportingDescriptor, result and
# runAutomationDetails tables, and the limits table).
GITHUB_LIMITS = {
    "runs per file": 20,
    "results per run": 25_000,
    "rules per run": 25_000,
    "tool extensions per run": 100,
    "locations per result": 10,     # "up to a maximum of 10" (the hard limit is 1,000)
    "tags per rule": 10,             # the first 10 are shown (the hard limit is 20)
    "gzip bytes": 10_000_000,
    "rule name characters": 255,
    "description characters": 1024,
}
PRECISIONS = {"very-high", "high", "medium", "low"}
PROBLEM_SEVERITIES = {"error", "warning", "recommendation"}
# Embedded links: "[text](id)", the brackets and backslashes of the text escaped.
LINK = re.compile(r"(?<!\\)\[((?:[^\[\]\\]|\\.)*)\]\((\d+)\)")


def check_github_rules(doc, raw, category):
    """Every value and limit of GITHUB_LIMITS and the tables above."""
    assert len(doc["runs"]) <= GITHUB_LIMITS["runs per file"]
    assert len(gzip.compress(raw)) <= GITHUB_LIMITS["gzip bytes"]
    for run in doc["runs"]:
        driver = run["tool"]["driver"]
        assert len(run["tool"].get("extensions", [])) <= GITHUB_LIMITS["tool extensions per run"]
        assert len(driver["rules"]) <= GITHUB_LIMITS["rules per run"]
        assert len(run["results"]) <= GITHUB_LIMITS["results per run"]
        # The category: from --sarif-category, as "CATEGORY/" (no run id).
        if category:
            assert run["automationDetails"]["id"] == category + "/", run.get("automationDetails")
        else:
            assert "automationDetails" not in run
        for r in driver["rules"]:
            rid = r["id"]
            assert len(r["name"]) <= GITHUB_LIMITS["rule name characters"], rid
            for key in ("shortDescription", "fullDescription"):
                text = r[key]["text"]
                assert text and len(text) <= GITHUB_LIMITS["description characters"], (rid, key, len(text))
            assert r["help"]["text"], rid
            props = r["properties"]
            tags = props["tags"]
            assert 1 <= len(tags) <= GITHUB_LIMITS["tags per rule"], (rid, tags)
            assert tags[0] in ("correctness", "supply-chain", "maintainability", "style", "policy"), (rid, tags)
            assert props["precision"] in PRECISIONS, (rid, props)
            if tags[0] == "supply-chain":
                score = float(props["security-severity"])
                assert 0.0 < score <= 10.0 and "security" in tags, (rid, props)
            else:
                assert "security-severity" not in props and "security" not in tags, (rid, props)
                assert props["problem.severity"] in PROBLEM_SEVERITIES, (rid, props)
        for res in run["results"]:
            assert 1 <= len(res["locations"]) <= GITHUB_LIMITS["locations per result"]
            related = {loc["id"] for loc in res.get("relatedLocations", [])}
            linked = {int(m.group(2)) for m in LINK.finditer(res["message"]["text"])}
            # Every related location is linked from the message, and every
            # link leads to one.
            assert linked == related, (res["message"]["text"], related)
    return sum(len(run["results"]) for run in doc["runs"])


def check_sarif_shape(path):
    """What GitHub code scanning reads, checked independently of the validator
    (which skips some files it cannot deserialize without a word)."""
    with open(path, "rb") as f:
        raw = f.read()
    doc = json.loads(raw)
    assert doc["version"] == "2.1.0"
    run = doc["runs"][0]
    driver = run["tool"]["driver"]
    for key in ("name", "version", "informationUri", "rules"):
        assert key in driver, key
    ids = [r["id"] for r in driver["rules"]]
    assert len(ids) == len(set(ids)), "duplicate rule ids"
    for r in driver["rules"]:
        for key in ("id", "name", "shortDescription", "fullDescription", "help", "helpUri", "defaultConfiguration"):
            assert key in r, (r.get("id"), key)
        assert r["help"]["text"] and r["help"]["markdown"], r["id"]
        assert r["defaultConfiguration"]["level"] in ("note", "warning", "error"), r["id"]
    assert isinstance(run["invocations"][0]["exitCode"], int)
    bases = run["originalUriBaseIds"]
    for res in run["results"]:
        assert res["level"] in ("none", "note", "warning", "error"), res["level"]
        assert ids[res["ruleIndex"]] == res["ruleId"], res["ruleId"]
        loc = res["locations"][0]["physicalLocation"]
        art = loc["artifactLocation"]
        # Files of the linted repository are relative to %SRCROOT%; a file
        # outside it (another repository linted in the same run) is an
        # absolute file URI.
        if "uriBaseId" in art:
            assert art["uriBaseId"] in bases and not art["uri"].startswith("/"), art
        else:
            assert art["uri"].startswith("file:///"), art
        reg = loc["region"]
        for key in ("startLine", "startColumn", "endLine", "endColumn"):
            assert reg[key] >= 1, (key, reg)
        assert ":" in res["partialFingerprints"]["primaryLocationLineHash"]
    return check_github_rules(doc, raw, SARIF_CATEGORY)


# Notes of Sarif.Multitool's rules that tfsift's reports cannot avoid, each
# explained in docs/ci.md ("What the SARIF validator says").
ACCEPTED_NOTES = {
    "SARIF2002",  # messages as text, not id + arguments
    "SARIF2003",  # no versionControlProvenance
    "SARIF2006",  # URIs not reachable from the test machine
    "SARIF2009",  # kebab-case rule ids
    "SARIF2011",  # no contextRegion where SARIF does not allow one
    "SARIF2016",  # absolute URIs for files outside the repository root
}


def check_sarif(outputs, build_dir, outdir):
    print(f"SARIF shape and GitHub's rules: {check_sarif_shape(outputs['sarif'])} results checked")
    tool = find_multitool(build_dir)
    if tool is None:
        print("Sarif.Multitool not found (set SARIF_MULTITOOL or run .ci/run): skipped")
        sys.exit(SKIP)
    log = os.path.join(outdir, "validation.sarif")
    proc = subprocess.run([tool, "validate", "--rule-kind", "Sarif;Gh", "--level", "Error;Warning;Note",
                           "--output", log, outputs["sarif"]], capture_output=True, text=True)
    if proc.returncode != 0 or not os.path.exists(log):
        sys.exit(f"Sarif.Multitool validate failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    with open(log, encoding="utf-8-sig") as f:
        validation = json.load(f)
    found = [r for run in validation["runs"] for r in run.get("results", [])]
    problems = [r for r in found if r.get("level", "warning") in ("error", "warning")]
    notes = {}
    for r in found:
        if r.get("level", "warning") not in ("error", "warning"):
            notes[r.get("ruleId")] = notes.get(r.get("ruleId"), 0) + 1
    for p in problems:
        msg = p.get("message", {})
        print(f"{p.get('level', 'warning')} {p.get('ruleId')}: {msg.get('text') or msg.get('arguments')}")
    for rule, n in sorted(notes.items()):
        print(f"note {rule}: {n}{'' if rule in ACCEPTED_NOTES else ' (not explained in docs/ci.md)'}")
    with open(outputs["sarif"], encoding="utf-8") as f:
        results = len(json.load(f)["runs"][0]["results"])
    errors = sum(1 for p in problems if p.get("level") == "error")
    print(f"Sarif.Multitool --rule-kind Sarif;Gh: {errors} errors, {len(problems) - errors} warnings, "
          f"{sum(notes.values())} notes on a log of {results} results")
    if problems or set(notes) - ACCEPTED_NOTES:
        sys.exit(1)


# ---- GitHub's limits on results ---------------------------------------------

def check_github_limits(tfsift, outdir):
    """Modules with N findings: each resource names an undeclared provider
    configuration (two findings each), on one line of a .tf.json."""
    def run(n):
        module = os.path.join(outdir, f"m{n}")
        os.makedirs(module)
        items = ",".join(f'"p{i}_thing":{{"r":{{"provider":"p{i}.alias"}}}}' for i in range((n + 1) // 2))
        with open(os.path.join(module, "main.tf.json"), "w", encoding="utf-8") as f:
            f.write('{"resource":{' + items + "}}")
        sarif = os.path.join(outdir, f"m{n}.sarif")
        proc = subprocess.run([tfsift, "lint", "--jobs", "1", "--output", "sarif:" + sarif, module],
                              capture_output=True, text=True)
        assert proc.returncode == 1, proc.stderr
        with open(sarif, encoding="utf-8") as f:
            results = len(json.load(f)["runs"][0]["results"])
        return results, [l for l in proc.stderr.splitlines() if l.startswith("tfsift: warning:")]

    results, warnings = run(100)
    assert results >= 100 and not warnings, warnings
    results, warnings = run(5_001)
    assert 5_000 < results <= 25_000, results
    assert len(warnings) == 1 and "keeps only the 5,000 most severe" in warnings[0], warnings
    print(f"{results} results: {warnings[0]}")
    results, warnings = run(25_001)
    assert results > 25_000, results
    assert len(warnings) == 1 and "rejects a run with more than 25,000" in warnings[0], warnings
    print(f"{results} results: {warnings[0]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tfsift", required=True)
    ap.add_argument("--check", choices=("xml", "sarif", "github-limits"), required=True)
    ap.add_argument("--build-dir", default="")
    ap.add_argument("paths", nargs="*")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="tfsift-reports-") as outdir:
        if args.check == "github-limits":
            check_github_limits(os.path.abspath(args.tfsift), outdir)
            return
        outputs, proc = lint(args.tfsift, args.paths, outdir)
        if args.check == "xml":
            check_xml(outputs)
        else:
            check_sarif(outputs, args.build_dir, outdir)


if __name__ == "__main__":
    main()
