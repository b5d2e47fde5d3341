// Guest `node`'s TLS client (builtins/tls.js over workers/node-host/tls-ops.ts) against HTTPS servers this test
// starts on the host with the committed test certificates (test/fixtures/tls): success and each failure
// compared with what this machine's `node` prints for the same program against the same server (the guest
// reaches it as host.agentos.internal, the host's node as 127.0.0.1; both ask for the name "localhost").
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentOs } from "../../src/index.js";
import { RUN_DEADLINE_MS } from "../deadlines.js";
import { createVm } from "../helpers.js";

const js = String.raw;
const FIXTURES = new URL("../fixtures/tls/", import.meta.url);
const pem = (name: string): Buffer => readFileSync(new URL(name, FIXTURES));
const CA_FILE = new URL("ca.pem", FIXTURES).pathname;

const ports: Record<string, number> = {};
const servers: Array<{ close(cb: () => void): void; closeAllConnections(): void }> = [];

async function start(name: string, server: Server | ReturnType<typeof createHttpServer>): Promise<void> {
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  ports[name] = (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  const handler = (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => {
    if (req.url !== "/upload") return void res.end(`secure ${req.url}\n`);
    const hash = createHash("sha256");
    let n = 0;
    req.on("data", (d: Buffer) => (hash.update(d), (n += d.length)));
    req.on("end", () => res.end(`${n} ${hash.digest("hex")}\n`));
  };
  const key = pem("leaf-key.pem");
  await start("good", createServer({ key, cert: pem("leaf.pem"), ALPNProtocols: ["http/1.1"] }, handler));
  await start("self", createServer({ key, cert: pem("self-signed.pem") }, handler));
  await start("wrong", createServer({ key, cert: pem("wrong-name.pem") }, handler));
  await start("expired", createServer({ key, cert: pem("expired.pem") }, handler));
  await start("unknown", createServer({ key, cert: pem("unknown-ca-leaf.pem") }, handler));
  await start("plain", createHttpServer((_req, res) => res.end("plain\n")));
});
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
});

async function tlsVm(test: Parameters<typeof createVm>[1]): Promise<AgentOs> {
  const vm = await createVm({ network: { allow: Object.values(ports).map((p) => `host.agentos.internal:${p}`) }, files: { "/w/ca.pem": pem("ca.pem") } }, test);
  return vm;
}

function hostNode(code: string, env: Record<string, string> = {}): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, ["-e", code], { timeout: RUN_DEADLINE_MS, env: { ...process.env, ...env } }, (err, stdout, stderr) => (err ? reject(err) : resolve({ stdout, stderr }))),
  );
}

/** The program in the VM (host.agentos.internal, /w/ca.pem) and on this machine (127.0.0.1, the fixture): both stdouts. */
async function both(vm: AgentOs, program: (host: string, ca: string) => string, env: Record<string, string> = {}): Promise<[string, string]> {
  await vm.writeFile("/w/t.js", program("host.agentos.internal", "/w/ca.pem"));
  const guest = await vm.exec("node /w/t.js", { timeout: RUN_DEADLINE_MS, env });
  const host = await hostNode(program("127.0.0.1", CA_FILE), env);
  expect(guest.exitCode).toBe(0);
  return [guest.stdout, host.stdout];
}

const connectProgram = (server: string, options = "") => (host: string, ca: string) => js`
const tls = require('tls'); const fs = require('fs');
const s = tls.connect({ host: '${host}', port: ${ports[server]}, servername: 'localhost', ca: fs.readFileSync('${ca}'), ALPNProtocols: ['h2', 'http/1.1'] ${options} }, () => {
  console.log('secure', s.authorized, s.authorizationError, s.getProtocol(), s.alpnProtocol, s.getPeerCertificate().subject.CN, s.encrypted);
  s.write('GET /tls HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
});
let got = '';
s.on('data', (d) => (got += d));
s.on('end', () => console.log('end', got.split('\r\n')[0], JSON.stringify(got.slice(got.indexOf('\r\n\r\n') + 4))));
// OpenSSL's messages start with the address of a thread's error state: not the same in two processes.
s.on('error', (e) => console.log('error', e.code, e.message.replace(/^[0-9A-F]+:error:/, 'X:error:')));
s.on('close', () => console.log('close'));`;

