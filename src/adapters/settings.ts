import { posix } from "node:path";
import { checkOptionNames } from "../exec/exec-options.js";
import { checkLimitOption, DEFAULT_OUTPUT_LIMIT } from "./truncate.js";

/** What every adapter takes. */
export interface AdapterOptions {
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
  /** A path the model gave, made absolute against `cwd`. */
  resolve(path: string): string;
}

/** Checks an adapter's options (`known` are all it takes) and fills in the defaults. */
export function adapterSettings(what: string, options: AdapterOptions, known: readonly string[]): AdapterSettings {
  checkOptionNames(what, options, known);
  const cwd = options.cwd ?? "/home/user";
  return {
    cwd,
    limit: checkLimitOption("outputLimit", options.outputLimit, DEFAULT_OUTPUT_LIMIT),
    timeout: options.timeout ?? 120_000,
    resolve: (path) => posix.resolve(cwd, path),
  };
}
