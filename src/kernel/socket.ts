import { AF, IPPROTO_IPV6, IPPROTO_TCP, IPV6_V6ONLY, SHUT, SO, SOCK, SOL_SOCKET, TCP_NODELAY, type AddressFamily } from "../abi/net.js";
import { Errno } from "../abi/errno.js";
import { FileType } from "../abi/wasi.js";
import type { FileStat } from "../abi/filestat.js";
import { MIN_SOCKET_BUFFER_BYTES } from "../limits.js";
import { ByteQueue } from "./byte-queue.js";
import { kerr, KernelError } from "./kernel-error.js";
import { OpenFile, type Readiness } from "./open-file.js";
import type { Cover, SockAddr } from "./socket-address.js";
import type { SocketTable } from "./socket-table.js";

const S_IFSOCK_MODE = 0o140777;

const isEagain = (e: unknown): boolean => e instanceof KernelError && e.errno === Errno.EAGAIN;

/** Resolves once `file` is ready for `op` (at once if it is); `signal` (a kill, a closed host end) ends the wait. */
function readyFor(file: OpenFile, op: "read" | "write", signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  if (file.readiness(op).ready) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => {
      unwatch();
      reject(signal.reason as Error);
    };
    const unwatch = file.watchReadiness(() => {
      if (!file.readiness(op).ready) return;
      unwatch();
      signal.removeEventListener("abort", onAbort);
      resolve();
    });
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * A call that may wait: `attempt` answers at once or throws EAGAIN, and is tried again each time `file`
 * becomes ready for `op`. A parked call is just another interest in the socket's readiness, so blocking
 * and non-blocking callers share one implementation. Readiness says exactly when `attempt` would not
 * answer EAGAIN, so this never spins.
 */
export function untilDone<T>(file: OpenFile, op: "read" | "write", signal: AbortSignal, attempt: () => T): T | Promise<T> {
  try {
    return attempt();
  } catch (e) {
    if (!isEagain(e)) throw e;
  }
  return whenReady(file, op, signal, attempt);
}

/**
 * untilDone for a caller that knows `file` is not ready for `op` and that `attempt` would only say EAGAIN
 * (a connected stream's host end: its readiness is exact), which would build an error, stack trace and all,
 * for nothing: it waits first.
 */
export async function whenReady<T>(file: OpenFile, op: "read" | "write", signal: AbortSignal, attempt: () => T): Promise<T> {
  for (;;) {
    await readyFor(file, op, signal);
    try {
      return attempt();
    } catch (e) {
      if (!isEagain(e)) throw e;
    }
  }
}

/**
 * A socket of the VM's loopback network: an open file description, so dup, inheritance and close work
 * through the fd tables. It is counted in its table from creation to its close (last reference gone).
 */
export abstract class Socket extends OpenFile {
  abstract override readonly filetype: number;
  /** Its address once bound (or auto-bound by connect or send). */
  local: SockAddr | undefined;
  /** The peer's address once connected. */
  peerAddr: SockAddr | undefined;
  /** What its binding covers (inet), or the socket file's node (Unix): the table's key for it. */
  cover: Cover | undefined;
  unixNode: object | undefined;
  /** The process that made it listen (or created it): listeners() reports it. */
  pid = 0;
  /** SO_ERROR: why a connect that went on in the background failed (an errno; 0: it did not). Read once. */
  connectError = 0;
  /** SETSOCKOPT values by `level << 16 | name`. */
  private readonly options = new Map<number, number>();
  private readonly watchers = new Set<() => void>();
  private done = false;

  constructor(
    readonly table: SocketTable,
    readonly domain: AddressFamily,
  ) {
    super();
    table.adopt(this);
  }

  abstract readonly type: number;

  override watchReadiness(wake: () => void): () => void {
    this.watchers.add(wake);
    return () => this.watchers.delete(wake);
  }

  /** Readiness may have changed. */
  changed(): void {
    if (this.watchers.size > 0) for (const w of [...this.watchers]) w();
  }

  override stat(): FileStat {
    return { ...super.stat(), filetype: this.filetype };
  }
  override mode(): number {
    return S_IFSOCK_MODE;
  }

  /** The receive buffer's size (SO_RCVBUF). */
  get receiveBuffer(): number {
    return this.options.get((SOL_SOCKET << 16) | SO.RCVBUF) ?? this.table.limits.socketBufferBytes;
  }

  get v6only(): boolean {
    return (this.options.get((IPPROTO_IPV6 << 16) | IPV6_V6ONLY) ?? 0) !== 0;
  }

  /** The options SETSOCKOPT takes: what the guests' runtimes set (others are ENOPROTOOPT). */
  private settable(level: number, name: number): boolean {
    return (
      (level === SOL_SOCKET && [SO.REUSEADDR, SO.REUSEPORT, SO.KEEPALIVE, SO.BROADCAST, SO.SNDBUF, SO.RCVBUF].includes(name as 2)) ||
      (level === IPPROTO_TCP && name === TCP_NODELAY && this.type === SOCK.STREAM) ||
      (level === IPPROTO_IPV6 && name === IPV6_V6ONLY && this.domain === AF.INET6)
    );
  }

  setOption(level: number, name: number, value: number): void {
    if (!this.settable(level, name)) throw kerr("ENOPROTOOPT", { syscall: "setsockopt" });
    if (level === IPPROTO_IPV6 && this.cover) throw kerr("EINVAL", { syscall: "setsockopt", message: "IPV6_V6ONLY after bind" });
    let v = value;
    // As Linux: the buffer sizes are clamped, not refused.
    if (level === SOL_SOCKET && (name === SO.RCVBUF || name === SO.SNDBUF))
      v = Math.min(Math.max(value, MIN_SOCKET_BUFFER_BYTES), this.table.limits.maxSocketBufferBytes);
    this.options.set((level << 16) | name, v);
    if (level === SOL_SOCKET && name === SO.RCVBUF) this.receiveBufferChanged(v);
  }

  getOption(level: number, name: number): number {
    if (level === SOL_SOCKET) {
      if (name === SO.TYPE) return this.type;
      if (name === SO.DOMAIN) return this.domain;
      if (name === SO.ERROR) {
        const e = this.connectError;
        this.connectError = 0;
        return e;
      }
      if (name === SO.ACCEPTCONN) return this.listening ? 1 : 0;
      if (name === SO.RCVBUF) return this.receiveBuffer;
      if (name === SO.SNDBUF) return this.options.get((SOL_SOCKET << 16) | SO.SNDBUF) ?? this.table.limits.socketBufferBytes;
    }
    if (!this.settable(level, name)) throw kerr("ENOPROTOOPT", { syscall: "getsockopt" });
    return this.options.get((level << 16) | name) ?? 0;
  }

  protected receiveBufferChanged(_bytes: number): void {}
  get listening(): boolean {
    return false;
  }

  /** Closes a socket no fd holds (one that never got one, or a connection its listener never handed out). */
  abandon(): void {
    if (this.refs === 0) this.close();
  }

  protected override close(): void {
    if (this.done) return;
    this.done = true;
    this.teardown();
    this.table.forget(this);
    this.changed();
    this.watchers.clear();
  }

  get closed(): boolean {
    return this.done;
  }

  /** Closes it whoever holds it (the VM is disposed); later releases find it closed. */
  forceClose(): void {
    this.close();
  }

  /** Releases what the socket holds and tells its peer. */
  protected abstract teardown(): void;
}

/** "connecting": an outbound connection on its way (external-peer.ts); it ends "connected", or "bound" with connectError. */
type StreamState = "unbound" | "bound" | "listening" | "connecting" | "connected";

/** A stream socket (TCP over loopback, or a Unix stream socket): a pair of bounded byte queues once connected. */
export class StreamSocket extends Socket {
  readonly filetype = FileType.SOCKET_STREAM;
  readonly type = SOCK.STREAM;
  state: StreamState = "unbound";
  /** The other end while it is open. */
  peer: StreamSocket | undefined;
  readonly inbox: ByteQueue;
  readShut = false;
  writeShut = false;
  /** The peer sends no more (it shut down writing or closed): end of file once the inbox is drained. */
  peerDone = false;
  /** The peer closed with data unread (a TCP reset): the next recv after the drain, or send, fails with ECONNRESET. */
  resetPending = false;
  /** While listening: connections not accepted yet, at most `backlogLimit`. */
  readonly backlog: StreamSocket[] = [];
  backlogLimit = 0;

  constructor(table: SocketTable, domain: AddressFamily) {
    super(table, domain);
    this.inbox = new ByteQueue(table.memory, this.receiveBuffer);
  }

  override get listening(): boolean {
    return this.state === "listening";
  }

  protected override receiveBufferChanged(bytes: number): void {
    this.inbox.capacity = bytes;
    this.changed();
    this.peer?.changed();
  }

  /** Sends what fits in the peer's buffer; EAGAIN when nothing does. */
  send(data: Uint8Array): number {
    if (this.resetPending) {
      this.resetPending = false;
      throw kerr("ECONNRESET", { syscall: "send" });
    }
    if (this.state !== "connected") throw kerr(this.state === "connecting" ? "EAGAIN" : "ENOTCONN", { syscall: "send" });
    const peer = this.peer;
    if (this.writeShut || !peer) throw kerr("EPIPE", { syscall: "send" });
    if (peer.readShut) return data.length; // Linux accepts and drops what a shut-down reader would get
    if (data.length === 0) return 0;
    const n = peer.inbox.put(data);
    if (n === 0) {
      if (peer.inbox.room > 0) throw kerr("ENOMEM", { syscall: "send", message: "socket buffers reached the VM memory limit" });
      throw kerr("EAGAIN", { syscall: "send" });
    }
    peer.changed();
    return n;
  }

  /** Takes (or with `peek` copies) what is buffered; 0 at end of file; EAGAIN when nothing is there yet. */
  recv(target: Uint8Array, peek = false): number {
    if (this.state === "listening") throw kerr("ENOTCONN", { syscall: "recv" });
    if (this.state === "connecting") throw kerr("EAGAIN", { syscall: "recv" });
    if (this.inbox.length > 0 && !this.readShut) {
      if (target.length === 0) return 0;
      const n = this.inbox.take(target, peek);
      if (!peek) this.peer?.changed(); // its writes have room again
      return n;
    }
    if (this.resetPending) {
      this.resetPending = false;
      throw kerr("ECONNRESET", { syscall: "recv" });
    }
    if (this.readShut || this.peerDone) return 0;
    if (this.state !== "connected") throw kerr("ENOTCONN", { syscall: "recv" });
    if (target.length === 0) return 0;
    throw kerr("EAGAIN", { syscall: "recv" });
  }

  override readiness(op: "read" | "write"): Readiness {
    if (op === "read") {
      if (this.state === "listening") return { ready: this.backlog.length > 0, nbytes: this.backlog.length, hangup: false };
      if (this.state === "connecting") return { ready: false, nbytes: 0, hangup: false };
      if (this.state !== "connected") return { ready: true, nbytes: 0, hangup: false };
      const ready = this.inbox.length > 0 || this.readShut || this.peerDone || this.resetPending;
      return { ready, nbytes: this.inbox.length, hangup: this.peerDone || this.resetPending };
    }
    const peer = this.peer;
    if (this.state === "connecting") return { ready: false, nbytes: 0, hangup: false };
    if (this.state !== "connected" || this.writeShut || this.resetPending || !peer)
      return { ready: true, nbytes: 0, hangup: this.state === "connected" };
    const room = peer.readShut ? Number.MAX_SAFE_INTEGER : peer.inbox.room;
    return { ready: room > 0, nbytes: Math.min(room, 2 ** 31 - 1), hangup: false };
  }

  shutdown(how: number): void {
    if (how !== SHUT.RD && how !== SHUT.WR && how !== SHUT.RDWR) throw kerr("EINVAL", { syscall: "shutdown" });
    if (this.state !== "connected") throw kerr("ENOTCONN", { syscall: "shutdown" });
    if (how !== SHUT.WR && !this.readShut) {
      this.readShut = true;
      this.inbox.clear();
      this.peer?.changed();
    }
    if (how !== SHUT.RD && !this.writeShut) {
      this.writeShut = true;
      if (this.peer) {
        this.peer.peerDone = true;
        this.peer.changed();
      }
    }
    this.changed();
  }

  /** Pairs two sockets as a connection's ends. */
  static connectPair(a: StreamSocket, b: StreamSocket): void {
    a.peer = b;
    b.peer = a;
    a.state = "connected";
    b.state = "connected";
  }

  /** READ: a blocking recv (a NONBLOCK fd is answered EAGAIN before this when nothing is ready). */
  read(target: Uint8Array, signal: AbortSignal): number | Promise<number> {
    return untilDone(this, "read", signal, () => this.recv(target));
  }

  /** WRITE: all of `data`, waiting for room as needed; without `signal`, what fits now. */
  write(data: Uint8Array, signal?: AbortSignal): number | Promise<number> {
    if (!signal) return data.length === 0 ? 0 : this.send(data);
    let off = 0;
    return untilDone(this, "write", signal, () => {
      while (off < data.length) off += this.send(data.subarray(off));
      return data.length;
    });
  }

  override writeNonblocking(data: Uint8Array): number {
    return this.send(data);
  }

  protected teardown(): void {
    // A listener's queued connections were never accepted: their clients see a reset, as on Linux.
    for (const queued of this.backlog.splice(0)) queued.reset();
    const peer = this.peer;
    if (peer) {
      // Closing with data unread sends a TCP reset (Unix stream sockets have none: just end of file).
      if (this.inbox.length > 0 && this.domain !== AF.UNIX) peer.resetPending = true;
      peer.peerDone = true;
      peer.peer = undefined;
      peer.changed();
      this.peer = undefined;
    }
    this.inbox.clear();
  }

  /** Closes a connection no fd holds, resetting its peer. */
  private reset(): void {
    if (this.peer) this.peer.resetPending = true;
    this.abandon();
  }
}

interface Datagram {
  bytes: Uint8Array;
  from: SockAddr;
}

/** A datagram socket (UDP over loopback, or a Unix datagram socket): a bounded queue of whole messages. */
export class DatagramSocket extends Socket {
  readonly filetype = FileType.SOCKET_DGRAM;
  readonly type = SOCK.DGRAM;
  private readonly queue: Datagram[] = [];
  private queuedBytes = 0;
  /** Its default destination once connected: an address (UDP), or a socket (Unix). */
  connectedTo: SockAddr | undefined;
  peer: DatagramSocket | undefined;
  /** Unix sockets connected to this one: told when it has room again or closes. */
  readonly senders = new Set<DatagramSocket>();
  readShut = false;
  writeShut = false;

  /** Makes `to` this socket's default destination (Unix). */
  connectTo(to: DatagramSocket): void {
    this.peer?.senders.delete(this);
    this.peer = to;
    to.senders.add(this);
  }

  /**
   * Queues a datagram. False when it does not fit (the queue is at limits.datagramQueueLength, its bytes
   * at SO_RCVBUF, or the VM's memory is used up) or comes from someone other than its connected peer.
   */
  enqueue(bytes: Uint8Array, from: SockAddr): boolean {
    if (this.readShut || this.closed) return false;
    const c = this.connectedTo;
    if (c && (c.address !== from.address || c.port !== from.port)) return false;
    if (!this.hasRoom() || !this.table.memory.tryTake("pipes", bytes.length)) return false;
    this.queue.push({ bytes: bytes.slice(), from });
    this.queuedBytes += bytes.length;
    this.changed();
    return true;
  }

  /**
   * Room for one more datagram: below the queue's length and below SO_RCVBUF in bytes (one datagram may
   * pass it, as Linux lets it: so a sender waiting for room wakes exactly when a send would succeed).
   */
  hasRoom(): boolean {
    return this.queue.length < this.table.limits.datagramQueueLength && this.queuedBytes < this.receiveBuffer;
  }

  /** The next datagram, cut to `max` bytes; `length` is its whole length. EAGAIN when none is queued. */
  recvfrom(max: number, peek = false): { bytes: Uint8Array; length: number; from: SockAddr } | undefined {
    const d = this.queue[0];
    if (!d) {
      if (this.readShut) return undefined;
      throw kerr("EAGAIN", { syscall: "recvfrom" });
    }
    if (!peek) {
      this.queue.shift();
      this.queuedBytes -= d.bytes.length;
      this.table.memory.give("pipes", d.bytes.length);
      for (const s of this.senders) s.changed(); // a connected Unix sender has room again
    }
    return { bytes: d.bytes.subarray(0, max), length: d.bytes.length, from: d.from };
  }

  override readiness(op: "read" | "write"): Readiness {
    if (op === "read") return { ready: this.queue.length > 0 || this.readShut, nbytes: this.queue[0]?.bytes.length ?? 0, hangup: false };
    // Only a connected Unix sender waits for room (UDP drops instead).
    const peer = this.peer;
    return { ready: !peer || peer.closed || this.writeShut || peer.hasRoom(), nbytes: 0, hangup: false };
  }

  shutdown(how: number): void {
    if (how !== SHUT.RD && how !== SHUT.WR && how !== SHUT.RDWR) throw kerr("EINVAL", { syscall: "shutdown" });
    if (!this.connectedTo && !this.peer) throw kerr("ENOTCONN", { syscall: "shutdown" });
    if (how !== SHUT.WR) this.readShut = true;
    if (how !== SHUT.RD) this.writeShut = true;
    this.changed();
  }

  read(target: Uint8Array, signal: AbortSignal): number | Promise<number> {
    return untilDone(this, "read", signal, () => {
      const d = this.recvfrom(target.length);
      if (!d) return 0;
      target.set(d.bytes);
      return d.bytes.length;
    });
  }

  write(data: Uint8Array, signal?: AbortSignal): number | Promise<number> {
    if (!signal) return this.table.sendto(this, data, undefined);
    return untilDone(this, "write", signal, () => this.table.sendto(this, data, undefined));
  }

  override writeNonblocking(data: Uint8Array): number {
    return this.table.sendto(this, data, undefined);
  }

  protected teardown(): void {
    for (const d of this.queue.splice(0)) this.table.memory.give("pipes", d.bytes.length);
    this.queuedBytes = 0;
    this.peer?.senders.delete(this);
    this.peer = undefined;
    for (const s of [...this.senders]) s.changed();
    this.senders.clear();
  }
}
