import { Errno, errnoName } from "../src/abi/errno.js";
import { AF, SOCK } from "../src/abi/net.js";
import { packFields, unpackFields } from "../src/abi/channel.js";
import { EventType } from "../src/abi/wasi.js";
import { Sys } from "../src/abi/syscalls.js";
import { SysError, type System } from "./system.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** An address as the kernel takes it: a numeric IP address (or a Unix socket's path) and a port. */
export interface NetAddress {
  family: number;
  address: string;
  port: number;
}

/**
 * The kernel's socket calls (Sys.SOCKET … Sys.RESOLVE) for the runtime's own commands (nc), synchronous as a
 * C program's: each failure throws a SysError with the errno's name.
 */
export class ScriptNet {
  constructor(private readonly sys: System) {}

  private check(err: number): void {
    if (err !== Errno.SUCCESS) throw new SysError(errnoName(err));
  }

  private get k() {
    return this.sys.k;
  }

  socket(family: number, type: number): number {
    this.check(this.k.call(Sys.SOCKET, [family, type]));
    return this.k.out(0);
  }

  bind(fd: number, a: { address: string; port: number }): number {
    this.check(this.k.callWith(Sys.BIND, [fd, a.port], encoder.encode(a.address)));
    return this.k.out(0);
  }

  listen(fd: number, backlog = 0): void {
    this.check(this.k.call(Sys.LISTEN, [fd, backlog]));
  }

  /** The new connection's fd and its peer. Parks until one is queued. */
  accept(fd: number): { fd: number; peer: NetAddress } {
    this.check(this.k.call(Sys.ACCEPT, [fd, 0]));
    return { fd: this.k.out(0), peer: { port: this.k.out(1), family: this.k.out(2), address: decoder.decode(this.k.data.subarray(0, this.k.channel.replyLength)) } };
  }

  /** connect; with a NONBLOCK socket it may answer EINPROGRESS (then poll for writing and read SO_ERROR). */
  connect(fd: number, a: { address: string; port: number }): void {
    this.check(this.k.callWith(Sys.CONNECT, [fd, a.port], encoder.encode(a.address)));
  }

  /** Sends all of `data` (parking while the peer's buffer is full). */
  send(fd: number, data: Uint8Array): void {
    for (let off = 0; off < data.length; ) {
      const n = Math.min(data.length - off, this.k.data.length);
      this.k.data.set(data.subarray(off, off + n));
      this.check(this.k.call(Sys.SEND, [fd, 0x4000 /* MSG_NOSIGNAL */], n));
      off += this.k.out(0);
    }
  }

  /** Up to `max` bytes; empty at end of file. Parks until data or end of file. */
  recv(fd: number, max = this.k.data.length): Uint8Array {
    this.check(this.k.call(Sys.RECV, [fd, Math.min(max, this.k.data.length), 0]));
    return this.k.data.slice(0, this.k.channel.replyLength);
  }

  sendTo(fd: number, to: { address: string; port: number }, data: Uint8Array): void {
    const n = packFields(this.k.data, [encoder.encode(to.address), data]);
    this.check(this.k.call(Sys.SENDTO, [fd, to.port, 0], n));
  }

  /** A datagram and its sender. Parks until one arrives. */
  recvFrom(fd: number, max = 65536): { data: Uint8Array; from: NetAddress } {
    this.check(this.k.call(Sys.RECVFROM, [fd, max, 0]));
    const [address, bytes] = unpackFields(this.k.data, this.k.channel.replyLength);
    return { data: bytes ?? new Uint8Array(), from: { port: this.k.out(0), family: this.k.out(2), address: decoder.decode(address) } };
  }

  shutdown(fd: number, how: number): void {
    this.check(this.k.call(Sys.SHUTDOWN, [fd, how]));
  }

  /** The socket's own address (peer false) or its peer's. */
  name(fd: number, peer = false): NetAddress {
    this.check(this.k.call(peer ? Sys.GETPEERNAME : Sys.GETSOCKNAME, [fd]));
    return { port: this.k.out(0), family: this.k.out(1), address: decoder.decode(this.k.data.subarray(0, this.k.channel.replyLength)) };
  }

  getOption(fd: number, level: number, name: number): number {
    this.check(this.k.call(Sys.GETSOCKOPT, [fd, level, name]));
    return this.k.out(0);
  }

  /** A host name's addresses through the VM's resolver and network policy (family 0: both). */
  resolve(name: string, family: 0 | 4 | 6): NetAddress[] {
    this.check(this.k.callWith(Sys.RESOLVE, [family], encoder.encode(name)));
    return decoder
      .decode(this.k.data.subarray(0, this.k.channel.replyLength))
      .split("\n")
      .filter((l) => l !== "")
      .map((line) => {
        const [fam, address] = line.split(" ") as [string, string];
        return { family: fam === "6" ? AF.INET6 : AF.INET, address, port: 0 };
      });
  }

  /**
   * Waits until one of `fds` is ready for reading (or writing, where `write` says so), or `timeoutMs` passes
   * (undefined: no limit). Answers each fd's readiness (ready, hang-up), all false on a timeout.
   */
  poll(fds: ReadonlyArray<{ fd: number; write?: boolean }>, timeoutMs?: number): Array<{ ready: boolean; hangup: boolean }> {
    const view = this.k.channel.view;
    fds.forEach(({ fd, write }, i) => {
      view.setUint32(i * 8, fd, true);
      view.setUint32(i * 8 + 4, write ? EventType.FD_WRITE : EventType.FD_READ, true);
    });
    const ns = BigInt(Math.max(0, Math.round((timeoutMs ?? 0) * 1e6)));
    this.check(this.k.call(Sys.POLL, [fds.length, timeoutMs === undefined ? 0 : 1, Number(ns & 0xffffffffn) | 0, Number(ns >> 32n)], fds.length * 8));
    return fds.map((_, i) => {
      const flags = view.getUint16(i * 8 + 2, true);
      const errno = view.getUint16(i * 8, true);
      return { ready: (flags & 1) !== 0 || errno !== 0, hangup: (flags & 2) !== 0 };
    });
  }
}

export { AF, SOCK };
