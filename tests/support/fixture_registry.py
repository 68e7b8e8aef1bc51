#!/usr/bin/env python3
"""A provider registry and network mirror for tests, served over HTTPS on 127.0.0.1.

Everything is made at test time in a scratch directory, with the Python 3.11
standard library, `gpg` and `openssl`:

* keys: an RSA 3072 signer and an Ed25519 stranger, made by gpg in a short
  temporary GNUPGHOME (the agent is stopped again on teardown);
* TLS: a CA, a leaf for 127.0.0.1 / localhost signed by it, and a
  self-signed leaf no client trusts;
* packages: provider zips for several providers, versions (prereleases too)
  and platforms, each version's SHA256SUMS with a binary detached signature,
  and the registry documents (`.well-known/terraform.json`, the versions
  list, one download document per platform);
* a network mirror (`mirror/<host>/<ns>/<type>/index.json`, `<v>.json` with
  `h1:` hashes and relative URLs, the zips beside them);
* one namespace per hostile case (`registry.example.test/<case>/demo`, see
  CASES) whose documents or package are broken in that one way;
* a module registry (modules.v1, MODULES): versions lists, download
  endpoints answering 204 or 200 with X-Terraform-Get or OpenTofu's JSON
  location, tar.gz and zip packages whose versions declare different
  variables, a private module behind a token, pages naming a location
  (X-Terraform-Get header or terraform-get meta tag) and one hostile module
  per MODULE_CASES;
* `expect.json`: every `zh:` (sha256 of a zip), every `h1:` (Terraform's
  dirhash "Hash1" of the package unpacked by this module), the key IDs.

`FixtureRegistry` serves the tree from threads of the calling process: the
main server (trusted leaf), an "untrusted" one (self-signed leaf) and a
plain-HTTP one (the target of the https->http redirect). Every request is
appended to `requests.jsonl` (server, path, Host, User-Agent, Authorization,
X-Terraform-Version, what was done). Faults are either fixed URLs under
`/_fault/` that the hostile download documents point at, or rules the driver
sets per run with `set_faults()` (any path: status, body, content type,
stall, truncation, redirect, limited to the first N hits).

Used as a program it builds the tree and serves it until interrupted:
    fixture_registry.py serve DIR     # writes DIR/server.json (ports, CA)
"""
from __future__ import annotations

import base64
import concurrent.futures
import functools
import hashlib
import http.server
import io
import json
import os
import re
import shutil
import signal
import socket
import ssl
import stat
import struct
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import urllib.parse
import zipfile
import zlib
from dataclasses import dataclass, field

# The platforms every ordinary fixture provider is published for.
PLATFORMS = ("darwin_amd64", "darwin_arm64", "linux_amd64", "windows_amd64")

# Ordinary providers: namespace/type -> versions (prereleases included).
PROVIDERS = {
    "example/demo": ("1.0.0", "1.2.0", "1.3.0-beta.1", "2.0.0"),
    "example/other": ("0.9.0", "1.0.0", "1.1.0-rc.1"),
}

# Versions signed by the stranger key instead of the signer (a rotated or
# taken-over key), by namespace/type; the registry lists the stranger key in
# their download documents. Only providers a test adds (extra_providers) use it.
SIGNED_BY_STRANGER = {"example/rekeyed": ("1.1.0",)}

# Hostnames a CLI configuration `host` block points at this registry.
HOST_OVERRIDES = ("registry.example.test", "registry.terraform.io", "registry.opentofu.org")

# Hostile cases (spec online-installer 5.3). Each is the provider
# `<host>/<case>/demo`, version CASE_VERSION, published for CASE_PLATFORMS; the
# text says what is wrong with it.
CASE_VERSION = "1.0.0"
CASE_PLATFORMS = ("darwin_arm64", "linux_amd64")
CASES = {
    "badsig": "the signature is over another document",
    "stranger": "signed by a key the registry does not list",
    "nokeys": "gpg_public_keys is empty",
    "badarmor": "ascii_armor is not a key",
    "armoredsig": "the signature is ASCII-armored instead of binary",
    "sumsmissing": "SHA256SUMS has no line for the linux_amd64 zip",
    "sumsmismatch": "the SHA256SUMS line differs from the document's shasum",
    "zipmismatch": "the zip served differs from shasum and SHA256SUMS",
    "badshasum": "shasum is not 64 hex digits",
    "wrongos": "the linux_amd64 document says os windows",
    "protocols": "protocols is [\"4.0\"]",
    "ftpurl": "download_url is ftp://",
    "zipslip": "a signed zip with the entry ../../evil.sh",
    "abspath": "a signed zip with the entry /abs",
    "symlink": "a signed zip with a symlink entry pointing out of the package",
    "bomb": "a signed zip of 64 MiB of zeros (65 KB packed)",
    "lyingbomb": "a signed zip whose headers claim 1 KiB for 64 MiB of content",
    "oversize": "a signed 3 MiB stored zip, sent with Content-Length",
    "oversizechunked": "the same 3 MiB zip, sent without Content-Length",
    "emptyzip": "a signed 22-byte zip with no entries",
    "sums404": "shasums_url answers 404",
    "sig404": "shasums_signature_url answers 404",
    "stall": "the zip download stops after a few bytes and never ends",
    "truncated": "the zip download promises more bytes than it sends",
    "redirect": "the download document redirects to localhost and uses root-relative URLs",
    "loop": "download_url redirects forever",
    "tohttp": "download_url redirects from https to http",
    "untrusted": "download_url is on the server whose certificate nobody trusts",
}

# Network-mirror cases: (namespace under example hostnames) -> what is wrong.
MIRROR_CASES = {
    "m-vjson404": "index.json lists 1.0.0 but 1.0.0.json is missing",
    "m-noplatform": "1.0.0.json has no linux_amd64 archive",
    "m-h1bad": "the linux_amd64 archive's h1: does not match the zip",
    "m-schemes": "the linux_amd64 archive has only hashes of an unknown scheme",
}

# OpenTofu's `packages` extension of the download document (spec 5.6), on
# keyless providers `registry.opentofu.org/<case>/demo` (namespace -> what it
# shows): every platform's zh:, h1: and size, so that a lock gets the h1: of
# platforms it never downloaded.
PACKAGES_CASES = {
    "tofupkgs": "packages lists every platform's hashes and size correctly",
    "tofupkgsize": "packages gives the linux_amd64 package a wrong size",
    "tofupkgzh": "packages gives the linux_amd64 package another zh:",
}

