// Acceptance tests 26–28 of shared/docs/guest-js.md §6 and the guest's fetch: the guest's http (server and
// client over its net.Socket) and fetch (over that client), through the public API; output lines compared
// with this machine's `node` on its real 127.0.0.1. The kernel's trace (AGENTOS_TRACE=1) counts system calls.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { AgentOs } from "../../src/index.js";
import { createVm, hostNode, js, run, spawnUntil, syscallsDuring, vm } from "./guest-net.js";
import { RUN_DEADLINE_MS } from "../deadlines.js";

/** A small Express look-alike: it swaps the prototypes of req and res as Express does. */
const EXPRESS_FIXTURE = js`
const http = require('http');
function express() {
  const app = (req, res) => app.handle(req, res);
  app.request = Object.create(http.IncomingMessage.prototype, { app: { value: app } });
  app.response = Object.create(http.ServerResponse.prototype, { app: { value: app } });
  app.request.get = function (name) { return this.headers[name.toLowerCase()]; };
  Object.defineProperty(app.request, 'path', { get() { return new URL(this.url, 'http://x').pathname; } });
  app.response.status = function (code) { this.statusCode = code; return this; };
  app.response.json = function (obj) {
    const body = JSON.stringify(obj);
    this.setHeader('Content-Type', 'application/json; charset=utf-8');
    this.setHeader('Content-Length', Buffer.byteLength(body));
    this.end(body);
    return this;
  };
  app.routes = [];
  app.post = (path, fn) => app.routes.push(['POST', path, fn]);
  app.handle = (req, res) => {
    Object.setPrototypeOf(req, app.request);
    Object.setPrototypeOf(res, app.response);
    req.res = res; res.req = req;
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      if (/^application\/json/.test(req.get('Content-Type') || '')) req.body = JSON.parse(raw);
      const route = app.routes.find(([m, p]) => m === req.method && p === req.path);
      if (route) route[2](req, res);
      else res.status(404).json({ error: 'not found' });
    });
  };
  app.listen = (...args) => http.createServer(app).listen(...args);
  return app;
}
`;

