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
    step = re.fullmatch(r"steps\.(\w+)\.outputs\.([\w-]+)", expression)
    if step:
        return outputs.get(step.group(2), "")
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


def run_action(source, action, inputs, workdir, path=None, env_extra=None):
    """Runs the action's shell steps in order; returns (results, outputs).

    A step with `if:` runs when its condition, evaluated for the cases this
    action uses, holds; `uses:` steps are recorded, not run.
    """
    runner = tempfile.mkdtemp(prefix="runner-")
    github_output = os.path.join(runner, "output")
    github_path = os.path.join(runner, "path")
    open(github_path, "w").close()
    outputs = {}
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
            outputs = read_outputs(github_output)
        results.append((step.get("name"), proc.returncode, proc.stdout + proc.stderr))
        if proc.returncode != 0:
            break
    shutil.rmtree(runner, ignore_errors=True)
    return results, outputs


def check_action(source, tfsift):
    with open(os.path.join(source, "action.yml"), encoding="utf-8") as f:
        action = yaml.safe_load(f)
    runs = action.get("runs", {})
    check(runs.get("using") == "composite", "action.yml is not a composite action")
    steps = runs.get("steps", [])
    names = [s.get("name") for s in steps]
    check(names == ["Set up tfsift", "Run tfsift lint", "Upload SARIF to code scanning", "Review lock-file changes",
                     "Fail on findings"],
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
        # Without the input the container is built: on a runner with no
        # Docker that is refused with a message saying what to do instead.
        plain_path = "/usr/bin:/bin"
        if shutil.which("docker", path=plain_path) is None:
            inputs = dict(defaults, args="clean")
            results, _ = run_action(source, action, inputs, work, path=plain_path)
            check(results and results[0][1] == 2 and "needs Docker" in results[0][2],
                  f"a runner without Docker was not told so: {results[:1]}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


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
    check(packages.returncode == 0 and "libc6" in names and "libre2-9" in names,
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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source", required=True)
    parser.add_argument("--tfsift", required=True)
    parser.add_argument("--part", choices=["action", "dockerfile"], required=True)
    args = parser.parse_args()
    source = os.path.abspath(args.source)
    tfsift = os.path.abspath(args.tfsift)
    if args.part == "action":
        check_action(source, tfsift)
    else:
        check_dockerfile(source, tfsift)
    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed")
        return 1
    print(f"{args.part}: every check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