# Cases whose package is never unpacked by a correct client: no h1: for them.
NOT_HASHED = {"zipslip", "bomb", "lyingbomb", "oversize", "oversizechunked", "emptyzip"}

# Registry modules (modules.v1): namespace/name/system -> versions. Every
# version's package declares its own variable `<name>_<version with _>` beside
# `common`, so a test can tell which version was installed; some versions
# require providers of their own (MODULE_PROVIDERS). How the download
# endpoint answers: "header204" (204 + X-Terraform-Get, a root-relative
# location), "header200" (200 + X-Terraform-Get, an absolute one), "json"
# (OpenTofu's {"location": ...}).
MODULES = {
    "example/net/aws": (("1.0.0", "header204"), ("1.2.0", "header204"), ("1.2.7", "header204"),
                        ("1.3.0-beta.1", "header204"), ("2.0.0", "header200")),
    "example/tofu/aws": (("0.1.0", "json"), ("0.2.0", "json")),
    "private/net/aws": (("1.0.0", "header204"),),
}
# Providers a module version requires: (module, version) -> [(local name, source, constraint)].
MODULE_PROVIDERS = {
    ("example/net/aws", "1.2.7"): [("demo", "registry.example.test/example/demo", "1.2.0")],
}
# The token the private module's endpoints demand.
MODULE_TOKEN = "module-token-3f2a"
# Hostile module cases: namespace "bad", system "aws", name -> what is wrong.
MODULE_CASES = {
    "traversal": "the tar.gz holds ../../evil.tf",
    "zipslip": "the zip holds ../../evil.tf",
    "symlink": "the tar.gz holds a symlink to /etc/passwd",
    "handoff": "the download location is another registry address",
    "many": "the versions list has 100,000 versions",
    "redirect": "the versions list redirects to localhost (another host)",
    "missing": "the download location answers 404",
}

GPG = ["gpg", "--batch", "--quiet", "--no-tty", "--pinentry-mode", "loopback", "--passphrase", ""]
SIGNER = "fixture signer <signer@example.invalid>"
STRANGER = "fixture stranger <stranger@example.invalid>"


# ---- hashes ------------------------------------------------------------------

def zh_of(data: bytes) -> str:
    return "zh:" + hashlib.sha256(data).hexdigest()


def h1_of_files(files: dict[str, bytes]) -> str:
    """Terraform's dirhash "Hash1": sorted `sha256  name` lines, sha256, base64."""
    summary = "".join(f"{hashlib.sha256(files[name]).hexdigest()}  {name}\n" for name in sorted(files))
    return "h1:" + base64.b64encode(hashlib.sha256(summary.encode()).digest()).decode()


def h1_of_directory(root: str) -> str:
    files = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in filenames:
            full = os.path.join(dirpath, name)
            with open(full, "rb") as f:
                files[os.path.relpath(full, root).replace(os.sep, "/")] = f.read()
    return h1_of_files(files)


def unpacked_files(zip_bytes: bytes) -> dict[str, bytes]:
    """The files Terraform's installer leaves on disk for a zip (spec 4.4),
    as {relative path: content}: a leading "/" is dropped, directory entries
    make directories only, a symlink entry becomes a file holding the link
    text, a repeated name keeps the last content. Refuses ".." components."""
    files: dict[str, bytes] = {}
    with zipfile.ZipFile(io.BytesIO(zip_bytes)) as z:
        for info in z.infolist():
            name = info.filename.lstrip("/")
            if ".." in name.split("/"):
                raise ValueError(f"entry contains '..': {info.filename}")
            if not name or name.endswith("/"):
                continue
            files[name] = z.read(info)
    return files


def unpack_to(zip_bytes: bytes, target: str) -> None:
    for name, data in unpacked_files(zip_bytes).items():
        dest = os.path.join(target, name)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, "wb") as f:
            f.write(data)


def h1_of_zip_unpacked(zip_bytes: bytes) -> str:
    return h1_of_files(unpacked_files(zip_bytes))


# ---- zips ----------------------------------------------------------------------

def _info(name: str, mode: int = 0o100755) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
    info.create_system = 3  # Unix, so the mode below is what an unzip sees
    info.external_attr = mode << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


