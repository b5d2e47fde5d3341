import type { ScriptProcess } from "../script-host.js";
import { getopt, type OptionSpec, type ParsedOption, UsageError } from "./getopt.js";
import { versionText } from "../../src/gnu/version.js";

/**
 * A GNU tool's command line (getopt.ts) with --help and --version (version.ts) answered: the options and operands, or
 * the exit status to end with. A usage error prints `tool: message` and the "Try" line and ends with
 * `usageStatus` (1, or 125 for the tools that run a command).
 */
export function parseArgs(
  p: ScriptProcess,
  specs: readonly OptionSpec[],
  help: string,
  { usageStatus = 1, stopAtOperand = false, compatibleWith = "GNU coreutils 9.1" } = {},
): { options: ParsedOption[]; operands: string[] } | number {
  const tool = p.argv[0]!.slice(p.argv[0]!.lastIndexOf("/") + 1);
  try {
    const parsed = getopt(p.argv.slice(1), [...specs, { key: "help", long: "help" }, { key: "version", long: "version" }], stopAtOperand);
    if (parsed.options.some((o) => o.key === "help")) return p.stdout.write(help), 0;
    if (parsed.options.some((o) => o.key === "version")) return p.stdout.write(versionText(tool, compatibleWith)), 0;
    return parsed;
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return usageError(p, e.message, usageStatus);
  }
}

/** `tool: message` and the "Try 'tool --help'" line; answers `status`. */
export function usageError(p: ScriptProcess, message: string, status = 1): number {
  const tool = p.argv[0]!.slice(p.argv[0]!.lastIndexOf("/") + 1);
  p.stderr.write(`${tool}: ${message}\nTry '${tool} --help' for more information.\n`);
  return status;
}
