/**
 * A command a model asked an adapter to run (the AI SDK's `bash` tool, the MCP server's `exec`): the caller's
 * hooks see it before it runs and its result after, and what reaches the model keeps the head and tail of long
 * output.
 */
import type { AgentOs } from "../agent-os.js";
import type { AdapterSettings } from "./settings.js";
import { truncateMiddle } from "./truncate.js";

/** What the model asked for, with `cwd` made absolute. */
export interface CommandCall {
  command: string;
  cwd: string;
}

/** What a command gave: its exit code and its whole output (the model is shown at most `outputLimit` of each). */
export interface CommandOutcome {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * What `onBeforeCommand` decides: nothing (`undefined`) runs the command as asked; a string runs that command
 * instead; `false` or `{ refuse: "why" }` runs nothing and tells the model the command was refused (and why).
 */
export type BeforeCommandDecision = string | false | { refuse: string } | undefined | void;

export interface CommandHooks {
  /** Called before each command the model asks for; may change it or refuse it. May be async. */
  onBeforeCommand?: (call: CommandCall) => BeforeCommandDecision | Promise<BeforeCommandDecision>;
  /**
   * Called with each command's result before the model sees it (the whole output, not yet cut to
   * `outputLimit`); returns the result to show instead, or nothing to show it as it is. May be async.
   * A refused command has no result and does not reach it.
   */
  onAfterCommand?: (result: CommandOutcome, call: CommandCall) => CommandOutcome | undefined | void | Promise<CommandOutcome | undefined | void>;
}

/** What a tool reports when `onBeforeCommand` refused a command: the model is told `message`. */
export class CommandRefusedError extends Error {
  readonly code = "ECOMMANDREFUSED";
  constructor(
    readonly command: string,
    readonly reason: string,
  ) {
    super(`command refused: ${reason}`);
    this.name = "CommandRefusedError";
  }
}

const invalidHookResult = (hook: string, value: unknown, expected: string): TypeError =>
  Object.assign(new TypeError(`${hook} returned ${typeof value === "string" ? JSON.stringify(value) : String(value)}; expected ${expected}`), {
    code: "ERR_INVALID_RETURN_VALUE",
  });

/** The command to run after `onBeforeCommand`; throws CommandRefusedError when it refused. */
async function decide(settings: AdapterSettings, call: CommandCall): Promise<string> {
  const hook = settings.hooks.onBeforeCommand;
  if (!hook) return call.command;
  const decision = await hook({ ...call });
  if (decision === undefined) return call.command;
  if (typeof decision === "string") return decision;
  if (decision === false) throw new CommandRefusedError(call.command, "not allowed by the host's policy");
  if (typeof decision === "object" && decision !== null && typeof decision.refuse === "string")
    throw new CommandRefusedError(call.command, decision.refuse);
  throw invalidHookResult("onBeforeCommand", decision, "undefined, a command string, false or { refuse: string }");
}

function checkOutcome(value: unknown): CommandOutcome {
  const r = value as Partial<CommandOutcome> | null;
  if (typeof r !== "object" || r === null || !Number.isInteger(r.exitCode) || typeof r.stdout !== "string" || typeof r.stderr !== "string")
    throw invalidHookResult("onAfterCommand", value, "undefined or { exitCode: integer, stdout: string, stderr: string }");
  return { exitCode: r.exitCode!, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Runs what the model asked in `vm` (`sh -c`, the adapter's timeout, `signal` to stop it), through the
 * hooks; stdout and stderr of the result are cut to `outputLimit` bytes each. A command that fails is a
 * result; this throws only when the command could not be run (a refusal, a missing `cwd`, a hook's error).
 */
export async function runCommand(vm: AgentOs, settings: AdapterSettings, call: CommandCall, signal?: AbortSignal): Promise<CommandOutcome> {
  const command = await decide(settings, call);
  const r = await vm.exec(command, { cwd: call.cwd, timeout: settings.timeout, ...(signal ? { signal } : {}) });
  let outcome: CommandOutcome = { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr };
  const after = settings.hooks.onAfterCommand;
  if (after) {
    const changed = await after({ ...outcome }, { command, cwd: call.cwd });
    if (changed !== undefined) outcome = checkOutcome(changed);
  }
  return { exitCode: outcome.exitCode, stdout: truncateMiddle(outcome.stdout, settings.limit), stderr: truncateMiddle(outcome.stderr, settings.limit) };
}
