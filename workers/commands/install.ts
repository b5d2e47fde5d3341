import { adjustMode, compileMode } from "../../src/gnu/mode-change.js";
import { quote, quoteaf } from "../../src/gnu/quote.js";
import { strerror } from "../../src/gnu/strerror.js";
import type { ScriptProcess } from "../script-host.js";
import { SysError } from "../system.js";
import { parseArgs, usageError } from "./parse-args.js";
import { groups, lookup, passwd, USER } from "./user-db.js";

const SPECS = [
  { key: "backup", long: "backup", arg: "optional" as const },
  { key: "b", short: "b" },
  { key: "c", short: "c" },
  { key: "C", short: "C", long: "compare" },
  { key: "d", short: "d", long: "directory" },
  { key: "D", short: "D" },
  { key: "g", short: "g", long: "group", arg: "required" as const },
  { key: "m", short: "m", long: "mode", arg: "required" as const },
  { key: "o", short: "o", long: "owner", arg: "required" as const },
  { key: "p", short: "p", long: "preserve-timestamps" },
  { key: "s", short: "s", long: "strip" },
  { key: "strip-program", long: "strip-program", arg: "required" as const },
  { key: "S", short: "S", long: "suffix", arg: "required" as const },
  { key: "t", short: "t", long: "target-directory", arg: "required" as const },
  { key: "T", short: "T", long: "no-target-directory" },
  { key: "v", short: "v", long: "verbose" },
  { key: "Z", short: "Z" },
  { key: "context", long: "context", arg: "optional" as const },
  { key: "preserve-context", long: "preserve-context" },
];

const HELP = `Usage: install [OPTION]... [-T] SOURCE DEST
  or:  install [OPTION]... SOURCE... DIRECTORY
  or:  install [OPTION]... -t DIRECTORY SOURCE...
  or:  install [OPTION]... -d DIRECTORY...

This install program copies files (often just compiled) into destination
locations you choose.  If you want to download and install a ready-to-use
package on a GNU/Linux system, you should instead be using a package manager
like yum(1) or apt-get(1).

In the first three forms, copy SOURCE to DEST or multiple SOURCE(s) to
the existing DIRECTORY, while setting permission modes and owner/group.
In the 4th form, create all components of the given DIRECTORY(ies).
`;

/**
 * GNU install: copies files and sets their mode (0755 unless -m), or makes directories with -d. Owners
 * (-o, -g) are checked as chown does for the VM's one user: its own are no change, others EPERM.
 */
