#!/usr/bin/env python3
"""The online installer end to end: `tfsift lock` and `tfsift lint --online`
against the fixture registry of tests/support/fixture_registry.py.

The registry is built and served by this process on 127.0.0.1 (HTTPS, a CA
made for the run). tfsift reaches it as a user's tfsift would reach a real
one: `host` blocks and `credentials` in the CLI configuration named by
TF_CLI_CONFIG_FILE, a `localhost:PORT` provider host for real service
discovery, the CA through SSL_CERT_FILE, a token in TF_TOKEN_<host>. Each
case runs tfsift in a fresh module directory and asserts its exit status,
that its message names the host, provider, version and platform and the
upstream reason, that a failure leaves the lock file byte-identical, no temp
file and no cache entry behind, that no token is printed and that no
credentials go to checksum, signature or package URLs (the server's
request log). The expected lock files and hashes are computed here, never
taken from tfsift.

Usage: installer_check.py --tfsift PATH [--only CASE]... [--list] [--keep]
Exits 0 when every case passes, 1 otherwise, 77 when gpg or openssl is missing.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import fixture_registry as fr  # noqa: E402

HOST = "registry.example.test"
ENV_TOKEN = "env-token-5b8e"
BLOCK_TOKEN = "block-token-9c1f"
MIRROR_TOKEN = "mirror-token-77aa"
TOKENS = (ENV_TOKEN, BLOCK_TOKEN, MIRROR_TOKEN)
RUN_TIMEOUT = 60  # seconds before a tfsift run counts as a hang

HEADER = {"terraform": '# This file is maintained automatically by "terraform init".\n',
          "opentofu": '# This file is maintained automatically by "tofu init".\n'}

NEW_PROVIDER = "This was a new provider and the checksums for this platform are now tracked in the lock file"
ALREADY_TRACKED = "All checksums for this platform were already tracked in the lock file"
UPDATED = "Success! tfsift has updated the lock file."
VALIDATED = "Success! tfsift has validated the lock file and found no need for changes."


class Failure(Exception):
    pass


def lock_text(entries, engine="terraform"):
    """The lock file Terraform writes (providers-and-locks 3.4) for
    entries = [(address, version, constraints, hashes)]."""
    out = [HEADER[engine], "# Manual edits may be lost in future updates.\n"]
    for addr, version, constraints, hashes in sorted(entries):
        out.append(f'\nprovider "{addr}" {{\n')
        if constraints:
            out.append(f'  version     = "{version}"\n  constraints = "{constraints}"\n')
        else:
            out.append(f'  version = "{version}"\n')
        if hashes:
            out.append("  hashes = [\n")
            out.extend(f'    "{h}",\n' for h in sorted(set(hashes)))
            out.append("  ]\n")
        out.append("}\n")
    return "".join(out)


def main_tf(requirements, engine="terraform"):
    body = "".join(f'    {local} = {{\n      source  = "{source}"\n      version = "{version}"\n    }}\n'
                   for local, source, version in requirements)
    return f"terraform {{\n  required_providers {{\n{body}  }}\n}}\n"


class Run:
    def __init__(self, args, rc, out, err, seconds, requests):
        self.args, self.rc, self.out, self.err, self.seconds, self.requests = args, rc, out, err, seconds, requests

    def __str__(self):
        return (f"tfsift {' '.join(self.args)} -> exit {self.rc} in {self.seconds:.1f} s\n"
                f"--- stdout\n{self.out}--- stderr\n{self.err}---")


class Suite:
    def __init__(self, tfsift, root):
        self.tfsift = tfsift
        self.root = root
        self.reg = fr.FixtureRegistry(os.path.join(root, "reg"))
        self.port = self.reg.port
        self.home = os.path.join(root, "home")
        self.cache_home = os.path.join(root, "cache")
        self.tmpdir = os.path.join(root, "tmp")
        self.plugin_cache = os.path.join(root, "plugins")
        self.empty = os.path.join(root, "empty-certs")
        for d in (self.home, self.cache_home, self.tmpdir, self.plugin_cache, self.empty):
            os.makedirs(d, exist_ok=True)
        self.cli_config = os.path.join(root, "cli.tfrc")
        with open(self.cli_config, "w") as f:
            f.write(self.reg.cli_config(
                f'credentials "{HOST}" {{\n  token = "{BLOCK_TOKEN}"\n}}\n'
                f'credentials "localhost:{self.port}" {{\n  token = "{MIRROR_TOKEN}"\n}}\n'))
        self.counter = 0
        self.notes = []

    # -- environment and runs
    def env(self, extra=None):
        env = {k: v for k, v in os.environ.items()
               if not (k.lower().endswith("_proxy") or k.startswith(("TF_", "TFSIFT_", "OPENTOFU_", "XDG_"))
                       or k in ("CURL_CA_BUNDLE", "NETRC", "SSL_CERT_FILE", "SSL_CERT_DIR"))}
        env.update({
            "HOME": self.home, "XDG_CACHE_HOME": self.cache_home, "TMPDIR": self.tmpdir,
            "TF_CLI_CONFIG_FILE": self.cli_config, "TF_PLUGIN_CACHE_DIR": self.plugin_cache,
            "SSL_CERT_FILE": self.reg.ca_pem, "SSL_CERT_DIR": self.empty,
            "TF_REGISTRY_CLIENT_TIMEOUT": "2",
            "TF_TOKEN_registry_example_test": ENV_TOKEN,
        })
        for k, v in (extra or {}).items():
            if v is None:
                env.pop(k, None)
            else:
                env[k] = v
        return env

    def module(self, requirements, lock=None, engine="terraform"):
        self.counter += 1
        d = os.path.join(self.root, "work", f"m{self.counter}")
        os.makedirs(d)
        with open(os.path.join(d, "main.tf"), "w") as f:
            f.write(main_tf(requirements, engine))
        if lock is not None:
            with open(os.path.join(d, ".terraform.lock.hcl"), "w") as f:
                f.write(lock)
        return d

    def run(self, args, env_extra=None, timeout=RUN_TIMEOUT):
        mark = self.reg.mark()
        started = time.monotonic()
        try:
            proc = subprocess.run([self.tfsift, *args], env=self.env(env_extra), stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, timeout=timeout, cwd=self.root, check=False)
        except subprocess.TimeoutExpired as e:
            raise Failure(f"tfsift {' '.join(args)} did not finish within {timeout} s (a hang); stderr so far:\n"
                          f"{(e.stderr or b'').decode(errors='replace')}") from None
        run = Run(args, proc.returncode, proc.stdout.decode(errors="replace"), proc.stderr.decode(errors="replace"),
                  time.monotonic() - started, self.reg.requests(mark))
        for token in TOKENS:
            if token in run.out or token in run.err:
                raise Failure(f"a token was printed\n{run}")
        if run.rc < 0 or "terminate called" in run.err or "Segmentation" in run.err:
            raise Failure(f"tfsift crashed\n{run}")
        for r in run.requests:
            if is_download(r["path"]) and r["authorization"] and not r["authorization"].startswith("Basic "):
                raise Failure(f"credentials sent to a download URL: {r}\n{run}")
        strays = set(os.listdir(self.home)) - {".netrc"}
        if strays:
            raise Failure(f"tfsift wrote into HOME: {sorted(strays)}\n{run}")
        return run

    def lock(self, d, *extra, env_extra=None, platforms=("linux_amd64",)):
        args = ["lock", d, *[a for p in platforms for a in ("--platform", p)], *extra]
        return self.run(args, env_extra)

    def cache_files(self):
        out = set()
        for base in (self.cache_home, self.plugin_cache):
            for dirpath, _, files in os.walk(base):
                out.update(os.path.join(dirpath, f) for f in files)
        return out

    def expect_failure(self, d, run_fn, reason, names, before_cache=None):
        """A failed run: exit 2, message with every name in `names` and the
        `reason` pattern, lock file and directory unchanged, no temp file, the
        cache untouched."""
        lock_path = os.path.join(d, ".terraform.lock.hcl")
        lock_before = read_bytes(lock_path)
        listing = sorted(os.listdir(d))
        cache_before = self.cache_files() if before_cache is None else before_cache
        run = run_fn()
        problems = []
        if run.rc != 2:
            problems.append(f"exit status {run.rc}, expected 2")
        text = run.err + run.out
        for name in names:
            if name not in text:
                problems.append(f"the message does not name {name!r}")
        if not re.search(reason, text):
            problems.append(f"the message does not give the reason /{reason}/")
        if read_bytes(lock_path) != lock_before:
            problems.append("the lock file changed")
        if sorted(os.listdir(d)) != listing:
            problems.append(f"the module directory changed: {sorted(set(os.listdir(d)) ^ set(listing))}")
        if os.listdir(self.tmpdir):
            problems.append(f"temp files left in TMPDIR: {os.listdir(self.tmpdir)}")
        added = self.cache_files() - cache_before
        if added:
            problems.append(f"the cache gained files after a failure: {sorted(added)[:5]}")
        if problems:
            raise Failure("; ".join(problems) + f"\n{run}")
        return run


def read_bytes(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


def is_download(path):
    """Checksum, signature and package URLs: never sent credentials."""
    return path.startswith(("/dl/", "/_fault/")) or path.endswith(".zip")


def is_api(path):
    return path.startswith(("/v1/", "/.well-known/"))


def zips_fetched(run):
    return [r["path"] for r in run.requests if r["path"].endswith(".zip")]


# ---- the cases --------------------------------------------------------------------

CASES = {}


def case(name):
    def register(fn):
        CASES[name] = fn
        return fn
    return register


def proof_lock_entries(s, platforms=("linux_amd64", "darwin_arm64"), host=HOST):
    exp = s.reg.expect["providers"]
    entries = []
    for ptype, version, constraints in (("demo", "1.2.0", "~> 1.0"), ("other", "1.0.0", ">= 0.9.0")):
        rec = exp[f"example/{ptype}"][version]
        hashes = [rec["platforms"][p]["h1"] for p in platforms] + rec["sums_zh"]
        entries.append((f"{host}/example/{ptype}", version, constraints, hashes))
    return entries


def proof_module(s, host=HOST, lock=None):
    return s.module([("demo", f"{host}/example/demo", "~> 1.0"), ("other", f"{host}/example/other", ">= 0.9.0")],
                    lock=lock)


@case("proof-lock")
def proof_lock(s):
    """2 providers x 4 platforms with prereleases and several versions, locked
    for linux_amd64 and darwin_arm64: the file Terraform writes, the progress
    lines, the headers; a second run downloads no package and says so; a
    corrupted cached package is fetched again; --jobs 1 prints the same."""
    d = proof_module(s)
    want = lock_text(proof_lock_entries(s))
    run = s.lock(d, platforms=("linux_amd64", "darwin_arm64"))
    if run.rc != 0:
        raise Failure(f"lock failed\n{run}")
    got = read_bytes(os.path.join(d, ".terraform.lock.hcl"))
    if got != want.encode():
        raise Failure(f"lock file differs from the expected one:\n--- expected\n{want}--- got\n"
                      f"{(got or b'').decode()}\n{run}")
    key_id = s.reg.expect["keys"]["signer"]["key_id"]
    for ptype, version in (("demo", "1.2.0"), ("other", "1.0.0")):
        addr = f"{HOST}/example/{ptype}"
        for platform in ("linux_amd64", "darwin_arm64"):
            for line in (f"- Fetching {addr} {version} for {platform}...",
                         f"- Retrieved {addr} {version} for {platform} (self-signed, key ID {key_id})",
                         f"- Obtained {addr} checksums for {platform}; {NEW_PROVIDER}"):
                if line not in run.err:
                    raise Failure(f"missing progress line {line!r}\n{run}")
    if UPDATED not in run.err:
        raise Failure(f"missing {UPDATED!r}\n{run}")
    fetched = sorted(zips_fetched(run))
    want_zips = sorted(f"/dl/example/{t}/{v}/terraform-provider-{t}_{v}_{p}.zip"
                       for t, v in (("demo", "1.2.0"), ("other", "1.0.0")) for p in ("linux_amd64", "darwin_arm64"))
    if fetched != want_zips:
        raise Failure(f"packages fetched {fetched}, expected {want_zips}")
    for r in run.requests:
        if is_api(r["path"]):
            if r["authorization"] != f"Bearer {ENV_TOKEN}":
                raise Failure(f"registry request without TF_TOKEN_ credentials (env beats the block): {r}")
            if not r["x_terraform_version"]:
                raise Failure(f"registry request without X-Terraform-Version: {r}")
        elif r["x_terraform_version"]:
            raise Failure(f"X-Terraform-Version sent to a download URL: {r}")
        if not (r["user_agent"] or "").startswith("tfsift/"):
            raise Failure(f"User-Agent is not tfsift/<version>: {r}")

    # What killed runs left in the cache goes on the next run: a fetch's
    # private directory a day old, a download an hour old.
    providers_cache = os.path.join(s.cache_home, "tfsift", "providers")
    stale = [os.path.join(providers_cache, ".tfsift-tmp", "lock-1-deadbeef", "0-0.zip"),
             os.path.join(providers_cache, HOST, "example", "demo", ".tfsift", "tmp", "download-Xy12Zw")]
    for path in stale:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(b"partial")
        os.utime(path, (time.time() - 2 * 86400,) * 2)
    os.utime(os.path.dirname(stale[0]), (time.time() - 2 * 86400,) * 2)
    again = s.lock(d, platforms=("linux_amd64", "darwin_arm64"))
    if any(os.path.exists(p) for p in stale) or os.path.exists(os.path.dirname(stale[0])):
        raise Failure(f"stale temporary files were left in the cache: {[p for p in stale if os.path.exists(p)]}")
    if again.rc != 0 or read_bytes(os.path.join(d, ".terraform.lock.hcl")) != want.encode():
        raise Failure(f"second run changed the file or failed\n{again}")
    if zips_fetched(again):
        raise Failure(f"the second run downloaded packages again: {zips_fetched(again)}\n{again}")
    if VALIDATED not in again.err or f"{ALREADY_TRACKED}" not in again.err:
        raise Failure(f"second run: expected {VALIDATED!r} and {ALREADY_TRACKED!r}\n{again}")
    s.notes.append(f"proof-lock: first run {run.seconds:.2f} s ({len(run.requests)} requests, 4 packages), "
                   f"second run {again.seconds:.2f} s ({len(again.requests)} requests, 0 packages)")

    cached = sorted(p for p in s.cache_files() if p.endswith("terraform-provider-demo_1.2.0_linux_amd64.zip"))
    if not cached or not cached[0].startswith(os.path.join(s.cache_home, "tfsift", "providers") + os.sep):
        raise Failure(f"no cached package under $XDG_CACHE_HOME/tfsift/providers: {sorted(s.cache_files())[:8]}")
    with open(cached[0], "r+b") as f:
        f.seek(40)
        f.write(b"corrupted")
    third = s.lock(d, platforms=("linux_amd64", "darwin_arm64"))
    if third.rc != 0 or read_bytes(os.path.join(d, ".terraform.lock.hcl")) != want.encode():
        raise Failure(f"run after corrupting the cache failed or changed the file\n{third}")
    if zips_fetched(third) != ["/dl/example/demo/1.2.0/terraform-provider-demo_1.2.0_linux_amd64.zip"]:
        raise Failure(f"a corrupted cached package must be fetched again, and only it: {zips_fetched(third)}")
    if fr.zh_of(read_bytes(cached[0])) != s.reg.expect["providers"]["example/demo"]["1.2.0"]["platforms"][
            "linux_amd64"]["zh"]:
        raise Failure("the corrupted cached package was not replaced")

    # The same lock from an empty cache with one job prints the same lines.
    serial = proof_module(s)
    one = s.lock(serial, "--jobs", "1", "--cache-dir", os.path.join(s.root, "cache-serial"),
                 platforms=("linux_amd64", "darwin_arm64"))
    if one.rc != 0 or read_bytes(os.path.join(serial, ".terraform.lock.hcl")) != want.encode():
        raise Failure(f"--jobs 1 with --cache-dir failed or wrote another file\n{one}")
    if [line for line in one.err.splitlines() if line.startswith("- ")] != \
            [line for line in run.err.splitlines() if line.startswith("- ")]:
        raise Failure(f"--jobs 1 printed other progress lines than the default jobs\n{one}\n{run}")
    if not os.path.isdir(os.path.join(s.root, "cache-serial")):
        raise Failure("--cache-dir was not used")
    if os.listdir(s.plugin_cache):
        raise Failure(f"the plugin cache was written without --enable-plugin-cache: {os.listdir(s.plugin_cache)}")


@case("plugin-cache")
def plugin_cache(s):
    """--enable-plugin-cache unpacks into TF_PLUGIN_CACHE_DIR/<host>/<ns>/<type>/<v>/<os_arch>/."""
    d = s.module([("other", f"{HOST}/example/other", "1.0.0")])
    run = s.lock(d, "--enable-plugin-cache")
    if run.rc != 0:
        raise Failure(f"lock failed\n{run}")
    target = os.path.join(s.plugin_cache, HOST, "example", "other", "1.0.0", "linux_amd64")
    want = s.reg.expect["providers"]["example/other"]["1.0.0"]["platforms"]["linux_amd64"]["h1"]
    if not os.path.isdir(target) or fr.h1_of_directory(target) != want:
        raise Failure(f"no package with {want} at {target}\n{run}")
    shutil.rmtree(os.path.join(s.plugin_cache, HOST))


@case("lint-fix-online")
def lint_fix_online(s):
    """lint --fix adds a missing lock entry from the registry (h1: for the
    declared platforms, every signed zh:); with --offline or TFSIFT_OFFLINE=1
    it sends nothing and cannot."""
    entries = proof_lock_entries(s)
    partial = lock_text(entries[:1])
    for how, extra, env in (("--offline", ["--offline"], None), ("TFSIFT_OFFLINE=1", [], {"TFSIFT_OFFLINE": "1"})):
        d = proof_module(s, lock=partial)
        with open(os.path.join(d, ".tfsift.toml"), "w") as f:
            f.write('platforms = ["linux_amd64", "darwin_arm64"]\n')
        env = dict(env or {}, XDG_CACHE_HOME=os.path.join(s.root, f"cache-offline-{len(extra)}"))
        run = s.run(["lint", "--fix", *extra, "--format", "compact", "--color", "never", d], env)
        if run.requests or read_bytes(os.path.join(d, ".terraform.lock.hcl")) != partial.encode():
            raise Failure(f"lint --fix with {how} went online or changed the lock\n{run}")
    d = proof_module(s, lock=partial)
    with open(os.path.join(d, ".tfsift.toml"), "w") as f:
        f.write('platforms = ["linux_amd64", "darwin_arm64"]\n')
    run = s.run(["lint", "--fix", "--format", "compact", "--color", "never", d],
                {"XDG_CACHE_HOME": os.path.join(s.root, "cache-fix")})
    want = lock_text(entries)
    got = read_bytes(os.path.join(d, ".terraform.lock.hcl"))
    if run.rc == 2 or got != want.encode():
        raise Failure(f"lint --fix did not write the expected lock\n--- expected\n{want}--- got\n"
                      f"{(got or b'').decode()}\n{run}")


@case("proof-lint-online")
def proof_lint_online(s):
    """lint --online: a correct lock has no lock-hash-mismatch; one tampered
    zh: is reported at its line, naming provider and version."""
    lock = lock_text(proof_lock_entries(s))
    clean = proof_module(s, lock=lock)
    run = s.run(["lint", "--online", "--format", "compact", "--color", "never", clean])
    if "lock-hash-mismatch" in run.out or run.rc == 2:
        raise Failure(f"a correct lock file is reported\n{run}")
    demo = s.reg.expect["providers"]["example/demo"]["1.2.0"]
    victim = demo["platforms"]["darwin_amd64"]["zh"]
    tampered = victim[:-1] + ("0" if victim[-1] != "0" else "1")
    bad = lock.replace(victim, tampered)
    line = next(i for i, text in enumerate(bad.splitlines(), 1) if tampered in text)
    d = proof_module(s, lock=bad)
    before = read_bytes(os.path.join(d, ".terraform.lock.hcl"))
    run = s.run(["lint", "--online", "--format", "compact", "--color", "never", d])
    findings = [f for f in run.out.splitlines() if "[lock-hash-mismatch]" in f]
    if run.rc != 1 or len(findings) != 1:
        raise Failure(f"expected exit 1 and exactly one lock-hash-mismatch\n{run}")
    if not re.match(rf".*\.terraform\.lock\.hcl:{line}:\d+: error\[lock-hash-mismatch\]", findings[0]):
        raise Failure(f"the finding is not an error at line {line}: {findings[0]}")
    for name in (f"{HOST}/example/demo", "1.2.0"):
        if name not in findings[0]:
            raise Failure(f"the finding does not name {name}: {findings[0]}")
    if "darwin_amd64" not in findings[0]:
        s.notes.append(f"proof-lint-online: the finding does not name the platform darwin_amd64: {findings[0]}")
    if read_bytes(os.path.join(d, ".terraform.lock.hcl")) != before:
        raise Failure("lint (without --fix) changed the lock file")
    # The h1: hashes are checked against the packages proof-lock left in the
    # download cache (each run of this case alone downloads them once).
    again = s.run(["lint", "--online", "--format", "compact", "--color", "never", d])
    if zips_fetched(again):
        raise Failure(f"lint --online downloaded packages the cache holds: {zips_fetched(again)}\n{again}")
    s.lint_dir = d


@case("lint-online-h1")
def lint_online_h1(s):
    """lint --online checks each locked h1: against the signed packages
    themselves: from an empty cache it downloads only the declared
    platforms' packages, a second run downloads nothing, and an h1: that is
    the hash of another package is reported at its line (after looking at
    every signed package of that version)."""
    env = {"XDG_CACHE_HOME": os.path.join(s.root, "cache-h1")}
    args = ["lint", "--online", "--format", "compact", "--color", "never"]
    lock = lock_text(proof_lock_entries(s))
    d = proof_module(s, lock=lock)
    with open(os.path.join(d, ".tfsift.toml"), "w") as f:
        f.write('platforms = ["linux_amd64", "darwin_arm64"]\n')
    run = s.run(args + [d], env)
    if run.rc == 2 or "lock-hash-mismatch" in run.out:
        raise Failure(f"a correct lock file is reported\n{run}")
    declared = sorted(f"/dl/example/{t}/{v}/terraform-provider-{t}_{v}_{p}.zip"
                      for t, v in (("demo", "1.2.0"), ("other", "1.0.0")) for p in ("linux_amd64", "darwin_arm64"))
    if sorted(zips_fetched(run)) != declared:
        raise Failure(f"expected the declared platforms' packages only: {sorted(zips_fetched(run))}\n{run}")
    again = s.run(args + [d], env)
    if again.rc == 2 or "lock-hash-mismatch" in again.out or zips_fetched(again):
        raise Failure(f"a second lint --online downloaded packages again: {zips_fetched(again)}\n{again}")

    exp = s.reg.expect["providers"]
    victim = exp["example/demo"]["1.2.0"]["platforms"]["darwin_arm64"]["h1"]
    foreign = exp["example/other"]["1.0.0"]["platforms"]["darwin_arm64"]["h1"]  # a real package, of another provider
    bad = lock.replace(victim, foreign, 1)
    line = next(i for i, text in enumerate(bad.splitlines(), 1) if foreign in text)
    d = proof_module(s, lock=bad)
    with open(os.path.join(d, ".tfsift.toml"), "w") as f:
        f.write('platforms = ["linux_amd64", "darwin_arm64"]\n')
    run = s.run(args + [d], env)
    findings = [f for f in run.out.splitlines() if "[lock-hash-mismatch]" in f]
    if run.rc != 1 or len(findings) != 1:
        raise Failure(f"expected exit 1 and exactly one lock-hash-mismatch\n{run}")
    if not re.match(rf".*\.terraform\.lock\.hcl:{line}:\d+: error\[lock-hash-mismatch\]", findings[0]):
        raise Failure(f"the finding is not an error at line {line}: {findings[0]}")
    for name in (f"{HOST}/example/demo", "1.2.0", foreign):
        if name not in findings[0]:
            raise Failure(f"the finding does not name {name}: {findings[0]}")
    rest = sorted(f"/dl/example/demo/1.2.0/terraform-provider-demo_1.2.0_{p}.zip"
                  for p in ("darwin_amd64", "windows_amd64"))
    if sorted(zips_fetched(run)) != rest:
        raise Failure(f"expected the demo packages not cached yet, and only them: {sorted(zips_fetched(run))}")


@case("lint-online-missing")
def lint_online_missing(s):
    """lint --online: a locked version the registry no longer lists, and a
    declared platform the registry does not publish, are both reported."""
    entries = proof_lock_entries(s)
    addr, _, constraints, hashes = entries[0]
    gone = [(addr, "1.1.0", constraints, hashes[:1])] + entries[1:]
    d = proof_module(s, lock=lock_text(gone))
    run = s.run(["lint", "--online", "--format", "compact", "--color", "never", d])
    if run.rc == 2 or not any(addr in f and "1.1.0" in f for f in run.out.splitlines()):
        raise Failure(f"no finding names the locked version 1.1.0 the registry does not have\n{run}")
    d = proof_module(s, lock=lock_text(entries))
    with open(os.path.join(d, ".tfsift.toml"), "w") as f:
        f.write('platforms = ["linux_amd64", "freebsd_arm"]\n')
    run = s.run(["lint", "--online", "--format", "compact", "--color", "never", d])
    if run.rc == 2 or not any("[lock-platforms-incomplete]" in f and "freebsd_arm" in f for f in run.out.splitlines()):
        raise Failure(f"no lock-platforms-incomplete finding names freebsd_arm, which the registry lacks\n{run}")


@case("offline-opens-no-socket")
def offline_cases(s):
    """Plain lint, lock --offline and TFSIFT_OFFLINE=1 send nothing."""
    lock = lock_text(proof_lock_entries(s))
    d = proof_module(s, lock=lock)
    # (arguments, environment, accepted exit statuses): lint reports, lock
    # finds no package offline (a failed fetch, 2) and leaves the file alone
    for args, env, statuses in ((["lint", d], None, (0, 1)),
                                (["lint", "--online", d], {"TFSIFT_OFFLINE": "1"}, (0, 1)),
                                (["lock", d, "--offline", "--platform", "linux_amd64"], None, (2,)),
                                (["lock", d, "--platform", "linux_amd64"], {"TFSIFT_OFFLINE": "1"}, (2,)),
                                (["lint", "--fix", d], {"TFSIFT_OFFLINE": "1"}, (0, 1))):
        # an empty download cache of its own: nothing to take offline
        run = s.run(args, dict(env or {}, XDG_CACHE_HOME=os.path.join(s.root, "cache-offline")))
        if run.requests:
            raise Failure(f"requests were sent: {[r['path'] for r in run.requests]}\n{run}")
        if run.rc not in statuses or read_bytes(os.path.join(d, ".terraform.lock.hcl")) != lock.encode():
            raise Failure(f"expected exit status {statuses} and the lock file unchanged\n{run}")


@case("discovery-localhost")
def discovery_localhost(s):
    """A `localhost:PORT` provider host: real discovery over HTTPS, the host's
    credentials block, the same hashes."""
    host = f"localhost:{s.port}"
    d = s.module([("demo", f"{host}/example/demo", "~> 1.0")])
    run = s.lock(d)
    if run.rc != 0:
        raise Failure(f"lock failed\n{run}")
    rec = s.reg.expect["providers"]["example/demo"]["1.2.0"]
    want = lock_text([(f"{host}/example/demo", "1.2.0", "~> 1.0", [rec["platforms"]["linux_amd64"]["h1"]]
                       + rec["sums_zh"])])
    if read_bytes(os.path.join(d, ".terraform.lock.hcl")) != want.encode():
        raise Failure(f"lock differs\n{want}\n{run}")
    disco = [r for r in run.requests if r["path"] == "/.well-known/terraform.json"]
    if len(disco) != 1 or disco[0]["host"] != host:
        raise Failure(f"expected one discovery request to {host}: {disco}")
    if disco[0]["authorization"] != f"Bearer {MIRROR_TOKEN}":
        raise Failure(f"the credentials block of {host} was not used for its API: {disco[0]}")


@case("token-other-port")
def token_other_port(s):
    """Discovery of localhost:PORT names its providers.v1 API on another
    port: the API there is asked without the token of localhost:PORT."""
    host = f"localhost:{s.port}"
    other = f"localhost:{s.reg.second_port}"
    s.reg.set_faults([fr.Rule("/.well-known/terraform.json", action="body", content_type="application/json",
                              body=json.dumps({"providers.v1": f"https://{other}/v1/providers/"}).encode())])
    try:
        d = s.module([("demo", f"{host}/example/demo", "~> 1.0")])
        run = s.lock(d)
    finally:
        s.reg.clear_faults()
    if run.rc != 0:
        raise Failure(f"lock failed\n{run}")
    disco = [r for r in run.requests if r["path"] == "/.well-known/terraform.json"]
    if not disco or disco[0]["authorization"] != f"Bearer {MIRROR_TOKEN}":
        raise Failure(f"discovery on {host} did not carry its own token: {disco}")
    api = [r for r in run.requests if r["server"] == "second" and is_api(r["path"])]
    if not api:
        raise Failure(f"no API request reached {other}: {[(r['host'], r['path']) for r in run.requests]}")
    leaked = [r for r in run.requests if r["server"] != "main" and r["authorization"]]
    if leaked:
        raise Failure(f"the token of {host} went to another port: {leaked}")


@case("token-discovery-redirect")
def token_discovery_redirect(s):
    """Discovery of localhost:PORT redirects to another port: neither the
    redirected request nor the API it names gets the token."""
    host = f"localhost:{s.port}"
    other = f"localhost:{s.reg.second_port}"
    s.reg.set_faults([fr.Rule("/.well-known/terraform.json", action="redirect",
                              location=f"https://{other}/.well-known/terraform.json")])
    try:
        d = s.module([("demo", f"{host}/example/demo", "~> 1.0")])
        run = s.lock(d)
    finally:
        s.reg.clear_faults()
    if run.rc != 0:
        raise Failure(f"lock failed\n{run}")
    moved = [r for r in run.requests if r["server"] == "second"]
    if not any(r["path"] == "/.well-known/terraform.json" for r in moved) or not any(is_api(r["path"])
                                                                                     for r in moved):
        raise Failure(f"the redirect was not followed to {other}: {[(r['host'], r['path']) for r in run.requests]}")
    leaked = [r for r in moved if r["authorization"]]
    if leaked:
        raise Failure(f"the token of {host} crossed to another port after a redirect: {leaked}")


@case("password-redacted")
def password_redacted(s):
    """A download URL with a password that answers 404: the message shows
    the URL with the password replaced, as Go's URL.Redacted does."""
    with open(os.path.join(s.reg.tree, DOWNLOAD.lstrip("/"))) as f:
        doc = json.load(f)
    secret = "dlSECRETpw"
    doc["download_url"] = f"https://user:{secret}@127.0.0.1:{s.port}/no/such/package.zip"
    s.reg.set_faults([fr.Rule(DOWNLOAD, action="body", content_type="application/json",
                              body=json.dumps(doc).encode())])
    try:
        d = s.module([("demo", f"{HOST}/example/demo", "1.2.0")])
        # A cache of its own: an earlier case may have cached the package.
        run = s.lock(d, "--cache-dir", os.path.join(s.root, "cache-redacted"),
                     env_extra={"TF_PLUGIN_CACHE_DIR": None})
    finally:
        s.reg.clear_faults()
    if run.rc != 2:
        raise Failure(f"expected exit 2\n{run}")
    if secret in run.out + run.err:
        raise Failure(f"the password was printed\n{run}")
    if f"https://user:xxxxx@127.0.0.1:{s.port}/no/such/package.zip" not in run.err:
        raise Failure(f"the URL is not shown redacted\n{run}")


