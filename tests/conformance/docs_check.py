#!/usr/bin/env python3
"""Checks the user documentation: README.md, CONTRIBUTING.md and docs/**.md.

- Every relative link (Markdown, reference definitions, HTML href/src) names a
  file or directory of the repository, and its #anchor a heading (GitHub's
  slugs) or an explicit id of the target page.
- Every external link goes to a host listed in KNOWN_HOSTS (on github.com,
  to an owner in KNOWN_GITHUB_OWNERS), so that no link leads to an
  invented address. No file of the repository outside tests/ and fixtures/
  (which may name it to check that it is absent), pages, code and sample
  output included, names an address of the project: it has none (the
  build's TFSIFT_HOMEPAGE is empty by default), so any such URL is invented.
- README.md starts with its two set-up commands: the title, then two fenced
  code blocks before any other text; the second is the test command of
  .ci/run. Below the commands the README stays short: fewer than MAX_WORDS
  words (wc -w) up to its link to CONTRIBUTING.md. Every path of the
  repository the README names in a code span is the text of a link.
- docs/rules.md, the index of the rule pages, is the one
  scripts/rules-index.py writes.
- With --tfsift, the code block after each `<!-- output: COMMAND -->` line
  of README.md is `$ COMMAND` and what COMMAND prints (standard output, then
  standard error), run with that tfsift first on PATH in a scratch copy of
  docs/examples (so a --fix changes nothing here), offline and without
  colour. --update rewrites the blocks that differ.

usage: docs_check.py --source DIR [--tfsift BUILD/tfsift [--update]]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

MAX_WORDS = 1500

# Hosts a link may point to: each exists and is what the text says it is.
KNOWN_HOSTS = {
    "developer.hashicorp.com",  # Terraform's documentation
    "opentofu.org",  # OpenTofu's documentation
    "docs.github.com",  # GitHub code scanning, Actions
    "docs.gitlab.com",  # GitLab Code Quality
    "pre-commit.com",  # the pre-commit framework
    "docs.astral.sh",  # Ruff's documentation
    "www.shellcheck.net",
    "github.com",  # only the owners below
}
KNOWN_GITHUB_OWNERS = {
    "hashicorp", "opentofu", "terraform-linters", "reviewdog", "google", "microsoft", "koalaman",
    "astral-sh", "github", "actions", "pre-commit",
}

# The addresses a project named tfsift would have on the code hosts people
# guess first; the project has no such repository.
INVENTED = re.compile(r"(github|gitlab)\.com/tfsift\b", re.IGNORECASE)

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
INLINE_LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*(<[^>]*>|[^)\s]*)(?:\s+\"[^\"]*\")?\s*\)")
REF_DEF = re.compile(r"^ {0,3}\[([^\]]+)\]:\s*(\S+)")
HTML_ATTR = re.compile(r"<[a-zA-Z][^>]*\s(?:href|src)=\"([^\"]*)\"")
HTML_ID = re.compile(r"<[a-zA-Z][^>]*\s(?:id|name)=\"([^\"]*)\"")
AUTOLINK = re.compile(r"<(https?://[^>\s]+)>")
BARE_URL = re.compile(r"(?<![(<\"/])\bhttps?://[^\s)>\]`\"']+")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")


def split_code(lines):
    """Yields (line number, text, in_fence) for each line."""
    fence = None
    for n, line in enumerate(lines, 1):
        m = FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)[0] * len(m.group(1))
            yield n, line, True
            continue
        if fence is not None:
            if m and m.group(1).startswith(fence) and not m.group(2).strip():
                fence = None
            yield n, line, True
            continue
        yield n, line, False


def without_code_spans(text):
    return CODE_SPAN.sub(lambda m: "\x00" * len(m.group(0)), text)


def slug(heading):
    """GitHub's anchor of a heading's text."""
    text = INLINE_LINK.sub(lambda m: m.group(1), heading)
    text = re.sub(r"<[^>]+>", "", text)
    text = text.replace("`", "").lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        found = set()
        counts = {}
        with open(path, encoding="utf-8") as f:
            for _, line, code in split_code(f.read().splitlines()):
                if code:
                    continue
                found.update(HTML_ID.findall(line))
                m = HEADING.match(line)
                if not m:
                    continue
                s = slug(m.group(2))
                n = counts.get(s, 0)
                counts[s] = n + 1
                found.add(s if n == 0 else f"{s}-{n}")
        cache[path] = found
    return cache[path]


def links(lines):
    """Yields (line number, target) of every link outside code."""
    for n, line, code in split_code(lines):
        if code:
            continue
        plain = without_code_spans(line)
        m = REF_DEF.match(plain)
        if m:
            yield n, m.group(2)
        for m in INLINE_LINK.finditer(plain):
            yield n, m.group(2).strip("<>")
        for target in HTML_ATTR.findall(plain):
            yield n, target
        for target in AUTOLINK.findall(plain):
            yield n, target
        for target in BARE_URL.findall(INLINE_LINK.sub("", AUTOLINK.sub("", plain))):
            yield n, target


def check_external(url):
    m = re.match(r"https?://([^/?#:]+)(?::\d+)?(/[^/?#]*)?", url)
    if not m:
        return "not a URL"
    host = m.group(1).lower()
    if host not in KNOWN_HOSTS:
        return f"host {host} is not in the list of known hosts (docs_check.py, KNOWN_HOSTS)"
    if host == "github.com":
        owner = (m.group(2) or "/").strip("/").lower()
        if owner not in KNOWN_GITHUB_OWNERS:
            return f"github.com/{owner} is not a known owner (docs_check.py, KNOWN_GITHUB_OWNERS)"
    return None


def check_file(source, rel, problems):
    path = os.path.join(source, rel)
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for n, target in links(lines):
        where = f"{rel}:{n}"
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):
            if target.startswith(("http://", "https://")):
                why = check_external(target)
                if why:
                    problems.append(f"{where}: {target}: {why}")
            elif not target.startswith("mailto:"):
                problems.append(f"{where}: {target}: a link of an unexpected scheme")
            continue
        file_part, _, fragment = target.partition("#")
        if file_part.startswith("/"):
            problems.append(f"{where}: {target}: an absolute path (links are relative to the page)")
            continue
        dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
        if os.path.relpath(dest, source).split(os.sep)[0] == "..":
            problems.append(f"{where}: {target}: leads outside the repository")
            continue
        if not os.path.exists(dest):
            problems.append(f"{where}: {target}: no such file or directory")
            continue
        if fragment:
            if not dest.endswith(".md") or os.path.isdir(dest):
                problems.append(f"{where}: {target}: an anchor into a file that is not Markdown")
            elif fragment not in anchors(dest):
                problems.append(f"{where}: {target}: no heading or id #{fragment} in {os.path.relpath(dest, source)}")


def check_invented(source, problems):
    out = subprocess.run(["git", "-C", source, "ls-files", "-z"], capture_output=True, check=True).stdout
    for rel in out.decode().split("\0"):
        if not rel or rel.startswith(("tests/", "fixtures/")):
            continue
        try:
            with open(os.path.join(source, rel), encoding="utf-8") as f:
                text = f.read()
        except (UnicodeDecodeError, OSError):
            continue  # binary files, and files the checkout does not have
        for n, line in enumerate(text.splitlines(), 1):
            m = INVENTED.search(line)
            if m:
                problems.append(f"{rel}:{n}: names {m.group(0)}, an address the project does not have")


def tracked_paths(source):
    out = subprocess.run(["git", "-C", source, "ls-files", "-z"], capture_output=True, check=True).stdout
    paths = set()
    for name in out.decode().split("\0"):
        if not name:
            continue
        parts = name.split("/")
        for k in range(1, len(parts) + 1):
            paths.add("/".join(parts[:k]))
    return paths


def fenced_blocks(lines):
    """Yields (line number of the opening fence, info string, body lines) of each fenced block."""
    block = None
    for n, line in enumerate(lines, 1):
        m = FENCE.match(line)
        if block is None:
            if m:
                block = (n, m.group(2).strip(), [], m.group(1)[0] * len(m.group(1)))
        elif m and m.group(1).startswith(block[3]) and not m.group(2).strip():
            yield block[:3]
            block = None
        else:
            block[2].append(line)


def check_readme(source, problems):
    with open(os.path.join(source, "README.md"), encoding="utf-8") as f:
        text = f.read()
    lines = text.splitlines()
    blocks = list(fenced_blocks(lines))
    if len(blocks) < 2:
        problems.append("README.md: fewer than two code blocks")
        return
    before = [l for l in lines[: blocks[0][0] - 1] if l.strip()]
    if len(before) != 1 or not before[0].startswith("# "):
        problems.append("README.md: something other than the title comes before the first command")
    between = [l for l in lines[blocks[0][0] + len(blocks[0][2]) + 1 : blocks[1][0] - 1] if l.strip()]
    if between:
        problems.append(f"README.md: text between the two set-up commands: {between[0]!r}")
    for n, _, body in blocks[:2]:
        if len([l for l in body if l.strip()]) != 1:
            problems.append(f"README.md:{n}: a set-up command is one line")
    with open(os.path.join(source, ".ci", "run"), encoding="utf-8") as f:
        ci_tests = [l.strip() for l in f if l.startswith("ctest ")]
    if len(ci_tests) != 1:
        problems.append(".ci/run: not exactly one ctest command")
    elif blocks[1][2] != ci_tests:
        problems.append(f"README.md: the second command {blocks[1][2]} is not .ci/run's test command {ci_tests[0]!r}")
    if "tfsift lint" not in "\n".join(blocks[0][2]):
        problems.append("README.md: the first command does not lint anything")

    contributing = next((k for k, l in enumerate(lines) if "](CONTRIBUTING.md" in l), None)
    if contributing is None:
        problems.append("README.md: no link to CONTRIBUTING.md")
    else:
        words = sum(len(l.split()) for l in lines[:contributing])
        words += len(lines[contributing].split("](CONTRIBUTING.md")[0].split())
        print(f"README.md: {words} words before the link to CONTRIBUTING.md")
        if words >= MAX_WORDS:
            problems.append(f"README.md: {words} words before the link to CONTRIBUTING.md (fewer than {MAX_WORDS})")

    paths = tracked_paths(source)
    for n, line, code in split_code(lines):
        if code:
            continue
        linked = {m.group(1) for m in INLINE_LINK.finditer(line)}
        for m in CODE_SPAN.finditer(line):
            name = m.group(2).strip().rstrip("/")
            if name in paths and not any(m.group(0) in t for t in linked):
                problems.append(f"README.md:{n}: the path {m.group(0)} is not a link")


def check_rules_index(source, problems):
    out = subprocess.run([sys.executable, os.path.join(source, "scripts", "rules-index.py"), "--check"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        problems.append(out.stdout.strip() + out.stderr.strip())


def run_sample(source, tfsift, command):
    """What COMMAND prints, run in a scratch copy of docs/examples with this tfsift first on PATH."""
    with tempfile.TemporaryDirectory() as scratch:
        shutil.copytree(os.path.join(source, "docs", "examples"), os.path.join(scratch, "docs", "examples"))
        env = dict(os.environ, NO_COLOR="1", TFSIFT_OFFLINE="1",
                   PATH=os.path.dirname(tfsift) + os.pathsep + os.environ.get("PATH", ""))
        run = subprocess.run(["bash", "-c", command], cwd=scratch, env=env, capture_output=True, text=True)
    return (run.stdout + run.stderr).splitlines()


def check_outputs(source, tfsift, problems, update):
    """Each `<!-- output: COMMAND -->` marker of README.md is followed by a block of `$ COMMAND` and its output."""
    readme = os.path.join(source, "README.md")
    with open(readme, encoding="utf-8") as f:
        lines = f.read().splitlines()
    blocks = {n: body for n, _, body in fenced_blocks(lines)}
    marker = re.compile(r"^<!-- output: (.*) -->$")
    replacements = []
    for k, line in enumerate(lines):
        m = marker.match(line.strip())
        if not m:
            continue
        start = k + 2  # the fence's line number, right after the marker
        if start not in blocks:
            problems.append(f"README.md:{k + 1}: the output marker is not followed by a code block")
            continue
        command = m.group(1)
        want = ["$ " + command] + run_sample(source, tfsift, command)
        if blocks[start] != want:
            if update:
                replacements.append((start, len(blocks[start]), want))
            else:
                problems.append(f"README.md:{start}: the sample of `{command}` is not what tfsift prints now "
                                "(docs_check.py --update rewrites it):\n" + "\n".join(want))
    if not any(marker.match(l.strip()) for l in lines):
        problems.append("README.md: no `<!-- output: COMMAND -->` sample")
    if replacements:
        for start, length, want in reversed(replacements):
            lines[start:start + length] = want
        tmp = readme + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        os.replace(tmp, readme)
        print(f"README.md: {len(replacements)} samples rewritten")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", required=True)
    ap.add_argument("--tfsift")
    ap.add_argument("--update", action="store_true", help="rewrite README's samples with what --tfsift prints")
    a = ap.parse_args()
    if a.update and not a.tfsift:
        ap.error("--update needs --tfsift")
    source = os.path.abspath(a.source)
    files = ["README.md", "CONTRIBUTING.md"]
    for root, dirs, names in os.walk(os.path.join(source, "docs")):
        dirs.sort()
        files += sorted(os.path.relpath(os.path.join(root, n), source) for n in names if n.endswith(".md"))
    problems = []
    if a.tfsift:
        check_outputs(source, os.path.abspath(a.tfsift), problems, a.update)
    for rel in files:
        if not os.path.exists(os.path.join(source, rel)):
            problems.append(f"{rel}: missing")
            continue
        check_file(source, rel, problems)
    check_invented(source, problems)
    check_readme(source, problems)
    check_rules_index(source, problems)
    for p in problems:
        print("FAIL:", p)
    print(f"{len(files)} pages checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