describe("TLS client", () => {
  it("a verified connection: SNI, ALPN, protocol, peer certificate, data both ways", async (t) => {
    const vm = await tlsVm(t);
    const [guest, host] = await both(vm, connectProgram("good"));
    expect(guest).toBe(host);
    expect(guest).toContain("secure true null TLSv1.3 http/1.1 localhost true\n");
    expect(guest).toContain('end HTTP/1.1 200 OK "secure /tls\\n"\n');
  });

  for (const [server, code] of [
    ["self", "DEPTH_ZERO_SELF_SIGNED_CERT"],
    ["wrong", "ERR_TLS_CERT_ALTNAME_INVALID"],
    ["expired", "CERT_HAS_EXPIRED"],
    ["unknown", "UNABLE_TO_VERIFY_LEAF_SIGNATURE"],
    ["plain", "ERR_SSL_WRONG_VERSION_NUMBER"],
  ] as const)
    it(`a failure as the host's node reports it: ${server} (${code})`, async (t) => {
      const vm = await tlsVm(t);
      const [guest, host] = await both(vm, connectProgram(server));
      expect(guest).toBe(host);
      expect(guest).toContain(`error ${code} `);
    });

  it("a checkServerIdentity of the guest replaces the name check: it may accept a name the certificate lacks, or refuse", async (t) => {
    const vm = await tlsVm(t);
    for (const fn of ["() => undefined", "(name, cert) => Object.assign(new Error('refused ' + name + ' ' + cert.subject.CN), { code: 'MY_CHECK' })"]) {
      const [guest, host] = await both(vm, connectProgram("wrong", `, checkServerIdentity: ${fn}`));
      expect(guest).toBe(host);
    }
  });

  it("over a socket the program connected itself (as a proxy tunnel or STARTTLS does)", async (t) => {
    const vm = await tlsVm(t);
    const [guest, host] = await both(vm, (h, ca) => js`
const net = require('net'); const tls = require('tls'); const fs = require('fs');
const raw = net.connect(${ports.good}, '${h}', () => {
  const s = tls.connect({ socket: raw, servername: 'localhost', ca: fs.readFileSync('${ca}') }, () => {
    console.log('secure', s.authorized, s.getProtocol());
    s.end('GET /tunnel HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
  });
  let got = ''; s.on('data', (d) => (got += d)); s.on('end', () => console.log(got.split('\r\n')[0], JSON.stringify(got.slice(got.indexOf('\r\n\r\n') + 4))));
  s.on('error', (e) => console.log('error', e.code));
});`);
    expect(guest).toBe(host);
    expect(guest).toBe('secure true TLSv1.3\nHTTP/1.1 200 OK "secure /tunnel\\n"\n');
  });

  it("rejectUnauthorized: false connects to a self-signed server and says why it is not authorized", async (t) => {
    const vm = await tlsVm(t);
    const [guest, host] = await both(vm, connectProgram("self", ", rejectUnauthorized: false"));
    expect(guest).toBe(host);
    expect(guest).toContain("secure false DEPTH_ZERO_SELF_SIGNED_CERT TLSv1.3");
  });

  it("https.get and fetch trust NODE_EXTRA_CA_CERTS; without it the test CA is unknown; NODE_TLS_REJECT_UNAUTHORIZED=0 warns and connects", async (t) => {
    const vm = await tlsVm(t);
    const program = (host: string) => js`
const https = require('https');
https.get('https://${host === "127.0.0.1" ? "localhost" : host}:${ports.good}/get', (res) => {
  let b = ''; res.on('data', (d) => (b += d));
  const authorized = res.socket.authorized;
  res.on('end', () => {
    console.log(res.statusCode, JSON.stringify(b), authorized);
    fetch('https://${host === "127.0.0.1" ? "localhost" : host}:${ports.good}/fetched').then(async (r) => console.log(r.status, JSON.stringify(await r.text())), (e) => console.log('fetch', e.message, e.cause.code));
  });
}).on('error', (e) => {
  console.log('error', e.code, e.message);
  fetch('https://${host === "127.0.0.1" ? "localhost" : host}:${ports.good}/fetched').then((r) => console.log(r.status), (e) => console.log('fetch', e.message, e.cause.code));
});`;
    const trusted = await both(vm, program, { NODE_EXTRA_CA_CERTS: "" });
    expect(trusted[0]).toBe(trusted[1]);
    // Node 24 adds a hint to the message (--use-system-ca); the guest's is its host's.
    expect(trusted[0]).toMatch(/^error UNABLE_TO_VERIFY_LEAF_SIGNATURE unable to verify the first certificate.*\nfetch fetch failed UNABLE_TO_VERIFY_LEAF_SIGNATURE\n$/);
    await vm.writeFile("/w/t.js", program("host.agentos.internal"));
    const withCa = await vm.exec("NODE_EXTRA_CA_CERTS=/w/ca.pem node /w/t.js", { timeout: RUN_DEADLINE_MS });
    const hostWithCa = await hostNode(program("127.0.0.1"), { NODE_EXTRA_CA_CERTS: CA_FILE });
    expect(withCa).toEqual({ exitCode: 0, stdout: hostWithCa.stdout, stderr: "" });
    expect(withCa.stdout).toBe('200 "secure /get\\n" true\n200 "secure /fetched\\n"\n');
    const insecure = await vm.exec("NODE_TLS_REJECT_UNAUTHORIZED=0 node /w/t.js", { timeout: RUN_DEADLINE_MS });
    expect(insecure.stdout).toBe('200 "secure /get\\n" false\n200 "secure /fetched\\n"\n');
    expect(insecure.stderr).toContain("Warning: Setting the NODE_TLS_REJECT_UNAUTHORIZED environment variable to '0' makes TLS connections and HTTPS requests insecure by disabling certificate verification.");
  });

  it("a 5 MiB upload, paced by the connection, arrives whole", async (t) => {
    const vm = await tlsVm(t);
    const [guest, host] = await both(vm, (h, ca) => js`
const https = require('https'); const fs = require('fs'); const crypto = require('crypto');
const body = Buffer.alloc(5 * 1024 * 1024 + 3);
for (let i = 0; i < body.length; i++) body[i] = (i * 7) & 255;
const req = https.request({ host: '${h}', port: ${ports.good}, path: '/upload', method: 'POST', servername: 'localhost', ca: fs.readFileSync('${ca}') }, (res) => {
  let b = ''; res.on('data', (d) => (b += d)); res.on('end', () => console.log(res.statusCode, b.trim(), crypto.createHash('sha256').update(body).digest('hex')));
});
let off = 0;
(function pump() {
  while (off < body.length) {
    const piece = body.subarray(off, off + 100000); off += piece.length;
    if (!req.write(piece)) return void req.once('drain', pump);
  }
  req.end();
})();`);
    expect(guest).toBe(host);
    const [n, got, want] = guest.trim().split(" ").slice(1);
    expect([n, got]).toEqual([String(5 * 1024 * 1024 + 3), want]);
  });

  it("TLS cannot reach what the policy denies: the engine only ever sees the guest's socket", async (t) => {
    const vm = await createVm({ network: { allow: [] } }, t);
    await vm.mkdir("/w");
    await vm.writeFile("/w/t.js", js`
require('tls').connect({ host: 'host.agentos.internal', port: ${ports.good}, rejectUnauthorized: false }).on('error', (e) => console.log(e.code, e.syscall));
require('https').get('https://example.com/').on('error', (e) => console.log(e.code, e.hostname));`);
    expect(await vm.exec("node /w/t.js", { timeout: RUN_DEADLINE_MS })).toEqual({ exitCode: 0, stdout: "ECONNREFUSED connect\nENOTFOUND example.com\n", stderr: "" });
    expect(vm.stats().network).toMatchObject({ connectionsTotal: 0, denials: 2 });
  });
});
