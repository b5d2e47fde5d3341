import type { Duplex } from "node:stream";
import { Errno } from "../abi/errno.js";
import { SHUT } from "../abi/net.js";
import type { Verdict } from "../net/policy.js";
import type { VmNetwork } from "../net/vm-network.js";
import { KernelError } from "./kernel-error.js";
import { StreamSocket } from "./socket.js";
import type { SocketTable } from "./socket-table.js";

/** What one move from the guest to the host takes at most. */
const OUT_CHUNK = 64 * 1024;

/** A host socket's failure as the errno a guest's connect or recv reports. */
function errnoOfHost(e: unknown): number {
  const code = (e as { code?: string }).code;
  if (code === "ETIMEDOUT") return Errno.ETIMEDOUT;
  if (code === "EHOSTUNREACH") return Errno.EHOSTUNREACH;
  if (code === "ENETUNREACH") return Errno.ENETUNREACH;
  return Errno.ECONNREFUSED;
}

/**
 * The far end of an outbound TCP connection: a kernel stream socket (`inner`) paired with the guest's
 * (`outer`), whose bytes are carried to and from a host net.Socket. Back-pressure holds both ways with
 * nothing unbounded in between: the guest's sends fill `inner`'s bounded inbox, which is moved out only while
 * the host socket takes writes (below its high-water mark, else it waits for 'drain'); the host's chunks go into `outer`'s bounded inbox,
 * and the host socket is paused while one does not fit (so at most one read chunk waits here, counted against
 * the VM's memory as socket buffers are).
 */
export class ExternalPeer {
  private readonly inner: StreamSocket;
  private host: Duplex | undefined;
  private pending: Buffer | undefined;
  private draining = false;
  private hostEnded = false;
  private sentEnd = false;
  private done = false;
  private open = false;
  /** Bytes of `pending` taken from the VM's memory account. */
  private pendingHeld = 0;
  private readonly landing = new Uint8Array(OUT_CHUNK);
  private unwatchInner: () => void = () => {};
  private unwatchOuter: () => void = () => {};

  constructor(
    private readonly table: SocketTable,
    private readonly outer: StreamSocket,
    private readonly address: string,
    private readonly port: number,
    private readonly network: VmNetwork,
    verdict: Verdict | Promise<Verdict>,
    names: readonly string[],
    private readonly onDone: (peer: ExternalPeer) => void,
  ) {
    this.inner = new StreamSocket(table, outer.domain);
    this.inner.retain();
    outer.state = "connecting";
    this.unwatchOuter = outer.watchReadiness(() => {
      if (outer.closed && outer.state !== "connected") this.finish();
    });
    if (verdict === true) this.dial();
    else
      void Promise.resolve(verdict).then((v) => {
        if (this.done) return;
        if (v === true) return this.dial();
        this.network.deny({ kind: "connect", host: names.join(", ") || undefined, address, port, reason: v, pid: outer.pid });
        this.fail(Errno.ECONNREFUSED);
      });
  }

  /** It has closed (the host socket is gone, or never came). */
  get ended(): boolean {
    return this.done && (this.host === undefined || this.host.destroyed);
  }

  private dial(): void {
    let host: Duplex;
    try {
      host = this.network.dial(this.address, this.port);
    } catch (e) {
      return this.fail(errnoOfHost(e));
    }
    this.host = host;
    host.once("connect", () => this.connected());
    host.on("error", (e) => this.hostFailed(e));
    host.on("close", () => this.hostClosed());
    host.on("end", () => {
      this.hostEnded = true;
      this.pumpIn();
    });
    host.on("data", (chunk: Buffer) => {
      if (this.done) return void host.destroy(); // data for a socket the guest closed: a reset, as Linux sends
      this.network.stats.bytesReceived += chunk.length;
      if (this.network.bytesUsedUp(this.table.limits)) return this.overLimit();
      // The chunk waits here until the guest's buffer takes it: counted against the VM like socket buffers.
      if (!this.table.memory.tryTake("pipes", chunk.length)) return this.abort();
      this.pendingHeld += chunk.length;
      this.pending = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
      this.pumpIn();
    });
    host.pause();
  }

  private connected(): void {
    if (this.done) return;
    const { outer, inner } = this;
    this.open = true;
    this.network.stats.connections++;
    this.network.stats.connectionsTotal++;
    inner.local = outer.peerAddr ? { ...outer.peerAddr } : undefined;
    inner.peerAddr = outer.local ? { ...outer.local } : undefined;
    StreamSocket.connectPair(outer, inner);
    this.unwatchOuter();
    this.unwatchInner = inner.watchReadiness(() => {
      this.pumpOut();
      this.pumpIn();
    });
    outer.changed();
    this.host!.resume();
  }

