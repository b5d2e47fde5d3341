// The kernel's loopback network (socket-table.ts, socket.ts, syscalls/net.ts) driven through its system
// calls by fake processes: TCP and Unix streams, UDP, the arming rule of the wake ring, limits, cleanup.
import { describe, expect, it } from "vitest";
import { AF, MSG, SHUT, SO, SOCK, SOL_SOCKET } from "../src/abi/net.js";
import { Sys } from "../src/abi/syscalls.js";
import { EventType, FdFlags, FileType } from "../src/abi/wasi.js";
import { WakeEvent } from "../src/abi/wake-ring.js";
import { hostSocketDuplex } from "../src/kernel/host-socket-duplex.js";
import { Guest, bytes, kernel, text } from "./net-harness.js";

const NONBLOCK = SOCK.STREAM | SOCK.NONBLOCK;
/** Lets woken (parked) calls run: they resume in promise jobs. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A connected TCP pair in one process: [client fd, server fd]. */
function pair(g: Guest, opts: { nonblocking?: boolean } = {}): [number, number] {
  const l = g.listen();
  const c = g.socket(AF.INET, opts.nonblocking ? NONBLOCK : SOCK.STREAM);
  g.ok(Sys.CONNECT, [c, l.port], "127.0.0.1");
  const s = g.accept(l.fd, opts.nonblocking ? SOCK.NONBLOCK : 0);
  g.ok(Sys.CLOSE, [l.fd]);
  return [c, s];
}

describe("arming rule (wake ring)", () => {
  it("a non-blocking recv that answers EAGAIN arms READ; data fires it once, and the interest is gone", () => {
    const g = new Guest(kernel());
    const [c, s] = pair(g, { nonblocking: true });
    expect(g.recv(s).code).toBe("EAGAIN");
    expect(g.events()).toEqual([]);
    expect(g.send(c, "a").out[0]).toBe(1);
    expect(g.events()).toEqual([[s, WakeEvent.READ]]);
    g.send(c, "b");
    expect(g.events()).toEqual([]); // one-shot
    expect(text(g.recv(s).reply)).toBe("ab");
    expect(g.recv(s).code).toBe("EAGAIN"); // re-arms
    g.send(c, "c");
    expect(g.events()).toEqual([[s, WakeEvent.READ]]);
  });

  it("MSG_DONTWAIT on a blocking fd answers EAGAIN and arms too", () => {
    const g = new Guest(kernel());
    const [c, s] = pair(g);
    expect(g.recv(s, 10, MSG.DONTWAIT).code).toBe("EAGAIN");
    g.send(c, "x");
    expect(g.events()).toEqual([[s, WakeEvent.READ]]);
  });

  it("ARM on a ready fd queues the event at once; on a listener, a connection fires it", () => {
    const g = new Guest(kernel());
    const [c, s] = pair(g);
    g.send(c, "x");
    g.ok(Sys.ARM, [s, WakeEvent.READ]);
    expect(g.events()).toEqual([[s, WakeEvent.READ]]);
    const l = g.listen();
    g.ok(Sys.ARM, [l.fd, WakeEvent.READ]);
    expect(g.events()).toEqual([]);
    g.connect(l.port);
    expect(g.events()).toEqual([[l.fd, WakeEvent.READ]]);
  });

  it("a non-blocking accept with nothing queued answers EAGAIN and arms the listener", () => {
    const g = new Guest(kernel());
    const fd = g.socket(AF.INET, NONBLOCK);
    const port = g.ok(Sys.BIND, [fd, 0], "127.0.0.1").out[0]!;
    g.ok(Sys.LISTEN, [fd, 8]);
    expect(g.now(Sys.ACCEPT, [fd, 0]).code).toBe("EAGAIN");
    g.connect(port);
    expect(g.events()).toEqual([[fd, WakeEvent.READ]]);
    expect(g.now(Sys.ACCEPT, [fd, 0]).code).toBe("OK");
  });

  it("a send that finds the peer's buffer full arms WRITE; the reader draining fires it", () => {
    const g = new Guest(kernel({ socketBufferBytes: 8 }));
    const [c, s] = pair(g, { nonblocking: true });
    expect(g.send(c, "0123456789").out[0]).toBe(8);
    expect(g.send(c, "x").code).toBe("EAGAIN");
    expect(g.events()).toEqual([]);
    g.recv(s, 3);
    expect(g.events()).toEqual([[c, WakeEvent.WRITE]]);
  });

  it("READ and WRITE on a NONBLOCK socket fd follow the same rule", () => {
    const g = new Guest(kernel({ socketBufferBytes: 4 }));
    const [c, s] = pair(g, { nonblocking: true });
    expect(g.now(Sys.READ, [s, 16]).code).toBe("EAGAIN");
    expect(g.now(Sys.WRITE, [c], "abcdef").out[0]).toBe(4);
    expect(g.events()).toEqual([[s, WakeEvent.READ]]);
    expect(g.now(Sys.WRITE, [c], "g").code).toBe("EAGAIN");
    expect(text(g.now(Sys.READ, [s, 16]).reply)).toBe("abcd");
    expect(g.events()).toEqual([[c, WakeEvent.WRITE]]);
  });

  it("the peer's close is readiness: a reader armed on an empty socket wakes to end of file", () => {
    const g = new Guest(kernel());
    const [c, s] = pair(g, { nonblocking: true });
    expect(g.recv(s).code).toBe("EAGAIN");
    g.ok(Sys.CLOSE, [c]);
    expect(g.events()).toEqual([[s, WakeEvent.READ]]);
    expect(g.recv(s)).toMatchObject({ code: "OK", reply: new Uint8Array(0) });
  });
});

