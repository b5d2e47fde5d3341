import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { rootCertificates } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentOs } from "../src/index.js";
import { CA_BUNDLE } from "../src/kernel/runtime-image.js";
import { CASE_DEADLINE_MS, RUN_DEADLINE_MS, SETUP_DEADLINE_MS } from "./deadlines.js";

/**
 * python3 as a process of the VM (guests/python/README.md): what CPython 3.13.5 itself prints, exactly, where
 * test/python.differential.test.ts cannot compare with the host's older python3.
 */

let vm: AgentOs;

beforeAll(async () => {
  vm = await AgentOs.create();
}, SETUP_DEADLINE_MS);

afterAll(async () => {
  await vm?.dispose();
});

const run = (cmd: string, stdin = "") => vm.exec(cmd, { stdin, timeout: RUN_DEADLINE_MS });

describe("python3", { concurrent: true, timeout: CASE_DEADLINE_MS }, () => {
  it("is CPython 3.13.5 under three names, with the VM's paths", async () => {
    const r = await run(`python3 --version; python --version; python3.13 -c 'import sys, os; print(sys.executable, sys.prefix, sys.platform, os.__file__)'`);
    expect(r).toMatchObject({ exitCode: 0, stderr: "" });
    expect(r.stdout).toBe("Python 3.13.5\nPython 3.13.5\n/usr/bin/python3.13 /usr WASI /usr/lib/python3.13/os.py\n".replace("WASI", "wasi"));
  });

  it("prints CPython's traceback for an uncaught exception and exits 1", async () => {
    await vm.writeFile("/tmp/tb.py", "def f(x):\n    return 1 / x\n\nf(0)\n");
    const r = await run("python3 /tmp/tb.py");
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      [
        "Traceback (most recent call last):",
        '  File "/tmp/tb.py", line 4, in <module>',
        "    f(0)",
        "    ~^^^",
        '  File "/tmp/tb.py", line 2, in f',
        "    return 1 / x",
        "           ~~^~~",
        "ZeroDivisionError: division by zero",
        "",
      ].join("\n"),
    );
  });

  it("runs a script from stdin (`python3 -`), with -c and -m, and as a #! script", async () => {
    await vm.writeFile("/tmp/hello", "#!/usr/bin/env python3\nimport sys\nprint('hello from', sys.argv)\n");
    await vm.exec("chmod +x /tmp/hello");
    const r = await run(`python3 - a b; python3 -c 'import sys; print(sys.argv)' x; echo '[1,2]' | python3 -m json.tool --compact; /tmp/hello 1 2`, "import sys\nprint('stdin script', sys.argv)\n");
    expect(r).toMatchObject({ exitCode: 0, stderr: "" });
    expect(r.stdout).toBe("stdin script ['-', 'a', 'b']\n['-c', 'x']\n[1,2]\nhello from ['/tmp/hello', '1', '2']\n");
  });

  it("finds modules on PYTHONPATH and in the script's directory; writes its bytecode cache", async () => {
    await vm.mkdir("/opt/lib", { recursive: true });
    await vm.writeFile("/opt/lib/mymod.py", "VALUE = 42\n");
    const r = await run("cd /opt && PYTHONPATH=/opt/lib python3 -c 'import mymod; print(mymod.VALUE)' && ls /opt/lib/__pycache__");
    expect(r).toMatchObject({ exitCode: 0, stderr: "", stdout: "42\nmymod.cpython-313.pyc\n" });
  });

  it("reports a missing file as CPython on Linux does, with Linux's errno number", async () => {
    const r = await run("python3 /no/such.py; python3 -c \"open('/no/such')\" 2>&1 | tail -1");
    expect(r.stderr).toBe("python3: can't open file '/no/such.py': [Errno 2] No such file or directory\n");
    expect(r.stdout).toBe("FileNotFoundError: [Errno 2] No such file or directory: '/no/such'\n");
  });

  it("redirects its own fds as pytest's capture does: os.dup, os.dup2 onto a temporary file, and back", async () => {
    await vm.writeFile(
      "/tmp/capture.py",
      [
        "import os, sys, tempfile",
        "saved = os.dup(1)",
        "t = tempfile.TemporaryFile(buffering=0)",
        "os.dup2(t.fileno(), 1)",
        "os.write(1, b'captured\\n')",
        "os.dup2(saved, 1)",
        "t.seek(0)",
        "print('got', t.read(), file=sys.stderr)",
        "os.write(1, b'back on stdout\\n')",
        "",
      ].join("\n"),
    );
    expect(await run("python3 /tmp/capture.py")).toEqual({ exitCode: 0, stdout: "back on stdout\n", stderr: "got b'captured\\n'\n" });
  });

  it("makes a venv whose python has the venv as its prefix", async () => {
    const r = await run("cd /tmp && python3 -m venv --without-pip env && env/bin/python -c 'import sys; print(sys.prefix, sys.base_prefix)' && cat env/pyvenv.cfg | head -1");
    expect(r).toMatchObject({ exitCode: 0, stderr: "" });
    expect(r.stdout).toBe("/tmp/env /usr\nhome = /usr/bin\n");
  });

  it("is ended by timeout and kill like any process", async () => {
    const r = await run("timeout 1 python3 -c 'while True: pass'; echo $?");
    expect(r.stdout).toBe("124\n");
  });

  it("says what it cannot do: threads", async () => {
    const r = await run(`python3 -c 'import threading; threading.Thread(target=print).start()' 2>&1 | tail -1`);
    expect(r.stdout).toBe("RuntimeError: can't start new thread\n");
  });

  it("reads the standard library from the shared layer; a VM's change to it stays in that VM", async () => {
    const other = await AgentOs.create();
    try {
      const r = await run("echo 'X = 1' >> /usr/lib/python3.13/this.py && python3 -c 'import this' | tail -1");
      expect(r.exitCode).toBe(0);
      const o = await other.exec("tail -c 20 /usr/lib/python3.13/this.py; python3 -c 'import this' | head -1");
      expect(o.stdout).toBe(`c, c) for c in s]))\nThe Zen of Python, by Tim Peters\n`);
    } finally {
      await other.dispose();
    }
  });
});

