import { Channel, packFields, RET_KILLED } from "../src/abi/channel.js";
import { Sys, type SysNumber } from "../src/abi/syscalls.js";
import type { ListedStats } from "./listed-stats.js";

/** Thrown through the guest's stack to end it: by proc_exit, or because the kernel killed the process. */
export class GuestExit {
  constructor(
    readonly code: number,
    readonly killed = false,
  ) {}
}

const encoder = new TextEncoder();

/** The worker's side of the system-call channel: marshals plain values; the kernel gives them meaning. */
export class KernelClient {
  readonly channel: Channel;
  /** The stats of the entries a directory listing just gave, where the process host keeps them. */
  listedStats: ListedStats | undefined;

  constructor(
    buffer: SharedArrayBuffer,
    /** What the guest holds, in 64 KiB pages, reported with every call (guest-memory-account.ts). */
    private readonly mem: { readonly pages: number },
  ) {
    this.channel = new Channel(buffer);
  }

  /** Payload area to fill before `call`. */
  get data(): Uint8Array {
    return this.channel.data;
  }

  /**
   * Makes a call and returns its errno; a killed process unwinds here. Every call reports the guest's
   * memory size, so the kernel can charge it to the VM (and stop the process when the VM has no more).
   */
  call(op: SysNumber, args: readonly number[] = [], payloadLength = 0): number {
    // Stats listed with a directory serve only until the next call (listed-stats.ts); a listing replaces them itself.
    if (op !== Sys.READDIR) this.listedStats?.forget();
    const ret = this.channel.call(op, args, payloadLength, this.mem.pages);
    if (ret === RET_KILLED) throw new GuestExit(0, true);
    return ret;
  }

  /** A call whose payload is `bytes` (e.g. a path). */
  callWith(op: SysNumber, args: readonly number[], bytes: Uint8Array): number {
    if (bytes.length > this.channel.data.length) return 37; // ENAMETOOLONG
    this.channel.data.set(bytes);
    return this.call(op, args, bytes.length);
  }

  /** A call whose payload is several byte fields (see packFields). */
  callWithFields(op: SysNumber, args: readonly number[], fields: readonly Uint8Array[]): number {
    let len: number;
    try {
      len = packFields(this.channel.data, fields);
    } catch {
      return 1; // E2BIG
    }
    return this.call(op, args, len);
  }

  out(i: number): number {
    return this.channel.out(i);
  }
  get replyLength(): number {
    return this.channel.replyLength;
  }

  writeText(fd: number, text: string): void {
    const bytes = encoder.encode(text);
    for (let off = 0; off < bytes.length; ) {
      const n = Math.min(bytes.length - off, this.channel.data.length);
      this.channel.data.set(bytes.subarray(off, off + n));
      if (this.call(Sys.WRITE, [fd], n) !== 0) return;
      off += n;
    }
  }
}
