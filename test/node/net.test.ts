// Acceptance tests 18–25 and 29–31 of shared/docs/guest-js.md §6: the guest's net, dgram and dns over the
// kernel's loopback socket table, through the public API; error shapes compared with this machine's `node`
// (whose real loopback is used only at 127.0.0.1). The kernel's trace (AGENTOS_TRACE=1) counts system calls.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createVm, hostNode, js, run, spawnUntil, syscallsDuring, vm } from "./guest-net.js";
import { RUN_DEADLINE_MS, TEST_DEADLINE_MS } from "../deadlines.js";

describe("net", () => {
  it("18: echo server and client in one process", async () => {
    const r = await run(js`
const net = require('net');
const server = net.createServer((s) => s.on('data', (d) => s.end('echo:' + d)));
server.listen(0, () => {
  const c = net.connect(server.address().port, '127.0.0.1', () => c.write('hello'));
  c.on('data', (d) => console.log(String(d)));
  c.on('end', () => server.close());
});`);
    expect(r).toEqual({ exitCode: 0, stdout: "echo:hello\n", stderr: "" });
  });

  it("19: server and client in two processes", async () => {
    await vm.writeFile("/w/server19.js", js`
require('net').createServer((s) => s.on('data', (d) => { if (String(d) === 'ping') s.end('pong'); })).listen(4019, () => console.log('READY'));`);
    await vm.writeFile("/w/client19.js", js`
const c = require('net').connect(4019, () => c.write('ping'));
let got = ''; c.on('data', (d) => (got += d)); c.on('end', () => console.log(got));`);
    const server = spawnUntil(vm, "/w/server19.js", "READY");
    await server.ready;
    expect(vm.listeners()).toContainEqual(expect.objectContaining({ proto: "tcp", port: 4019 }));
    expect(await vm.exec("node /w/client19.js", { timeout: RUN_DEADLINE_MS })).toEqual({ exitCode: 0, stdout: "pong\n", stderr: "" });
    server.child.kill();
    await server.child.wait();
  });

  it("20: connecting to a port nobody listens on: ECONNREFUSED, as the host's node reports it", async () => {
    const code = js`
const c = require('net').connect(1, '127.0.0.1');
c.on('error', (e) => { console.log(e.message, e.code, e.errno, e.syscall, e.address, e.port, Object.keys(e).join()); console.log(c.destroyed, c.readyState); });
c.on('close', (hadError) => console.log('close', hadError));`;
    const r = await run(code);
    expect(r.stdout).toBe("connect ECONNREFUSED 127.0.0.1:1 ECONNREFUSED -111 connect 127.0.0.1 1 errno,code,syscall,address,port\ntrue closed\nclose true\n");
    expect(r.stdout).toBe(await hostNode(code));
    const def = await run(js`require('net').connect(1).on('error', (e) => console.log(e.code, e.syscall));`);
    expect(def.stdout).toBe("ECONNREFUSED connect\n");
  });

  it("21: EADDRINUSE, port 0 and listening again after close", async () => {
    const code = js`
const net = require('net');
const a = net.createServer().listen(0, '127.0.0.1', () => {
  const port = a.address().port;
  console.log(port >= 1024, a.address().family, a.listening);
  net.createServer().listen(port, '127.0.0.1').on('error', (e) => {
    console.log(e.message.replace(String(port), 'PORT'), e.code, e.errno, e.syscall, e.address, e.port === port, Object.keys(e).join());
    a.close(() => net.createServer().listen(port, '127.0.0.1', function () { console.log('again', this.address().port === port); this.close(); }));
  });
});`;
    const r = await run(code);
    expect(r.stdout).toBe(
      "true IPv4 true\nlisten EADDRINUSE: address already in use 127.0.0.1:PORT EADDRINUSE -98 listen 127.0.0.1 true code,errno,syscall,address,port\nagain true\n",
    );
    expect(r.stdout).toBe(await hostNode(code));
    const vmOnly = await run(js`
const net = require('net');
const a = net.createServer().listen(3000, () => {
  net.createServer().listen(3000).on('error', (e) => { console.log(e.message); a.close(); });
  const z = net.createServer().listen(0, () => { const { port, address, family } = z.address(); console.log(port >= 49152 && port <= 65535, address, family); z.close(); });
});`);
    expect(vmOnly).toEqual({ exitCode: 0, stdout: "listen EADDRINUSE: address already in use :::3000\ntrue :: IPv6\n", stderr: "" });
  });

  it("22: Unix sockets by path", async () => {
    const r = await run(js`
const net = require('net'); const fs = require('fs');
const server = net.createServer((s) => s.on('data', (d) => s.end('unix:' + d)));
server.listen('/tmp/s.sock', () => {
  console.log(fs.statSync('/tmp/s.sock').isSocket(), server.address());
  const c = net.connect('/tmp/s.sock', () => c.end('hi'));
  let got = ''; c.on('data', (d) => (got += d));
  c.on('close', () => {
    console.log(got, c.remoteAddress);
    server.close(() => {
      console.log(fs.existsSync('/tmp/s.sock'));
      net.connect('/tmp/s.sock').on('error', (e) => console.log(e.message, e.code, e.syscall, e.address));
    });
  });
});`);
    expect(r).toEqual({ exitCode: 0, stdout: "true /tmp/s.sock\nunix:hi undefined\nfalse\nconnect ENOENT /tmp/s.sock ENOENT connect /tmp/s.sock\n", stderr: "" });
    // A socket file whose listener was killed: ECONNREFUSED.
    await vm.writeFile("/w/stale.js", js`require('net').createServer().listen('/tmp/stale.sock', () => console.log('READY'));`);
    const server = spawnUntil(vm, "/w/stale.js", "READY");
    await server.ready;
    server.child.kill();
    await server.child.wait();
    const stale = await run(js`require('net').connect({ path: '/tmp/stale.sock' }).on('error', (e) => console.log(e.message, e.errno));`);
    expect(stale.stdout).toBe("connect ECONNREFUSED /tmp/stale.sock -111\n");
    const inUse = await run(js`require('net').createServer().listen('/tmp/stale.sock').on('error', (e) => console.log(e.message, e.code, e.syscall, e.address, e.port));`);
    expect(inUse.stdout).toBe("listen EADDRINUSE: address already in use /tmp/stale.sock EADDRINUSE listen /tmp/stale.sock -1\n");
  });

  it("23: half-close with allowHalfOpen", async () => {
    const r = await run(js`
const net = require('net');
const server = net.createServer({ allowHalfOpen: true }, (s) => {
  let got = '';
  s.on('data', (d) => (got += d));
  s.on('end', () => { console.log('server got', got, 'end'); s.end(got.toUpperCase()); });
  s.on('close', () => server.close());
});
server.listen(0, () => {
  const c = net.connect({ port: server.address().port, host: 'localhost' });
  c.write('abc'); c.end();
  let back = '';
  c.on('data', (d) => (back += d));
  c.on('end', () => console.log('client got', back, 'end'));
  c.on('close', (hadError) => console.log('client close', hadError, c.bytesRead, c.bytesWritten));
});`);
    expect(r).toEqual({ exitCode: 0, stdout: "server got abc end\nclient got ABC end\nclient close false 3 3\n", stderr: "" });
  });

  it("24: UDP: boundaries, rinfo, echo, unbound port, EMSGSIZE", async () => {
    const r = await run(js`
const dgram = require('dgram');
const server = dgram.createSocket('udp4');
const client = dgram.createSocket('udp4');
const sizes = [];
server.on('message', (msg, rinfo) => {
  sizes.push(msg.length);
  console.log(String(msg), rinfo.address, rinfo.family, rinfo.port === client.address().port, rinfo.size);
  server.send(msg, rinfo.port, rinfo.address);
});
let echoes = 0;
client.on('message', (msg) => {
  if (++echoes < 3) return;
  console.log('echoes', echoes, sizes.join());
  client.send('x', 9, '127.0.0.1', (err, n) => {
    console.log('unbound port', err, n);
    client.send(Buffer.alloc(65508), server.address().port, '127.0.0.1', (e) => {
      console.log(e.message.replace(/:\d+$/, ':PORT'), e.code, e.errno, e.syscall);
      client.close(); server.close(() => console.log('closed'));
    });
  });
});
server.bind(0, '127.0.0.1', () => {
  const port = server.address().port;
  client.bind(() => {
    client.send('a', port, '127.0.0.1');
    client.send(Buffer.from('xbbx'), 1, 2, port, '127.0.0.1');
    client.send(['c', Buffer.from('cc')], port);
  });
});`);
    expect(r).toEqual({
      exitCode: 0,
      stdout:
        "a 127.0.0.1 IPv4 true 1\nbb 127.0.0.1 IPv4 true 2\nccc 127.0.0.1 IPv4 true 3\nechoes 3 1,2,3\nunbound port null 1\nsend EMSGSIZE 127.0.0.1:PORT EMSGSIZE -90 send\nclosed\n",
      stderr: "",
    });
  });

  it("24b: dgram connect, errors without a resolver-less meaning", async () => {
    const r = await run(js`
const dgram = require('dgram');
const s = dgram.createSocket('udp4');
try { s.address(); } catch (e) { console.log(e.message, e.code); }
try { s.setBroadcast(true); } catch (e) { console.log(e.message, e.code, e.errno, e.syscall); }
const peer = dgram.createSocket({ type: 'udp4' }, (m, r) => { console.log('peer got', String(m), r.port === s.address().port); peer.close(); s.close(); });
peer.bind(0, () => s.connect(peer.address().port, () => { console.log(s.remoteAddress().port === peer.address().port); s.send('hi'); }));`);
    expect(r).toEqual({ exitCode: 0, stdout: "getsockname EBADF EBADF\nsetBroadcast ENOSYS ENOSYS -38 setBroadcast\ntrue\npeer got hi true\n", stderr: "" });
  });

  it("25: backpressure: 10 MiB to a peer that pauses", async () => {
    const r = await run(js`
const net = require('net'); const crypto = require('crypto');
const data = crypto.randomBytes(10 * 1024 * 1024);
const server = net.createServer((s) => {
  const h = crypto.createHash('sha256'); let n = 0;
  s.pause(); setTimeout(() => s.resume(), 100);
  s.on('data', (d) => { h.update(d); n += d.length; });
  s.on('end', () => { console.log(n, h.digest('hex') === crypto.createHash('sha256').update(data).digest('hex')); server.close(); });
});
server.listen(0, () => {
  const c = net.connect(server.address().port);
  let falses = 0, drains = 0, off = 0;
  c.on('drain', () => { drains++; pump(); });
  function pump() {
    while (off < data.length) {
      const ok = c.write(data.subarray(off, off + 65536)); off += 65536;
      if (!ok) { falses++; return; }
    }
    c.end(); console.log('sent', falses > 0, drains > 0);
  }
  pump();
});`);
    expect(r).toEqual({ exitCode: 0, stdout: "sent true true\n10485760 true\n", stderr: "" });
  });

  it("29: killing the server process ends the client's connection and frees the port", async () => {
    await vm.writeFile("/w/server29.js", js`require('net').createServer((s) => { s.write('hi'); }).listen(4029, () => console.log('READY'));`);
    const server = spawnUntil(vm, "/w/server29.js", "READY");
    await server.ready;
    await vm.writeFile("/w/client29.js", js`
const net = require('net');
const c = net.connect(4029, '127.0.0.1');
c.on('data', (d) => { console.log('data', String(d)); require('fs').writeFileSync('/w/c29', 'x'); });
c.on('end', () => console.log('end'));
c.on('close', () => {
  console.log('close');
  net.connect(4029, '127.0.0.1').on('error', (e) => {
    console.log(e.code);
    net.createServer().listen(4029, function () { console.log('port free'); this.close(); });
  });
});`);
    const client = vm.spawn("node", ["/w/client29.js"]);
    let out = "";
    client.onStdout((chunk) => (out += Buffer.from(chunk).toString()));
    const got = new Promise<void>((resolve) => {
      const check = (): void => void vm.exists("/w/c29").then((yes) => (yes ? resolve() : setTimeout(check, 20)));
      check();
    });
    await got;
    server.child.kill();
    await server.child.wait();
    expect(await client.wait()).toBe(0);
    expect(out).toBe("data hi\nend\nclose\nECONNREFUSED\nport free\n");
    expect(vm.listeners().filter((l) => l.port === 4029)).toEqual([]);
  });

  it("30: external addresses and names", async () => {
    const r = await run(js`
const net = require('net'); const dns = require('dns');
net.connect(80, '10.0.0.1').on('error', (e) => {
  console.log(e.message, e.code, e.syscall);
  dns.lookup('localhost', (err, address, family) => {
    console.log(err, address, family);
    dns.lookup('example.com', (e2) => {
      console.log(e2.message, e2.code, e2.errno, e2.syscall, e2.hostname);
      net.connect(80, 'example.com').on('error', (e3) => console.log(e3.message));
    });
  });
});`);
    expect(r).toEqual({
      exitCode: 0,
      stdout: "connect ECONNREFUSED 10.0.0.1:80 ECONNREFUSED connect\nnull 127.0.0.1 4\ngetaddrinfo ENOTFOUND example.com ENOTFOUND -3008 getaddrinfo example.com\ngetaddrinfo ENOTFOUND example.com\n",
      stderr: "",
    });
  });

  it("30b: dns forms and dns/promises", async () => {
    const r = await run(js`
const dns = require('dns');
dns.lookup('localhost', { all: true }, (e, all) => console.log(JSON.stringify(all)));
dns.lookup('localhost', { family: 6 }, (e, a, f) => console.log(a, f));
dns.lookup('::1', (e, a, f) => console.log(a, f));
dns.resolve4('example.com', (e) => console.log(e.code, e.syscall, e.hostname));
console.log(JSON.stringify(dns.getServers()));
require('dns/promises').lookup('127.0.0.1').then((r) => console.log(JSON.stringify(r)));
require('dns').promises.lookup('nowhere.invalid').catch((e) => console.log(e.code));`);
    expect(r).toEqual({
      exitCode: 0,
      stdout: '[]\n[{"address":"127.0.0.1","family":4},{"address":"::1","family":6}]\n::1 6\n::1 6\nENOTFOUND queryA example.com\n{"address":"127.0.0.1","family":4}\nENOTFOUND\n',
      stderr: "",
    });
  });

  it("31: 10,000 echo rounds with reads interrupted by new data", async () => {
    const r = await run(
      js`
const net = require('net');
const server = net.createServer((s) => s.on('data', (d) => { s.write(d); }));
server.listen(0, () => {
  const c = net.connect(server.address().port);
  let rounds = 0, pending = '';
  c.on('data', (d) => {
    pending += d;
    while (pending.length >= 4) {
      pending = pending.slice(4);
      if (++rounds === 10000) { console.log('rounds', rounds); c.end(); server.close(); return; }
      // Two writes per round: the server's pump sees data arrive while it reads.
      c.write('pi'); c.write('ng');
    }
  });
  c.write('ping');
});`,
      // A second on a quiet machine, minutes at load 30 on 2 cores (each round crosses threads twice); the
      // deadline only ends a run that hangs, as a lost wake would.
      TEST_DEADLINE_MS - 20_000,
    );
    expect(r).toEqual({ exitCode: 0, stdout: "rounds 10000\n", stderr: "" });
  });

  it("writing to a closed peer is an 'error' (EPIPE), not SIGPIPE", async () => {
    const r = await run(js`
const net = require('net');
const server = net.createServer((s) => s.destroy());
server.listen(0, () => {
  const c = net.connect(server.address().port);
  c.on('end', () => { c.write('a'); c.write('b'); });
  c.on('error', (e) => { console.log(e.message, e.code, e.errno, e.syscall); server.close(); });
});`);
    expect(r).toEqual({ exitCode: 0, stdout: "write EPIPE EPIPE -32 write\n", stderr: "" });
  });

  it("the host reaches a guest listener with vm.connect", async () => {
    await vm.writeFile("/w/server-host.js", js`require('net').createServer((s) => s.on('data', (d) => s.end('got:' + d))).listen(4040, () => console.log('READY'));`);
    const server = spawnUntil(vm, "/w/server-host.js", "READY");
    await server.ready;
    const duplex = await vm.connect(4040);
    duplex.end("host");
    let got = "";
    for await (const chunk of duplex) got += chunk;
    expect(got).toBe("got:host");
    server.child.kill();
    await server.child.wait();
  });

  it("an idle listening server makes no system calls", async () => {
    await vm.writeFile("/w/idle.js", js`require('net').createServer((s) => s.end('bye')).listen(4050, () => console.log('READY'));`);
    const server = spawnUntil(vm, "/w/idle.js", "READY");
    await server.ready;
    await new Promise((r) => setTimeout(r, 50));
    expect(await syscallsDuring(300)).toEqual([]);
    const duplex = await vm.connect(4050);
    let got = "";
    for await (const chunk of duplex) got += chunk;
    expect(got).toBe("bye");
    server.child.kill();
    await server.child.wait();
  });

  it("lifetime: unref'd handles let the process exit; ref'd ones hold it until closed", async () => {
    const r = await run(js`
const net = require('net'); const dgram = require('dgram');
net.createServer().listen(0).unref();
dgram.createSocket('udp4').bind(0).unref();
const s = net.createServer().listen(0, () => {
  const c = net.connect(s.address().port);
  c.on('data', () => {}); c.unref();
});
// Closed once the connection is accepted: closing a listener resets the connections still in its backlog.
s.on('connection', (x) => { x.unref(); setTimeout(() => { console.log('closing'); s.close(); }, 50); });
process.on('exit', () => console.log('exit'));`);
    expect(r).toEqual({ exitCode: 0, stdout: "closing\nexit\n", stderr: "" });
  });

  it("Socket API details: addresses, setters, timeout, readyState", async () => {
    const code = js`
const net = require('net');
const server = net.createServer((s) => {
  console.log('server side', s.remoteAddress, s.remoteFamily, s.localAddress, typeof s.remotePort);
  s.setTimeout(30, () => { console.log('timeout', s.timeout); s.destroy(); });
});
server.listen(0, '127.0.0.1', () => {
  const c = net.createConnection({ port: server.address().port, host: '127.0.0.1' });
  console.log(c.connecting, c.pending, c.readyState);
  c.setNoDelay(true).setKeepAlive(true, 1000);
  c.on('connect', () => console.log('connect', c.connecting, c.pending, c.readyState, c.remoteAddress, c.remotePort === server.address().port, c.remoteFamily, c.localAddress, typeof c.localPort));
  c.on('ready', () => console.log('ready'));
  c.on('end', () => console.log('end'));
  c.on('close', () => { console.log('close', c.readyState); server.getConnections((e, n) => { console.log('connections', n); server.close(); }); });
});
console.log(net.isIP('1.2.3.4'), net.isIP('::1'), net.isIP('x'), net.isIPv4('1.2.3.4'), net.isIPv6('1.2.3.4'));`;
    const r = await run(code);
    expect(r.stdout).toBe(await hostNode(code));
    expect(r.exitCode).toBe(0);
  });
});

