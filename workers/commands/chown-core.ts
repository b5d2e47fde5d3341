import { quote, quoteaf } from "../../src/gnu/quote.js";
import { strerror } from "../../src/gnu/strerror.js";
import type { ScriptProcess } from "../script-host.js";
import { parseArgs, usageError } from "./parse-args.js";
import { type Entry, groups, lookup, nameOf, passwd, USER } from "./user-db.js";

/**
 * GNU chown and chgrp (chown-core.c) for the VM's one user, who is not root and owns every file: a change
 * to that user and a group it is in (its own, 1000) is allowed and changes nothing; any other owner or
 * group is EPERM, as chown(2) answers a user who is not root. Everything else (operands, -R, -v/-c, -f,
 * --reference, --from, the messages and exit status) is GNU's.
 */
export function chownMain(p: ScriptProcess, tool: "chown" | "chgrp"): number {
  const { sys, stdout, stderr } = p;
  const specs = [
    { key: "c", short: "c", long: "changes" },
    { key: "f", short: "f", long: "silent" },
    { key: "f", long: "quiet" },
    { key: "v", short: "v", long: "verbose" },
    { key: "R", short: "R", long: "recursive" },
    { key: "h", short: "h", long: "no-dereference" },
    { key: "deref", long: "dereference" },
    { key: "H", short: "H" },
    { key: "L", short: "L" },
    { key: "P", short: "P" },
    { key: "from", long: "from", arg: "required" as const },
    { key: "reference", long: "reference", arg: "required" as const },
    { key: "preserve-root", long: "preserve-root" },
    { key: "no-preserve-root", long: "no-preserve-root" },
  ];
  const usage = (message: string): number => usageError(p, message);
  const parsed = parseArgs(
    p,
    specs,
    tool === "chown"
      ? "Usage: chown [OPTION]... [OWNER][:[GROUP]] FILE...\n  or:  chown [OPTION]... --reference=RFILE FILE...\nChange the owner and/or group of each FILE to OWNER and/or GROUP.\n"
      : "Usage: chgrp [OPTION]... GROUP FILE...\n  or:  chgrp [OPTION]... --reference=RFILE FILE...\nChange the group of each FILE to GROUP.\n",
  );
  if (typeof parsed === "number") return parsed;
  let verbosity: "off" | "changes" | "high" = "off";
  let silent = false;
  let recurse = false;
  let followArgs = true;
  let reference: string | undefined;
  let from: string | undefined;
  let preserveRoot = false;
  for (const o of parsed.options) {
    if (o.key === "c") verbosity = "changes";
    if (o.key === "v") verbosity = "high";
    if (o.key === "f") silent = true;
    if (o.key === "R") recurse = true;
    if (o.key === "h") followArgs = false;
    if (o.key === "deref") followArgs = true;
    if (o.key === "reference") reference = o.value;
    if (o.key === "from") from = o.value;
    if (o.key === "preserve-root") preserveRoot = true;
    if (o.key === "no-preserve-root") preserveRoot = false;
  }
  const operands = parsed.operands;
  const users = passwd(sys);
  const grps = groups(sys);
  if (operands.length === 0 || (reference === undefined && operands.length === 1)) {
    return usage(operands.length === 0 ? "missing operand" : `missing operand after ${quote(operands[0]!, sys.env)}`);
  }

  // What to set: a uid and gid (undefined: unchanged), and the names the messages show.
  let uid: number | undefined;
  let gid: number | undefined;
  let userName: string | undefined;
  let groupName: string | undefined;
  if (reference !== undefined) {
    try {
      sys.stat(reference);
    } catch (e) {
      stderr.write(`${tool}: failed to get attributes of ${quoteaf(reference)}: ${strerror(e)}\n`);
      return 1;
    }
    [uid, gid] = [USER.uid, USER.gid];
    if (tool === "chown") userName = nameOf(users, uid);
    groupName = nameOf(grps, gid);
  } else {
    const spec = operands.shift()!;
    if (tool === "chgrp") {
      gid = lookup(grps, spec);
      if (gid === undefined) return stderr.write(`chgrp: invalid group: ${quote(spec, sys.env)}\n`), 1;
      groupName = nameOf(grps, gid);
    } else {
      const parsedSpec = parseSpec(spec, users, grps);
      if (typeof parsedSpec === "string") return stderr.write(`chown: ${parsedSpec}: ${quote(spec, sys.env)}\n`), 1;
      if (parsedSpec.warnDot) stderr.write(`chown: warning: '.' should be ':': ${quote(spec, sys.env)}\n`);
      ({ uid, gid } = parsedSpec);
      if (uid !== undefined) userName = nameOf(users, uid);
      if (gid !== undefined) groupName = nameOf(grps, gid);
      // ":GROUP" is reported as a change of ownership to the file's owner and GROUP (GNU 9.1).
      if (uid === undefined && gid !== undefined) userName = "";
    }
  }
  // --from=CURRENT_OWNER:CURRENT_GROUP: only files so owned are changed; every file is the user's.
  let fromMatches = true;
  if (from !== undefined) {
    const f = parseSpec(from, users, grps);
    if (typeof f === "string") return stderr.write(`${tool}: ${f}: ${quote(from, sys.env)}\n`), 1;
    fromMatches = (f.uid === undefined || f.uid === USER.uid) && (f.gid === undefined || f.gid === USER.gid);
  }
  const permitted = (uid === undefined || uid === USER.uid) && (gid === undefined || gid === USER.gid);
  const specText = (u: string | undefined, g: string | undefined): string | undefined => {
    if (u !== undefined && g !== undefined) return `${u === "" ? nameOf(users, USER.uid) : u}:${g}`;
    return u ?? g;
  };
  const spec = specText(userName, groupName);
  const oldSpec = specText(userName !== undefined ? nameOf(users, USER.uid) : undefined, groupName !== undefined ? nameOf(grps, USER.gid) : undefined);
  const what = userName !== undefined ? "ownership" : groupName !== undefined ? "group" : undefined;

  let status = 0;
  const one = (path: string, follow: boolean): void => {
    try {
      sys.stat(path, follow);
    } catch (e) {
      if (!silent) {
        const dangling = follow && (e as { code?: string }).code === "ENOENT" && exists(path);
        stderr.write(`${tool}: cannot ${dangling ? "dereference" : "access"} ${quoteaf(path)}: ${strerror(e)}\n`);
      }
      status = 1;
      return;
    }
    if (!fromMatches) {
      if (verbosity === "high") stdout.write(what ? `${what} of ${quoteaf(path)} retained as ${spec}\n` : `ownership of ${quoteaf(path)} retained\n`);
      return;
    }
    if (!permitted) {
      if (!silent) stderr.write(`${tool}: changing ${what === "group" ? "group" : "ownership"} of ${quoteaf(path)}: Operation not permitted\n`);
      if (verbosity === "high") stdout.write(`failed to change ${what} of ${quoteaf(path)} from ${oldSpec} to ${spec}\n`);
      status = 1;
      return;
    }
    if (verbosity === "high") stdout.write(what ? `${what} of ${quoteaf(path)} retained as ${spec}\n` : `ownership of ${quoteaf(path)} retained\n`);
  };
  const exists = (path: string): boolean => {
    try {
      sys.stat(path, false);
      return true;
    } catch {
      return false;
    }
  };
  // -R goes depth first and reports a directory after what it holds, as fts hands it back (FTS_DP).
  const walk = (path: string, follow: boolean): void => {
    let isDir = false;
    try {
      isDir = sys.stat(path, follow).kind === "dir";
    } catch {
      // reported by one()
    }
    if (recurse && isDir) {
      if (preserveRoot && sys.resolve(path).replace(/\/+$/, "") === "") {
        stderr.write(`${tool}: it is dangerous to operate recursively on '/'\n${tool}: use --no-preserve-root to override this failsafe\n`);
        status = 1;
        return;
      }
      try {
        const prefix = path.endsWith("/") ? path : `${path}/`;
        for (const { name } of sys.readdir(path)) walk(prefix + name, traversal === "L");
      } catch (e) {
        if (!silent) stderr.write(`${tool}: cannot read directory ${quoteaf(path)}: ${strerror(e)}\n`);
        status = 1;
      }
    }
    one(path, follow);
  };
  // -R works on symbolic links themselves (fts -P, GNU's default), unless -H or -L says to follow them.
  const traversal = parsed.options.filter((o) => "HLP".includes(o.key)).pop()?.key ?? "P";
  for (const path of operands) walk(path, recurse ? traversal !== "P" : followArgs);
  return status;
}

/** OWNER[:[GROUP]], :GROUP, OWNER. (the old separator): ids, or the message of an invalid spec. */
function parseSpec(spec: string, users: readonly Entry[], grps: readonly Entry[]): { uid?: number; gid?: number; warnDot?: boolean } | string {
  let sep = spec.indexOf(":");
  let warnDot = false;
  if (sep < 0) {
    // "u.g" means "u:g" unless a user is named so.
    const dot = spec.indexOf(".");
    if (dot >= 0 && lookup(users, spec) === undefined) {
      sep = dot;
      warnDot = true;
    }
  }
  const userPart = sep < 0 ? spec : spec.slice(0, sep);
  const groupPart = sep < 0 ? undefined : spec.slice(sep + 1);
  let uid: number | undefined;
  let gid: number | undefined;
  if (userPart !== "") {
    uid = lookup(users, userPart);
    if (uid === undefined) return "invalid user";
    // "OWNER:" takes the owner's login group.
    if (groupPart === "") gid = users.find((u) => u.id === uid)?.gid;
  }
  if (groupPart !== undefined && groupPart !== "") {
    gid = lookup(grps, groupPart);
    if (gid === undefined) return "invalid group";
  }
  return { uid, gid, warnDot };
}
