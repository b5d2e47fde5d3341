import { argBytes, type Kernel } from "../kernel/kernel.js";
import type { RouteOptions } from "./exec-router.js";
import { ProcessHandle } from "./process-handle.js";
import { RoutedCommand } from "./routed-command.js";
import { RouterShell } from "./router-shell.js";
import type { RunningCommand } from "./running-command.js";

/**
 * An exec in a shell of its own, when the router has no shell for it (all busy, or `execRouter: false`):
 * `sh -c COMMAND`. A command that argv cannot carry (argv and environment past limits.maxArgBytes, as
 * a here-document of a large file makes it) goes to a new shell through the command feed the router's
 * shells read (router-shell.ts) instead, with the same result; that shell exits when the command is done.
 * A command holding a NUL has to go by argv: the feed's fields are NUL-terminated.
 */
export function freshShell(kernel: Kernel, command: string, opts: RouteOptions): RunningCommand {
  const argv = ["sh", "-c", command];
  if (command.includes("\0") || argBytes(argv, opts.env) <= kernel.limits.maxArgBytes)
    return new ProcessHandle(kernel, { argv, command: "sh", cwd: opts.cwd, env: opts.env, ...(opts.stdin !== undefined ? { stdin: opts.stdin } : {}), output: opts.output });
  return new FedShellCommand(kernel, command, opts);
}

/** A command run by a shell started for it alone, which reads it from its feed. */
class FedShellCommand implements RunningCommand {
  private readonly command: RoutedCommand;
  private readonly status: Promise<number>;
  private exited = false;

  constructor(kernel: Kernel, command: string, opts: RouteOptions) {
    let gone!: () => void;
    const shellGone = new Promise<void>((resolve) => (gone = resolve));
    const shell = new RouterShell(kernel, opts.env, () => {
      this.exited = true;
      gone();
    });
    // A shell of its own that could not start: another would not either; the caller hears what it said.
    this.command = new RoutedCommand(shell, command, opts, () => new Told(opts, shell.ownWords || `sh: exited with status ${shell.process.exitCode} before it read the command\n`, shell.process.exitCode || 1));
    // The caller hears the status once the shell has exited too: nothing of the exec is left running.
    this.status = this.command.wait().then(async (status) => {
      shell.close();
      await shellGone;
      return status;
    });
  }

  get running(): boolean {
    return !this.exited;
  }

  wait(): Promise<number> {
    return this.status;
  }

  idle(): boolean {
    return this.command.idle();
  }

  kill(signal: number): void {
    this.command.kill(signal);
  }
}

/** A command that ran nowhere: its result is a message on stderr and a status. */
class Told implements RunningCommand {
  readonly running = false;
  private readonly status: Promise<number>;

  constructor(opts: RouteOptions, message: string, status: number) {
    opts.output.stderr.push(new TextEncoder().encode(message));
    this.status = Promise.resolve(status);
  }

  wait(): Promise<number> {
    return this.status;
  }

  idle(): boolean {
    return true;
  }

  kill(): void {}
}
