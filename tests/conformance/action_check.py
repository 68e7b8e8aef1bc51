#!/usr/bin/env python3
"""The GitHub Action and the container, as far as this machine allows.

action.yml is read as YAML and checked for the steps and inputs it promises;
its shell steps are run with bash against the local build, with the
variables a GitHub runner sets (GITHUB_ACTION_PATH, GITHUB_OUTPUT,
GITHUB_PATH, RUNNER_TEMP) and the step's `env:` filled in from the inputs,
on a clean module, a module with findings and bad arguments. The Dockerfile
is checked for its stages, the shared build script and the unprivileged
user; the scripts its stages run are run here on the local build. Building
the image itself needs the debian:12 image and a Docker daemon: it is done
only when both are there.

    action_check.py --source DIR --tfsift BUILD/tfsift
"""

import argparse
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading

import yaml

FAILURES = []
# The `github` context of the simulated run (github.event_name, ...); what a
# run does not set reads as empty, as on GitHub.
GITHUB = {}


def check(condition, message):
    if not condition:
        FAILURES.append(message)
        print(f"FAIL: {message}")
    return condition


def expand(text, inputs, outputs):
    """Replaces ${{ inputs.X }} and ${{ steps.ID.outputs.Y }} as the runner would."""
    return re.sub(r"\$\{\{(.*?)\}\}", lambda m: resolve(m.group(1), inputs, outputs), str(text))


def resolve(expression, inputs, outputs):
    expression = expression.strip()
    if expression.startswith("inputs."):
        return inputs[expression[len("inputs."):]]
    if expression.startswith("github."):
        return GITHUB.get(expression[len("github."):], "")
    step = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expression)
    if step:
        return outputs.get(step.group(1), {}).get(step.group(2), "")
    raise ValueError(f"unexpected expression {expression}")


def holds(condition, inputs, outputs):
    """Evaluates the `if:` conditions action.yml uses: terms joined by &&,
    each always() or EXPRESSION ==/!= 'literal'."""
    body = condition.strip()
    if body.startswith("${{") and body.endswith("}}"):
        body = body[3:-2]
    for term in body.split("&&"):
        term = term.strip()
        if term == "always()":
            continue
        match = re.fullmatch(r"(\S+)\s*(==|!=)\s*'([^']*)'", term)
        if not match:
            raise ValueError(f"unexpected condition term {term!r}")
        value = resolve(match.group(1), inputs, outputs)
        if (value == match.group(3)) != (match.group(2) == "=="):
            return False
    return True


def read_outputs(path):
    outputs = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                if "=" in line:
                    key, value = line.rstrip("\n").split("=", 1)
                    outputs[key] = value
    return outputs


def run_action(source, action, inputs, workdir, path=None, env_extra=None, github=None):
    """Runs the action's shell steps in order; returns (results, outputs).

    A step with `if:` runs when its condition, evaluated for the cases this
    action uses, holds; `uses:` steps are recorded, not run. `github` sets
    the github context (server_url, event_name, ...).
    """
    GITHUB.clear()
    GITHUB.update({"server_url": "https://github.example", "repository": "o/r", "event_name": "push", "actor": "u"})
    GITHUB.update(github or {})
    runner = tempfile.mkdtemp(prefix="runner-")
    github_output = os.path.join(runner, "output")
    github_path = os.path.join(runner, "path")
    open(github_path, "w").close()
    outputs = {}  # by step id
    results = []
    for step in action["runs"]["steps"]:
        condition = step.get("if")
        if condition is not None and not holds(condition, inputs, outputs):
            results.append((step.get("name"), "skipped", None))
            continue
        if "uses" in step:
            results.append((step.get("name"), "uses", {k: expand(v, inputs, outputs) for k, v in step.get("with", {}).items()}))
            continue
        env = dict(os.environ)
        with open(github_path, encoding="utf-8") as f:
            extra_path = [line.strip() for line in f if line.strip()]
        env["PATH"] = os.pathsep.join(extra_path + [path or env["PATH"]])
        env.update({
            "GITHUB_ACTION_PATH": source,
            "GITHUB_OUTPUT": github_output,
            "GITHUB_PATH": github_path,
            "RUNNER_TEMP": runner,
            "GITHUB_WORKSPACE": workdir,
        })
        env.update(env_extra or {})
        for key, value in step.get("env", {}).items():
            env[key] = expand(value, inputs, outputs)
        cwd = os.path.join(workdir, expand(step.get("working-directory", "."), inputs, outputs))
        open(github_output, "w").close()
        proc = subprocess.run(["bash", "-e", "-c", expand(step["run"], inputs, outputs)], cwd=cwd, env=env,
                              capture_output=True, text=True, timeout=120, check=False)
        if step.get("id"):
            outputs[step["id"]] = read_outputs(github_output)
        results.append((step.get("name"), proc.returncode, proc.stdout + proc.stderr))
        if proc.returncode != 0:
            break
    shutil.rmtree(runner, ignore_errors=True)
    # Every step's outputs in one dictionary (their names differ).
    return results, {k: v for step_outputs in outputs.values() for k, v in step_outputs.items()}


