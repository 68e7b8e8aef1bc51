#!/usr/bin/env python3
"""Latency and memory of `tfsift server`, driven as an editor drives it.

Measures two module directories of the corpus: the largest (most bytes of
.tf files) and one of many small files (the directory with the most .tf
files, at most 20, ties broken by size), or those named by --module. For
each it opens the module's largest file in the server and measures:

  * latency: the time from sending a `didChange` to receiving the
    `publishDiagnostics` for that document version, over --samples edits
    (each waits for its publication), with the debounce set to 0 so that
    only the server's own work is measured (an editor session adds the
    debounce, 150 ms by default). The server keeps each module's parsed
    files between edits, so an edit re-reads the module's files but parses
    only the edited one again;
  * memory (first module only): the server's resident set size (VmRSS)
    after the latency samples, after 1,000 and after --edits edits (default
    10,000). Edits are incremental (insert a comment line, then delete it
    again), sent in bursts of --burst; the benchmark waits for the
    publication of each burst's last version, so every burst costs at least
    one lint of the module.

The server never writes the corpus: every edit stays in its memory.

Usage: bench/server_bench.py [--tfsift build/tfsift] [--corpus ../shared/corpus]
                             [--module DIR]... [--samples 30] [--edits 10000] [--burst 10]
"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "support"))
from lsp_client import Client, uri_of  # noqa: E402


def corpus_modules(corpus):
    """The largest module directory and one of many small files."""
    largest = (0, None)
    many = ((0, 0), None)
    for dirpath, dirnames, filenames in os.walk(corpus):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        files = [f for f in filenames if f.endswith(".tf")]
        size = sum(os.path.getsize(os.path.join(dirpath, f)) for f in files)
        if size > largest[0]:
            largest = (size, dirpath)
        if len(files) <= 20 and (len(files), size) > many[0]:
            many = ((len(files), size), dirpath)
    return [m for m in (largest[1], many[1]) if m is not None]


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def bench_module(args, module, corpus, memory):
    """Latency samples on one module, then (with `memory`) RSS over --edits edits."""
    files = [f for f in os.listdir(module) if f.endswith(".tf")]
    size = sum(os.path.getsize(os.path.join(module, f)) for f in files)
    target = max(sorted(files), key=lambda f: os.path.getsize(os.path.join(module, f)))
    path = os.path.join(module, target)
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    uri = uri_of(path)
    print("module: %s (%d .tf files, %d bytes); editing %s (%d bytes)"
          % (os.path.relpath(module, corpus), len(files), size, target, len(text)))

    client = Client([args.tfsift, "server", "--debounce", "0"], cwd=module)
    client.call("initialize", {"processId": os.getpid(), "rootUri": uri_of(module), "capabilities": {}})
    client.notify("initialized", {})
    client.notify("textDocument/didOpen",
                  {"textDocument": {"uri": uri, "languageId": "terraform", "version": 0, "text": text}})
    client.diagnostics(uri, 0)
    client.backlog.clear()

    version = 0
    comment = "# edited by server_bench\n"

    def edit():
        # Insert a comment line at the top, or delete it again.
        nonlocal version
        version += 1
        if version % 2 == 1:
            change = {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                      "text": comment}
        else:
            change = {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 1, "character": 0}},
                      "text": ""}
        client.notify("textDocument/didChange",
                      {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]})

    latencies = []
    for _ in range(args.samples):
        started = time.monotonic()
        edit()
        client.diagnostics(uri, version)
        latencies.append((time.monotonic() - started) * 1000)
        client.backlog.clear()
    latencies.sort()
    print("  didChange -> publishDiagnostics over %d edits: median %.1f ms, p90 %.1f ms, min %.1f ms, max %.1f ms"
          % (len(latencies), statistics.median(latencies), latencies[int(len(latencies) * 0.9) - 1],
             latencies[0], latencies[-1]))

    if memory:
        print("  RSS after opening and %d edits: %.1f MiB" % (version, rss_kib(client.proc.pid) / 1024))
        marks = sorted({m for m in (1000, args.edits) if version < m <= args.edits})
        lints = 0
        started = time.monotonic()
        for mark in marks:
            while version < mark:
                for _ in range(min(args.burst, mark - version)):
                    edit()
                client.diagnostics(uri, version)
                client.backlog.clear()
                lints += 1
            print("  RSS after %d edits: %.1f MiB (%d bursts waited for, %.1f s)"
                  % (version, rss_kib(client.proc.pid) / 1024, lints, time.monotonic() - started))
    client.call("shutdown", None)
    client.notify("exit", None)
    code = client.proc.wait(timeout=60)
    print("  exit code %d" % code)
    return code == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tfsift", default="build/tfsift")
    ap.add_argument("--corpus", default="../shared/corpus")
    ap.add_argument("--module", action="append", default=[],
                    help="a module directory to measure instead of the corpus's (repeatable; memory on the first)")
    ap.add_argument("--samples", type=int, default=30)
    ap.add_argument("--edits", type=int, default=10000)
    ap.add_argument("--burst", type=int, default=10)
    args = ap.parse_args()
    args.tfsift = os.path.abspath(args.tfsift)
    corpus = os.path.realpath(args.corpus)

    modules = [os.path.realpath(m) for m in args.module] or corpus_modules(corpus)
    if not modules:
        print("no module found in " + args.corpus)
        return 2
    ok = True
    for i, module in enumerate(modules):
        ok = bench_module(args, module, corpus, memory=(i == 0)) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
