#!/usr/bin/env python3
"""No report of the corpus links to a page of tfsift's that nobody configured.

Lints ../shared/corpus once, writing every report format (text on standard
output, the others with --output), and checks:

  - no output names github.com/tfsift (no invented repository);
  - when the build has no home page (--homepage "", the default), no output
    carries a link of tfsift's own: every http(s) address in it is one the
    corpus itself holds (a module source a message quotes), the SARIF
    schema's, or one of the upstream pages Terraform's own messages name;
  - when a home page is configured, every link of tfsift's is below it and
    names the release tag (blob/v<version>/), never blob/main;
  - the text report carries no `docs:` line and ends with the line that
    says which command explains the rules seen.

Exit 0 when all hold, 1 otherwise.
"""
import argparse
import html
import os
import re
import subprocess
import sys
import tempfile

FORMATS = ["json", "sarif", "checkstyle", "junit", "compact", "github", "gitlab", "rdjson"]
URL = re.compile(r"https?://[^\s\"'<>`\\)\]]+")
# Addresses tfsift writes that are not its own pages: the SARIF schema, and
# the pages Terraform's own diagnostics name (tfsift repeats those messages).
FOREIGN = ("https://json.schemastore.org/", "https://www.terraform.io/", "https://learn.hashicorp.com/",
           "https://developer.hashicorp.com/")
# The reserved example domains (RFC 2606), which rule documentation's
# examples use: nobody's pages.
EXAMPLE_HOST = re.compile(r"^https?://([a-z0-9-]+\.)*example\.(com|org|net)(/|$)")


def corpus_urls(corpus):
    """Every http(s) address written in a file of the corpus."""
    found = set()
    for root, dirs, files in os.walk(corpus):
        dirs[:] = [d for d in dirs if d != ".git"]
        for name in files:
            try:
                with open(os.path.join(root, name), "rb") as f:
                    text = f.read().decode("utf-8", errors="replace")
            except OSError:
                continue
            found.update(URL.findall(text))
    return found


def quoted_from_corpus(url, known):
    """A report may quote an address cut short or with a suffix stripped."""
    url = url.rstrip(".,;:")
    return any(url in k or k in url for k in known)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tfsift", required=True)
    ap.add_argument("--shared", required=True)
    ap.add_argument("--homepage", default="", help="the TFSIFT_HOMEPAGE the build was configured with")
    ap.add_argument("--version", default="", help="the version links name (with --homepage)")
    args = ap.parse_args()
    corpus = os.path.join(args.shared, "corpus")
    failures = []
    with tempfile.TemporaryDirectory() as scratch:
        cmd = [args.tfsift, "lint", "--chdir", args.shared, "--recursive", "corpus", "--format", "text",
               "--color", "never"]
        for fmt in FORMATS:
            cmd += ["--output", "%s:%s" % (fmt, os.path.join(scratch, "report." + fmt))]
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=900)
        if proc.returncode not in (0, 1):
            sys.exit("tfsift lint exit %d: %s" % (proc.returncode, proc.stderr.decode(errors="replace")[:2000]))
        outputs = {"text": proc.stdout.decode("utf-8", errors="replace"),
                   "stderr": proc.stderr.decode("utf-8", errors="replace")}
        for fmt in FORMATS:
            with open(os.path.join(scratch, "report." + fmt), "rb") as f:
                outputs[fmt] = f.read().decode("utf-8", errors="replace")
    known = corpus_urls(corpus) if not args.homepage else set()
    for name, text in sorted(outputs.items()):
        if "github.com/tfsift" in text:
            failures.append("%s names github.com/tfsift" % name)
        own = set()
        for url in URL.findall(html.unescape(text)):
            if url.startswith(FOREIGN) or (EXAMPLE_HOST.match(url) and not args.homepage):
                continue
            if args.homepage:
                if url.startswith(args.homepage + "/") or url == args.homepage:
                    if "/blob/main/" in url or (args.version and "/blob/v%s/" % args.version not in url
                                                and url != args.homepage):
                        own.add(url)
                continue
            if not quoted_from_corpus(url, known):
                own.add(url)
        if own:
            failures.append("%s: %d link(s) of tfsift's own, e.g. %s" % (name, len(own), sorted(own)[:3]))
        print("%-10s %9d bytes checked" % (name, len(text)))
    text = outputs["text"]
    if re.search(r"^  docs: ", text, re.M):
        failures.append("text: a `docs:` line under a finding")
    if not text.rstrip("\n").split("\n")[-1].startswith("`tfsift rule ID` explains "):
        failures.append("text: does not end with the `tfsift rule ID` line: %r" % text[-300:])
    for f in failures:
        print("FAIL:", f)
    print("report links: %s" % ("ok" if not failures else "%d failure(s)" % len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