def check_action(source, tfsift):
    with open(os.path.join(source, "action.yml"), encoding="utf-8") as f:
        action = yaml.safe_load(f)
    runs = action.get("runs", {})
    check(runs.get("using") == "composite", "action.yml is not a composite action")
    steps = runs.get("steps", [])
    names = [s.get("name") for s in steps]
    check(names == ["Set up tfsift", "Run tfsift lint", "Check the code scanning permission",
                     "Upload SARIF to code scanning", "Review lock-file changes", "Fail on findings"],
          f"unexpected steps {names}")
    declared = set(action.get("inputs", {}))
    text = open(os.path.join(source, "action.yml"), encoding="utf-8").read()
    used = set(re.findall(r"inputs\.([\w-]+)", text))
    check(used == declared, f"inputs declared {sorted(declared)} but used {sorted(used)}")
    for step in steps:
        if "run" in step:
            check(step.get("shell") == "bash", f"step '{step.get('name')}' has no shell: bash")
            for script in re.findall(r"\$GITHUB_ACTION_PATH/([\w/.-]+)", step["run"]):
                check(os.path.isfile(os.path.join(source, script)), f"step '{step.get('name')}' runs missing {script}")
    upload = [s for s in steps if "uses" in s]
    check(len(upload) == 1 and upload[0]["uses"].startswith("github/codeql-action/upload-sarif@"),
          "no github/codeql-action/upload-sarif step")
    if upload:
        check(upload[0].get("with", {}).get("sarif_file") == "${{ steps.lint.outputs.sarif-file }}",
              "the upload step does not upload the lint step's SARIF file")
    defaults = {k: str(v.get("default", "")) for k, v in action.get("inputs", {}).items()}

    work = tempfile.mkdtemp(prefix="action-")
    try:
        # A repository with a clean module and one with a finding.
        subprocess.run(["git", "init", "-q", work], check=True)
        clean = os.path.join(work, "clean")
        shutil.copytree(os.path.join(source, "docs", "examples", "basic"), clean)
        dirty = os.path.join(work, "dirty")
        os.makedirs(dirty)
        with open(os.path.join(dirty, "main.tf"), "w", encoding="utf-8") as f:
            f.write('variable "a" {}\nvariable "a" {}\n')
        baseline = subprocess.run([tfsift, "lint", "clean"], cwd=work, capture_output=True, check=False).returncode

        for case, args, expected_status in (("clean module", "clean", baseline),
                                            ("module with findings", "--recursive dirty", 1),
                                            ("bad arguments", "--format nonsense clean", 2)):
            inputs = dict(defaults, tfsift=tfsift, args=args)
            results, outputs = run_action(source, action, inputs, work)
            by_name = {name: (status, detail) for name, status, detail in results}
            print(f"{case}: " + ", ".join(f"{name}: {status}" for name, status, _ in results))
            check(by_name.get("Set up tfsift", (None,))[0] == 0, f"{case}: the setup step failed: {by_name.get('Set up tfsift')}")
            lint_status, lint_log = by_name.get("Run tfsift lint", (None, ""))
            if expected_status == 2:
                check(lint_status == 2, f"{case}: the lint step exited {lint_status}, not 2")
                check("Upload SARIF to code scanning" not in by_name, f"{case}: steps ran after a failed lint step")
                continue
            check(lint_status == 0, f"{case}: the lint step exited {lint_status}: {lint_log}")
            check(outputs.get("exit-code") == str(expected_status),
                  f"{case}: exit-code output {outputs.get('exit-code')}, expected {expected_status}")
            sarif = outputs.get("sarif-file", "")
            if check(os.path.isfile(sarif), f"{case}: no SARIF report at '{sarif}'"):
                with open(sarif, encoding="utf-8") as f:
                    report = json.load(f)
                check(report.get("version") == "2.1.0", f"{case}: SARIF version {report.get('version')}")
                results_count = sum(len(r.get("results", [])) for r in report.get("runs", []))
                check((results_count > 0) == (expected_status == 1) or expected_status == 0,
                      f"{case}: {results_count} SARIF results for exit {expected_status}")
                os.remove(sarif)
            upload_status, upload_with = by_name.get("Upload SARIF to code scanning", (None, {}))
            check(upload_status == "uses" and upload_with.get("sarif_file") == sarif and upload_with.get("category") == "tfsift",
                  f"{case}: the upload step would not upload {sarif}: {upload_with}")
            fail_status = by_name.get("Fail on findings", (None,))[0]
            if expected_status == 1:
                check(fail_status == 1, f"{case}: 'Fail on findings' gave {fail_status}, expected to fail the job")
                check("duplicate" in lint_log or "dirty/main.tf" in lint_log,
                      f"{case}: the lint step's log does not show the finding: {lint_log}")
            else:
                check(fail_status == "skipped", f"{case}: 'Fail on findings' ran on a clean module")
            check(by_name.get("Review lock-file changes", (None,))[0] == "skipped",
                  f"{case}: the lock review ran without the lock-review input")
        check_lock_review(source, action, defaults, tfsift, work)
        # The lint step runs offline unless told otherwise: a wrapper records
        # the arguments each run of tfsift gets.
        calls = os.path.join(work, "calls.log")
        wrapper = os.path.join(work, "tfsift-wrapper")
        with open(wrapper, "w", encoding="utf-8") as f:
            f.write(f'#!/bin/sh\necho "$*" >> "{calls}"\nexec "{tfsift}" "$@"\n')
        os.chmod(wrapper, 0o755)
        for offline, expected in (("true", True), ("false", False)):
            open(calls, "w").close()
            inputs = dict(defaults, tfsift=wrapper, args="clean", offline=offline)
            run_action(source, action, inputs, work)
            with open(calls, encoding="utf-8") as f:
                lint_calls = [line.split() for line in f if line.startswith("lint ")]
            check(len(lint_calls) == 1 and ("--offline" in lint_calls[0]) == expected,
                  f"offline={offline}: the lint step ran {lint_calls}")
        check(defaults.get("offline") == "true", f"the offline input defaults to {defaults.get('offline')!r}")
        # A `tfsift` input that is not a program is refused by name.
        inputs = dict(defaults, tfsift=os.path.join(work, "no-such-tfsift"), args="clean")
        results, _ = run_action(source, action, inputs, work)
        check(results and results[0][1] == 2 and "no-such-tfsift" in results[0][2],
              f"a missing tfsift input was not refused by name: {results[:1]}")
        check_fork_pull_request(source, action, defaults, tfsift, work)
        check_release_download(source, action, defaults, tfsift, work)
        # With build: true the container is built: on a runner with no
        # Docker that is refused with a message saying what to do instead.
        plain_path = "/usr/bin:/bin"
        if shutil.which("docker", path=plain_path) is None:
            inputs = dict(defaults, args="clean", build="true")
            results, _ = run_action(source, action, inputs, work, path=plain_path)
            check(results and results[0][1] == 2 and "needs Docker" in results[0][2],
                  f"a runner without Docker was not told so: {results[:1]}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def check_fork_pull_request(source, action, defaults, tfsift, work):
    """A pull request from a fork: its token cannot write security events,
    so the upload is skipped with a notice; the findings still fail the job.
    The same repository's pull request uploads."""
    for head, uploads in (("someone/r", False), ("o/r", True)):
        github = {"event_name": "pull_request", "event.pull_request.head.repo.full_name": head}
        inputs = dict(defaults, tfsift=tfsift, args="--recursive dirty")
        results, _ = run_action(source, action, inputs, work, github=github)
        by_name = {name: (status, detail) for name, status, detail in results}
        permission_status, permission_log = by_name.get("Check the code scanning permission", (None, ""))
        check(permission_status == 0, f"pull request from {head}: the permission step gave {permission_status}")
        upload_status = by_name.get("Upload SARIF to code scanning", (None,))[0]
        if uploads:
            check(upload_status == "uses", f"pull request from {head}: the SARIF was not uploaded ({upload_status})")
        else:
            check(upload_status == "skipped", f"pull request from the fork {head}: the upload was not skipped")
            check("::notice" in permission_log and "fork" in permission_log,
                  f"pull request from the fork {head}: no notice says why: {permission_log}")
        check(by_name.get("Fail on findings", (None,))[0] == 1,
              f"pull request from {head}: the findings did not fail the job")


def check_release_download(source, action, defaults, tfsift, work):
    """Without the tfsift and build inputs the action downloads the release
    tarball of its version from the releases of the repository it comes from
    (a local web server here) and checks it against SHA256SUMS."""
    version = "0.1.0"
    name = f"tfsift-{version}-linux-x86_64"
    served = os.path.join(work, "served")
    release = os.path.join(served, "o", "tfsift", "releases", "download", f"v{version}")
    stage = os.path.join(work, "stage", name)
    os.makedirs(os.path.join(stage, "bin"))
    os.makedirs(release)
    marker = os.path.join(work, "downloaded-tfsift-ran")
    with open(os.path.join(stage, "bin", "tfsift"), "w", encoding="utf-8") as f:
        f.write(f'#!/bin/sh\ntouch "{marker}"\nexec "{tfsift}" "$@"\n')
    os.chmod(os.path.join(stage, "bin", "tfsift"), 0o755)
    tarball = os.path.join(release, f"{name}.tar.gz")
    subprocess.run(["tar", "-czf", tarball, "-C", os.path.dirname(stage), name], check=True)

    def write_sums(digest=None):
        if digest is None:
            digest = subprocess.run(["sha256sum", tarball], capture_output=True, text=True, check=True).stdout.split()[0]
        with open(os.path.join(release, "SHA256SUMS"), "w", encoding="utf-8") as f:
            f.write(f"{digest}  {name}.tar.gz\n{'0' * 64}  tfsift_{version}_amd64.deb\n")

    write_sums()
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=served, **kwargs)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    github = {"server_url": url, "action_repository": "o/tfsift", "action_ref": "main"}
    try:
        for case, extra, context, expected in (
                ("the version input", {"version": version}, {}, 0),
                ("the action's release tag", {}, {"action_ref": f"v{version}"}, 0),
                ("release-url", {"version": f"v{version}", "release-url": f"{url}/o/tfsift/releases/download/"},
                 {"server_url": "", "action_repository": ""}, 0),
                ("no version at a branch", {}, {}, "version input"),
                ("a version that is no release", {"version": "9.9.9"}, {}, "cannot download"),
                ("a version that is no version", {"version": "latest; rm -rf /"}, {}, "not a release version")):
            if os.path.exists(marker):
                os.remove(marker)
            inputs = dict(defaults, args="clean", **extra)
            results, outputs = run_action(source, action, inputs, work, github=dict(github, **context))
            status, log = results[0][1], results[0][2]
            if expected == 0:
                check(status == 0 and "from " + url in log, f"download, {case}: the setup step gave {status}: {log}")
                check(os.path.exists(marker), f"download, {case}: the lint did not run the downloaded tfsift")
                check(outputs.get("exit-code") is not None, f"download, {case}: the lint step did not run: {results}")
            else:
                check(status == 2 and expected in log, f"download, {case}: expected a refusal naming '{expected}': {status} {log}")
        # A tarball that does not match SHA256SUMS is refused and not run.
        write_sums("f" * 64)
        if os.path.exists(marker):
            os.remove(marker)
        results, _ = run_action(source, action, dict(defaults, args="clean", version=version), work, github=github)
        check(results[0][1] == 2 and "does not match the SHA256SUMS" in results[0][2] and len(results) == 1,
              f"download: a tarball that does not match SHA256SUMS was not refused: {results[:1]}")
        check(not os.path.exists(marker), "download: a tarball that does not match SHA256SUMS was run")
    finally:
        server.shutdown()
        server.server_close()


