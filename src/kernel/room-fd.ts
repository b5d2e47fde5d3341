import { FileType } from "../abi/wasi.js";
import { kerr } from "./kernel-error.js";
import type { Kernel } from "./kernel.js";
import { OpenFile, type Readiness } from "./open-file.js";

/**
 * What host_process.proc_roomfd returns: a read-only file that reads end of file (and polls readable, with
 * hang-up) while the VM could start a process (Kernel.hasRoom); reading it before parks, or answers EAGAIN
 * on a NONBLOCK fd. A shell whose spawn failed with EAGAIN waits on it, among its other fds, until a process
 * exits (bash would sleep and try again): it never yields data.
 */
export class RoomFd extends OpenFile {
  readonly filetype = FileType.UNKNOWN;
  override readonly writable = false;

  constructor(private readonly kernel: Kernel) {
    super();
  }

  read(_target: Uint8Array, signal: AbortSignal): number | Promise<number> {
    if (this.kernel.hasRoom) return 0;
    if (signal.aborted) throw signal.reason;
    return new Promise<number>((resolve, reject) => {
      const onAbort = (): void => {
        unwatch();
        reject(signal.reason);
      };
      const unwatch = this.kernel.watchRoom(() => {
        if (!this.kernel.hasRoom) return;
        unwatch();
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
    if (op !== "read") return super.readiness(op);
    const room = this.kernel.hasRoom;
    return { ready: room, nbytes: 0, hangup: room };
  }

  override watchReadiness(wake: () => void): () => void {
    return this.kernel.watchRoom(wake);
  }
}