export default function install(p: ScriptProcess): number {
  const { sys, stdout, stderr } = p;
  const usage = (message: string): number => usageError(p, message);
  const parsed = parseArgs(p, SPECS, HELP);
  if (typeof parsed === "number") return parsed;
  let dirs = false;
  let leading = false;
  let modeSpec: string | undefined;
  let owner: string | undefined;
  let group: string | undefined;
  let preserveTimes = false;
  let compare = false;
  let backup = false;
  let suffix = sys.env["SIMPLE_BACKUP_SUFFIX"] || "~";
  let target: string | undefined;
  let noTarget = false;
  let verbose = false;
  for (const o of parsed.options) {
    switch (o.key) {
      case "d":
        dirs = true;
        break;
      case "D":
        leading = true;
        break;
      case "m":
        modeSpec = o.value;
        break;
      case "o":
        owner = o.value;
        break;
      case "g":
        group = o.value;
        break;
      case "p":
        preserveTimes = true;
        break;
      case "C":
        compare = true;
        break;
      case "b":
      case "backup":
        backup = true;
        break;
      case "S":
        suffix = o.value!;
        backup = true;
        break;
      case "t":
        target = o.value;
        break;
      case "T":
        noTarget = true;
        break;
      case "v":
        verbose = true;
        break;
    }
  }
  if (dirs && target !== undefined) return usage("target directory not allowed when installing a directory");
  if (target !== undefined && noTarget) return usage("cannot combine --target-directory (-t) and --no-target-directory (-T)");

  const changes = modeSpec === undefined ? undefined : compileMode(modeSpec);
  if (modeSpec !== undefined && !changes) return stderr.write(`install: invalid mode ${quote(modeSpec, sys.env)}\n`), 1;
  const fileMode = changes ? adjustMode(0o100000, changes, 0) : 0o755;
  const dirMode = changes ? adjustMode(0o040000, changes, 0) : 0o755;
  let uid: number | undefined;
  let gid: number | undefined;
  if (owner !== undefined && (uid = lookup(passwd(sys), owner)) === undefined) return stderr.write(`install: invalid user ${quote(owner, sys.env)}\n`), 1;
  if (group !== undefined && (gid = lookup(groups(sys), group)) === undefined) return stderr.write(`install: invalid group ${quote(group, sys.env)}\n`), 1;
  const ownersPermitted = (uid === undefined || uid === USER.uid) && (gid === undefined || gid === USER.gid);

  let status = 0;
  const fail = (message: string): void => {
    stderr.write(`install: ${message}\n`);
    status = 1;
  };
  const kindOf = (path: string): string | undefined => {
    try {
      return sys.stat(path).kind;
    } catch {
      return undefined;
    }
  };
  /** Makes `dir` and its missing parents (0755, the last `mode`), saying so with -v; false after a message. */
  const makeDirs = (dir: string, mode: number): boolean => {
    const parts = dir.split("/");
    for (let i = 1; i <= parts.length; i++) {
      const path = parts.slice(0, i).join("/");
      if (path === "" || parts[i - 1] === "" || parts[i - 1] === ".") continue;
      const last = parts.slice(i).every((p) => p === "" || p === ".");
      const kind = kindOf(path);
      if (kind === "dir") {
        if (last && modeSpec !== undefined) sys.chmod(path, mode);
        if (last) return true;
        continue;
      }
      try {
        sys.mkdir(path);
        if (verbose) stdout.write(`install: creating directory ${quoteaf(path)}\n`);
        // Parents get the umask's mode (the kernel's), the directory asked for its -m mode.
        if (last) sys.chmod(path, mode);
      } catch (e) {
        fail(`cannot create directory ${quote(path, sys.env)}: ${strerror(e)}`);
        return false;
      }
      if (last) return true;
    }
    return true;
  };
  const setOwners = (path: string): void => {
    if (!ownersPermitted) fail(`cannot change ownership of ${quoteaf(path)}: Operation not permitted`);
  };

  if (dirs) {
    if (parsed.operands.length === 0) return usage("missing file operand");
    for (const dir of parsed.operands) if (makeDirs(dir, dirMode)) setOwners(dir);
    return status;
  }

  const operands = parsed.operands;
  if (operands.length === 0) return usage("missing file operand");
  if (target === undefined && operands.length === 1) return usage(`missing destination file operand after ${quoteaf(operands[0]!)}`);
  let sources: string[];
  let toDir: string | undefined;
  let dest: string | undefined;
  if (target !== undefined) {
    sources = operands;
    toDir = target;
    if (leading && !makeDirs(target, 0o755)) return 1;
  } else {
    sources = operands.slice(0, -1);
    const last = operands[operands.length - 1]!;
    if (noTarget) {
      if (sources.length > 1) return usage(`extra operand ${quoteaf(operands[2]!)}`);
      dest = last;
    } else if (sources.length > 1 || (!leading && kindOf(last) === "dir")) toDir = last;
    else dest = last;
  }
  if (toDir !== undefined) {
    const what = target !== undefined ? "failed to access" : "target";
    try {
      if (sys.stat(toDir).kind !== "dir") throw new SysError("ENOTDIR");
    } catch (e) {
      return stderr.write(`install: ${what} ${quoteaf(toDir)}: ${strerror(e)}\n`), 1;
    }
  }

  const created = new Set<string>();
  for (const source of sources) {
    const to = toDir !== undefined ? `${toDir.replace(/\/+$/, "")}/${source.replace(/\/+$/, "").split("/").pop()}` : dest!;
    let src;
    try {
      src = sys.stat(source);
    } catch (e) {
      fail(`cannot stat ${quoteaf(source)}: ${strerror(e)}`);
      continue;
    }
    if (src.kind === "dir") {
      fail(`omitting directory ${quoteaf(source)}`);
      continue;
    }
    if (leading && toDir === undefined) {
      const parent = to.includes("/") ? to.slice(0, to.lastIndexOf("/")) : "";
      if (parent !== "" && !makeDirs(parent, 0o755)) continue;
    }
    const resolved = sys.resolve(to);
    if (created.has(resolved)) {
      fail(`will not overwrite just-created ${quoteaf(to)} with ${quoteaf(source)}`);
      continue;
    }
    let existing;
    try {
      existing = sys.stat(to);
    } catch {
      existing = undefined;
    }
    if (existing && existing.dev === src.dev && existing.ino === src.ino) {
      fail(`${quoteaf(source)} and ${quoteaf(to)} are the same file`);
      continue;
    }
    let data: Uint8Array;
    try {
      data = sys.readFile(source);
    } catch (e) {
      fail(`cannot open ${quoteaf(source)} for reading: ${strerror(e)}`);
      continue;
    }
    // -C: an identical file with the wanted mode is left as it is.
    if (compare && existing?.kind === "file" && (existing.mode & 0o7777) === fileMode && ownersPermitted) {
      try {
        if (Buffer.from(sys.readFile(to)).equals(data)) continue;
      } catch {
        // unreadable: copy over it
      }
    }
    try {
      let backupName: string | undefined;
      if (existing) {
        if (backup) {
          backupName = to + suffix;
          sys.rename(to, backupName);
        } else {
          sys.unlink(to);
          if (verbose) stdout.write(`removed ${quoteaf(to)}\n`);
        }
      }
      const fd = sys.open(to, { write: true, create: true, exclusive: true });
      try {
        sys.write(fd, data);
      } finally {
        sys.close(fd);
      }
      created.add(resolved);
      sys.chmod(to, fileMode);
      if (preserveTimes) sys.utimes(to, src.atimeMs, src.mtimeMs);
      if (verbose) stdout.write(`${quoteaf(source)} -> ${quoteaf(to)}${backupName ? ` (backup: ${quoteaf(backupName)})` : ""}\n`);
      setOwners(to);
    } catch (e) {
      if (!(e instanceof SysError)) throw e;
      fail(`cannot create regular file ${quoteaf(to)}: ${strerror(e)}`);
    }
  }
  return status;
}