class GitHubStub(http.server.ThreadingHTTPServer):
    """The issue-comment endpoints of the GitHub API, in memory."""

    def __init__(self):
        super().__init__(("127.0.0.1", 0), GitHubStubHandler)
        self.comments = []
        self.calls = []
        self.tokens = set()


class GitHubStubHandler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, status, doc):
        data = json.dumps(doc).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def handle_call(self, method):
        stub = self.server
        stub.calls.append((method, self.path))
        stub.tokens.add(self.headers.get("Authorization", ""))
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"null")
        path = self.path.split("?")[0]
        if method == "GET" and path == "/repos/o/r/issues/7/comments":
            page = int(re.search(r"[?&]page=(\d+)", self.path).group(1))
            return self.reply(200, stub.comments[(page - 1) * 100:page * 100])
        if method == "POST" and path == "/repos/o/r/issues/7/comments":
            stub.comments.append({"id": 100 + len(stub.comments), "body": body["body"]})
            return self.reply(201, stub.comments[-1])
        match = re.fullmatch(r"/repos/o/r/issues/comments/(\d+)", path)
        if method == "PATCH" and match:
            for c in stub.comments:
                if c["id"] == int(match.group(1)):
                    c["body"] = body["body"]
                    return self.reply(200, c)
        return self.reply(404, {"message": "Not Found"})

    def do_GET(self):
        self.handle_call("GET")

    def do_POST(self):
        self.handle_call("POST")

    def do_PATCH(self):
        self.handle_call("PATCH")


