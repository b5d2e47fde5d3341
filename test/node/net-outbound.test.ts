// Guest `node` reaching servers outside the VM under the network policy: http, fetch, net and dns against
// servers this test starts on the host's 127.0.0.1, reached as host.agentos.internal:PORT or by name through a
// test resolver and dialer (no DNS or internet needed). Where a program can run on the host too, the host's
// `node` runs it against the same server by 127.0.0.1 and both outputs are compared.
import { execFile } from "node:child_process";
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { connect as netConnect, type AddressInfo } from "node:net";
import { rootCertificates } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentOs, NetworkDenial, NetworkOptions } from "../../src/index.js";
import { RUN_DEADLINE_MS } from "../deadlines.js";
import { createVm } from "../helpers.js";

const js = String.raw;
const PUBLIC = "93.184.216.34";

let server: Server;
let port: number;
const seen: string[] = [];

function handle(req: IncomingMessage, res: ServerResponse): void {
  let body = "";
  req.on("data", (d) => (body += d));
  req.on("end", () => {
    seen.push(`${req.method} ${req.url} host=${req.headers.host}`);
    if (req.url === "/redirect-out") return void res.writeHead(302, { location: "http://evil.test/" }).end();
    if (req.url === "/redirect-in") return void res.writeHead(302, { location: "/json" }).end();
    if (req.url === "/json") return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ok: true, n: 42 }));
    if (req.url === "/big") return void res.end(Buffer.alloc(3 * 1024 * 1024 + 7, 0x7a));
    if (req.url === "/mid") return void res.end(Buffer.alloc(40 * 1024, 0x7a));
    if (req.url === "/missing") return void res.writeHead(404).end("nope\n");
    res.writeHead(200, { "content-type": "text/plain", "x-test": "1" }).end(`${req.method} ${req.url} ${body}\n`);
  });
}

beforeAll(async () => {
  // Node's default keep-alive timeout (5 s), not 1 ms: with 1 ms, whether a client's next request raced the server
  // closing the connection it reused depended on the machine's speed.
  server = createServer(handle);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

/** A VM allowed to reach the test server as host.agentos.internal:port, and as api.example.test (→ PUBLIC → the server). */
async function netVm(test: Parameters<typeof createVm>[1], allow?: NetworkOptions["allow"]): Promise<{ vm: AgentOs; denials: NetworkDenial[] }> {
  const vm = await createVm(
    {
      network: {
        allow: allow ?? [`host.agentos.internal:${port}`, `api.example.test:${port}`, "rebind.example.test:*", "flaky.example.test"],
        _lookup: async (name) => {
          if (name === "flaky.example.test") throw Object.assign(new Error("timed out"), { code: "ETIMEOUT" });
          return name === "api.example.test" ? [{ address: PUBLIC, family: 4 }] : name === "rebind.example.test" ? [{ address: "127.0.0.1", family: 4 }, { address: "169.254.169.254", family: 4 }] : [];
        },
        _dial: (address, p) => netConnect({ host: address === PUBLIC ? "127.0.0.1" : address, port: p, allowHalfOpen: true }),
      },
    },
    test,
  );
  const denials: NetworkDenial[] = [];
  vm.onNetworkDenied((d) => denials.push(d));
  await vm.mkdir("/w", { recursive: true });
  return { vm, denials };
}

async function run(vm: AgentOs, code: string) {
  await vm.writeFile("/w/t.js", code);
  return vm.exec("node /w/t.js", { timeout: RUN_DEADLINE_MS });
}

function hostNode(code: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, ["-e", code], { timeout: RUN_DEADLINE_MS }, (err, stdout) => (err ? reject(err) : resolve(stdout))),
  );
}

/** Runs `program(host)` in the VM with host.agentos.internal and on this machine's node with 127.0.0.1; both outputs, the host's with the name put back. */
async function both(vm: AgentOs, program: (host: string) => string): Promise<[string, string]> {
  const guest = await run(vm, program(`host.agentos.internal:${port}`));
  expect({ exitCode: guest.exitCode, stderr: guest.stderr }).toEqual({ exitCode: 0, stderr: "" });
  const host = await hostNode(program(`127.0.0.1:${port}`));
  return [guest.stdout, host.replaceAll(`127.0.0.1:${port}`, `host.agentos.internal:${port}`)];
}

