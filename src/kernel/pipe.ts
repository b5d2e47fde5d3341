import { FileType } from "../abi/wasi.js";
import { kerr } from "./kernel-error.js";
import { OpenFile } from "./open-file.js";

interface ParkedRead {
  target: Uint8Array;
  resolve: (n: number) => void;
}

/**
 * An unbounded pipe. The shell runs builtin stages and command substitutions to completion before their
 * reader runs, so a bounded buffer would deadlock it. Readers see end of file when the last write end is
 * released; writers get EPIPE when the last read end is.
 */
export class Pipe {
  private chunks: Uint8Array[] = [];
  private head = 0; // bytes already consumed from chunks[0]
  private buffered = 0;
  private waiting: ParkedRead[] = [];
  readers = 0;
  writers = 0;

  readonly readEnd = new PipeReadEnd(this);
  readonly writeEnd = new PipeWriteEnd(this);

  write(data: Uint8Array): number {
    if (this.readers === 0) throw kerr("EPIPE", { syscall: "write" });
    if (data.length === 0) return 0;
    let rest = data;
    // Hand data straight to parked readers first.
    while (rest.length > 0 && this.waiting.length > 0) {
      const r = this.waiting.shift()!;
      const n = Math.min(r.target.length, rest.length);
      r.target.set(rest.subarray(0, n));
      rest = rest.subarray(n);
      r.resolve(n);
    }
    if (rest.length > 0) {
      this.chunks.push(rest.slice());
      this.buffered += rest.length;
    }
    return data.length;
  }

  read(target: Uint8Array, signal?: AbortSignal): number | Promise<number> {
    if (target.length === 0) return 0;
    if (this.buffered > 0) return this.take(target);
    if (this.writers === 0) return 0;
    if (signal?.aborted) throw signal.reason;
    return new Promise<number>((resolve, reject) => {
      const onAbort = (): void => {
        const i = this.waiting.indexOf(entry);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(signal!.reason);
      };
      const entry: ParkedRead = {
        target,
        resolve: (n) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(n);
        },
      };
      this.waiting.push(entry);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  private take(target: Uint8Array): number {
    let n = 0;
    while (n < target.length && this.chunks.length > 0) {
      const c = this.chunks[0]!;
      const k = Math.min(c.length - this.head, target.length - n);
      target.set(c.subarray(this.head, this.head + k), n);
      n += k;
      this.head += k;
      if (this.head === c.length) {
        this.chunks.shift();
        this.head = 0;
      }
    }
    this.buffered -= n;
    return n;
  }

  /** Last writer gone: wake every parked reader with end of file. */
  writerClosed(): void {
    if (--this.writers > 0) return;
    for (const r of this.waiting.splice(0)) r.resolve(0);
  }

  readerClosed(): void {
    if (--this.readers > 0) return;
    this.chunks = [];
    this.buffered = 0;
    this.head = 0;
  }
}

export class PipeReadEnd extends OpenFile {
  readonly filetype = FileType.UNKNOWN;
  override readonly writable = false;
  constructor(readonly pipe: Pipe) {
    super();
  }
  override retain(): this {
    if (this.refs === 0) this.pipe.readers++;
    return super.retain();
  }
  read(target: Uint8Array, signal: AbortSignal): number | Promise<number> {
    return this.pipe.read(target, signal);
  }
  write(): number {
    throw kerr("EBADF", { syscall: "write" });
  }
  protected override close(): void {
    this.pipe.readerClosed();
  }
}

export class PipeWriteEnd extends OpenFile {
  readonly filetype = FileType.UNKNOWN;
  override readonly readable = false;
  constructor(readonly pipe: Pipe) {
    super();
  }
  override retain(): this {
    if (this.refs === 0) this.pipe.writers++;
    return super.retain();
  }
  read(): number {
    throw kerr("EBADF", { syscall: "read" });
  }
  write(data: Uint8Array): number {
    return this.pipe.write(data);
  }
  protected override close(): void {
    this.pipe.writerClosed();
  }
}
