import { posix } from "node:path";
import { checkListener, checkOptionNames, checkTimeout } from "../exec/exec-options.js";
import type { CommandHooks } from "./run-command.js";
import { checkLimitOption, DEFAULT_OUTPUT_LIMIT } from "./truncate.js";

/** What every adapter takes. */
export interface AdapterOptions extends CommandHooks {
  /** Where commands run and what relative paths are resolved against (default /home/user). */
  cwd?: string;
  /** Bytes of each text returned (stdout, stderr, a file, a listing); past it the middle is cut (default 30,000). */
  outputLimit?: number;
  /** Milliseconds a command may run before its process tree is killed (exit code 124; default 120,000). */
  timeout?: number;
}

export interface AdapterSettings {
  cwd: string;
  limit: number;
  timeout: number;
  hooks: CommandHooks;
  /** A path the model gave, made absolute against `cwd`. */
  resolve(path: string): string;
}

/** The options every adapter takes; an adapter adds its own names to these. */
export const ADAPTER_OPTIONS = ["cwd", "outputLimit", "timeout", "onBeforeCommand", "onAfterCommand"] as const;

/** Checks an adapter's options (`known` are all it takes) and fills in the defaults. */
export function adapterSettings(what: string, options: AdapterOptions, known: readonly string[]): AdapterSettings {
  if (typeof options !== "object" || options === null) throw new TypeError(`${what}: options must be an object`);
  checkOptionNames(what, options, known);
  const cwd = options.cwd ?? "/home/user";
  if (typeof cwd !== "string" || !cwd.startsWith("/"))
    throw Object.assign(new TypeError(`cwd must be an absolute path, got ${String(cwd)}`), { code: "ERR_INVALID_ARG_VALUE" });
  checkTimeout(options.timeout);
  const hooks: CommandHooks = {};
  if (checkListener("onBeforeCommand", options.onBeforeCommand)) hooks.onBeforeCommand = options.onBeforeCommand;
  if (checkListener("onAfterCommand", options.onAfterCommand)) hooks.onAfterCommand = options.onAfterCommand;
  return {
    cwd,
    limit: checkLimitOption("outputLimit", options.outputLimit, DEFAULT_OUTPUT_LIMIT),
    timeout: options.timeout ?? 120_000,
    hooks,
    resolve: (path) => posix.resolve(cwd, path),
  };
}
