#!/usr/bin/env python3
"""Checks tfsift's machine-readable reports on real runs.

  --check xml    checkstyle and JUnit XML are well-formed (xml.etree) and hold
                 one entry per finding of the JSON report of the same run.
  --check sarif  Microsoft's SARIF validator (Sarif.Multitool validate) reports
                 0 errors and 0 warnings. The validator is looked up in
                 $SARIF_MULTITOOL, then in BUILD_DIR/node_modules (where .ci/run
                 installs it with npm); without it the test is skipped (exit 77).

Every PATH is linted with `tfsift lint --recursive`; one scan writes all
formats through --output.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

SKIP = 77


def lint(tfsift, paths, outdir):
    outputs = {fmt: os.path.join(outdir, "report." + fmt) for fmt in ("json", "sarif", "checkstyle", "junit")}
    cmd = [tfsift, "lint", "--recursive", "--minimum-failure-severity", "error"]
    for fmt, path in outputs.items():
        cmd += ["--output", f"{fmt}:{path}"]
    cmd += paths
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        sys.exit(f"tfsift failed with exit code {proc.returncode}:\n{proc.stderr}")
    return outputs, proc.returncode


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


def check_sarif_shape(path):
    """What GitHub code scanning reads, checked independently of the validator
    (which skips some files it cannot deserialize without a word)."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
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
    assert run["automationDetails"]["id"]
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
    return len(run["results"])


def check_sarif(outputs, build_dir, outdir):
    print(f"SARIF shape as GitHub reads it: {check_sarif_shape(outputs['sarif'])} results checked")
    tool = find_multitool(build_dir)
    if tool is None:
        print("Sarif.Multitool not found (set SARIF_MULTITOOL or run .ci/run): skipped")
        sys.exit(SKIP)
    log = os.path.join(outdir, "validation.sarif")
    proc = subprocess.run([tool, "validate", "--output", log, outputs["sarif"]], capture_output=True, text=True)
    if proc.returncode != 0 or not os.path.exists(log):
        sys.exit(f"Sarif.Multitool validate failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    with open(log, encoding="utf-8-sig") as f:
        validation = json.load(f)
    problems = [r for run in validation["runs"] for r in run.get("results", [])
                if r.get("level", "warning") in ("error", "warning")]
    for p in problems:
        msg = p.get("message", {})
        print(f"{p.get('level', 'warning')} {p.get('ruleId')}: {msg.get('text') or msg.get('arguments')}")
    with open(outputs["sarif"], encoding="utf-8") as f:
        results = len(json.load(f)["runs"][0]["results"])
    errors = sum(1 for p in problems if p.get("level") == "error")
    print(f"Sarif.Multitool: {errors} errors, {len(problems) - errors} warnings on a log of {results} results")
    if problems:
        sys.exit(1)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tfsift", required=True)
    ap.add_argument("--check", choices=("xml", "sarif"), required=True)
    ap.add_argument("--build-dir", default="")
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="tfsift-reports-") as outdir:
        outputs, _ = lint(args.tfsift, args.paths, outdir)
        if args.check == "xml":
            check_xml(outputs)
        else:
            check_sarif(outputs, args.build_dir, outdir)


if __name__ == "__main__":
    main()
