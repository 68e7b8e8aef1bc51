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
  --check ci     the github, gitlab and rdjson reports follow their formats'
                 documented rules and schemas (written here from GitHub's
                 workflow-command documentation, GitLab's Code Quality field
                 list and reviewdog's DiagnosticResult JSON schema), and say
                 the same as the JSON report of the same run.
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


FORMATS = ("json", "sarif", "checkstyle", "junit", "github", "gitlab", "rdjson")
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


def check_sarif_shape(path, category=""):
    """What GitHub code scanning reads, checked independently of the validator
    (which skips some files it cannot deserialize without a word). CATEGORY is
    the --sarif-category of the run, if any."""
    with open(path, "rb") as f:
        raw = f.read()
    doc = json.loads(raw)
    assert doc["version"] == "2.1.0"
    run = doc["runs"][0]
    driver = run["tool"]["driver"]
    for key in ("name", "version", "rules"):
        assert key in driver, key
    # Links only to a home page the build was given (none by default).
    assert driver.get("informationUri", "https://").startswith("https://"), driver.get("informationUri")
    ids = [r["id"] for r in driver["rules"]]
    assert len(ids) == len(set(ids)), "duplicate rule ids"
    for r in driver["rules"]:
        for key in ("id", "name", "shortDescription", "fullDescription", "help", "defaultConfiguration"):
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
    return check_github_rules(doc, raw, category)


# Notes of Sarif.Multitool's rules that tfsift's reports cannot avoid, each
# explained in docs/ci.md ("What the SARIF validator says").
ACCEPTED_NOTES = {
    "SARIF2002",  # messages as text, not id + arguments
    "SARIF2003",  # no versionControlProvenance
    "SARIF2006",  # URIs not reachable from the test machine
    "SARIF2009",  # kebab-case rule ids
    "SARIF2010",  # no snippet where the region's text is over 1,024 bytes (docs/limits.md)
    "SARIF2011",  # no contextRegion where SARIF does not allow one
    "SARIF2016",  # absolute URIs for files outside the repository root
}
# Without a home page set when tfsift was built (-DTFSIFT_HOMEPAGE), a report
# names no URL of tfsift's: the driver has no informationUri (SARIF2005, a
# warning) and rules have no helpUri (SARIF2012, a note; each rule's full
# documentation is in help.markdown). Both are accepted only then.
NO_HOMEPAGE_WARNINGS = {"SARIF2005"}
NO_HOMEPAGE_NOTES = {"SARIF2012"}


def check_sarif(outputs, build_dir, outdir):
    print(f"SARIF shape and GitHub's rules: {check_sarif_shape(outputs['sarif'], SARIF_CATEGORY)} results checked")
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
    with open(outputs["sarif"], encoding="utf-8") as f:
        driver = json.load(f)["runs"][0]["tool"]["driver"]
    no_homepage = "informationUri" not in driver
    accepted_notes = ACCEPTED_NOTES | (NO_HOMEPAGE_NOTES if no_homepage else set())
    if no_homepage:
        assert not any("helpUri" in rule for rule in driver.get("rules", [])), "a helpUri without a home page"
        assert all(rule.get("help", {}).get("markdown") for rule in driver.get("rules", [])), \
            "a rule without its documentation in help.markdown"
    problems = [r for r in found if r.get("level", "warning") in ("error", "warning")
                and not (no_homepage and r.get("ruleId") in NO_HOMEPAGE_WARNINGS)]
    notes = {}
    for r in found:
        if r.get("level", "warning") not in ("error", "warning"):
            notes[r.get("ruleId")] = notes.get(r.get("ruleId"), 0) + 1
    for p in problems:
        msg = p.get("message", {})
        print(f"{p.get('level', 'warning')} {p.get('ruleId')}: {msg.get('text') or msg.get('arguments')}")
    for rule, n in sorted(notes.items()):
        print(f"note {rule}: {n}{'' if rule in accepted_notes else ' (not explained in docs/ci.md)'}")
    with open(outputs["sarif"], encoding="utf-8") as f:
        results = len(json.load(f)["runs"][0]["results"])
    errors = sum(1 for p in problems if p.get("level") == "error")
    print(f"Sarif.Multitool --rule-kind Sarif;Gh: {errors} errors, {len(problems) - errors} warnings, "
          f"{sum(notes.values())} notes on a log of {results} results")
    if no_homepage:
        print("no home page configured: SARIF2005 (no informationUri) and SARIF2012 (no helpUri) accepted")
    if problems or set(notes) - accepted_notes:
        sys.exit(1)


# ---- github, gitlab, rdjson --------------------------------------------------

def validate(value, schema, where="$"):
    """The subset of JSON Schema the schemas below use: type, properties,
    required, enum, items, minimum, minLength."""
    kinds = {"object": dict, "array": list, "string": str, "boolean": bool}
    t = schema.get("type")
    if t == "integer":
        assert isinstance(value, int) and not isinstance(value, bool), (where, value)
    elif t is not None:
        assert isinstance(value, kinds[t]), (where, t, value)
    if "enum" in schema:
        assert value in schema["enum"], (where, value)
    if "minimum" in schema:
        assert value >= schema["minimum"], (where, value)
    if "minLength" in schema:
        assert len(value) >= schema["minLength"], (where, value)
    for key in schema.get("required", []):
        assert key in value, (where, "missing", key)
    for key, sub in schema.get("properties", {}).items():
        if isinstance(value, dict) and key in value:
            validate(value[key], sub, f"{where}.{key}")
    if "items" in schema:
        for i, item in enumerate(value):
            validate(item, schema["items"], f"{where}[{i}]")


# reviewdog's DiagnosticResult (proto/rdf/jsonschema/DiagnosticResult.json),
# with what its field comments call required made required; tfsift writes
# severities as names.
RD_POSITION = {"type": "object", "required": ["line", "column"],
               "properties": {"line": {"type": "integer", "minimum": 1}, "column": {"type": "integer", "minimum": 1}}}
RD_RANGE = {"type": "object", "required": ["start"], "properties": {"start": RD_POSITION, "end": RD_POSITION}}
RD_LOCATION = {"type": "object", "required": ["path"],
               "properties": {"path": {"type": "string", "minLength": 1}, "range": RD_RANGE}}
RD_SCHEMA = {
    "type": "object", "required": ["diagnostics"],
    "properties": {
        "source": {"type": "object", "required": ["name"],
                   "properties": {"name": {"type": "string"}, "url": {"type": "string"}}},
        "diagnostics": {"type": "array", "items": {
            "type": "object", "required": ["message", "location"],
            "properties": {
                "message": {"type": "string", "minLength": 1},
                "location": RD_LOCATION,
                "severity": {"enum": ["UNKNOWN_SEVERITY", "ERROR", "WARNING", "INFO"]},
                "code": {"type": "object", "required": ["value"],
                         "properties": {"value": {"type": "string"}, "url": {"type": "string"}}},
                "suggestions": {"type": "array", "items": {
                    "type": "object", "required": ["range", "text"],
                    "properties": {"range": RD_RANGE, "text": {"type": "string"}}}},
                "related_locations": {"type": "array", "items": {
                    "type": "object", "required": ["location"],
                    "properties": {"message": {"type": "string"}, "location": RD_LOCATION}}},
            }}},
    },
}

# GitLab's Code Quality report: "an array of objects" with description,
# check_name, fingerprint (unique), severity (info, minor, major, critical,
# blocker), location.path (relative, in the repository) and
# location.lines.begin; Code Climate's type and categories besides.
GITLAB_SCHEMA = {"type": "array", "items": {
    "type": "object",
    "required": ["description", "check_name", "fingerprint", "severity", "location"],
    "properties": {
        "type": {"enum": ["issue"]},
        "description": {"type": "string", "minLength": 1},
        "check_name": {"type": "string", "minLength": 1},
        "fingerprint": {"type": "string", "minLength": 1},
        "severity": {"enum": ["info", "minor", "major", "critical", "blocker"]},
        "categories": {"type": "array", "items": {"enum": [
            "Bug Risk", "Clarity", "Compatibility", "Complexity", "Duplication", "Performance", "Security", "Style"]}},
        "location": {"type": "object", "required": ["path", "lines"], "properties": {
            "path": {"type": "string", "minLength": 1},
            "lines": {"type": "object", "required": ["begin"], "properties": {
                "begin": {"type": "integer", "minimum": 1}, "end": {"type": "integer", "minimum": 1}}}}},
    }}}

# GitHub's workflow commands: "::LEVEL key=value,...::message" on one line;
# values escape % CR LF : , and the message % CR LF.
GITHUB_COMMAND = re.compile(r"^::(error|warning|notice) ((?:[a-zA-Z]+=[^,:\r\n]*)(?:,[a-zA-Z]+=[^,:\r\n]*)*)::([^\r\n]*)$")
GITHUB_PROPERTIES = {"file", "line", "endLine", "col", "endColumn", "title"}


def unescape(text):
    return re.sub(r"%(25|0D|0A|3A|2C)", lambda m: {"25": "%", "0D": "\r", "0A": "\n", "3A": ":", "2C": ","}[m.group(1)], text)


def visible(text):
    """Control characters as the text report and workflow commands show them
    (report::escape_control_characters)."""
    out = []
    for ch in text:
        c = ord(ch)
        if (c < 0x20 and ch not in "\t\n") or c == 0x7F:
            out.append(f"\\x{c:02X}")
        elif 0x80 <= c < 0xA0:
            out.append(f"\\u{c:04X}")
        else:
            out.append(ch)
    return "".join(out)


def check_ci_formats(outputs, repository_root):
    with open(outputs["json"], encoding="utf-8") as f:
        findings = json.load(f)["findings"]
    severity = {"error": "error", "warning": "warning", "notice": "notice"}

    # github: one command per finding, in the JSON report's order.
    with open(outputs["github"], encoding="utf-8") as f:
        lines = f.read().split("\n")
    assert lines[-1] == "", "the github report ends with a line break"
    lines = lines[:-1]
    assert len(lines) == len(findings), (len(lines), len(findings))
    for line, finding in zip(lines, findings):
        m = GITHUB_COMMAND.match(line)
        assert m, line
        assert m.group(1) == severity[finding["severity"]], line
        props = dict(p.split("=", 1) for p in m.group(2).split(","))
        assert set(props) <= GITHUB_PROPERTIES and {"file", "line", "title"} <= set(props), props
        assert unescape(props["title"]) == finding["rule"]
        path = unescape(props["file"])
        absolute = os.path.normpath(os.path.join(os.getcwd(), finding["location"]["path"]))
        assert path == os.path.relpath(absolute, repository_root) or path == absolute, (path, absolute)
        assert int(props["line"]) == finding["location"]["start"]["line"]
        assert int(props["endLine"]) >= int(props["line"])
        assert ("col" in props) == ("endColumn" in props) == (props["line"] == props["endLine"]), props
        # The message, control characters made visible, then one line per
        # related location.
        message = unescape(m.group(3))
        expected = visible(finding["message"])
        assert message.startswith(expected), (message, expected)
        rest = message[len(expected):]
        assert rest.count("\n") == len(finding["related"]) and (not rest or rest.startswith("\n")), (message, finding)
    print(f"github: {len(lines)} workflow commands")

    # gitlab: the schema, fingerprints unique, one issue per finding.
    with open(outputs["gitlab"], encoding="utf-8") as f:
        issues = json.load(f)
    validate(issues, GITLAB_SCHEMA)
    assert len(issues) == len(findings)
    assert len({i["fingerprint"] for i in issues}) == len(issues), "duplicate fingerprints"
    for issue, finding in zip(issues, findings):
        assert issue["check_name"] == finding["rule"]
        assert issue["location"]["lines"]["begin"] == finding["location"]["start"]["line"]
        # Relative to the repository's root, as GitLab wants it.
        absolute = os.path.normpath(os.path.join(os.getcwd(), finding["location"]["path"]))
        assert issue["location"]["path"] in (os.path.relpath(absolute, repository_root), absolute), issue
    print(f"gitlab: {len(issues)} issues, fingerprints unique")

    # rdjson: the schema; paths as the JSON report's; byte columns.
    with open(outputs["rdjson"], encoding="utf-8") as f:
        result = json.load(f)
    validate(result, RD_SCHEMA)
    diagnostics = result["diagnostics"]
    assert len(diagnostics) == len(findings)
    texts = {}
    for d, finding in zip(diagnostics, findings):
        loc = finding["location"]
        assert d["code"]["value"] == finding["rule"]
        assert d["location"]["path"] == loc["path"], (d["location"]["path"], loc["path"])
        start = d["location"]["range"]["start"]
        assert start["line"] == loc["start"]["line"]
        path = loc["path"]
        if path not in texts:
            try:
                with open(path, "rb") as f:
                    texts[path] = f.read()
            except OSError:
                texts[path] = None
        data = texts[path]
        if data is not None and loc["start"]["byte"] <= len(data):
            line_start = data.rfind(b"\n", 0, loc["start"]["byte"]) + 1
            assert start["column"] == loc["start"]["byte"] - line_start + 1, (path, start, loc["start"])
    print(f"rdjson: {len(diagnostics)} diagnostics match reviewdog's schema")


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
        # provider-alias-undeclared is in the strict preset.
        proc = subprocess.run([tfsift, "lint", "--jobs", "1", "--preset", "strict", "--output", "sarif:" + sarif, module],
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
    ap.add_argument("--check", choices=("xml", "sarif", "ci", "github-limits"), required=True)
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
        elif args.check == "ci":
            check_ci_formats(outputs, repository_root(args.paths[0]))
        else:
            check_sarif(outputs, args.build_dir, outdir)


def repository_root(path):
    """The nearest directory holding .git above PATH, as tfsift finds it."""
    d = os.path.abspath(path)
    if not os.path.isdir(d):
        d = os.path.dirname(d)
    start = d
    while True:
        if os.path.exists(os.path.join(d, ".git")):
            return d
        parent = os.path.dirname(d)
        if parent == d:
            return start
        d = parent


if __name__ == "__main__":
    main()