def make_zip(entries: list[tuple[str, bytes]] | list[tuple[str, bytes, int]]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for entry in entries:
            name, data = entry[0], entry[1]
            mode = entry[2] if len(entry) > 2 else 0o100755
            z.writestr(_info(name, mode), data)
    return out.getvalue()


def make_tar_gz(entries: list[tuple[str, bytes]], links: list[tuple[str, str]] = ()) -> bytes:
    """A gzip-compressed tar of regular files (0644) and symbolic links."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz", format=tarfile.PAX_FORMAT) as t:
        for name, data in entries:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mode = 0o644
            info.mtime = 1704067200
            t.addfile(info, io.BytesIO(data))
        for name, target in links:
            info = tarfile.TarInfo(name)
            info.type = tarfile.SYMTYPE
            info.linkname = target
            info.mtime = 1704067200
            t.addfile(info)
    return out.getvalue()


def provider_files(ptype: str, version: str, platform: str, size: int = 0) -> list[tuple[str, bytes]]:
    """The content of an ordinary package: an "executable" that differs per
    platform and version, and a README in a subdirectory (no directory entry,
    so the zip's and the unpacked directory's h1 agree)."""
    exe = f"#!/bin/sh\necho terraform-provider-{ptype} {version} {platform}\n".encode()
    if size:
        # incompressible filler so packages of a benchmark weigh what they say
        exe += hashlib.shake_256(f"{ptype}{version}{platform}".encode()).digest(size)
    return [
        (f"terraform-provider-{ptype}_v{version}", exe),
        ("docs/README.md", f"# {ptype} {version}\n".encode()),
    ]


@functools.lru_cache(maxsize=None)
def zeros_bomb(size: int) -> bytes:
    """A zip of one entry of `size` zero bytes (a multiple of 1 MiB). After a
    full flush deflate starts afresh, so every 1 MiB block of zeros packs to
    the same bytes: pack one and repeat it."""
    chunk = bytes(1 << 20)
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = comp.compress(chunk) + comp.flush(zlib.Z_FULL_FLUSH)
    count = size // len(chunk)
    packed = block * count + comp.flush()
    crc = 0
    for _ in range(count):
        crc = zlib.crc32(chunk, crc)
    return _raw_zip("terraform-provider-bomb", packed, crc, size)


def _raw_zip(name: str, packed: bytes, crc: int, claimed_size: int) -> bytes:
    """One deflated entry; the headers claim `claimed_size` bytes."""
    fname = name.encode()
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0x5821, crc, len(packed), claimed_size, len(fname), 0)
    central = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0x031E, 20, 0, 8, 0, 0x5821, crc, len(packed),
                          claimed_size, len(fname), 0, 0, 0, 0, 0o100755 << 16, 0)
    cd_offset = len(local) + len(fname) + len(packed)
    cd = central + fname
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, len(cd), cd_offset, 0)
    return local + fname + packed + cd + end


EMPTY_ZIP = b"PK\x05\x06" + bytes(18)


# ---- tools ---------------------------------------------------------------------

def tools_missing() -> list[str]:
    return [tool for tool in ("gpg", "gpgconf", "openssl") if shutil.which(tool) is None]


def _run(cmd: list[str], env=None, cwd=None, data: bytes | None = None) -> bytes:
    proc = subprocess.run(cmd, env=env, cwd=cwd, input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          check=False, timeout=60)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr.decode(errors='replace')}")
    return proc.stdout


class Keys:
    """The signer and the stranger, in a short-lived GNUPGHOME."""

    def __init__(self, out_dir: str):
        # gpg-agent's socket lives in GNUPGHOME: keep the path short (limit 108).
        self.home = tempfile.mkdtemp(prefix="gpg", dir="/tmp")
        self.env = dict(os.environ, GNUPGHOME=self.home)
        self.out_dir = out_dir
        self.info = {}
        roles = (("signer", SIGNER, "rsa3072"), ("stranger", STRANGER, "ed25519"))
        # One after the other: two gpg processes creating the same keyring at
        # once can read each other's half-written keybox.
        for _, uid, algo in roles:
            _run(GPG + ["--quick-gen-key", uid, algo, "sign", "never"], self.env)
        for role, uid, _ in roles:
            armor = _run(GPG + ["--armor", "--export", uid], env=self.env).decode()
            colons = _run(GPG + ["--with-colons", "--list-keys", uid], env=self.env).decode()
            key_id = next(line.split(":")[4] for line in colons.splitlines() if line.startswith("pub:"))
            fpr = next(line.split(":")[9] for line in colons.splitlines() if line.startswith("fpr:"))
            self.info[role] = {"uid": uid, "key_id": key_id, "fingerprint": fpr, "ascii_armor": armor}
            with open(os.path.join(out_dir, f"{role}.asc"), "w") as f:
                f.write(armor)

    def sign(self, document: bytes, role: str = "signer", armor: bool = False) -> bytes:
        cmd = GPG + ["--local-user", self.info[role]["uid"], "--detach-sign", "--output", "-"]
        if armor:
            cmd.insert(-2, "--armor")
        return _run(cmd, env=self.env, data=document)

    def close(self) -> None:
        subprocess.run(["gpgconf", "--kill", "gpg-agent"], env=self.env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
        shutil.rmtree(self.home, ignore_errors=True)


def make_tls(out_dir: str) -> dict[str, str]:
    """ca.pem/ca.key, server.pem/server.key (127.0.0.1 + localhost, from the CA),
    untrusted.pem/untrusted.key (self-signed, same names)."""
    p = lambda name: os.path.join(out_dir, name)  # noqa: E731
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
    _run(["openssl", "req", "-x509", *ec, "-days", "2", "-subj", "/CN=tfsift test CA", "-keyout", p("ca.key"),
          "-out", p("ca.pem"), "-addext", "basicConstraints=critical,CA:TRUE",
          "-addext", "keyUsage=critical,keyCertSign"])
    with open(p("ext.cnf"), "w") as f:
        f.write("subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n")
    _run(["openssl", "req", *ec, "-subj", "/CN=localhost", "-keyout", p("server.key"), "-out", p("server.csr")])
    _run(["openssl", "x509", "-req", "-in", p("server.csr"), "-CA", p("ca.pem"), "-CAkey", p("ca.key"),
          "-CAcreateserial", "-days", "2", "-extfile", p("ext.cnf"), "-out", p("server.pem")])
    _run(["openssl", "req", "-x509", *ec, "-days", "2", "-subj", "/CN=localhost", "-keyout", p("untrusted.key"),
          "-out", p("untrusted.pem"), "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"])
    return {name: p(f"{name}.pem") for name in ("ca", "server", "untrusted")}


# ---- the tree --------------------------------------------------------------------

@dataclass
class Release:
    """One provider version as published: zips by platform, SHA256SUMS, signature."""
    namespace: str
    ptype: str
    version: str
    zips: dict[str, bytes] = field(default_factory=dict)
    extra_sums: dict[str, bytes] = field(default_factory=dict)  # other files SHA256SUMS lists

    def filename(self, platform: str) -> str:
        return f"terraform-provider-{self.ptype}_{self.version}_{platform}.zip"

    def sums_name(self) -> str:
        return f"terraform-provider-{self.ptype}_{self.version}_SHA256SUMS"

    def sums(self) -> bytes:
        lines = {self.filename(p): hashlib.sha256(z).hexdigest() for p, z in self.zips.items()}
        lines.update({n: hashlib.sha256(d).hexdigest() for n, d in self.extra_sums.items()})
        return "".join(f"{h}  {n}\n" for n, h in sorted(lines.items())).encode()


class TreeBuilder:
    """Writes the registry and mirror tree for a server reachable at `port`."""

    def __init__(self, root: str, keys: Keys, port: int, untrusted_port: int, http_port: int, package_size: int = 0,
                 extra_providers: dict[str, tuple[str, ...]] | None = None, with_cases: bool = True):
        self.root = root
        self.tree = os.path.join(root, "tree")
        self.keys = keys
        self.port = port
        self.untrusted_port = untrusted_port
        self.http_port = http_port
        self.package_size = package_size
        self.providers = dict(PROVIDERS)
        self.providers.update(extra_providers or {})
        self.with_cases = with_cases
        self.base = f"https://127.0.0.1:{port}"
        self.rules: list[Rule] = []  # faults that are part of the tree (see the "redirect" case)
        self.expect = {"port": port, "untrusted_port": untrusted_port, "http_port": http_port,
                       "keys": {r: {k: v for k, v in i.items() if k != "ascii_armor"} for r, i in keys.info.items()},
                       "providers": {}, "cases": {}, "mirror_cases": dict(MIRROR_CASES)}

    # -- files
    def write(self, rel: str, data: bytes | str) -> str:
        path = os.path.join(self.tree, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data.encode() if isinstance(data, str) else data)
        return path

    def write_json(self, rel: str, doc) -> None:
        self.write(rel, json.dumps(doc, indent=2, sort_keys=True))

    def signing_key(self, role: str = "signer") -> dict:
        return {"key_id": self.keys.info[role]["key_id"], "ascii_armor": self.keys.info[role]["ascii_armor"],
                "trust_signature": "", "source": "fixture", "source_url": "https://example.invalid/security"}

    # -- building
    def build(self) -> dict:
        with concurrent.futures.ThreadPoolExecutor(max_workers=6) as self.signers:
            self.pending = []
            self._build()
            for job in self.pending:
                job.result()  # raises what a gpg run raised
        return self.expect

    def _build(self) -> None:
        os.makedirs(self.tree, exist_ok=True)
        self.write_json(".well-known/terraform.json", {"providers.v1": "/v1/providers/", "modules.v1": "/v1/modules/"})
        for name, versions in sorted(self.providers.items()):
            ns, ptype = name.split("/")
            releases = [self.ordinary_release(ns, ptype, v) for v in versions]
            self.publish(ns, ptype, releases)
            self.publish_mirror(ns, ptype, releases)
        self.build_modules()
        if self.with_cases:
            for case in CASES:
                self.build_case(case)
            self.build_mirror_cases()
            self.build_packages_cases()
        self.write_json("expect.json", self.expect)
        with open(os.path.join(self.root, "expect.json"), "w") as f:
            json.dump(self.expect, f, indent=2, sort_keys=True)

    # -- registry modules
    def module_files(self, name: str, version: str) -> dict[str, bytes]:
        ns, mname, _system = name.split("/")
        var = f"{mname}_{version.replace('.', '_').replace('-', '_')}"
        text = f'variable "common" {{}}\n\nvariable "{var}" {{}}\n\noutput "id" {{\n  value = "{name} {version}"\n}}\n'
        requires = MODULE_PROVIDERS.get((name, version), [])
        if requires:
            body = "".join(f'    {local} = {{\n      source  = "{source}"\n      version = "{c}"\n    }}\n'
                           for local, source, c in requires)
            text = f"terraform {{\n  required_providers {{\n{body}  }}\n}}\n\n" + text
        return {"main.tf": text.encode(), "modules/inner/main.tf": f'variable "inner_{var}" {{}}\n'.encode()}

    def module_route(self, path: str, **route) -> None:
        self.module_routes[path] = route

    def build_modules(self) -> None:
        self.module_routes: dict[str, dict] = {}
        self.expect["modules"] = {}
        for name, versions in sorted(MODULES.items()):
            ns, mname, system = name.split("/")
            api = f"/v1/modules/{ns}/{mname}/{system}"
            self.write_json(f"{api.lstrip('/')}/versions",
                            {"modules": [{"source": name, "versions": [{"version": v} for v, _ in versions]}]})
            for version, mode in versions:
                files = self.module_files(name, version)
                if mode == "json":
                    rel = f"dl/modules/{name}/{version}.zip"
                    self.write(rel, make_zip([(n, d, 0o100644) for n, d in sorted(files.items())]))
                else:
                    rel = f"dl/modules/{name}/{version}.tar.gz"
                    self.write(rel, make_tar_gz(sorted(files.items())))
                location = f"/{rel}" if mode == "header204" else f"{self.base}/{rel}"
                self.module_route(f"{api}/{version}/download", action="download", mode=mode, location=location,
                                  token=MODULE_TOKEN if ns == "private" else "")
                self.expect["modules"].setdefault(name, {})[version] = {
                    "archive": rel, "variables": sorted(re.findall(r'variable "([^"]+)"', files["main.tf"].decode()))}
            if ns == "private":
                self.module_route(f"{api}/versions", action="file", token=MODULE_TOKEN)
        # An https archive called directly, and pages naming it.
        web = {"main.tf": b'variable "web_a" {}\nvariable "web_b" {}\n'}
        self.write("dl/modules/web/web-1.0.0.zip", make_zip([(n, d, 0o100644) for n, d in web.items()]))
        self.module_route("/pages/header", action="page", mode="header", location="/dl/modules/web/web-1.0.0.zip")
        self.module_route("/pages/meta", action="page", mode="meta", location=f"{self.base}/dl/modules/web/web-1.0.0.zip")
        # Hostile modules.
        for case in MODULE_CASES:
            api = f"/v1/modules/bad/{case}/aws"
            version = "1.0.0"
            if case == "many":
                self.write_json(f"{api.lstrip('/')}/versions", {"modules": [{"versions": [
                    {"version": f"0.{i // 1000}.{i % 1000}"} for i in range(100000)]}]})
                version = "0.99.999"
            elif case == "redirect":
                self.rules.append(Rule(f"{api}/versions", action="redirect",
                                       location=f"https://localhost:{self.port}/v1/modules/example/net/aws/versions",
                                       only_host="127.0.0.1"))
            else:
                self.write_json(f"{api.lstrip('/')}/versions", {"modules": [{"versions": [{"version": version}]}]})
            rel = f"dl/modules/bad/{case}.tar.gz"
            location = f"/{rel}"
            if case == "traversal":
                self.write(rel, make_tar_gz([("main.tf", b'variable "x" {}\n'), ("../../evil.tf", b"pwned\n")]))
            elif case == "zipslip":
                rel = f"dl/modules/bad/{case}.zip"
                location = f"/{rel}"
                self.write(rel, make_zip([("main.tf", b'variable "x" {}\n', 0o100644),
                                          ("../../evil.tf", b"pwned\n", 0o100644)]))
            elif case == "symlink":
                self.write(rel, make_tar_gz([("main.tf", b'variable "x" {}\n')], links=[("passwd.tf", "/etc/passwd")]))
            elif case == "handoff":
                location = "example/net/aws"
            elif case == "missing":
                location = "/dl/modules/bad/nowhere.tar.gz"
            else:
                self.write(rel, make_tar_gz(sorted(self.module_files(f"bad/{case}/aws", version).items())))
            self.module_route(f"{api}/{version}/download", action="download", mode="header204", location=location,
                              token="")
        self.expect["module_cases"] = dict(MODULE_CASES)

    def ordinary_release(self, ns: str, ptype: str, version: str, platforms=PLATFORMS) -> Release:
        rel = Release(ns, ptype, version)
        for platform in platforms:
            rel.zips[platform] = make_zip(provider_files(ptype, version, platform, self.package_size))
        # Real releases list a manifest too: its line is a zh: like the zips'.
        rel.extra_sums[f"terraform-provider-{ptype}_{version}_manifest.json"] = \
            json.dumps({"version": 1, "metadata": {"protocol_versions": ["5.0"]}}).encode()
        return rel

    def dl_rel(self, rel: Release, name: str) -> str:
        return f"dl/{rel.namespace}/{rel.ptype}/{rel.version}/{name}"

    def publish(self, ns: str, ptype: str, releases: list[Release], doc_hook=None, sums_hook=None,
                sig_hook=None, zip_hook=None) -> None:
        """Writes the versions list, the download documents, the SHA256SUMS,
        signature and zips, and records the expected hashes. The hooks let a
        case change one thing: doc_hook(doc, platform), sums_hook(bytes) ->
        bytes, sig_hook(sums) -> bytes, zip_hook(platform, bytes) -> bytes
        (what is served, after hashing)."""
        api = f"v1/providers/{ns}/{ptype}"
        versions = []
        record = self.expect["providers"].setdefault(f"{ns}/{ptype}", {})
        for rel in releases:
            sums = rel.sums()
            if sums_hook:
                sums = sums_hook(sums)
            self.write(self.dl_rel(rel, rel.sums_name()), sums)
            # gpg runs are most of the build time: sign in parallel
            role = "stranger" if rel.version in SIGNED_BY_STRANGER.get(f"{ns}/{ptype}", ()) else "signer"
            sign = (lambda s=sums: sig_hook(s)) if sig_hook else (lambda s=sums, r=role: self.keys.sign(s, r))
            self.pending.append(self.signers.submit(
                lambda path=self.dl_rel(rel, rel.sums_name() + ".sig"), sign=sign: self.write(path, sign())))
            for name, data in rel.extra_sums.items():
                self.write(self.dl_rel(rel, name), data)
            entry = {"signed_by": role,
                     "sums_zh": sorted("zh:" + line.split()[0] for line in sums.decode().splitlines() if line.strip()),
                     "platforms": {}}
            for platform, data in sorted(rel.zips.items()):
                served = zip_hook(platform, data) if zip_hook else data
                self.write(self.dl_rel(rel, rel.filename(platform)), served)
                h1 = None  # for the packages that cannot or need not be unpacked
                if ns not in NOT_HASHED:
                    try:
                        h1 = h1_of_zip_unpacked(data)
                    except (ValueError, zipfile.BadZipFile, zlib.error):
                        pass
                entry["platforms"][platform] = {"filename": rel.filename(platform), "zh": zh_of(data), "h1": h1,
                                                "size": len(data)}
                os_, arch = platform.split("_")
                doc = {
                    "protocols": ["5.0"], "os": os_, "arch": arch, "filename": rel.filename(platform),
                    "download_url": f"{self.base}/{self.dl_rel(rel, rel.filename(platform))}",
                    "shasums_url": f"{self.base}/{self.dl_rel(rel, rel.sums_name())}",
                    "shasums_signature_url": f"{self.base}/{self.dl_rel(rel, rel.sums_name())}.sig",
                    "shasum": hashlib.sha256(data).hexdigest(),
                    "signing_keys": {"gpg_public_keys": [self.signing_key(role)]},
                }
                if doc_hook:
                    doc = doc_hook(doc, platform) or doc
                self.write_json(f"{api}/{rel.version}/download/{os_}/{arch}", doc)
            record[rel.version] = entry
            versions.append({"version": rel.version, "protocols": ["5.0"],
                             "platforms": [{"os": p.split("_")[0], "arch": p.split("_")[1]} for p in sorted(rel.zips)]})
        self.write_json(f"{api}/versions", {"versions": versions})

    def publish_mirror(self, ns: str, ptype: str, releases: list[Release], hosts=None, version_hook=None) -> None:
        hosts = hosts or (*HOST_OVERRIDES, f"localhost:{self.port}")
        for host in hosts:
            base = f"mirror/{host}/{ns}/{ptype}"
            self.write_json(f"{base}/index.json", {"versions": {r.version: {} for r in releases}})
            for rel in releases:
                archives = {}
                for platform, data in sorted(rel.zips.items()):
                    self.write(f"{base}/{rel.filename(platform)}", data)
                    archives[platform] = {"url": rel.filename(platform),
                                          "hashes": [self.expect["providers"][f"{ns}/{ptype}"][rel.version]
                                                     ["platforms"][platform]["h1"]]}
                doc = {"archives": archives}
                if version_hook:
                    doc = version_hook(doc)
                if doc is not None:
                    self.write_json(f"{base}/{rel.version}.json", doc)

    def build_mirror_cases(self) -> None:
        def drop(doc):
            return None

        def noplatform(doc):
            del doc["archives"]["linux_amd64"]
            return doc

        def h1bad(doc):
            doc["archives"]["linux_amd64"]["hashes"] = ["h1:" + base64.b64encode(bytes(32)).decode()]
            return doc

        def schemes(doc):
            doc["archives"]["linux_amd64"]["hashes"] = ["xx:" + "0" * 64]
            return doc

        hooks = {"m-vjson404": drop, "m-noplatform": noplatform, "m-h1bad": h1bad, "m-schemes": schemes}
        for ns, hook in hooks.items():
            rel = self.ordinary_release(ns, "demo", CASE_VERSION, CASE_PLATFORMS)
            self.publish(ns, "demo", [rel])
            self.publish_mirror(ns, "demo", [rel], version_hook=hook)

    def build_packages_cases(self) -> None:
        for ns in PACKAGES_CASES:
            rel = self.ordinary_release(ns, "demo", CASE_VERSION, CASE_PLATFORMS)

            def hook(doc, platform, rel=rel, ns=ns):
                packages = {}
                for p, data in sorted(rel.zips.items()):
                    packages[p] = {"hashes": ["zh:" + hashlib.sha256(data).hexdigest(), h1_of_zip_unpacked(data)],
                                   "package_size": len(data)}
                if ns == "tofupkgsize":
                    packages["linux_amd64"]["package_size"] += 1
                if ns == "tofupkgzh":
                    packages["linux_amd64"]["hashes"][0] = "zh:" + "0" * 64
                doc["packages"] = packages
                doc["signing_keys"] = {"gpg_public_keys": []}
                return doc
            self.publish(ns, "demo", [rel], doc_hook=hook)

    def build_case(self, case: str) -> None:
        rel = self.ordinary_release(case, "demo", CASE_VERSION, CASE_PLATFORMS)
        target = "linux_amd64"
        opts = {}
        fault = f"{self.base}/_fault"

        def on_target(change):
            def hook(doc, platform):
                if platform == target:
                    change(doc)
                return doc
            return hook

        def pkg_hook(build):  # replace the target zip before it is hashed and signed
            rel.zips[target] = build()

        if case == "badsig":
            opts["sig_hook"] = lambda sums: self.keys.sign(sums + b"# another document\n")
        elif case == "stranger":
            opts["sig_hook"] = lambda sums: self.keys.sign(sums, role="stranger")
        elif case == "nokeys":
            opts["doc_hook"] = lambda doc, _p: doc.update(signing_keys={"gpg_public_keys": []})
        elif case == "badarmor":
            opts["doc_hook"] = lambda doc, _p: doc["signing_keys"]["gpg_public_keys"][0].update(
                ascii_armor="-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nbm90IGEga2V5\n-----END PGP PUBLIC KEY BLOCK-----\n")
        elif case == "armoredsig":
            opts["sig_hook"] = lambda sums: self.keys.sign(sums, armor=True)
        elif case == "sumsmissing":
            name = rel.filename(target).encode()
            opts["sums_hook"] = lambda sums: b"".join(l for l in sums.splitlines(True) if name not in l)
        elif case == "sumsmismatch":
            name = rel.filename(target).encode()
            opts["sums_hook"] = lambda sums: b"".join(
                (b"0" * 64 + b"  " + name + b"\n") if name in l else l for l in sums.splitlines(True))
        elif case == "zipmismatch":
            opts["zip_hook"] = lambda p, data: make_zip(provider_files("demo", "9.9.9", p)) if p == target else data
        elif case == "badshasum":
            opts["doc_hook"] = on_target(lambda doc: doc.update(shasum="xyz"))
        elif case == "wrongos":
            opts["doc_hook"] = on_target(lambda doc: doc.update(os="windows"))
        elif case == "protocols":
            opts["doc_hook"] = on_target(lambda doc: doc.update(protocols=["4.0"]))
        elif case == "ftpurl":
            opts["doc_hook"] = on_target(lambda doc: doc.update(
                download_url=doc["download_url"].replace("https://", "ftp://")))
        elif case == "zipslip":
            pkg_hook(lambda: make_zip([("terraform-provider-demo_v1.0.0", b"#!/bin/sh\n"),
                                       ("../../evil.sh", b"#!/bin/sh\necho pwned\n")]))
        elif case == "abspath":
            pkg_hook(lambda: make_zip([("terraform-provider-demo_v1.0.0", b"#!/bin/sh\n"), ("/abs", b"absolute\n")]))
        elif case == "symlink":
            pkg_hook(lambda: make_zip([("terraform-provider-demo_v1.0.0", b"#!/bin/sh\n"),
                                       ("escape", b"../../../../etc/passwd", 0o120777)]))
        elif case == "bomb":
            pkg_hook(lambda: zeros_bomb(64 << 20))
        elif case == "lyingbomb":
            def lying():
                data = bytearray(zeros_bomb(64 << 20))
                # the claimed size sits at offset 22 of the local header and 24 of the central one
                struct.pack_into("<I", data, 22, 1024)
                struct.pack_into("<I", data, data.rfind(b"PK\x01\x02") + 24, 1024)
                return bytes(data)
            pkg_hook(lying)
        elif case in ("oversize", "oversizechunked"):
            def big():
                out = io.BytesIO()
                with zipfile.ZipFile(out, "w") as z:
                    info = _info("terraform-provider-demo_v1.0.0")
                    info.compress_type = zipfile.ZIP_STORED
                    z.writestr(info, hashlib.shake_256(b"oversize").digest(3 << 20))
                return out.getvalue()
            pkg_hook(big)
            if case == "oversizechunked":
                opts["doc_hook"] = on_target(lambda doc: doc.update(
                    download_url=f"{fault}/nolength/{self.dl_rel(rel, rel.filename(target))}"))
        elif case == "emptyzip":
            pkg_hook(lambda: EMPTY_ZIP)
        elif case == "sums404":
            opts["doc_hook"] = lambda doc, _p: doc.update(shasums_url=f"{self.base}/dl/nowhere/SHA256SUMS")
        elif case == "sig404":
            opts["doc_hook"] = lambda doc, _p: doc.update(shasums_signature_url=f"{self.base}/dl/nowhere/SHA256SUMS.sig")
        elif case in ("stall", "truncated", "loop", "tohttp"):
            kind = {"stall": "stall", "truncated": "truncate", "loop": "loop/0", "tohttp": "tohttp"}[case]
            opts["doc_hook"] = on_target(lambda doc: doc.update(
                download_url=f"{fault}/{kind}/{self.dl_rel(rel, rel.filename(target))}"))
        elif case == "redirect":
            # The document itself is reached through a redirect to localhost
            # (a rule on the 127.0.0.1 path); its URLs are root-relative, so
            # they resolve against the final host.
            def rel_urls(doc, _p):
                for key in ("download_url", "shasums_url", "shasums_signature_url"):
                    doc[key] = urllib.parse.urlsplit(doc[key]).path
            opts["doc_hook"] = rel_urls
            for platform in CASE_PLATFORMS:
                doc_path = f"/v1/providers/{case}/demo/{CASE_VERSION}/download/{platform.replace('_', '/')}"
                self.rules.append(Rule(doc_path, action="redirect", location=f"https://localhost:{self.port}{doc_path}",
                                       only_host="127.0.0.1"))
        elif case == "untrusted":
            opts["doc_hook"] = on_target(lambda doc: doc.update(
                download_url=doc["download_url"].replace(f":{self.port}/", f":{self.untrusted_port}/")))
        else:
            raise KeyError(case)
        self.publish(case, "demo", [rel], **opts)
        self.expect["cases"][case] = {"namespace": case, "type": "demo", "version": CASE_VERSION,
                                      "platform": target, "what": CASES[case]}


# ---- the servers --------------------------------------------------------------------

@dataclass
class Rule:
    """A fault the driver sets for a run. `path` is matched against the
    request path (without query) exactly, or as a regular expression when
    `regex` is set. `times` limits it to the first N matching requests.
    action: "status" (status, body, content_type, headers), "stall" (send
    headers and `partial` bytes of the file, then hang), "truncate", "redirect"
    (location, status), "body" (serve body with content_type, status 200)."""
    path: str
    action: str = "status"
    status: int = 500
    body: bytes = b""
    content_type: str = "text/plain"
    headers: dict[str, str] = field(default_factory=dict)
    location: str = ""
    times: int | None = None
    regex: bool = False
    only_host: str = ""  # match only requests whose Host header names this host
    hits: int = 0

    def matches(self, path: str, host: str) -> bool:
        if self.times is not None and self.hits >= self.times:
            return False
        if self.only_host and host.rsplit(":", 1)[0] != self.only_host:
            return False
        return bool(re.fullmatch(self.path, path)) if self.regex else path == self.path


def content_type_for(rel: str) -> str:
    if rel.startswith(("v1/", ".well-known/")) or rel.endswith(".json"):
        return "application/json"
    if rel.endswith(".zip"):
        return "application/zip"
    return "application/octet-stream"


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, registry: "FixtureRegistry", name: str, tls: ssl.SSLContext | None):
        self.registry = registry
        self.name = name
        super().__init__(("127.0.0.1", 0), _Handler)
        if tls is not None:
            # the handshake happens in the request's thread, so a client that
            # never finishes it cannot block the accept loop
            self.socket = tls.wrap_socket(self.socket, server_side=True, do_handshake_on_connect=False)

    def handle_error(self, request, client_address):
        # clients that give up (untrusted certificate, stall timeouts) are expected
        pass


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        reg = self.server.registry
        split = urllib.parse.urlsplit(self.path)
        path = urllib.parse.unquote(split.path)
        entry = {"server": self.server.name, "method": self.command, "path": path,
                 "query": split.query, "host": self.headers.get("Host"),
                 "user_agent": self.headers.get("User-Agent"), "authorization": self.headers.get("Authorization"),
                 "x_terraform_version": self.headers.get("X-Terraform-Version"),
                 "accept": self.headers.get("Accept")}
        rule = reg.take_rule(path, entry["host"] or "") if self.server.name == "main" else None
        if rule is not None:
            entry["fault"] = rule.action
            reg.log(entry)
            return self.apply_rule(rule, path)
        if path.startswith("/_fault/"):
            entry["fault"] = path.split("/")[2]
            reg.log(entry)
            return self.fixed_fault(path)
        route = reg.module_routes.get(path) if self.server.name == "main" else None
        if route is not None:
            entry["fault"] = None
            entry["module"] = route["action"]
            reg.log(entry)
            return self.module_answer(route, path)
        entry["fault"] = None
        reg.log(entry)
        self.serve_file(path)

    def module_answer(self, route: dict, path: str) -> None:
        """The module registry's dynamic answers: downloads with their
        X-Terraform-Get header or JSON body, pages naming a location, and
        endpoints that demand the private module's token."""
        token = route.get("token")
        if token and self.headers.get("Authorization") != f"Bearer {token}":
            status = 403 if self.headers.get("Authorization") else 401
            return self.send(status, b"no\n")
        action = route["action"]
        if action == "file":
            return self.serve_file(path)
        if action == "download":
            mode, location = route["mode"], route["location"]
            if mode == "json":
                return self.send(200, json.dumps({"location": location}).encode(), "application/json")
            return self.send(204 if mode == "header204" else 200, b"", headers={"X-Terraform-Get": location})
        if action == "page":
            if route["mode"] == "header":
                return self.send(200, b"<html></html>", "text/html", headers={"X-Terraform-Get": route["location"]})
            html = f'<html><head><meta name="terraform-get" content="{route["location"]}"></head></html>'
            return self.send(200, html.encode(), "text/html")
        return self.send(500, b"unknown module route\n")

    # -- responses
    def send(self, status: int, body: bytes, content_type: str = "text/plain", headers=None, length=True) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        if length:
            self.send_header("Content-Length", str(len(body)))
        else:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        if self.command != "HEAD":
            try:
                self.wfile.write(body)
            except OSError:
                pass

    def file_bytes(self, path: str) -> bytes | None:
        rel = path.lstrip("/")
        full = os.path.normpath(os.path.join(self.server.registry.tree, rel))
        if not full.startswith(self.server.registry.tree + os.sep) or not os.path.isfile(full):
            return None
        with open(full, "rb") as f:
            return f.read()

    def serve_file(self, path: str) -> None:
        data = self.file_bytes(path)
        if data is None:
            return self.send(404, b"not found\n")
        delay = self.server.registry.latency
        if delay:
            time.sleep(delay)
        self.send(200, data, content_type_for(path.lstrip("/")))

    def stall(self, data: bytes, content_type: str, partial: int = 16) -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        try:
            self.wfile.write(data[:partial])
            self.wfile.flush()
        except OSError:
            return
        self.server.registry.stopping.wait(60)
        self.close_connection = True

    def truncate(self, data: bytes, content_type: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        try:
            self.wfile.write(data[:len(data) // 2])
            self.wfile.flush()
        except OSError:
            pass
        self.close_connection = True

    def apply_rule(self, rule: Rule, path: str) -> None:
        if rule.action == "status":
            return self.send(rule.status, rule.body, rule.content_type, rule.headers)
        if rule.action == "body":
            return self.send(200, rule.body, rule.content_type, rule.headers)
        if rule.action == "redirect":
            return self.send(rule.status if rule.status in (301, 302, 303, 307, 308) else 302, b"",
                             headers={"Location": rule.location})
        data = self.file_bytes(path)
        if data is None:
            data = rule.body
        ctype = content_type_for(path.lstrip("/"))
        if rule.action == "stall":
            return self.stall(data, ctype)
        if rule.action == "truncate":
            return self.truncate(data, ctype)
        if rule.action == "nolength":
            return self.send(200, data, ctype, length=False)
        raise ValueError(f"unknown fault action {rule.action}")

    def fixed_fault(self, path: str) -> None:
        """/_fault/<kind>/<rest>: <rest> is the tree path the fault wraps."""
        parts = path.split("/")
        kind = parts[2]
        reg = self.server.registry
        if kind == "loop":
            n = int(parts[3]) if len(parts) > 3 and parts[3].isdigit() else 0
            rest = "/".join(parts[4:])
            return self.send(302, b"", headers={"Location": f"/_fault/loop/{n + 1}/{rest}"})
        if kind == "retry429":
            key, rest = parts[3], "/" + "/".join(parts[4:])
            if reg.count_once(key):
                return self.send(429, b"slow down\n", headers={"Retry-After": "1"})
            return self.serve_file(rest)
        rest = "/" + "/".join(parts[3:])
        if kind == "tohttp":
            return self.send(302, b"", headers={"Location": f"http://127.0.0.1:{reg.http_port}{rest}"})
        if kind == "tolocalhost":
            return self.send(302, b"", headers={"Location": f"https://localhost:{reg.port}{rest}"})
        if kind == "status" and len(parts) > 3 and parts[3].isdigit():
            return self.send(int(parts[3]), b"fault\n")
        data = self.file_bytes(rest)
        if data is None:
            return self.send(404, b"not found\n")
        ctype = content_type_for(rest.lstrip("/"))
        if kind == "stall":
            return self.stall(data, ctype)
        if kind == "truncate":
            return self.truncate(data, ctype)
        if kind == "nolength":
            return self.send(200, data, ctype, length=False)
        return self.send(404, b"unknown fault\n")


class FixtureRegistry:
    """Builds the tree in `root` and serves it until stop()."""

    def __init__(self, root: str, package_size: int = 0, extra_providers=None, with_cases: bool = True,
                 latency: float = 0.0):
        missing = tools_missing()
        if missing:
            raise RuntimeError("missing tools: " + ", ".join(missing))
        self.root = os.path.abspath(root)
        self.tree = os.path.join(self.root, "tree")
        self.tls_dir = os.path.join(self.root, "tls")
        os.makedirs(self.tls_dir, exist_ok=True)
        self.log_path = os.path.join(self.root, "requests.jsonl")
        self.latency = latency
        self.stopping = threading.Event()
        self._lock = threading.Lock()
        self._rules: list[Rule] = []
        self._once: set[str] = set()
        self.module_routes: dict[str, dict] = {}
        open(self.log_path, "w").close()

        self.certs = make_tls(self.tls_dir)
        self.ca_pem = self.certs["ca"]
        self.servers = {
            "main": _Server(self, "main", self._tls("server")),
            "untrusted": _Server(self, "untrusted", self._tls("untrusted")),
            "http": _Server(self, "http", None),
            # the same tree on a second trusted port: another host:port for credentials
            "second": _Server(self, "second", self._tls("server")),
        }
        self.port = self.servers["main"].server_address[1]
        self.untrusted_port = self.servers["untrusted"].server_address[1]
        self.http_port = self.servers["http"].server_address[1]
        self.second_port = self.servers["second"].server_address[1]
        self.keys = Keys(self.root)
        try:
            builder = TreeBuilder(self.root, self.keys, self.port, self.untrusted_port, self.http_port,
                                  package_size, extra_providers, with_cases)
            self.expect = builder.build()
            self._base_rules = builder.rules
            self.module_routes = builder.module_routes
        except BaseException:
            self.keys.close()
            raise
        self._threads = []
        for server in self.servers.values():
            t = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
            t.start()
            self._threads.append(t)
        self.running = True

    def _tls(self, name: str) -> ssl.SSLContext:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(os.path.join(self.tls_dir, f"{name}.pem"), os.path.join(self.tls_dir, f"{name}.key"))
        return ctx

    @property
    def base_url(self) -> str:
        return f"https://127.0.0.1:{self.port}"

    @property
    def localhost(self) -> str:
        return f"localhost:{self.port}"

    # -- faults
    def set_faults(self, rules: list[Rule]) -> None:
        with self._lock:
            self._rules = list(rules)
            self._once.clear()

    def clear_faults(self) -> None:
        self.set_faults([])

    def take_rule(self, path: str, host: str) -> Rule | None:
        with self._lock:
            for rule in self._rules + self._base_rules:
                if rule.matches(path, host):
                    rule.hits += 1
                    return rule
        return None

    def count_once(self, key: str) -> bool:
        """True the first time `key` is seen since the last set_faults()."""
        with self._lock:
            if key in self._once:
                return False
            self._once.add(key)
            return True

    # -- request log
    def log(self, entry: dict) -> None:
        entry["time"] = time.time()
        with self._lock, open(self.log_path, "a") as f:
            f.write(json.dumps(entry) + "\n")

    def mark(self) -> int:
        return len(self.requests())

    def requests(self, since: int = 0) -> list[dict]:
        with self._lock, open(self.log_path) as f:
            return [json.loads(line) for line in f.read().splitlines()[since:]]

    # -- lifecycle
    def stop(self) -> None:
        if not self.running:
            return
        self.running = False
        self.stopping.set()
        for server in self.servers.values():
            server.shutdown()
            server.server_close()
        for t in self._threads:
            t.join(5)
        self.keys.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()

    # -- configuration for clients
    def cli_config(self, extra: str = "") -> str:
        """A CLI configuration pointing the override hosts at this server
        (absolute URLs: a relative one would resolve against the real host)."""
        lines = [f'host "{h}" {{\n  services = {{\n    "providers.v1" = "{self.base_url}/v1/providers/"\n'
                 f'    "modules.v1"   = "{self.base_url}/v1/modules/"\n  }}\n}}\n'
                 for h in HOST_OVERRIDES]
        return "".join(lines) + extra


def main(argv: list[str]) -> int:
    import argparse
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    serve = sub.add_parser("serve", help="build the tree in DIR and serve it until interrupted")
    serve.add_argument("dir")
    serve.add_argument("--latency", type=float, default=0.0, help="seconds added before every file response")
    args = ap.parse_args(argv)
    os.makedirs(args.dir, exist_ok=True)
    reg = FixtureRegistry(args.dir, latency=args.latency)
    info = {"port": reg.port, "untrusted_port": reg.untrusted_port, "http_port": reg.http_port,
            "ca_pem": reg.ca_pem, "requests": reg.log_path, "tree": reg.tree,
            "expect": os.path.join(reg.root, "expect.json")}
    with open(os.path.join(reg.root, "cli.tfrc"), "w") as f:
        f.write(reg.cli_config())
    with open(os.path.join(reg.root, "server.json"), "w") as f:
        json.dump(info, f, indent=2)
    print(json.dumps(info), flush=True)
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    signal.signal(signal.SIGINT, lambda *_: done.set())
    done.wait()
    reg.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