describe("http", () => {
  it("26: createServer + http.get in one process → 200 ok", async () => {
    const r = await run(js`
const http = require('http');
const server = http.createServer((req, res) => res.end('ok'));
server.listen(0, () => {
  http.get('http://localhost:' + server.address().port + '/', (res) => {
    let body = '';
    res.on('data', (d) => (body += d));
    res.on('end', () => { console.log(res.statusCode, body); server.close(); });
  });
});`);
    expect(r).toEqual({ exitCode: 0, stdout: "200 ok\n", stderr: "" });
  });

  it("26: an Express-style server (prototype swapping, JSON body, res.status(201).json())", async () => {
    const r = await run(`${EXPRESS_FIXTURE}
const app = express();
app.post('/items', (req, res) => {
  console.log(req instanceof http.IncomingMessage, res instanceof http.ServerResponse, req.method, req.url, req.get('x-token'));
  res.status(201).json({ got: req.body, path: req.path });
});
const server = app.listen(0, '127.0.0.1', () => {
  const req = http.request({ port: server.address().port, host: '127.0.0.1', method: 'POST', path: '/items?z=1', headers: { 'Content-Type': 'application/json', 'X-Token': 't1' } }, (res) => {
    let body = '';
    res.on('data', (d) => (body += d));
    res.on('end', () => { console.log(res.statusCode, res.headers['content-type'], res.headers['content-length'], body); server.close(); });
  });
  req.end(JSON.stringify({ name: 'a', n: 1 }));
});`);
    expect(r).toEqual({
      exitCode: 0,
      stdout: 'true true POST /items?z=1 t1\n201 application/json; charset=utf-8 42 {"got":{"name":"a","n":1},"path":"/items"}\n',
      stderr: "",
    });
  });

  it("the same exchange as the host's node: statusCode, headers, rawHeaders, duplicates, 204, Host required, ECONNREFUSED", async () => {
    const code = js`
const http = require('http');
const mask = (a) => JSON.stringify(a).replace(/"[A-Z][a-z][a-z], \d\d [A-Z][a-z][a-z] \d{4} [\d:]+ GMT"/g, '"DATE"').replace(/127\.0\.0\.1:\d+/g, 'HOST');
const s = http.createServer((req, res) => {
  console.log('server', req.method, req.url, req.httpVersion, mask(req.headers), mask(req.rawHeaders), typeof req.socket.remotePort, req.socket.remoteAddress);
  let n = 0;
  req.on('data', (d) => (n += d.length));
  req.on('end', () => {
    if (req.url === '/empty') { res.statusCode = 204; return res.end(); }
    res.setHeader('Set-Cookie', ['a=1', 'b=2']);
    res.setHeader('X-Multi', ['1', '2']);
    res.writeHead(202, { 'Content-Type': 'text/plain' });
    console.log('server', res.headersSent, res.getHeader('x-multi'), n);
    res.end('body:' + n);
  });
});
s.listen(0, '127.0.0.1', () => {
  const port = s.address().port;
  const req = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/p?q=1', headers: { 'X-A': '1', Cookie: 'c=1' } }, (res) => {
    console.log('client', res.statusCode, res.statusMessage, res.httpVersion, mask(res.headers), mask(res.rawHeaders));
    let b = '';
    res.on('data', (d) => (b += d)).on('end', () => {
      console.log('client', b, res.complete);
      http.get({ port, host: '127.0.0.1', path: '/empty', headers: { 'x-b': ['1', '2'], 'User-Agent': 'u1', Host: 'h' } }, (r2) => {
        console.log('client', r2.statusCode, mask(r2.headers));
        r2.resume().on('end', () => {
          http.get({ port, host: '127.0.0.1', headers: ['x-c', '1'] }, (r3) => {
            console.log('client', r3.statusCode, mask(r3.headers));
            r3.resume().on('end', () => {
              http.get('http://127.0.0.1:1/').on('error', (e) => {
                console.log('error', e.message, e.code, e.errno, e.syscall, e.address, e.port);
                s.close(() => console.log('closed'));
              });
            });
          });
        });
      });
    });
  });
  req.write('ab');
  req.write('cd');
  req.end('e');
});`;
    const host = await hostNode(code);
    const r = await run(code);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(host);
    expect(r.stdout).toContain('client 400 {"connection":"close","date":"DATE","transfer-encoding":"chunked"}');
  });

  it("the order of 'finish', 'close' and 'end' on both sides, as the host's node", async () => {
    const code = js`
const http = require('http');
const s = http.createServer((req, res) => {
  req.on('close', () => console.log('req close', req.complete));
  res.on('close', () => console.log('res close', res.writableFinished));
  res.on('finish', () => console.log('res finish'));
  if (req.url === '/post') { req.on('data', () => {}); req.on('end', () => res.end('x')); } else res.end('ok');
});
s.listen(0, '127.0.0.1', () => {
  const port = s.address().port;
  http.get({ port, host: '127.0.0.1' }, (res) => {
    res.on('close', () => console.log('client res close'));
    res.resume().on('end', () => {
      console.log('client end');
      const r = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/post' }, (res2) => {
        res2.resume().on('end', () => { console.log('end2'); r.on('close', () => { console.log('client req close'); s.close(); }); });
      });
      r.end('body');
    });
  });
});`;
    const host = await hostNode(code);
    expect(await run(code)).toEqual({ exitCode: 0, stdout: host, stderr: "" });
  });

  it("27: vm.fetch into a guest server: a POST with a body, a chunked response in 3 writes, an unused port", async () => {
    await vm.writeFile("/w/server27.js", js`
const http = require('http');
http.createServer((req, res) => {
  let body = '';
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    if (req.url === '/chunks') {
      res.write('one,');
      setTimeout(() => res.write('two,'), 5);
      setTimeout(() => res.end('three'), 10);
      return;
    }
    res.writeHead(201, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ method: req.method, url: req.url, body }));
  });
}).listen(3000, () => console.log('READY'));`);
    const server = spawnUntil(vm, "/w/server27.js", "READY");
    await server.ready;
    const res = await vm.fetch(3000, new Request("http://localhost/api?x=1", { method: "POST", body: "hi" }));
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ method: "POST", url: "/api?x=1", body: "hi" });
    const chunked = await vm.fetch(3000, "/chunks");
    expect(chunked.headers.get("transfer-encoding")).toBe("chunked");
    expect(await chunked.text()).toBe("one,two,three");
    await expect(vm.fetch(3999, "/")).rejects.toMatchObject({ code: "ECONNREFUSED" });
    server.child.kill();
    await server.child.wait();
  });

  it("28: two VMs both listen on 3000 and each vm.fetch reaches its own", async () => {
    const other = await createVm();
    try {
      const code = (name: string) => js`require('http').createServer((q, s) => s.end('${name}')).listen(3000, () => console.log('READY'));`;
      await vm.writeFile("/w/s28.js", code("first"));
      await other.mkdir("/w");
      await other.writeFile("/w/s28.js", code("second"));
      const a = spawnUntil(vm, "/w/s28.js", "READY");
      const b = spawnUntil(other, "/w/s28.js", "READY");
      await Promise.all([a.ready, b.ready]);
      expect(await (await vm.fetch(3000, "/")).text()).toBe("first");
      expect(await (await other.fetch(3000, "/")).text()).toBe("second");
      a.child.kill();
      b.child.kill();
      await Promise.all([a.child.wait(), b.child.wait()]);
    } finally {
      await other.dispose();
    }
  });

  it("keep-alive: the global Agent reuses one connection; pipelined requests are answered in order", async () => {
    const r = await run(js`
const http = require('http'); const net = require('net');
let connections = 0;
const server = http.createServer((req, res) => {
  if (req.url === '/slow') return setTimeout(() => res.end('slow'), 20);
  res.end('r' + req.url);
});
server.on('connection', () => connections++);
server.listen(0, () => {
  const port = server.address().port;
  const get = (path) => new Promise((resolve) => http.get({ port, path }, (res) => {
    let b = ''; res.on('data', (d) => (b += d)); res.on('end', () => resolve([b, res.req.reusedSocket]));
  }));
  (async () => {
    console.log(JSON.stringify([await get('/1'), await get('/2'), await get('/3')]), connections);
    // Written, not ended: a client that half-closes is gone to Node's server (httpAllowHalfOpen false), which
    // then drops what it has not answered yet.
    const c = net.connect(port, () => c.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /fast HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
    let raw = ''; c.on('data', (d) => (raw += d));
    c.on('end', () => {
      console.log(raw.split('\r\n').filter((l) => /^(HTTP|slow|r\/)|^Connection/.test(l)).join('|'));
      server.close(() => console.log('closed'));
    });
  })();
});`);
    expect(r).toEqual({
      exitCode: 0,
      stdout: '[["r/1",false],["r/2",true],["r/3",true]] 1\nHTTP/1.1 200 OK|Connection: keep-alive|slowHTTP/1.1 200 OK|Connection: close|r/fast\nclosed\n',
      stderr: "",
    });
  });

  it("a streamed request body with backpressure; timeouts, destroy, maxHeaderSize, https", async () => {
    const r = await run(js`
const http = require('http'); const crypto = require('crypto');
const server = http.createServer((req, res) => {
  if (req.url === '/hang') return;
  const h = crypto.createHash('sha256'); let n = 0;
  req.on('data', (d) => { h.update(d); n += d.length; });
  req.on('end', () => res.end(req.headers['transfer-encoding'] + ' ' + n + ' ' + h.digest('hex').slice(0, 16)));
});
server.listen(0, () => {
  const port = server.address().port;
  const req = http.request({ port, method: 'PUT', path: '/up' }, (res) => {
    let b = ''; res.on('data', (d) => (b += d)); res.on('end', () => { console.log(b, sent.digest('hex').slice(0, 16)); next(); });
  });
  const sent = crypto.createHash('sha256');
  let i = 0, drains = 0;
  req.on('drain', () => drains++);
  (function write() {
    while (i < 64) {
      const chunk = Buffer.alloc(64 * 1024, i++);
      sent.update(chunk);
      if (!req.write(chunk)) return req.once('drain', write);
    }
    console.log('drained', drains > 0);
    req.end();
  })();
  function next() {
    const t = http.get({ port, path: '/hang', timeout: 50 });
    t.on('timeout', () => { console.log('timeout'); t.destroy(); });
    t.on('error', (e) => {
      console.log(e.message, e.code);
      const big = http.get({ port, headers: { 'x-big': 'a'.repeat(17000) } }, (res) => {
        console.log(res.statusCode, http.maxHeaderSize);
        res.resume().on('end', () => {
          try { require('https').createServer(); } catch (e) { console.log(e.code); }
          server.closeAllConnections();
          server.close(() => console.log('closed'));
        });
      });
    });
  }
});`);
    expect(r).toEqual({
      exitCode: 0,
      stdout: expect.stringMatching(/^drained true\nchunked 4194304 ([0-9a-f]{16}) \1\ntimeout\nsocket hang up ECONNRESET\n431 16384\nERR_NOT_SUPPORTED\nclosed\n$/),
      stderr: "",
    });
  });

  it("an idle http server makes no system calls", async () => {
    await vm.writeFile("/w/idle.js", js`require('http').createServer((q, s) => s.end('bye')).listen(4060, () => console.log('READY'));`);
    const server = spawnUntil(vm, "/w/idle.js", "READY");
    await server.ready;
    await new Promise((r) => setTimeout(r, 50));
    expect(await syscallsDuring(300)).toEqual([]);
    expect(await (await vm.fetch(4060, "/")).text()).toBe("bye");
    server.child.kill();
    await server.child.wait();
  });
});