describe("TCP over loopback", () => {
  it("echo: connect, accept, send, recv both ways; names on both ends", () => {
    const g = new Guest(kernel());
    const l = g.listen(3000);
    expect(l.port).toBe(3000);
    const c = g.connect(3000);
    const s = g.accept(l.fd);
    expect(g.send(c, "hello").out[0]).toBe(5);
    const got = g.recv(s);
    expect(text(got.reply)).toBe("hello");
    g.send(s, `echo:${text(got.reply)}`);
    expect(text(g.recv(c).reply)).toBe("echo:hello");
    const me = g.ok(Sys.GETSOCKNAME, [c]);
    expect(text(me.reply)).toBe("127.0.0.1");
    expect(me.out[0]).toBeGreaterThanOrEqual(49152);
    const peer = g.ok(Sys.GETPEERNAME, [s]);
    expect([text(peer.reply), peer.out[0], peer.out[1]]).toEqual(["127.0.0.1", me.out[0], AF.INET]);
  });

  it("a blocking recv parks until data arrives, and a blocking accept until a connection does", async () => {
    const k = kernel();
    const a = new Guest(k);
    const b = new Guest(k);
    const l = a.listen();
    const accepting = a.call(Sys.ACCEPT, [l.fd, 0]);
    expect(accepting).toBeInstanceOf(Promise);
    const c = b.connect(l.port);
    const acc = await accepting;
    expect(acc.code).toBe("OK");
    expect(text(acc.reply)).toBe("127.0.0.1");
    const s = acc.out[0]!;
    const reading = a.call(Sys.RECV, [s, 100, 0]);
    expect(reading).toBeInstanceOf(Promise);
    b.send(c, "late");
    expect(text((await reading).reply)).toBe("late");
  });

  it("a killed process's parked call ends", async () => {
    const g = new Guest(kernel());
    const [, s] = pair(g);
    const reading = g.call(Sys.RECV, [s, 100, 0]) as Promise<unknown>;
    g.p.kill(9);
    await expect(reading).rejects.toMatchObject({ name: "ProcessKilled" });
  });

  it("listen(0) picks an ephemeral port; getsockname reports it", () => {
    const g = new Guest(kernel());
    const fd = g.socket();
    g.ok(Sys.BIND, [fd, 0], "0.0.0.0");
    g.ok(Sys.LISTEN, [fd, 0]);
    const name = g.ok(Sys.GETSOCKNAME, [fd]);
    expect(text(name.reply)).toBe("0.0.0.0");
    expect(name.out[0]).toBeGreaterThanOrEqual(49152);
    expect(name.out[0]).toBeLessThanOrEqual(65535);
    // listen on an unbound socket binds it to the wildcard, an ephemeral port
    const u = g.socket();
    g.ok(Sys.LISTEN, [u, 0]);
    expect(g.ok(Sys.GETSOCKNAME, [u]).out[0]).toBeGreaterThanOrEqual(49152);
  });

  it("EADDRINUSE for a taken port, wildcard conflicts; the port is free again at once after close", () => {
    const g = new Guest(kernel());
    const a = g.listen(3000);
    const b = g.socket();
    expect(g.now(Sys.BIND, [b, 3000], "127.0.0.1").code).toBe("EADDRINUSE");
    expect(g.now(Sys.BIND, [b, 3000], "0.0.0.0").code).toBe("EADDRINUSE");
    const v6 = g.socket(AF.INET6);
    expect(g.now(Sys.BIND, [v6, 3000], "::").code).toBe("EADDRINUSE"); // dual stack covers 127.0.0.1
    expect(g.now(Sys.BIND, [v6, 3000], "::1").code).toBe("OK"); // another family's loopback
    g.ok(Sys.CLOSE, [a.fd]);
    expect(g.now(Sys.BIND, [b, 3000], "127.0.0.1").code).toBe("OK");
    g.ok(Sys.LISTEN, [b, 0]);
    // TCP and UDP ports are separate
    const u = g.socket(AF.INET, SOCK.DGRAM);
    expect(g.now(Sys.BIND, [u, 3000], "127.0.0.1").code).toBe("OK");
  });

  it("IPV6_V6ONLY keeps :: off the IPv4 side", () => {
    const g = new Guest(kernel());
    g.listen(3000, "0.0.0.0");
    const v6 = g.socket(AF.INET6);
    g.ok(Sys.SETSOCKOPT, [v6, 41, 26, 1]);
    expect(g.now(Sys.BIND, [v6, 3000], "::").code).toBe("OK");
  });

  it("ECONNREFUSED with no listener, or to a bound socket that does not listen", () => {
    const g = new Guest(kernel());
    const fd = g.socket();
    expect(g.now(Sys.CONNECT, [fd, 1], "127.0.0.1").code).toBe("ECONNREFUSED");
    const b = g.socket();
    g.ok(Sys.BIND, [b, 4000], "127.0.0.1");
    expect(g.now(Sys.CONNECT, [fd, 4000], "127.0.0.1").code).toBe("ECONNREFUSED");
    expect(g.now(Sys.CONNECT, [fd, 4000], "::1").code).toBe("EAFNOSUPPORT");
  });

  it("a 0.0.0.0 listener is reached through 127.x; a dual-stack :: one shows IPv4 peers v4-mapped", () => {
    const g = new Guest(kernel());
    const any = g.listen(5000, "0.0.0.0");
    g.connect(5000, "127.0.0.2");
    const s = g.accept(any.fd);
    expect(text(g.ok(Sys.GETSOCKNAME, [s]).reply)).toBe("127.0.0.2");
    const dual = g.listen(5001, "::", AF.INET6);
    g.connect(5001, "127.0.0.1");
    const d = g.accept(dual.fd);
    const peer = g.ok(Sys.GETPEERNAME, [d]);
    expect([text(peer.reply), peer.out[1]]).toEqual(["::ffff:127.0.0.1", AF.INET6]);
  });

  it("a full backlog refuses; accepting makes room", () => {
    const g = new Guest(kernel());
    const l = g.listen(0, "127.0.0.1", AF.INET, 2);
    g.connect(l.port);
    g.connect(l.port);
    const third = g.socket();
    expect(g.now(Sys.CONNECT, [third, l.port], "127.0.0.1").code).toBe("ECONNREFUSED");
    g.accept(l.fd);
    expect(g.now(Sys.CONNECT, [third, l.port], "127.0.0.1").code).toBe("OK");
    expect(g.now(Sys.CONNECT, [third, l.port], "127.0.0.1").code).toBe("EISCONN");
  });

  it("a listener closed with connections queued resets their clients", () => {
    const g = new Guest(kernel());
    const l = g.listen();
    const c = g.connect(l.port);
    g.ok(Sys.CLOSE, [l.fd]);
    expect(g.recv(c).code).toBe("ECONNRESET");
    expect(g.recv(c)).toMatchObject({ code: "OK", reply: new Uint8Array(0) });
    expect(g.k.sockets.size).toBe(1);
  });

  it("non-loopback addresses without a network: ECONNREFUSED to connect or send (each denial recorded), EADDRNOTAVAIL to bind", () => {
    const g = new Guest(kernel());
    const fd = g.socket();
    expect(g.now(Sys.CONNECT, [fd, 80], "10.0.0.1").code).toBe("ECONNREFUSED");
    expect(g.now(Sys.BIND, [fd, 80], "192.168.1.2").code).toBe("EADDRNOTAVAIL");
    const v6 = g.socket(AF.INET6);
    expect(g.now(Sys.CONNECT, [v6, 80], "2001:db8::1").code).toBe("ECONNREFUSED");
    const u = g.socket(AF.INET, SOCK.DGRAM);
    expect(g.sendto(u, "8.8.8.8", 53, "q").code).toBe("ECONNREFUSED");
    expect(g.k.network.stats.denials).toBe(3);
    expect(g.now(Sys.CONNECT, [fd, 80], "example.com").code).toBe("EINVAL");
  });

  it("half-close: the peer reads what was sent, then end of file, and can still answer", () => {
    const g = new Guest(kernel());
    const [c, s] = pair(g);
    g.send(c, "abc");
    g.ok(Sys.SHUTDOWN, [c, SHUT.WR]);
    expect(text(g.recv(s).reply)).toBe("abc");
    expect(g.recv(s)).toMatchObject({ code: "OK", reply: new Uint8Array(0) });
    g.send(s, "ABC");
    g.ok(Sys.SHUTDOWN, [s, SHUT.WR]);
    expect(text(g.recv(c).reply)).toBe("ABC");
    expect(g.recv(c).reply.length).toBe(0);
    expect(g.send(c, "more", MSG.NOSIGNAL).code).toBe("EPIPE");
    expect(g.p.killedBy).toBeUndefined();
  });

  it("a send to a closed peer is EPIPE and raises SIGPIPE unless MSG_NOSIGNAL", () => {
    const g = new Guest(kernel());
    const [c, s] = pair(g);
    g.ok(Sys.CLOSE, [s]);
    expect(g.send(c, "x", MSG.NOSIGNAL).code).toBe("EPIPE");
    expect(g.p.killedBy).toBeUndefined();
    expect(g.send(c, "x").code).toBe("EPIPE");
    expect(g.p.killedBy).toBe(13);
  });

  it("SHUT_RD: own reads see end of file at once; what the peer sends is dropped", () => {
    const g = new Guest(kernel());
    const [c, s] = pair(g);
    g.send(c, "unread");
    g.ok(Sys.SHUTDOWN, [s, SHUT.RD]);
    expect(g.recv(s).reply.length).toBe(0);
    expect(g.send(c, "dropped").out[0]).toBe(7);
    expect(g.k.memory.use().pipes).toBe(0);
  });

  it("closing with unread data resets the peer (after what it had buffered); a clean close is end of file", () => {
    const g = new Guest(kernel());
    const [c, s] = pair(g);
    g.send(s, "to client");
    g.send(c, "never read");
    g.ok(Sys.CLOSE, [s]);
    expect(text(g.recv(c).reply)).toBe("to client");
    expect(g.recv(c).code).toBe("ECONNRESET");
    const [c2, s2] = pair(g);
    g.send(c2, "read");
    g.recv(s2);
    g.ok(Sys.CLOSE, [s2]);
    expect(g.recv(c2)).toMatchObject({ code: "OK", reply: new Uint8Array(0) });
  });

  it("back-pressure: a short send at the buffer bound, EAGAIN, then more once the reader drains; all bytes counted", () => {
    const g = new Guest(kernel({ socketBufferBytes: 1000 }));
    const [c, s] = pair(g, { nonblocking: true });
    const big = new Uint8Array(2500).map((_, i) => i & 0xff);
    expect(g.send(c, big).out[0]).toBe(1000);
    expect(g.k.memory.use().pipes).toBe(1000);
    expect(g.send(c, big.subarray(1000)).code).toBe("EAGAIN");
    const first = g.recv(s, 600).reply;
    expect(g.send(c, big.subarray(1000)).out[0]).toBe(600);
    const rest = g.recv(s, 5000).reply;
    expect([...first, ...rest]).toEqual([...big.subarray(0, 1600)]);
    expect(g.k.memory.use().pipes).toBe(0);
  });

  it("a blocking send parks at the bound and completes, whole, as the reader drains", async () => {
    const k = kernel({ socketBufferBytes: 1000 });
    const a = new Guest(k);
    const b = new Guest(k);
    const l = a.listen();
    const c = b.connect(l.port);
    const s = a.accept(l.fd);
    const sending = b.call(Sys.SEND, [c, 0], new Uint8Array(2500).fill(7));
    expect(sending).toBeInstanceOf(Promise);
    let got = 0;
    while (got < 2500) {
      got += a.recv(s, 700, MSG.DONTWAIT).reply.length;
      await settle();
    }
    expect((await sending).out[0]).toBe(2500);
  });

  it("SO_RCVBUF sets the bound (clamped to maxSocketBufferBytes)", () => {
    const g = new Guest(kernel({ maxSocketBufferBytes: 1 << 20 }));
    const [c, s] = pair(g, { nonblocking: true });
    g.ok(Sys.SETSOCKOPT, [s, SOL_SOCKET, SO.RCVBUF, 4096]);
    expect(g.ok(Sys.GETSOCKOPT, [s, SOL_SOCKET, SO.RCVBUF]).out[0]).toBe(4096);
    expect(g.send(c, new Uint8Array(10_000)).out[0]).toBe(4096);
    g.ok(Sys.SETSOCKOPT, [s, SOL_SOCKET, SO.RCVBUF, 1 << 30]);
    expect(g.ok(Sys.GETSOCKOPT, [s, SOL_SOCKET, SO.RCVBUF]).out[0]).toBe(1 << 20);
    expect(g.ok(Sys.GETSOCKOPT, [s, SOL_SOCKET, SO.TYPE]).out[0]).toBe(SOCK.STREAM);
    expect(g.now(Sys.SETSOCKOPT, [s, 999, 1, 1]).code).toBe("ENOPROTOOPT");
    expect(g.now(Sys.GETSOCKOPT, [s, 999, 1]).code).toBe("ENOPROTOOPT");
    expect(g.ok(Sys.GETSOCKOPT, [s, 6, 1]).out[0]).toBe(0); // TCP_NODELAY unset
    const v6 = g.socket(AF.INET6);
    g.ok(Sys.BIND, [v6, 0], "::");
    expect(g.ok(Sys.GETSOCKOPT, [v6, 41, 26]).out[0]).toBe(0); // IPV6_V6ONLY readable after bind
    expect(g.now(Sys.SETSOCKOPT, [v6, 41, 26, 1]).code).toBe("EINVAL");
  });

  it("MSG_PEEK leaves the data", () => {
    const g = new Guest(kernel());
    const [c, s] = pair(g);
    g.send(c, "peek");
    expect(text(g.recv(s, 100, MSG.PEEK).reply)).toBe("peek");
    expect(text(g.recv(s).reply)).toBe("peek");
  });

  it("READ, WRITE and FDSTAT work on sockets; socket calls on a pipe are ENOTSOCK", () => {
    const g = new Guest(kernel());
    const [c, s] = pair(g);
    expect(g.ok(Sys.WRITE, [c], "via write").out[0]).toBe(9);
    expect(text(g.ok(Sys.READ, [s, 100]).reply)).toBe("via write");
    expect(g.ok(Sys.FDSTAT, [s]).out[0]).toBe(FileType.SOCKET_STREAM);
    const u = g.socket(AF.INET, SOCK.DGRAM | SOCK.NONBLOCK);
    // filetype, fdflags, access (1 read, 2 write)
    expect(g.ok(Sys.FDSTAT, [u]).out).toEqual([FileType.SOCKET_DGRAM, FdFlags.NONBLOCK, 3, 0]);
    const [r] = g.ok(Sys.PIPE, []).out;
    expect(g.now(Sys.RECV, [r!, 10, 0]).code).toBe("ENOTSOCK");
    // A blocking read of a listening socket is ENOTCONN at once, as on Linux: it does not wait for a connection.
    const l = g.listen();
    expect(g.now(Sys.RECV, [l.fd, 10, 0]).code).toBe("ENOTCONN");
    expect(g.now(Sys.READ, [l.fd, 10]).code).toBe("ENOTCONN");
  });

  it("POLL (poll_oneoff) waits for a socket to become readable", async () => {
    const k = kernel();
    const a = new Guest(k);
    const b = new Guest(k);
    const l = a.listen();
    const c = b.connect(l.port);
    const s = a.accept(l.fd);
    const subs = new Uint8Array(8);
    new DataView(subs.buffer).setUint32(0, s, true);
    new DataView(subs.buffer).setUint32(4, EventType.FD_READ, true);
    const polling = a.call(Sys.POLL, [1, 0, 0, 0], subs);
    expect(polling).toBeInstanceOf(Promise);
    b.send(c, "x");
    const r = await polling;
    expect(r.out[0]).toBe(1);
  });

  it("dup shares the socket: closing one fd keeps the connection, closing the last ends it", () => {
    const g = new Guest(kernel());
    const [c, s] = pair(g);
    const dup = g.ok(Sys.DUP, [s]).out[0]!;
    g.ok(Sys.CLOSE, [s]);
    g.send(c, "still");
    expect(text(g.recv(dup).reply)).toBe("still");
    g.ok(Sys.CLOSE, [dup]);
    expect(g.recv(c).reply.length).toBe(0);
  });

  it("socketpair: connected Unix streams and datagrams", () => {
    const g = new Guest(kernel());
    const [a, b] = g.ok(Sys.SOCKETPAIR, [AF.UNIX, SOCK.STREAM]).out as [number, number];
    g.send(a, "ping");
    expect(text(g.recv(b).reply)).toBe("ping");
    const [x, y] = g.ok(Sys.SOCKETPAIR, [AF.UNIX, SOCK.DGRAM]).out as [number, number];
    g.send(x, "one");
    g.send(x, "two");
    expect(text(g.recv(y).reply)).toBe("one");
    expect(text(g.recv(y).reply)).toBe("two");
    expect(g.now(Sys.SOCKETPAIR, [AF.INET, SOCK.STREAM]).code).toBe("ENOTSUP");
  });

  it("RECV of a datagram longer than asked for gives what fits and says how long it was; a stream says what it gave", () => {
    const g = new Guest(kernel());
    const [x, y] = g.ok(Sys.SOCKETPAIR, [AF.UNIX, SOCK.DGRAM]).out as [number, number];
    g.send(x, "a long datagram");
    const cut = g.ok(Sys.RECV, [y, 6, 0]);
    expect([text(cut.reply), cut.out[0]]).toEqual(["a long", 15]);
    const [a, b] = g.ok(Sys.SOCKETPAIR, [AF.UNIX, SOCK.STREAM]).out as [number, number];
    g.send(a, "a long stream");
    const part = g.ok(Sys.RECV, [b, 6, 0]);
    expect([text(part.reply), part.out[0]]).toEqual(["a long", 6]);
  });

  it("FSYNC succeeds on a socket, a file and a directory; a pipe and a device answer EINVAL, as on Linux", () => {
    const g = new Guest(kernel());
    const [x] = g.ok(Sys.SOCKETPAIR, [AF.UNIX, SOCK.STREAM]).out as [number, number];
    expect([g.now(Sys.FSYNC, [x]).code, g.now(Sys.FSYNC, [0]).code]).toEqual(["OK", "EINVAL"]); // fd 0 is /dev/null
    const [r, w] = g.ok(Sys.PIPE, []).out as [number, number];
    expect([g.now(Sys.FSYNC, [r]).code, g.now(Sys.FSYNC, [w]).code]).toEqual(["EINVAL", "EINVAL"]);
  });
});

