#!/usr/bin/env python3
"""`tfsift` against hostile repositories and broken output, end to end.

Each case builds a small repository in a scratch directory from the
reproduction of a defect (a committed link to /proc/self/environ, a FIFO as
a configuration file, an unreadable directory, a 5,000-file `extend` chain,
`> /dev/full`, ...), runs the binary the way a CI job would, and checks the
exit status, the message a user sees, that nothing leaked into any report,
and that the run finished within a generous bound of time and memory (so a
hang or an unbounded read fails the case instead of stalling the suite).

    hostile_repository_check.py --tfsift build/tfsift [--case NAME ...]

Exit status 0 when every case passes, 1 otherwise, 77 when a case needs
something the machine lacks (it says what).
"""
import argparse
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

TIME_BOUND = 20.0            # seconds; each run takes well under one
MEMORY_BOUND = 512 * 1024    # KiB of peak RSS
# The dense-file case: a file of DENSE_BYTES of one-line resources must peak
# within DENSE_RATIO times its size plus DENSE_ALLOWANCE_KIB (the process at
# rest, with its rule catalogue). Such a file costs far more than its text,
# a decoded resource of a few hundred bytes per 56-byte line (about 36x;
# 49x before Resource held its rare parts apart); real modules stay within
# 3x (docs/benchmarks.md).
DENSE_BYTES = 8 << 20
DENSE_RATIO = 40
DENSE_ALLOWANCE_KIB = 32 * 1024
SKIP = 77


class Skip(Exception):
    pass


class Result:
    def __init__(self, code, out, err, seconds, max_rss_kib):
        self.code = code
        self.out = out
        self.err = err
        self.seconds = seconds
        self.max_rss_kib = max_rss_kib

    def text(self):
        return self.out.decode("utf-8", "replace") + self.err.decode("utf-8", "replace")