describe("fetch", () => {
  it("to a server in the same process: JSON, headers, a streamed body, redirects, keep-alive", async () => {
    const r = await run(js`
const http = require('http');
let connections = 0;
const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    if (req.url === '/moved') { res.writeHead(302, { location: '/json' }); return res.end(); }
    if (req.url === '/stream') { res.write('a'); setTimeout(() => res.write('b'), 5); setTimeout(() => res.end('c'), 10); return; }
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ method: req.method, body, te: req.headers['transfer-encoding'] || null, ct: req.headers['content-type'] || null }));
  });
});
server.on('connection', () => connections++);
server.listen(0, async () => {
  const base = 'http://localhost:' + server.address().port;
  const a = await fetch(base + '/json', { method: 'POST', body: JSON.stringify({ x: 1 }), headers: { 'content-type': 'application/json' } });
  console.log(a.status, a.ok, a.headers.get('content-type'), JSON.stringify(await a.json()));
  const b = await fetch(base + '/moved', { method: 'POST', body: 'gone' });
  console.log(b.status, b.redirected, new URL(b.url).pathname, await b.text());
  const m = await fetch(base + '/moved', { redirect: 'manual' });
  console.log(m.status, m.headers.get('location'));
  await m.arrayBuffer();
  const s = await fetch(base + '/stream');
  const reader = s.body.getReader(); let text = '';
  for (;;) { const { done, value } = await reader.read(); if (done) break; text += new TextDecoder().decode(value); }
  console.log(text, s.body instanceof ReadableStream);
  const body = new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode('x')); c.enqueue(new TextEncoder().encode('y')); c.close(); } });
  const up = await fetch(base + '/up', { method: 'PUT', body, duplex: 'half' });
  console.log(JSON.stringify(await up.json()));
  const form = await fetch(base + '/f', { method: 'POST', body: new URLSearchParams({ k: 'v' }) });
  console.log(JSON.stringify(await form.json()), connections);
  const blob = await (await fetch(base + '/b', { method: 'POST', body: new Blob(['bl']) })).blob();
  console.log(blob.type, await blob.text());
  server.close();
});`);
    expect(r).toEqual({
      exitCode: 0,
      stdout: [
        '200 true application/json {"method":"POST","body":"{\\"x\\":1}","te":null,"ct":"application/json"}',
        '200 true /json {"method":"GET","body":"","te":null,"ct":null}',
        "302 /json",
        "abc true",
        '{"method":"PUT","body":"xy","te":"chunked","ct":null}',
        '{"method":"POST","body":"k=v","te":null,"ct":"application/x-www-form-urlencoded;charset=UTF-8"} 1',
        'application/json {"method":"POST","body":"bl","te":null,"ct":null}',
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("to a server in another process; AbortSignal; the fetch globals", async () => {
    await vm.writeFile("/w/fserver.js", js`require('http').createServer((req, res) => { if (req.url !== '/hang') res.end('from ' + req.url); }).listen(4070, () => console.log('READY'));`);
    const server = spawnUntil(vm, "/w/fserver.js", "READY");
    await server.ready;
    const r = await run(js`
(async () => {
  console.log(await (await fetch('http://127.0.0.1:4070/other')).text());
  const c = new AbortController();
  setTimeout(() => c.abort(), 20);
  try { await fetch('http://127.0.0.1:4070/hang', { signal: c.signal }); } catch (e) { console.log(e.name, e.message); }
  try { await fetch('ftp://x/'); } catch (e) { console.log(e.name, e.message); }
  console.log(typeof Headers, typeof Request, typeof Response, typeof FormData, new Headers({ B: '1', a: '2' }).get('b'), [...new Headers([['b', '1'], ['a', '2']])].join('|'));
  console.log((await Response.json({ z: 1 }).json()).z, new Response('x', { status: 404 }).ok);
})();`);
    expect(r).toEqual({
      exitCode: 0,
      stdout: [
        "from /other",
        "AbortError This operation was aborted",
        "TypeError fetch failed",
        "function function function function 1 a,2|b,1",
        "1 false",
        "",
      ].join("\n"),
      stderr: "",
    });
    server.child.kill();
    await server.child.wait();
  });

  it("fails as the host's node does: ECONNREFUSED, ENOTFOUND, a bad port, an unknown scheme", async () => {
    const code = js`
const net = require('net');
const s = net.createServer().listen(0, '127.0.0.1', async () => {
  const port = s.address().port;
  s.close(async () => {
    const show = (e) => console.log(e.name, e.message, e.cause && e.cause.code, String(e.cause).replace(String(port), 'PORT'));
    await fetch('http://127.0.0.1:' + port + '/').catch(show);
    await fetch('http://nonexistent.invalid/').catch((e) => console.log(e.message, e.cause.code, e.cause.syscall, e.cause.hostname));
    await fetch('http://127.0.0.1:1/').catch(show);
    await fetch('ftp://x/').catch(show);
    await fetch('nope').catch((e) => console.log(e.name, e.message));
  });
});`;
    const host = await hostNode(code);
    const r = await run(code);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(host);
    expect(r.stdout).toContain("TypeError fetch failed ECONNREFUSED Error: connect ECONNREFUSED 127.0.0.1:PORT\n");
  });
});

// A real Express (5.3, a devDependency; the repository's node_modules mounted read-only at /app/node_modules):
// the same app run by the VM's node behind vm.fetch and by the host's node behind the host's fetch answers the
// same requests with the same statuses, headers and bodies.
const EXPRESS_APP = js`
const express = require('express');
const app = express();
app.use(express.json());
app.get('/users/:id', (req, res) => res.json({ id: req.params.id, q: req.query }));
app.post('/echo', (req, res) => res.status(201).set('x-seen', 'yes').json(req.body));
app.get('/redirect', (req, res) => res.redirect(302, '/users/1'));
app.use((req, res) => res.status(404).send('nope ' + req.path));
app.use((err, req, res, next) => res.status(err.status || 500).json({ error: err.type || err.message }));
const server = app.listen(Number(process.argv[2]), '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
`;

describe("a real Express app", () => {
  it("answers vm.fetch as the same app under the host's node answers the host's fetch", async () => {
    const repoModules = fileURLToPath(new URL("../../node_modules", import.meta.url));
    const app = await AgentOs.create({ mounts: [{ path: "/app/node_modules", hostDir: repoModules }] });
    const hostDir = mkdtempSync(join(tmpdir(), "express-"));
    writeFileSync(join(hostDir, "server.js"), EXPRESS_APP);
    symlinkSync(repoModules, join(hostDir, "node_modules"));
    const host = spawn(process.execPath, ["server.js", "0"], { cwd: hostDir, stdio: ["ignore", "pipe", "inherit"] });
    try {
      await app.writeFile("/app/server.js", EXPRESS_APP);
      const guest = app.spawn("node", ["/app/server.js", "3000"]);
      const [hostPort] = await Promise.all([
        new Promise<number>((resolve) => host.stdout.once("data", (c: Buffer) => resolve((JSON.parse(String(c)) as { port: number }).port))),
        app.waitForListener(3000, { timeout: RUN_DEADLINE_MS }),
      ]);
      const requests: [string, RequestInit?][] = [
        ["/users/42?x=1&y=2"],
        ["/echo", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ a: [1, 2], s: "é" }) }],
        ["/echo", { method: "POST", headers: { "content-type": "application/json" }, body: "{broken" }],
        ["/redirect", { redirect: "manual" }],
        ["/missing"],
      ];
      const shown = async (res: Response): Promise<unknown[]> => [
        res.status,
        ...["content-type", "content-length", "etag", "x-powered-by", "x-seen", "location"].map((h) => res.headers.get(h)),
        await res.text(),
      ];
      for (const [path, init] of requests) {
        const inVm = await shown(await app.fetch(3000, path, init));
        const onHost = await shown(await fetch(`http://127.0.0.1:${hostPort}${path}`, init));
        expect(inVm, path).toEqual(onHost);
      }
      expect(await shown(await app.fetch(3000, "/users/7"))).toEqual([200, "application/json; charset=utf-8", "17", 'W/"11-aqsD4K8lsWmuH95RNyhekrbsTmg"', "Express", null, null, '{"id":"7","q":{}}']);
      guest.kill();
    } finally {
      host.kill();
      await app.dispose();
      rmSync(hostDir, { recursive: true, force: true });
    }
  });
});