describe("Unix sockets", () => {
  it("bind makes a socket file; echo works; the file stays after close and connect is then ECONNREFUSED; unlinked: ENOENT", () => {
    const g = new Guest(kernel(), "/tmp");
    const l = g.socket(AF.UNIX);
    g.ok(Sys.BIND, [l, 0], "s.sock"); // relative to the cwd
    g.ok(Sys.LISTEN, [l, 0]);
    expect(g.k.vfs.stat("/tmp/s.sock").filetype).toBe(FileType.SOCKET_STREAM);
    expect(g.k.vfs.mode("/tmp/s.sock") & 0o170000).toBe(0o140000);
    const c = g.connect(0, "/tmp/s.sock", AF.UNIX);
    const s = g.accept(l);
    g.send(c, "unix");
    expect(text(g.recv(s).reply)).toBe("unix");
    expect(text(g.ok(Sys.GETPEERNAME, [c]).reply)).toBe("/tmp/s.sock");
    expect(g.k.sockets.listeners()).toEqual([{ pid: g.p.pid, proto: "unix", address: "/tmp/s.sock", port: 0 }]);
    g.ok(Sys.CLOSE, [l]);
    expect(g.k.vfs.exists("/tmp/s.sock")).toBe(true);
    const again = g.socket(AF.UNIX);
    expect(g.now(Sys.CONNECT, [again, 0], "/tmp/s.sock").code).toBe("ECONNREFUSED");
    expect(g.now(Sys.BIND, [again, 0], "/tmp/s.sock").code).toBe("EADDRINUSE");
    g.k.vfs.unlink("/tmp/s.sock");
    expect(g.now(Sys.CONNECT, [again, 0], "/tmp/s.sock").code).toBe("ENOENT");
    expect(g.now(Sys.BIND, [again, 0], "/tmp/s.sock").code).toBe("OK");
  });

  it("a regular file is EADDRINUSE to bind and ECONNREFUSED to connect; a datagram socket is EPROTOTYPE to a stream", () => {
    const g = new Guest(kernel());
    g.k.vfs.writeFile("/tmp/f", "x");
    const fd = g.socket(AF.UNIX);
    expect(g.now(Sys.BIND, [fd, 0], "/tmp/f").code).toBe("EADDRINUSE");
    expect(g.now(Sys.CONNECT, [fd, 0], "/tmp/f").code).toBe("ECONNREFUSED");
    const d = g.socket(AF.UNIX, SOCK.DGRAM);
    g.ok(Sys.BIND, [d, 0], "/tmp/d.sock");
    expect(g.now(Sys.CONNECT, [fd, 0], "/tmp/d.sock").code).toBe("EPROTOTYPE");
  });

  it("Unix datagrams keep boundaries and name their sender", () => {
    const g = new Guest(kernel());
    const server = g.socket(AF.UNIX, SOCK.DGRAM);
    g.ok(Sys.BIND, [server, 0], "/tmp/srv");
    const client = g.socket(AF.UNIX, SOCK.DGRAM);
    g.ok(Sys.BIND, [client, 0], "/tmp/cli");
    g.sendto(client, "/tmp/srv", 0, "a");
    g.sendto(client, "/tmp/srv", 0, "bb");
    const first = g.recvfrom(server);
    expect([first.address, text(first.data)]).toEqual(["/tmp/cli", "a"]);
    expect(text(g.recvfrom(server).data)).toBe("bb");
    expect(g.sendto(client, "/tmp/nowhere", 0, "x").code).toBe("ENOENT");
  });
});