def run(argv, cwd, env=None, stdout=subprocess.PIPE, preexec=None):
    """Runs argv, killing it after TIME_BOUND; the exit status (None when it
    was killed), output, wall time and peak RSS. stdin is a pipe nobody
    writes to, so reading /dev/stdin would block."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    full_env["NO_COLOR"] = "1"
    start = time.monotonic()
    proc = subprocess.Popen(argv, cwd=cwd, env=full_env, stdin=subprocess.PIPE, stdout=stdout,
                            stderr=subprocess.PIPE, preexec_fn=preexec)
    killed = []

    def kill():
        killed.append(True)
        proc.kill()

    timer = threading.Timer(TIME_BOUND, kill)
    timer.start()
    chunks = {"out": [], "err": []}

    def drain(stream, key):
        for block in iter(lambda: stream.read(65536), b""):
            chunks[key].append(block)

    readers = [threading.Thread(target=drain, args=(proc.stderr, "err"))]
    if proc.stdout is not None:
        readers.append(threading.Thread(target=drain, args=(proc.stdout, "out")))
    for r in readers:
        r.start()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    timer.cancel()
    for r in readers:
        r.join()
    proc.stdin.close()
    seconds = time.monotonic() - start
    code = None if killed else proc.returncode
    return Result(code, b"".join(chunks["out"]), b"".join(chunks["err"]), seconds, usage.ru_maxrss)


class Case:
    def __init__(self, tfsift, scratch):
        self.tfsift = tfsift
        self.scratch = scratch
        self.problems = []

    def expect(self, cond, what):
        if not cond:
            self.problems.append(what)

    def repo(self, name, files, git=True):
        """A directory with `files` (name -> text) and, with git, a .git."""
        root = os.path.join(self.scratch, name)
        os.makedirs(root)
        if git:
            os.makedirs(os.path.join(root, ".git"))
        for rel, text in files.items():
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        return root

    def lint(self, cwd, *args, env=None, stdout=subprocess.PIPE, preexec=None):
        return run([self.tfsift, "lint", *args], cwd, env=env, stdout=stdout, preexec=preexec)

    def bounded(self, r, what):
        """The run finished in time and memory."""
        self.expect(r.code is not None, f"{what}: still running after {TIME_BOUND:.0f} s (killed)")
        self.expect(r.max_rss_kib < MEMORY_BOUND, f"{what}: peak RSS {r.max_rss_kib} KiB")

    def exits(self, r, code, what):
        self.bounded(r, what)
        self.expect(r.code == code, f"{what}: exit status {r.code}, expected {code}\n{r.text()}")

    def says(self, r, needle, what):
        self.expect(needle in r.err.decode("utf-8", "replace"),
                    f"{what}: stderr lacks {needle!r}:\n{r.err.decode('utf-8', 'replace')}")

    def absent(self, r, needle, what):
        blob = r.out + r.err
        self.expect(needle.encode() not in blob, f"{what}: {needle!r} appears in the output")


def reachable_for_others(c):
    """Makes sure a user other than root can run the binary: when a directory
    on its path is closed to others (os.access answers for root, who passes
    everywhere, so the mode bits are read), the case runs a copy kept in its
    scratch directory instead."""
    d = os.path.dirname(os.path.realpath(c.tfsift))
    while True:
        if not os.stat(d).st_mode & 0o001:
            break
        parent = os.path.dirname(d)
        if parent == d:
            return
        d = parent
    bindir = os.path.join(c.scratch, "bin")
    os.makedirs(bindir, exist_ok=True)
    os.chmod(c.scratch, 0o755)
    os.chmod(bindir, 0o755)
    copy = os.path.join(bindir, "tfsift")
    shutil.copy2(c.tfsift, copy)
    os.chmod(copy, 0o755)
    probe = os.path.realpath(c.scratch)
    while probe != os.path.dirname(probe):
        probe = os.path.dirname(probe)
        if not os.stat(probe).st_mode & 0o001:
            raise Skip(f"{probe} is not reachable for other users")
    c.tfsift = copy


# ---- 1. secrets behind symlinks --------------------------------------------

def case_environ_symlink(c):
    """x.tf -> /proc/self/environ: refused, the secret in no report."""
    root = c.repo("environ", {"ok.tf": "locals {}\n"})
    os.symlink("/proc/self/environ", os.path.join(root, "x.tf"))
    secret = "s3cr3t-%d" % os.getpid()
    for fmt in ("text", "compact", "json", "sarif", "checkstyle", "junit"):
        r = c.lint(root, "--format", fmt, ".", env={"MY_SECRET": secret})
        c.exits(r, 2, f"environ link, {fmt}")
        c.absent(r, secret, f"environ link, {fmt}")
        c.says(r, "x.tf (a symbolic link to /proc/self/environ)", f"environ link, {fmt}")
        c.says(r, "outside the repository root", f"environ link, {fmt}")
    # The user opting in (--config) reads it, but no report quotes a file
    # outside the repository.
    user_settings = os.path.join(c.scratch, "user.toml")
    with open(user_settings, "w") as f:
        f.write("follow_external_symlinks = true\n")
    for fmt in ("text", "sarif"):
        r = c.lint(root, "--config", user_settings, "--format", fmt, ".", env={"MY_SECRET": secret})
        c.bounded(r, f"environ link read on purpose, {fmt}")
        c.expect(r.code in (0, 1), f"environ link read on purpose, {fmt}: exit {r.code}\n{r.text()}")
        c.absent(r, secret, f"environ link read on purpose, {fmt}")
        if fmt == "sarif":
            doc = json.loads(r.out)
            for result in doc["runs"][0]["results"]:
                for loc in result["locations"]:
                    phys = loc["physicalLocation"]
                    if phys["artifactLocation"].get("uri", "").endswith("x.tf"):
                        c.expect("snippet" not in phys["region"], "a snippet of the environ file in SARIF")


def case_repository_settings_widen(c):
    """The repository's own .tfsift.toml cannot switch the protection off:
    `follow_external_symlinks = true` committed beside x.tf ->
    /proc/self/environ is a warning and the link is still refused; an
    `extend` naming a file outside is refused before it is read."""
    secret = "s3cr3t-%d" % os.getpid()
    root = c.repo("widen", {"ok.tf": "locals {}\n", ".tfsift.toml": "follow_external_symlinks = true\n"})
    os.symlink("/proc/self/environ", os.path.join(root, "x.tf"))
    for fmt in ("text", "compact", "sarif"):
        r = c.lint(root, "--format", fmt, ".", env={"MY_SECRET": secret})
        c.exits(r, 2, f"committed follow_external_symlinks, {fmt}")
        c.absent(r, secret, f"committed follow_external_symlinks, {fmt}")
        c.absent(r, "MY_SECRET", f"committed follow_external_symlinks, {fmt}")
        c.says(r, ".tfsift.toml:1:28: warning: `follow_external_symlinks = true` is ignored",
               f"committed follow_external_symlinks, {fmt}")
        c.says(r, "outside the repository root", f"committed follow_external_symlinks, {fmt}")
    # --quiet does not hide the warning.
    r = c.lint(root, "--quiet", ".", env={"MY_SECRET": secret})
    c.says(r, "follow_external_symlinks = true` is ignored", "committed follow_external_symlinks, --quiet")
    # An extend outside: refused, the outside file's keys never echoed.
    outside = os.path.join(c.scratch, "outside.toml")
    with open(outside, "w") as f:
        f.write('API_TOKEN = "%s"\n' % secret)
    root = c.repo("widen-extend", {"ok.tf": "locals {}\n",
                                   ".tfsift.toml": 'extend = "%s"\nfollow_external_symlinks = true\n' % outside})
    r = c.lint(root, ".")
    c.exits(r, 2, "committed extend outside")
    c.absent(r, "API_TOKEN", "committed extend outside")
    c.absent(r, secret, "committed extend outside")
    c.says(r, ".tfsift.toml:1:", "committed extend outside")
    c.says(r, "error: `extend` names " + outside, "committed extend outside")
    c.says(r, "only a settings file given with --config may extend a file outside the repository",
           "committed extend outside")
    # The user naming a file that extends it: read, its keys still not echoed.
    user_settings = os.path.join(c.scratch, "user.toml")
    with open(user_settings, "w") as f:
        f.write('extend = "%s"\n' % outside)
    r = c.lint(root, "--config", user_settings, ".")
    c.exits(r, 2, "--config extending a file with an unknown key")
    c.absent(r, "API_TOKEN", "--config extending a file with an unknown key")
    c.absent(r, secret, "--config extending a file with an unknown key")
    c.says(r, "outside.toml:1:1: error: unknown setting (not shown: the file lies outside the repository)",
           "--config extending a file with an unknown key")


def case_passwd_symlink(c):
    """passwd.tf -> /etc/passwd: refused with the link and its target named."""
    root = c.repo("passwd", {"ok.tf": "locals {}\n"})
    os.symlink("/etc/passwd", os.path.join(root, "passwd.tf"))
    for fmt in ("text", "sarif"):
        r = c.lint(root, "--format", fmt, ".")
        c.exits(r, 2, f"passwd link, {fmt}")
        c.absent(r, "root:x:0:0", f"passwd link, {fmt}")
        c.says(r, "passwd.tf (a symbolic link to /etc/passwd)", f"passwd link, {fmt}")


def case_module_outside(c):
    """A local module source that leaves the repository, by `..` or by a link."""
    scratch = os.path.join(c.scratch, "modout")
    os.makedirs(os.path.join(scratch, "outside"))
    with open(os.path.join(scratch, "outside", "main.tf"), "w") as f:
        f.write('variable "v" {\n  bogus = "TOPSECRET-VALUE"\n}\n')
    root = os.path.join(scratch, "repo")
    os.makedirs(os.path.join(root, ".git"))
    with open(os.path.join(root, "main.tf"), "w") as f:
        f.write('module "up" {\n  source = "../outside"\n}\n')
    r = c.lint(root, "--format", "text", ".")
    c.exits(r, 2, "module source ../outside")
    c.absent(r, "TOPSECRET", "module source ../outside")
    c.says(r, "resolves outside the repository root", "module source ../outside")
    c.expect("Module directory outside the repository" in r.out.decode(), "module source ../outside: no finding")
    # The same through a symlinked directory inside the repository.
    os.symlink("../outside", os.path.join(root, "mods"))
    with open(os.path.join(root, "main.tf"), "w") as f:
        f.write('module "up" {\n  source = "./mods"\n}\n')
    r = c.lint(root, "--format", "sarif", ".")
    c.exits(r, 2, "module source through a link")
    c.absent(r, "TOPSECRET", "module source through a link")


def case_monorepo_without_git(c):
    """An exported checkout (no `.git`): `envs/prod` calling
    `../../modules/vpc` is read as Terraform reads it, from the checkout's
    root or with `root = true`; a symlink out of it is still refused."""
    root = c.repo("export", {
        "envs/prod/main.tf": 'module "vpc" {\n  source = "../../modules/vpc"\n}\n',
        "modules/vpc/main.tf": 'variable "unused_in_vpc" {\n  type = string\n}\n',
    }, git=False)
    r = c.lint(root, "--format", "compact", "-r", ".")
    c.exits(r, 1, "monorepo without .git, from its root")
    out = r.out.decode()
    c.expect("Module directory outside the repository" not in out, f"monorepo without .git: refused:\n{out}")
    c.expect("unused_in_vpc" in out, f"monorepo without .git: the module's finding is missing:\n{out}")
    # From inside envs/prod the working directory is no help: the root is
    # the directory linted, until `root = true` marks the checkout's root.
    prod = os.path.join(root, "envs", "prod")
    r = c.lint(prod, "--format", "compact", ".")
    c.exits(r, 2, "monorepo without .git, from envs/prod")
    with open(os.path.join(root, ".tfsift.toml"), "w") as f:
        f.write("root = true\n")
    r = c.lint(prod, "--format", "compact", ".")
    c.bounded(r, "monorepo without .git, from envs/prod with root = true")
    c.expect(r.code in (0, 1), f"root = true: exit {r.code}\n{r.text()}")
    c.expect("Module directory outside the repository" not in r.out.decode(),
             f"root = true: still refused:\n{r.text()}")
    # A link out of the checkout is refused whatever the working directory.
    secret = "TOPSECRET-%d" % os.getpid()
    outside = os.path.join(c.scratch, "elsewhere")
    os.makedirs(outside)
    with open(os.path.join(outside, "main.tf"), "w") as f:
        f.write('variable "v" {\n  bogus = "%s"\n}\n' % secret)
    os.symlink(outside, os.path.join(root, "modules", "linked"))
    with open(os.path.join(prod, "main.tf"), "w") as f:
        f.write('module "linked" {\n  source = "../../modules/linked"\n}\n')
    r = c.lint(root, "--format", "compact", "-r", ".")
    c.exits(r, 2, "monorepo without .git, a module linked out of it")
    c.absent(r, secret, "monorepo without .git, a module linked out of it")
    c.says(r, "resolves outside the repository root", "monorepo without .git, a module linked out of it")


# ---- 2. special files never block, never read unboundedly -------------------

def special_entries(c, make, label, kind_text):
    """`make(path)` creates the special entry; it stands in turn for a
    configuration file, the lock file, an `extend` target, .tfsift.toml
    itself and a --state file."""
    base = os.path.join(c.scratch, "special-" + label)
    os.makedirs(base)

    def fresh(name):
        root = os.path.join(base, name)
        os.makedirs(os.path.join(root, ".git"))
        with open(os.path.join(root, "main.tf"), "w") as f:
            f.write("locals {}\n")
        return root

    root = fresh("config")
    make(os.path.join(root, "x.tf"))
    r = c.lint(root, ".")
    c.exits(r, 2, f"{label} as a configuration file")
    c.says(r, kind_text, f"{label} as a configuration file")

    root = fresh("lock")
    make(os.path.join(root, ".terraform.lock.hcl"))
    r = c.lint(root, ".")
    c.exits(r, 2, f"{label} as the lock file")
    c.says(r, "the lock file", f"{label} as the lock file")
    c.says(r, kind_text, f"{label} as the lock file")

    root = fresh("extend")
    with open(os.path.join(root, ".tfsift.toml"), "w") as f:
        f.write('extend = "base.toml"\n')
    make(os.path.join(root, "base.toml"))
    r = c.lint(root, ".")
    c.exits(r, 2, f"{label} as an extend target")
    c.says(r, kind_text, f"{label} as an extend target")
    c.says(r, ".tfsift.toml:1:", f"{label} as an extend target")

    root = fresh("settings")
    make(os.path.join(root, ".tfsift.toml"))
    r = c.lint(root, ".")
    c.exits(r, 2, f"{label} as .tfsift.toml")
    c.says(r, kind_text, f"{label} as .tfsift.toml")

    root = fresh("config-flag")
    make(os.path.join(root, "settings.toml"))
    r = c.lint(root, "--config", "settings.toml", ".")
    c.exits(r, 2, f"{label} as --config")
    c.says(r, kind_text, f"{label} as --config")

    root = fresh("state")
    make(os.path.join(root, "state.json"))
    r = c.lint(root, "--state", "state.json", ".")
    c.exits(r, 2, f"{label} as --state")
    c.says(r, "the state file", f"{label} as --state")
    c.says(r, kind_text, f"{label} as --state")

    root = fresh("default-state")
    make(os.path.join(root, "terraform.tfstate"))
    r = c.lint(root, ".")
    c.exits(r, 2, f"{label} as terraform.tfstate")
    c.says(r, kind_text, f"{label} as terraform.tfstate")


def case_fifo(c):
    special_entries(c, os.mkfifo, "fifo", "is a FIFO")


def case_dev_stdin(c):
    # stdin is a pipe that is never written to: opening or reading it blocks.
    special_entries(c, lambda p: os.symlink("/dev/stdin", p), "dev-stdin", "is a FIFO")


def case_dev_zero(c):
    special_entries(c, lambda p: os.symlink("/dev/zero", p), "dev-zero", "is a character device")


def case_file_too_large(c):
    root = c.repo("large", {".tfsift.toml": "max_file_size = 1000\n",
                            "main.tf": "locals {\n" + "  # padding padding padding\n" * 100 + "}\n"})
    r = c.lint(root, ".")
    c.exits(r, 2, "a file over max_file_size")
    c.says(r, "more than the limit of 1000 bytes (the setting max_file_size)", "a file over max_file_size")


def dense_file(path, target_bytes):
    """Writes about `target_bytes` of one-line resources, the densest valid
    configuration there is (each costs a decoded object however short its
    text); returns the size written."""
    line = 'resource "null_resource" "r{}" {{ triggers = {{ x = "y" }} }}\n'
    with open(path, "w") as f:
        written = i = 0
        while written < target_bytes:
            chunk = "".join(line.format(i + k) for k in range(1000))
            f.write(chunk)
            written += len(chunk)
            i += 1000
    return os.path.getsize(path)


def case_dense_file(c):
    """A large file of tiny resources: peak RSS stays within a fixed multiple
    of its bytes (the bound the hostile sweep found at 34x and more)."""
    root = c.repo("dense", {})
    size = dense_file(os.path.join(root, "main.tf"), DENSE_BYTES)
    r = c.lint(root, "--jobs", "1", "--format", "compact", ".")
    c.bounded(r, "a dense file")
    c.expect(r.code == 1, f"a dense file: exit status {r.code}, expected 1 (findings)\n{r.err.decode()}")
    bound_kib = (DENSE_RATIO * size) // 1024 + DENSE_ALLOWANCE_KIB
    c.expect(r.max_rss_kib <= bound_kib,
             f"a dense file of {size} bytes: peak RSS {r.max_rss_kib} KiB, more than {DENSE_RATIO}x its size "
             f"plus {DENSE_ALLOWANCE_KIB} KiB ({bound_kib} KiB)")


def case_run_budget(c):
    """Files past the run's budget of configuration bytes are not read, and
    each is reported at its line 1, column 1, naming the budget; exit 2."""
    root = c.repo("budget", {})
    for name in ("a.tf", "b.tf", "c.tf"):
        dense_file(os.path.join(root, name), 600 * 1024)
    r = c.lint(root, "--jobs", "1", "--format", "compact", "--max-total-size", "1MiB", ".")
    c.exits(r, 2, "a run over its budget")
    budget = "the run's budget of 1 MiB for all configuration files together was reached"
    for name in ("b.tf", "c.tf"):
        c.says(r, f"tfsift: cannot read ./{name}: not read: {budget}", "a run over its budget")
        c.expect(f"{name}:1:1: error[syntax-error] Failed to read file".encode() in r.out,
                 f"a run over its budget: no finding at {name}:1:1:\n{r.out.decode()}")
    c.absent(r, "cannot read ./a.tf", "a run over its budget")
    r = c.lint(root, "--jobs", "1", "--format", "compact", "--max-total-size", "2MiB", ".")
    c.exits(r, 1, "a run within its budget")
    r = c.lint(root, "--max-total-size", "lots", ".")
    c.exits(r, 2, "an invalid --max-total-size")
    c.says(r, "--max-total-size \"lots\" is not a size", "an invalid --max-total-size")


def case_memory_budget(c):
    """Past the run's budget of memory (--max-memory) no further file is
    read and a module whose files were read is not merged; each file is
    reported at 1:1, naming the budget; exit 2. The peak stays near the
    budget, where without it the same files take several times more."""
    budget_mib = 40
    # Two modules of about 3 MiB of one-line resources, about 110 MB each
    # when loaded: the first is read under the budget (the process starts at
    # about 10 MB); once it has been decoded, the process is past the budget.
    root = c.repo("memory", {})
    for module in ("a", "b"):
        os.makedirs(os.path.join(root, module))
        dense_file(os.path.join(root, module, "main.tf"), 3 << 20)
    r = c.lint(root, "--jobs", "1", "--format", "compact", "--max-memory", f"{budget_mib}MiB", "-r", ".")
    c.exits(r, 2, "a run past its memory budget")
    budget = f"the run's memory budget of {budget_mib} MiB was reached"
    c.says(r, f"tfsift: cannot read a/main.tf: not loaded: {budget}", "a run past its memory budget")
    c.says(r, f"tfsift: cannot read b/main.tf: not read: {budget}", "a run past its memory budget")
    c.says(r, "the option --max-memory", "a run past its memory budget")
    for name in ("a/main.tf", "b/main.tf"):
        c.expect(f"{name}:1:1: error[syntax-error] Failed to read file".encode() in r.out,
                 f"a run past its memory budget: no finding at {name}:1:1:\n{r.out.decode()[:2000]}")
    c.absent(r, "duplicate-block", "a run past its memory budget")
    loaded_kib = 2 * (3 << 20) * DENSE_RATIO // 1024
    c.expect(r.max_rss_kib < loaded_kib // 2,
             f"a run past its memory budget: peak RSS {r.max_rss_kib} KiB, not well under the {loaded_kib} KiB "
             "both modules could take")
    # The budget off: both modules are linted.
    r = c.lint(root, "--jobs", "1", "--format", "compact", "--max-memory", "0", "-r", ".")
    c.exits(r, 1, "no memory budget")
    c.absent(r, "memory budget", "no memory budget")
    r = c.lint(root, "--max-memory", "lots", ".")
    c.exits(r, 2, "an invalid --max-memory")
    c.says(r, "--max-memory \"lots\" is not a size", "an invalid --max-memory")


def case_repository_max_file_size(c):
    """A repository's .tfsift.toml may lower max_file_size but not raise it
    past the default: a larger file costs a multiple of its size in memory,
    which only the user may allow (--config)."""
    root = c.repo("max-file-size", {"main.tf": "locals {}\n", ".tfsift.toml": "max_file_size = 1073741824\n"})
    r = c.lint(root, ".")
    c.bounded(r, "a committed max_file_size over the default")
    c.says(r, ".tfsift.toml:1:17: warning: `max_file_size = 1073741824` is lowered to the default, 67108864",
           "a committed max_file_size over the default")
    user_settings = os.path.join(c.scratch, "user-max.toml")
    with open(user_settings, "w") as f:
        f.write("max_file_size = 1073741824\n")
    r = c.lint(root, "--config", user_settings, ".")
    c.bounded(r, "max_file_size from --config")
    c.absent(r, "is lowered", "max_file_size from --config")
    root = c.repo("max-file-size-lower", {"main.tf": "locals {}\n" + "#" * 2000 + "\n",
                                          ".tfsift.toml": "max_file_size = 1000\n"})
    r = c.lint(root, ".")
    c.exits(r, 2, "a committed max_file_size under the default")
    c.says(r, "more than the limit of 1000 bytes (the setting max_file_size)",
           "a committed max_file_size under the default")


# ---- 3. silent success -------------------------------------------------------

def case_unreadable_directory(c):
    """An unreadable directory, as a user root does not mask: exit 2, named."""
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            raise Skip("setpriv (util-linux) is needed to drop root for the permission case")
        reachable_for_others(c)
        argv_prefix = [setpriv, "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
    else:
        argv_prefix = []
    base = os.path.join(c.scratch, "perm")
    os.makedirs(base)
    os.chmod(c.scratch, 0o755)
    os.chmod(base, 0o755)
    root = os.path.join(base, "repo")
    for d in ("ok", "locked"):
        os.makedirs(os.path.join(root, d))
        with open(os.path.join(root, d, "main.tf"), "w") as f:
            f.write("locals {}\n")
    for dirpath, dirnames, filenames in os.walk(root):
        os.chmod(dirpath, 0o755)
        for name in filenames:
            os.chmod(os.path.join(dirpath, name), 0o644)
    os.chmod(os.path.join(root, "locked"), 0o000)
    try:
        r = run(argv_prefix + [c.tfsift, "lint", "--recursive", "."], root)
    finally:
        os.chmod(os.path.join(root, "locked"), 0o755)
    c.exits(r, 2, "an unreadable directory under --recursive")
    c.says(r, "tfsift: cannot read ./locked: cannot read the directory: Permission denied",
           "an unreadable directory under --recursive")


def case_path_too_deep(c):
    """A directory nested deeper than PATH_MAX: reported, exit 2."""
    root = os.path.join(c.scratch, "deep")
    os.makedirs(os.path.join(root, ".git"))
    with open(os.path.join(root, "main.tf"), "w") as f:
        f.write("locals {}\n")
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    name = "d" * 200
    try:
        for _ in range(25):  # 25 * 201 bytes > PATH_MAX (4096)
            os.mkdir(name, dir_fd=fd)
            nfd = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = nfd
        tf = os.open("main.tf", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
        os.write(tf, b"locals {}\n")
        os.close(tf)
    finally:
        os.close(fd)
    r = c.lint(root, "--recursive", ".")
    c.exits(r, 2, "a directory deeper than PATH_MAX")
    c.says(r, "File name too long", "a directory deeper than PATH_MAX")


# ---- 4. settings -------------------------------------------------------------

def case_extend_chain(c):
    """5,000 files, each extending the next: a clear message, no stack overflow."""
    root = c.repo("chain", {"main.tf": "locals {}\n"})
    n = 5000
    for i in range(n):
        name = ".tfsift.toml" if i == 0 else f"s{i}.toml"
        with open(os.path.join(root, name), "w") as f:
            f.write(f'extend = "s{i + 1}.toml"\n' if i + 1 < n else "")
    r = c.lint(root, ".")
    c.exits(r, 2, "a 5,000-file extend chain")
    c.says(r, "`extend` chain longer than 64 files", "a 5,000-file extend chain")
    # A cycle names its files.
    root = c.repo("cycle", {"main.tf": "locals {}\n", ".tfsift.toml": 'extend = "b.toml"\n',
                            "b.toml": 'extend = ".tfsift.toml"\n'})
    r = c.lint(root, ".")
    c.exits(r, 2, "an extend cycle")
    c.says(r, "`extend` forms a cycle", "an extend cycle")


def case_settings_directory(c):
    root = c.repo("settings-dir", {"main.tf": "locals {}\n"})
    os.makedirs(os.path.join(root, "conf.d"))
    r = c.lint(root, "--config", "conf.d", ".")
    c.exits(r, 2, "a directory as --config")
    c.says(r, "conf.d: is a directory", "a directory as --config")


def case_dangling_lock(c):
    root = c.repo("dangling", {"main.tf": 'terraform {\n  required_providers {\n    aws = {\n'
                                           '      source  = "hashicorp/aws"\n      version = "~> 5.0"\n'
                                           '    }\n  }\n}\n'})
    os.symlink("elsewhere/.terraform.lock.hcl", os.path.join(root, ".terraform.lock.hcl"))
    r = c.lint(root, "--format", "compact", ".")
    c.exits(r, 2, "a dangling lock-file link")
    c.says(r, "a symbolic link to elsewhere/.terraform.lock.hcl, which does not exist", "a dangling lock-file link")
    c.expect("lock-missing-provider" not in r.out.decode(), "a dangling lock link reported as a missing entry")


def case_state_errors(c):
    root = c.repo("state", {"main.tf": "locals {}\n"})
    r = c.lint(root, "--state", "nope.tfstate", ".")
    c.exits(r, 2, "a --state file that does not exist")
    c.says(r, "tfsift: cannot read the state file nope.tfstate: no such file", "a missing --state file")
    c.expect(r.out == b"", "a missing --state file still produced a report")


# ---- 5. output ---------------------------------------------------------------

def case_dev_full(c):
    if not os.path.exists("/dev/full"):
        raise Skip("/dev/full is missing")
    root = c.repo("full", {"main.tf": 'variable "x" {\n  bogus = 1\n}\n'})
    for args in (["lint", "."], ["lint", "--format", "sarif", "."], ["debug", "parse", "main.tf"]):
        with open("/dev/full", "wb") as full:
            r = run([c.tfsift, *args], root, stdout=full)
        c.exits(r, 2, f"tfsift {' '.join(args)} > /dev/full")
        c.says(r, "cannot write to standard output: No space left on device", f"{' '.join(args)} > /dev/full")
    r = c.lint(root, "--output", "sarif:no/such/dir/report.sarif", ".")
    c.exits(r, 2, "--output into a missing directory")
    c.says(r, "cannot write no/such/dir/report.sarif", "--output into a missing directory")


def case_debug_parse_status(c):
    root = c.repo("dparse", {"good.tf": "a = 1\n", "bad.tf": "a = \n"})
    r = run([c.tfsift, "debug", "parse", "good.tf"], root)
    c.exits(r, 0, "debug parse of a valid file")
    r = run([c.tfsift, "debug", "parse", "bad.tf"], root)
    c.exits(r, 1, "debug parse of a file with errors")
    c.expect(b'"diagnostics"' in r.out or b"error" in r.out, "debug parse printed no dump")
    r = run([c.tfsift, "debug", "parse", "good.tf", "bad.tf"], root)
    c.exits(r, 1, "debug parse of two files, one with errors")
    os.mkfifo(os.path.join(root, "pipe.tf"))
    r = run([c.tfsift, "debug", "parse", "pipe.tf"], root)
    c.exits(r, 2, "debug parse of a FIFO")
    c.says(r, "pipe.tf: is a FIFO", "debug parse of a FIFO")
    os.mkfifo(os.path.join(root, "pipe.hcl"))
    r = run([c.tfsift, "debug", "lock", "pipe.hcl"], root)
    c.exits(r, 2, "debug lock of a FIFO")


def case_control_characters(c):
    """ESC and other controls in a file name and in content come out escaped."""
    name = "evil\x1b]0;owned\x07\x1b[31m.tf"
    content = 'variable "x" {\n  bogus = "\x1b[2J\x9b\x7f"\n}\n'
    root = c.repo("controls", {})
    with open(os.path.join(root, name), "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(content)
    for fmt in ("text", "compact"):
        r = c.lint(root, "--format", fmt, ".")
        c.exits(r, 1, f"control characters, {fmt}")
        for bad in (b"\x1b", b"\x07", b"\x7f", "\x9b".encode()):
            c.expect(bad not in r.out, f"control characters, {fmt}: raw {bad!r} in the report")
        c.expect(b"evil\\x1B]0;owned\\x07\\x1B[31m.tf" in r.out,
                 f"control characters, {fmt}: the file name is not shown escaped:\n{r.out!r}")
        if fmt == "text":
            c.expect(b'"\\x1B[2J\\u009B\\x7F"' in r.out,
                     f"control characters, {fmt}: the content is not shown escaped:\n{r.out!r}")


def case_report_injection(c):
    """A file name that forges a finding line, bidi controls and zero-width
    characters, ESC in github's file=: every line-oriented format shows them
    escaped, and each finding stays one line."""
    forged = "x\nmain.tf:1:1: error[forged] fake finding\n.tf"
    bidi = "a\u202eft.\u2066b\u200bc.tf"
    root = c.repo("inject", {})
    for i, name in enumerate((forged, bidi, "esc\x1b[31m.tf")):
        with open(os.path.join(root, name), "w", encoding="utf-8") as f:
            f.write('variable "x%d" {\n  bogus = "\u202e\u200b"\n}\n' % i)
    for fmt in ("text", "compact", "github"):
        r = c.lint(root, "--format", fmt, ".")
        c.exits(r, 1, f"report injection, {fmt}")
        out = r.out.decode("utf-8", "replace")
        for line in out.splitlines():
            c.expect("error[forged]" not in line or "x\\nmain.tf" in line,
                     f"report injection, {fmt}: a forged line: {line!r}")
            c.expect(not line.startswith("main.tf:1:1"), f"report injection, {fmt}: a forged line: {line!r}")
        for bad in ("\u202e", "\u2066", "\u200b", "\x1b"):
            c.expect(bad not in out, f"report injection, {fmt}: raw {bad!r} in the report")
        # (github escapes ':' in property values as %3A)
        shown_forged = "x\\nmain.tf:1:1: error[forged] fake finding\\n.tf"
        if fmt == "github":
            shown_forged = shown_forged.replace(":", "%3A")
        c.expect(shown_forged in out, f"report injection, {fmt}: the forged name is not shown escaped:\n{out}")
        c.expect("a\\u202Eft.\\u2066b\\u200Bc.tf" in out,
                 f"report injection, {fmt}: the bidi name is not shown escaped:\n{out}")
        if fmt == "github":
            c.expect("file=esc\\x1B[31m.tf," in out, f"report injection, github: ESC in file=:\n{out}")
        if fmt == "compact":
            names = ("x\\nmain.tf:1:1: error[forged] fake finding\\n.tf:", "a\\u202Eft.\\u2066b\\u200Bc.tf:",
                     "esc\\x1B[31m.tf:")
            for line in out.splitlines():
                c.expect(line.startswith(names), f"report injection, compact: a line that is no finding: {line!r}")
        if fmt == "text":
            c.expect('"\\u202E\\u200B"' in out, f"report injection, text: the snippet is not escaped:\n{out}")


def case_report_out_of_memory(c):
    """A SARIF report that runs out of memory: exit 2 with a message, never
    an abort. The tree space takes 4 GiB of address space up front, so the
    data limit is swept just above it until the report fits. How much
    address space the report needs beyond the tree space is the allocator's
    to decide (jemalloc keeps more of it mapped than glibc did), so the
    sweep goes up to 1 GiB above it."""
    root = c.repo("oom", {})
    variables = ",".join('"v%d":{"bogus":1}' % i for i in range(20000))
    with open(os.path.join(root, "main.tf.json"), "w") as f:
        f.write('{"variable":{%s}}' % variables)  # one line, and enough findings that the SARIF document is large
    mib = 1 << 20
    seen = {}
    for extra in range(8, 1024, 8):
        limit = (4096 + extra) * mib

        def limited(limit=limit):
            resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))

        r = c.lint(root, "--format", "sarif", ".", preexec=limited)
        c.bounded(r, f"SARIF report under a {4096 + extra} MiB data limit")
        err = r.err.decode("utf-8", "replace")
        if "cannot reserve 4 GiB of address space" in err:
            continue  # below the range: the tree space itself does not fit
        if r.code == 2:
            c.expect("out of memory" in err, f"data limit {4096 + extra} MiB: exit 2 without saying why:\n{err}")
        else:
            c.expect(r.code == 1, f"data limit {4096 + extra} MiB: exit status {r.code}:\n{err[:500]}")
        seen.setdefault(r.code, extra)
        if r.code == 1:
            json.loads(r.out)  # a whole report once it fits
            break
    c.expect(2 in seen, f"no data limit made the report run out of memory: {seen}")
    c.expect(1 in seen, f"no data limit let the report through: {seen}")


def drop_root_prefix(c):
    """The command prefix that runs as `nobody` when we are root (root
    writes anywhere, which would mask a permission case)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        raise Skip("setpriv (util-linux) is needed to drop root for the permission case")
    reachable_for_others(c)
    return [setpriv, "--reuid=nobody", "--regid=nogroup", "--clear-groups"]


