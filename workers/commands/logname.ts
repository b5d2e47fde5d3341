import { quote } from "../../src/gnu/quote.js";
import type { ScriptProcess } from "../script-host.js";
import { parseArgs, usageError } from "./parse-args.js";
import { nameOf, passwd, USER } from "./user-db.js";

/**
 * GNU logname: the VM's user, whose session every process belongs to (LOGNAME is set to it). There are no
 * login records, so who and users list nobody; logname still names the session's user.
 */
export default function logname(p: ScriptProcess): number {
  const parsed = parseArgs(p, [], "Usage: logname [OPTION]\nPrint the user's login name.\n");
  if (typeof parsed === "number") return parsed;
  if (parsed.operands.length > 0) return usageError(p, `extra operand ${quote(parsed.operands[0]!, p.sys.env)}`);
  p.stdout.write(`${nameOf(passwd(p.sys), USER.uid)}\n`);
  return 0;
}
