import { FileType } from "../abi/wasi.js";
import { kerr } from "./kernel-error.js";
import type { MemoryBudget } from "./memory-budget.js";
import { OpenFile, type Readiness } from "./open-file.js";

interface ParkedRead {
  target: Uint8Array;
  resolve: (n: number) => void;
}

interface ParkedWrite {
  resume: () => void;
  fail: (e: unknown) => void;
}

/**
 * A pipe with a buffer of `capacity` bytes and back-pressure: a writer that can wait (a guest's write
 * system call) waits while the buffer is full, until a reader makes room; one that cannot (the host's
 * stdin of an exec) makes it grow. Every buffered byte is counted against the VM's memory, and a write
 * that would pass it fails with ENOMEM (the writer's system call turns that into EPIPE and SIGPIPE).
 *
 * Readers see end of file when the last write end is released; writers get EPIPE when the last read end is.
 *
 * For NONBLOCK fds and poll_oneoff it reports readiness and wakes watchers when that may have changed;
 * while nobody watches, that costs one comparison per change.
 */
export class Pipe {
  private chunks: Uint8Array[] = [];
  private head = 0; // bytes already consumed from chunks[0]
  private buffered = 0;
  private readonly waiting: ParkedRead[] = [];
  private readonly writersWaiting: ParkedWrite[] = [];
  private readonly watchers = new Set<() => void>();
  readers = 0;
  writers = 0;

  readonly readEnd = new PipeReadEnd(this);
  readonly writeEnd = new PipeWriteEnd(this);

  constructor(
    private readonly memory: MemoryBudget,
    private readonly capacity: number,
  ) {}

  /**
   * Writes all of `data`. With `signal` (the writer can wait) a full buffer parks the writer until there
   * is room; the whole write is then taken, so a buffer holds at most `capacity` plus one write.
   */
  write(data: Uint8Array, signal?: AbortSignal): number | Promise<number> {
    if (this.readers === 0) throw kerr("EPIPE", { syscall: "write" });
    if (data.length === 0) return 0;
    if (signal && this.buffered >= this.capacity) {
      if (signal.aborted) throw signal.reason;
      return new Promise<number>((resolve, reject) => {
        const entry: ParkedWrite = {
          resume: () => {
            signal.removeEventListener("abort", onAbort);
            try {
              resolve(this.put(data));
            } catch (e) {
              reject(e);
            }
          },
          fail: (e) => {
            signal.removeEventListener("abort", onAbort);
            reject(e);
          },
        };
        const onAbort = (): void => {
          this.writersWaiting.splice(this.writersWaiting.indexOf(entry), 1);
          reject(signal.reason);
        };
        signal.addEventListener("abort", onAbort, { once: true });
        this.writersWaiting.push(entry);
      });
    }
    return this.put(data);
  }

  /** A write that never parks: what fits below `capacity` (a short write), or EAGAIN when nothing does. */
  writeNonblocking(data: Uint8Array): number {
    if (this.readers === 0) throw kerr("EPIPE", { syscall: "write" });
    if (data.length === 0) return 0;
    const room = this.capacity - this.buffered;
    if (room <= 0) throw kerr("EAGAIN", { syscall: "write" });
    return this.put(room < data.length ? data.subarray(0, room) : data);
  }

  /** A read is ready with data or at end of file; a write with room, or for EPIPE. */
  readiness(op: "read" | "write"): Readiness {
    if (op === "read") return { ready: this.buffered > 0 || this.writers === 0, nbytes: this.buffered, hangup: this.writers === 0 };
    const ready = this.readers === 0 || this.buffered < this.capacity;
    return { ready, nbytes: Math.max(0, this.capacity - this.buffered), hangup: this.readers === 0 };
  }

  watch(wake: () => void): () => void {
    this.watchers.add(wake);
    return () => this.watchers.delete(wake);
  }

  /** Readiness may have changed. */
  private changed(): void {
    if (this.watchers.size > 0) for (const w of [...this.watchers]) w();
  }

  private put(data: Uint8Array): number {
    if (this.readers === 0) throw kerr("EPIPE", { syscall: "write" });
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
      if (!this.memory.tryTake("pipes", rest.length))
        throw kerr("ENOMEM", { syscall: "write", message: "pipe buffers reached the VM memory limit" });
      this.chunks.push(rest.slice());
      this.buffered += rest.length;
      this.changed();
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
    this.memory.give("pipes", n);
    this.wakeWriters();
    this.changed();
    return n;
  }

  /** Lets parked writers go once there is room (or nobody can make room any more). */
  private wakeWriters(): void {
    while (this.writersWaiting.length > 0 && this.buffered < this.capacity)
      this.writersWaiting.shift()!.resume();
  }

  /** Last writer gone: wake every parked reader with end of file. */
  writerClosed(): void {
    if (--this.writers > 0) return;
    for (const r of this.waiting.splice(0)) r.resolve(0);
    this.changed();
  }

  readerClosed(): void {
    if (--this.readers > 0) return;
    this.memory.give("pipes", this.buffered);
    this.chunks = [];
    this.buffered = 0;
    this.head = 0;
    for (const w of this.writersWaiting.splice(0)) w.fail(kerr("EPIPE", { syscall: "write" }));
    this.changed();
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
  override readiness(op: "read" | "write"): Readiness {
    return op === "read" ? this.pipe.readiness("read") : super.readiness(op); // a write fails at once
  }
  override watchReadiness(wake: () => void): () => void {
    return this.pipe.watch(wake);
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
  write(data: Uint8Array, signal?: AbortSignal): number | Promise<number> {
    return this.pipe.write(data, signal);
  }
  override writeNonblocking(data: Uint8Array): number {
    return this.pipe.writeNonblocking(data);
  }
  override readiness(op: "read" | "write"): Readiness {
    return op === "write" ? this.pipe.readiness("write") : super.readiness(op); // a read fails at once
  }
  override watchReadiness(wake: () => void): () => void {
    return this.pipe.watch(wake);
  }
  protected override close(): void {
    this.pipe.writerClosed();
  }
}