@case("registry-text-escaped")
def registry_text_escaped(s):
    """A registry's warnings carry ESC, BEL, NUL and a bidi override:
    stderr shows them escaped."""
    with open(os.path.join(s.reg.tree, VERSIONS.lstrip("/"))) as f:
        doc = json.load(f)
    doc["warnings"] = ["\x1b]0;owned\x07\x1b[2Jfake\x00nul \u202egnp.x"]
    s.reg.set_faults([fr.Rule(VERSIONS, action="body", content_type="application/json",
                              body=json.dumps(doc).encode())])
    try:
        d = s.module([("demo", f"{HOST}/example/demo", "1.2.0")])
        run = s.lock(d)
    finally:
        s.reg.clear_faults()
    raw = run.err
    for bad in ("\x1b", "\x00", "\x07", "\u202e"):
        if bad in raw:
            raise Failure(f"raw {bad!r} on stderr\n{run}")
    if "\\x1B]0;owned\\x07\\x1B[2Jfake\\x00nul \\u202Egnp.x" not in raw:
        raise Failure(f"the registry's warning is not shown escaped\n{run}")


@case("net-mirror")
def net_mirror(s):
    """--net-mirror: h1: only, the mirror's credentials on its JSON, none on zips."""
    d = proof_module(s)
    run = s.lock(d, "--net-mirror", f"https://localhost:{s.port}/mirror/", platforms=("linux_amd64", "darwin_arm64"))
    if run.rc != 0:
        raise Failure(f"lock failed\n{run}")
    exp = s.reg.expect["providers"]
    entries = [(f"{HOST}/example/{t}", v, c, [exp[f"example/{t}"][v]["platforms"][p]["h1"]
                                              for p in ("linux_amd64", "darwin_arm64")])
               for t, v, c in (("demo", "1.2.0", "~> 1.0"), ("other", "1.0.0", ">= 0.9.0"))]
    want = lock_text(entries)
    if read_bytes(os.path.join(d, ".terraform.lock.hcl")) != want.encode():
        raise Failure(f"lock differs\n{want}\n{run}")
    if any(not r["path"].startswith("/mirror/") for r in run.requests):
        raise Failure(f"requests outside the mirror: {[r['path'] for r in run.requests]}")
    for r in run.requests:
        if r["path"].endswith(".json") and r["authorization"] != f"Bearer {MIRROR_TOKEN}":
            raise Failure(f"mirror JSON without the mirror's credentials: {r}")


