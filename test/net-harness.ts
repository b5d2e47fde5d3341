// Drives a kernel's socket system calls with fake processes, as a worker would over its channel.
import { Channel, packFields, Slot, unpackFields } from "../src/abi/channel.js";
import { errnoName } from "../src/abi/errno.js";
import { AF, SOCK } from "../src/abi/net.js";
import { Sys } from "../src/abi/syscalls.js";
import { WakeSlot, allocateWakeRing, wakeEntrySlot } from "../src/abi/wake-ring.js";
import type { CommandRegistry } from "../src/commands/registry.js";
import { Kernel } from "../src/kernel/kernel.js";
import { KernelError } from "../src/kernel/kernel-error.js";
import { Process } from "../src/kernel/process.js";
import { syscallTable } from "../src/kernel/syscalls/dispatch.js";
import { WakeRing } from "../src/kernel/wake-ring.js";
import { DEFAULT_LIMITS, type Limits } from "../src/limits.js";
import type { NetworkOptions } from "../src/net/vm-network.js";

export const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
export const text = (b: Uint8Array): string => new TextDecoder().decode(b);

/** What a call answered: the errno's name ("OK" for success), the OUT slots and the reply bytes. */
export interface Answer {
  code: string;
  out: number[];
  reply: Uint8Array;
}

export function kernel(limits: Partial<Limits> = {}, network?: NetworkOptions): Kernel {
  const k = new Kernel({} as CommandRegistry, { ...DEFAULT_LIMITS, ...limits }, 0, network);
  k.vfs.mkdir("/tmp");
  k.vfs.mkdir("/etc");
  return k;
}

/** A process of `k` with a channel and a wake ring; its calls are answered as the kernel's dispatch would. */
export class Guest {
  readonly p: Process;
  readonly ch = Channel.allocate();
  private readonly ring = allocateWakeRing();
  private head = 0;

  constructor(
    readonly k: Kernel,
    cwd = "/",
  ) {
    this.p = new Process({ pid: k.processes.allocatePid(), parent: undefined, argv: ["t"], env: {}, cwd, command: "t", keepsCwd: true, maxOpenFds: k.limits.maxOpenFds });
    this.p.wakeRing = new WakeRing(this.ring);
    this.p.runner = { terminate: () => k.exitProcess(this.p, 137) };
    k.processes.add(this.p);
    // fds 0-2 taken as a command's stdio would be, so sockets get fds above them.
    for (const fd of [0, 1, 2]) this.p.fds.set(fd, k.devNull());
  }

  /** Makes one call; a parked call answers with a promise. */
  call(op: number, args: number[], payload: Uint8Array | string = new Uint8Array(0)): Answer | Promise<Answer> {
    const data = typeof payload === "string" ? bytes(payload) : payload;
    for (let i = 0; i < 6; i++) this.ch.i32[Slot.ARG0 + i] = args[i] ?? 0;
    for (let i = 0; i < 4; i++) this.ch.setOut(i, 0);
    this.ch.i32[Slot.OP] = op;
    this.ch.i32[Slot.LEN] = data.length;
    this.ch.data.set(data);
    const answer = (n: number): Answer => ({ code: "OK", out: [0, 1, 2, 3].map((i) => this.ch.out(i)), reply: this.ch.data.slice(0, n) });
    const failed = (e: unknown): Answer => {
      if (e instanceof KernelError) return { code: errnoName(e.errno), out: [], reply: new Uint8Array(0) };
      throw e;
    };
    try {
      const r = syscallTable[op]!(this.k, this.p, this.ch);
      return typeof r === "number" ? answer(r) : r.then(answer, failed);
    } catch (e) {
      return failed(e);
    }
  }

  /** A call that must answer at once. */
  now(op: number, args: number[], payload?: Uint8Array | string): Answer {
    const r = this.call(op, args, payload);
    if (r instanceof Promise) throw new Error(`call ${op} parked`);
    return r;
  }

  /** A call that must succeed at once; its OUT slots. */
  ok(op: number, args: number[], payload?: Uint8Array | string): Answer {
    const r = this.now(op, args, payload);
    if (r.code !== "OK") throw new Error(`call ${op} failed with ${r.code}`);
    return r;
  }

  socket(domain: number = AF.INET, type: number = SOCK.STREAM): number {
    return this.ok(Sys.SOCKET, [domain, type]).out[0]!;
  }

  /** A TCP listener on `address:port` (port 0: ephemeral); its fd and port. */
  listen(port = 0, address = "127.0.0.1", domain: number = AF.INET, backlog = 0): { fd: number; port: number } {
    const fd = this.socket(domain);
    const bound = this.ok(Sys.BIND, [fd, port], address).out[0]!;
    this.ok(Sys.LISTEN, [fd, backlog]);
    return { fd, port: bound };
  }

  connect(port: number, address = "127.0.0.1", domain: number = AF.INET): number {
    const fd = this.socket(domain);
    this.ok(Sys.CONNECT, [fd, port], address);
    return fd;
  }

  accept(fd: number, flags = 0): number {
    return this.ok(Sys.ACCEPT, [fd, flags]).out[0]!;
  }

  send(fd: number, data: string | Uint8Array, flags = 0): Answer {
    return this.now(Sys.SEND, [fd, flags], data);
  }

  recv(fd: number, max = 65536, flags = 0): Answer {
    return this.now(Sys.RECV, [fd, max, flags]);
  }

  sendto(fd: number, address: string, port: number, data: Uint8Array | string, flags = 0): Answer {
    const payload = new Uint8Array(16 + address.length + data.length + 8);
    const n = packFields(payload, [bytes(address), typeof data === "string" ? bytes(data) : data]);
    return this.now(Sys.SENDTO, [fd, port, flags], payload.subarray(0, n));
  }

  recvfrom(fd: number, max = 65536, flags = 0): { code: string; address: string; port: number; length: number; data: Uint8Array } {
    const r = this.now(Sys.RECVFROM, [fd, max, flags]);
    if (r.code !== "OK") return { code: r.code, address: "", port: 0, length: 0, data: new Uint8Array(0) };
    const [addr, data] = unpackFields(r.reply, r.reply.length);
    return { code: r.code, address: text(addr!), port: r.out[0]!, length: r.out[1]!, data: data! };
  }

  /** The wake ring's entries since the last look, as the guest would read them. */
  events(): [number, number][] {
    const i32 = new Int32Array(this.ring);
    const out: [number, number][] = [];
    for (; this.head < i32[WakeSlot.TAIL]!; this.head++) out.push([i32[wakeEntrySlot(this.head)]!, i32[wakeEntrySlot(this.head) + 1]!]);
    Atomics.store(i32, WakeSlot.HEAD, this.head);
    return out;
  }

  exit(): void {
    this.k.exitProcess(this.p, 0);
  }
}
