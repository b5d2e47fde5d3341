import { quote } from "../../src/gnu/quote.js";
import type { ScriptProcess } from "../script-host.js";
import { parseArgs, usageError } from "./parse-args.js";
import { loginTimeWidth } from "./user-db.js";

/** GNU who over the VM's login records, of which there are none (no terminals, no logins): headers and counts only. */
export default function who(p: ScriptProcess): number {
  const parsed = parseArgs(
    p,
    [
      ...[..."bdlmprstTuw"].map((c) => ({ key: c, short: c })),
      { key: "H", short: "H", long: "heading" },
      { key: "q", short: "q", long: "count" },
      { key: "a", short: "a", long: "all" },
      { key: "lookup", long: "lookup" },
    ],
    "Usage: who [OPTION]... [ FILE | ARG1 ARG2 ]\nPrint information about users who are currently logged in.\n",
  );
  if (typeof parsed === "number") return parsed;
  if (parsed.operands.length > 2) return usageError(p, `extra operand ${quote(parsed.operands[2]!, p.sys.env)}`);
  const has = (k: string): boolean => parsed.options.some((o) => o.key === k);
  if (has("q")) p.stdout.write("\n# users=0\n");
  else if (has("H")) p.stdout.write(`NAME     LINE         ${"TIME".padEnd(loginTimeWidth(p.sys.env))} COMMENT\n`);
  return 0;
}
