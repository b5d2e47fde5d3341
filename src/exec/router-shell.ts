import { randomBytes } from "node:crypto";
import { FileType, Signal } from "../abi/wasi.js";
import type { Kernel } from "../kernel/kernel.js";
import { kerr } from "../kernel/kernel-error.js";
import { OpenFile } from "../kernel/open-file.js";
import type { Process } from "../kernel/process.js";
import { withOwnStdio } from "./own-stdio.js";
import { shellQuote } from "./shell-quote.js";

/** Where a routed command's stdio goes while it runs. */
export interface CommandStdio {
  stdin: OpenFile;
  stdout: OpenFile;
  stderr: OpenFile;
}

/**
 * The idle shell's stdin: it reads its script from here, one command line at a time. The line is handed
 * over when a command is routed; the moment its last byte is read, `onLineRead` runs (still inside that
 * read), so the shell's fds can be switched to the command's stdio before the shell executes the line.
 */
class CommandFeed extends OpenFile {
  readonly filetype = FileType.UNKNOWN;
  override readonly writable = false;
  private line: Uint8Array | undefined;
  private parked: { target: Uint8Array; resolve: (n: number) => void } | undefined;
  onLineRead: () => void = () => {};

  feed(line: Uint8Array): void {
    this.line = line;
    const parked = this.parked;
    if (parked) {
      this.parked = undefined;
      parked.resolve(this.take(parked.target));
    }
  }

  read(target: Uint8Array, signal: AbortSignal): number | Promise<number> {
    if (this.line) return this.take(target);
    if (signal.aborted) throw signal.reason;
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        this.parked = undefined;
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.parked = {
        target,
        resolve: (n) => {
          signal.removeEventListener("abort", onAbort);
          resolve(n);
        },
      };
    });
  }

  write(): number {
    throw kerr("EBADF", { syscall: "write" });
  }

  private take(target: Uint8Array): number {
    const line = this.line!;
    const n = Math.min(target.length, line.length);
    target.set(line.subarray(0, n));
    this.line = n < line.length ? line.subarray(n) : undefined;
    if (!this.line) this.onLineRead();
    return n;
  }
}

const encoder = new TextEncoder();

/**
 * A long-lived `sh` reading its script from a CommandFeed, serving one routed command at a time. Each
 * command runs as `( eval 'SCRIPT' )`, so whatever it changes (directory, variables, functions, options,
 * traps, its exit) ends with the subshell, and it is parsed and reported exactly as `sh -c SCRIPT` would
 * (eval names its source "main", like -c). The status comes back out of band: the shell then opens
 * `STATUS_DIR/$?`, a path only this process can open, known only to the kernel. Nothing is added to the
 * command's output.
 */
export class RouterShell {
  readonly process: Process;
  private readonly feed = new CommandFeed();
  private readonly statusDir = `/dev/.agentos-status-${randomBytes(12).toString("hex")}/`;
  private finish: ((status: number) => void) | undefined;

  constructor(
    readonly kernel: Kernel,
    env: Record<string, string>,
    onExit: (shell: RouterShell) => void,
  ) {
    const devNull = kernel.devNull();
    this.process = kernel.spawn({ parent: undefined, argv: ["sh"], command: "sh", env, cwd: "/", stdio: [this.feed, devNull, devNull] });
    this.process.openControl = (path) => this.statusReported(path);
    // Waiting for a command is not running one: an idle shell must not keep the host process alive.
    this.process.loopHold.set(false);
    void this.process.waitExit().then(() => {
      kernel.reap(this.process);
      onExit(this);
      // The shell itself died (killed, or its command took it down): the command's status is the shell's.
      this.done(this.process.exitCode);
    });
  }

  get busy(): boolean {
    return this.finish !== undefined;
  }

  get alive(): boolean {
    return this.process.state === "running";
  }

  /**
   * Runs `script` (with `exports` applied first, inside the subshell) and resolves with its exit code once
   * it and everything it started have ended.
   */
  run(script: string, exports: Record<string, string>, stdio: CommandStdio): Promise<number> {
    if (this.busy || !this.alive) throw new Error("router shell is not available");
    const assignments = Object.entries(exports).map(([k, v]) => `export ${k}=${shellQuote(v)}; `);
    const line = `( ${assignments.join("")}${withOwnStdio(script)} ); : >${this.statusDir}$?\n`;
    const fds = this.process.fds;
    this.feed.onLineRead = () => {
      fds.set(0, stdio.stdin);
      fds.set(1, stdio.stdout);
      fds.set(2, stdio.stderr);
    };
    const status = new Promise<number>((resolve) => (this.finish = resolve));
    this.process.loopHold.set(true);
    this.feed.feed(encoder.encode(line));
    return status;
  }

  /** Ends the command: the shell and whatever the command started (its process group). */
  kill(signal: number): void {
    this.kernel.killGroup(this.process.pgid, signal);
  }

  private statusReported(path: string): OpenFile | undefined {
    if (!path.startsWith(this.statusDir) || !this.busy) return undefined;
    const status = Number(path.slice(this.statusDir.length));
    const fds = this.process.fds;
    fds.set(0, this.feed);
    fds.set(1, this.kernel.devNull());
    fds.set(2, this.kernel.devNull());
    this.done(status);
    return this.kernel.devNull();
  }

  private done(status: number): void {
    const finish = this.finish;
    if (!finish) return;
    // Like a session ending: whatever the command left running is hung up on before the caller hears.
    const shellPid = this.process.pid;
    const left = this.kernel.processes.all().filter((q) => q.pgid === this.process.pgid && q.pid !== shellPid);
    void this.kernel.endProcesses(left, Signal.SIGHUP).then(() => {
      this.finish = undefined;
      if (this.alive) this.process.loopHold.set(false);
      finish(status);
    });
  }
}
