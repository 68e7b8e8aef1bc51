#!/usr/bin/env python3
"""The fixture registry checked on its own, with curl, gpg and unzip.

Before the fixture can referee tfsift it has to be right itself: its `h1:`
function must give the spec's worked examples and the hash of a directory
`unzip` made; every `zh:` must be the sha256 of what the server sends and be
in a SHA256SUMS that gpg verifies with the signer's key; the hostile cases
must be hostile in the way they claim (gpg refuses them, curl reports the
truncation, the stall, the untrusted certificate, the redirect loop); the
request log must record the headers; the fault rules must apply per run; and
stopping it must leave no gpg home behind. Given the path of the Go
oracle `h1hash` (argument or H1HASH) and if it was built, one package is
checked against it too. Exits 77 when gpg, openssl,
curl or unzip is missing.
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import fixture_registry as fr  # noqa: E402

problems = []
# Terraform's dirhash built from Go (../shared/tools/oracle/README.md), used when it has been built.
H1HASH = os.environ.get("H1HASH") or (sys.argv[1] if len(sys.argv) > 1 else "")


def expect(cond, what):
    if not cond:
        problems.append(what)


def curl(reg, url, out, *extra, cacert=True):
    cmd = ["curl", "-sS", "-o", out, "-w", "%{http_code} %{url_effective}", "--max-time", "10",
           "-H", "Authorization: Bearer secret-token", *extra, url]
    if cacert:
        cmd[1:1] = ["--cacert", reg.ca_pem, "--capath", os.path.join(reg.root, "empty")]
    env = {k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")}
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    return proc.returncode, proc.stdout, proc.stderr


def gpg_verify(home, key, sig, doc):
    env = dict(os.environ, GNUPGHOME=home)
    subprocess.run(["gpg", "--batch", "--quiet", "--import", key], env=env, capture_output=True, check=True)
    return subprocess.run(["gpg", "--batch", "--verify", sig, doc], env=env, capture_output=True, text=True,
                          check=False)


def main():
    missing = [t for t in ("curl", "unzip") if shutil.which(t) is None] + fr.tools_missing()
    if missing:
        print("skipped: missing " + ", ".join(missing))
        return 77

    # The spec's worked h1: examples (providers-and-locks 4.3).
    expect(fr.h1_of_files({"terraform-provider-example_v1.0.0": b"hello\n"})
           == "h1:6FvBPpgAB+zWZWd4ip1T+Cb6/8BrKUcRTbIonYdJse0=", "h1 of one file")
    expect(fr.h1_of_files({"terraform-provider-example_v1.0.0": b"hello\n", "README.md": b"# example\n"})
           == "h1:4tYJH0mr+wGqyBTvEzhjQuRN8RuzvgeIMw5DoGDBa5Y=", "h1 of two files")
    expect(fr.h1_of_files({"LICENSE.txt": b"", "sub/a.txt": b"x", "terraform-provider-example_v1.0.0": b"hello\n"})
           == "h1:w9tym9krrjcTH8grkpoiQYYV30CRpNeCVW0atYgG2Ns=", "h1 with a subdirectory")
    expect(fr.h1_of_files({}) == "h1:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=", "h1 of nothing")

    with tempfile.TemporaryDirectory(prefix="tfsift-fx-") as tmp:
        os.makedirs(os.path.join(tmp, "empty"))
        started = time.monotonic()
        reg = fr.FixtureRegistry(os.path.join(tmp, "reg"))
        os.makedirs(os.path.join(reg.root, "empty"))
        print(f"built and serving in {time.monotonic() - started:.2f} s on port {reg.port}")
        gpg_home = reg.keys.home
        try:
            check(reg, tmp)
        finally:
            reg.stop()
        expect(not os.path.exists(gpg_home), "the temporary GNUPGHOME is still there after stop()")

    for p in problems:
        print("FAIL:", p)
    print(f"{len(problems)} problem(s)")
    return 1 if problems else 0


def check(reg, tmp):
    out = os.path.join(tmp, "out")
    base = reg.base_url
    exp = reg.expect
    gpg_home = tempfile.mkdtemp(prefix="gv", dir="/tmp")
    try:
        # ordinary packages: served bytes, SUMS, signature, h1 of what unzip makes
        for name, versions in fr.PROVIDERS.items():
            ns, ptype = name.split("/")
            rc, _, err = curl(reg, f"{base}/v1/providers/{ns}/{ptype}/versions", out)
            listed = [v["version"] for v in json.load(open(out))["versions"]] if rc == 0 else []
            expect(sorted(listed) == sorted(versions), f"{name}: versions list {listed}: {err}")
            for version in versions:
                record = exp["providers"][name][version]
                for platform, want in record["platforms"].items():
                    os_, arch = platform.split("_")
                    rc, status, err = curl(reg, f"{base}/v1/providers/{ns}/{ptype}/{version}/download/{os_}/{arch}", out)
                    doc = json.load(open(out))
                    expect(doc["shasum"] == want["zh"][3:], f"{name} {version} {platform}: shasum")
                    rc, status, err = curl(reg, doc["download_url"], out)
                    data = open(out, "rb").read()
                    expect(fr.zh_of(data) == want["zh"], f"{name} {version} {platform}: served zip != expected zh")
                    expect(want["zh"] in record["sums_zh"], f"{name} {version} {platform}: zh not in SUMS")
                    if (name, version, platform) == ("example/demo", "1.2.0", "linux_amd64"):
                        unpacked = os.path.join(tmp, "unzipped")
                        subprocess.run(["unzip", "-q", "-o", out, "-d", unpacked], check=True)
                        expect(fr.h1_of_directory(unpacked) == want["h1"], "h1 of unzip's directory != expected")
                        print(f"{name} {version} {platform}: {want['h1']} (unzip agrees)")
                        if H1HASH and os.access(H1HASH, os.X_OK):
                            oracle = subprocess.run([H1HASH, out], capture_output=True, text=True, check=False)
                            expect(oracle.stdout.split() == [want["h1"], want["zh"]],
                                   f"the h1hash oracle says {oracle.stdout.split()}")
                            print(f"  the h1hash oracle agrees: {oracle.stdout.split()}")
                    sums, sig = os.path.join(tmp, "sums"), os.path.join(tmp, "sig")
                    curl(reg, doc["shasums_url"], sums)
                    curl(reg, doc["shasums_signature_url"], sig)
                    lines = open(sums).read().split()
                    expect(doc["filename"] in lines and lines[lines.index(doc["filename"]) - 1] == doc["shasum"],
                           f"{name} {version} {platform}: SUMS line")
                    expect(open(sig, "rb").read()[0] & 0x80, f"{name} {version}: signature is not binary")
                v = gpg_verify(gpg_home, os.path.join(reg.root, "signer.asc"), sig, sums)
                expect(v.returncode == 0 and reg.expect["keys"]["signer"]["fingerprint"] in v.stderr.replace(" ", ""),
                       f"{name} {version}: gpg does not verify the SUMS: {v.stderr}")

        # hostile signatures are hostile
        def case_files(case):
            curl(reg, f"{base}/v1/providers/{case}/demo/1.0.0/download/linux/amd64", out)
            doc = json.load(open(out))
            sums, sig = os.path.join(tmp, f"{case}.sums"), os.path.join(tmp, f"{case}.sig")
            curl(reg, doc["shasums_url"], sums)
            curl(reg, doc["shasums_signature_url"], sig)
            return doc, sums, sig

        doc, sums, sig = case_files("badsig")
        expect("BAD signature" in gpg_verify(gpg_home, os.path.join(reg.root, "signer.asc"), sig, sums).stderr,
               "badsig: gpg does not call it a bad signature")
        doc, sums, sig = case_files("stranger")
        stranger = reg.expect["keys"]["stranger"]["key_id"]
        v = subprocess.run(["gpg", "--batch", "--list-packets", sig], capture_output=True, text=True, check=False)
        expect(stranger.lower() in (v.stdout + v.stderr).lower(), "stranger: not signed by the stranger key")
        expect(doc["signing_keys"]["gpg_public_keys"][0]["key_id"] == reg.expect["keys"]["signer"]["key_id"],
               "stranger: the document should list the signer")
        doc, sums, sig = case_files("armoredsig")
        expect(open(sig, "rb").read().startswith(b"-----BEGIN PGP SIGNATURE"), "armoredsig: not armored")
        doc, sums, _ = case_files("sumsmissing")
        expect(doc["filename"] not in open(sums).read(), "sumsmissing: the line is there")
        doc, sums, _ = case_files("sumsmismatch")
        expect("0" * 64 + "  " + doc["filename"] in open(sums).read(), "sumsmismatch: the line is not changed")
        doc, _, _ = case_files("zipmismatch")
        curl(reg, doc["download_url"], out)
        expect(hashlib.sha256(open(out, "rb").read()).hexdigest() != doc["shasum"], "zipmismatch: zip matches")
        doc, _, _ = case_files("zipslip")
        curl(reg, doc["download_url"], out)
        v = subprocess.run(["unzip", "-l", out], capture_output=True, text=True, check=False)
        expect("../../evil.sh" in v.stdout, "zipslip: no ../../evil.sh entry")
        doc, _, _ = case_files("emptyzip")
        curl(reg, doc["download_url"], out)
        expect(os.path.getsize(out) == 22, "emptyzip: not 22 bytes")
        for case in ("bomb", "lyingbomb"):
            doc, _, _ = case_files(case)
            curl(reg, doc["download_url"], out)
            expect(os.path.getsize(out) < 200_000, f"{case}: {os.path.getsize(out)} bytes packed")
            v = subprocess.run(["unzip", "-p", out], capture_output=True, check=False)
            expect(len(v.stdout) == 64 << 20, f"{case}: unzip got {len(v.stdout)} bytes, not 64 MiB")

        # transport faults
        fault = f"{base}/_fault"
        zip_path = "dl/example/demo/1.2.0/terraform-provider-demo_1.2.0_linux_amd64.zip"
        rc, _, err = curl(reg, f"{fault}/truncate/{zip_path}", out)
        expect(rc == 18, f"truncate: curl rc {rc} {err}")
        t = time.monotonic()
        rc, _, err = curl(reg, f"{fault}/stall/{zip_path}", out, "--max-time", "2")
        expect(rc == 28 and time.monotonic() - t < 5, f"stall: curl rc {rc} {err}")
        rc, _, err = curl(reg, f"https://127.0.0.1:{reg.untrusted_port}/.well-known/terraform.json", out)
        expect(rc == 60, f"untrusted: curl rc {rc} {err}")
        rc, _, err = curl(reg, f"{fault}/loop/0/x", out, "-L", "--max-redirs", "10")
        expect(rc == 47, f"loop: curl rc {rc} {err}")
        rc, status, err = curl(reg, f"{fault}/nolength/{zip_path}", out)
        expect(rc == 0 and fr.zh_of(open(out, "rb").read()) ==
               exp["providers"]["example/demo"]["1.2.0"]["platforms"]["linux_amd64"]["zh"], f"nolength: {err}")
        rc, status, err = curl(reg, f"{fault}/tohttp/{zip_path}", out, "-L", "--proto-redir", "=https")
        expect(rc == 1 and not [r for r in reg.requests() if r["server"] == "http"],
               f"tohttp: curl refusing http still reached the http server ({rc} {err})")
        rc, status, _ = curl(reg, f"{fault}/tohttp/{zip_path}", out, "-L")
        expect(status.startswith("200 http://"), f"tohttp: plain curl should land on the http server: {status}")
        rc, status, _ = curl(reg, f"{fault}/retry429/k/{zip_path}", out)
        expect(status.startswith("429"), f"retry429: first answer {status}")
        rc, status, _ = curl(reg, f"{fault}/retry429/k/{zip_path}", out)
        expect(status.startswith("200"), f"retry429: second answer {status}")

        # the redirect case moves the download document to localhost; its
        # root-relative URLs then point there, and curl drops Authorization
        mark = reg.mark()
        rc, status, _ = curl(reg, f"{base}/v1/providers/redirect/demo/1.0.0/download/linux/amd64", out, "-L")
        expect(status.startswith(f"200 https://localhost:{reg.port}/"), f"redirect: ended at {status}")
        doc = json.load(open(out))
        expect(doc["download_url"].startswith("/dl/"), "redirect: download_url is not root-relative")
        log = reg.requests(mark)
        expect([r["host"].split(":")[0] for r in log] == ["127.0.0.1", "localhost"], f"redirect: log {log}")
        expect(log[0]["authorization"] == "Bearer secret-token" and log[1]["authorization"] is None,
               f"redirect: Authorization {[r['authorization'] for r in log]}")

        # per-run rules: limited by times, cleared by clear_faults
        path = "/v1/providers/example/demo/versions"
        reg.set_faults([fr.Rule(path, status=500, times=2)])
        codes = [curl(reg, base + path, out)[1][:3] for _ in range(3)]
        expect(codes == ["500", "500", "200"], f"rule times=2: {codes}")
        reg.set_faults([fr.Rule(path, action="body", body=b"<html>", content_type="text/html")])
        rc, status, _ = curl(reg, base + path, out, "-w", " %{content_type}")
        expect(status.endswith("text/html") and open(out).read() == "<html>", f"body rule: {status}")
        reg.set_faults([fr.Rule(path, action="stall")])
        rc, _, _ = curl(reg, base + path, out, "--max-time", "2")
        expect(rc == 28, f"stall rule: rc {rc}")
        reg.clear_faults()
        expect(curl(reg, base + path, out)[1].startswith("200"), "clear_faults")

        # the request log records what the installer tests look at
        mark = reg.mark()
        curl(reg, base + "/.well-known/terraform.json", out, "-H", "X-Terraform-Version: 1.5.7", "-A", "tfsift/test")
        (entry,) = reg.requests(mark)
        expect(entry["path"] == "/.well-known/terraform.json" and entry["user_agent"] == "tfsift/test" and
               entry["x_terraform_version"] == "1.5.7" and entry["authorization"] == "Bearer secret-token" and
               entry["host"] == f"127.0.0.1:{reg.port}", f"log entry {entry}")

        # the mirror: relative URLs next to the version document, h1 only
        mbase = f"https://localhost:{reg.port}/mirror/registry.example.test/example/demo"
        curl(reg, f"{mbase}/index.json", out)
        expect(set(json.load(open(out))["versions"]) == set(fr.PROVIDERS["example/demo"]), "mirror index")
        curl(reg, f"{mbase}/1.2.0.json", out)
        arch = json.load(open(out))["archives"]["linux_amd64"]
        curl(reg, f"{mbase}/{arch['url']}", out)
        expect(arch["hashes"] == [exp["providers"]["example/demo"]["1.2.0"]["platforms"]["linux_amd64"]["h1"]] and
               fr.zh_of(open(out, "rb").read()) ==
               exp["providers"]["example/demo"]["1.2.0"]["platforms"]["linux_amd64"]["zh"], "mirror archive")
        rc, status, _ = curl(reg, f"https://localhost:{reg.port}/mirror/registry.example.test/m-vjson404/demo/1.0.0.json",
                             out)
        expect(status.startswith("404"), f"m-vjson404: {status}")
    finally:
        subprocess.run(["gpgconf", "--kill", "gpg-agent"], env=dict(os.environ, GNUPGHOME=gpg_home),
                       capture_output=True, check=False)
        shutil.rmtree(gpg_home, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