@case("credentials-netrc")
def credentials_netrc(s):
    """~/.netrc gives package downloads Basic credentials; the registry API
    keeps its token."""
    netrc = os.path.join(s.home, ".netrc")
    with open(netrc, "w") as f:
        f.write("machine 127.0.0.1 login fixture password netrc-pass\n")
    os.chmod(netrc, 0o600)
    try:
        d = s.module([("demo", f"{HOST}/example/other", "1.0.0")])
        run = s.lock(d, "--cache-dir", os.path.join(s.root, "cache-netrc"))
        if run.rc != 0:
            raise Failure(f"lock failed\n{run}")
        zips = [r for r in run.requests if r["path"].endswith(".zip")]
        if not zips or any(r["authorization"] != "Basic Zml4dHVyZTpuZXRyYy1wYXNz" for r in zips):
            raise Failure(f"package downloads without the netrc credentials: {zips}")
        if any(r["authorization"] != f"Bearer {ENV_TOKEN}" for r in run.requests if is_api(r["path"])):
            raise Failure("the registry API lost its token")
    finally:
        os.remove(netrc)


@case("proxy-loopback")
def proxy_loopback(s):
    """https_proxy pointing nowhere: loopback is still reached directly."""
    d = s.module([("demo", f"{HOST}/example/other", "1.0.0")])
    run = s.lock(d, "--cache-dir", os.path.join(s.root, "cache-proxy"),
                 env_extra={"https_proxy": "http://127.0.0.1:9", "HTTPS_PROXY": "http://127.0.0.1:9"})
    if run.rc != 0:
        raise Failure(f"loopback was proxied\n{run}")


