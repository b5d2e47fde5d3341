import type { ScriptProcess } from "../script-host.js";
import { parseArgs } from "./parse-args.js";

/** GNU runcon on a kernel without SELinux (the VM's): there is no context to show or run in. */
export default function runcon(p: ScriptProcess): number {
  const parsed = parseArgs(
    p,
    [
      { key: "c", short: "c", long: "compute" },
      { key: "u", short: "u", long: "user", arg: "required" },
      { key: "r", short: "r", long: "role", arg: "required" },
      { key: "t", short: "t", long: "type", arg: "required" },
      { key: "l", short: "l", long: "range", arg: "required" },
    ],
    "Usage: runcon CONTEXT COMMAND [args]\n  or:  runcon [ -c ] [-u USER] [-r ROLE] [-t TYPE] [-l RANGE] COMMAND [args]\nRun a program in a different SELinux security context.\n",
    { stopAtOperand: true },
  );
  if (typeof parsed === "number") return parsed;
  if (parsed.operands.length === 0 && parsed.options.length === 0) p.stderr.write("runcon: failed to get current context: Invalid argument\n");
  else p.stderr.write("runcon: runcon may be used only on a SELinux kernel\n");
  return 1;
}
