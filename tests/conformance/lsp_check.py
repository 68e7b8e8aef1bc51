#!/usr/bin/env python3
"""Drives `tfsift server` as an editor would, over its standard input and
output, and checks what it publishes and answers:

  * open a document, edit it into a syntax error, fix it: each
    publishDiagnostics shows the error, then no error;
  * edit an override file (unsaved) and check that the base file's
    diagnostics change;
  * ask for code actions (quick fix, ignore comment, fix all), apply them to
    the buffer and check that the findings go away;
  * hover over a finding (the rule's documentation) and over an overridden
    block (where its effective value comes from);
  * a module's role follows the files: a module nobody calls gets the
    root-module finding lock-missing; a caller file created on disk
    (didChangeWatchedFiles), or an unsaved caller buffer, turns it into a
    called module (module-provider-config instead); deleting the caller, or
    closing the buffer unsaved, turns it back;
  * after a series of edits (incremental and full, a syntax error made and
    repaired, two buffers of a module that calls another), the published
    diagnostics of every file of the module equal what a fresh
    `tfsift lint` reports once the buffers are saved, before and after the
    save (the server keeps each module's parses between edits and must end
    where a fresh lint does);
  * send garbage (a bad header, bad JSON, an unknown method) and check the
    server keeps answering;
  * shut down cleanly: exit code 0 after shutdown and exit, and no file of
    the module written;
  * test files (test_file_cases): a test file in a module's tests/
    directory belongs to the module above it: opening it publishes its
    findings, an unsaved edit that repairs it clears them, and a test file
    saved on disk (didChangeWatchedFiles) lints its module again;
  * what real clients do (editor_cases): a code action and a hover sent in
    the same write as the change before them are answered from the new
    text, without waiting for the debounce; one edit in a module of 21 files
    publishes one file; the diagnostics named in a code action's context
    select its actions wherever the cursor is; events for editor lock and
    backup files start no lint; a client without file-create support gets
    the lock file fix as a command the server carries out.

Python standard library only. Exit 0 when every check passes.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from urllib.parse import unquote

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from lsp_client import TIMEOUT, Client, apply_edits, codes, uri_of  # noqa: E402


class Check:
    def __init__(self):
        self.failures = []

    def __call__(self, condition, what):
        print(("ok    " if condition else "FAIL  ") + what)
        if not condition:
            self.failures.append(what)


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


BASE = """\
terraform {
  required_version = ">= 1.5.0"
}

variable "names" {
  type = list(string)
}

variable "size" {
}

output "count" {
  value = "${length(var.names)}"
}

output "size" {
  value = var.size
}
"""

OVERRIDE = """\
# Tests give the size a type.
"""

# A module that configures a provider: a root module without a lock file
# (lock-missing), or a called module that should not configure it
# (module-provider-config).
SHARED = """\
terraform {
  required_version = ">= 1.5.0"
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.0"
    }
  }
}

provider "aws" {
  region = "eu-west-1"
}
"""

CALLER = """\
module "shared" {
  source = "../shared"
}
"""

FRESH_MAIN = """\
terraform {
  required_version = ">= 1.5.0"
}

module "child" {
  source = "./child"
  name   = var.name
}

output "greeting" {
  value = "${var.name}"
}
"""

FRESH_FILES = {
    "variables.tf": 'variable "name" {\n}\n',
    "outputs.tf": 'output "child" {\n  value = module.child.name\n}\n',
    "names_override.tf": 'variable "name" {\n  default = "x"\n}\n',
    "child/main.tf": 'variable "name" {\n  type = string\n}\n\noutput "name" {\n  value = var.name\n}\n',
    "child/versions.tf": 'terraform {\n  required_version = ">= 1.5.0"\n}\n',
}


def path_of(uri):
    return unquote(uri[len("file://"):])


def published_findings(publications):
    """The diagnostics of {uri: diagnostics}, as comparable tuples (1-based
    lines and columns: the texts are ASCII, so UTF-16 and byte columns agree)."""
    out = Counter()
    for uri, diagnostics in publications.items():
        for d in diagnostics:
            related = tuple(sorted((path_of(r["location"]["uri"]), r["location"]["range"]["start"]["line"] + 1,
                                    r["location"]["range"]["start"]["character"] + 1, r["message"])
                                   for r in d.get("relatedInformation", [])))
            r = d["range"]
            out[(path_of(uri), d["code"], d["severity"], r["start"]["line"] + 1, r["start"]["character"] + 1,
                 r["end"]["line"] + 1, r["end"]["character"] + 1, d["message"], related)] += 1
    return out


def fresh_findings(tfsift, module, cwd):
    """`tfsift lint MODULE --format json` of what is on disk, the findings in
    the module's own files as published_findings() gives them."""
    run = subprocess.run([tfsift, "lint", module, "--format", "json", "--offline"], cwd=cwd,
                         capture_output=True, text=True, timeout=60)
    report = json.loads(run.stdout)
    severity = {"error": 1, "warning": 2, "notice": 3}
    out = Counter()
    for f in report["findings"]:
        path = os.path.normpath(os.path.join(cwd, f["location"]["path"]))
        if os.path.dirname(path) != module:
            continue
        related = tuple(sorted((os.path.normpath(os.path.join(cwd, r["location"]["path"])),
                                r["location"]["start"]["line"], r["location"]["start"]["column"], r["message"])
                               for r in f["related"]))
        loc = f["location"]
        out[(path, f["rule"], severity[f["severity"]], loc["start"]["line"], loc["start"]["column"],
             loc["end"]["line"], loc["end"]["column"], f["message"], related)] += 1
    return out


