#!/usr/bin/env python3
"""Remote modules end to end: `tfsift fetch` and `tfsift lint --online`
against the module registry of tests/support/fixture_registry.py, a git
repository made here and reached through git::file://, and hostile servers.

The registry is served by this process on 127.0.0.1 over HTTPS with a CA
made for the run; tfsift reaches it as a user's tfsift would: the registry
host `127.0.0.1:PORT` is discovered through /.well-known/terraform.json,
the CA comes from SSL_CERT_FILE, a token from a `credentials` block of the
CLI configuration named by TF_CLI_CONFIG_FILE. Each case runs tfsift in a
fresh root module and asserts its exit status, what it says (naming the
host, the module and the reason, never a token), what lands in the module
cache, and what the server was asked (its request log). Expected variable
names and versions come from the fixture, never from tfsift.

Usage: module_fetch_check.py --tfsift PATH [--only CASE]... [--keep]
Exits 0 when every case passes, 1 otherwise, 77 when gpg, openssl or git is missing.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import fixture_registry as fr  # noqa: E402

RUN_TIMEOUT = 120


class Failure(Exception):
    pass


class Run:
    def __init__(self, args, rc, out, err, seconds, requests):
        self.args, self.rc, self.out, self.err, self.seconds, self.requests = args, rc, out, err, seconds, requests

    def __str__(self):
        return (f"tfsift {' '.join(self.args)} -> exit {self.rc} in {self.seconds:.1f} s\n"
                f"--- stdout\n{self.out}--- stderr\n{self.err}---")


def git(*args, cwd=None):
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false",
                    "-c", "tag.gpgsign=false", *args], cwd=cwd, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)


class Suite:
    def __init__(self, tfsift, root):
        self.tfsift = tfsift
        self.root = root
        self.reg = fr.FixtureRegistry(os.path.join(root, "reg"), with_cases=False)
        self.port = self.reg.port
        self.host = f"127.0.0.1:{self.port}"
        self.home = os.path.join(root, "home")
        self.cache_home = os.path.join(root, "cache")
        self.empty = os.path.join(root, "empty-certs")
        for d in (self.home, self.cache_home, self.empty):
            os.makedirs(d, exist_ok=True)
        self.cli_config = os.path.join(root, "cli.tfrc")
        with open(self.cli_config, "w") as f:
            f.write(self.reg.cli_config(f'credentials "{self.host}" {{\n  token = "{fr.MODULE_TOKEN}"\n}}\n'))
        self.repo = self.make_repository()
        self.counter = 0

    @property
    def module_cache(self):
        return os.path.join(self.cache_home, "tfsift", "modules")

    def make_repository(self):
        """Tags v1.0.0 and v2.0.0 declare different variables; main moved on after."""
        repo = os.path.join(self.root, "repo")
        os.makedirs(repo)
        git("init", "-q", "-b", "main", repo)
        for tag, var in (("v1.0.0", "git_one"), ("v2.0.0", "git_two"), (None, "git_three")):
            with open(os.path.join(repo, "main.tf"), "w") as f:
                f.write(f'variable "common" {{}}\n\nvariable "{var}" {{}}\n')
            git("add", "-A", cwd=repo)
            git("commit", "-q", "-m", var, cwd=repo)
            if tag:
                git("tag", tag, cwd=repo)
        return repo

    def env(self, extra=None):
        env = {k: v for k, v in os.environ.items()
               if not (k.lower().endswith("_proxy") or k.startswith(("TF_", "TFSIFT_", "OPENTOFU_", "XDG_", "GIT_"))
                       or k in ("CURL_CA_BUNDLE", "NETRC", "SSL_CERT_FILE", "SSL_CERT_DIR"))}
        env.update({"HOME": self.home, "XDG_CACHE_HOME": self.cache_home, "TF_CLI_CONFIG_FILE": self.cli_config,
                    "SSL_CERT_FILE": self.reg.ca_pem, "SSL_CERT_DIR": self.empty,
                    "TF_REGISTRY_CLIENT_TIMEOUT": "2", "TFSIFT_GIT_TIMEOUT": "10"})
        for k, v in (extra or {}).items():
            if v is None:
                env.pop(k, None)
            else:
                env[k] = v
        return env

    def module(self, calls: str) -> str:
        self.counter += 1
        d = os.path.join(self.root, "work", f"m{self.counter}")
        os.makedirs(d)
        with open(os.path.join(d, "main.tf"), "w") as f:
            f.write(calls)
        return d

    def call(self, name, source, version=None, args=None):
        body = f'  source = "{source}"\n'
        if version:
            body += f'  version = "{version}"\n'
        for k, v in (args or {}).items():
            body += f'  {k} = "{v}"\n'
        return f'module "{name}" {{\n{body}}}\n\n'

    def run(self, args, env_extra=None, cwd=None):
        mark = self.reg.mark()
        start = time.monotonic()
        try:
            p = subprocess.run([self.tfsift, *args], env=self.env(env_extra), cwd=cwd, capture_output=True,
                               text=True, timeout=RUN_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise Failure(f"tfsift {' '.join(args)} did not finish within {RUN_TIMEOUT} s")
        run = Run(args, p.returncode, p.stdout, p.stderr, time.monotonic() - start, self.reg.requests(mark))
        for token in (fr.MODULE_TOKEN,):
            if token in run.out or token in run.err:
                raise Failure(f"a token was printed\n{run}")
        return run


def expect(cond, message, run=None):
    if not cond:
        raise Failure(message + (f"\n{run}" if run else ""))


def cached_packages(s: Suite) -> list[dict]:
    out = []
    packages = os.path.join(s.module_cache, "packages")
    if os.path.isdir(packages):
        for name in sorted(os.listdir(packages)):
            with open(os.path.join(packages, name, "manifest.json")) as f:
                doc = json.load(f)
            doc["dir"] = os.path.join(packages, name, "tree")
            out.append(doc)
    return out


def variables_in(path: str) -> list[str]:
    import re
    with open(path) as f:
        return sorted(re.findall(r'variable "([^"]+)"', f.read()))


# ---- cases --------------------------------------------------------------------

def case_registry_version(s: Suite):
    """~> 1.2 chooses 1.2.7 (not the 1.3.0 prerelease, not 2.0.0); a 204 with a root-relative location."""
    d = s.module(s.call("net", f"{s.host}/example/net/aws", "~> 1.2"))
    r = s.run(["fetch", d])
    expect(r.rc == 0, "fetch failed", r)
    expect("module.net 1.2.7: network" in r.err, "the version chosen is not 1.2.7", r)
    pkgs = [p for p in cached_packages(s) if p["package"] == f"{s.host}/example/net/aws" and p["resolved"] == "1.2.7"]
    expect(len(pkgs) == 1, f"no cache entry for 1.2.7: {cached_packages(s)}", r)
    expect(variables_in(os.path.join(pkgs[0]["dir"], "main.tf")) ==
           s.reg.expect["modules"]["example/net/aws"]["1.2.7"]["variables"], "the package is not 1.2.7's", r)
    expect(len(pkgs[0]["archive_sha256"]) == 64, "no archive digest recorded", r)
    paths = [q["path"] for q in r.requests]
    expect("/v1/modules/example/net/aws/1.2.7/download" in paths, f"no download request: {paths}", r)
    # Again: from the cache; the versions list is asked again (freshness), no package is downloaded.
    r = s.run(["fetch", d])
    expect(r.rc == 0 and "module.net 1.2.7: cache" in r.err, "the second run did not use the cache", r)
    paths = [q["path"] for q in r.requests]
    expect(paths == ["/.well-known/terraform.json", "/v1/modules/example/net/aws/versions"] or
           paths == ["/v1/modules/example/net/aws/versions"], f"unexpected requests on the second run: {paths}", r)
    # Offline: nothing is requested at all.
    r = s.run(["fetch", d], {"TFSIFT_OFFLINE": "1"})
    expect(r.rc == 0 and "module.net 1.2.7: cache" in r.err and not r.requests, "offline run not from the cache", r)


def case_opentofu_json_zip(s: Suite):
    """OpenTofu's {"location": ...} answer and a zip package; an exact version."""
    d = s.module(s.call("tofu", f"{s.host}/example/tofu/aws", "0.1.0"))
    r = s.run(["fetch", d])
    expect(r.rc == 0 and "module.tofu 0.1.0: network" in r.err, "fetch of the OpenTofu-JSON module failed", r)