describe("UDP over loopback", () => {
  it("keeps boundaries, names the sender, echoes back", () => {
    const g = new Guest(kernel());
    const srv = g.socket(AF.INET, SOCK.DGRAM);
    const port = g.ok(Sys.BIND, [srv, 0], "127.0.0.1").out[0]!;
    const cli = g.socket(AF.INET, SOCK.DGRAM);
    for (const m of ["a", "bb", "ccc"]) expect(g.sendto(cli, "127.0.0.1", port, m).out[0]).toBe(m.length);
    const cliPort = g.ok(Sys.GETSOCKNAME, [cli]).out[0]!;
    const got = [g.recvfrom(srv), g.recvfrom(srv), g.recvfrom(srv)];
    expect(got.map((d) => d.data.length)).toEqual([1, 2, 3]);
    expect(got.every((d) => d.address === "127.0.0.1" && d.port === cliPort)).toBe(true);
    g.sendto(srv, got[0]!.address, got[0]!.port, "echo");
    expect(text(g.recvfrom(cli).data)).toBe("echo");
    expect(g.recvfrom(cli, 100, MSG.DONTWAIT).code).toBe("EAGAIN");
  });

  it("truncates to the buffer and reports the whole length", () => {
    const g = new Guest(kernel());
    const srv = g.socket(AF.INET, SOCK.DGRAM);
    const port = g.ok(Sys.BIND, [srv, 0], "127.0.0.1").out[0]!;
    const cli = g.socket(AF.INET, SOCK.DGRAM);
    g.sendto(cli, "127.0.0.1", port, "abcdefgh");
    const d = g.recvfrom(srv, 3);
    expect([text(d.data), d.length]).toEqual(["abc", 8]);
  });

  it("EMSGSIZE at 65,508 bytes over IPv4; 65,507 goes through", () => {
    const g = new Guest(kernel());
    const srv = g.socket(AF.INET, SOCK.DGRAM);
    const port = g.ok(Sys.BIND, [srv, 0], "127.0.0.1").out[0]!;
    const cli = g.socket(AF.INET, SOCK.DGRAM);
    expect(g.sendto(cli, "127.0.0.1", port, new Uint8Array(65_508)).code).toBe("EMSGSIZE");
    expect(g.sendto(cli, "127.0.0.1", port, new Uint8Array(65_507)).out[0]).toBe(65_507);
    expect(g.recvfrom(srv, 70_000).length).toBe(65_507);
  });

  it("a datagram to an unbound port is dropped and the send succeeds; a full queue drops too", () => {
    const g = new Guest(kernel({ datagramQueueLength: 2 }));
    const cli = g.socket(AF.INET, SOCK.DGRAM);
    expect(g.sendto(cli, "127.0.0.1", 9, "void").out[0]).toBe(4);
    const srv = g.socket(AF.INET, SOCK.DGRAM);
    const port = g.ok(Sys.BIND, [srv, 0], "127.0.0.1").out[0]!;
    for (const m of ["1", "2", "3"]) g.sendto(cli, "127.0.0.1", port, m);
    expect([text(g.recvfrom(srv).data), text(g.recvfrom(srv).data)]).toEqual(["1", "2"]);
    expect(g.recvfrom(srv, 100, MSG.DONTWAIT).code).toBe("EAGAIN");
    expect(g.k.memory.use().pipes).toBe(0);
  });

  it("a blocking recvfrom parks until a datagram arrives", async () => {
    const k = kernel();
    const a = new Guest(k);
    const b = new Guest(k);
    const srv = a.socket(AF.INET6, SOCK.DGRAM);
    const port = a.ok(Sys.BIND, [srv, 0], "::").out[0]!;
    const waiting = a.call(Sys.RECVFROM, [srv, 100, 0]);
    expect(waiting).toBeInstanceOf(Promise);
    const cli = b.socket(AF.INET, SOCK.DGRAM);
    b.sendto(cli, "127.0.0.1", port, "hi");
    const r = await waiting;
    expect(r.out[1]).toBe(2);
    expect(r.out[2]).toBe(AF.INET6);
  });

  it("connected UDP: send without an address, and only the peer's datagrams are received", () => {
    const g = new Guest(kernel());
    const srv = g.socket(AF.INET, SOCK.DGRAM);
    const port = g.ok(Sys.BIND, [srv, 0], "127.0.0.1").out[0]!;
    const cli = g.socket(AF.INET, SOCK.DGRAM);
    g.ok(Sys.CONNECT, [cli, port], "127.0.0.1");
    expect(g.send(cli, "via send").out[0]).toBe(8);
    expect(text(g.recvfrom(srv).data)).toBe("via send");
    const other = g.socket(AF.INET, SOCK.DGRAM);
    const cliPort = g.ok(Sys.GETSOCKNAME, [cli]).out[0]!;
    g.sendto(other, "127.0.0.1", cliPort, "stranger");
    expect(g.recvfrom(cli, 100, MSG.DONTWAIT).code).toBe("EAGAIN");
  });
});

