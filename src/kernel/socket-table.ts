import { AF, EPHEMERAL_FIRST, EPHEMERAL_LAST, MAX_UDP_PAYLOAD_V4, MAX_UDP_PAYLOAD_V6, SOCK, type AddressFamily } from "../abi/net.js";
import { DEFAULT_LISTEN_BACKLOG, type Limits } from "../limits.js";
import type { DenialReason } from "../net/policy.js";
import type { VmNetwork } from "../net/vm-network.js";
import { ExternalPeer } from "./external-peer.js";
import { HostSocket } from "./host-socket.js";
import { kerr } from "./kernel-error.js";
import type { MemoryBudget } from "./memory-budget.js";
import { DatagramSocket, Socket, StreamSocket } from "./socket.js";
import {
  coverOf,
  coversOverlap,
  isLoopback,
  isWildcard,
  loopbackFor,
  matchOf,
  parseIp,
  shownAs,
  type IpAddress,
  type SockAddr,
} from "./socket-address.js";
import type { Vfs } from "./vfs.js";

type Proto = "tcp" | "udp";

/** A bound listening (or, for UDP, bound) socket, as the host API lists it. */
export interface ListenerInfo {
  pid: number;
  proto: "tcp" | "udp" | "unix";
  address: string;
  port: number;
}

/** Where a call's address goes: an IP address and port, or (Unix) an absolute VFS path. */
export type Destination = { address: string; port: number } | { path: string };

/**
 * One VM's network: its own loopback namespace (two VMs can both listen on 3000), with TCP and UDP over
 * 127.0.0.0/8 and ::1 (wildcard binds, a dual-stack `::`), and Unix sockets bound to socket files of the
 * VFS. A TCP connection to any other address leaves the VM only if the VM's network policy allows it
 * (src/net/policy.ts): it then gets a host socket as its peer (external-peer.ts); a refused one is
 * ECONNREFUSED at once. UDP does not leave the VM. Binding elsewhere than the VM's own addresses is EADDRNOTAVAIL.
 *
 * It counts every socket (limits.maxSockets), owns the port and path bindings, and routes connections and
 * datagrams; the sockets themselves (socket.ts) hold the data.
 */
export class SocketTable {
  private readonly sockets = new Set<Socket>();
  private readonly ports: Record<Proto, Map<number, Socket[]>> = { tcp: new Map(), udp: new Map() };
  /** Socket file node → the socket bound to it. The file outlives the socket, as on Linux. */
  private readonly unixBound = new Map<object, Socket>();
  private nextEphemeral = EPHEMERAL_FIRST;
  private readonly hostEnds = new Set<HostSocket>();
  private readonly external = new Set<ExternalPeer>();
  private readonly listenWatchers = new Set<() => void>();
  private disposed = false;

  constructor(
    readonly vfs: Vfs,
    readonly memory: MemoryBudget,
    readonly limits: Limits,
    readonly network: VmNetwork,
  ) {}

  /** Sockets open in the VM (fds, host ends and unaccepted connections). */
  get size(): number {
    return this.sockets.size;
  }

  /** Called by each new socket: EMFILE past limits.maxSockets. */
  adopt(s: Socket): void {
    if (this.disposed) throw kerr("EPERM", { syscall: "socket", message: "VM disposed" });
    if (this.sockets.size >= this.limits.maxSockets)
      throw kerr("EMFILE", { syscall: "socket", message: `too many sockets (maxSockets ${this.limits.maxSockets})` });
    this.sockets.add(s);
  }

  /** Called by a socket as it closes: its binding goes (a Unix socket's file stays). */
  forget(s: Socket): void {
    this.sockets.delete(s);
    if (s.cover && s.local) {
      const proto = protoOf(s);
      const list = this.ports[proto].get(s.local.port);
      const i = list?.indexOf(s) ?? -1;
      if (i >= 0) list!.splice(i, 1);
      if (list?.length === 0) this.ports[proto].delete(s.local.port);
    }
    if (s.unixNode && this.unixBound.get(s.unixNode) === s) this.unixBound.delete(s.unixNode);
  }

  create(domain: number, type: number): Socket {
    if (domain !== AF.INET && domain !== AF.INET6 && domain !== AF.UNIX) throw kerr("EAFNOSUPPORT", { syscall: "socket" });
    const base = type & SOCK.TYPE_MASK;
    if (base === SOCK.STREAM) return new StreamSocket(this, domain);
    if (base === SOCK.DGRAM) return new DatagramSocket(this, domain);
    throw kerr("EINVAL", { syscall: "socket", message: `socket type ${base} not supported` });
  }

