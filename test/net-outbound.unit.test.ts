// Outbound TCP through the kernel (socket-table.ts, external-peer.ts, syscalls/net.ts) driven by a fake
// process: the policy at CONNECT and RESOLVE, blocking and non-blocking connects, back-pressure both ways,
// limits and dispose. Remote ends are servers on this host's 127.0.0.1 (reached as host.agentos.internal or
// through a test dialer), or in-memory streams whose pace the test sets; no DNS leaves the machine.
import { once } from "node:events";
import { createServer, type AddressInfo, type Server, type Socket as NetSocket } from "node:net";
import { Duplex } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { AF, SO, SOCK, SOL_SOCKET } from "../src/abi/net.js";
import { Sys } from "../src/abi/syscalls.js";
import { WakeEvent } from "../src/abi/wake-ring.js";
import type { Kernel } from "../src/kernel/kernel.js";
import { Socket } from "../src/kernel/socket.js";
import type { NetworkDenial, NetworkOptions } from "../src/net/vm-network.js";
import { Guest, bytes, kernel, text } from "./net-harness.js";

const GATEWAY = "198.18.0.1";
const PUBLIC = "93.184.216.34";
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const servers: Server[] = [];
const remotes = new Set<NetSocket>();
const guests: Guest[] = [];
afterEach(async () => {
  for (const g of guests.splice(0)) {
    if (g.p.state === "running") g.exit();
    await g.k.dispose();
  }
  for (const r of remotes) r.destroy();
  remotes.clear();
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

/** A server on this host's 127.0.0.1; `onSocket` gets each connection. */
async function hostServer(onSocket: (s: NetSocket) => void): Promise<number> {
  const server = createServer({ allowHalfOpen: true }, (s) => {
    remotes.add(s);
    onSocket(s);
  });
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return (server.address() as AddressInfo).port;
}

/** A port of 127.0.0.1 nobody listens on (one a server had a moment ago). */
async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const port = (server.address() as AddressInfo).port;
  await new Promise((r) => server.close(r));
  return port;
}

/** A remote end whose pace the test sets: it holds write callbacks while `hold`, and serves `supply` to reads. */
class FakeRemote extends Duplex {
  readonly written: Buffer[] = [];
  readonly held: Array<() => void> = [];
  hold = false;
  reads = 0;
  supplied = 0;
  constructor(private readonly supply = 0) {
    super({ allowHalfOpen: true });
    queueMicrotask(() => this.emit("connect"));
  }
  override _write(chunk: Buffer, _e: BufferEncoding, done: () => void): void {
    this.written.push(chunk);
    if (this.hold) this.held.push(done);
    else done();
  }
  override _read(): void {
    this.reads++;
    if (this.supplied >= this.supply) return void this.push(null);
    const n = Math.min(64 * 1024, this.supply - this.supplied);
    this.supplied += n;
    this.push(Buffer.alloc(n, 0x61));
  }
  get writtenBytes(): number {
    return this.written.reduce((n, b) => n + b.length, 0);
  }
}

function withNetwork(network: NetworkOptions, limits = {}): { k: Kernel; g: Guest; denials: NetworkDenial[] } {
  const k = kernel(limits, network);
  k.vfs.writeFile("/etc/hosts", `127.0.0.1 localhost\n${GATEWAY} host.agentos.internal\n`);
  const denials: NetworkDenial[] = [];
  k.network.onDenied((d) => denials.push(d));
  const g = new Guest(k);
  guests.push(g);
  return { k, g, denials };
}

const socketOf = (g: Guest, fd: number): Socket => g.p.fds.get(fd) as Socket;

/** Resolves once `fd` is ready for `op` (woken by the socket, never polled). */
function ready(g: Guest, fd: number, op: "read" | "write"): Promise<void> {
  const s = socketOf(g, fd);
  return new Promise((resolve) => {
    const check = (): void => {
      if (!s.readiness(op).ready) return;
      unwatch();
      resolve();
    };
    const unwatch = s.watchReadiness(check);
    check();
  });
}

async function answer(r: ReturnType<Guest["call"]>): Promise<{ code: string; out: number[]; reply: Uint8Array }> {
  return await r;
}

/** Reads until end of file with blocking RECVs; the bytes. */
async function readAll(g: Guest, fd: number): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for (;;) {
    const r = await answer(g.call(Sys.RECV, [fd, 65536, 0]));
    if (r.code !== "OK") throw new Error(r.code);
    if (r.reply.length === 0) return Buffer.concat(parts);
    parts.push(r.reply);
  }
}

