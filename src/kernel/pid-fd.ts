import { FileType } from "../abi/wasi.js";
import { kerr } from "./kernel-error.js";
import { OpenFile, type Readiness } from "./open-file.js";
import type { Process } from "./process.js";

/**
 * What host_process.proc_pidfd returns: a read-only file that reaches end of file (and is readable, with
 * hang-up, for poll_oneoff) once `child` has exited, so that a guest with an event loop can wait for a
 * child among its other fds; proc_waitpid then returns at once. Reading before that parks (or answers
 * EAGAIN on a NONBLOCK fd). It never yields data and does not collect the child's status.
 */
export class PidFd extends OpenFile {
  readonly filetype = FileType.UNKNOWN;
  override readonly writable = false;

  constructor(private readonly child: Process) {
    super();
  }

  private get exited(): boolean {
    return this.child.state === "exited";
  }

  read(_target: Uint8Array, signal: AbortSignal): number | Promise<number> {
    if (this.exited) return 0;
    if (signal.aborted) throw signal.reason;
    return new Promise<number>((resolve, reject) => {
      const onAbort = (): void => {
        unwatch();
        reject(signal.reason);
      };
      const unwatch = this.child.watchExit(() => {
        signal.removeEventListener("abort", onAbort);
        resolve(0);
      });
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  write(): number {
    throw kerr("EBADF", { syscall: "write" });
  }

  override readiness(op: "read" | "write"): Readiness {
    return op === "read" ? { ready: this.exited, nbytes: 0, hangup: this.exited } : super.readiness(op);
  }

  override watchReadiness(wake: () => void): () => void {
    return this.child.watchExit(wake);
  }
}