def case_lock_write_failure(c):
    """A lock file that cannot be written (a read-only directory): exit 2
    with the reason, for `tfsift lock` and for `lint --fix`."""
    prefix = drop_root_prefix(c)
    fixture = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fixtures", "lock-e2e", "input")
    os.chmod(c.scratch, 0o755)
    root = os.path.join(c.scratch, "repo")
    shutil.copytree(fixture, root, symlinks=True)
    os.remove(os.path.join(root, ".terraform.lock.hcl"))
    for dirpath, _, filenames in os.walk(root):
        os.chmod(dirpath, 0o555)
        for name in filenames:
            os.chmod(os.path.join(dirpath, name), 0o444)
    env = {"HOME": os.path.join(c.scratch, "home"), "XDG_DATA_DIRS": os.path.join(c.scratch, "none")}
    try:
        r = run(prefix + [c.tfsift, "lock", "--platform", "linux_amd64", "--fs-mirror", "terraform.d/plugins", "."],
                root, env=env)
        c.exits(r, 2, "tfsift lock into a read-only directory")
        c.says(r, "Permission denied", "tfsift lock into a read-only directory")
        r = run(prefix + [c.tfsift, "lint", "--fix", "--only", "lock-missing", "."], root, env=env)
        c.exits(r, 2, "lint --fix of the lock file in a read-only directory")
        c.says(r, "Permission denied", "lint --fix of the lock file in a read-only directory")
    finally:
        for dirpath, _, _ in os.walk(root):
            os.chmod(dirpath, 0o755)