  /** Two connected Unix sockets (SOCKETPAIR). */
  pair(type: number): [Socket, Socket] {
    const a = this.create(AF.UNIX, type);
    let b: Socket;
    try {
      b = this.create(AF.UNIX, type);
    } catch (e) {
      a.abandon();
      throw e;
    }
    const unnamed = { family: AF.UNIX, address: "", port: 0 } as const;
    for (const s of [a, b]) {
      s.local = { ...unnamed };
      s.peerAddr = { ...unnamed };
    }
    if (a instanceof StreamSocket && b instanceof StreamSocket) StreamSocket.connectPair(a, b);
    else if (a instanceof DatagramSocket && b instanceof DatagramSocket) {
      a.connectTo(b);
      b.connectTo(a);
    }
    return [a, b];
  }

  bind(s: Socket, to: Destination): number {
    if (s.local) throw kerr("EINVAL", { syscall: "bind", message: "socket already bound" });
    if ("path" in to) {
      if (s.domain !== AF.UNIX) throw kerr("EAFNOSUPPORT", { syscall: "bind" });
      let node: object;
      try {
        node = this.vfs.mksock(to.path);
      } catch (e) {
        throw (e as { code?: string }).code === "EEXIST" ? kerr("EADDRINUSE", { syscall: "bind", path: to.path }) : e;
      }
      s.unixNode = node;
      s.local = { family: AF.UNIX, address: to.path, port: 0 };
      this.unixBound.set(node, s);
      this.bound(s);
      return 0;
    }
    if (s.domain === AF.UNIX) throw kerr("EINVAL", { syscall: "bind" });
    const ip = parseIp(s.domain, to.address, "bind");
    if (!isLoopback(ip) && !isWildcard(ip)) throw kerr("EADDRNOTAVAIL", { syscall: "bind", message: `${to.address} is not an address of the VM` });
    if (to.port < 0 || to.port > 65535) throw kerr("EINVAL", { syscall: "bind" });
    this.bindIp(s, ip, to.port);
    return s.local!.port;
  }

  private bindIp(s: Socket, ip: IpAddress, port: number): void {
    const cover = coverOf(ip, s.v6only);
    const proto = protoOf(s);
    const taken = (p: number): boolean => (this.ports[proto].get(p) ?? []).some((o) => coversOverlap(o.cover!, cover));
    if (port === 0) port = this.ephemeral(taken);
    else if (taken(port)) throw kerr("EADDRINUSE", { syscall: "bind", message: `address already in use ${ip.text}:${port}` });
    s.cover = cover;
    s.local = { family: s.domain, address: ip.text, port };
    const list = this.ports[proto].get(port);
    if (list) list.push(s);
    else this.ports[proto].set(port, [s]);
    this.bound(s);
  }

  private bound(s: Socket): void {
    if (s instanceof StreamSocket && s.state === "unbound") s.state = "bound";
  }

  /** The next free port of 49152–65535 (EADDRINUSE when none is). */
  private ephemeral(taken: (port: number) => boolean): number {
    for (let i = 0; i <= EPHEMERAL_LAST - EPHEMERAL_FIRST; i++) {
      const port = this.nextEphemeral;
      this.nextEphemeral = port === EPHEMERAL_LAST ? EPHEMERAL_FIRST : port + 1;
      if (!taken(port)) return port;
    }
    throw kerr("EADDRINUSE", { syscall: "bind", message: "no ephemeral port left" });
  }

  /** Binds an unbound inet socket to the loopback (or, for listen, the wildcard) of `ip`'s family, any port. */
  private autobind(s: Socket, toward: IpAddress | undefined): void {
    if (s.local || s.domain === AF.UNIX) return;
    const v4 = toward ? toward.v4 !== undefined : s.domain === AF.INET;
    const any = toward === undefined;
    const text = any ? (s.domain === AF.INET ? "0.0.0.0" : "::") : v4 ? "127.0.0.1" : "::1";
    this.bindIp(s, parseIp(s.domain, text, "bind"), 0);
  }

  listen(s: Socket, backlog: number, pid: number): void {
    if (!(s instanceof StreamSocket)) throw kerr("ENOTSUP", { syscall: "listen" });
    if (s.state === "connected") throw kerr("EINVAL", { syscall: "listen" });
    if (s.domain === AF.UNIX && !s.local) throw kerr("EINVAL", { syscall: "listen", message: "Unix socket not bound" });
    this.autobind(s, undefined);
    s.backlogLimit = Math.max(1, Math.min(backlog > 0 ? backlog : DEFAULT_LISTEN_BACKLOG, this.limits.maxListenBacklog));
    s.state = "listening";
    s.pid = pid;
    for (const w of [...this.listenWatchers]) w();
  }