def case_subdir(s: Suite):
    d = s.module(s.call("inner", f"{s.host}/example/net/aws//modules/inner", "1.0.0"))
    r = s.run(["fetch", d])
    expect(r.rc == 0, "fetch of a registry //subdir failed", r)


def case_prerelease_exact(s: Suite):
    d = s.module(s.call("beta", f"{s.host}/example/net/aws", "1.3.0-beta.1"))
    r = s.run(["fetch", d])
    expect(r.rc == 0 and "module.beta 1.3.0-beta.1" in r.err, "an exactly named prerelease was not chosen", r)


def case_unresolvable(s: Suite):
    d = s.module(s.call("net", f"{s.host}/example/net/aws", "~> 3.0"))
    r = s.run(["fetch", d])
    expect(r.rc == 2, "an unresolvable constraint did not fail", r)
    for text in ("Unresolvable module version constraint", "newest available version is 2.0.0", s.host,
                 "example/net/aws", "main.tf:2:"):
        expect(text in r.err, f"the message lacks {text!r}", r)


def case_not_found(s: Suite):
    d = s.module(s.call("gone", f"{s.host}/example/nothere/aws", "1.0.0"))
    r = s.run(["fetch", d])
    expect(r.rc == 2 and "could not be found" in r.err and s.host in r.err, "a 404 module did not fail", r)