def installation_config(s, name, block):
    """A CLI configuration: the fixture's hosts and credentials plus `block`."""
    path = os.path.join(s.root, f"cli-{name}.tfrc")
    with open(s.cli_config) as base, open(path, "w") as f:
        f.write(base.read() + block)
    return {"TF_CLI_CONFIG_FILE": path, "XDG_CACHE_HOME": os.path.join(s.root, f"cache-{name}")}


def fix_lock(s, d, env):
    # A working directory `init` ran in is a root module: lock-missing reports
    # its missing lock file, and the fix of that finding creates it.
    os.makedirs(os.path.join(d, ".terraform"), exist_ok=True)
    if not os.path.exists(os.path.join(d, ".tfsift.toml")):
        with open(os.path.join(d, ".tfsift.toml"), "w") as f:
            f.write('platforms = ["linux_amd64", "darwin_arm64"]\n')
    return s.run(["lint", "--fix", "--format", "compact", "--color", "never", d], env)


@case("installation-methods")
def installation_methods(s):
    """lint --fix takes each provider from the provider_installation methods
    that handle it (include/exclude): `other` from the network mirror (h1:
    only), `demo` from its registry (h1: and every signed zh:)."""
    mirror = f"https://localhost:{s.port}/mirror/"
    env = installation_config(s, "methods", f'''provider_installation {{
  network_mirror {{
    url     = "{mirror}"
    include = ["{HOST}/example/other"]
  }}
  direct {{
    exclude = ["{HOST}/example/other"]
  }}
}}
''')
    d = proof_module(s)
    run = fix_lock(s, d, env)
    exp = s.reg.expect["providers"]
    demo, other = exp["example/demo"]["1.2.0"], exp["example/other"]["1.0.0"]
    want = lock_text([
        (f"{HOST}/example/demo", "1.2.0", "~> 1.0",
         [demo["platforms"][p]["h1"] for p in ("linux_amd64", "darwin_arm64")] + demo["sums_zh"]),
        (f"{HOST}/example/other", "1.0.0", ">= 0.9.0",
         [other["platforms"][p]["h1"] for p in ("linux_amd64", "darwin_arm64")])])
    got = read_bytes(os.path.join(d, ".terraform.lock.hcl"))
    if run.rc == 2 or got != want.encode():
        raise Failure(f"lint --fix did not write the expected lock\n--- expected\n{want}--- got\n"
                      f"{(got or b'').decode()}\n{run}")
    zips = zips_fetched(run)
    if sorted(z for z in zips if "/other/" in z and not z.startswith("/mirror/")) or \
            sorted(z for z in zips if "/demo/" in z and not z.startswith("/dl/")):
        raise Failure(f"a package came from a method that does not handle its provider: {zips}")