  /** The next queued connection of listener `l`; EAGAIN when none is. */
  accept(l: Socket): StreamSocket {
    if (!(l instanceof StreamSocket)) throw kerr("ENOTSUP", { syscall: "accept" });
    if (l.state !== "listening") throw kerr("EINVAL", { syscall: "accept" });
    const s = l.backlog.shift();
    if (!s) throw kerr("EAGAIN", { syscall: "accept" });
    return s;
  }

  /** Puts back a connection the caller could not take (no fd left for it). */
  requeue(l: StreamSocket, s: StreamSocket): void {
    if (l.state === "listening" && !l.closed) l.backlog.unshift(s);
    else s.abandon();
  }

  connect(s: Socket, to: Destination): void {
    if (s instanceof DatagramSocket) return this.connectDatagram(s, to);
    const c = s as StreamSocket;
    if (c.state === "connected") throw kerr("EISCONN", { syscall: "connect" });
    if (c.state === "connecting") throw kerr("EALREADY", { syscall: "connect" });
    if (c.state === "listening") throw kerr("EINVAL", { syscall: "connect" });
    let listener: StreamSocket | undefined;
    let reached: IpAddress | undefined;
    const port = "port" in to ? to.port : 0;
    if ("path" in to) {
      if (c.domain !== AF.UNIX) throw kerr("EAFNOSUPPORT", { syscall: "connect" });
      const bound = this.unixBound.get(this.vfs.socketNode(to.path));
      if (bound && !(bound instanceof StreamSocket)) throw kerr("EPROTOTYPE", { syscall: "connect", path: to.path });
      listener = bound?.listening ? (bound as StreamSocket) : undefined;
      if (!listener) throw kerr("ECONNREFUSED", { syscall: "connect", path: to.path });
    } else {
      if (c.domain === AF.UNIX) throw kerr("EAFNOSUPPORT", { syscall: "connect" });
      const ip = loopbackFor(parseIp(c.domain, to.address, "connect"));
      if (!isLoopback(ip)) return this.connectOut(c, ip, to.port);
      reached = this.routable(c, to, "connect");
      listener = this.find("tcp", reached, to.port, (o) => o.listening) as StreamSocket | undefined;
      if (!listener) throw kerr("ECONNREFUSED", { syscall: "connect", message: `connection refused ${to.address}:${to.port}` });
    }
    if (listener.backlog.length >= listener.backlogLimit) throw kerr("ECONNREFUSED", { syscall: "connect", message: "the listener's backlog is full" });
    const server = new StreamSocket(this, listener.domain);
    if (listener.receiveBuffer !== server.inbox.capacity) server.inbox.capacity = listener.receiveBuffer;
    if (reached) {
      this.autobind(c, reached);
      server.local = { family: listener.domain, address: shownAs(listener.domain, reached), port };
      const from = loopbackFor(parseIp(c.domain, c.local!.address, "connect")); // a wildcard-bound client speaks from the loopback
      server.peerAddr = { family: listener.domain, address: shownAs(listener.domain, from), port: c.local!.port };
      c.peerAddr = { family: c.domain, address: reached.text, port };
    } else {
      server.local = { ...listener.local! };
      server.peerAddr = c.local ? { ...c.local } : { family: AF.UNIX, address: "", port: 0 };
      c.peerAddr = { ...listener.local! };
    }
    StreamSocket.connectPair(c, server);
    listener.backlog.push(server);
    listener.changed();
  }

  /**
   * An outbound connection: refused at once (ECONNREFUSED, the denial recorded) unless the policy allows it
   * or has yet to answer (a function form's promise); then the socket is "connecting" until the host socket
   * connects or fails (CONNECT parks, or says EINPROGRESS; SO_ERROR tells how it ended).
   */
  private connectOut(c: StreamSocket, ip: IpAddress, port: number): void {
    if (port <= 0 || port > 65535) throw kerr(port === 0 ? "ECONNREFUSED" : "EINVAL", { syscall: "connect" });
    const address = ip.v4 !== undefined ? ip.v4 : ip.text;
    const names = this.network.resolver.namesOf(address);
    const refuse = (reason: DenialReason): never => {
      this.network.deny({ kind: "connect", host: names.join(", ") || undefined, address, port, reason, pid: c.pid });
      throw kerr("ECONNREFUSED", { syscall: "connect", message: `connection refused ${address}:${port} (network policy: ${reason})` });
    };
    const off = this.network.offReason();
    if (off) return refuse(off);
    if (this.external.size >= this.limits.maxNetworkConnections || this.network.bytesUsedUp(this.limits)) return refuse("limit reached");
    const verdict = this.network.policy.connect(address, port, names, "tcp", c.pid);
    if (verdict !== true && !(verdict instanceof Promise)) return refuse(verdict);
    this.autobind(c, ip);
    c.peerAddr = { family: c.domain, address: ip.text, port };
    const peer = new ExternalPeer(this, c, address, port, this.network, verdict, names, (p) => this.external.delete(p));
    if (!peer.ended) this.external.add(peer);
  }