describe("guest node reaches allowed servers", () => {
  it("http.get and http.request with a body, as the host's node prints them", async (t) => {
    const { vm } = await netVm(t);
    const [guest, host] = await both(vm, (h) => js`
const http = require('http');
http.get('http://${h}/hello?x=1', (res) => {
  let b = ''; res.setEncoding('utf8'); res.on('data', (d) => (b += d));
  res.on('end', () => {
    console.log(res.statusCode, res.headers['content-type'], res.headers['x-test'], JSON.stringify(b));
    const req = http.request('http://${h}/post', { method: 'POST', headers: { 'content-type': 'text/plain' } }, (r2) => {
      let c = ''; r2.on('data', (d) => (c += d)); r2.on('end', () => console.log(r2.statusCode, JSON.stringify(c)));
    });
    req.end('payload');
  });
});`);
    expect(guest).toBe(host);
    expect(guest).toBe(`200 text/plain 1 "GET /hello?x=1 \\n"\n200 "POST /post payload\\n"\n`);
    expect(seen).toContain(`GET /hello?x=1 host=host.agentos.internal:${port}`);
  });

  it("fetch: JSON, a 404, a redirect within the server, and a 3 MiB body", async (t) => {
    const { vm } = await netVm(t);
    const [guest, host] = await both(vm, (h) => js`
(async () => {
  const j = await fetch('http://${h}/json');
  console.log(j.status, j.headers.get('content-type'), JSON.stringify(await j.json()));
  const m = await fetch('http://${h}/missing');
  console.log(m.status, m.ok, JSON.stringify(await m.text()));
  const r = await fetch('http://${h}/redirect-in');
  console.log(r.status, r.redirected, r.url, JSON.stringify(await r.json()));
  const big = new Uint8Array(await (await fetch('http://${h}/big')).arrayBuffer());
  console.log(big.length, big.every((b) => b === 0x7a));
  const p = await fetch('http://${h}/p', { method: 'POST', body: JSON.stringify({ a: 1 }) });
  console.log(p.status, JSON.stringify(await p.text()));
})();`);
    expect(guest).toBe(host);
    expect(guest).toContain("3145735 true\n");
  });

  it("a keep-alive connection is read again after a body read under back-pressure (fetch and http, 8 rounds each)", async (t) => {
    // The body's last chunk filling the response's buffer paused the socket, which went back to the pool paused:
    // the next request on it never saw its response, and the process exited 0 without it.
    const { vm } = await netVm(t);
    const [guest, host] = await both(vm, (h) => js`
const http = require('http');
const agent = new http.Agent({ keepAlive: true });
const get = (path) => new Promise((resolve, reject) => http.get('http://${h}' + path, { agent }, (res) => {
  res.pause();
  setImmediate(() => { let n = 0; res.on('data', (d) => (n += d.length)); res.on('end', () => resolve([n, res.req.reusedSocket])); res.resume(); });
}).on('error', reject));
(async () => {
  for (let i = 0; i < 8; i++) {
    const big = await (await fetch('http://${h}/big')).arrayBuffer();
    const p = await fetch('http://${h}/p', { method: 'POST', body: String(i) });
    console.log(i, big.byteLength, p.status, JSON.stringify(await p.text()));
  }
  // 40 KiB: one read of the socket, more than a response buffers before it says to wait.
  for (let i = 0; i < 8; i++) console.log(i, JSON.stringify(await get('/mid')), JSON.stringify(await get('/json')));
  agent.destroy();
})();`);
    expect(guest).toBe(host);
    expect(guest).toContain('7 3145735 200 "POST /p 7\\n"\n');
    expect(guest).toContain('7 [40960,true] [18,true]\n');
  });

  it("a name through the VM's resolver: dns.lookup, dns.promises, resolve4, then net.connect and fetch by name", async (t) => {
    const { vm, denials } = await netVm(t);
    const r = await run(vm, js`
const dns = require('dns'); const net = require('net');
dns.lookup('api.example.test', (e, address, family) => {
  console.log('lookup', e, address, family);
  dns.promises.lookup('API.Example.Test.', { all: true }).then(async (all) => {
    console.log('all', JSON.stringify(all));
    console.log('resolve4', JSON.stringify(await dns.promises.resolve4('api.example.test')));
    dns.resolve4('api.example.test', { ttl: true }, (e2, list) => console.log('ttl', e2, JSON.stringify(list)));
    await dns.promises.resolve6('api.example.test').catch((e6) => console.log('resolve6', e6.code, e6.syscall));
    const c = net.connect(${port}, 'api.example.test', () => c.end('GET /by-name HTTP/1.1\r\nHost: api.example.test\r\nConnection: close\r\n\r\n'));
    let got = ''; c.on('data', (d) => (got += d));
    c.on('end', async () => {
      console.log(got.split('\r\n')[0], c.remoteAddress);
      const f = await fetch('http://api.example.test:${port}/fetched');
      console.log(f.status, JSON.stringify(await f.text()));
    });
  });
});`);
    expect(r).toEqual({
      exitCode: 0,
      stdout: `lookup null ${PUBLIC} 4\nall [{"address":"${PUBLIC}","family":4}]\nresolve4 ["${PUBLIC}"]\nttl null [{"address":"${PUBLIC}","ttl":0}]\nresolve6 ENODATA queryAaaa\nHTTP/1.1 200 OK ${PUBLIC}\n200 "GET /fetched \\n"\n`,
      stderr: "",
    });
    expect(denials).toEqual([]);
    expect(vm.stats().network).toMatchObject({ connections: 0, connectionsTotal: 2, denials: 0 });
  });
});

