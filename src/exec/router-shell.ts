import { randomBytes } from "node:crypto";
import { FileType, Signal } from "../abi/wasi.js";
import type { Kernel } from "../kernel/kernel.js";
import { kerr } from "../kernel/kernel-error.js";
import { OpenFile, SinkFile } from "../kernel/open-file.js";
import type { Process } from "../kernel/process.js";
import { ROUTER_SHELL_RETIRE_BYTES } from "../limits.js";

/** Where a routed command's stdio goes while it runs. */
export interface CommandStdio {
  stdin: OpenFile;
  stdout: OpenFile;
  stderr: OpenFile;
}

/**
 * The idle shell's stdin: it reads its commands from here, one at a time. A command is handed over when
 * it is routed; the moment its last byte is read, `onCommandRead` runs (still inside that read), so the
 * shell's fds can be switched to the command's stdio before the shell runs it.
 */
class CommandFeed extends OpenFile {
  readonly filetype = FileType.UNKNOWN;
  override readonly writable = false;
  private command: Uint8Array | undefined;
  private ended = false;
  private parked: { target: Uint8Array; resolve: (n: number) => void } | undefined;
  onCommandRead: () => void = () => {};

  feed(command: Uint8Array): void {
    this.command = command;
    const parked = this.parked;
    if (parked) {
      this.parked = undefined;
      parked.resolve(this.take(parked.target));
    }
  }

  /** No more commands: once the one being read (if any) is taken, the shell reads end of file. */
  end(): void {
    this.ended = true;
    const parked = this.parked;
    if (parked && !this.command) {
      this.parked = undefined;
      parked.resolve(0);
    }
  }

  read(target: Uint8Array, signal: AbortSignal): number | Promise<number> {
    if (this.command) return this.take(target);
    if (this.ended) return 0;
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
    const command = this.command!;
    const n = Math.min(target.length, command.length);
    target.set(command.subarray(0, n));
    this.command = n < command.length ? command.subarray(n) : undefined;
    if (!this.command) this.onCommandRead();
    return n;
  }
}

const encoder = new TextEncoder();
/** How much of what a router shell says of itself is kept (see RouterShell.ownWords). */
const OWN_WORDS_BYTES = 4096;

/**
 * A long-lived `sh --agentos-router STATUS_DIR` reading commands from a CommandFeed, serving one at a time:
 * each runs as a fresh `sh -c SCRIPT` would, in its own interpreter state with the command's directory and
 * environment, so nothing carries over from one command to the next (guests/sh/main.go, `serve`). The
 * status comes back out of band: the shell then opens `STATUS_DIR/STATUS`, a path only this process can
 * open, known only to the kernel. Nothing is added to the command's output.
 */
export class RouterShell {
  readonly process: Process;
  private readonly feed = new CommandFeed();
  private readonly statusDir = `/dev/.agentos-status-${randomBytes(12).toString("hex")}/`;
  private finish: ((status: number | undefined) => void) | undefined;
  /** The command being served has been read: it runs (or ran), so a status is its own. */
  private taken = false;
  /** Let go: it takes no more commands, and exits once done with the one it runs. */
  private closed = false;
  /** The command it runs is large: the shell is let go after it (see ROUTER_SHELL_RETIRE_BYTES). */
  private retireAfter = false;
  /** What the shell says between commands: only why it could not start or serve, if anything (the first bytes). */
  private readonly said: Uint8Array[] = [];
  private readonly ownStderr = new SinkFile((data) => {
    const room = OWN_WORDS_BYTES - this.said.reduce((n, d) => n + d.length, 0);
    if (room > 0) this.said.push(data.subarray(0, room));
    return true;
  });

  constructor(
    readonly kernel: Kernel,
    env: Record<string, string>,
    onExit: (shell: RouterShell) => void,
  ) {
    this.process = kernel.spawn({ parent: undefined, argv: ["sh", "--agentos-router", this.statusDir], command: "sh", env, cwd: "/", stdio: [this.feed, kernel.devNull(), this.ownStderr], longLived: true });
    this.process.openControl = (path) => this.statusReported(path);
    // Waiting for a command is not running one: an idle shell must not keep the host process alive.
    this.process.loopHold.set(false);
    void this.process.waitExit().then(() => {
      kernel.reap(this.process);
      onExit(this);
      // The shell itself died (killed, or its command took it down): the command's status is the shell's. A
      // shell that died before it read the command (it failed to start) ran nothing of it: no status.
      this.done(this.taken ? this.process.exitCode : undefined);
    });
  }

  get busy(): boolean {
    return this.finish !== undefined;
  }

  /** Running and taking commands. */
  get alive(): boolean {
    return this.process.state === "running" && !this.closed;
  }

  /**
   * Runs `script` in `cwd` with `env` and resolves with its exit code once it and everything it started have
   * ended; with undefined when the shell exited before it read the script (it could not start): nothing ran,
   * and the caller runs the command elsewhere, where it hears why.
   */
  run(script: string, cwd: string, env: Record<string, string>, stdio: CommandStdio): Promise<number | undefined> {
    if (this.busy || !this.alive) throw new Error("router shell is not available");
    const fields = [cwd, script, ...Object.entries(env).map(([k, v]) => `${k}=${v}`)];
    const frame = encoder.encode(`${fields.join("\0")}\0\0`);
    this.retireAfter = frame.length > ROUTER_SHELL_RETIRE_BYTES;
    const fds = this.process.fds;
    this.taken = false;
    this.feed.onCommandRead = () => {
      this.taken = true;
      fds.set(0, stdio.stdin);
      fds.set(1, stdio.stdout);
      fds.set(2, stdio.stderr);
    };
    const status = new Promise<number | undefined>((resolve) => (this.finish = resolve));
    this.process.loopHold.set(true);
    this.feed.feed(frame);
    return status;
  }

  /** What the shell wrote to its own stderr (not a command's), as text: why it exited, when it could not start. */
  get ownWords(): string {
    return Buffer.concat(this.said).toString();
  }

  /**
   * Lets the shell go: it takes no more commands and exits once done with the one it runs, if any. Until
   * it has exited it holds the host's event loop, as any running process does.
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.process.state === "running") this.process.loopHold.set(true);
    this.feed.end();
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
    fds.set(2, this.ownStderr);
    this.done(status);
    return this.kernel.devNull();
  }

  private done(status: number | undefined): void {
    const finish = this.finish;
    if (!finish) return;
    // Like a session ending: whatever the command left running is hung up on before the caller hears.
    const shellPid = this.process.pid;
    const left = this.kernel.processes.all().filter((q) => q.pgid === this.process.pgid && q.pid !== shellPid);
    void this.kernel.endProcesses(left, Signal.SIGHUP).then(() => {
      this.finish = undefined;
      if (this.retireAfter) this.close();
      if (this.alive) this.process.loopHold.set(false);
      finish(status);
    });
  }
}