  private connectDatagram(s: DatagramSocket, to: Destination): void {
    if ("path" in to) {
      s.connectTo(this.unixDatagramPeer(s, to.path, "connect"));
      s.peerAddr = { family: AF.UNIX, address: to.path, port: 0 };
      return;
    }
    const ip = this.routable(s, to, "connect");
    this.autobind(s, ip);
    s.connectedTo = { family: s.domain, address: ip.text, port: to.port };
    s.peerAddr = s.connectedTo;
  }

  private unixDatagramPeer(s: Socket, path: string, syscall: string): DatagramSocket {
    if (s.domain !== AF.UNIX) throw kerr("EAFNOSUPPORT", { syscall });
    const bound = this.unixBound.get(this.vfs.socketNode(path));
    if (!bound) throw kerr("ECONNREFUSED", { syscall, path });
    if (!(bound instanceof DatagramSocket)) throw kerr("EPROTOTYPE", { syscall, path });
    return bound;
  }

  /** The loopback address `to` reaches (a wildcard reaches the loopback); ECONNREFUSED (a denial: UDP does not leave the VM) for any other. */
  private routable(s: Socket, to: { address: string; port: number }, syscall: string): IpAddress {
    if (s.domain === AF.UNIX) throw kerr("EAFNOSUPPORT", { syscall });
    const ip = loopbackFor(parseIp(s.domain, to.address, syscall));
    if (!isLoopback(ip)) {
      const reason = this.network.offReason() ?? "not allowed";
      this.network.deny({ kind: "send", address: ip.v4 ?? ip.text, port: to.port, reason, pid: s.pid });
      throw kerr("ECONNREFUSED", { syscall, message: `connection refused ${to.address}:${to.port} (network policy: ${reason}; UDP does not leave the VM)` });
    }
    if (to.port <= 0 || to.port > 65535) throw kerr(to.port === 0 ? "ECONNREFUSED" : "EINVAL", { syscall });
    return ip;
  }

  /** The socket bound to `port` that receives for `ip`: an exact address before a wildcard. */
  private find(proto: Proto, ip: IpAddress, port: number, usable: (s: Socket) => boolean): Socket | undefined {
    let best: Socket | undefined;
    let score = 0;
    for (const s of this.ports[proto].get(port) ?? []) {
      const m = usable(s) ? matchOf(s.cover!, ip) : 0;
      if (m > score) {
        best = s;
        score = m;
      }
    }
    return best;
  }

  /**
   * Sends one datagram to `to`, or to the connected peer (undefined). UDP never waits: a datagram nobody
   * is bound to receive, or that finds the queue full, is dropped and the send still succeeds. A Unix
   * sender connected to a full socket gets EAGAIN (it waits on its write readiness).
   */
  sendto(s: DatagramSocket, data: Uint8Array, to: Destination | undefined): number {
    if (s.closed) throw kerr("EBADF", { syscall: "sendto" });
    if (s.writeShut) throw kerr("EPIPE", { syscall: "sendto" });
    if (s.domain === AF.UNIX) {
      const target = to ? ("path" in to ? this.unixDatagramPeer(s, to.path, "sendto") : undefined) : s.peer;
      if (!target) throw kerr(to ? "EINVAL" : "ENOTCONN", { syscall: "sendto" });
      if (target.closed) throw kerr("ECONNREFUSED", { syscall: "sendto" });
      if (data.length > target.receiveBuffer) throw kerr("EMSGSIZE", { syscall: "sendto" });
      const from = s.local ?? { family: AF.UNIX, address: "", port: 0 };
      // Only a connected sender waits; a datagram sent to a path that finds the queue full is dropped.
      if (!to && !target.hasRoom()) throw kerr("EAGAIN", { syscall: "sendto" });
      target.enqueue(data, from);
      return data.length;
    }
    let ip: IpAddress;
    let port: number;
    if (to && "address" in to) {
      const v4 = parseIp(s.domain, to.address, "sendto").v4 !== undefined;
      if (data.length > (v4 ? MAX_UDP_PAYLOAD_V4 : MAX_UDP_PAYLOAD_V6)) throw kerr("EMSGSIZE", { syscall: "sendto" });
      ip = this.routable(s, to, "sendto");
      port = to.port;
    } else if (s.connectedTo) {
      ip = parseIp(s.domain, s.connectedTo.address, "sendto");
      if (data.length > (ip.v4 !== undefined ? MAX_UDP_PAYLOAD_V4 : MAX_UDP_PAYLOAD_V6)) throw kerr("EMSGSIZE", { syscall: "sendto" });
      port = s.connectedTo.port;
    } else throw kerr(to ? "EINVAL" : "ENOTCONN", { syscall: "sendto" });
    this.autobind(s, ip);
    const target = this.find("udp", ip, port, (o) => !o.closed) as DatagramSocket | undefined;
    if (target) {
      const me = parseIp(s.domain, s.local!.address === "0.0.0.0" || s.local!.address === "::" ? loopbackFor(ip).text : s.local!.address, "sendto");
      target.enqueue(data, { family: target.domain, address: shownAs(target.domain, me), port: s.local!.port });
    }
    return data.length;
  }

