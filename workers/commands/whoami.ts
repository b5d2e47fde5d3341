import { quote } from "../../src/gnu/quote.js";
import type { ScriptProcess } from "../script-host.js";
import { parseArgs, usageError } from "./parse-args.js";
import { nameOf, passwd, USER } from "./user-db.js";

/** GNU whoami: the name of the VM's user, who runs every process. */
export default function whoami(p: ScriptProcess): number {
  const parsed = parseArgs(p, [], "Usage: whoami [OPTION]...\nPrint the user name associated with the current effective user ID.\n");
  if (typeof parsed === "number") return parsed;
  if (parsed.operands.length > 0) return usageError(p, `extra operand ${quote(parsed.operands[0]!, p.sys.env)}`);
  p.stdout.write(`${nameOf(passwd(p.sys), USER.uid)}\n`);
  return 0;
}