def case_module_symlink_loop(c):
    """A module directory that is a loop of links: said so, exit 2. A
    `self -> .` link is a module call cycle."""
    root = c.repo("loops", {"main.tf": 'module "l" {\n  source = "./loop"\n}\n'})
    os.symlink("loop", os.path.join(root, "loop"))
    r = c.lint(root, "--format", "compact", ".")
    c.exits(r, 2, "a module directory that is a symlink loop")
    c.says(r, "loop of symbolic links", "a module directory that is a symlink loop")
    c.expect("does not exist" not in r.text(), f"a symlink loop reported as missing:\n{r.text()}")
    root = c.repo("self", {"main.tf": 'module "self" {\n  source = "./self"\n}\n'})
    os.symlink(".", os.path.join(root, "self"))
    r = c.lint(root, "--format", "compact", ".")
    c.bounded(r, "a self -> . module link")
    c.expect("Module call cycle" in r.out.decode(), f"a self -> . link is not a cycle:\n{r.text()}")


def case_exit_codes(c):
    """I/O and input errors exit 2 with a message: `effective` on a FIFO, an
    invalid --state file; a --fix that cannot write says so and counts
    nothing it did not write."""
    root = c.repo("codes", {"main.tf": 'variable "ami" {\n  type = string\n}\n'
                                       'resource "aws_instance" "web" {\n  ami = "${var.ami}"\n}\n'})
    os.mkfifo(os.path.join(root, "pipe.tf"))
    r = run([c.tfsift, "effective", "."], root)
    c.exits(r, 2, "effective with a FIFO")
    c.says(r, "is a FIFO", "effective with a FIFO")
    os.remove(os.path.join(root, "pipe.tf"))
    with open(os.path.join(root, "bad.tfstate"), "w") as f:
        f.write('{"version": 4, "resources": [')
    r = c.lint(root, "--state", "bad.tfstate", ".")
    c.exits(r, 2, "an invalid --state file")
    c.says(r, "tfsift: invalid state file bad.tfstate", "an invalid --state file")
    c.expect(r.out == b"", f"an invalid --state file still produced a report:\n{r.out!r}")
    os.remove(os.path.join(root, "bad.tfstate"))
    # A directory the fix cannot write into (as a user other than root).
    prefix = drop_root_prefix(c)
    os.chmod(c.scratch, 0o755)
    for dirpath, _, filenames in os.walk(root):
        os.chmod(dirpath, 0o555)
        for name in filenames:
            os.chmod(os.path.join(dirpath, name), 0o444)
    try:
        r = run(prefix + [c.tfsift, "lint", "--fix", "--only", "deprecated-interpolation", "."], root)
    finally:
        for dirpath, _, _ in os.walk(root):
            os.chmod(dirpath, 0o755)
    c.exits(r, 2, "--fix that cannot write")
    c.says(r, "Fixed 0 findings in 0 files; 1 file could not be written", "--fix that cannot write")