describe("limits and cleanup", () => {
  it("sockets per VM are capped (EMFILE)", () => {
    const g = new Guest(kernel({ maxSockets: 3 }));
    g.socket();
    g.socket();
    g.socket();
    expect(g.now(Sys.SOCKET, [AF.INET, SOCK.STREAM]).code).toBe("EMFILE");
    expect(g.k.sockets.size).toBe(3);
  });

  it("a process's exit closes its sockets: its port is free, its peers see end of file", () => {
    const k = kernel();
    const server = new Guest(k);
    const client = new Guest(k);
    const l = server.listen(3000);
    const c = client.connect(3000);
    server.accept(l.fd);
    server.exit();
    expect(client.recv(c).reply.length).toBe(0);
    expect(client.now(Sys.CONNECT, [client.socket(), 3000], "127.0.0.1").code).toBe("ECONNREFUSED");
    expect(k.sockets.listeners()).toEqual([]);
    client.exit();
    expect(k.sockets.size).toBe(0);
  });

  it("dispose leaves the table empty, closing the host's ends and ending their waits", async () => {
    const k = kernel();
    const g = new Guest(k);
    const l = g.listen(8080);
    const end = k.sockets.connectHost(8080);
    g.accept(l.fd);
    const reading = end.read();
    const waiting = k.sockets.waitForListener(9999, 60_000).catch((e: unknown) => e);
    const other = k.sockets.connectHost(8080); // queued, never accepted
    const otherReading = other.read().catch((e: unknown) => e);
    await k.dispose();
    expect(k.sockets.size).toBe(0);
    expect(await reading).toBeNull(); // the guest's exit closed its end
    expect(await otherReading).toMatchObject({ code: "ECONNRESET" }); // its listener closed with it queued
    expect(await waiting).toMatchObject({ code: "EPERM" });
    expect(end.closed && other.closed).toBe(true);
    expect(k.memory.use().pipes).toBe(0);
  });

  it("two VMs listen on the same port, each its own", () => {
    const a = new Guest(kernel());
    const b = new Guest(kernel());
    const la = a.listen(3000);
    const lb = b.listen(3000);
    a.send(a.connect(3000), "A");
    b.send(b.connect(3000), "B");
    expect(text(a.recv(a.accept(la.fd)).reply)).toBe("A");
    expect(text(b.recv(b.accept(lb.fd)).reply)).toBe("B");
  });
});

