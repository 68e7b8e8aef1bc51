"""A scripted Language Server Protocol client over a subprocess's standard
input and output, for the server's conformance test and its benchmark.
Python standard library only."""

import json
import queue
import subprocess
import threading
import time
from urllib.parse import quote

TIMEOUT = 20.0  # seconds for one expected message; generous for a loaded machine


class Client:
    def __init__(self, argv, cwd, env=None):
        self.proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.messages = queue.Queue()
        self.next_id = 0
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.stderr = b""
        self.err_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self.err_reader.start()
        self.backlog = []
        # What the client holds now: the last diagnostics published for
        # each URI (the server sends a file again only when they change).
        self.published = {}

    def _read_stderr(self):
        self.stderr = self.proc.stderr.read()

    def _read(self):
        out = self.proc.stdout
        while True:
            headers = {}
            while True:
                line = out.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode().partition(":")
                headers[name.strip().lower()] = value.strip()
            body = out.read(int(headers["content-length"]))
            message = json.loads(body)
            if message.get("method") == "textDocument/publishDiagnostics":
                self.published[message["params"]["uri"]] = message["params"]["diagnostics"]
            self.messages.put(message)

    def write_raw(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, message):
        body = json.dumps(message).encode()
        self.write_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def wait_for(self, predicate, what, drop=None):
        """The first message (kept back ones first) that satisfies predicate;
        messages that satisfy drop on the way are thrown away."""
        for m in list(self.backlog):
            if predicate(m):
                self.backlog.remove(m)
                return m
            if drop and drop(m):
                self.backlog.remove(m)
        deadline = time.monotonic() + TIMEOUT
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("timed out waiting for " + what)
            try:
                m = self.messages.get(timeout=left)
            except queue.Empty:
                raise AssertionError("timed out waiting for " + what)
            if m is None:
                raise AssertionError("the server closed its output while waiting for %s; stderr: %s"
                                     % (what, self.stderr.decode(errors="replace")))
            if predicate(m):
                return m
            if not (drop and drop(m)):
                self.backlog.append(m)

    def call(self, method, params):
        rid = self.request(method, params)
        m = self.wait_for(lambda m: m.get("id") == rid and "method" not in m, "the response to " + method)
        if "error" in m:
            raise AssertionError("%s failed: %s" % (method, m["error"]))
        return m["result"]

    def diagnostics(self, uri, version=None, until=None):
        """The diagnostics of the next publication for uri (for the given
        document version, and satisfying until when given); earlier
        publications for uri that do not match are older and dropped."""
        def publication(m):
            return m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri

        def match(m):
            if not publication(m):
                return False
            p = m["params"]
            return (version is None or p.get("version") == version) and (until is None or until(p["diagnostics"]))
        what = "diagnostics of %s (version %s)" % (uri, version)
        return self.wait_for(match, what, drop=publication)["params"]["diagnostics"]

    def log_message(self, containing):
        return self.wait_for(lambda m: m.get("method") == "window/logMessage" and containing in m["params"]["message"],
                             "a log message containing %r" % containing)


def uri_of(path):
    return "file://" + quote(path)


def codes(diagnostics):
    return sorted(d["code"] for d in diagnostics)


def apply_edits(text, edits):
    """Applies LSP TextEdits (UTF-16 positions) to text, last first."""
    lines = text.split("\n")

    def offset(pos):
        line = pos["line"]
        if line >= len(lines):
            return len(text)
        start = sum(len(l) + 1 for l in lines[:line])
        units = 0
        i = 0
        s = lines[line]
        while i < len(s) and units < pos["character"]:
            units += 2 if ord(s[i]) > 0xFFFF else 1
            i += 1
        return start + i

    spans = sorted(((offset(e["range"]["start"]), offset(e["range"]["end"]), e["newText"]) for e in edits),
                   reverse=True)
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text