@case("installation-fallthrough")
def installation_fallthrough(s):
    """A network mirror without the platform's package: the next method
    (direct) gives it; first match wins for the platform the mirror has."""
    addr = f"{HOST}/m-noplatform/demo"
    env = installation_config(s, "fallthrough", f'''provider_installation {{
  network_mirror {{
    url = "https://localhost:{s.port}/mirror/"
  }}
  direct {{}}
}}
''')
    d = s.module([("demo", addr, "1.0.0")])
    run = fix_lock(s, d, env)
    zips = zips_fetched(run)
    linux = [z for z in zips if z.endswith("linux_amd64.zip")]
    darwin = [z for z in zips if z.endswith("darwin_arm64.zip")]
    if run.rc == 2 or len(linux) != 1 or not linux[0].startswith("/dl/") or \
            len(darwin) != 1 or not darwin[0].startswith("/mirror/"):
        raise Failure(f"expected linux_amd64 from the registry and darwin_arm64 from the mirror: {zips}\n{run}")
    text = (read_bytes(os.path.join(d, ".terraform.lock.hcl")) or b"").decode()
    rec = s.reg.expect["providers"]["m-noplatform/demo"]["1.0.0"]
    for h in [rec["platforms"][p]["h1"] for p in ("linux_amd64", "darwin_arm64")]:
        if h not in text:
            raise Failure(f"the lock lacks {h}:\n{text}\n{run}")