def case_ignore_inputs(c):
    """The files that decide what is linted are read or said to be unread,
    never skipped in silence: a .gitignore over 1 MiB is applied; one that is a
    FIFO gets a warning naming it, and the run does not hang on it."""
    bad_module = 'resource "x" {\n'
    root = c.repo("big-gitignore", {"ok/main.tf": 'variable "x" {\n  type = string\n}\n',
                                    "out/main.tf": bad_module})
    with open(os.path.join(root, ".gitignore"), "w") as f:
        f.write("# filler\n" * 200000 + "out/\n")
    c.expect(os.path.getsize(os.path.join(root, ".gitignore")) > 1 << 20, "the .gitignore is not over 1 MiB")
    r = c.lint(root, "--format", "compact", "-r", ".")
    c.bounded(r, "a .gitignore over 1 MiB")
    c.expect(b"out/main.tf" not in r.out, f"a .gitignore over 1 MiB was not applied:\n{r.text()}")
    c.expect(b"ok/main.tf" in r.out, f"the module beside the ignored one was not linted:\n{r.text()}")
    os.remove(os.path.join(root, ".gitignore"))
    os.mkfifo(os.path.join(root, ".gitignore"))
    r = c.lint(root, "--format", "compact", "-r", ".")
    c.bounded(r, "a .gitignore that is a FIFO")
    c.says(r, ".gitignore: is a FIFO", "a .gitignore that is a FIFO")
    c.says(r, "its patterns are not applied", "a .gitignore that is a FIFO")


