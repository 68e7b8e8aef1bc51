#!/usr/bin/env python3
"""`tfsift lock diff` end to end, against the fixture registry of
tests/support/fixture_registry.py and scratch git repositories.

Each case makes a git repository in a scratch directory (a base commit, then
a head commit or a working-tree change to `.terraform.lock.hcl`), runs
`tfsift lock diff --base HEAD~1` (or HEAD, or --base-file) in it, and
asserts the JSON document, the findings, the exit status and what the
registry served (its request log: which packages were downloaded). Hashes
and key IDs are the registry's, made at test time; nothing expected is taken
from tfsift.

It also runs the fixtures of the lock-review rules
(fixtures/rules/<rule>/{failing,passing}/<case>/ with base.terraform.lock.hcl
and .terraform.lock.hcl, `# expect: <rule>` on the line a finding must be
on, `{{zh:NS/TYPE/VERSION/PLATFORM}}`, `{{h1:...}}` and `{{forged-zh}}` /
`{{forged-h1}}` standing for hashes), and compares the Markdown of one change
with tests/expected/lock-review.md (key IDs and hashes replaced by names).

Usage: lock_review_check.py --tfsift PATH --source DIR [--only CASE]... [--keep] [--write-golden]
Exits 0 when every case passes, 1 otherwise, 77 when gpg or openssl is missing.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import fixture_registry as fr  # noqa: E402

HOST = "registry.example.test"
TOKEN = "review-token-31c4"
RUN_TIMEOUT = 120
EXTRA_PROVIDERS = {"fork/demo": ("1.2.0",), "example/rekeyed": ("1.0.0", "1.1.0")}
REVIEW_RULES = ("lock-hash-unsigned", "lock-signing-key-changed", "lock-version-downgraded", "lock-platforms-lost",
                "lock-source-moved")
FORGED_ZH = "zh:" + "0" * 63 + "1"
FORGED_H1 = "h1:" + "F" * 43 + "="
HEADER = '# This file is maintained automatically by "terraform init".\n# Manual edits may be lost in future updates.\n'


class Failure(Exception):
    pass


def lock_text(entries):
    """A lock file as Terraform writes it; entries = [(address, version, constraints, hashes)]."""
    out = [HEADER]
    for addr, version, constraints, hashes in sorted(entries):
        out.append(f'\nprovider "{addr}" {{\n')
        if constraints:
            out.append(f'  version     = "{version}"\n  constraints = "{constraints}"\n')
        else:
            out.append(f'  version = "{version}"\n')
        out.append("  hashes = [\n")
        out.extend(f'    "{h}",\n' for h in sorted(set(hashes)))
        out.append("  ]\n}\n")
    return "".join(out)


class Run:
    def __init__(self, args, rc, out, err, requests):
        self.args, self.rc, self.out, self.err, self.requests = args, rc, out, err, requests

    def json(self):
        try:
            return json.loads(self.out)
        except ValueError:
            raise Failure(f"stdout is not JSON\n{self}") from None

    def zips(self):
        return sorted(r["path"].rsplit("/", 1)[1] for r in self.requests if r["path"].endswith(".zip"))

    def __str__(self):
        return f"tfsift {' '.join(self.args)} -> exit {self.rc}\n--- stdout\n{self.out}--- stderr\n{self.err}---"


class Suite:
    def __init__(self, tfsift, source, root):
        self.tfsift = os.path.abspath(tfsift)
        self.source = source
        self.root = root
        self.reg = fr.FixtureRegistry(os.path.join(root, "reg"), extra_providers=EXTRA_PROVIDERS, with_cases=False)
        self.exp = self.reg.expect["providers"]
        self.home = os.path.join(root, "home")
        self.cache_home = os.path.join(root, "cache")
        self.empty = os.path.join(root, "empty-certs")
        for d in (self.home, self.cache_home, self.empty):
            os.makedirs(d, exist_ok=True)
        self.cli_config = os.path.join(root, "cli.tfrc")
        with open(self.cli_config, "w") as f:
            f.write(self.reg.cli_config(f'credentials "{HOST}" {{\n  token = "{TOKEN}"\n}}\n'))
        self.counter = 0

    # -- hashes
    def zh(self, name, version, platform):
        return self.exp[name][version]["platforms"][platform]["zh"]

    def h1(self, name, version, platform):
        return self.exp[name][version]["platforms"][platform]["h1"]

    def all_zh(self, name, version):
        return [self.zh(name, version, p) for p in fr.PLATFORMS]

    def key(self, role="signer"):
        return self.reg.expect["keys"][role]["key_id"]

    # -- environment, repositories, runs
    def env(self, cache=None):
        env = {k: v for k, v in os.environ.items()
               if not (k.lower().endswith("_proxy") or k.startswith(("TF_", "TFSIFT_", "OPENTOFU_", "XDG_", "GIT_"))
                       or k in ("CURL_CA_BUNDLE", "NETRC", "SSL_CERT_FILE", "SSL_CERT_DIR"))}
        env.update({
            "HOME": self.home, "XDG_CACHE_HOME": cache or self.cache_home, "TF_CLI_CONFIG_FILE": self.cli_config,
            "SSL_CERT_FILE": self.reg.ca_pem, "SSL_CERT_DIR": self.empty, "TF_REGISTRY_CLIENT_TIMEOUT": "2",
            "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
            "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid",
        })
        return env

    def git(self, d, *args):
        subprocess.run(["git", "-C", d, *args], env=self.env(), check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)

    def repo(self, base, head, commit_head=True, lock_dir=".", extra=None):
        """A repository whose first commit holds `base` (lock text, or None for
        no lock file) and whose working tree (and second commit, unless
        commit_head is false) holds `head` (None: the lock file deleted)."""
        self.counter += 1
        d = os.path.join(self.root, "work", f"r{self.counter}")
        lock = os.path.join(d, lock_dir, ".terraform.lock.hcl")
        os.makedirs(os.path.dirname(lock))
        self.git(d, "init", "-q")
        with open(os.path.join(d, lock_dir, "main.tf"), "w") as f:
            f.write("terraform {}\n")
        if base is not None:
            with open(lock, "w") as f:
                f.write(base)
        for rel, text in (extra or {}).items():
            os.makedirs(os.path.dirname(os.path.join(d, rel)), exist_ok=True)
            with open(os.path.join(d, rel), "w") as f:
                f.write(text)
        self.git(d, "add", "-A")
        self.git(d, "commit", "-q", "-m", "base")
        if head is None:
            os.remove(lock)
        else:
            with open(lock, "w") as f:
                f.write(head)
        if commit_head:
            self.git(d, "add", "-A")
            self.git(d, "commit", "-q", "-m", "head")
        return d

    def run(self, d, args, cache=None):
        mark = self.reg.mark()
        try:
            proc = subprocess.run([self.tfsift, *args], cwd=d, env=self.env(cache), stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, timeout=RUN_TIMEOUT, check=False)
        except subprocess.TimeoutExpired:
            raise Failure(f"tfsift {' '.join(args)} did not finish within {RUN_TIMEOUT} s") from None
        run = Run(args, proc.returncode, proc.stdout.decode(errors="replace"), proc.stderr.decode(errors="replace"),
                  self.reg.requests(mark))
        if TOKEN in run.out or TOKEN in run.err:
            raise Failure(f"a token was printed\n{run}")
        if run.rc < 0 or "terminate called" in run.err:
            raise Failure(f"tfsift crashed\n{run}")
        for r in run.requests:
            if (r["path"].startswith("/dl/") or r["path"].endswith(".zip")) and r.get("authorization"):
                raise Failure(f"credentials sent to a download URL: {r}\n{run}")
        return run

    def review(self, d, *extra, cache=None):
        return self.run(d, ["lock", "diff", "--base", "HEAD~1", "--format", "json", *extra], cache=cache)


def expect(cond, message, run=None):
    if not cond:
        raise Failure(message + (f"\n{run}" if run is not None else ""))


def providers_of(doc, index=0):
    expect(len(doc["lock_files"]) > index, f"expected at least {index + 1} lock files: {doc}")
    return {p["address"]: p for p in doc["lock_files"][index]["providers"]}


def rules_of(doc):
    return sorted(f["rule_id"] for lf in doc["lock_files"] for f in lf["findings"])


# ---- the cases ------------------------------------------------------------------------

CASES = {}


def case(name):
    def register(fn):
        CASES[name] = fn
        return fn
    return register


DEMO = f"{HOST}/example/demo"
OTHER = f"{HOST}/example/other"


@case("proof")
def proof(s):
    """The last commit upgrades demo (one forged zh: among genuine new hashes)
    and adds other: both named, exactly the forged hash unsigned, exit 1; the
    second run downloads no package."""
    base = lock_text([(DEMO, "1.0.0", "~> 1.0", s.all_zh("example/demo", "1.0.0"))])
    new_demo = s.all_zh("example/demo", "1.2.0") + [s.h1("example/demo", "1.2.0", "linux_amd64"), FORGED_ZH]
    head = lock_text([(DEMO, "1.2.0", "~> 1.2", new_demo),
                      (OTHER, "1.0.0", "", s.all_zh("example/other", "1.0.0"))])
    d = s.repo(base, head)
    run = s.review(d)
    expect(run.rc == 1, "expected exit 1 for the forged hash", run)
    doc = run.json()
    ps = providers_of(doc)
    expect(set(ps) == {DEMO, OTHER}, f"expected exactly demo and other: {sorted(ps)}", run)
    demo, other = ps[DEMO], ps[OTHER]
    expect((demo["change"], demo["from"], demo["to"]) == ("upgraded", "1.0.0", "1.2.0"), f"demo: {demo}")
    expect((other["change"], other["from"], other["to"]) == ("added", None, "1.0.0"), f"other: {other}")
    verdicts = {h["hash"]: h["signed"] for p in (demo, other) for h in p["added_hashes"]}
    expect(set(verdicts) == set(new_demo) | set(s.all_zh("example/other", "1.0.0")), f"added hashes: {verdicts}")
    unsigned = [h for h, ok in verdicts.items() if ok is not True]
    expect(unsigned == [FORGED_ZH] and verdicts[FORGED_ZH] is False, f"expected only the forged hash unsigned: "
           f"{unsigned}", run)
    for h in demo["added_hashes"]:
        if h["signed"]:
            expect(h["key_id"] == s.key() and h["platform"], f"a genuine hash without its key or platform: {h}")
    h1 = next(h for h in demo["added_hashes"] if h["hash"].startswith("h1:"))
    expect(h1["platform"] == "linux_amd64", f"the h1: maps to its package's platform: {h1}")
    expect(sorted(demo["removed_hashes"]) == sorted(s.all_zh("example/demo", "1.0.0")), "removed hashes")
    expect(demo["constraints"] == {"from": "~> 1.0", "to": "~> 1.2"}, f"constraints: {demo['constraints']}")
    expect(rules_of(doc) == ["lock-hash-unsigned"], f"findings: {rules_of(doc)}", run)
    finding = doc["lock_files"][0]["findings"][0]
    line = head.splitlines()[finding["line"] - 1]
    expect(FORGED_ZH in line, f"the finding is not on the forged hash's line: {line!r}")
    expect(run.zips() == ["terraform-provider-demo_1.2.0_linux_amd64.zip"], f"first run downloads: {run.zips()}")
    again = s.review(d)
    expect(again.rc == 1 and again.json()["lock_files"] == doc["lock_files"], "the second run differs", again)
    expect(again.zips() == [], f"the second run downloaded packages: {again.zips()}", again)
    expect(again.json()["downloads"] == 0, "the second run reports downloads", again)


@case("downgrade")
def downgrade(s):
    """A version moved backwards: a warning on its version line, exit 0."""
    d = s.repo(lock_text([(DEMO, "1.2.0", "", s.all_zh("example/demo", "1.2.0"))]),
               lock_text([(DEMO, "1.0.0", "", s.all_zh("example/demo", "1.0.0"))]))
    run = s.review(d)
    doc = run.json()
    expect(run.rc == 0, "a downgrade with signed hashes exits 0", run)
    demo = providers_of(doc)[DEMO]
    expect((demo["change"], demo["from"], demo["to"]) == ("downgraded", "1.2.0", "1.0.0"), f"{demo}")
    expect(all(h["signed"] is True for h in demo["added_hashes"]), "every hash is signed", run)
    expect(rules_of(doc) == ["lock-version-downgraded"], f"findings: {rules_of(doc)}", run)
    line = doc["lock_files"][0]["findings"][0]["line"]
    head = open(os.path.join(d, ".terraform.lock.hcl")).read().splitlines()
    expect(head[line - 1].strip() == 'version = "1.0.0"', f"the finding is on line {line}, not the version's", run)


@case("removed")
def removed(s):
    """A provider removed: to is null; nothing to verify."""
    entries = [(DEMO, "1.2.0", "", s.all_zh("example/demo", "1.2.0")),
               (OTHER, "1.0.0", "", s.all_zh("example/other", "1.0.0"))]
    d = s.repo(lock_text(entries), lock_text(entries[:1]))
    run = s.review(d)
    doc = run.json()
    ps = providers_of(doc)
    expect(run.rc == 0 and list(ps) == [OTHER], "only other changed", run)
    expect((ps[OTHER]["change"], ps[OTHER]["from"], ps[OTHER]["to"]) == ("removed", "1.0.0", None), f"{ps}")
    expect(ps[OTHER]["added_hashes"] == [] and len(ps[OTHER]["removed_hashes"]) == 4, f"{ps}")


@case("forged-h1")
def forged_h1(s):
    """A forged h1: is the hash of none of the signed packages: every package is
    looked at, the hash is unsigned, exit 1."""
    base = lock_text([(DEMO, "1.2.0", "", s.all_zh("example/demo", "1.2.0"))])
    d = s.repo(base, lock_text([(DEMO, "1.2.0", "", s.all_zh("example/demo", "1.2.0") + [FORGED_H1])]))
    run = s.review(d, cache=os.path.join(s.root, "cache-forged-h1"))
    doc = run.json()
    demo = providers_of(doc)[DEMO]
    expect(run.rc == 1 and demo["change"] == "hashes", "expected exit 1 and a hashes change", run)
    expect(demo["added_hashes"] == [{"hash": FORGED_H1, "signed": False, "platform": None, "key_id": s.key(),
                                     "trust": "self-signed"}], f"{demo['added_hashes']}", run)
    expect(len(run.zips()) == len(fr.PLATFORMS), f"every signed package is looked at: {run.zips()}", run)
    expect(rules_of(doc) == ["lock-hash-unsigned"], f"findings: {rules_of(doc)}", run)


@case("h1-download")
def h1_download(s):
    """A genuine h1: of another platform than this one: its package is
    downloaded (once), the hash is signed and mapped to that platform."""
    base = lock_text([(DEMO, "1.2.0", "", s.all_zh("example/demo", "1.2.0"))])
    h1 = s.h1("example/demo", "1.2.0", "darwin_arm64")
    d = s.repo(base, lock_text([(DEMO, "1.2.0", "", s.all_zh("example/demo", "1.2.0") + [h1])]))
    cache = os.path.join(s.root, "cache-h1")
    run = s.review(d, cache=cache)
    demo = providers_of(run.json())[DEMO]
    expect(run.rc == 0, "a genuine h1: exits 0", run)
    expect(demo["added_hashes"][0]["signed"] is True and demo["added_hashes"][0]["platform"] == "darwin_arm64",
           f"{demo['added_hashes']}", run)
    expect("terraform-provider-demo_1.2.0_darwin_arm64.zip" in run.zips(), f"downloads: {run.zips()}", run)
    again = s.review(d, cache=cache)
    expect(again.rc == 0 and again.zips() == [], f"second run downloads: {again.zips()}", again)


@case("signing-key")
def signing_key(s):
    """The new version is signed by another key than the base version."""
    name = f"{HOST}/example/rekeyed"
    d = s.repo(lock_text([(name, "1.0.0", "", s.all_zh("example/rekeyed", "1.0.0"))]),
               lock_text([(name, "1.1.0", "", s.all_zh("example/rekeyed", "1.1.0"))]))
    run = s.review(d)
    doc = run.json()
    p = providers_of(doc)[name]
    expect(run.rc == 0, "a new key alone is a warning", run)
    expect(p["signed_by"]["from"]["key_id"] == s.key("signer") and p["signed_by"]["to"]["key_id"] == s.key("stranger"),
           f"signed_by: {p['signed_by']}", run)
    expect(all(h["signed"] is True and h["key_id"] == s.key("stranger") for h in p["added_hashes"]), "verdicts", run)
    expect(rules_of(doc) == ["lock-signing-key-changed"], f"findings: {rules_of(doc)}", run)
    msg = doc["lock_files"][0]["findings"][0]["message"]
    expect(s.key("signer") in msg and s.key("stranger") in msg, f"the message names both keys: {msg}")


@case("platforms-lost")
def platforms_lost(s):
    """The change keeps linux_amd64 only: the other three are lost."""
    d = s.repo(lock_text([(DEMO, "1.2.0", "", s.all_zh("example/demo", "1.2.0"))]),
               lock_text([(DEMO, "1.2.0", "", [s.zh("example/demo", "1.2.0", "linux_amd64")])]))
    run = s.review(d)
    doc = run.json()
    demo = providers_of(doc)[DEMO]
    expect(demo["platforms"]["before"] == sorted(fr.PLATFORMS) and demo["platforms"]["after"] == ["linux_amd64"],
           f"platforms: {demo['platforms']}", run)
    expect(rules_of(doc) == ["lock-platforms-lost"] and run.rc == 0, f"findings: {rules_of(doc)}", run)
    msg = doc["lock_files"][0]["findings"][0]["message"]
    expect(all(p in msg for p in ("darwin_amd64", "darwin_arm64", "windows_amd64")), f"message: {msg}")


@case("namespace-move")
def namespace_move(s):
    """example/demo replaced by fork/demo: a move, named."""
    fork = f"{HOST}/fork/demo"
    d = s.repo(lock_text([(DEMO, "1.2.0", "", s.all_zh("example/demo", "1.2.0"))]),
               lock_text([(fork, "1.2.0", "", s.all_zh("fork/demo", "1.2.0"))]))
    run = s.review(d)
    doc = run.json()
    ps = providers_of(doc)
    expect(ps[fork]["change"] == "added" and ps[fork]["moved_from"] == DEMO, f"{ps}", run)
    expect(ps[DEMO]["change"] == "removed", f"{ps}", run)
    expect(rules_of(doc) == ["lock-source-moved"] and run.rc == 0, f"findings: {rules_of(doc)}", run)


@case("base-without-lock")
def base_without_lock(s):
    """No lock file at the base: every provider added."""
    d = s.repo(None, lock_text([(DEMO, "1.2.0", "", s.all_zh("example/demo", "1.2.0"))]))
    run = s.review(d)
    doc = run.json()
    expect(run.rc == 0 and doc["lock_files"][0]["state"] == "created", "a new lock file", run)
    demo = providers_of(doc)[DEMO]
    expect(demo["change"] == "added" and demo["from"] is None and len(demo["added_hashes"]) == 4, f"{demo}", run)


@case("lock-deleted")
def lock_deleted(s):
    """The head deletes the lock file: every provider removed."""
    d = s.repo(lock_text([(DEMO, "1.2.0", "", s.all_zh("example/demo", "1.2.0")),
                          (OTHER, "1.0.0", "", s.all_zh("example/other", "1.0.0"))]), None)
    run = s.review(d)
    doc = run.json()
    expect(run.rc == 0 and doc["lock_files"][0]["state"] == "deleted", "a deleted lock file", run)
    ps = providers_of(doc)
    expect(all(p["change"] == "removed" and p["to"] is None for p in ps.values()) and len(ps) == 2, f"{ps}", run)


@case("offline")
def offline(s):
    """--offline: the changes without verification, no request, said so."""
    base = lock_text([(DEMO, "1.0.0", "", s.all_zh("example/demo", "1.0.0"))])
    d = s.repo(base, lock_text([(DEMO, "1.2.0", "", s.all_zh("example/demo", "1.2.0") + [FORGED_ZH])]))
    run = s.review(d, "--offline")
    doc = run.json()
    expect(run.rc == 0 and run.requests == [], "offline asks nothing and finds no unsigned hash", run)
    expect(doc["verified"] is False and "offline" in run.err, "offline is said", run)
    demo = providers_of(doc)[DEMO]
    expect(demo["change"] == "upgraded" and all(h["signed"] is None for h in demo["added_hashes"]), f"{demo}", run)
    text = s.run(d, ["lock", "diff", "--base", "HEAD~1", "--offline", "--color", "never"])
    expect("without verification" in text.out and "upgraded" in text.out, "the text says offline", text)


@case("working-tree-and-paths")
def working_tree_and_paths(s):
    """Against HEAD, the uncommitted change of a lock file in a subdirectory,
    found from the repository root and named by its path; an unchanged lock
    file elsewhere that does not even read is no concern of the review."""
    d = s.repo(lock_text([(DEMO, "1.0.0", "", s.all_zh("example/demo", "1.0.0"))]),
               lock_text([(DEMO, "1.2.0", "", s.all_zh("example/demo", "1.2.0"))]), commit_head=False,
               lock_dir="envs/prod", extra={"envs/old/.terraform.lock.hcl": "not a lock file {"})
    run = s.run(d, ["lock", "diff", "--base", "HEAD", "--format", "json"])
    doc = run.json()
    expect(run.rc == 0 and [lf["path"] for lf in doc["lock_files"]] == ["envs/prod/.terraform.lock.hcl"],
           "the subdirectory's file", run)
    by_file = s.run(d, ["lock", "diff", "--base", "HEAD", "--format", "json", "envs/prod/.terraform.lock.hcl"])
    expect(by_file.rc == 0 and by_file.json()["lock_files"] == doc["lock_files"], "a lock file as PATH", by_file)


@case("base-file")
def base_file(s):
    """--base-file compares one file without git."""
    d = os.path.join(s.root, "work", "plain")
    os.makedirs(d)
    with open(os.path.join(d, "old.hcl"), "w") as f:
        f.write(lock_text([(DEMO, "1.2.0", "", s.all_zh("example/demo", "1.2.0"))]))
    with open(os.path.join(d, ".terraform.lock.hcl"), "w") as f:
        f.write(lock_text([(DEMO, "1.0.0", "", s.all_zh("example/demo", "1.0.0"))]))
    run = s.run(d, ["lock", "diff", "--base-file", "old.hcl", "--format", "json"])
    expect(run.rc == 0 and providers_of(run.json())[DEMO]["change"] == "downgraded", "downgrade", run)


@case("failures")
def failures(s):
    """A base that cannot be read and a registry that fails: exit 2, named."""
    d = s.repo(lock_text([(DEMO, "1.0.0", "", s.all_zh("example/demo", "1.0.0"))]),
               lock_text([(DEMO, "1.2.0", "", s.all_zh("example/demo", "1.2.0"))]))
    run = s.run(d, ["lock", "diff", "--base", "no-such-ref"])
    expect(run.rc == 2 and "no-such-ref" in run.err, "an unknown revision exits 2", run)
    run = s.run(d, ["lock", "diff", "--base", "--upload-pack=x"])
    expect(run.rc == 2, "a revision that looks like an option is refused", run)
    outside = os.path.join(s.root, "work", "no-git")
    os.makedirs(outside, exist_ok=True)
    run = s.run(outside, ["lock", "diff", "--base", "HEAD"])
    expect(run.rc == 2, "outside a repository exits 2", run)
    linked = s.repo(lock_text([(DEMO, "1.0.0", "", s.all_zh("example/demo", "1.0.0"))]), None)
    os.symlink("/etc/passwd", os.path.join(linked, ".terraform.lock.hcl"))
    run = s.run(linked, ["lock", "diff", "--base", "HEAD", "--offline"])
    expect(run.rc == 2 and "root:" not in run.out + run.err, "a link out of the repository is refused unread", run)
    s.reg.set_faults([fr.Rule(r"/dl/example/demo/1\.2\.0/.*SHA256SUMS$", status=500, regex=True)])
    try:
        run = s.review(d)
    finally:
        s.reg.clear_faults()
    expect(run.rc == 2, "a registry failure exits 2", run)
    expect(HOST in run.err and "example/demo" in run.err and "1.2.0" in run.err, "the failure names them", run)
    # A package that cannot be fetched: its platform is named too.
    h1 = s.h1("example/demo", "1.2.0", "linux_amd64")
    d = s.repo(lock_text([(DEMO, "1.2.0", "", s.all_zh("example/demo", "1.2.0"))]),
               lock_text([(DEMO, "1.2.0", "", s.all_zh("example/demo", "1.2.0") + [h1])]))
    s.reg.set_faults([fr.Rule(r"/dl/example/demo/1\.2\.0/.*\.zip$", status=500, regex=True)])
    try:
        run = s.review(d, cache=os.path.join(s.root, "cache-failing-package"))
    finally:
        s.reg.clear_faults()
    expect(run.rc == 2 and all(w in run.err for w in (HOST, "example/demo", "1.2.0", "linux_amd64")),
           "a package failure exits 2 naming host, provider, version and platform", run)
    expect(run.json()["lock_files"][0]["providers"][0]["added_hashes"][0]["signed"] is None,
           "a hash whose check failed is neither signed nor unsigned", run)


@case("settings")
def settings(s):
    """The nearest .tfsift.toml's [rules] apply: a rule turned off reports
    nothing, a severity lowered to warning no longer fails the review; a
    settings file that does not read fails it."""
    base = lock_text([(DEMO, "1.2.0", "", s.all_zh("example/demo", "1.2.0"))])
    head = lock_text([(DEMO, "1.0.0", "", s.all_zh("example/demo", "1.0.0") + [FORGED_ZH])])
    toml = '[rules]\nlock-version-downgraded = "off"\nlock-hash-unsigned = "warning"\n'
    d = s.repo(base, head, extra={".tfsift.toml": toml})
    run = s.review(d)
    doc = run.json()
    findings = [(f["rule_id"], f["severity"]) for lf in doc["lock_files"] for f in lf["findings"]]
    expect(run.rc == 0 and findings == [("lock-hash-unsigned", "warning")], f"findings: {findings}", run)
    with open(os.path.join(d, ".tfsift.toml"), "w") as f:
        f.write("[rules\n")
    run = s.review(d)
    expect(run.rc == 2 and ".tfsift.toml" in run.err, "a broken settings file exits 2, named", run)


@case("jobs")
def jobs(s):
    """--jobs 1 and --jobs 4 give the same review of several providers."""
    base = lock_text([(DEMO, "1.0.0", "", s.all_zh("example/demo", "1.0.0"))])
    head = lock_text([(DEMO, "1.2.0", "", s.all_zh("example/demo", "1.2.0") + [FORGED_ZH]),
                      (OTHER, "1.0.0", "", s.all_zh("example/other", "1.0.0")),
                      (f"{HOST}/fork/demo", "1.2.0", "", s.all_zh("fork/demo", "1.2.0")),
                      (f"{HOST}/example/rekeyed", "1.1.0", "", s.all_zh("example/rekeyed", "1.1.0"))])
    d = s.repo(base, head)
    one = s.review(d, "--jobs", "1")
    four = s.review(d, "--jobs", "4")
    expect(one.rc == four.rc == 1 and one.out == four.out, "--jobs changes the review", four)
    expect(len(providers_of(one.json())) == 4, "four providers changed", one)


@case("formats")
def formats(s):
    """text, markdown, sarif and github from one run with --output; the
    Markdown matches the golden file."""
    base = lock_text([(DEMO, "1.0.0", "~> 1.0", s.all_zh("example/demo", "1.0.0"))])
    new_demo = s.all_zh("example/demo", "1.2.0") + [s.h1("example/demo", "1.2.0", "linux_amd64"), FORGED_ZH]
    head = lock_text([(DEMO, "1.2.0", "~> 1.2", new_demo),
                      (OTHER, "1.0.0", "", s.all_zh("example/other", "1.0.0"))])
    d = s.repo(base, head)
    outs = {f: os.path.join(d, f"review.{f}") for f in ("markdown", "sarif", "github", "text")}
    run = s.run(d, ["lock", "diff", "--base", "HEAD~1", *[a for f, p in outs.items() for a in ("-o", f"{f}:{p}")]])
    expect(run.rc == 1, "exit 1 with every format", run)
    read = {f: open(p, encoding="utf-8").read() for f, p in outs.items()}
    sarif = json.loads(read["sarif"])
    results = sarif["runs"][0]["results"]
    expect([r["ruleId"] for r in results] == ["lock-hash-unsigned"], f"sarif results: {results}")
    expect("::error file=.terraform.lock.hcl,line=" in read["github"], f"github: {read['github']}")
    expect("UNSIGNED" in read["text"] and "upgraded" in read["text"], f"text: {read['text']}")
    md = read["markdown"]
    expect("✘" in md and "✔" in md and "<details>" in md, "markdown marks and folds", run)
    names = {s.key(): "SIGNER_KEY", FORGED_ZH: "FORGED_ZH"}
    for name in ("example/demo", "example/other"):
        for version, rec in s.exp[name].items():
            for platform, p in rec["platforms"].items():
                names[p["zh"]] = f"ZH_{name.split('/')[1]}_{version}_{platform}"
                if p["h1"]:
                    names[p["h1"]] = f"H1_{name.split('/')[1]}_{version}_{platform}"
    normal = md
    for value, name in sorted(names.items(), key=lambda kv: -len(kv[0])):
        normal = normal.replace(value, name)
    golden = os.path.join(s.source, "tests", "expected", "lock-review.md")
    if s.write_golden:
        with open(golden, "w", encoding="utf-8") as f:
            f.write(normal)
    with open(golden, encoding="utf-8") as f:
        want = f.read()
    expect(normal == want, f"the Markdown differs from tests/expected/lock-review.md:\n{normal}")


@case("rule-fixtures")
def rule_fixtures(s):
    """fixtures/rules/<review rule>/{failing,passing}/<case>: exactly the
    annotated findings."""
    problems = []
    for rule in REVIEW_RULES:
        for kind in ("failing", "passing"):
            top = os.path.join(s.source, "fixtures", "rules", rule, kind)
            expect(os.path.isdir(top), f"{top} is missing")
            cases = sorted(os.listdir(top))
            expect(cases, f"{top} has no case")
            for name in cases:
                problems += run_fixture(s, rule, kind, os.path.join(top, name))
    expect(not problems, "\n".join(problems))


def substitute(s, text):
    def one(m):
        token = m.group(1)
        if token == "forged-zh":
            return FORGED_ZH
        if token == "forged-h1":
            return FORGED_H1
        kind, rest = token.split(":", 1)
        ns, ptype, version, platform = rest.split("/")
        return s.exp[f"{ns}/{ptype}"][version]["platforms"][platform][kind]
    return re.sub(r"\{\{([^}]+)\}\}", one, text)


def run_fixture(s, rule, kind, src):
    d = os.path.join(s.root, "fixtures", rule, kind, os.path.basename(src))
    os.makedirs(d)
    files = {}
    for name in ("base.terraform.lock.hcl", ".terraform.lock.hcl"):
        with open(os.path.join(src, name)) as f:
            files[name] = substitute(s, f.read())
        with open(os.path.join(d, name), "w") as f:
            f.write(files[name])
    want = sorted(n for n, line in enumerate(files[".terraform.lock.hcl"].splitlines(), 1)
                  for r in re.findall(r"# expect: ([\w, -]+)", line) for rule_id in r.split(",")
                  if rule_id.strip() == rule)
    expect(kind == "passing" or want, f"{src}: a failing case without an expectation")
    expect(kind == "failing" or not want, f"{src}: a passing case with an expectation")
    run = s.run(d, ["lock", "diff", "--base-file", "base.terraform.lock.hcl", "--format", "json"])
    if run.rc not in (0, 1):
        return [f"{src}: exit {run.rc}\n{run}"]
    got = sorted(f["line"] for lf in run.json()["lock_files"] for f in lf["findings"] if f["rule_id"] == rule)
    if got != want:
        return [f"{src}: {rule} on lines {got}, expected {want}"]
    return []


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tfsift", required=True)
    ap.add_argument("--source", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--write-golden", action="store_true", help="rewrite tests/expected/lock-review.md")
    args = ap.parse_args()
    missing = fr.tools_missing() + ([] if shutil.which("git") else ["git"])
    if missing:
        print(f"lock_review_check: skipped, missing {', '.join(missing)}")
        return 77
    root = tempfile.mkdtemp(prefix="tfsift-lock-review-")
    failed = []
    suite = None
    try:
        started = time.monotonic()
        suite = Suite(args.tfsift, os.path.abspath(args.source), root)
        suite.write_golden = args.write_golden
        print(f"fixture registry ready in {time.monotonic() - started:.1f} s")
        for name, fn in CASES.items():
            if args.only and name not in args.only:
                continue
            try:
                fn(suite)
                print(f"ok    {name}")
            except Failure as e:
                failed.append(name)
                print(f"FAIL  {name}: {e}")
            except Exception:  # noqa: BLE001 - a broken case is a failure, with its trace
                failed.append(name)
                print(f"FAIL  {name}:\n{traceback.format_exc()}")
    finally:
        if suite is not None:
            suite.reg.stop()
        if args.keep:
            print(f"kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
    print(f"{len(failed)} failed" if failed else "all passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