def check_lock_review(source, action, defaults, tfsift, work):
    """The lock-review input on a pull request: the review of the lock-file
    change against the base branch is posted as one comment, and updated in
    place by the next run (GitHub's API stubbed on 127.0.0.1; offline, so no
    registry is needed). Outside a pull request the step does nothing."""
    repo = os.path.join(work, "pr")
    os.makedirs(repo)
    git_env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.invalid", GIT_COMMITTER_NAME="t",
                   GIT_COMMITTER_EMAIL="t@example.invalid")
    lock = os.path.join(repo, ".terraform.lock.hcl")

    def write_lock(version):
        with open(lock, "w", encoding="utf-8") as f:
            f.write(f'provider "registry.terraform.io/hashicorp/null" {{\n  version = "{version}.0.0"\n'
                    f'  hashes = ["zh:{version * 64}"]\n}}\n')

    def git(*args):
        subprocess.run(["git", "-C", repo, *args], env=git_env, check=True, capture_output=True)

    git("init", "-q")
    write_lock("1")
    git("add", "-A")
    git("commit", "-q", "-m", "base")
    git("update-ref", "refs/remotes/origin/main", "HEAD")
    write_lock("2")
    git("commit", "-q", "-a", "-m", "upgrade")
    event = os.path.join(work, "event.json")
    with open(event, "w", encoding="utf-8") as f:
        json.dump({"pull_request": {"number": 7}}, f)
    stub = GitHubStub()
    thread = threading.Thread(target=stub.serve_forever, daemon=True)
    thread.start()
    token = "ghs_lockreviewtoken"
    env = {"GITHUB_EVENT_NAME": "pull_request", "GITHUB_BASE_REF": "main", "GITHUB_EVENT_PATH": event,
           "GITHUB_REPOSITORY": "o/r", "GITHUB_API_URL": f"http://127.0.0.1:{stub.server_address[1]}",
           "TFSIFT_OFFLINE": "1"}
    inputs = dict(defaults, tfsift=tfsift, args=".")
    inputs.update({"working-directory": "pr", "lock-review": "true", "github-token": token})
    try:
        for attempt in (1, 2):
            results, outputs = run_action(source, action, inputs, work, env_extra=env)
            by_name = {name: (status, detail) for name, status, detail in results}
            status, log = by_name.get("Review lock-file changes", (None, ""))
            check(status == 0, f"lock review run {attempt}: the step exited {status}: {log}")
            check(outputs.get("lock-review-exit-code") == "0", f"lock review run {attempt}: outputs {outputs}")
            check(token not in log, f"lock review run {attempt}: the token is in the log")
            check("upgraded" in log, f"lock review run {attempt}: the log does not show the change: {log}")
            check(len(stub.comments) == 1 and stub.comments[0]["body"].startswith("<!-- tfsift lock review -->"),
                  f"lock review run {attempt}: comments {stub.comments}")
        methods = [m for m, _ in stub.calls]
        check(methods.count("POST") == 1 and methods.count("PATCH") == 1,
              f"lock review: expected one post, then one update: {stub.calls}")
        check(stub.tokens == {f"Bearer {token}"}, f"lock review: the API was called with {stub.tokens}")
        body = stub.comments[0]["body"] if stub.comments else ""
        check("hashicorp/null" in body and "Offline" in body, f"lock review: the comment: {body}")
        env["GITHUB_EVENT_NAME"] = "push"
        results, outputs = run_action(source, action, inputs, work, env_extra=env)
        status, log = {n: (s, d) for n, s, d in results}.get("Review lock-file changes", (None, ""))
        check(status == 0 and "not a pull request" in log and len(stub.calls) == 4,
              f"lock review on a push: {status} {log} {stub.calls}")
    finally:
        stub.shutdown()
        stub.server_close()