@case("installation-none-handles")
def installation_none_handles(s):
    """No method handles the provider: lint --fix names it, writes nothing
    and sends nothing."""
    env = installation_config(s, "none", f'''provider_installation {{
  direct {{
    exclude = ["{HOST}/*/*"]
  }}
}}
''')
    d = s.module([("demo", f"{HOST}/example/other", "1.0.0")])
    with open(os.path.join(d, ".tfsift.toml"), "w") as f:
        f.write('platforms = ["linux_amd64"]\n')
    os.makedirs(os.path.join(d, ".terraform"))
    run = s.expect_failure(d, lambda: fix_lock(s, d, env), r"not found in any of the search locations",
                           [f"{HOST}/example/other"])
    if run.requests:
        raise Failure(f"requests were sent: {[r['path'] for r in run.requests]}\n{run}")


# Hostile packages and documents: (case, reason pattern). The message must
# also name the provider, version and platform.
SIGNED_CASE_REASONS = {
    "badsig": r"error checking signature",
    "stranger": r"authentication signature from unknown issuer",
    "nokeys": r"unknown issuer",
    "badarmor": r"error decoding signing key",
    "armoredsig": r"(?i)binary|armou?r",
    "sumsmissing": r'checksum list has no SHA-256 hash for "terraform-provider-demo_1\.0\.0_linux_amd64\.zip"',
    "sumsmismatch": r"checksum list has unexpected SHA-256 hash",
    "zipmismatch": r"archive has incorrect checksum zh:[0-9a-f]{64} \(expected zh:[0-9a-f]{64}\)",
    "badshasum": r"(?i)(invalid|malformed).*(sha|hash)|(sha|hash).*(invalid|malformed)",
    "wrongos": r"has incorrect target",
    "protocols": r"is not supported by this version of",
    "ftpurl": r"(?i)ftp|scheme",
    "zipslip": r"entry contains '\.\.': \.\./\.\./evil\.sh",
    "emptyzip": r"empty archive",
    "sums404": r"failed to retrieve authentication checksums for provider: 404 Not Found",
    "sig404": r"failed to retrieve cryptographic signature for provider: 404 Not Found",
    "truncated": r"(?i)truncat|closed|incomplete|short|remaining|partial",
    "loop": r"(?i)redirect",
    "tohttp": r"(?i)redirect|https?|scheme|protocol",
    "untrusted": r"SSL_CERT_FILE",
    "stall": r"(?i)stall|time[d ]?out|too slow",
}


def case_lock(s, name, version="1.0.0"):
    """The existing lock file of a case module: a valid entry that a failure
    must leave untouched."""
    return lock_text([(f"{HOST}/{name}/demo", version, "", ["h1:" + "A" * 43 + "="])])


def make_signed_case(name, reason):
    def run_case(s):
        d = s.module([("demo", f"{HOST}/{name}/demo", "1.0.0")], lock=case_lock(s, name))
        run = s.expect_failure(d, lambda: s.lock(d), reason,
                               [f"{HOST}/{name}/demo", "1.0.0", "linux_amd64"])
        if name == "tohttp" and any(r["server"] == "http" for r in run.requests):
            raise Failure("the https->http redirect was followed")
        if name == "zipslip":
            for base in (s.root, os.path.dirname(s.root), "/tmp"):
                if os.path.exists(os.path.join(base, "evil.sh")):
                    raise Failure(f"zip-slip wrote {base}/evil.sh")
            for dirpath, _, files in os.walk(s.root):
                if "evil.sh" in files:
                    raise Failure(f"zip-slip wrote {dirpath}/evil.sh")
        if name == "untrusted":
            if any(r["server"] == "http" for r in run.requests):
                raise Failure("fell back to http")
    run_case.__doc__ = fr.CASES[name]
    return run_case


for _name, _reason in SIGNED_CASE_REASONS.items():
    case(_name)(make_signed_case(_name, _reason))


def make_inside_case(name):
    def run_case(s):
        d = s.module([("demo", f"{HOST}/{name}/demo", "1.0.0")])
        run = s.lock(d)
        rec = s.reg.expect["providers"][f"{name}/demo"]["1.0.0"]
        want = lock_text([(f"{HOST}/{name}/demo", "1.0.0", "1.0.0", [rec["platforms"]["linux_amd64"]["h1"]]
                           + rec["sums_zh"])])
        if run.rc != 0 or read_bytes(os.path.join(d, ".terraform.lock.hcl")) != want.encode():
            raise Failure(f"expected success with the h1: of the package unpacked inside\n{want}\n{run}")
        for dirpath, _, files in os.walk(s.root):
            if "abs" in files and not dirpath.startswith(s.cache_home):
                raise Failure(f"/abs landed outside the cache: {dirpath}")
        if os.path.exists("/abs"):
            raise Failure("/abs was written")
    run_case.__doc__ = fr.CASES[name] + " (unpacked inside, h1: as expected)"
    return run_case


for _name in ("abspath", "symlink"):
    case(_name)(make_inside_case(_name))


def size_cap_args(s):
    if getattr(s, "_cap", None) is None:
        helptext = s.run(["lock", "--help"]).out
        s._cap = ["--max-package-size", "1MiB"] if "--max-package-size" in helptext else []
    return s._cap


def make_size_case(name, reason):
    def run_case(s):
        cap = size_cap_args(s)
        if not cap:
            raise Failure("`tfsift lock --help` offers no --max-package-size: a 64 MiB bomb cannot be capped")
        d = s.module([("demo", f"{HOST}/{name}/demo", "1.0.0")], lock=case_lock(s, name))
        s.expect_failure(d, lambda: s.lock(d, *cap), reason, [f"{HOST}/{name}/demo", "1.0.0", "linux_amd64"])
    run_case.__doc__ = fr.CASES[name] + ", with --max-package-size 1MiB"
    return run_case


for _name in ("bomb", "lyingbomb", "oversize", "oversizechunked"):
    case(_name)(make_size_case(_name, r"(?i)size|limit|too large|exceed"))


@case("redirect")
def redirect_case(s):
    """The download document moves 127.0.0.1 -> localhost: followed, its
    root-relative URLs resolve against localhost, no Authorization there."""
    d = s.module([("demo", f"{HOST}/redirect/demo", "1.0.0")])
    run = s.lock(d)
    rec = s.reg.expect["providers"]["redirect/demo"]["1.0.0"]
    want = lock_text([(f"{HOST}/redirect/demo", "1.0.0", "1.0.0", [rec["platforms"]["linux_amd64"]["h1"]]
                       + rec["sums_zh"])])
    if run.rc != 0 or read_bytes(os.path.join(d, ".terraform.lock.hcl")) != want.encode():
        raise Failure(f"redirect not followed to a correct lock\n{want}\n{run}")
    moved = [r for r in run.requests if r["host"] == f"localhost:{s.port}"]
    if not any(r["path"].startswith("/dl/redirect/") for r in moved):
        raise Failure(f"relative URLs did not resolve against the final host: {[(r['host'], r['path']) for r in run.requests]}")
    if any(r["authorization"] for r in moved):
        raise Failure(f"Authorization followed the redirect to another host: {moved}")


