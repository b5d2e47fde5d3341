import { Signal } from "../abi/wasi.js";
import type { Kernel } from "../kernel/kernel.js";
import { SinkFile, type OpenFile } from "../kernel/open-file.js";
import { Pipe } from "../kernel/pipe.js";
import type { Process } from "../kernel/process.js";
import type { CommandOutput, RunningCommand } from "./running-command.js";

const encoder = new TextEncoder();

export interface StartOptions {
  argv: string[];
  /** The registered command to run without a file-system lookup (SpawnRequest.command). */
  command?: string;
  env: Record<string, string>;
  cwd: string;
  /** All of stdin at once (then end of file); or "pipe" to write it later; or nothing (/dev/null). */
  stdin?: string | Uint8Array | "pipe";
  /** Where stdout and stderr go (the caller owns them). */
  output: CommandOutput;
}

/**
 * A top-level process started through the API, with its stdio connected to the host: stdout and stderr
 * are delivered as they are written, stdin is a pipe the host writes into.
 */
export class ProcessHandle implements RunningCommand {
  private readonly stdinPipe: Pipe | undefined;
  private readonly process: Process;
  private readonly exited: Promise<number>;

  constructor(
    private readonly kernel: Kernel,
    opts: StartOptions,
  ) {
    let stdin: OpenFile = kernel.devNull();
    if (opts.stdin !== undefined) {
      this.stdinPipe = new Pipe(kernel.memory, kernel.limits.pipeBufferBytes);
      this.stdinPipe.writeEnd.retain();
      stdin = this.stdinPipe.readEnd;
    }
    try {
      this.process = kernel.spawn({
        parent: undefined,
        argv: opts.argv,
        ...(opts.command !== undefined ? { command: opts.command } : {}),
        env: opts.env,
        cwd: opts.cwd,
        stdio: [stdin, new SinkFile(opts.output.stdout.push), new SinkFile(opts.output.stderr.push)],
      });
    } catch (e) {
      this.closeStdin();
      throw e;
    }
    if (opts.stdin !== undefined && opts.stdin !== "pipe") {
      this.writeStdin(opts.stdin);
      this.closeStdin();
    }
    this.exited = this.process.waitExit().then(async (status) => {
      this.closeStdin();
      kernel.reap(this.process);
      // Like a session ending: whatever the command left running is hung up on, and is gone before the
      // caller hears of the exit, so nothing outlives the command.
      await kernel.endGroup(this.process.pgid, Signal.SIGHUP);
      return status;
    });
  }

  get pid(): number {
    return this.process.pid;
  }

  /** The process itself (it stays readable after it has left the process table). */
  get info(): Process {
    return this.process;
  }

  get running(): boolean {
    return this.process.state === "running";
  }

  /** Writes to the process's stdin. Throws EPIPE once the process no longer reads it. */
  writeStdin(data: string | Uint8Array): void {
    if (!this.stdinPipe) throw new TypeError("stdin was not opened as a pipe");
    void this.stdinPipe.writeEnd.write(typeof data === "string" ? encoder.encode(data) : data);
  }

  /** Ends stdin: the process reads end of file once the data written so far is consumed. Idempotent. */
  closeStdin(): void {
    if (this.stdinPipe && this.stdinPipe.writeEnd.refs > 0) this.stdinPipe.writeEnd.release();
  }

  /** Resolves with the exit code once the process has exited. */
  async wait(): Promise<number> {
    await this.exited;
    return this.process.exitCode;
  }

  idle(): boolean {
    return this.kernel.groupIdle(this.process.pgid);
  }

  /** Sends a signal to the process and everything it started (its process group; default SIGTERM). */
  kill(signal: number = Signal.SIGTERM): void {
    this.kernel.killGroup(this.process.pgid, signal);
  }
}