  /**
   * A stream socket end the host holds (vm.fetch / vm.connect), connected to the guest listening on
   * `port` of the loopback (127.0.0.1, else ::1) or on the Unix socket at `path`. ECONNREFUSED when
   * nobody listens there.
   */
  connectHost(target: number | string): HostSocket {
    const unix = typeof target === "string";
    const s = new StreamSocket(this, unix ? AF.UNIX : AF.INET6);
    s.retain();
    try {
      if (unix) this.connect(s, { path: target });
      else {
        const v4 = this.find("tcp", parseIp(AF.INET6, "127.0.0.1", "connect"), target, (o) => o.listening);
        this.connect(s, { address: v4 ? "127.0.0.1" : "::1", port: target });
      }
    } catch (e) {
      s.release();
      throw e;
    }
    const end = new HostSocket(s, () => this.hostEnds.delete(end));
    this.hostEnds.add(end);
    return end;
  }

  /** The bound listening stream sockets and bound datagram sockets of the VM. */
  listeners(): ListenerInfo[] {
    const out: ListenerInfo[] = [];
    for (const [proto, map] of Object.entries(this.ports) as [Proto, Map<number, Socket[]>][])
      for (const list of map.values())
        for (const s of list) if (proto === "udp" || s.listening) out.push({ pid: s.pid, proto, address: s.local!.address, port: s.local!.port });
    for (const s of this.unixBound.values()) if (s.listening) out.push({ pid: s.pid, proto: "unix", address: s.local!.address, port: 0 });
    return out;
  }

  /**
   * Resolves with the TCP listener on `port` once there is one (at once if there is): woken by each
   * listen, never polled. Rejects with ETIMEDOUT after `timeoutMs` (Infinity: never), and when the VM is disposed.
   */
  waitForListener(port: number, timeoutMs: number): Promise<ListenerInfo> {
    const now = (): ListenerInfo | undefined => this.listeners().find((l) => l.proto === "tcp" && l.port === port);
    const found = now();
    if (found) return Promise.resolve(found);
    if (this.disposed) return Promise.reject(kerr("EPERM", { syscall: "listen", message: "VM disposed" }));
    return new Promise((resolve, reject) => {
      const finish = (): void => {
        clearTimeout(timer);
        this.listenWatchers.delete(check);
      };
      const check = (): void => {
        const l = this.disposed ? undefined : now();
        if (!l && !this.disposed) return;
        finish();
        if (l) resolve(l);
        else reject(kerr("EPERM", { syscall: "listen", message: "VM disposed" }));
      };
      // Infinity waits for a listener or the VM's end only; a longer wait than a timer takes is capped to one.
      const timer = Number.isFinite(timeoutMs)
        ? setTimeout(() => {
            finish();
            reject(kerr("ETIMEDOUT", { syscall: "listen", message: `nothing listens on port ${port}` }));
          }, Math.min(timeoutMs, 2 ** 31 - 1))
        : undefined;
      this.listenWatchers.add(check);
    });
  }

  /**
   * The VM is going (its processes have exited, so their sockets closed): closes the host's ends, ends
   * every wait, and closes whatever is left.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const w of [...this.listenWatchers]) w();
    for (const end of [...this.hostEnds]) end.close();
    for (const peer of [...this.external]) peer.close();
    for (const s of [...this.sockets]) s.forceClose();
  }
}

const protoOf = (s: Socket): Proto => (s.type === SOCK.STREAM ? "tcp" : "udp");

export type { AddressFamily, SockAddr };