def settled_publications(client, uri):
    """Every file's diagnostics as the client holds them once the server has
    linted the module of uri with every change sent so far: a request waits
    for that lint, and the server sends a lint's publications before it
    answers a request that comes after them."""
    module = os.path.dirname(path_of(uri))
    client.call("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}})
    client.backlog = [m for m in client.backlog if m.get("method") != "textDocument/publishDiagnostics"]
    return {u: d for u, d in client.published.items() if os.path.dirname(path_of(u)) == module}


OVERRIDE_TYPED = """\
# Tests give the size a type.
variable "size" {
  type = number
}
"""


TEST_MODULE = 'variable "name" {\n  type = string\n}\n\noutput "greeting" {\n  value = "hello ${var.name}"\n}\n'
TEST_FILE = ('variables {\n  name = "x"\n}\n\nrun "greets" {\n  command = plan\n\n  assert {\n'
             '    condition     = output.%s == "hello x"\n    error_message = "wrong greeting"\n  }\n}\n')


def opened_then_repaired(client, check, uri, broken, repaired, code, start, what):
    """Opens `uri` with the text `broken`: one finding of `code` at `start`;
    an unsaved edit to `repaired` clears it; then closes the document."""
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "terraform",
                                                            "version": 1, "text": broken}})
    d = client.diagnostics(uri, 1)
    check(codes(d) == [code] and d[0]["range"]["start"] == start,
          "%s opened: its finding published at its position (%s)" % (what, d))
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                             "contentChanges": [{"text": repaired}]})
    d = client.diagnostics(uri, 2)
    check(d == [], "%s: an unsaved edit that repairs it clears its finding (%s)" % (what, d))
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})


def test_file_cases(tfsift, check):
    """Test files, which `terraform test` reads from a module's directory and
    its tests/ directory, are the module's files in the editor too."""
    with tempfile.TemporaryDirectory(prefix="tfsift-lsp-tests-") as tmp:
        tmp = os.path.realpath(tmp)
        os.makedirs(os.path.join(tmp, ".git"))
        module = os.path.join(tmp, "mod")
        os.makedirs(os.path.join(module, "tests"))
        write(os.path.join(module, "main.tf"), TEST_MODULE)
        test_path = os.path.join(module, "tests", "basic.tftest.hcl")
        write(test_path, TEST_FILE % "greting")
        test_uri = uri_of(test_path)
        client = Client([tfsift, "server", "--debounce", "20"], cwd=tmp)
        client.call("initialize", {"processId": None, "rootUri": uri_of(tmp), "capabilities": {}})
        client.notify("initialized", {})
        opened_then_repaired(client, check, test_uri, TEST_FILE % "greting", TEST_FILE % "greeting",
                             "test-reference-invalid", {"line": 8, "character": 20}, "a test file in tests/")
        client.diagnostics(test_uri, until=lambda d: codes(d) == ["test-reference-invalid"])
        write(test_path, TEST_FILE % "greetings")
        client.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": test_uri, "type": 2}]})
        d = client.diagnostics(test_uri, until=lambda d: any("greetings" in x.get("message", "") for x in d))
        check(codes(d) == ["test-reference-invalid"],
              "a test file saved on disk: its module linted again, the new finding published (%s)" % d)
        client.call("shutdown", None)
        client.notify("exit", None)
        client.proc.wait(timeout=TIMEOUT)


QUERY_MODULE = ('terraform {\n  required_providers {\n    aws = {\n      source = "hashicorp/aws"\n    }\n  }\n}\n\n'
                'provider "aws" {}\n')
QUERY_FILE = 'list "aws_instance" "all" {\n  provider = aws\n%s}\n'