describe("policy at CONNECT", () => {
  it("denied connections are ECONNREFUSED at once, with no dial, and recorded", async () => {
    let dials = 0;
    const { g, k, denials } = withNetwork({ allow: ["example.test", "host.agentos.internal:3000"], _dial: () => (dials++, new FakeRemote()) });
    const v4 = g.socket();
    expect(g.now(Sys.CONNECT, [v4, 443], PUBLIC).code).toBe("ECONNREFUSED"); // no name resolved to it
    expect(g.now(Sys.CONNECT, [v4, 80], "169.254.169.254").code).toBe("ECONNREFUSED");
    expect(g.now(Sys.CONNECT, [v4, 3001], GATEWAY).code).toBe("ECONNREFUSED");
    expect(g.now(Sys.CONNECT, [v4, 0], PUBLIC).code).toBe("ECONNREFUSED");
    expect(g.now(Sys.CONNECT, [v4, 65536], PUBLIC).code).toBe("EINVAL");
    const v6 = g.socket(AF.INET6);
    expect(g.now(Sys.CONNECT, [v6, 80], "::ffff:169.254.169.254").code).toBe("ECONNREFUSED");
    expect(g.now(Sys.CONNECT, [v6, 80], "64:ff9b::a9fe:a9fe").code).toBe("ECONNREFUSED");
    expect(g.now(Sys.CONNECT, [v6, 80], "fe80::1%eth0").code).toBe("EINVAL");
    const udp = g.socket(AF.INET, SOCK.DGRAM);
    expect(g.sendto(udp, PUBLIC, 53, "q").code).toBe("ECONNREFUSED");
    expect(dials).toBe(0);
    expect(denials.map((d) => [d.kind, d.address, d.port, d.reason])).toEqual([
      ["connect", PUBLIC, 443, "not allowed"],
      ["connect", "169.254.169.254", 80, "special address"],
      ["connect", GATEWAY, 3001, "not allowed"],
      ["connect", "169.254.169.254", 80, "special address"],
      ["connect", "64:ff9b::a9fe:a9fe", 80, "special address"],
      ["send", PUBLIC, 53, "not allowed"],
    ]);
    expect(k.network.stats.denials).toBe(6);
  });

  it("0.0.0.0, 127.0.0.1 and ::ffff:127.0.0.1 stay the VM's own loopback", async () => {
    let dials = 0;
    const { g } = withNetwork({ allow: ["0.0.0.0/0:*", "[::/0]:*"], _dial: () => (dials++, new FakeRemote()) });
    const l = g.listen(8080, "::", AF.INET6);
    for (const [domain, address] of [[AF.INET, "0.0.0.0"], [AF.INET, "127.0.0.1"], [AF.INET6, "::ffff:127.0.0.1"], [AF.INET6, "::"], [AF.INET6, "::1"]] as const) {
      const fd = g.socket(domain);
      expect(g.now(Sys.CONNECT, [fd, 8080], address).code, address).toBe("OK");
      g.accept(l.fd);
    }
    expect(dials).toBe(0);
  });

  it("RESOLVE: a denied name makes no lookup; an allowed one pins its addresses for its ports only", async () => {
    const lookups: string[] = [];
    const dialed: string[] = [];
    const { g, denials } = withNetwork({
      allow: ["api.example.test:443"],
      _lookup: async (name) => (lookups.push(name), name === "api.example.test" ? [{ address: PUBLIC, family: 4 }] : []),
      _dial: (address, port) => (dialed.push(`${address}:${port}`), new FakeRemote()),
    });
    expect(await answer(g.call(Sys.RESOLVE, [0], "evil.example.test"))).toMatchObject({ code: "ENOENT" });
    expect(lookups).toEqual([]);
    const r = await answer(g.call(Sys.RESOLVE, [0], "API.example.test."));
    expect([r.code, text(r.reply)]).toEqual(["OK", `4 ${PUBLIC}\n`]);
    expect(g.now(Sys.CONNECT, [g.socket(), 80], PUBLIC).code).toBe("ECONNREFUSED");
    expect((await answer(g.call(Sys.CONNECT, [g.socket(), 443], PUBLIC))).code).toBe("OK");
    expect(dialed).toEqual([`${PUBLIC}:443`]);
    expect(await answer(g.call(Sys.RESOLVE, [7], "api.example.test"))).toMatchObject({ code: "EINVAL" });
    expect(denials.map((d) => [d.kind, d.host, d.reason])).toEqual([
      ["resolve", "evil.example.test", "not allowed"],
      ["connect", "api.example.test", "not allowed"],
    ]);
  });

  it("without a network option: no lookup, every name ENOENT but /etc/hosts's, every connection refused", async () => {
    const k = kernel();
    k.vfs.writeFile("/etc/hosts", `${GATEWAY} host.agentos.internal\n`);
    const g = new Guest(k);
    expect(await answer(g.call(Sys.RESOLVE, [0], "example.com"))).toMatchObject({ code: "ENOENT" });
    expect(text((await answer(g.call(Sys.RESOLVE, [0], "host.agentos.internal"))).reply)).toBe(`4 ${GATEWAY}\n`);
    expect(g.now(Sys.CONNECT, [g.socket(), 80], GATEWAY).code).toBe("ECONNREFUSED");
    expect(() => k.network.setAllow(["example.com"])).toThrow(TypeError);
  });

  it("function form: CONNECT parks while it decides; a refusal ends it with ECONNREFUSED (blocking) or SO_ERROR", async () => {
    let decide: (v: boolean) => void = () => {};
    const { g, denials } = withNetwork({ allow: (r) => (r.kind === "resolve" ? true : new Promise<boolean>((resolve) => (decide = resolve))), _dial: () => new FakeRemote() });
    const fd = g.socket();
    const parked = g.call(Sys.CONNECT, [fd, 443], PUBLIC);
    expect(parked).toBeInstanceOf(Promise);
    decide(false);
    expect((await answer(parked)).code).toBe("ECONNREFUSED");
    const nb = g.socket(AF.INET, SOCK.STREAM | SOCK.NONBLOCK);
    expect(g.now(Sys.CONNECT, [nb, 443], PUBLIC).code).toBe("EINPROGRESS");
    decide(false);
    await ready(g, nb, "write");
    expect(g.events()).toEqual([[nb, WakeEvent.WRITE]]);
    expect(g.ok(Sys.GETSOCKOPT, [nb, SOL_SOCKET, SO.ERROR]).out[0]).toBe(14 /* ECONNREFUSED */);
    expect(g.ok(Sys.GETSOCKOPT, [nb, SOL_SOCKET, SO.ERROR]).out[0]).toBe(0); // read once
    const ok = g.socket();
    const p = g.call(Sys.CONNECT, [ok, 443], PUBLIC);
    decide(true);
    expect((await answer(p)).code).toBe("OK");
    expect(denials.map((d) => d.reason)).toEqual(["not allowed", "not allowed"]);
  });

  it("a live policy change applies to the next connection", async () => {
    const { g, k } = withNetwork({ allow: [], _dial: () => new FakeRemote() });
    expect(g.now(Sys.CONNECT, [g.socket(), 443], PUBLIC).code).toBe("ECONNREFUSED");
    k.network.setAllow([`${PUBLIC}:443`]);
    expect((await answer(g.call(Sys.CONNECT, [g.socket(), 443], PUBLIC))).code).toBe("OK");
    expect(() => k.network.setAllow(["bad:port:x"])).toThrow(TypeError);
    k.network.setAllow([]);
    expect(g.now(Sys.CONNECT, [g.socket(), 443], PUBLIC).code).toBe("ECONNREFUSED");
  });

  it("limits.maxNetworkConnections: a connection past it is refused and recorded", async () => {
    const { g, denials } = withNetwork({ allow: [`${PUBLIC}:443`], _dial: () => new FakeRemote() }, { maxNetworkConnections: 1 });
    expect((await answer(g.call(Sys.CONNECT, [g.socket(), 443], PUBLIC))).code).toBe("OK");
    expect(g.now(Sys.CONNECT, [g.socket(), 443], PUBLIC).code).toBe("ECONNREFUSED");
    expect(denials.map((d) => d.reason)).toEqual(["limit reached"]);
  });
});