def case_private_token(s: Suite):
    d = s.module(s.call("priv", f"{s.host}/private/net/aws", "1.0.0"))
    r = s.run(["fetch", d])
    expect(r.rc == 0, "the private module with its token failed", r)
    api = [q for q in r.requests if q["path"].startswith("/v1/modules/private/")]
    expect(api and all(q["authorization"] == f"Bearer {fr.MODULE_TOKEN}" for q in api),
           f"the registry API did not get the token: {api}", r)
    dl = [q for q in r.requests if q["path"].startswith("/dl/")]
    expect(dl and all(not q["authorization"] for q in dl), f"the archive download carried credentials: {dl}", r)
    # A refused credential.
    bad = os.path.join(s.root, "bad-token.tfrc")
    with open(bad, "w") as f:
        f.write(f'credentials "{s.host}" {{\n  token = "wrong-token-0000"\n}}\n')
    d = s.module(s.call("priv", f"{s.host}/private/net/aws", "1.0.0"))
    shutil.rmtree(s.module_cache, ignore_errors=True)
    r = s.run(["fetch", d], {"TF_CLI_CONFIG_FILE": bad})
    expect(r.rc == 2 and "rejected the given authentication credentials" in r.err, "a refused token did not fail", r)
    expect("wrong-token-0000" not in r.err + r.out, "the refused token was printed", r)


def case_redirect_drops_token(s: Suite):
    d = s.module(s.call("red", f"{s.host}/bad/redirect/aws", "~> 1.2"))
    r = s.run(["fetch", d])
    moved = [q for q in r.requests if (q.get("host") or "").startswith("localhost")]
    expect(moved, f"the redirect to localhost was not followed: {r.requests}", r)
    expect(all(not q["authorization"] for q in moved), f"credentials went to another host: {moved}", r)


def case_git_tag(s: Suite):
    d = s.module(s.call("g", f"git::file://{s.repo}?ref=v1.0.0"))
    r = s.run(["fetch", d])
    expect(r.rc == 0 and "module.g" in r.err, "git tag fetch failed", r)
    pkgs = [p for p in cached_packages(s) if p["package"].startswith("git::file://")]
    expect(pkgs and any(variables_in(os.path.join(p["dir"], "main.tf")) == ["common", "git_one"] for p in pkgs),
           "the cached git package is not v1.0.0's", r)
    d = s.module(s.call("g", f"git::file://{s.repo}?ref=v9.9.9"))
    r = s.run(["fetch", d])
    expect(r.rc == 2 and 'git ref "v9.9.9" not found' in r.err, "a missing git ref did not fail", r)