describe("guest node is refused what the policy does not allow", () => {
  it("denied names do not resolve (ENOTFOUND), denied addresses are refused (ECONNREFUSED), each recorded", async (t) => {
    const { vm, denials } = await netVm(t);
    const r = await run(vm, js`
const dns = require('dns'); const net = require('net');
dns.lookup('evil.test', (e) => {
  console.log(e.message, e.code, e.errno, e.syscall, e.hostname);
  dns.lookup('rebind.example.test', (e2) => {
    console.log(e2.message);
    dns.resolve4('evil.test', (e3) => {
      console.log(e3.message, e3.code);
      net.connect(80, '169.254.169.254').on('error', (e4) => {
        console.log(e4.message, e4.code, e4.syscall, e4.address, e4.port);
        net.connect(${port + 1 > 65535 ? port - 1 : port + 1}, 'host.agentos.internal').on('error', (e5) => {
          console.log(e5.code);
          fetch('http://evil.test/').catch((e6) => console.log(e6.name, e6.message, e6.cause && e6.cause.code));
        });
      });
    });
  });
});`);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(
      [
        "getaddrinfo ENOTFOUND evil.test ENOTFOUND -3008 getaddrinfo evil.test",
        "getaddrinfo ENOTFOUND rebind.example.test",
        "queryA ENOTFOUND evil.test ENOTFOUND",
        "connect ECONNREFUSED 169.254.169.254:80 ECONNREFUSED connect 169.254.169.254 80",
        "ECONNREFUSED",
        "TypeError fetch failed ENOTFOUND",
        "",
      ].join("\n"),
    );
    expect(denials.map((d) => `${d.kind} ${d.host ?? ""} ${d.address ?? ""} ${d.port ?? ""} ${d.reason}`)).toEqual([
      "resolve evil.test   not allowed",
      "resolve rebind.example.test   resolves only to special addresses",
      "resolve evil.test   not allowed",
      "connect  169.254.169.254 80 special address",
      `connect  198.18.0.1 ${port + 1 > 65535 ? port - 1 : port + 1} not allowed`,
      "resolve evil.test   not allowed",
    ]);
    expect(vm.stats().network.denials).toBe(6);
  });

  it("a redirect to a host the policy does not allow fails at that hop", async (t) => {
    const { vm, denials } = await netVm(t);
    const r = await run(vm, js`
fetch('http://host.agentos.internal:${port}/redirect-out').then((r) => console.log('followed', r.status), (e) => console.log(e.message, e.cause.code, e.cause.hostname));`);
    expect(r).toEqual({ exitCode: 0, stdout: "fetch failed ENOTFOUND evil.test\n", stderr: "" });
    expect(denials.map((d) => d.host)).toEqual(["evil.test"]);
  });

  it("without a network option nothing leaves the VM; a policy changed while the VM runs applies to the next connection", async (t) => {
    const off = await createVm({}, t);
    await off.mkdir("/w");
    const prog = js`
require('http').get('http://host.agentos.internal:${port}/live', (res) => { res.resume(); console.log(res.statusCode); }).on('error', (e) => console.log(e.code));`;
    expect((await run(off, prog)).stdout).toBe("ECONNREFUSED\n");
    expect(() => off.setNetworkPolicy([`host.agentos.internal:${port}`])).toThrow(TypeError);
    const { vm } = await netVm(t, []);
    expect((await run(vm, prog)).stdout).toBe("ECONNREFUSED\n");
    vm.setNetworkPolicy([`host.agentos.internal:${port}`]);
    expect((await run(vm, prog)).stdout).toBe("200\n");
    expect(() => vm.setNetworkPolicy(["host.agentos.internal"])).toThrow(/needs a port/);
    expect((await run(vm, prog)).stdout).toBe("200\n"); // the old policy stays
  });

  it("function form: asked with the destination; a promise is awaited", async (t) => {
    const asked: string[] = [];
    const { vm } = await netVm(t, async (req) => {
      asked.push(`${req.kind} ${req.host ?? ""} ${req.address ?? ""} ${req.port ?? ""} ${req.protocol}`);
      return req.host === "api.example.test";
    });
    const r = await run(vm, js`
fetch('http://api.example.test:${port}/fn').then(async (r) => console.log(r.status, await r.text()), (e) => console.log(e.cause.code));`);
    expect(r).toEqual({ exitCode: 0, stdout: "200 GET /fn \n\n", stderr: "" });
    expect(asked).toEqual(["resolve api.example.test   dns", `connect api.example.test ${PUBLIC} ${port} tcp`]);
  });

  it("UDP does not leave the VM", async (t) => {
    const { vm, denials } = await netVm(t, ["0.0.0.0/0:*"]);
    const r = await run(vm, js`
const s = require('dgram').createSocket('udp4');
s.send('q', 53, '${PUBLIC}', (e) => { console.log(e && e.code); s.close(); });`);
    expect(r).toEqual({ exitCode: 0, stdout: "ECONNREFUSED\n", stderr: "" });
    expect(denials.map((d) => [d.kind, d.address, d.port])).toEqual([["send", PUBLIC, 53]]);
  });

  it("adversarial: other spellings of loopback, IPv4 inside IPv6, the gateway's neighbours, /etc/hosts, a rebinding name", async (t) => {
    const { vm, denials } = await netVm(t);
    const before = seen.length;
    await vm.writeFile("/w/hosts-attack.txt", "169.254.169.254 api.example.test\n");
    const r = await run(vm, js`
const http = require('http'); const net = require('net'); const fs = require('fs');
const urls = [
  'http://0x7f.1:${port}/', 'http://2130706433:${port}/', 'http://127.1:${port}/', 'http://[::ffff:127.0.0.1]:${port}/',
  'http://[::ffff:7f00:1]:${port}/', 'http://[::ffff:169.254.169.254]/', 'http://[64:ff9b::a9fe:a9fe]/', 'http://[::a9fe:a9fe]/',
  'http://198.18.0.2:${port}/', 'http://198.18.0.1:${port === 65535 ? port - 1 : port + 1}/', 'http://0.0.0.0:${port}/', 'http://rebind.example.test:${port}/',
];
(async () => {
  for (const u of urls) {
    const out = await fetch(u).then((res) => 'reached ' + res.status, (e) => e.cause && e.cause.code);
    console.log(u, out);
  }
  fs.appendFileSync('/etc/hosts', fs.readFileSync('/w/hosts-attack.txt'));
  const c = net.connect(${port}, 'api.example.test');
  c.on('connect', () => { console.log('reached by /etc/hosts'); c.destroy(); });
  c.on('error', (e) => console.log('/etc/hosts', e.code, e.address));
})();`);
    expect(r.stderr).toBe("");
    expect(r.stdout.split("\n").map((l) => l.replace(/^\S+ /, ""))).toEqual([
      "ECONNREFUSED",
      "ECONNREFUSED",
      "ECONNREFUSED",
      "ECONNREFUSED",
      "ECONNREFUSED",
      "ECONNREFUSED",
      "ECONNREFUSED",
      "ECONNREFUSED",
      "ECONNREFUSED",
      "ECONNREFUSED",
      "ECONNREFUSED",
      "ENOTFOUND",
      "ECONNREFUSED 169.254.169.254",
      "",
    ]);
    expect(seen.length).toBe(before); // the host's server saw nothing
    // The first five and 0.0.0.0 are the VM's own loopback (nobody listens there): refused by the VM, not the policy.
    expect(denials.map((d) => `${d.kind} ${d.address ?? d.host} ${d.reason}`)).toEqual([
      "connect 169.254.169.254 special address",
      "connect 64:ff9b::a9fe:a9fe special address",
      "connect ::a9fe:a9fe special address",
      "connect 198.18.0.2 special address",
      `connect 198.18.0.1 not allowed`,
      "resolve rebind.example.test resolves only to special addresses",
      "connect 169.254.169.254 special address",
    ]);
  });

  it("dispose mid-download closes the host connection; a guest that does not read holds a bounded amount", async (t) => {
    let serverSocketClosed: Promise<void> | undefined;
    let written = 0;
    const streaming = createServer((_req, res) => {
      serverSocketClosed = new Promise((resolve) => res.socket!.on("close", () => resolve()));
      const chunk = Buffer.alloc(1 << 20, 0x71);
      const pump = (): void => {
        while (res.write(chunk)) written += chunk.length;
        written += chunk.length;
      };
      res.on("drain", pump);
      pump();
    });
    streaming.listen(0, "127.0.0.1");
    await once(streaming, "listening");
    const sport = (streaming.address() as AddressInfo).port;
    try {
      const { vm } = await netVm(t, [`host.agentos.internal:${sport}`]);
      await vm.writeFile("/w/slow.js", js`
require('http').get('http://host.agentos.internal:${sport}/', (res) => { res.pause(); console.log('HEAD', res.statusCode); });`);
      const child = vm.spawn("node", ["/w/slow.js"]);
      await new Promise<void>((resolve) => child.onStdout((c) => new TextDecoder().decode(c).includes("HEAD") && resolve()));
      expect(vm.stats().network.connections).toBe(1);
      // What the VM holds for the connection is its bounded socket buffers, whatever the server has written.
      expect(vm.stats().memory.pipes).toBeLessThanOrEqual(4 * 256 * 1024);
      await vm.dispose();
      await serverSocketClosed;
      expect(written).toBeGreaterThan(0);
    } finally {
      streaming.closeAllConnections();
      await new Promise((r) => streaming.close(r));
    }
  });

  it("the VM's CA bundle is Node's root certificates; SSL_CERT_FILE names it when the VM has a network", async (t) => {
    const { vm } = await netVm(t);
    const r = await vm.exec('grep -c "BEGIN CERTIFICATE" "$SSL_CERT_FILE"; echo "$SSL_CERT_FILE"');
    expect(r).toEqual({ exitCode: 0, stdout: `${rootCertificates.length}\n/etc/ssl/certs/ca-certificates.crt\n`, stderr: "" });
    const off = await createVm({}, t);
    expect((await off.exec('echo "[$SSL_CERT_FILE]"; test -s /etc/ssl/certs/ca-certificates.crt && echo present')).stdout).toBe("[]\npresent\n");
  });

  it("a lookup the host's resolver cannot answer now is EAI_AGAIN, as getaddrinfo's temporary failure", async (t) => {
    const { vm, denials } = await netVm(t);
    const r = await run(vm, js`
require('dns').lookup('flaky.example.test', (e) => {
  console.log(e.message, e.code, e.errno, e.syscall, e.hostname);
  require('http').get('http://flaky.example.test/').on('error', (e2) => console.log(e2.code));
});`);
    expect(r).toEqual({ exitCode: 0, stdout: "getaddrinfo EAI_AGAIN flaky.example.test EAI_AGAIN -3001 getaddrinfo flaky.example.test\nEAI_AGAIN\n", stderr: "" });
    expect(denials).toEqual([]);
  });
});