CASES = {
    "environ-symlink": case_environ_symlink,
    "ignore-inputs": case_ignore_inputs,
    "repository-settings-widen": case_repository_settings_widen,
    "passwd-symlink": case_passwd_symlink,
    "module-outside-root": case_module_outside,
    "monorepo-without-git": case_monorepo_without_git,
    "fifo": case_fifo,
    "dev-stdin": case_dev_stdin,
    "dev-zero": case_dev_zero,
    "file-too-large": case_file_too_large,
    "dense-file": case_dense_file,
    "run-budget": case_run_budget,
    "memory-budget": case_memory_budget,
    "repository-max-file-size": case_repository_max_file_size,
    "unreadable-directory": case_unreadable_directory,
    "path-too-deep": case_path_too_deep,
    "extend-chain": case_extend_chain,
    "settings-directory": case_settings_directory,
    "dangling-lock": case_dangling_lock,
    "state-errors": case_state_errors,
    "dev-full": case_dev_full,
    "debug-parse-status": case_debug_parse_status,
    "control-characters": case_control_characters,
    "report-injection": case_report_injection,
    "report-out-of-memory": case_report_out_of_memory,
    "lock-write-failure": case_lock_write_failure,
    "exit-codes": case_exit_codes,
    "module-symlink-loop": case_module_symlink_loop,
}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tfsift", required=True)
    ap.add_argument("--case", action="append", choices=sorted(CASES), help="run only these cases")
    args = ap.parse_args()
    tfsift = os.path.abspath(args.tfsift)
    failed = skipped = 0
    for name in args.case or list(CASES):
        scratch = tempfile.mkdtemp(prefix="tfsift-hostile-")
        c = Case(tfsift, scratch)
        try:
            CASES[name](c)
        except Skip as e:
            print(f"SKIP {name}: {e}")
            skipped += 1
            continue
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        if c.problems:
            failed += 1
            print(f"FAIL {name}")
            for p in c.problems:
                print("  " + p.replace("\n", "\n    "))
        else:
            print(f"ok   {name}")
    if failed:
        return 1
    return SKIP if skipped else 0


if __name__ == "__main__":
    sys.exit(main())