describe("limits.maxNetworkBytes", () => {
  it("a connection that carries the VM past it is reset; new ones are refused", async () => {
    const LIMIT = 1024 * 1024;
    const { g, denials } = withNetwork({ allow: [`${PUBLIC}:443`], _dial: () => new FakeRemote(4 * LIMIT) }, { maxNetworkBytes: LIMIT });
    const fd = g.socket();
    expect((await answer(g.call(Sys.CONNECT, [fd, 443], PUBLIC))).code).toBe("OK");
    let got = 0;
    let ended = "";
    while (!ended) {
      const r = await answer(g.call(Sys.RECV, [fd, 65536, 0]));
      if (r.code !== "OK") ended = r.code;
      else if (r.reply.length === 0) ended = "EOF";
      else got += r.reply.length;
    }
    expect(ended).toBe("ECONNRESET");
    expect(got).toBeLessThanOrEqual(LIMIT);
    expect(g.now(Sys.CONNECT, [g.socket(), 443], PUBLIC).code).toBe("ECONNREFUSED");
    expect(denials.map((d) => d.reason)).toEqual(["limit reached", "limit reached"]);
  });
});

describe("host.agentos.internal reaches the host's 127.0.0.1", () => {
  it("blocking connect parks until connected; bytes both ways; half-close both ways", async () => {
    const port = await hostServer((s) => {
      let got = "";
      s.on("data", (d) => (got += d));
      s.on("end", () => s.end(`echo:${got}`));
    });
    const { g, k } = withNetwork({ allow: [`host.agentos.internal:${port}`] });
    const fd = g.socket();
    const c = g.call(Sys.CONNECT, [fd, port], GATEWAY);
    expect(c).toBeInstanceOf(Promise);
    expect((await answer(c)).code).toBe("OK");
    expect(text(g.ok(Sys.GETPEERNAME, [fd]).reply)).toBe(GATEWAY);
    expect(g.send(fd, "hello").out[0]).toBe(5);
    g.ok(Sys.SHUTDOWN, [fd, 1]);
    expect((await readAll(g, fd)).toString()).toBe("echo:hello");
    expect(k.network.stats).toMatchObject({ connectionsTotal: 1, bytesSent: 5, bytesReceived: 10 });
    g.ok(Sys.CLOSE, [fd]);
  });

  it("non-blocking connect: EINPROGRESS, then WRITE on the wake ring and SO_ERROR 0", async () => {
    const port = await hostServer((s) => s.end("hi"));
    const { g } = withNetwork({ allow: [`host.agentos.internal:${port}`] });
    const fd = g.socket(AF.INET, SOCK.STREAM | SOCK.NONBLOCK);
    expect(g.now(Sys.CONNECT, [fd, port], GATEWAY).code).toBe("EINPROGRESS");
    expect(g.now(Sys.CONNECT, [fd, port], GATEWAY).code).toBe("EALREADY");
    expect(g.recv(fd).code).toBe("EAGAIN");
    await ready(g, fd, "write");
    expect(g.events()).toContainEqual([fd, WakeEvent.WRITE]);
    expect(g.ok(Sys.GETSOCKOPT, [fd, SOL_SOCKET, SO.ERROR]).out[0]).toBe(0);
    await ready(g, fd, "read");
    expect(text(g.recv(fd).reply)).toBe("hi");
  });

  it("a port nobody listens on: ECONNREFUSED from the host, blocking and non-blocking", async () => {
    const port = await closedPort();
    const { g, denials } = withNetwork({ allow: [`host.agentos.internal:${port}`] });
    expect((await answer(g.call(Sys.CONNECT, [g.socket(), port], GATEWAY))).code).toBe("ECONNREFUSED");
    const nb = g.socket(AF.INET, SOCK.STREAM | SOCK.NONBLOCK);
    expect(g.now(Sys.CONNECT, [nb, port], GATEWAY).code).toBe("EINPROGRESS");
    await ready(g, nb, "write");
    expect(g.ok(Sys.GETSOCKOPT, [nb, SOL_SOCKET, SO.ERROR]).out[0]).toBe(14);
    expect(denials).toEqual([]); // refused by the host, not by the policy
  });

  it("dispose mid-transfer closes the host socket", async () => {
    let serverSide: NetSocket | undefined;
    const closed = new Promise<void>((resolve) => {
      void hostServer((s) => {
        serverSide = s;
        s.on("error", () => {});
        s.on("close", () => resolve());
        const chunk = Buffer.alloc(1 << 20, 0x62);
        const pump = (): void => {
          while (s.write(chunk));
        };
        s.on("drain", pump);
        pump();
      }).then((port) => portReady(port));
    });
    let portReady: (p: number) => void = () => {};
    const port = await new Promise<number>((r) => (portReady = r));
    const { g, k } = withNetwork({ allow: [`host.agentos.internal:${port}`] });
    const fd = g.socket();
    expect((await answer(g.call(Sys.CONNECT, [fd, port], GATEWAY))).code).toBe("OK");
    await ready(g, fd, "read");
    expect(serverSide).toBeDefined();
    g.exit();
    await k.dispose();
    await closed;
    expect(k.network.stats.connections).toBe(0);
  });
});

