import { quote } from "../../src/gnu/quote.js";
import type { ScriptProcess } from "../script-host.js";
import { parseArgs, usageError } from "./parse-args.js";
import { runCommand } from "./run-command.js";

/**
 * GNU stdbuf: checks the modes and runs the command. GNU passes them through LD_PRELOAD, which the
 * VM's programs do not load; each buffers as it does (the VM's own tools flush a line at a time or at exit).
 */
export default function stdbuf(p: ScriptProcess): number {
  const parsed = parseArgs(
    p,
    [
      { key: "i", short: "i", long: "input", arg: "required" },
      { key: "o", short: "o", long: "output", arg: "required" },
      { key: "e", short: "e", long: "error", arg: "required" },
    ],
    "Usage: stdbuf OPTION... COMMAND\nRun COMMAND, with modified buffering operations for its standard streams.\n",
    { usageStatus: 125, stopAtOperand: true },
  );
  if (typeof parsed === "number") return parsed;
  for (const o of parsed.options) {
    const mode = o.value!;
    if (o.key === "i" && mode === "L") return p.stderr.write("stdbuf: line buffering stdin is meaningless\nTry 'stdbuf --help' for more information.\n"), 125;
    if (mode !== "L" && !/^\d+([KMGTPEZY](iB|B)?|[kKbc]|KB)?$/.test(mode)) return p.stderr.write(`stdbuf: invalid mode ${quote(mode, p.sys.env)}\n`), 125;
  }
  if (parsed.operands.length === 0) return usageError(p, "missing operand", 125);
  if (parsed.options.length === 0) return usageError(p, "you must specify a buffering mode option", 125);
  return runCommand(p, parsed.operands, `stdbuf: failed to run command ${quote(parsed.operands[0]!, p.sys.env)}`);
}