// socket is guests/libposix's (sockets and getaddrinfo on the kernel's): the VM's loopback, and an HTTP server of
// this machine's reached as host.agentos.internal:PORT under the VM's network policy; a denied name is gaierror.
describe("python3 sockets", { timeout: CASE_DEADLINE_MS }, () => {
  it("serves and connects on the VM's loopback, fetches from an allowed server with urllib, and cannot resolve a denied name", async () => {
    const server = createServer((req, res) => res.writeHead(200, { "content-type": "text/plain" }).end(`hello ${req.method} ${req.url}\n`));
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const port = (server.address() as { port: number }).port;
    const net = await AgentOs.create({ network: { allow: [`host.agentos.internal:${port}`] } });
    try {
      const script = [
        "import socket, urllib.request",
        "srv = socket.socket(); srv.bind(('127.0.0.1', 0)); srv.listen()",
        "c = socket.create_connection(srv.getsockname()); s, peer = srv.accept()",
        "c.sendall(b'ping'); print(s.recv(10), peer[0]); s.close(); print(c.recv(10))",
        `print(urllib.request.urlopen('http://host.agentos.internal:${port}/py').read().decode(), end='')`,
        "try:\n    socket.getaddrinfo('denied.example', 80)\nexcept socket.gaierror as e:\n    print('gaierror', e.errno == socket.EAI_NONAME, e.strerror)",
      ].join("\n");
      await net.writeFile("/tmp/net.py", script);
      const r = await net.exec("python3 /tmp/net.py", { timeout: RUN_DEADLINE_MS });
      expect(r).toMatchObject({ exitCode: 0, stderr: "" });
      expect(r.stdout).toBe("b'ping' 127.0.0.1\nb''\nhello GET /py\ngaierror True Name or service not known\n");
    } finally {
      await net.dispose();
      server.closeAllConnections();
      server.close();
    }
  });
});

const FIXTURES = new URL("fixtures/tls/", import.meta.url);
const pem = (name: string): Buffer => readFileSync(new URL(name, FIXTURES));

/** An HTTPS server of this machine with the test certificate `cert`, answering every request with its path. */
async function httpsServer(cert: string): Promise<{ server: Server; port: number }> {
  const server = createHttpsServer({ key: pem("leaf-key.pem"), cert: pem(cert) }, (req, res) => res.writeHead(200, { "content-type": "text/plain" }).end(`tls ${req.url}\n`));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { server, port: (server.address() as { port: number }).port };
}

// ssl is OpenSSL 3.0.19 (guests/c.ts opensslLibrary, as curl's), trusting the VM's CA bundle (SSL_CERT_FILE): Node's
// roots and here the test CA (test/fixtures/tls).
describe("python3 ssl", { timeout: CASE_DEADLINE_MS }, () => {
  it("fetches over https from an allowed server, refuses an untrusted or misnamed certificate, cannot resolve a denied name", async () => {
    const good = await httpsServer("leaf.pem");
    const unknown = await httpsServer("unknown-ca-leaf.pem");
    const wrong = await httpsServer("wrong-name.pem");
    const servers = [good, unknown, wrong];
    const allow = servers.map((s) => `host.agentos.internal:${s.port}`);
    const net = await AgentOs.create({ network: { allow }, files: { [CA_BUNDLE]: `${rootCertificates.join("\n")}\n${pem("ca.pem").toString()}` } });
    try {
      const script = [
        "import ssl, urllib.request, urllib.error, hashlib",
        "print(ssl.OPENSSL_VERSION, hashlib.new('sha256', b'x').hexdigest()[:16], 'md5' in hashlib.algorithms_available)",
        `print(urllib.request.urlopen('https://host.agentos.internal:${good.port}/py').read().decode(), end='')`,
        `for port in (${unknown.port}, ${wrong.port}):`,
        "    try:\n        urllib.request.urlopen(f'https://host.agentos.internal:{port}/')\n    except urllib.error.URLError as e:",
        "        print(type(e.reason).__name__, e.reason.verify_code, e.reason.verify_message)",
        "try:\n    urllib.request.urlopen('https://denied.example/')\nexcept urllib.error.URLError as e:\n    print(type(e.reason).__name__, e.reason)",
      ].join("\n");
      await net.writeFile("/tmp/tls.py", script);
      const r = await net.exec("python3 /tmp/tls.py", { timeout: RUN_DEADLINE_MS });
      expect(r).toMatchObject({ exitCode: 0, stderr: "" });
      expect(r.stdout).toBe(
        [
          "OpenSSL 3.0.19 27 Jan 2026 2d711642b726b044 True",
          "tls /py",
          "SSLCertVerificationError 20 unable to get local issuer certificate",
          "SSLCertVerificationError 62 Hostname mismatch, certificate is not valid for 'host.agentos.internal'.",
          "gaierror [Errno -2] Name or service not known",
          "",
        ].join("\n"),
      );
    } finally {
      await net.dispose();
      for (const { server } of servers) server.close();
    }
  });
});
