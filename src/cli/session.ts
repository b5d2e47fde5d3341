/**
 * One VM behind an interactive shell: each line runs through `vm.exec` (a fresh `sh -c`), and what a
 * shell session keeps from one line to the next is carried over by the CLI:
 *
 * - the working directory, and OLDPWD (so `cd -` works),
 * - exported variables (set, changed, or unset),
 * - aliases and functions,
 * - `$?`, the previous line's status.
 *
 * Shell variables that are not exported, shell options (`set -x`) and traps do not persist.
 *
 * How: the line runs as `eval '<line>'` after a prelude that restores the state; then a TypeScript
 * command of the CLI's own (`agentos-cli-state`) runs in the same shell and reports its cwd, its
 * environment, `$?` and `alias -p; declare -f`. A line that ends the shell before that (`exit 3`,
 * `exec`, a failure under `set -e`) ends the session with its status, as in a real shell.
 */
import { randomBytes } from "node:crypto";
import { AgentOs, type ExecResult, type MountOptions } from "../agent-os.js";
import type { CommandContext } from "../commands/command.js";
import { shellQuote } from "../exec/shell-quote.js";
import type { Limits } from "../limits.js";

export const STATE_COMMAND = "agentos-cli-state";

/** Variables the shell sets itself for every exec; carrying them over would be wrong. */
const NOT_CARRIED = new Set(["PWD", "SHLVL", "_"]);
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface LineResult {
  result: ExecResult;
  /** The line ended the shell (exit, exec, set -e): the session is over, with `result.exitCode`. */
  ended: boolean;
}

export interface RunLineOptions {
  signal?: AbortSignal;
  onStdout?: (chunk: Uint8Array) => void;
  onStderr?: (chunk: Uint8Array) => void;
}

interface Report {
  status: number;
  cwd: string;
  env: Record<string, string>;
  definitions: string;
}

export class ShellSession {
  readonly #token = randomBytes(8).toString("hex");
  readonly #timeout: number | undefined;
  #vm: AgentOs | undefined;
  #report: Report | undefined;
  #baseline: Record<string, string> = {};
  #env: Record<string, string> = {};
  #definitions = "";
  #cwd = "/";
  #status = 0;

  private constructor(timeout: number | undefined) {
    this.#timeout = timeout;
  }

  static async create(options: {
    mounts?: MountOptions[];
    env?: Record<string, string>;
    limits?: Partial<Limits>;
    cwd?: string;
    timeout?: number;
  }): Promise<ShellSession> {
    const session = new ShellSession(options.timeout);
    const vm = await AgentOs.create({
      mounts: options.mounts ?? [],
      env: options.env ?? {},
      limits: options.limits ?? {},
      commands: { [STATE_COMMAND]: (ctx) => session.#onReport(ctx) },
    });
    session.#vm = vm;
    try {
      // The environment a fresh exec gets, and a check that the starting directory exists.
      session.#report = undefined;
      const first = await vm.exec(`cd . && ${STATE_COMMAND} ${session.#token} 0 ''`, options.cwd !== undefined ? { cwd: options.cwd } : {});
      const report = session.#report as Report | undefined;
      if (first.exitCode !== 0 || !report) throw new Error(`cannot start in ${options.cwd ?? "the home directory"}: ${first.stderr.trim()}`);
      session.#baseline = report.env;
      session.#env = report.env;
      session.#cwd = report.cwd;
    } catch (error) {
      await vm.dispose();
      throw error;
    }
    return session;
  }

  get cwd(): string {
    return this.#cwd;
  }

  /** The status of the last line, as `$?` shows it. */
  get status(): number {
    return this.#status;
  }

  async run(line: string, options: RunLineOptions = {}): Promise<LineResult> {
    const vm = this.#live();
    this.#report = undefined;
    const started = performance.now();
    const result = await vm.exec(this.#script(line), {
      cwd: this.#cwd,
      ...(this.#timeout !== undefined ? { timeout: this.#timeout } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onStdout ? { onStdout: options.onStdout } : {}),
      ...(options.onStderr ? { onStderr: options.onStderr } : {}),
    });
    const report = this.#report as Report | undefined;
    this.#report = undefined;
    this.#status = result.exitCode;
    if (report) {
      this.#cwd = report.cwd;
      this.#env = report.env;
      this.#definitions = report.definitions;
      return { result, ended: false };
    }
    // No report: the command was stopped (Ctrl-C, --timeout, output limit), or the shell ended.
    const stopped =
      options.signal?.aborted === true ||
      result.truncated === true ||
      (result.exitCode === 124 && this.#timeout !== undefined && performance.now() - started >= this.#timeout);
    return { result, ended: !stopped };
  }

  /**
   * Whether `text` is the start of a command that goes on on the next line (`for i in 1 2; do`, an open
   * quote, a trailing `|`): the shell's own parser says so (`sh -n`). Lines without anything that can
   * open a construct are not asked about.
   */
  async isIncomplete(text: string): Promise<boolean> {
    if (!/[\\|&'"`({]|<<|\b(if|for|while|until|case|select|function)\b/.test(text)) return false;
    const check = await this.#live().exec(`sh -n -c ${shellQuote(text)}`, { cwd: this.#cwd });
    return check.exitCode !== 0 && /end of (input|file)|unterminated|EOF/i.test(check.stderr);
  }

  async dispose(): Promise<void> {
    const vm = this.#vm;
    this.#vm = undefined;
    await vm?.dispose();
  }

  #script(line: string): string {
    const prelude: string[] = [];
    for (const name of Object.keys(this.#baseline))
      if (!(name in this.#env) && !NOT_CARRIED.has(name) && NAME.test(name)) prelude.push(`unset ${name}`);
    for (const [name, value] of Object.entries(this.#env))
      if (this.#baseline[name] !== value && !NOT_CARRIED.has(name) && NAME.test(name)) prelude.push(`export ${name}=${shellQuote(value)}`);
    // An interactive shell expands aliases.
    prelude.push("shopt -s expand_aliases");
    if (this.#definitions) prelude.push(this.#definitions);
    if (this.#status !== 0) prelude.push(`(exit ${this.#status})`);
    return [...prelude, `eval ${shellQuote(line)}`, `${STATE_COMMAND} ${this.#token} "$?" "$(alias -p; declare -f)"`].join("\n");
  }

  #onReport(ctx: CommandContext): number {
    const [, token, status, definitions] = ctx.argv;
    const code = Number(status ?? 0);
    if (token === this.#token) this.#report = { status: code, cwd: ctx.cwd, env: { ...ctx.env }, definitions: definitions ?? "" };
    return Number.isInteger(code) && code >= 0 && code <= 255 ? code : 0;
  }

  #live(): AgentOs {
    if (!this.#vm) throw new Error("session closed");
    return this.#vm;
  }
}