def case_git_hooks(s: Suite):
    hooks = os.path.join(s.root, "hooks")
    marker = os.path.join(s.root, "hook-ran")
    os.makedirs(hooks, exist_ok=True)
    for hook in ("post-checkout", "post-merge", "reference-transaction"):
        with open(os.path.join(hooks, hook), "w") as f:
            f.write(f"#!/bin/sh\ntouch '{marker}'\n")
        os.chmod(os.path.join(hooks, hook), 0o755)
    home = os.path.join(s.root, "hook-home")
    os.makedirs(home, exist_ok=True)
    with open(os.path.join(home, ".gitconfig"), "w") as f:
        f.write(f"[core]\n\thooksPath = {hooks}\n")
    # The hooks would run for a plain clone with this configuration.
    subprocess.run(["git", "clone", "-q", s.repo, os.path.join(s.root, "plain-clone")], check=True,
                   env={**os.environ, "HOME": home})
    expect(os.path.exists(marker), "the hook test is broken: a plain clone ran no hook")
    os.remove(marker)
    d = s.module(s.call("g", f"git::file://{s.repo}?ref=v2.0.0"))
    r = s.run(["fetch", d], {"HOME": home})
    expect(r.rc == 0, "git fetch with hooks configured failed", r)
    expect(not os.path.exists(marker), "a git hook ran during tfsift fetch", r)


def case_git_stall(s: Suite):
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    try:
        d = s.module(s.call("g", f"git::git://127.0.0.1:{srv.getsockname()[1]}/mod.git?ref=v1.0.0"))
        r = s.run(["fetch", d], {"TFSIFT_GIT_TIMEOUT": "2"})
    finally:
        srv.close()
    expect(r.rc == 2 and "did not finish within 2 seconds" in r.err, "a stalled git server was not cut off", r)
    expect(r.seconds < 30, f"the stalled fetch took {r.seconds:.1f} s", r)


def case_https_archive_and_pages(s: Suite):
    d = s.module(s.call("web", f"https://{s.host}/dl/modules/web/web-1.0.0.zip") +
                 s.call("hdr", f"https://{s.host}/pages/header") + s.call("meta", f"https://{s.host}/pages/meta"))
    r = s.run(["fetch", d])
    expect(r.rc == 0, "the https archive or a page failed", r)
    for name in ("module.web", "module.hdr", "module.meta"):
        expect(name in r.err, f"{name} not reported", r)
    q = [x for x in r.requests if x["path"].startswith("/pages/")]
    expect(q and all("terraform-get=1" in x["query"] for x in q), f"pages not asked with terraform-get=1: {q}", r)


def case_hostile_archives(s: Suite):
    for case, text in (("traversal", "entry contains '..'"), ("zipslip", "entry contains '..'"),
                       ("symlink", "points outside the package"),
                       ("handoff", "must be a direct remote package address"), ("missing", "404")):
        d = s.module(s.call("bad", f"{s.host}/bad/{case}/aws", "1.0.0"))
        r = s.run(["fetch", d])
        expect(r.rc == 2 and text in r.err and s.host in r.err, f"bad/{case} was not refused with {text!r}", r)
        expect(not os.path.exists(os.path.join(s.module_cache, "evil.tf")) and
               not any(os.path.exists(os.path.join(p["dir"], "..", "..", "evil.tf")) for p in cached_packages(s)),
               "an entry landed outside the package", r)
    tmp = os.path.join(s.module_cache, "tmp")
    expect(not os.path.isdir(tmp) or not os.listdir(tmp), f"temporary files left: {os.listdir(tmp)}")


def case_many_versions(s: Suite):
    d = s.module(s.call("many", f"{s.host}/bad/many/aws", "~> 0.99.0"))
    r = s.run(["fetch", d])
    expect(r.rc == 0 and "module.many 0.99.999" in r.err, "100,000 versions: wrong choice", r)
    expect(r.seconds < 20, f"100,000 versions took {r.seconds:.1f} s", r)


def case_unsupported(s: Suite):
    d = s.module(s.call("s3", "s3::https://s3.amazonaws.com/bucket/mod.zip") +
                 s.call("bb", "bitbucket.org/team/repo") + s.call("oci", "oci://registry.example.com/org/mod"))
    r = s.run(["fetch", d])
    expect(r.rc == 0, "sources tfsift does not fetch made fetch fail", r)
    for name in ("module.s3", "module.bb", "module.oci"):
        expect(f"notice: {name}" in r.err, f"{name}: no notice", r)
    expect(not r.requests, "an unsupported source caused a request", r)