def check_dockerfile(source, tfsift):
    with open(os.path.join(source, "Dockerfile"), encoding="utf-8") as f:
        lines = [line.rstrip("\n") for line in f]
    # Join continuation lines into instructions.
    instructions, current = [], ""
    for line in lines:
        if line.lstrip().startswith("#") or not line.strip():
            continue
        current += line.rstrip("\\").strip() + " "
        if not line.endswith("\\"):
            instructions.append(current.strip())
            current = ""
    froms = [i for i in instructions if i.upper().startswith("FROM ")]
    check(len(froms) >= 2 and all(f.split()[1] == "debian:12" for f in froms),
          f"the Dockerfile is not multi-stage on debian:12: {froms}")
    last_stage = instructions[instructions.index(froms[-1]):]
    users = [i.split()[1] for i in last_stage if i.upper().startswith("USER ")]
    check(users and users[-1] not in ("root", "0"), f"the run stage does not switch to an unprivileged user: {users}")
    runs = " ".join(i for i in instructions if i.upper().startswith("RUN "))
    check("scripts/build.sh --install-packages" in runs, "the build stage does not run scripts/build.sh")
    check(any(i.startswith("ENTRYPOINT") and "tfsift" in i for i in last_stage), "no tfsift ENTRYPOINT")
    ci = open(os.path.join(source, ".ci", "run"), encoding="utf-8").read()
    check(re.search(r"^scripts/build\.sh ", ci, re.M) is not None, ".ci/run does not build with scripts/build.sh")

    # The build script: a usage error names the usage; the runtime package
    # list of the local build names installed runtime packages only.
    usage = subprocess.run(["bash", os.path.join(source, "scripts", "build.sh")], capture_output=True, text=True, check=False)
    check(usage.returncode == 2 and "usage: scripts/build.sh" in usage.stderr, f"build.sh without arguments: {usage.returncode}")
    packages = subprocess.run(["bash", os.path.join(source, "scripts", "runtime-packages.sh"), tfsift],
                              capture_output=True, text=True, check=False)
    names = packages.stdout.split()
    check(packages.returncode == 0 and "libc6" in names and "libre2-9" in names and "libcurl4" in names
          and "librnp0" in names,
          f"runtime-packages.sh: {packages.returncode} {names} {packages.stderr}")
    check(not [n for n in names if n.endswith("-dev")], f"runtime-packages.sh names -dev packages: {names}")
    for name in names:
        status = subprocess.run(["dpkg-query", "-W", "-f", "${Status}", name], capture_output=True, text=True, check=False)
        check(status.stdout.endswith("installed"), f"runtime package {name} is not an installed package")

    docker = shutil.which("docker")
    usable = docker and subprocess.run([docker, "image", "inspect", "debian:12"], capture_output=True,
                                       timeout=30, check=False).returncode == 0
    if not usable:
        print("note: no Docker daemon with the debian:12 image here; the image itself is not built")
        return
    build = subprocess.run([docker, "build", "-t", "tfsift-check:local", source], capture_output=True, text=True,
                           timeout=3600, check=False)
    if check(build.returncode == 0, f"docker build failed: {build.stderr[-2000:]}"):
        whoami = subprocess.run([docker, "run", "--rm", "--entrypoint", "id", "tfsift-check:local", "-u"],
                                capture_output=True, text=True, check=False)
        check(whoami.stdout.strip() not in ("", "0"), f"the container runs as uid {whoami.stdout.strip()}")


