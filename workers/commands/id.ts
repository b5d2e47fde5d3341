import { quote } from "../../src/gnu/quote.js";
import type { ScriptProcess } from "../script-host.js";
import { parseArgs, usageError } from "./parse-args.js";
import { type Entry, groups, nameOf, passwd, USER } from "./user-db.js";

/** The groups of user `name` with primary group `gid`: the primary first, then those listing the user. */
export function groupsOf(grps: readonly Entry[], name: string, gid: number): number[] {
  return [gid, ...grps.filter((g) => g.id !== gid && g.members?.includes(name)).map((g) => g.id)];
}

/** GNU id: the VM's processes run as `user` (1000:1000); another user is looked up in /etc/passwd. */
export default function id(p: ScriptProcess): number {
  const { sys, stdout, stderr } = p;
  const parsed = parseArgs(
    p,
    [
      { key: "u", short: "u", long: "user" },
      { key: "g", short: "g", long: "group" },
      { key: "G", short: "G", long: "groups" },
      { key: "n", short: "n", long: "name" },
      { key: "r", short: "r", long: "real" },
      { key: "z", short: "z", long: "zero" },
      { key: "a", short: "a" },
      { key: "Z", short: "Z", long: "context" },
    ],
    "Usage: id [OPTION]... [USER]...\nPrint user and group information for each specified USER,\nor (when USER omitted) for the current process.\n",
  );
  if (typeof parsed === "number") return parsed;
  if (parsed.operands.length > 1) return usageError(p, `extra operand ${quote(parsed.operands[1]!, sys.env)}`);
  const has = (k: string): boolean => parsed.options.some((o) => o.key === k);
  const users = passwd(sys);
  const grps = groups(sys);
  let name = USER.name;
  let uid = USER.uid;
  let gid = USER.gid;
  const operand = parsed.operands[0];
  if (operand !== undefined) {
    const e = users.find((u) => u.name === operand) ?? (/^\+?\d+$/.test(operand) ? users.find((u) => u.id === Number(operand)) : undefined);
    if (!e) return stderr.write(`id: ${quote(operand, sys.env)}: no such user\n`), 1;
    [name, uid, gid] = [e.name, e.id, e.gid ?? e.id];
  } else name = nameOf(users, uid);
  const only = ["u", "g", "G"].filter(has);
  if (has("Z")) return stderr.write("id: --context (-Z) works only on an SELinux-enabled kernel\n"), 1;
  if (only.length > 1) return stderr.write("id: cannot print \"only\" of more than one choice\n"), 1;
  if (only.length === 0 && (has("n") || has("r"))) return stderr.write("id: cannot print only names or real IDs in default format\n"), 1;
  if (only.length === 0 && has("z")) return stderr.write("id: option --zero not permitted in default format\n"), 1;
  const all = groupsOf(grps, name, gid);
  const show = (n: number, db: readonly Entry[]): string => (has("n") ? nameOf(db, n) : String(n));
  const end = has("z") ? "\0" : "\n";
  if (has("u")) return stdout.write(`${show(uid, users)}${end}`), 0;
  if (has("g")) return stdout.write(`${show(gid, grps)}${end}`), 0;
  if (has("G")) return stdout.write(`${all.map((g) => show(g, grps)).join(has("z") ? "\0" : " ")}${end}`), 0;
  const named = (n: number, db: readonly Entry[]): string => (db.some((e) => e.id === n) ? `${n}(${nameOf(db, n)})` : String(n));
  stdout.write(`uid=${named(uid, users)} gid=${named(gid, grps)} groups=${all.map((g) => named(g, grps)).join(",")}\n`);
  return 0;
}
