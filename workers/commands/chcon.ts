import { quote, quoteaf } from "../../src/gnu/quote.js";
import { strerror } from "../../src/gnu/strerror.js";
import type { ScriptProcess } from "../script-host.js";
import { parseArgs, usageError } from "./parse-args.js";

/** GNU chcon on a kernel without SELinux (the VM's): files carry no security context, so no change is made. */
export default function chcon(p: ScriptProcess): number {
  const parsed = parseArgs(
    p,
    [
      { key: "h", short: "h", long: "no-dereference" },
      { key: "dereference", long: "dereference" },
      { key: "R", short: "R", long: "recursive" },
      { key: "v", short: "v", long: "verbose" },
      ..."HLP".split("").map((c) => ({ key: c, short: c })),
      { key: "u", short: "u", long: "user", arg: "required" as const },
      { key: "r", short: "r", long: "role", arg: "required" as const },
      { key: "t", short: "t", long: "type", arg: "required" as const },
      { key: "l", short: "l", long: "range", arg: "required" as const },
      { key: "reference", long: "reference", arg: "required" as const },
      { key: "preserve-root", long: "preserve-root" },
      { key: "no-preserve-root", long: "no-preserve-root" },
    ],
    "Usage: chcon [OPTION]... CONTEXT FILE...\n  or:  chcon [OPTION]... [-u USER] [-r ROLE] [-l RANGE] [-t TYPE] FILE...\n  or:  chcon [OPTION]... --reference=RFILE FILE...\nChange the SELinux security context of each FILE to CONTEXT.\n",
  );
  if (typeof parsed === "number") return parsed;
  const partial = parsed.options.some((o) => "urtl".includes(o.key));
  const reference = parsed.options.some((o) => o.key === "reference");
  const operands = [...parsed.operands];
  const context = partial || reference ? undefined : operands.shift();
  if (operands.length === 0) return usageError(p, context === undefined ? "missing operand" : `missing operand after ${quote(context, p.sys.env)}`);
  if (reference) {
    p.stderr.write(`chcon: failed to get security context of ${quoteaf(parsed.options.find((o) => o.key === "reference")!.value!)}: Operation not supported\n`);
    return 1;
  }
  for (const file of operands) {
    try {
      p.sys.stat(file);
    } catch (e) {
      p.stderr.write(`chcon: cannot access ${quoteaf(file)}: ${strerror(e)}\n`);
      continue;
    }
    if (partial) p.stderr.write(`chcon: can't apply partial context to unlabeled file ${quoteaf(file)}\n`);
    else p.stderr.write(`chcon: failed to change context of ${quoteaf(file)} to ${quote(context!, p.sys.env)}: Operation not supported\n`);
  }
  return 1;
}
