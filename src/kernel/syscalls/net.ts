import { packFields, unpackFields, type Channel } from "../../abi/channel.js";
import { AF, MSG, SOCK } from "../../abi/net.js";
import { Errno } from "../../abi/errno.js";
import { Sys } from "../../abi/syscalls.js";
import { Signal } from "../../abi/wasi.js";
import { WakeEvent } from "../../abi/wake-ring.js";
import { kerr, KernelError } from "../kernel-error.js";
import { join } from "../path.js";
import type { Process } from "../process.js";
import type { SockAddr } from "../socket-address.js";
import type { Destination, SocketTable } from "../socket-table.js";
import { DatagramSocket, Socket, StreamSocket, untilDone } from "../socket.js";
import { payloadString, type SyscallHandler } from "./context.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function socketOf(p: Process, fd: number): Socket {
  const f = p.fds.get(fd);
  if (!(f instanceof Socket)) throw kerr("ENOTSOCK", { syscall: "socket" });
  return f;
}

/** Where an address argument points: a Unix socket's path (made absolute against the cwd) or an IP address and port. */
function destination(p: Process, s: Socket, address: string, port: number): Destination {
  return s.domain === AF.UNIX ? { path: join(p.cwd, address) } : { address, port };
}

/**
 * Runs a call that may wait. On a NONBLOCK fd or with MSG_DONTWAIT it answers EAGAIN instead, and arms the
 * process's wake ring for that direction in the same call (guest-js §4.3): the arming checks the level, so
 * the guest cannot miss the change between this answer and its wait. Otherwise it parks until done.
 */
function attempt<T>(p: Process, fd: number, s: Socket, op: "read" | "write", flags: number, call: () => T): T | Promise<T> {
  if (p.fds.isNonblocking(fd) || (flags & MSG.DONTWAIT) !== 0) {
    try {
      return call();
    } catch (e) {
      if (e instanceof KernelError && e.errno === Errno.EAGAIN) p.wakeRing?.arm(fd, s, op === "read" ? WakeEvent.READ : WakeEvent.WRITE);
      throw e;
    }
  }
  return untilDone(s, op, p.killSignal, call);
}

/** A send to a peer that is gone raises SIGPIPE unless MSG_NOSIGNAL, as on Linux (a process that catches it gets EPIPE). */
function sendFailed(p: Process, flags: number, e: unknown): never {
  if (e instanceof KernelError && e.errno === Errno.EPIPE && (flags & MSG.NOSIGNAL) === 0) p.kill(Signal.SIGPIPE);
  throw e;
}

function sending(p: Process, flags: number, ch: Channel, run: () => number | Promise<number>): number | Promise<number> {
  const sent = (n: number): number => (ch.setOut(0, n), 0);
  try {
    const n = run();
    return typeof n === "number" ? sent(n) : n.then(sent, (e: unknown) => sendFailed(p, flags, e));
  } catch (e) {
    return sendFailed(p, flags, e);
  }
}

/** Writes an address as a reply: out[portSlot] = port, out[portSlot + 1] = family; returns the reply length. */
function replyAddress(ch: Channel, addr: SockAddr, portSlot = 0): number {
  const bytes = encoder.encode(addr.address);
  ch.data.set(bytes);
  ch.setOut(portSlot, addr.port);
  ch.setOut(portSlot + 1, addr.family);
  return bytes.length;
}

/** Writes `text` as the reply (cut at the channel's size: a resolver's answer is a few lines); returns its length. */
function replyText(ch: Channel, text: string): number {
  const { written } = encoder.encodeInto(text, ch.data);
  return written;
}

/** A socket's address before it has one: the unnamed address of its family. */
const unnamed = (s: Socket): SockAddr => ({ family: s.domain, address: s.domain === AF.INET ? "0.0.0.0" : s.domain === AF.INET6 ? "::" : "", port: 0 });

/** Installs a new socket at the lowest free fd; a socket no fd could take is closed again. */
function install(p: Process, s: Socket, type: number): number {
  let fd: number;
  try {
    fd = p.fds.allocate(s);
  } catch (e) {
    s.abandon();
    throw e;
  }
  if ((type & SOCK.NONBLOCK) !== 0) p.fds.setNonblocking(fd, true);
  return fd;
}

/** Room a reply of fields [address, bytes] leaves for the bytes. */
const ADDRESS_ROOM = 4 + 4096 + 4;