describe("host ends", () => {
  it("connectHost talks to a guest listener with promises; listeners() names it", async () => {
    const k = kernel();
    const g = new Guest(k);
    const l = g.listen(3000, "0.0.0.0");
    expect(k.sockets.listeners()).toEqual([{ pid: g.p.pid, proto: "tcp", address: "0.0.0.0", port: 3000 }]);
    const end = k.sockets.connectHost(3000);
    const s = g.accept(l.fd);
    await end.write(bytes("GET /"));
    expect(text(g.recv(s).reply)).toBe("GET /");
    const reading = end.read();
    g.send(s, "200 ok");
    expect(text((await reading)!)).toBe("200 ok");
    end.end();
    expect(g.recv(s).reply.length).toBe(0);
    g.ok(Sys.CLOSE, [s]);
    expect(await end.read()).toBeNull();
    end.close();
    expect(() => k.sockets.connectHost(3001)).toThrow(expect.objectContaining({ code: "ECONNREFUSED" }));
  });

  it("a host write larger than the guest's buffer waits for the guest to read", async () => {
    const k = kernel({ socketBufferBytes: 100 });
    const g = new Guest(k);
    const l = g.listen(3000);
    const end = k.sockets.connectHost(3000);
    const s = g.accept(l.fd);
    let done = false;
    const writing = end.write(new Uint8Array(250).fill(1)).then(() => (done = true));
    await settle();
    expect(done).toBe(false);
    let got = 0;
    while (got < 250) {
      got += g.recv(s, 1000, MSG.DONTWAIT).reply.length;
      await settle();
    }
    await writing;
    end.close();
  });

  it("waitForListener resolves on the listen, and times out otherwise", async () => {
    const k = kernel();
    const g = new Guest(k);
    const waiting = k.sockets.waitForListener(4000, 60_000);
    g.listen(4000);
    expect(await waiting).toMatchObject({ port: 4000, proto: "tcp", pid: g.p.pid });
    await expect(k.sockets.waitForListener(4001, 10)).rejects.toMatchObject({ code: "ETIMEDOUT" });
  });

  it("connectHost reaches a Unix socket by path", async () => {
    const k = kernel();
    const g = new Guest(k);
    const l = g.socket(AF.UNIX);
    g.ok(Sys.BIND, [l, 0], "/tmp/api.sock");
    g.ok(Sys.LISTEN, [l, 0]);
    const end = k.sockets.connectHost("/tmp/api.sock");
    const s = g.accept(l);
    await end.write(bytes("hi"));
    expect(text(g.recv(s).reply)).toBe("hi");
    end.close();
    expect(g.recv(s).reply.length).toBe(0);
  });

  it("as a node:stream Duplex: data both ways, end of file both ways", async () => {
    const k = kernel();
    const g = new Guest(k);
    const l = g.listen(3000);
    const duplex = hostSocketDuplex(k.sockets.connectHost(3000));
    const s = g.accept(l.fd);
    const chunks: string[] = [];
    duplex.on("data", (c: Buffer) => chunks.push(c.toString()));
    const ended = new Promise((resolve) => duplex.on("end", resolve));
    duplex.end("request");
    await settle();
    expect(text(g.recv(s).reply)).toBe("request");
    expect(g.recv(s).reply.length).toBe(0); // the host's end()
    g.send(s, "response");
    g.ok(Sys.CLOSE, [s]);
    await ended;
    expect(chunks.join("")).toBe("response");
    duplex.destroy();
    await settle();
    expect(k.sockets.size).toBe(1); // only the listener
  });
});
