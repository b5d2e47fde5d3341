import type { Kernel } from "../kernel/kernel.js";
import { SinkFile, type OpenFile } from "../kernel/open-file.js";
import { Pipe } from "../kernel/pipe.js";
import type { RouteOptions } from "./exec-router.js";
import type { RouterShell } from "./router-shell.js";
import type { RunningCommand } from "./running-command.js";

/**
 * One exec served by a router shell. A shell that exited before it read the command (it could not start) ran
 * nothing of it: the command then runs as `elsewhere` starts it, and the caller hears that run's result.
 */
export class RoutedCommand implements RunningCommand {
  private readonly status: Promise<number>;
  private settled = false;
  /** Where the command runs instead, once the shell could not take it. */
  private instead: RunningCommand | undefined;
  /** The signal it was ended with before it ran anywhere. */
  private killedWith: number | undefined;

  constructor(
    private readonly shell: RouterShell,
    script: string,
    opts: RouteOptions,
    elsewhere: () => RunningCommand,
  ) {
    const kernel = shell.kernel;
    const stdin = opts.stdin === undefined ? kernel.devNull().retain() : filledPipe(kernel, opts.stdin);
    this.status = shell
      .run(script, opts.cwd, opts.env, {
        stdin,
        stdout: new SinkFile(opts.output.stdout.push),
        stderr: new SinkFile(opts.output.stderr.push),
      })
      .finally(() => stdin.release())
      .then((status) => {
        if (status !== undefined) return status;
        if (this.killedWith !== undefined) return 128 + this.killedWith;
        this.instead = elsewhere();
        return this.instead.wait();
      })
      .finally(() => {
        this.settled = true;
      });
  }

  get running(): boolean {
    return !this.settled;
  }

  wait(): Promise<number> {
    return this.status;
  }

  idle(): boolean {
    return this.instead ? this.instead.idle() : this.shell.kernel.groupIdle(this.shell.process.pgid);
  }

  kill(signal: number): void {
    if (this.instead) return this.instead.kill(signal);
    this.killedWith ??= signal;
    this.shell.kill(signal);
  }
}

/** The read end (one reference, the caller's) of a pipe holding `data`, then end of file. */
function filledPipe(kernel: Kernel, data: string | Uint8Array): OpenFile {
  const pipe = new Pipe(kernel.memory, kernel.limits.pipeBufferBytes);
  pipe.readEnd.retain();
  pipe.writeEnd.retain();
  void pipe.write(typeof data === "string" ? new TextEncoder().encode(data) : data);
  pipe.writeEnd.release();
  return pipe.readEnd;
}