export const netSyscalls: Record<number, SyscallHandler> = {
  [Sys.SOCKET]: (k, p, ch) => {
    const s = k.sockets.create(ch.arg(0), ch.arg(1));
    s.pid = p.pid;
    ch.setOut(0, install(p, s, ch.arg(1)));
    return 0;
  },

  [Sys.SOCKETPAIR]: (k, p, ch) => {
    if (ch.arg(0) !== AF.UNIX) throw kerr(ch.arg(0) === AF.INET || ch.arg(0) === AF.INET6 ? "ENOTSUP" : "EAFNOSUPPORT", { syscall: "socketpair" });
    const [a, b] = k.sockets.pair(ch.arg(1));
    a.pid = b.pid = p.pid;
    let fa: number;
    try {
      fa = install(p, a, ch.arg(1));
    } catch (e) {
      b.abandon();
      throw e;
    }
    try {
      ch.setOut(1, install(p, b, ch.arg(1)));
    } catch (e) {
      p.fds.close(fa);
      throw e;
    }
    ch.setOut(0, fa);
    return 0;
  },

  [Sys.BIND]: (k, p, ch) => {
    const s = socketOf(p, ch.arg(0));
    ch.setOut(0, k.sockets.bind(s, destination(p, s, payloadString(ch), ch.uarg(1))));
    return 0;
  },

  [Sys.LISTEN]: (k, p, ch) => {
    k.sockets.listen(socketOf(p, ch.arg(0)), ch.arg(1), p.pid);
    return 0;
  },

  [Sys.ACCEPT]: (k, p, ch) => {
    const fd = ch.arg(0);
    const l = socketOf(p, fd);
    const flags = ch.arg(1);
    const accepted = (s: StreamSocket): number => {
      let newFd: number;
      try {
        newFd = p.fds.allocate(s);
      } catch (e) {
        k.sockets.requeue(l as StreamSocket, s);
        throw e;
      }
      if ((flags & SOCK.NONBLOCK) !== 0) p.fds.setNonblocking(newFd, true);
      s.pid = p.pid;
      ch.setOut(0, newFd);
      return replyAddress(ch, s.peerAddr ?? unnamed(s), 1);
    };
    const s = attempt(p, fd, l, "read", 0, () => k.sockets.accept(l));
    return s instanceof Promise ? s.then(accepted) : accepted(s);
  },

  [Sys.CONNECT]: (k, p, ch) => {
    const fd = ch.arg(0);
    const s = socketOf(p, fd);
    k.sockets.connect(s, destination(p, s, payloadString(ch), ch.uarg(1)));
    if (!(s instanceof StreamSocket) || s.state !== "connecting") return 0;
    // An outbound connection on its way: a NONBLOCK fd learns the end from write readiness and SO_ERROR.
    if (p.fds.isNonblocking(fd)) {
      p.wakeRing?.arm(fd, s, WakeEvent.WRITE);
      throw kerr("EINPROGRESS", { syscall: "connect" });
    }
    return untilDone(s, "write", p.killSignal, () => {
      if (s.state === "connecting") throw kerr("EAGAIN", { syscall: "connect" });
      const errno = s.connectError;
      s.connectError = 0;
      if (errno !== 0) throw new KernelError(errno, { syscall: "connect" });
      return 0;
    });
  },

  [Sys.RESOLVE]: async (k, p, ch) => {
    const family = ch.arg(0);
    if (family !== 0 && family !== 4 && family !== 6) throw kerr("EINVAL", { syscall: "getaddrinfo" });
    const name = payloadString(ch);
    const list = await k.network.resolver.resolve(name, family, p.pid);
    return replyText(ch, list.map((a) => `${a.family} ${a.address}\n`).join(""));
  },

  [Sys.SEND]: (k, p, ch) => {
    const fd = ch.arg(0);
    const s = socketOf(p, fd);
    const flags = ch.arg(1);
    const data = ch.data.subarray(0, ch.requestLength);
    return sending(p, flags, ch, () => sendOn(k.sockets, p, fd, s, flags, data, undefined));
  },

  [Sys.SENDTO]: (k, p, ch) => {
    const fd = ch.arg(0);
    const s = socketOf(p, fd);
    const flags = ch.arg(2);
    const [addr, data] = unpackFields(ch.data, ch.requestLength);
    if (!addr || !data) throw kerr("EINVAL", { syscall: "sendto" });
    const text = decoder.decode(addr);
    const to = text === "" ? undefined : destination(p, s, text, ch.uarg(1));
    return sending(p, flags, ch, () => sendOn(k.sockets, p, fd, s, flags, data, to));
  },

  [Sys.RECV]: (_k, p, ch) => {
    const fd = ch.arg(0);
    const s = socketOf(p, fd);
    const flags = ch.arg(2);
    const target = ch.data.subarray(0, Math.min(ch.uarg(1), ch.data.length));
    const peek = (flags & MSG.PEEK) !== 0;
    if (s instanceof StreamSocket)
      return attempt(p, fd, s, "read", flags, () => {
        const n = s.recv(target, peek);
        ch.setOut(0, n);
        return n;
      });
    const d = s as DatagramSocket;
    return attempt(p, fd, s, "read", flags, () => {
      const got = d.recvfrom(target.length, peek);
      ch.setOut(0, got?.length ?? 0);
      if (!got) return 0;
      target.set(got.bytes);
      return got.bytes.length;
    });
  },

  [Sys.RECVFROM]: (_k, p, ch) => {
    const fd = ch.arg(0);
    const s = socketOf(p, fd);
    const flags = ch.arg(2);
    const max = Math.max(0, Math.min(ch.uarg(1), ch.data.length - ADDRESS_ROOM));
    const peek = (flags & MSG.PEEK) !== 0;
    const reply = (from: SockAddr, bytes: Uint8Array, length: number): number => {
      ch.setOut(0, from.port);
      ch.setOut(1, length);
      ch.setOut(2, from.family);
      return packFields(ch.data, [encoder.encode(from.address), bytes]);
    };
    if (s instanceof StreamSocket) {
      const buf = new Uint8Array(max);
      return attempt(p, fd, s, "read", flags, () => {
        const n = s.recv(buf, peek);
        return reply(s.peerAddr ?? unnamed(s), buf.subarray(0, n), n);
      });
    }
    const d = s as DatagramSocket;
    return attempt(p, fd, s, "read", flags, () => {
      const got = d.recvfrom(max, peek);
      return got ? reply(got.from, got.bytes, got.length) : reply(unnamed(s), new Uint8Array(0), 0);
    });
  },

  [Sys.SHUTDOWN]: (_k, p, ch) => {
    const s = socketOf(p, ch.arg(0));
    (s as StreamSocket | DatagramSocket).shutdown(ch.arg(1));
    return 0;
  },

  [Sys.GETSOCKNAME]: (_k, p, ch) => {
    const s = socketOf(p, ch.arg(0));
    return replyAddress(ch, s.local ?? unnamed(s));
  },

  [Sys.GETPEERNAME]: (_k, p, ch) => {
    const s = socketOf(p, ch.arg(0));
    const connected = s instanceof StreamSocket ? s.state === "connected" && s.peerAddr : s.peerAddr;
    if (!connected) throw kerr("ENOTCONN", { syscall: "getpeername" });
    return replyAddress(ch, s.peerAddr!);
  },

  [Sys.SETSOCKOPT]: (_k, p, ch) => {
    socketOf(p, ch.arg(0)).setOption(ch.arg(1), ch.arg(2), ch.arg(3));
    return 0;
  },

  [Sys.GETSOCKOPT]: (_k, p, ch) => {
    ch.setOut(0, socketOf(p, ch.arg(0)).getOption(ch.arg(1), ch.arg(2)));
    return 0;
  },
};

/**
 * SEND and SENDTO. A stream send parks until *all* is sent (a blocking socket on Linux does the same) or,
 * non-blocking, takes what fits (a short send) or answers EAGAIN. A datagram goes whole or not at all.
 */
function sendOn(
  table: SocketTable,
  p: Process,
  fd: number,
  s: Socket,
  flags: number,
  data: Uint8Array,
  to: Destination | undefined,
): number | Promise<number> {
  if (s instanceof StreamSocket) {
    if (p.fds.isNonblocking(fd) || (flags & MSG.DONTWAIT) !== 0) return attempt(p, fd, s, "write", flags, () => s.send(data));
    let off = 0;
    return attempt(p, fd, s, "write", flags, () => {
      while (off < data.length) off += s.send(data.subarray(off));
      return data.length;
    });
  }
  return attempt(p, fd, s, "write", flags, () => table.sendto(s as DatagramSocket, data, to));
}
