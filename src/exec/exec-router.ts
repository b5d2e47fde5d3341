import type { Kernel } from "../kernel/kernel.js";
import { ROUTER_SHELLS_MAX, ROUTER_SHELLS_PER_VM } from "../limits.js";
import { ExecFailure } from "../kernel/executable.js";
import { freshShell } from "./fresh-shell.js";
import { KernelError } from "../kernel/kernel-error.js";
import { ProcessHandle } from "./process-handle.js";
import { RouterShell } from "./router-shell.js";
import { shellChildEnv, simpleCommand } from "../kernel/simple-command.js";
import { RoutedCommand } from "./routed-command.js";
import type { CommandOutput, RunningCommand } from "./running-command.js";

export interface RouteOptions {
  cwd: string;
  /** The command's whole environment, as a fresh `sh -c` would get it. */
  env: Record<string, string>;
  stdin?: string | Uint8Array;
  output: CommandOutput;
}

export interface RouterStats {
  /** execs served by the router: by a persistent shell, or `direct`. */
  routed: number;
  /** execs of one program with literal words, which the router started without a shell (simple-command.ts). */
  direct: number;
  /** execs that ran in a fresh `sh -c`: no router shell was free to start, or the command holds a NUL. */
  fresh: number;
  /** persistent shells started (the first, replacements of shells that died, extra ones for concurrency). */
  shellsStarted: number;
}

/**
 * Router shells of every VM of this host process (see ROUTER_SHELLS_MAX), each with the router it serves, the
 * least recently used first: when there are as many as may be, a VM that needs one takes the place of the
 * shell that waited longest, so the shells (a worker and its memory each) stay with the VMs in use.
 */
const shellsInProcess = new Map<RouterShell, ExecRouter>();

/**
 * Serves `exec` from persistent shells kept per VM (router-shell.ts), so a command costs neither a process
 * start nor a shell start, with the result a fresh `sh -c` would give.
 */
export class ExecRouter {
  private readonly shells = new Set<RouterShell>();
  readonly stats: RouterStats = { routed: 0, direct: 0, fresh: 0, shellsStarted: 0 };

  /** `env` is the environment of the VM's shells: what every command gets, with PWD "/". */
  constructor(
    private readonly kernel: Kernel,
    private readonly env: Record<string, string>,
  ) {}

  /** Starts a shell ahead of the first command, off its critical path. */
  warm(): void {
    if (this.shells.size === 0) this.startShell();
  }

  /** Runs `command` in a router shell; undefined when it has to run in a fresh process (counted). */
  run(command: string, opts: RouteOptions): RunningCommand | undefined {
    const direct = this.direct(command, opts);
    if (direct) {
      this.stats.routed++;
      this.stats.direct++;
      return direct;
    }
    // A NUL cannot travel in the shell's command feed (nor in `sh -c`'s argument, which refuses it).
    const shell = !command.includes("\0") && (this.idleShell() ?? this.startShell());
    if (!shell) {
      this.stats.fresh++;
      return undefined;
    }
    // The most recently used now.
    shellsInProcess.delete(shell);
    shellsInProcess.set(shell, this);
    this.stats.routed++;
    return new RoutedCommand(shell, command, opts, () => freshShell(this.kernel, command, opts));
  }

  /**
   * A simple command's program, started as the shell would start it (its words, directory, environment and
   * stdin); undefined when the shell has to run the command, or when the program cannot be started (the
   * shell then says why, in its words).
   */
  private direct(command: string, opts: RouteOptions): RunningCommand | undefined {
    const argv = simpleCommand(command);
    const env = argv && shellChildEnv(opts.env, opts.cwd);
    if (!argv || !env) return undefined;
    try {
      return new ProcessHandle(this.kernel, { argv, cwd: opts.cwd, env, ...(opts.stdin !== undefined ? { stdin: opts.stdin } : {}), output: opts.output });
    } catch (e) {
      if (e instanceof ExecFailure || (e instanceof KernelError && (e.code === "EAGAIN" || e.code === "E2BIG"))) return undefined;
      throw e;
    }
  }

  private idleShell(): RouterShell | undefined {
    for (const s of this.shells) if (!s.busy && s.alive) return s;
    return undefined;
  }

  private startShell(): RouterShell | undefined {
    if (this.shells.size >= ROUTER_SHELLS_PER_VM || (shellsInProcess.size >= ROUTER_SHELLS_MAX && !evictIdleShell())) return undefined;
    const shell = new RouterShell(this.kernel, { ...this.env, PWD: "/" }, (gone) => this.letGo(gone));
    this.shells.add(shell);
    shellsInProcess.set(shell, this);
    this.stats.shellsStarted++;
    return shell;
  }

  /** `shell` serves this VM no more: it exited, or it was let go to make room. */
  letGo(shell: RouterShell): void {
    this.shells.delete(shell);
    shellsInProcess.delete(shell);
  }
}

/** Lets the least recently used idle shell of the host process go (it exits at once); false when all are busy. */
function evictIdleShell(): boolean {
  for (const [shell, router] of shellsInProcess) {
    if (shell.busy || !shell.alive) continue;
    router.letGo(shell);
    shell.close();
    return true;
  }
  return false;
}