def query_file_cases(tfsift, check):
    """Query files (Terraform 1.14), read from the module's directory, get
    their findings published like its configuration files, from the buffer
    and from disk."""
    with tempfile.TemporaryDirectory(prefix="tfsift-lsp-query-") as tmp:
        tmp = os.path.realpath(tmp)
        os.makedirs(os.path.join(tmp, ".git"))
        module = os.path.join(tmp, "mod")
        os.makedirs(module)
        write(os.path.join(module, "main.tf"), QUERY_MODULE)
        query_path = os.path.join(module, "search.tfquery.hcl")
        broken = QUERY_FILE % "  depends_on = [provider.aws]\n"
        write(query_path, broken)
        query_uri = uri_of(query_path)
        client = Client([tfsift, "server", "--debounce", "20"], cwd=tmp)
        watching = {"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": True}}}
        client.call("initialize", {"processId": None, "rootUri": uri_of(tmp), "capabilities": watching})
        client.notify("initialized", {})
        registration = client.wait_for(lambda m: m.get("method") == "client/registerCapability",
                                       "the registration of file watchers")
        client.send({"jsonrpc": "2.0", "id": registration["id"], "result": None})
        globs = {w["globPattern"] for r in registration["params"]["registrations"]
                 for w in r["registerOptions"]["watchers"]}
        for kind in ("tfquery", "tfmock"):
            check({"**/*.%s.hcl" % kind, "**/*.%s.json" % kind} <= globs,
                  "the server watches %s files (%s)" % (kind, sorted(globs)))
        opened_then_repaired(client, check, query_uri, broken, QUERY_FILE % "", "invalid-configuration",
                             {"line": 2, "character": 2}, "a query file")
        client.diagnostics(query_uri, until=lambda d: codes(d) == ["invalid-configuration"])
        write(query_path, QUERY_FILE % "")
        client.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": query_uri, "type": 2}]})
        d = client.diagnostics(query_uri, until=lambda d: d == [])
        check(d == [], "a query file repaired on disk: its module linted again, the finding withdrawn (%s)" % d)
        # A mock data file, in a directory below the module that a test
        # file names as a mock provider's source: saved with a duplicate,
        # the module is linted again and the finding lands in the mock file.
        os.makedirs(os.path.join(module, "tests", "mocks"))
        write(os.path.join(module, "tests", "basic.tftest.hcl"),
              'mock_provider "aws" {\n  source = "./tests/mocks"\n}\n\nrun "plans" {\n  command = plan\n}\n')
        client.notify("workspace/didChangeWatchedFiles",
                      {"changes": [{"uri": uri_of(os.path.join(module, "tests", "basic.tftest.hcl")), "type": 1}]})
        mock_path = os.path.join(module, "tests", "mocks", "aws.tfmock.hcl")
        mock_uri = uri_of(mock_path)
        write(mock_path, 'mock_resource "aws_instance" {}\nmock_resource "aws_instance" {}\n')
        client.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": mock_uri, "type": 1}]})
        d = client.diagnostics(mock_uri, until=lambda d: len(d) > 0)
        check(codes(d) == ["invalid-configuration"] and d[0]["range"]["start"]["line"] == 1,
              "a mock data file saved with a duplicate: its finding published in it (%s)" % d)
        write(mock_path, 'mock_resource "aws_instance" {}\n')
        client.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": mock_uri, "type": 2}]})
        d = client.diagnostics(mock_uri, until=lambda d: d == [])
        check(d == [], "the mock data file repaired on disk: the finding withdrawn (%s)" % d)
        duplicated = 'mock_resource "aws_instance" {}\n\nmock_resource "aws_instance" {}\n'
        client.notify("textDocument/didOpen", {"textDocument": {"uri": mock_uri, "languageId": "terraform",
                                                                "version": 1, "text": duplicated}})
        d = client.diagnostics(mock_uri, 1)
        check(codes(d) == ["invalid-configuration"] and d[0]["range"]["start"]["line"] == 2,
              "a mock data file opened with an unsaved duplicate: its finding published (%s)" % d)
        client.call("shutdown", None)
        client.notify("exit", None)
        client.proc.wait(timeout=TIMEOUT)