def api_rule_case(path_fmt, rule_kwargs, reason, names, env=None, attempts=None, max_seconds=None, provider="example/demo"):
    def run_case(s):
        path = path_fmt.format(port=s.port)
        s.reg.set_faults([fr.Rule(path, **rule_kwargs)])
        try:
            addr = f"{HOST}/{provider}" if not path.startswith("/.well-known") else f"localhost:{s.port}/{provider}"
            version = "1.2.0" if provider == "example/demo" else "1.0.0"
            d = s.module([("demo", addr, version)], lock=lock_text([(addr, version, "", ["h1:" + "B" * 43 + "="])]))
            run = s.expect_failure(d, lambda: s.lock(d, env_extra=env), reason,
                                   [n.format(port=s.port, addr=addr) for n in names])
            hits = [r for r in run.requests if r["path"] == path]
            if attempts is not None and len(hits) != attempts:
                raise Failure(f"{len(hits)} attempts at {path}, expected {attempts}\n{run}")
            if max_seconds is not None and run.seconds > max_seconds:
                raise Failure(f"took {run.seconds:.1f} s, more than {max_seconds} s\n{run}")
        finally:
            s.reg.clear_faults()
    what = {k: (v[:40] + b"..." if isinstance(v, bytes) and len(v) > 40 else v) for k, v in rule_kwargs.items()}
    run_case.__doc__ = f"{path_fmt} answers {what}" + (f" with {env}" if env else "")
    return run_case


VERSIONS = "/v1/providers/example/demo/versions"
DOWNLOAD = "/v1/providers/example/demo/1.2.0/download/linux/amd64"
case("versions-404")(api_rule_case(VERSIONS, {"status": 404}, r"does not have a provider named",
                                   ["{addr}"]))
case("platform-404")(api_rule_case(DOWNLOAD, {"status": 404}, r"is not available for linux_amd64",
                                   ["{addr}", "1.2.0", "linux_amd64"]))
case("always-500")(api_rule_case(VERSIONS, {"status": 500}, r"after 2 attempts.*500", ["{addr}"], attempts=2))
case("always-500-retry-3")(api_rule_case(VERSIONS, {"status": 500}, r"after 4 attempts.*500", ["{addr}"],
                                         env={"TF_REGISTRY_DISCOVERY_RETRY": "3"}, attempts=4))
case("status-501")(api_rule_case(VERSIONS, {"status": 501}, r"501", ["{addr}"], attempts=1))
case("status-401")(api_rule_case(VERSIONS, {"status": 401}, r"requires authentication credentials", ["{addr}"],
                                 attempts=1))
case("status-403")(api_rule_case(VERSIONS, {"status": 403}, r"rejected the given authentication credentials",
                                 ["{addr}"], attempts=1))
case("invalid-json")(api_rule_case(VERSIONS, {"action": "body", "body": b"{not json", "content_type": "application/json"},
                                   re.escape("/v1/providers/example/demo/versions"), ["{addr}"]))
case("stalled-api")(api_rule_case(VERSIONS, {"action": "stall", "body": b'{"versions": []}'},
                                  r"(?i)time[d ]?out|stall", ["{addr}"], max_seconds=15))
case("discovery-404")(api_rule_case("/.well-known/terraform.json", {"status": 404},
                                    r"does not offer a Terraform provider registry", ["localhost:{port}"]))
case("discovery-no-providers")(api_rule_case(
    "/.well-known/terraform.json", {"action": "body", "body": b'{"modules.v1": "/v1/modules/"}',
                                    "content_type": "application/json"},
    r"does not offer a Terraform provider registry", ["localhost:{port}"]))
case("discovery-v2-only")(api_rule_case(
    "/.well-known/terraform.json", {"action": "body", "body": b'{"providers.v2": "/v2/providers/"}',
                                    "content_type": "application/json"},
    r"does not support the provider registry protocol", ["localhost:{port}"]))
case("discovery-not-json")(api_rule_case(
    "/.well-known/terraform.json", {"action": "body", "body": b"<html>hello</html>", "content_type": "text/html"},
    r"(?i)content-type|json", ["localhost:{port}"]))
case("discovery-too-large")(api_rule_case(
    "/.well-known/terraform.json", {"action": "body", "body": b'{"x": "' + b"a" * (1 << 21) + b'"}',
                                    "content_type": "application/json"},
    r"(?i)too large|size|limit|exceed", ["localhost:{port}"]))


@case("retry-429")
def retry_429(s):
    """429 with Retry-After: 1, then 200: success after about a second."""
    s.reg.set_faults([fr.Rule("/v1/providers/example/other/versions", status=429, headers={"Retry-After": "1"},
                              times=1)])
    try:
        d = s.module([("demo", f"{HOST}/example/other", "1.0.0")])
        run = s.lock(d, "--cache-dir", os.path.join(s.root, "cache-429"))
        hits = [r for r in run.requests if r["path"] == "/v1/providers/example/other/versions"]
        if run.rc != 0 or len(hits) != 2:
            raise Failure(f"expected success on the second attempt ({len(hits)} attempts)\n{run}")
        if hits[1]["time"] - hits[0]["time"] < 0.9:
            raise Failure(f"Retry-After: 1 not honoured ({hits[1]['time'] - hits[0]['time']:.2f} s)")
    finally:
        s.reg.clear_faults()


@case("untrusted-system-bundle")
def untrusted_system_bundle(s):
    """SSL_CERT_FILE not naming the test CA: the registry's certificate is
    untrusted, the message says so and mentions SSL_CERT_FILE, no retry."""
    d = s.module([("demo", f"{HOST}/example/demo", "1.2.0")], lock=case_lock(s, "example", "1.2.0"))
    bundle = "/etc/ssl/certs/ca-certificates.crt"
    env = {"SSL_CERT_FILE": bundle if os.path.exists(bundle) else os.path.join(s.root, "none.pem")}
    run = s.expect_failure(d, lambda: s.lock(d, env_extra=env), r"SSL_CERT_FILE", [f"{HOST}/example/demo"])
    if run.requests:
        raise Failure(f"requests got through an untrusted connection: {run.requests}")
    if run.seconds > 10:
        raise Failure(f"an untrusted certificate must not be retried ({run.seconds:.1f} s)")


def mirror_case(namespace, reason, names):
    def run_case(s):
        addr = f"{HOST}/{namespace}/demo"
        d = s.module([("demo", addr, "1.0.0")], lock=case_lock(s, namespace))
        s.expect_failure(d, lambda: s.lock(d, "--net-mirror", f"https://localhost:{s.port}/mirror/"), reason,
                         [n.format(addr=addr) for n in names])
    run_case.__doc__ = fr.MIRROR_CASES.get(namespace, "not in the mirror: index.json answers 404")
    return run_case


case("mirror-index-404")(mirror_case("sumsmissing", r"(?i)not found|does not have|no provider", ["{addr}"]))
case("mirror-vjson-404")(mirror_case("m-vjson404", r"does not have archive index for previously-reported",
                                     ["{addr}", "1.0.0"]))
case("mirror-no-platform")(mirror_case("m-noplatform", r"does not have a package of", ["{addr}", "1.0.0",
                                                                                      "linux_amd64"]))
case("mirror-h1-mismatch")(mirror_case("m-h1bad", r"doesn't match the expected checksum",
                                       ["{addr}", "1.0.0", "linux_amd64"]))
case("mirror-unknown-schemes")(mirror_case("m-schemes", r"does not support any of the checksum formats",
                                           ["{addr}", "1.0.0", "linux_amd64"]))


@case("mirror-html")
def mirror_html(s):
    """A mirror answering text/html: `response has invalid Content-Type`."""
    path = "/mirror/registry.example.test/example/demo/index.json"
    s.reg.set_faults([fr.Rule(path, action="body", body=b"<html></html>", content_type="text/html")])
    try:
        addr = f"{HOST}/example/demo"
        d = s.module([("demo", addr, "1.2.0")], lock=case_lock(s, "example", "1.2.0"))
        s.expect_failure(d, lambda: s.lock(d, "--net-mirror", f"https://localhost:{s.port}/mirror/"),
                         r"invalid Content-Type: must be application/json", [addr])
    finally:
        s.reg.clear_faults()