def check_workflows(source):
    """tfsift's own workflows stay thin: CI runs .ci/run in a debian:12
    container; a release tag runs .ci/run too, then publishes what
    scripts/release.sh wrote and pushes the image. They cannot run here; what
    they run is what .ci/run proves."""
    def load(name):
        with open(os.path.join(source, ".github", "workflows", name), encoding="utf-8") as f:
            doc = yaml.safe_load(f)
        return doc, doc.get("on", doc.get(True, {}))  # YAML 1.1 reads the key `on` as true

    def runs(job):
        return [step.get("run", "") for step in job.get("steps", [])]

    ci, ci_on = load("ci.yml")
    check("push" in ci_on and "pull_request" in ci_on, f"ci.yml does not run on pushes and pull requests: {ci_on}")
    jobs = list(ci.get("jobs", {}).values())
    check(len(jobs) == 1 and jobs[0].get("container", {}).get("image") == "debian:12",
          "ci.yml does not run one job in a debian:12 container")
    check(any(r.strip() == ".ci/run" for job in jobs for r in runs(job)), "ci.yml does not run .ci/run")
    release, release_on = load("release.yml")
    check(release_on.get("push", {}).get("tags") == ["v*"], f"release.yml does not run on v* tags: {release_on}")
    steps = " ".join(r for job in release.get("jobs", {}).values() for r in runs(job))
    check(".ci/run" in steps, "release.yml does not run .ci/run")
    ci_script = open(os.path.join(source, ".ci", "run"), encoding="utf-8").read()
    check(re.search(r"^scripts/release\.sh build build/release$", ci_script, re.M) is not None
          and re.search(r"^scripts/release-check\.sh build/release$", ci_script, re.M) is not None,
          ".ci/run does not make and check the release artifacts in build/release")
    for artifact in ("tfsift-*.tar.gz", "tfsift_*.deb", "SHA256SUMS"):
        check(f"release/{artifact}" in steps, f"release.yml does not attach {artifact}")
    check("docker push" in steps and "TFSIFT_COMMIT=" in steps, "release.yml does not push the image built with its commit")
    uploads = [step.get("with", {}).get("path") for job in release.get("jobs", {}).values()
               for step in job.get("steps", []) if str(step.get("uses", "")).startswith("actions/upload-artifact@")]
    check(uploads == ["build/release/"], f"release.yml does not keep build/release/: {uploads}")
    # No workflow or action names a repository address of its own.
    for path in (os.path.join(".github", "workflows", "ci.yml"), os.path.join(".github", "workflows", "release.yml"),
                 "action.yml", os.path.join("scripts", "action", "setup.sh")):
        text = open(os.path.join(source, path), encoding="utf-8").read()
        check(re.search(r"github\.com/[A-Za-z0-9-]+/", text) is None, f"{path} names a repository address")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source", required=True)
    parser.add_argument("--tfsift", required=True)
    parser.add_argument("--part", choices=["action", "dockerfile", "workflows"], required=True)
    args = parser.parse_args()
    source = os.path.abspath(args.source)
    tfsift = os.path.abspath(args.tfsift)
    if args.part == "action":
        check_action(source, tfsift)
    elif args.part == "workflows":
        check_workflows(source)
    else:
        check_dockerfile(source, tfsift)
    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed")
        return 1
    print(f"{args.part}: every check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
