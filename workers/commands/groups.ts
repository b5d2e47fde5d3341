import { quote } from "../../src/gnu/quote.js";
import type { ScriptProcess } from "../script-host.js";
import { groupsOf } from "./id.js";
import { parseArgs } from "./parse-args.js";
import { groups as groupDb, nameOf, passwd, USER } from "./user-db.js";

const HELP = `Usage: groups [OPTION]... [USERNAME]...
Print group memberships for each USERNAME or, if no USERNAME is specified, for
the current process (which may differ if the groups database has changed).
`;

/** GNU groups: the groups of the VM's user, or of each USER named (`USER : groups`). */
export default function groups(p: ScriptProcess): number {
  const parsed = parseArgs(p, [], HELP);
  if (typeof parsed === "number") return parsed;
  const users = passwd(p.sys);
  const grps = groupDb(p.sys);
  const list = (name: string, gid: number): string => groupsOf(grps, name, gid).map((g) => nameOf(grps, g)).join(" ");
  if (parsed.operands.length === 0) {
    p.stdout.write(`${list(nameOf(users, USER.uid), USER.gid)}\n`);
    return 0;
  }
  let status = 0;
  for (const name of parsed.operands) {
    const u = users.find((e) => e.name === name);
    if (!u) {
      p.stderr.write(`groups: ${quote(name, p.sys.env)}: no such user\n`);
      status = 1;
      continue;
    }
    p.stdout.write(`${name} : ${list(name, u.gid ?? u.id)}\n`);
  }
  return status;
}