def editor_cases(tfsift, check):
    """What real clients (Neovim 0.7, eglot 1.9) do that a scripted happy
    path does not: requests sent in the same write as the change they follow,
    the diagnostics named in a code action's context, no file-create
    support, many files in one module, editor lock files on disk."""
    with tempfile.TemporaryDirectory(prefix="tfsift-lsp-clients-") as tmp:
        tmp = os.path.realpath(tmp)
        os.makedirs(os.path.join(tmp, ".git"))
        module = os.path.join(tmp, "many")
        os.makedirs(module)
        main_tf = os.path.join(module, "main.tf")
        write(main_tf, BASE)
        for i in range(20):  # 21 files in all
            write(os.path.join(module, "extra%02d.tf" % i), 'locals {\n  l%d = %d\n}\n' % (i, i))
        main_uri = uri_of(main_tf)
        # A long debounce: without the server catching up on demand, a
        # request right after a change would see no lint of the new text.
        client = Client([tfsift, "server", "--debounce", "3000"], cwd=tmp)
        client.call("initialize", {"processId": None, "rootUri": uri_of(tmp), "capabilities": {}})
        client.notify("initialized", {})
        client.notify("textDocument/didOpen", {"textDocument": {"uri": main_uri, "languageId": "terraform",
                                                                "version": 1, "text": BASE}})
        client.diagnostics(main_uri, 1)
        time.sleep(1.0)  # every file's first publication

        def publications_since():
            client.backlog = [m for m in client.backlog if m.get("method") != "textDocument/publishDiagnostics"]
            while True:
                try:
                    m = client.messages.get_nowait()
                except Exception:
                    break
                if m and m.get("method") != "textDocument/publishDiagnostics":
                    client.backlog.append(m)

        publications_since()
        # ---- a code action and a hover in the same write as the change
        edited = BASE + 'output "more" {\n  value = "${var.size}"\n}\n'
        new_line = BASE.count("\n") + 1
        change = {"jsonrpc": "2.0", "method": "textDocument/didChange",
                  "params": {"textDocument": {"uri": main_uri, "version": 2}, "contentChanges": [{"text": edited}]}}
        action = {"jsonrpc": "2.0", "id": 501, "method": "textDocument/codeAction",
                  "params": {"textDocument": {"uri": main_uri},
                             "range": {"start": {"line": new_line, "character": 12},
                                       "end": {"line": new_line, "character": 12}},
                             "context": {"diagnostics": []}}}
        hover = {"jsonrpc": "2.0", "id": 502, "method": "textDocument/hover",
                 "params": {"textDocument": {"uri": main_uri}, "position": {"line": new_line, "character": 12}}}
        raw = b""
        for m in (change, action, hover):
            body = json.dumps(m).encode()
            raw += b"Content-Length: %d\r\n\r\n" % len(body) + body
        started = time.monotonic()
        client.write_raw(raw)
        got = client.wait_for(lambda m: m.get("id") == 501, "the code action sent with its change")["result"]
        waited = time.monotonic() - started
        titles = [a.get("title", "") for a in got]
        check(any(a.get("kind") == "quickfix" and a.get("isPreferred") for a in got) and waited < 2.5,
              "a code action sent in the same write as the change: answered from the new text, before the "
              "debounce (%.2f s, %s)" % (waited, titles))
        got = client.wait_for(lambda m: m.get("id") == 502, "the hover sent with its change")["result"]
        check("deprecated-interpolation" in ((got or {}).get("contents", {}).get("value", "")),
              "a hover sent in the same write as the change: the new finding's documentation")

        # ---- one edit in a module of 21 files: one publication
        client.diagnostics(main_uri, 2)
        time.sleep(1.0)
        publications_since()
        client.notify("textDocument/didChange", {"textDocument": {"uri": main_uri, "version": 3},
                                                 "contentChanges": [{"text": edited + "\n"}]})
        client.diagnostics(main_uri, 3)
        time.sleep(1.5)
        others = [m["params"]["uri"] for m in client.backlog if m.get("method") == "textDocument/publishDiagnostics"]
        while True:
            try:
                m = client.messages.get_nowait()
            except Exception:
                break
            if m and m.get("method") == "textDocument/publishDiagnostics":
                others.append(m["params"]["uri"])
        check(others == [], "one edit in a module of 21 files: only the edited file is published again "
                            "(others: %d)" % len(others))

        # ---- context.diagnostics selects the actions, wherever the cursor is
        published = [d for d in client.call("textDocument/codeAction", {
            "textDocument": {"uri": main_uri},
            "range": {"start": {"line": new_line, "character": 0}, "end": {"line": new_line, "character": 0}},
            "context": {"diagnostics": []}}) if d.get("kind") == "quickfix"]
        check(published == [], "the cursor at column 0 of the finding's line, no diagnostics named: no quick fix")
        # The diagnostic as published (its exact range), named in the context.
        client.notify("textDocument/didChange", {"textDocument": {"uri": main_uri, "version": 4},
                                                 "contentChanges": [{"text": edited}]})
        diags = client.diagnostics(main_uri, 4)
        named = [d for d in diags if d["code"] == "deprecated-interpolation" and d["range"]["start"]["line"] == new_line]
        got = client.call("textDocument/codeAction", {
            "textDocument": {"uri": main_uri},
            "range": {"start": {"line": new_line, "character": 0}, "end": {"line": new_line, "character": 0}},
            "context": {"diagnostics": named}})
        check(len(named) == 1 and any(a.get("kind") == "quickfix" and a.get("isPreferred") for a in got),
              "the cursor at column 0, the finding's diagnostic in the context: its quick fix offered")

        # ---- editor lock files on disk do not trigger a lint
        extra = os.path.join(module, "extra00.tf")
        write(extra, 'locals {\n  l0 = "${var.size}"\n}\n')  # a change nobody announced yet
        lock_link = os.path.join(module, ".#extra00.tf")
        os.symlink("user@host.1234:1700000000", lock_link)
        publications_since()
        client.notify("workspace/didChangeWatchedFiles", {"changes": [
            {"uri": uri_of(lock_link), "type": 1}, {"uri": uri_of(os.path.join(module, "extra00.tf~")), "type": 1},
            {"uri": uri_of(os.path.join(module, "#extra00.tf#")), "type": 1}]})
        time.sleep(3.6)  # past the debounce
        seen = []
        while True:
            try:
                m = client.messages.get_nowait()
            except Exception:
                break
            if m and m.get("method") == "textDocument/publishDiagnostics":
                seen.append(m["params"]["uri"])
        check(seen == [], "events for .#extra00.tf, extra00.tf~ and #extra00.tf#: no lint (published: %s)" % seen)
        client.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": uri_of(extra), "type": 2}]})
        d = client.diagnostics(uri_of(extra), until=lambda d: "deprecated-interpolation" in codes(d))
        check("deprecated-interpolation" in codes(d), "the event for extra00.tf itself: linted, its finding published")
        client.call("shutdown", None)
        client.notify("exit", None)
        client.proc.wait(timeout=TIMEOUT)

    # ---- a client that cannot create files gets the lock fix as a command
    fixture = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fixtures", "lock-e2e", "input")
    for creates in (False, True):
        with tempfile.TemporaryDirectory(prefix="tfsift-lsp-create-") as tmp:
            tmp = os.path.realpath(tmp)
            root = os.path.join(tmp, "root")
            shutil.copytree(fixture, root, symlinks=True)
            os.makedirs(os.path.join(root, ".git"))
            lock = os.path.join(root, ".terraform.lock.hcl")
            if os.path.exists(lock):
                os.remove(lock)
            main_tf = os.path.join(root, "main.tf")
            text = read(main_tf)
            env = dict(os.environ)
            env["HOME"] = os.path.join(tmp, "home")
            env["XDG_DATA_DIRS"] = os.path.join(tmp, "none")
            for name in ("TF_CLI_CONFIG_FILE", "TERRAFORM_CONFIG", "TF_PLUGIN_CACHE_DIR", "TF_DATA_DIR",
                         "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
                env.pop(name, None)
            client = Client([tfsift, "server", "--debounce", "20"], cwd=root, env=env)
            caps = {}
            if creates:
                caps = {"workspace": {"workspaceEdit": {"documentChanges": True, "resourceOperations": ["create"]}}}
            init = client.call("initialize", {"processId": None, "rootUri": uri_of(root), "capabilities": caps})
            offered = init["capabilities"].get("executeCommandProvider", {}).get("commands", [])
            client.notify("initialized", {})
            u = uri_of(main_tf)
            client.notify("textDocument/didOpen", {"textDocument": {"uri": u, "languageId": "terraform",
                                                                    "version": 1, "text": text}})
            diags = client.diagnostics(u, 1)
            missing = [d for d in diags if d["code"] == "lock-missing"]
            actions = client.call("textDocument/codeAction", {
                "textDocument": {"uri": u}, "range": missing[0]["range"] if missing else
                {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                "context": {"diagnostics": missing}}) if missing else []
            fix = [a for a in actions if a.get("kind") == "quickfix" and a.get("isPreferred")]
            if not creates:
                check(len(missing) == 1 and len(fix) == 1 and "command" in fix[0] and "edit" not in fix[0]
                      and fix[0]["command"]["command"] in offered,
                      "a client without resourceOperations: the lock fix is a command the server offers, no create edit")
                if fix and "command" in fix[0]:
                    client.call("workspace/executeCommand", {"command": fix[0]["command"]["command"],
                                                             "arguments": fix[0]["command"]["arguments"]})
                    written = read(lock) if os.path.exists(lock) else ""
                    check(written.startswith("# This file is maintained automatically") and "hashicorp/aws" in written,
                          "workspace/executeCommand: the server wrote the lock file")
                    diags = client.diagnostics(u, 1, until=lambda d: "lock-missing" not in codes(d))
                    check("lock-missing" not in codes(diags), "after the command: lock-missing is gone")
            else:
                edit = fix[0].get("edit", {}) if fix else {}
                kinds = [c.get("kind") for c in edit.get("documentChanges", [])]
                check("create" in kinds and not os.path.exists(lock),
                      "a client with resourceOperations create: the fix creates the lock file in its edit, "
                      "the server writes nothing")
            client.call("shutdown", None)
            client.notify("exit", None)
            client.proc.wait(timeout=TIMEOUT)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tfsift", required=True)
    args = ap.parse_args()
    args.tfsift = os.path.abspath(args.tfsift)
    check = Check()
    started = time.monotonic()

    with tempfile.TemporaryDirectory(prefix="tfsift-lsp-") as tmp:
        tmp = os.path.realpath(tmp)
        module = os.path.join(tmp, "module")
        os.makedirs(module)
        os.makedirs(os.path.join(tmp, ".git"))  # the repository root
        main_tf = os.path.join(module, "main.tf")
        override_tf = os.path.join(module, "override.tf")
        write(main_tf, BASE)
        write(override_tf, OVERRIDE)
        on_disk = {p: read(p) for p in (main_tf, override_tf)}
        main_uri, override_uri = uri_of(main_tf), uri_of(override_tf)

        client = Client([args.tfsift, "server", "--debounce", "20"], cwd=tmp)

        # Requests before initialize are refused, and the server carries on.
        rid = client.request("textDocument/hover", {"textDocument": {"uri": main_uri}, "position": {"line": 0, "character": 0}})
        m = client.wait_for(lambda m: m.get("id") == rid, "the refusal before initialize")
        check(m.get("error", {}).get("code") == -32002, "a request before initialize gets ServerNotInitialized")

        init = client.call("initialize", {"processId": os.getpid(), "rootUri": uri_of(tmp), "capabilities": {}})
        caps = init["capabilities"]
        check(caps.get("hoverProvider") is True, "initialize: hover offered")
        check("source.fixAll.tfsift" in caps.get("codeActionProvider", {}).get("codeActionKinds", []),
              "initialize: code actions offered, source.fixAll.tfsift among them")
        check(caps.get("textDocumentSync", {}).get("change") == 2, "initialize: incremental sync")
        client.notify("initialized", {})

        # ---- open: the module's findings, for every file of the module
        client.notify("textDocument/didOpen", {"textDocument": {"uri": main_uri, "languageId": "terraform", "version": 1,
                                                                "text": BASE}})
        diags = client.diagnostics(main_uri, 1)
        check("deprecated-interpolation" in codes(diags) and "variable-type-missing" in codes(diags),
              "open: deprecated-interpolation and variable-type-missing published for main.tf")
        override_diags = client.diagnostics(override_uri)
        check("syntax-error" not in codes(override_diags), "open: the override file (not open) is published too")
        interp = next((d for d in diags if d["code"] == "deprecated-interpolation"), None)
        check(interp is not None and interp["range"]["start"]["line"] == 12 and interp["severity"] == 2,
              "open: the finding's range is on line 13 (0-based 12), severity warning")
        # A link only when the build was given a home page (none by default).
        check(interp is not None and interp.get("codeDescription", {"href": "docs/rules/deprecated-interpolation.md"})
              ["href"].endswith("docs/rules/deprecated-interpolation.md"),
              "open: codeDescription, if any, links the rule's page")

        # ---- edit into a syntax error (incremental change), then fix it
        client.notify("textDocument/didChange", {
            "textDocument": {"uri": main_uri, "version": 2},
            "contentChanges": [{"range": {"start": {"line": 5, "character": 21}, "end": {"line": 5, "character": 21}},
                                "text": " \"é😀 = = "}]})
        diags = client.diagnostics(main_uri, 2)
        check("syntax-error" in codes(diags), "edit into a syntax error: syntax-error published")
        err = next((d for d in diags if d["code"] == "syntax-error"), None)
        check(err is not None and err["severity"] == 1, "edit into a syntax error: severity error")
        client.notify("textDocument/didChange", {
            "textDocument": {"uri": main_uri, "version": 3},
            "contentChanges": [{"range": {"start": {"line": 5, "character": 21},
                                          "end": {"line": 5, "character": 31}}, "text": ""}]})
        diags = client.diagnostics(main_uri, 3)
        check("syntax-error" not in codes(diags) and "deprecated-interpolation" in codes(diags),
              "fix it again: no syntax error, the earlier findings are back")
        # Full sync works too, and many fast changes end in one up-to-date publication.
        for v in range(4, 14):
            client.notify("textDocument/didChange", {"textDocument": {"uri": main_uri, "version": v},
                                                     "contentChanges": [{"text": BASE + "\n" * (v - 3)}]})
        diags = client.diagnostics(main_uri, 13)
        check("deprecated-interpolation" in codes(diags), "ten quick full-text changes: the last version is published")

        # ---- an unsaved override changes the base file's diagnostics
        client.notify("textDocument/didOpen", {"textDocument": {"uri": override_uri, "languageId": "terraform",
                                                                "version": 1, "text": OVERRIDE}})
        before = client.diagnostics(override_uri, 1)
        check("syntax-error" not in codes(before), "the override file opened: published with its version")
        client.notify("textDocument/didChange", {"textDocument": {"uri": override_uri, "version": 2},
                                                 "contentChanges": [{"text": OVERRIDE_TYPED}]})
        client.diagnostics(override_uri, 2)
        # Earlier publications all hold variable-type-missing; only a lint of
        # the new override text can drop it (a timeout fails the test).
        base_after = client.diagnostics(main_uri, 13, until=lambda d: "variable-type-missing" not in codes(d))
        check("variable-type-missing" not in codes(base_after) and "deprecated-interpolation" in codes(base_after),
              "unsaved override gives the variable a type: variable-type-missing gone from main.tf")

        # ---- a buffer whose file is not on disk yet (Vim's `:e new.tf`) is linted with its module
        new_path = os.path.join(os.path.dirname(path_of(main_uri)), "not_saved_yet.tf")
        new_uri = uri_of(new_path)
        client.notify("textDocument/didOpen", {"textDocument": {"uri": new_uri, "languageId": "terraform",
                                                                "version": 1, "text": 'variable "fresh" {}\n'}})
        fresh_diags = client.diagnostics(new_uri, 1)
        check("variable-type-missing" in codes(fresh_diags),
              "a new buffer not on disk: its findings are published (got %s)" % sorted(codes(fresh_diags)))
        check(not os.path.exists(new_path), "a new buffer not on disk: no file was written")
        client.notify("textDocument/didClose", {"textDocument": {"uri": new_uri}})

        # ---- hover: a finding's rule documentation; an overridden block's origins
        hover = client.call("textDocument/hover", {"textDocument": {"uri": main_uri},
                                                   "position": {"line": 12, "character": 12}})
        value = (hover or {}).get("contents", {}).get("value", "")
        check("deprecated-interpolation" in value and "## Why" in value,
              "hover on a finding: the rule's documentation")
        hover = client.call("textDocument/hover", {"textDocument": {"uri": main_uri},
                                                   "position": {"line": 8, "character": 3}})
        value = (hover or {}).get("contents", {}).get("value", "")
        check("overridden by" in value and "override.tf:2" in value and "type" in value,
              "hover on an overridden block: where its value comes from")
        hover = client.call("textDocument/hover", {"textDocument": {"uri": main_uri},
                                                   "position": {"line": 1, "character": 0}})
        check(hover is None, "hover elsewhere: nothing")

        # ---- code actions: a quick fix, the ignore comment, fix all
        text = BASE + "\n" * 10
        actions = client.call("textDocument/codeAction", {
            "textDocument": {"uri": main_uri},
            "range": {"start": {"line": 12, "character": 10}, "end": {"line": 12, "character": 10}},
            "context": {"diagnostics": []}})
        quick = [a for a in actions if a.get("kind") == "quickfix" and a.get("isPreferred")]
        ignore = [a for a in actions if a.get("title", "").startswith("Ignore deprecated-interpolation")]
        check(len(quick) == 1 and len(ignore) == 1, "code actions at the finding: its fix and an ignore comment")
        if quick:
            fixed = apply_edits(text, quick[0]["edit"]["changes"][main_uri])
            check("value = length(var.names)" in fixed, "the quick fix's edit removes the interpolation")
            client.notify("textDocument/didChange", {"textDocument": {"uri": main_uri, "version": 14},
                                                     "contentChanges": [{"text": fixed}]})
            diags = client.diagnostics(main_uri, 14)
            check("deprecated-interpolation" not in codes(diags), "after applying the fix: the finding is gone")
            client.notify("textDocument/didChange", {"textDocument": {"uri": main_uri, "version": 15},
                                                     "contentChanges": [{"text": text}]})
            client.diagnostics(main_uri, 15)
        if ignore:
            ignored = apply_edits(text, ignore[0]["edit"]["changes"][main_uri])
            check("  # tfsift-ignore: deprecated-interpolation -- reason\n  value = " in ignored,
                  "the ignore action inserts the inline ignore comment above the finding")
            client.notify("textDocument/didChange", {"textDocument": {"uri": main_uri, "version": 16},
                                                     "contentChanges": [{"text": ignored}]})
            diags = client.diagnostics(main_uri, 16)
            check("deprecated-interpolation" not in codes(diags) and "unused-ignore" not in codes(diags),
                  "after applying the ignore: the finding is suppressed, the comment is used")
            client.notify("textDocument/didChange", {"textDocument": {"uri": main_uri, "version": 17},
                                                     "contentChanges": [{"text": text}]})
            client.diagnostics(main_uri, 17)
        fix_all = client.call("textDocument/codeAction", {
            "textDocument": {"uri": main_uri},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
            "context": {"diagnostics": [], "only": ["source.fixAll"]}})
        check(len(fix_all) == 1 and fix_all[0]["kind"] == "source.fixAll.tfsift",
              "only source.fixAll: one fix-all action")
        if fix_all:
            fixed = apply_edits(text, fix_all[0]["edit"]["changes"][main_uri])
            check("${" not in fixed, "fix all: every interpolation-only string repaired")

        # ---- a watched settings file: written on disk, announced, applied
        # The strict preset adds override-undocumented; deprecated-interpolation goes.
        write(os.path.join(tmp, ".tfsift.toml"), 'preset = "strict"\n\n[rules]\ndeprecated-interpolation = "off"\n')
        client.notify("workspace/didChangeWatchedFiles",
                      {"changes": [{"uri": uri_of(os.path.join(tmp, ".tfsift.toml")), "type": 1}]})
        diags = client.diagnostics(main_uri, 17, until=lambda d: "deprecated-interpolation" not in codes(d)
                                   and "override-undocumented" in codes(d))
        print("      codes with the settings file: %s" % codes(diags))
        check("override-undocumented" in codes(diags),
              "didChangeWatchedFiles for .tfsift.toml: the module is linted again with the new settings")
        os.remove(os.path.join(tmp, ".tfsift.toml"))
        client.notify("workspace/didChangeWatchedFiles",
                      {"changes": [{"uri": uri_of(os.path.join(tmp, ".tfsift.toml")), "type": 3}]})
        client.diagnostics(main_uri, 17, until=lambda d: "deprecated-interpolation" in codes(d))

        # ---- roles follow the files: root until a caller appears, and back
        shared_dir, caller_dir = os.path.join(tmp, "shared"), os.path.join(tmp, "caller")
        os.makedirs(shared_dir)
        os.makedirs(caller_dir)
        shared_tf, caller_tf = os.path.join(shared_dir, "main.tf"), os.path.join(caller_dir, "main.tf")
        write(shared_tf, SHARED)
        shared_uri, caller_uri = uri_of(shared_tf), uri_of(caller_tf)
        client.notify("textDocument/didOpen", {"textDocument": {"uri": shared_uri, "languageId": "terraform",
                                                                "version": 1, "text": SHARED}})
        diags = client.diagnostics(shared_uri, 1)
        check("lock-missing" in codes(diags) and "module-provider-config" not in codes(diags),
              "roles: a module nobody calls is a root module (lock-missing)")

        def called(d):
            return "module-provider-config" in codes(d) and "lock-missing" not in codes(d)

        def root(d):
            return "lock-missing" in codes(d) and "module-provider-config" not in codes(d)

        write(caller_tf, CALLER)
        client.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": caller_uri, "type": 1}]})
        diags = client.diagnostics(shared_uri, 1, until=called)
        check(called(diags), "roles: a caller created on disk makes it a called module (module-provider-config)")
        os.remove(caller_tf)
        client.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": caller_uri, "type": 3}]})
        diags = client.diagnostics(shared_uri, 1, until=root)
        check(root(diags), "roles: the caller deleted, a root module again")

        # The caller exists without the call; an unsaved buffer adds it.
        write(caller_tf, "# nothing called yet\n")
        client.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": caller_uri, "type": 1}]})
        client.notify("textDocument/didOpen", {"textDocument": {"uri": caller_uri, "languageId": "terraform",
                                                                "version": 1, "text": "# nothing called yet\n"}})
        client.diagnostics(caller_uri, 1)
        client.notify("textDocument/didChange", {"textDocument": {"uri": caller_uri, "version": 2},
                                                 "contentChanges": [{"text": CALLER}]})
        diags = client.diagnostics(shared_uri, 1, until=called)
        check(called(diags), "roles: an unsaved buffer that adds the call makes it a called module")
        client.notify("textDocument/didClose", {"textDocument": {"uri": caller_uri}})
        diags = client.diagnostics(shared_uri, 1, until=root)
        check(root(diags), "roles: the buffer closed unsaved, a root module again")
        check(read(caller_tf) == "# nothing called yet\n", "roles: the caller file was not written")

        # ---- after many edits, what a fresh lint of the saved texts reports
        fresh = os.path.join(tmp, "fresh")
        fresh_main = os.path.join(fresh, "main.tf")
        fresh_vars = os.path.join(fresh, "variables.tf")
        write_tree = {"main.tf": FRESH_MAIN}
        write_tree.update(FRESH_FILES)
        for name, text in write_tree.items():
            os.makedirs(os.path.dirname(os.path.join(fresh, name)), exist_ok=True)
            write(os.path.join(fresh, name), text)
        main_u, vars_u = uri_of(fresh_main), uri_of(fresh_vars)
        texts = {main_u: FRESH_MAIN, vars_u: FRESH_FILES["variables.tf"]}
        versions = {main_u: 1, vars_u: 1}
        for u in (main_u, vars_u):
            client.notify("textDocument/didOpen", {"textDocument": {"uri": u, "languageId": "terraform",
                                                                    "version": 1, "text": texts[u]}})
        client.diagnostics(vars_u, 1)

        def change(u, start, end, text, wait=None):
            rng = {"start": {"line": start[0], "character": start[1]}, "end": {"line": end[0], "character": end[1]}}
            texts[u] = apply_edits(texts[u], [{"range": rng, "newText": text}])
            versions[u] += 1
            client.notify("textDocument/didChange", {"textDocument": {"uri": u, "version": versions[u]},
                                                     "contentChanges": [{"range": rng, "text": text}]})
            if wait:
                return client.diagnostics(u, versions[u])
            return None

        diags = change(main_u, (10, 9), (10, 9), "= = ", wait=True)
        check("syntax-error" in codes(diags), "fresh: an edit into a syntax error is published")
        change(main_u, (10, 9), (10, 13), "", wait=True)
        change(main_u, (12, 0), (12, 0), '\noutput "greeting" {\n  value = 1\n}\n', wait=True)
        versions[vars_u] += 1
        texts[vars_u] = 'variable "name" {\n  type = string\n}\n\nvariable "unused" {\n}\n'
        client.notify("textDocument/didChange", {"textDocument": {"uri": vars_u, "version": versions[vars_u]},
                                                 "contentChanges": [{"text": texts[vars_u]}]})
        change(main_u, (6, 11), (6, 19), '"${var.name}-x"')
        for i, c in enumerate("-typed"):  # quick edits, one character each, nothing waited for
            change(main_u, (6, 25 + i), (6, 25 + i), c)
        change(main_u, (0, 0), (0, 0), "# edited\n")
        before_save = settled_publications(client, main_u)
        codes_seen = sorted({c[1] for c in published_findings(before_save)})
        print("      codes after the edits: %s" % codes_seen)
        check("duplicate-block" in codes_seen and "syntax-error" not in codes_seen,
              "fresh: the edits end with the duplicate output found, the syntax error gone")
        for u, path in ((main_u, fresh_main), (vars_u, fresh_vars)):
            write(path, texts[u])
        expected = fresh_findings(args.tfsift, fresh, tmp)
        got = published_findings(before_save)
        check(got == expected and len(expected) > 3,
              "fresh: after the edits, the published diagnostics equal a fresh lint of the saved texts "
              "(%d findings; only published: %s; only fresh: %s)"
              % (sum(expected.values()), sorted(got - expected), sorted(expected - got)))
        for u in (main_u, vars_u):
            client.notify("textDocument/didSave", {"textDocument": {"uri": u}})
        after_save = settled_publications(client, vars_u)
        got = published_findings(after_save)
        check(got == expected, "fresh: after saving, the same (only published: %s; only fresh: %s)"
              % (sorted(got - expected), sorted(expected - got)))

        # ---- garbage: the server reports it and keeps going
        client.write_raw(b"this is not a header\r\n\r\n")
        client.log_message("Malformed message header")
        client.write_raw(b"Content-Length: 9\r\n\r\n{not json")
        m = client.wait_for(lambda m: m.get("error", {}).get("code") == -32700, "the parse error response")
        check(m.get("id") is None, "bad JSON: a ParseError response with a null id")
        rid = client.request("tfsift/noSuchMethod", {})
        m = client.wait_for(lambda m: m.get("id") == rid, "the response to an unknown method")
        check(m.get("error", {}).get("code") == -32601, "unknown request: MethodNotFound")
        client.notify("tfsift/noSuchNotification", {})
        client.send({"jsonrpc": "2.0", "id": 999, "method": "textDocument/hover", "params": {"textDocument": 7}})
        m = client.wait_for(lambda m: m.get("id") == 999, "the response to a hover with bad parameters")
        check("error" in m, "a request with bad parameters: an error response, not a crash")
        hover = client.call("textDocument/hover", {"textDocument": {"uri": main_uri},
                                                   "position": {"line": 12, "character": 12}})
        check(hover is not None, "after the garbage: the server still answers")

        # ---- a 300,000-deep message: refused before it is parsed, no crash
        deep = b"[" * 300000 + b"]" * 300000
        client.write_raw(b"Content-Length: %d\r\n\r\n" % len(deep) + deep)
        m = client.wait_for(lambda m: "nested deeper" in m.get("error", {}).get("message", ""),
                            "the parse error for a deep message")
        check(m["error"].get("code") == -32700 and m.get("id") is None, "deep JSON: a ParseError with a null id")

        # ---- a wrong Content-Length costs that message, not the ones after it
        def framed(message, delta):
            body = json.dumps(message).encode()
            return b"Content-Length: %d\r\n\r\n" % (len(body) + delta) + body

        def unknown_request(rid):
            return {"jsonrpc": "2.0", "id": rid, "method": "tfsift/noSuchMethod", "params": {}}

        client.write_raw(framed(unknown_request(7001), -10) + framed(unknown_request(7002), 0))
        m = client.wait_for(lambda m: m.get("id") == 7002, "the response after a too-short Content-Length")
        check(m.get("error", {}).get("code") == -32601, "too-short Content-Length: the next message is answered")
        client.write_raw(framed(unknown_request(7003), 25) + framed(unknown_request(7004), 0)
                         + framed(unknown_request(7005), 0))
        for rid in (7003, 7004, 7005):
            m = client.wait_for(lambda m, rid=rid: m.get("id") == rid,
                                "the response to %d after a too-long Content-Length" % rid)
            check(m.get("error", {}).get("code") == -32601,
                  "too-long Content-Length: message %d is answered" % rid)

        # ---- shut down: exit code 0, nothing written
        check(client.call("shutdown", None) is None, "shutdown answered with null")
        client.notify("exit", None)
        try:
            code = client.proc.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            client.proc.kill()
            code = None
        check(code == 0, "exit after shutdown: exit code 0 (got %s)" % code)
        check(all(read(p) == t for p, t in on_disk.items()), "no file of the module was written")
        check(sorted(os.listdir(module)) == ["main.tf", "override.tf"], "no file was added to the module")

        # exit without shutdown: exit code 1
        client = Client([args.tfsift, "server"], cwd=tmp)
        client.call("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        client.notify("exit", None)
        code = client.proc.wait(timeout=TIMEOUT)
        check(code == 1, "exit without shutdown: exit code 1 (got %s)" % code)

    test_file_cases(args.tfsift, check)
    query_file_cases(args.tfsift, check)
    editor_cases(args.tfsift, check)

    print("%.1f s" % (time.monotonic() - started))
    if check.failures:
        print("%d check(s) failed" % len(check.failures))
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except AssertionError as e:
        print("FAIL  " + str(e))
        sys.exit(1)