describe("32: nothing is left after dispose()", () => {
  it("a VM disposed while its guests serve and connect leaves no node worker running, only the spares", async () => {
    const { liveNodeWorkers, nodeWorkerEnded } = await import("../../src/pool/node-workers.js");
    const { NODE_SPARE_HEAP_SIZES, NODE_SPARE_WORKERS } = await import("../../src/limits.js");
    const other = await createVm();
    await other.mkdir("/w");
    await other.writeFile("/w/s.js", js`require('net').createServer((s) => s.pipe(s)).listen(4080, () => console.log('READY'));`);
    await other.writeFile("/w/c.js", js`const c = require('net').connect(4080, () => { c.write('x'); console.log('CONNECTED'); }); c.on('data', () => {});`);
    const server = spawnUntil(other, "/w/s.js", "READY");
    await server.ready;
    const client = spawnUntil(other, "/w/c.js", "CONNECTED");
    await client.ready;
    expect(other.listeners().map((l) => l.port)).toEqual([4080]);
    await other.dispose();
    // Each worker ends after its process; spares booted meanwhile are bounded.
    while (liveNodeWorkers() > NODE_SPARE_WORKERS * NODE_SPARE_HEAP_SIZES) await nodeWorkerEnded();
    expect(liveNodeWorkers()).toBeLessThanOrEqual(NODE_SPARE_WORKERS * NODE_SPARE_HEAP_SIZES);
    // The port was the disposed VM's: this VM's is free, and the disposed one refuses work.
    expect(() => other.listeners()).toThrow(/disposed/);
    expect((await run(js`require('net').createServer().listen(4080, function () { console.log('free'); this.close(); });`)).stdout).toBe("free\n");
  });
});