@case("opentofu-keyless")
def opentofu_keyless(s):
    """--engine opentofu, registry.opentofu.org, no keys: signing skipped;
    OPENTOFU_ENFORCE_GPG_VALIDATION=true makes it an error."""
    addr = "registry.opentofu.org/nokeys/demo"
    d = s.module([("demo", addr, "1.0.0")])
    run = s.lock(d, "--engine", "opentofu", "--cache-dir", os.path.join(s.root, "cache-tofu"))
    if run.rc != 0 or "signing skipped" not in run.err:
        raise Failure(f"a keyless provider on registry.opentofu.org must install with signing skipped\n{run}")
    text = (read_bytes(os.path.join(d, ".terraform.lock.hcl")) or b"").decode()
    h1 = s.reg.expect["providers"]["nokeys/demo"]["1.0.0"]["platforms"]["linux_amd64"]["h1"]
    if not text.startswith(HEADER["opentofu"]) or h1 not in text:
        raise Failure(f"unexpected OpenTofu lock file:\n{text}")
    d2 = s.module([("demo", addr, "1.0.0")], lock=lock_text([(addr, "1.0.0", "", [h1])], "opentofu"))
    s.expect_failure(d2, lambda: s.lock(d2, "--engine", "opentofu", "--cache-dir",
                                        os.path.join(s.root, "cache-tofu2"),
                                        env_extra={"OPENTOFU_ENFORCE_GPG_VALIDATION": "true"}),
                     r"not signed with a valid signing key", [addr, "1.0.0", "linux_amd64"],
                     before_cache=s.cache_files())


@case("opentofu-packages")
def opentofu_packages(s):
    """--engine opentofu, a keyless provider whose download documents carry
    the `packages` extension: the lock records every platform's h1: from it
    (only linux_amd64 is downloaded) and every zh:; a package whose size or
    zh: differs from what `packages` says is refused."""
    addr = "registry.opentofu.org/tofupkgs/demo"
    d = s.module([("demo", addr, "1.0.0")])
    run = s.lock(d, "--engine", "opentofu", "--cache-dir", os.path.join(s.root, "cache-tofupkgs"))
    if run.rc != 0:
        raise Failure(f"lock failed\n{run}")
    rec = s.reg.expect["providers"]["tofupkgs/demo"]["1.0.0"]
    hashes = [rec["platforms"][p]["h1"] for p in ("linux_amd64", "darwin_arm64")] + rec["sums_zh"]
    want = lock_text([(addr, "1.0.0", "1.0.0", hashes)], "opentofu")
    got = read_bytes(os.path.join(d, ".terraform.lock.hcl"))
    if got != want.encode():
        raise Failure(f"lock file differs:\n--- expected\n{want}--- got\n{(got or b'').decode()}\n{run}")
    if [z for z in zips_fetched(run) if not z.endswith("linux_amd64.zip")]:
        raise Failure(f"packages of other platforms were downloaded: {zips_fetched(run)}")
    for ns, reason in (("tofupkgsize", r"has \d+ bytes, but the registry's package list says \d+"),
                       ("tofupkgzh", r"package list has checksum zh:0{64} for linux_amd64")):
        bad = f"registry.opentofu.org/{ns}/demo"
        d2 = s.module([("demo", bad, "1.0.0")])
        s.expect_failure(d2, lambda d2=d2: s.lock(d2, "--engine", "opentofu", "--cache-dir",
                                                  os.path.join(s.root, f"cache-{ns}")),
                         reason, [bad, "1.0.0", "linux_amd64"], before_cache=s.cache_files())


@case("sigint")
def sigint(s):
    """SIGINT during a stalled download: tfsift stops, the lock file is
    byte-identical and no temp file is left."""
    d = s.module([("demo", f"{HOST}/stall/demo", "1.0.0")], lock=case_lock(s, "stall"))
    lock_before = read_bytes(os.path.join(d, ".terraform.lock.hcl"))
    listing = sorted(os.listdir(d))
    cache_before = s.cache_files()
    mark = s.reg.mark()
    proc = subprocess.Popen([s.tfsift, "lock", d, "--platform", "linux_amd64"], env=s.env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and proc.poll() is None and \
            not any("/_fault/stall/" in r["path"] for r in s.reg.requests(mark)):
        time.sleep(0.05)
    time.sleep(0.3)  # let it write the first bytes
    if proc.poll() is not None or not any("/_fault/stall/" in r["path"] for r in s.reg.requests(mark)):
        out, err = proc.communicate()
        raise Failure(f"tfsift never got to the stalled download (exit {proc.returncode})\n"
                      f"{err.decode(errors='replace')}")
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise Failure("tfsift did not stop within 10 s of SIGINT") from None
    problems = []
    if proc.returncode == 0:
        problems.append("exit status 0 after SIGINT")
    if read_bytes(os.path.join(d, ".terraform.lock.hcl")) != lock_before:
        problems.append("the lock file changed")
    if sorted(os.listdir(d)) != listing or os.listdir(s.tmpdir):
        problems.append(f"temp files left: {os.listdir(d)} {os.listdir(s.tmpdir)}")
    if s.cache_files() - cache_before:
        problems.append(f"cache gained files: {sorted(s.cache_files() - cache_before)}")
    if problems:
        raise Failure("; ".join(problems) + f"\nexit {proc.returncode}\n{err.decode(errors='replace')}")


@case("registry-stopped")
def registry_stopped(s):
    """Last: with the server stopped, lint --online gives a clear diagnostic
    naming the host and exits 2; lock fails the same way."""
    d = proof_module(s, lock=lock_text(proof_lock_entries(s)))
    s.reg.stop()
    run = s.run(["lint", "--online", "--format", "compact", "--color", "never", d])
    text = run.out + run.err
    if run.rc != 2 or not (HOST in text or f"127.0.0.1:{s.port}" in text):
        raise Failure(f"expected exit 2 and a diagnostic naming the registry\n{run}")
    s.expect_failure(d, lambda: s.lock(d), r"(?i)connect|refused", [f"{HOST}/example/demo"])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tfsift")
    ap.add_argument("--only", action="append", default=[], help="run only this case (repeatable)")
    ap.add_argument("--list", action="store_true", help="list the cases")
    ap.add_argument("--keep", action="store_true", help="keep the scratch directory")
    args = ap.parse_args()
    if args.list:
        for name, fn in CASES.items():
            print(f"{name:28} {(fn.__doc__ or '').strip().splitlines()[0]}")
        return 0
    if not args.tfsift:
        ap.error("--tfsift is required")
    missing = fr.tools_missing()
    if missing:
        print("skipped: missing " + ", ".join(missing))
        return 77
    unknown = [n for n in args.only if n not in CASES]
    if unknown:
        ap.error(f"unknown case(s): {', '.join(unknown)}")
    tfsift = os.path.abspath(args.tfsift)
    # short: gpg-agent's socket path and temp names stay well under limits
    root = tempfile.mkdtemp(prefix="tfi-")
    started = time.monotonic()
    failed = []
    suite = None
    try:
        suite = Suite(tfsift, root)
        print(f"fixture registry on 127.0.0.1:{suite.port}, built in {time.monotonic() - started:.1f} s", flush=True)
        names = args.only or list(CASES)
        # the server is stopped by the last case
        names.sort(key=lambda n: n == "registry-stopped")
        for name in names:
            t = time.monotonic()
            try:
                CASES[name](suite)
                print(f"PASS {name} ({time.monotonic() - t:.1f} s)", flush=True)
            except Failure as e:
                failed.append(name)
                print(f"FAIL {name} ({time.monotonic() - t:.1f} s): {e}", flush=True)
            except Exception:  # noqa: BLE001 - a broken case is reported, the others still run
                failed.append(name)
                print(f"FAIL {name}: the check itself broke\n{traceback.format_exc()}", flush=True)
            finally:
                for leftover in os.listdir(suite.tmpdir):
                    shutil.rmtree(os.path.join(suite.tmpdir, leftover), ignore_errors=True)
        for note in suite.notes:
            print("note:", note)
    finally:
        if suite is not None:
            suite.reg.stop()
        if args.keep:
            print(f"kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
    total = len(args.only or CASES)
    print(f"{total - len(failed)}/{total} cases passed in {time.monotonic() - started:.1f} s"
          + (f"; failed: {' '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
