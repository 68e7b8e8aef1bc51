#!/usr/bin/env python3
"""How much parallel downloads speed up `tfsift lock`.

Builds a fixture registry (tests/support/fixture_registry.py) with PROVIDERS
providers x 4 platforms, serves it over HTTPS on 127.0.0.1, and locks a
module requiring all of them for the 4 platforms: once with `--jobs 1` and
once with the default number of jobs, each from an empty download cache
(so both fetch every package), ROUNDS times each, alternating. Prints the
best and median wall times, the packages and bytes fetched (from the
server's request log) and the speed-up. The lock files of both runs must be
identical, or the benchmark fails.

A loopback server answers in microseconds where a real registry takes tens
of milliseconds, so `--latency` adds a delay before every response (default
0.05 s); `--latency 0` shows the pure local cost.

Usage: bench/lock_bench.py [--tfsift build/tfsift] [--providers 10]
                           [--package-kib 512] [--latency 0.05] [--rounds 3]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "support"))
import fixture_registry as fr  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tfsift", default="build/tfsift")
    ap.add_argument("--providers", type=int, default=10)
    ap.add_argument("--package-kib", type=int, default=512, help="incompressible bytes in each package")
    ap.add_argument("--latency", type=float, default=0.05, help="seconds before every response")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    tfsift = os.path.abspath(args.tfsift)
    if not os.access(tfsift, os.X_OK):
        sys.exit(f"no tfsift binary at {tfsift} (build it, or pass --tfsift)")
    missing = fr.tools_missing()
    if missing:
        sys.exit("missing tools: " + ", ".join(missing))

    root = tempfile.mkdtemp(prefix="tfb-")
    try:
        names = [f"p{i}" for i in range(args.providers)]
        started = time.monotonic()
        reg = fr.FixtureRegistry(os.path.join(root, "reg"), package_size=args.package_kib << 10,
                                 extra_providers={f"bench/{n}": ("1.0.0",) for n in names}, with_cases=False,
                                 latency=args.latency)
        print(f"fixture: {args.providers} providers x {len(fr.PLATFORMS)} platforms, "
              f"{args.package_kib} KiB packages, {args.latency * 1000:.0f} ms per response; "
              f"built in {time.monotonic() - started:.1f} s")
        try:
            module = os.path.join(root, "module")
            os.makedirs(module)
            body = "".join(f'    {n} = {{\n      source  = "registry.example.test/bench/{n}"\n'
                           f'      version = "1.0.0"\n    }}\n' for n in names)
            with open(os.path.join(module, "main.tf"), "w") as f:
                f.write(f"terraform {{\n  required_providers {{\n{body}  }}\n}}\n")
            cli = os.path.join(root, "cli.tfrc")
            with open(cli, "w") as f:
                f.write(reg.cli_config())
            env = {k: v for k, v in os.environ.items()
                   if not (k.lower().endswith("_proxy") or k.startswith(("TF_", "TFSIFT_", "XDG_")))}
            env.update(HOME=os.path.join(root, "home"), TF_CLI_CONFIG_FILE=cli, SSL_CERT_FILE=reg.ca_pem,
                       SSL_CERT_DIR=os.path.join(root, "no-certs"))
            os.makedirs(env["SSL_CERT_DIR"])
            platforms = [a for p in fr.PLATFORMS for a in ("--platform", p)]
            results = {"--jobs 1": [], "default jobs": []}
            locks = {}
            fetched = {}
            for r in range(args.rounds):
                for label, extra in (("--jobs 1", ["--jobs", "1"]), ("default jobs", [])):
                    cache = os.path.join(root, f"cache-{r}-{len(extra)}")
                    lock_path = os.path.join(module, ".terraform.lock.hcl")
                    if os.path.exists(lock_path):
                        os.remove(lock_path)
                    mark = reg.mark()
                    t = time.monotonic()
                    proc = subprocess.run([tfsift, "lock", module, "--quiet", "--cache-dir", cache, *platforms, *extra],
                                          env=env, capture_output=True, text=True, check=False)
                    elapsed = time.monotonic() - t
                    if proc.returncode != 0:
                        sys.exit(f"tfsift lock {label} failed ({proc.returncode}):\n{proc.stderr}")
                    zips = [q for q in reg.requests(mark) if q["path"].endswith(".zip")]
                    fetched[label] = len(zips)
                    with open(lock_path, "rb") as f:
                        locks.setdefault(label, f.read())
                    results[label].append(elapsed)
                    shutil.rmtree(cache, ignore_errors=True)
            if locks["--jobs 1"] != locks["default jobs"]:
                sys.exit("the lock files of --jobs 1 and the default jobs differ")
            total = args.providers * len(fr.PLATFORMS) * ((args.package_kib << 10) + 300)
            for label, times in results.items():
                print(f"{label:13} best {min(times):6.2f} s  median {statistics.median(times):6.2f} s  "
                      f"({fetched[label]} packages, {total / 1e6:.1f} MB, "
                      f"{total / 1e6 / min(times):.1f} MB/s)")
            speedup = min(results["--jobs 1"]) / min(results["default jobs"])
            print(f"speed-up of the default jobs over --jobs 1: {speedup:.2f}x (best of {args.rounds})")
        finally:
            reg.stop()
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