def case_offline_and_corrupt(s: Suite):
    shutil.rmtree(s.module_cache, ignore_errors=True)
    d = s.module(s.call("net", f"{s.host}/example/net/aws", "1.0.0"))
    r = s.run(["fetch", d], {"TFSIFT_OFFLINE": "1"})
    expect(r.rc == 2 and not r.requests, "offline with an empty cache did not fail without requests", r)
    r = s.run(["fetch", d])
    expect(r.rc == 0, "fetch failed", r)
    pkg = [p for p in cached_packages(s) if p["resolved"] == "1.0.0"][0]
    with open(os.path.join(pkg["dir"], "main.tf"), "a") as f:
        f.write('variable "planted" {}\n')
    r = s.run(["fetch", d], {"TFSIFT_OFFLINE": "1"})
    expect(r.rc == 2 and "Corrupt module cache entry" in r.err, "a corrupted entry was not detected offline", r)
    r = s.run(["fetch", d])
    expect(r.rc == 0 and "module.net 1.0.0: network" in r.err, "a corrupted entry was not fetched again", r)
    pkg = [p for p in cached_packages(s) if p["resolved"] == "1.0.0"][0]
    expect("planted" not in open(os.path.join(pkg["dir"], "main.tf")).read(), "the planted file survived", r)


def case_installed_modules(s: Suite):
    """A root that `terraform init` installed: its registry and git calls are read from .terraform/modules
    without the network. Arguments the installed versions do not declare are reported at the call, nothing
    inside the installed modules is; an entry installed for another version or source is not used, and
    says why; an unreadable manifest is reported, not skipped in silence."""
    text = ('module "vpc" {\n  source  = "terraform-aws-modules/vpc/aws"\n  version = "5.1.0"\n'
            '  cidr  = "10.0.0.0/16"\n  bogus = "x"\n}\n\n'
            'module "git" {\n  source = "git::https://git.example.invalid/net.git?ref=v1.0.0"\n'
            '  common = "a"\n  nope   = "b"\n}\n')
    d = s.module(text)
    installed = os.path.join(d, ".terraform", "modules")
    for name, body in (("vpc", 'variable "cidr" {}\n\nlocals {\n  unused = "${var.cidr}"\n}\n'),
                       ("git", 'variable "common" {}\n')):
        os.makedirs(os.path.join(installed, name))
        with open(os.path.join(installed, name, "main.tf"), "w") as f:
            f.write(body)

    def manifest(vpc_version, git_source):
        # The shape `terraform init` writes (internal/modsdir).
        return json.dumps({"Modules": [
            {"Key": "", "Source": "", "Dir": "."},
            {"Key": "vpc", "Source": "registry.terraform.io/terraform-aws-modules/vpc/aws",
             "Version": vpc_version, "Dir": ".terraform/modules/vpc"},
            {"Key": "git", "Source": git_source, "Dir": ".terraform/modules/git"}]})

    with open(os.path.join(installed, "modules.json"), "w") as f:
        f.write(manifest("5.1.0", "git::https://git.example.invalid/net.git?ref=v1.0.0"))
    lines = text.splitlines()
    wanted = sorted(("module-arguments-invalid", i + 1, "main.tf") for i, line in enumerate(lines)
                    if line.strip().split(" ")[0] in ("bogus", "nope"))
    offline = {"TFSIFT_OFFLINE": "1"}
    r = s.run(["lint", "--format", "json", d], offline)
    expect(not r.requests, "a lint of installed modules made requests", r)
    doc = json.loads(r.out)
    inside = [f for f in doc["findings"] if ".terraform" in f["location"]["path"]]
    expect(not inside, f"findings inside the installed modules: {inside}", r)
    got = sorted((f["rule"], f["location"]["start"]["line"], os.path.basename(f["location"]["path"]))
                 for f in doc["findings"] if f["rule"] == "module-arguments-invalid")
    expect(got == wanted, f"installed-module findings {got} != {wanted}", r)
    expect("not loaded" not in r.err, "an installed call was reported as not loaded", r)
    # The same from the directory itself (another scope), and from the parent with -r.
    r2 = s.run(["lint", "--format", "json", "--only", "module-arguments-invalid", "."], offline, cwd=d)
    expect(findings_of(r2) == wanted, f"lint from the module directory differs: {findings_of(r2)}", r2)
    # Installed for another version / another ref: not used, and the reason is given.
    with open(os.path.join(installed, "modules.json"), "w") as f:
        f.write(manifest("5.0.0", "git::https://git.example.invalid/net.git?ref=v2.0.0"))
    r = s.run(["lint", "--format", "json", "--only", "module-arguments-invalid", d], offline)
    expect(findings_of(r) == [], f"a mismatched installation was used: {findings_of(r)}", r)
    expect("5.0.0" in r.err and "module.vpc" in r.err, "the version mismatch is not explained", r)
    expect("ref=v2.0.0" in r.err and "module.git" in r.err, "the source mismatch is not explained", r)
    # A manifest that is not JSON: said, with its path.
    with open(os.path.join(installed, "modules.json"), "w") as f:
        f.write("{not json")
    r = s.run(["lint", "--format", "json", "--only", "module-arguments-invalid", d], offline)
    expect(".terraform/modules/modules.json cannot be used" in r.err, "an invalid manifest was skipped silently", r)


