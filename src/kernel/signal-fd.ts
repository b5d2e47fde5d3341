import { FileType, Signal } from "../abi/wasi.js";
import { kerr } from "./kernel-error.js";
import { OpenFile, type Readiness } from "./open-file.js";

/** Signals a process cannot catch. */
const UNCATCHABLE = new Set<number>([Signal.SIGKILL, 19 /* SIGSTOP */]);

/**
 * The signals a process catches and those that arrived (host_process.proc_sigcatch): a caught signal does
 * not end the process but is queued here, one byte (its number) per pending signal, for the guest to read
 * from the fd it was given, as from Linux's signalfd. A signal already pending is not queued twice.
 */
export class SignalQueue {
  private mask = 0;
  private readonly pending: number[] = [];
  private readonly watchers = new Set<() => void>();

  setMask(mask: number): void {
    this.mask = mask;
  }

  catches(signo: number): boolean {
    return !UNCATCHABLE.has(signo) && signo > 0 && signo < 32 && (this.mask & (1 << signo)) !== 0;
  }

  /** Queues a caught signal. */
  deliver(signo: number): void {
    if (!this.pending.includes(signo)) this.pending.push(signo);
    for (const w of [...this.watchers]) w();
  }

  take(target: Uint8Array): number {
    const n = Math.min(target.length, this.pending.length);
    target.set(this.pending.splice(0, n));
    return n;
  }

  get size(): number {
    return this.pending.length;
  }

  watch(wake: () => void): () => void {
    this.watchers.add(wake);
    return () => this.watchers.delete(wake);
  }
}

/** A read-only fd of a process's SignalQueue: readable while a signal is pending; a read parks until one is. */
export class SignalFd extends OpenFile {
  readonly filetype = FileType.UNKNOWN;
  override readonly writable = false;

  constructor(private readonly queue: SignalQueue) {
    super();
  }

  read(target: Uint8Array, signal: AbortSignal): number | Promise<number> {
    if (this.queue.size > 0 || target.length === 0) return this.queue.take(target);
    if (signal.aborted) throw signal.reason;
    return new Promise<number>((resolve, reject) => {
      const onAbort = (): void => {
        unwatch();
        reject(signal.reason);
      };
      const unwatch = this.queue.watch(() => {
        unwatch();
        signal.removeEventListener("abort", onAbort);
        resolve(this.queue.take(target));
      });
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  write(): number {
    throw kerr("EBADF", { syscall: "write" });
  }

  override readiness(op: "read" | "write"): Readiness {
    return op === "read" ? { ready: this.queue.size > 0, nbytes: this.queue.size, hangup: false } : super.readiness(op);
  }

  override watchReadiness(wake: () => void): () => void {
    return this.queue.watch(wake);
  }
}