describe("back-pressure", () => {
  it("host → guest: the remote is not read while the guest's receive buffer is full; everything arrives in order", async () => {
    const SIZE = 8 * 1024 * 1024;
    const remote = new FakeRemote(SIZE);
    const { g, k } = withNetwork({ allow: [`${PUBLIC}:443`], _dial: () => remote });
    const fd = g.socket();
    expect((await answer(g.call(Sys.CONNECT, [fd, 443], PUBLIC))).code).toBe("OK");
    await ready(g, fd, "read");
    for (let i = 0; i < 20; i++) await settle();
    const buffer = k.limits.socketBufferBytes;
    // The guest's receive buffer, at most one chunk waiting in the peer, and the stream's own high-water mark.
    expect(remote.supplied).toBeLessThanOrEqual(buffer + 4 * 64 * 1024);
    expect(k.memory.use().pipes).toBeLessThanOrEqual(2 * buffer);
    const all = await readAll(g, fd);
    expect(all.length).toBe(SIZE);
    expect(all.every((b) => b === 0x61)).toBe(true);
    expect(k.memory.use().pipes).toBe(0); // everything read: nothing held for the connection any more
  });

  it("guest → host: sends park while the remote takes nothing, and resume as it does", async () => {
    const remote = new FakeRemote(0);
    remote.hold = true;
    const { g, k } = withNetwork({ allow: [`${PUBLIC}:443`], _dial: () => remote });
    const fd = g.socket();
    expect((await answer(g.call(Sys.CONNECT, [fd, 443], PUBLIC))).code).toBe("OK");
    const chunk = new Uint8Array(60 * 1024).fill(0x63);
    let sent = 0;
    let parked: Promise<unknown> | undefined;
    for (let i = 0; i < 1000 && !parked; i++) {
      const r = g.call(Sys.SEND, [fd, 0], chunk);
      if (r instanceof Promise) {
        for (let j = 0; j < 20; j++) await settle();
        let done = false;
        void r.then(() => (done = true));
        await settle();
        if (!done) parked = r;
      } else sent += r.out[0]!;
    }
    expect(parked).toBeDefined();
    // What the remote stream holds: below its high-water mark plus one move of at most 64 KiB (the mark is 16 KiB
    // on Node 20, 64 KiB on Node 24); the rest waits in the kernel's bounded buffer.
    const inStream = remote.writableHighWaterMark + 64 * 1024;
    expect(remote.writableLength).toBeLessThanOrEqual(inStream);
    expect(sent).toBeLessThanOrEqual(k.limits.socketBufferBytes + inStream);
    remote.hold = false;
    for (const done of remote.held.splice(0)) done();
    await parked;
    expect(remote.writtenBytes).toBeGreaterThan(64 * 1024);
  });
});