def case_lock_rules_with_unloaded_call(s: Suite):
    """The lock rules are not switched off by a call that cannot be loaded: a stale entry is still reported
    (a notice naming the call, since that module might require the provider), and reported as a warning
    once the call is loaded."""
    shutil.rmtree(s.module_cache, ignore_errors=True)
    d = s.module('terraform {\n  required_providers {\n    null = {\n      source  = "hashicorp/null"\n'
                 '      version = "3.2.1"\n    }\n  }\n}\n\nresource "null_resource" "x" {}\n\n' +
                 s.call("net", f"{s.host}/example/net/aws", "1.0.0"))
    with open(os.path.join(d, ".terraform.lock.hcl"), "w") as f:
        f.write('provider "registry.terraform.io/hashicorp/null" {\n  version     = "3.2.1"\n'
                '  constraints = "3.2.1"\n  hashes = [\n'
                '    "h1:FbGfc+muBsC17Ohy5g806iuI1hQc4SIexpYCrQHQd8w=",\n  ]\n}\n\n'
                'provider "registry.terraform.io/hashicorp/random" {\n  version = "3.5.1"\n  hashes = [\n'
                '    "h1:IL9mSatmwov+e0+++YX2V6uel+dV6bn+fC/cnGDK3Ck=",\n  ]\n}\n')
    args = ["lint", "--format", "json", "--only", "lock-stale-provider", d]
    r = s.run(args, {"TFSIFT_OFFLINE": "1"})
    doc = json.loads(r.out)
    stale = [f for f in doc["findings"] if f["rule"] == "lock-stale-provider"]
    expect(len(stale) == 1 and "hashicorp/random" in stale[0]["message"] and "module.net" in stale[0]["message"]
           and stale[0]["severity"] == "notice",
           f"the stale entry was not reported as a notice naming the call: {stale}", r)
    r = s.run(["fetch", d])
    expect(r.rc == 0, "fetch failed", r)
    r = s.run(args, {"TFSIFT_OFFLINE": "1"})
    stale = [f for f in json.loads(r.out)["findings"] if f["rule"] == "lock-stale-provider"]
    expect(len(stale) == 1 and stale[0]["severity"] == "warning" and "module.net" not in stale[0]["message"],
           f"once the call is loaded, the stale entry is not a plain warning: {stale}", r)


def findings_of(run: Run) -> list[tuple[str, int, str]]:
    doc = json.loads(run.out)
    return sorted((f["rule"], f["location"]["start"]["line"], os.path.basename(f["location"]["path"]))
                  for f in doc["findings"])


