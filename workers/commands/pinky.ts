import type { ScriptProcess } from "../script-host.js";
import { parseArgs } from "./parse-args.js";
import { loginTimeWidth, passwd } from "./user-db.js";

/**
 * GNU pinky: who is logged in (nobody: the VM keeps no login records) and, with -l, what /etc/passwd says
 * of each user named.
 */
export default function pinky(p: ScriptProcess): number {
  const parsed = parseArgs(
    p,
    [..."lbhpsfwiq"].map((c) => ({ key: c, short: c })),
    "Usage: pinky [OPTION]... [USER]...\nA lightweight 'finger' program;  print user information.\n",
  );
  if (typeof parsed === "number") return parsed;
  const has = (k: string): boolean => parsed.options.some((o) => o.key === k);
  if (!has("l")) {
    if (!has("f")) p.stdout.write(`Login    Name                 TTY      Idle   ${"When".padEnd(loginTimeWidth(p.sys.env))} Where\n`);
    return 0;
  }
  if (parsed.operands.length === 0) {
    p.stderr.write("pinky: no username specified; at least one must be specified when using -l\nTry 'pinky --help' for more information.\n");
    return 1;
  }
  const users = passwd(p.sys);
  for (const name of parsed.operands) {
    const f = users.find((u) => u.name === name)?.fields;
    p.stdout.write(`Login name: ${name.padEnd(28)}In real life:  ${f ? (f[4] ?? "").split(",")[0] : "???"}\n`);
    if (!f) continue;
    if (!has("b")) p.stdout.write(`Directory: ${(f[5] ?? "").padEnd(29)}Shell:  ${f[6] ?? ""}\n`);
    p.stdout.write("\n");
  }
  return 0;
}
