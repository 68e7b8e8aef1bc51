#!/usr/bin/env python3
"""A small HTTPS server on 127.0.0.1 for tfsift's transport tests.

It makes a throw-away CA and a server certificate for 127.0.0.1/localhost
with openssl, serves fault endpoints, and records every request (path, host,
Authorization, User-Agent, X-Terraform-Version) as one JSON line in
DIR/requests.log. On start it prints "PORT CA_FILE UNTRUSTED_PORT" on one
line; the second server uses a self-signed certificate nobody trusts. It
stops on GET /_shutdown, or after --lifetime seconds.

Usage: transport_server.py DIR [--lifetime SECONDS]
"""
import argparse
import http.server
import json
import os
import socketserver
import ssl
import subprocess
import sys
import threading
import time
import urllib.parse


def make_certificates(d):
    def run(*args):
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=d)

    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
    run("openssl", "req", "-x509", *ec, "-days", "2", "-subj", "/CN=tfsift transport test CA",
        "-keyout", "ca.key", "-out", "ca.pem",
        "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign")
    run("openssl", "req", *ec, "-subj", "/CN=localhost", "-keyout", "server.key", "-out", "server.csr")
    with open(os.path.join(d, "ext.cnf"), "w") as f:
        f.write("subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n")
    run("openssl", "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
        "-CAcreateserial", "-days", "2", "-extfile", "ext.cnf", "-out", "server.pem")
    run("openssl", "req", "-x509", *ec, "-days", "2", "-subj", "/CN=localhost",
        "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
        "-keyout", "self.key", "-out", "self.pem")


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def handler_for(state):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def send(self, status, body=b"", content_type="application/json", headers=(), length=True):
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            for name, value in headers:
                self.send_header(name, value)
            if length:
                self.send_header("Content-Length", str(len(body)))
            else:
                self.send_header("Connection", "close")
                self.close_connection = True
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            url = urllib.parse.urlsplit(self.path)
            query = urllib.parse.parse_qs(url.query)
            path = url.path
            entry = {
                "path": self.path,
                "host": self.headers.get("Host"),
                "authorization": self.headers.get("Authorization"),
                "user_agent": self.headers.get("User-Agent"),
                "x_terraform_version": self.headers.get("X-Terraform-Version"),
            }
            with state["lock"]:
                state["log"].write(json.dumps(entry) + "\n")
                state["log"].flush()
                state["hits"][path] = state["hits"].get(path, 0) + 1
                hits = state["hits"][path]
            port = self.server.server_address[1]
            if path == "/_shutdown":
                self.send(200, b"{}")
                threading.Thread(target=state["stop"]).start()
            elif path == "/ok":
                self.send(200, b'{"ok": true}')
            elif path == "/echo":
                self.send(200, json.dumps(entry).encode())
            elif path.startswith("/status/"):
                self.send(int(path.rsplit("/", 1)[1]), b'{"errors": ["fault"]}')
            elif path == "/429-once":
                if hits == 1:
                    self.send(429, b"{}", headers=[("Retry-After", "1")])
                else:
                    self.send(200, b'{"ok": "after 429"}')
            elif path == "/big":
                n = int(query["n"][0])
                self.send(200, b"x" * n, content_type="application/octet-stream",
                          length="cl" in query)
            elif path == "/truncated":
                self.send_response(200)
                self.send_header("Content-Type", "application/zip")
                self.send_header("Content-Length", "1000")
                self.end_headers()
                self.wfile.write(b"0123456789")
                self.wfile.flush()
                self.close_connection = True
            elif path == "/stall":
                self.send_response(200)
                self.send_header("Content-Type", "application/zip")
                self.send_header("Content-Length", "1000")
                self.end_headers()
                self.wfile.write(b"01234")
                self.wfile.flush()
                time.sleep(float(query.get("s", ["20"])[0]))
                self.close_connection = True
            elif path == "/trickle":
                # an endless body at 2.5 bytes/s: never silent, never done
                self.send_response(200)
                self.send_header("Content-Type", "application/zip")
                self.end_headers()
                deadline = time.monotonic() + float(query.get("s", ["30"])[0])
                try:
                    while time.monotonic() < deadline:
                        self.wfile.write(b"01234")
                        self.wfile.flush()
                        time.sleep(2)
                except OSError:
                    pass
                self.close_connection = True
            elif path == "/slow":
                time.sleep(float(query.get("s", ["20"])[0]))
                self.send(200, b"{}")
            elif path == "/redirect":
                self.send(302, b"", headers=[("Location", query["to"][0])])
            elif path == "/loop":
                self.send(302, b"", headers=[("Location", "/loop")])
            elif path == "/to-http":
                self.send(302, b"", headers=[("Location", "http://127.0.0.1:%d/ok" % port)])
            else:
                self.send(404, b'{"errors": ["not found"]}')

    return Handler


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dir")
    parser.add_argument("--lifetime", type=float, default=120)
    args = parser.parse_args()
    make_certificates(args.dir)
    state = {"lock": threading.Lock(), "hits": {},
             "log": open(os.path.join(args.dir, "requests.log"), "a")}
    servers = []
    for cert, key in (("server.pem", "server.key"), ("self.pem", "self.key")):
        server = Server(("127.0.0.1", 0), handler_for(state))
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(os.path.join(args.dir, cert), os.path.join(args.dir, key))
        server.socket = context.wrap_socket(server.socket, server_side=True)
        servers.append(server)

    def stop():
        for s in servers:
            s.shutdown()

    state["stop"] = stop
    threads = [threading.Thread(target=s.serve_forever, daemon=True) for s in servers]
    for t in threads:
        t.start()
    print(servers[0].server_address[1], os.path.join(args.dir, "ca.pem"), servers[1].server_address[1], flush=True)
    timer = threading.Timer(args.lifetime, stop)
    timer.daemon = True
    timer.start()
    for t in threads:
        t.join()
    return 0


if __name__ == "__main__":
    sys.exit(main())