def case_proof(s: Suite):
    """The issue's proof: a registry module at ~> 1.2, a git module at a tag and an https zip, each version
    declaring different variables. `lint --online` reports exactly the arguments the chosen versions do not
    declare, and nothing inside the fetched modules; `lock` records the provider only the registry module
    requires; with the server stopped a plain `lint` says the same from the cache; a corrupted entry is
    detected."""
    shutil.rmtree(s.module_cache, ignore_errors=True)
    # 1.2.7 declares common and net_1_2_7; v1.0.0 of the repository common and git_one; the zip web_a, web_b.
    text = (
        'module "net" {\n  source  = "%s/example/net/aws"\n  version = "~> 1.2"\n'
        '  common    = "a"\n  net_1_2_7 = "b"\n  net_1_0_0 = "c"\n  net_2_0_0 = "d"\n}\n\n'
        'module "git" {\n  source  = "git::file://%s?ref=v1.0.0"\n'
        '  common  = "a"\n  git_one = "b"\n  git_two = "c"\n}\n\n'
        'module "web" {\n  source = "https://%s/dl/modules/web/web-1.0.0.zip"\n'
        '  web_a = "a"\n  web_b = "b"\n  web_c = "c"\n}\n') % (s.host, s.repo, s.host)
    d = s.module(text)
    # lines of the arguments no chosen version declares
    lines = text.splitlines()
    wanted = sorted(("module-arguments-invalid", i + 1, "main.tf") for i, line in enumerate(lines)
                    if line.strip().split(" ")[0] in ("net_1_0_0", "net_2_0_0", "git_two", "web_c"))
    args = ["lint", "--online", "--format", "json", "--only", "module-arguments-invalid", d]
    r = s.run(args)
    expect(r.rc == 1, "lint --online did not report findings", r)
    got = findings_of(r)
    expect(got == wanted, f"lint --online findings {got} != {wanted}", r)
    # tfsift lock: the provider only module.net (1.2.7) requires, byte for byte as Terraform writes it.
    r = s.run(["lock", "--platform", "linux_amd64", d])
    expect(r.rc == 0, "tfsift lock failed", r)
    demo = s.reg.expect["providers"]["example/demo"]["1.2.0"]
    hashes = sorted(set([demo["platforms"]["linux_amd64"]["h1"]] + demo["sums_zh"]))
    want = ('# This file is maintained automatically by "terraform init".\n'
            "# Manual edits may be lost in future updates.\n\n"
            'provider "registry.example.test/example/demo" {\n'
            '  version     = "1.2.0"\n  constraints = "1.2.0"\n  hashes = [\n' +
            "".join(f'    "{h}",\n' for h in hashes) + "  ]\n}\n")
    with open(os.path.join(d, ".terraform.lock.hcl")) as f:
        lock = f.read()
    expect(lock == want, f"the lock file differs from Terraform's:\n{lock}\n--- expected\n{want}", r)
    # The server stopped: a plain lint gives the same findings from the cache.
    s.reg.stop()
    try:
        r = s.run(["lint", "--format", "json", "--only", "module-arguments-invalid", d])
        expect(findings_of(r) == wanted, f"offline lint from the cache differs: {findings_of(r)}", r)
        # A corrupted cache entry is detected.
        pkg = [p for p in cached_packages(s) if p["resolved"] == "1.2.7"][0]
        with open(os.path.join(pkg["dir"], "main.tf"), "a") as f:
            f.write('variable "net_2_0_0" {}\n')
        r = s.run(["lint", "--format", "json", d])
        expect("Corrupt module cache entry" in r.out + r.err, "the corrupted entry was not reported", r)
        expect(not r.requests, "an offline lint made requests", r)
    finally:
        pass  # the server stays stopped: this case runs last


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tfsift", required=True)
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()
    missing = fr.tools_missing() + ([] if shutil.which("git") else ["git"])
    if missing:
        print("skipped: missing " + ", ".join(missing))
        return 77
    root = tempfile.mkdtemp(prefix="tfsift-modfetch-")
    failures = 0
    suite = Suite(os.path.abspath(args.tfsift), root)
    try:
        for name, fn in CASES.items():
            if args.only and name not in args.only:
                continue
            start = time.monotonic()
            try:
                fn(suite)
                print(f"ok   {name} ({time.monotonic() - start:.1f} s)")
            except Failure as e:
                failures += 1
                print(f"FAIL {name}: {e}")
            except Exception:  # noqa: BLE001 - a broken case is a failure, not a crash
                failures += 1
                print(f"FAIL {name}:\n{traceback.format_exc()}")
    finally:
        suite.reg.stop()
        if args.keep:
            print(f"kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
    print(f"{len(CASES) - failures if not args.only else len(args.only) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
