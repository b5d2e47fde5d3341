import type { ScriptProcess } from "../script-host.js";
import { parseArgs, usageError } from "./parse-args.js";

/** GNU users: the users logged in, from login records; the VM keeps none (no terminals), so none. */
export default function users(p: ScriptProcess): number {
  const parsed = parseArgs(p, [], "Usage: users [OPTION]... [FILE]\nOutput who is currently logged in according to FILE.\n");
  if (typeof parsed === "number") return parsed;
  if (parsed.operands.length > 1) return usageError(p, `extra operand '${parsed.operands[1]}'`);
  return 0;
}
