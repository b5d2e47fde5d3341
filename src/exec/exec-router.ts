import type { Kernel } from "../kernel/kernel.js";
import { SinkFile, type OpenFile } from "../kernel/open-file.js";
import { Pipe } from "../kernel/pipe.js";
import { scriptIn } from "../kernel/shell-cwd.js";
import { ROUTER_SHELLS_MAX, ROUTER_SHELLS_PER_VM } from "../limits.js";
import { RouterShell } from "./router-shell.js";
import type { CommandOutput, RunningCommand } from "./running-command.js";

export interface RouteOptions {
  cwd: string;
  /** The command's whole environment, as a fresh `sh -c` would get it. */
  env: Record<string, string>;
  stdin?: string | Uint8Array;
  output: CommandOutput;
}

export interface RouterStats {
  /** execs served by a persistent shell. */
  routed: number;
  /** execs that ran in a fresh `sh -c` (see ExecRouter.exportsIfRoutable). */
  fresh: number;
  /** persistent shells started (the first, replacements of shells that died, extra ones for concurrency). */
  shellsStarted: number;
}

/** Router shells of every VM of this host process (see ROUTER_SHELLS_MAX). */
let shellsInProcess = 0;

/**
 * What a routed command would see differently from a fresh `sh -c`: LINENO counts the router's own line,
 * BASH_SUBSHELL the subshell that isolates the command, `$-` the flag of a shell reading stdin.
 */
const ROUTER_VISIBLE = /LINENO|BASH_SUBSHELL|\$\{?-/;

/** The command reads what a wrapper around it would change (line numbers, subshell depth, flags). */
export function seesItsWrapping(command: string): boolean {
  return ROUTER_VISIBLE.test(command);
}
/**
 * A background `&` (not `&&`, `>&`, `&>`, `|&`): brush runs the job as a task of the shell that may run
 * only after the command has ended, so in a router shell it would run during a later exec.
 */
const BACKGROUND = /(^|[^&<>|])&(?![&>])/;
/** Variables a shell reads from its environment only when it starts; exporting them later differs. */
const STARTUP_ONLY = new Set(["IFS", "SHELLOPTS", "BASHOPTS", "BASH_ENV", "ENV", "POSIXLY_CORRECT", "PS4", "SHLVL", "OLDPWD"]);
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Serves `exec` from persistent shells kept per VM (router-shell.ts), so a command costs neither a process
 * start nor a shell start; a command whose result routing could change runs in a fresh `sh -c` instead.
 */
export class ExecRouter {
  private readonly shells = new Set<RouterShell>();
  readonly stats: RouterStats = { routed: 0, fresh: 0, shellsStarted: 0 };

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
    const exports = this.exportsIfRoutable(command, opts.env);
    const shell = exports && (this.idleShell() ?? this.startShell());
    if (!exports || !shell) {
      this.stats.fresh++;
      return undefined;
    }
    this.stats.routed++;
    return new RoutedCommand(shell, scriptIn(opts.cwd, command), exports, opts);
  }

  /**
   * What the command's environment adds to the shells' (exported inside the subshell); undefined when
   * routing could show: the command reads what differs under the router, or the environment sets a
   * variable a shell reads only at start-up, or a name that is not a shell variable.
   */
  private exportsIfRoutable(command: string, env: Record<string, string>): Record<string, string> | undefined {
    if (command.includes("\0") || seesItsWrapping(command) || BACKGROUND.test(command)) return undefined;
    const exports: Record<string, string> = {};
    for (const [key, value] of Object.entries(env)) {
      if (key === "PWD" || value === this.env[key]) continue; // the command's `cd` sets PWD
      if (!NAME.test(key) || STARTUP_ONLY.has(key)) return undefined;
      exports[key] = value;
    }
    return exports;
  }

  private idleShell(): RouterShell | undefined {
    for (const s of this.shells) if (!s.busy && s.alive) return s;
    return undefined;
  }

  private startShell(): RouterShell | undefined {
    if (this.shells.size >= ROUTER_SHELLS_PER_VM || shellsInProcess >= ROUTER_SHELLS_MAX) return undefined;
    const shell = new RouterShell(this.kernel, { ...this.env, PWD: "/" }, (gone) => {
      if (this.shells.delete(gone)) shellsInProcess--;
    });
    this.shells.add(shell);
    shellsInProcess++;
    this.stats.shellsStarted++;
    return shell;
  }
}

/** One exec served by a router shell. */
class RoutedCommand implements RunningCommand {
  private readonly status: Promise<number>;
  private settled = false;

  constructor(
    private readonly shell: RouterShell,
    script: string,
    exports: Record<string, string>,
    opts: RouteOptions,
  ) {
    const kernel = shell.kernel;
    const stdin = opts.stdin === undefined ? kernel.devNull().retain() : filledPipe(kernel, opts.stdin);
    this.status = shell
      .run(script, exports, {
        stdin,
        stdout: new SinkFile(opts.output.stdout.push),
        stderr: new SinkFile(opts.output.stderr.push),
      })
      .finally(() => {
        this.settled = true;
        stdin.release();
      });
  }

  get running(): boolean {
    return !this.settled;
  }

  wait(): Promise<number> {
    return this.status;
  }

  idle(): boolean {
    return this.shell.kernel.groupIdle(this.shell.process.pgid);
  }

  kill(signal: number): void {
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
