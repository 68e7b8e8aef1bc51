#!/usr/bin/env python3
"""Every module gets the same findings in every scope.

Each repository given (a directory; it is copied into a scratch directory and
marked as a repository with an empty `.git`) is linted three ways, from its
root as the working directory:
  1. `tfsift lint -r .`                  the whole repository;
  2. `tfsift lint DIR`                   each module directory alone;
  3. `tfsift lint DIR/FILE`              each configuration file alone, as a
                                         pre-commit hook passes files;
  4. `tfsift lint -r LINK/REPO`          the whole repository again, named
                                         through a symbolic link to the
                                         directory that holds it (from that
                                         directory's parent).
For every module directory, the findings located in its own files (rule,
severity, message, range) must be the same in all three. Prints the count of
module directories that agree and the first differences; exit status 1 when
any module differs.

`--sample N` keeps every Nth module directory of a repository (deterministic,
sorted by path) for the single-directory and single-file runs, so that a CI
run stays short; the full run is `--sample 1`.
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile

CONFIG_SUFFIXES = (".tf", ".tf.json", ".tofu", ".tofu.json")


def lint(tfsift, cwd, args):
    proc = subprocess.run([tfsift, "lint", "--format", "json", "--color", "never", "--jobs", "1", *args],
                          cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    if proc.returncode not in (0, 1):
        return None, proc.stderr.decode(errors="replace")[:400]
    return json.loads(proc.stdout)["findings"], None


def key(f):
    loc = f["location"]
    return (loc["path"], loc["start"]["line"], loc["start"]["column"], loc["end"]["line"], loc["end"]["column"],
            f["rule"], f["severity"], f["message"])


def module_dirs(root):
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".")
                             and not os.path.islink(os.path.join(dirpath, d)))
        files = sorted(f for f in filenames if f.endswith(CONFIG_SUFFIXES) and not f.startswith("."))
        if files:
            rel = os.path.relpath(dirpath, root).replace(os.sep, "/")
            out.append((rel, files))
    return sorted(out)


def own(findings, rel_dir):
    return sorted(key(f) for f in findings if os.path.dirname(f["location"]["path"]) == ("" if rel_dir == "." else rel_dir))


def check_module(tfsift, root, rel_dir, files, whole):
    """Returns a list of problems for one module directory (empty: it agrees)."""
    problems = []
    dir_findings, err = lint(tfsift, root, [rel_dir])
    if dir_findings is None:
        return ["%s: lint of the directory failed: %s" % (rel_dir, err)]
    alone = own(dir_findings, rel_dir)
    if alone != whole:
        problems.append("%s: directory alone differs from the recursive run:\n    only alone: %s\n    only recursive: %s"
                        % (rel_dir, sorted(set(alone) - set(whole))[:3], sorted(set(whole) - set(alone))[:3]))
    for name in files:
        path = name if rel_dir == "." else rel_dir + "/" + name
        file_findings, err = lint(tfsift, root, [path])
        if file_findings is None:
            problems.append("%s: lint of the file failed: %s" % (path, err))
            continue
        got = sorted(k for k in map(key, file_findings) if k[0] == path)
        want = [k for k in whole if k[0] == path]
        if got != want:
            problems.append("%s: file alone differs from the recursive run:\n    only alone: %s\n    only recursive: %s"
                            % (path, sorted(set(got) - set(want))[:3], sorted(set(want) - set(got))[:3]))
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tfsift", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--sample", type=int, default=1, help="check every Nth module directory (default: all)")
    ap.add_argument("--corpus", help="a directory whose every subdirectory is a repository")
    ap.add_argument("--only", action="append", default=[], help="with --corpus: only these repositories")
    ap.add_argument("repos", nargs="*", help="directories, each a repository")
    args = ap.parse_args()
    tfsift = os.path.abspath(args.tfsift)
    repos = [os.path.abspath(r) for r in args.repos]
    if args.corpus:
        for name in sorted(os.listdir(args.corpus)):
            path = os.path.join(args.corpus, name)
            if os.path.isdir(path) and (not args.only or name in args.only):
                repos.append(os.path.abspath(path))
    if not repos:
        print("no repositories given")
        return 2
    total = agreed = files = linked_agreed = 0
    failures = []
    with tempfile.TemporaryDirectory(prefix="tfsift-scope-") as scratch, \
            concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for i, src in enumerate(repos):
            root = os.path.join(scratch, "r%d" % i, os.path.basename(src))
            shutil.copytree(src, root, symlinks=True)
            os.makedirs(os.path.join(root, ".git"), exist_ok=True)
            findings, err = lint(tfsift, root, ["--recursive", "--no-gitignore", "."])
            if findings is None:
                failures.append("%s: recursive lint failed: %s" % (src, err))
                continue
            # The same repository named through a link: the same findings.
            parent = os.path.dirname(root)
            os.symlink(os.path.basename(parent), parent + "-link")
            linked_name = os.path.basename(parent) + "-link/" + os.path.basename(root)
            linked, err = lint(tfsift, scratch, ["--recursive", "--no-gitignore", linked_name])
            if linked is None:
                failures.append("%s: recursive lint through a link failed: %s" % (src, err))
            else:
                prefix = linked_name + "/"
                got = sorted(tuple(v.replace(prefix, "") if isinstance(v, str) else v for v in k)
                             for k in map(key, linked))
                want = sorted(map(key, findings))
                if got == want:
                    linked_agreed += 1
                else:
                    failures.append("%s: the recursive run through a symbolic link differs:\n    only through the link: "
                                    "%s\n    only directly: %s" % (os.path.basename(src), sorted(set(got) - set(want))[:3],
                                                                 sorted(set(want) - set(got))[:3]))
            mods = module_dirs(root)[::args.sample]
            jobs = {pool.submit(check_module, tfsift, root, rel, names, own(findings, rel)): rel
                    for rel, names in mods}
            repo_bad = 0
            for fut in concurrent.futures.as_completed(jobs):
                problems = fut.result()
                total += 1
                if problems:
                    repo_bad += 1
                    failures.extend("%s: %s" % (os.path.basename(src), p) for p in problems)
                else:
                    agreed += 1
            files += sum(len(n) for _, n in mods)
            print("%s: %d module directories, %d differ" % (os.path.basename(src), len(mods), repo_bad), flush=True)
    for f in failures[:20]:
        print(f)
    if len(failures) > 20:
        print("... and %d more" % (len(failures) - 20))
    print("%d of %d module directories (%d files) get identical findings in every scope; %d of %d repositories "
          "the same through a symbolic link" % (agreed, total, files, linked_agreed, len(repos)))
    return 0 if agreed == total and total > 0 and not failures else 1


if __name__ == "__main__":
    sys.exit(main())