  /** The connection did not come about: the guest's connect (or SO_ERROR) reports `errno`. */
  private fail(errno: number): void {
    if (this.done) return;
    const { outer } = this;
    if (!outer.closed && outer.state === "connecting") {
      outer.state = "bound";
      outer.connectError = errno;
      outer.changed();
    }
    this.finish();
  }

  private hostFailed(e: unknown): void {
    if (this.outer.state === "connecting") return this.fail(errnoOfHost(e));
    // A reset by the remote: the guest's next recv (after what it has) or send says ECONNRESET.
    if (this.inner.peer) this.inner.peer.resetPending = true;
    this.finish();
  }

  private hostClosed(): void {
    if (this.outer.state === "connecting") return this.fail(Errno.ECONNREFUSED);
    this.hostEnded = true;
    if (!this.pending) this.finish();
  }

  /** Host → guest: what fits in the guest's receive buffer; the host socket pauses while the rest waits. */
  private pumpIn(): void {
    if (this.done || this.outer.state === "connecting") return;
    const inner = this.inner;
    while (this.pending) {
      let n: number;
      try {
        n = inner.send(this.pending);
      } catch (e) {
        if (e instanceof KernelError && e.errno === Errno.EAGAIN) break;
        return this.abort();
      }
      this.pending = n < this.pending.length ? this.pending.subarray(n) : undefined;
      this.giveBack(n);
    }
    if (this.pending) {
      this.host?.pause();
      return;
    }
    if (this.hostEnded) {
      if (!this.sentEnd && inner.state === "connected" && !inner.writeShut) inner.shutdown(SHUT.WR);
      this.sentEnd = true;
      if (this.host?.destroyed !== false) this.finish();
      return;
    }
    this.host?.resume();
  }

  /** Guest → host: moves the guest's bytes while the host socket takes them; waits for 'drain' when it does not. */
  private pumpOut(): void {
    const { inner, host } = this;
    if (this.done || this.draining || !host || host.destroyed) return;
    for (;;) {
      let n: number;
      try {
        n = inner.recv(this.landing);
      } catch (e) {
        if (e instanceof KernelError && e.errno === Errno.EAGAIN) return;
        host.destroy(); // the guest closed with unread data: a reset
        return this.finish();
      }
      if (n === 0) {
        if (!host.writableEnded) {
          // The guest shut down writing (FIN), or closed: once closed, nobody reads any more.
          if (inner.peer) host.end();
          else host.end(() => host.destroy());
        }
        if (!inner.peer) this.release();
        return;
      }
      this.network.stats.bytesSent += n;
      if (this.network.bytesUsedUp(this.table.limits)) return this.overLimit();
      if (!host.write(Buffer.from(this.landing.subarray(0, n)))) {
        this.draining = true;
        host.once("drain", () => {
          this.draining = false;
          this.pumpOut();
        });
        return;
      }
    }
  }

  /** The guest's socket went with the connection not made, or the VM is going: everything closes. */
  close(): void {
    this.host?.destroy();
    this.finish();
  }

  /** limits.maxNetworkBytes is reached: the connection is reset (the guest's next recv or send: ECONNRESET). */
  private overLimit(): void {
    this.network.deny({ kind: "connect", address: this.address, port: this.port, reason: "limit reached", pid: this.outer.pid });
    if (this.inner.peer) this.inner.peer.resetPending = true;
    this.inner.peer?.changed();
    this.abort();
  }

  private abort(): void {
    this.host?.destroy();
    this.finish();
  }

  private finish(): void {
    if (this.host && !this.host.destroyed && (this.outer.state === "connecting" || this.outer.closed)) this.host.destroy();
    this.release();
  }

  private giveBack(n: number): void {
    const k = Math.min(n, this.pendingHeld);
    this.pendingHeld -= k;
    this.table.memory.give("pipes", k);
  }

  private release(): void {
    if (this.done) return;
    this.done = true;
    this.pending = undefined;
    this.giveBack(this.pendingHeld);
    if (this.open) this.network.stats.connections--;
    this.unwatchInner();
    this.unwatchOuter();
    this.inner.release();
    // A host socket still sending what the guest wrote before it closed stays counted until it closes (dispose ends it).
    const host = this.host;
    if (host && !host.destroyed) host.once("close", () => this.onDone(this));
    else this.onDone(this);
  }
}
