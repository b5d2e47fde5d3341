/** find's primaries: options, tests and actions, each parsed from its arguments into a function of a file. */
import { adjustMode, compileMode } from "../../../src/gnu/mode-change.js";
import type { Output, Stat } from "../../system.js";
import { Output as OutputClass } from "../../system.js";
import { type Entry, errorText as strerror, FindError, type Find, typeChar } from "./context.js";
import { blocks512, compileFormat, lsLine } from "./printf.js";
import { REGEX_TYPES, compileRegex, globLiteral, globSuffix, globToRegExp } from "./regex.js";

export type Test = (e: Entry) => boolean;

export interface Primary {
  test: Test;
  /** An action: its presence stops the implicit -print. */
  action?: boolean;
  /** A global option (-maxdepth, …), which GNU warns about after a test. */
  global?: boolean;
  /** Any option (always true, not a test). */
  option?: boolean;
}

/** The arguments of the primary being parsed. */
export interface Args {
  readonly name: string;
  /** The next argument, or FindError "missing argument to `-x'". */
  next(): string;
  /** The next argument if there is one. */
  peek(): string | undefined;
}

/** Every file's owner: the VM has one user, `user` (1000:1000 in /etc/passwd), as stat reports. */
export const FILE_UID = 1000;
export const FILE_GID = 1000;

const TRUE: Test = () => true;
const FALSE: Test = () => false;
const option = (fn?: () => void, global = false): Primary => {
  fn?.();
  return { test: TRUE, option: true, global };
};

type Comparison = "lt" | "eq" | "gt";

/** `+N`, `-N` or `N`: [comparison, N], or FindError "invalid argument". */
function comparison(a: Args, value: string, float = false): [Comparison, number] {
  const cmp: Comparison = value.startsWith("+") ? "gt" : value.startsWith("-") ? "lt" : "eq";
  const digits = cmp === "eq" ? value : value.slice(1);
  const ok = float ? /^(\d+\.?\d*|\.\d+)$/.test(digits) : /^\d+$/.test(digits);
  if (!ok) throw new FindError(`invalid argument \`${value}' to \`${a.name}'`);
  return [cmp, Number(digits)];
}

const compare = (cmp: Comparison, n: number, v: number): boolean => (cmp === "lt" ? v < n : cmp === "gt" ? v > n : v === n);

const numericTest = (a: Args, of: (s: Stat) => number): Primary => {
  const [cmp, n] = comparison(a, a.next());
  return { test: (e) => { const s = e.stat(); return s ? compare(cmp, n, of(s)) : false; } };
};

const TYPES = "fdlbcps";

function typeSet(f: Find, a: Args): Set<string> {
  const arg = a.next();
  const set = new Set<string>();
  const parts = arg.split(",");
  for (let i = 0; i < parts.length; i++) {
    const t = parts[i]!;
    if (t === "" && i === parts.length - 1 && i > 0)
      throw new FindError(`Last file type in list argument to ${a.name} is missing, i.e., list is ending on: ','`);
    if (t.length > 1 && TYPES.includes(t[0]!)) throw new FindError(`Must separate multiple arguments to ${a.name} using: ','`);
    if (t.length !== 1 || !TYPES.includes(t) && t !== "D") throw new FindError(`Unknown argument to ${a.name}: ${t === "" ? "" : t[0]}`);
    if (set.has(t)) throw new FindError(`Duplicate file type '${t}' in the argument list to ${a.name}.`);
    set.add(t);
  }
  void f;
  return set;
}

/** The stat of a reference file (-newer, -samefile): fatal when it does not exist. */
function reference(f: Find, path: string): Stat {
  try {
    return f.sys.stat(path, f.symlinks !== "P");
  } catch (e) {
    try {
      if (f.symlinks !== "P") return f.sys.stat(path, false);
    } catch {
      // reported below
    }
    throw new FindError(`${f.q(path)}: ${strerror(e)}`);
  }
}

const TIME_FIELD = { a: "atimeMs", c: "ctimeMs", m: "mtimeMs", B: "ctimeMs" } as const;

/** -newermt's date: @epoch, YYYY-MM-DD[ HH:MM[:SS[.frac]]], and what Date.parse reads, in UTC. */
function parseDate(f: Find, text: string): number {
  const t = text.trim();
  if (/^@-?\d+(\.\d+)?$/.test(t)) return Number(t.slice(1)) * 1000;
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?\s*(Z|UTC)?$/.exec(t);
  if (m) {
    const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0));
    return ms + (m[7] ? Number(m[7]) * 1000 : 0);
  }
  const parsed = Date.parse(/[zZ]|UTC|GMT|[+-]\d\d:?\d\d$/.test(t) ? t : `${t} UTC`);
  if (!Number.isNaN(parsed)) return parsed;
  throw new FindError(`I cannot figure out how to interpret ${f.q(text)} as a date or time`);
}

/** -mtime N (days, rounded down) and -mmin N (minutes, rounded up), as GNU compares them. */
function timeTest(f: Find, a: Args, field: "atimeMs" | "ctimeMs" | "mtimeMs", unit: "day" | "min"): Primary {
  const [cmp, n] = comparison(a, a.next(), true);
  const origin = (): number => f.dayStart;
  if (unit === "day") {
    const D = 86400000;
    return {
      test: (e) => {
        const s = e.stat();
        if (!s) return false;
        const age = origin() - s[field];
        if (cmp === "gt") return age >= (Math.floor(n) + 1) * D;
        if (cmp === "lt") return age < Math.ceil(n) * D;
        return age >= n * D && age < (n + 1) * D;
      },
    };
  }
  const M = 60000;
  return {
    test: (e) => {
      const s = e.stat();
      if (!s) return false;
      const age = origin() - s[field];
      if (cmp === "gt") return age > n * M;
      if (cmp === "lt") return age < n * M;
      return age > (n - 1) * M && age <= n * M;
    },
  };
}

/** -perm: MODE exactly, -MODE all of its bits, /MODE any of them (octal or symbolic). */
function permTest(f: Find, a: Args): Primary {
  const arg = a.next();
  let kind: "exact" | "all" | "any" = "exact";
  let text = arg;
  if (arg.startsWith("-")) {
    kind = "all";
    text = arg.slice(1);
  } else if (arg.startsWith("/")) {
    kind = "any";
    text = arg.slice(1);
  }
  const changes = compileMode(text);
  if (!changes) throw new FindError(`invalid mode ${f.q(arg)}`);
  const mode = adjustMode(0, changes, 0);
  return {
    test: (e) => {
      const s = e.stat();
      if (!s) return false;
      const m = s.mode & 0o7777;
      if (kind === "exact") return m === mode;
      if (kind === "all") return (m & mode) === mode;
      return mode === 0 || (m & mode) !== 0;
    },
  };
}

/** An output file of -fprint and friends, opened (truncated) once per name; /dev/stdout and /dev/stderr are find's own. */
function outputFile(f: Find, name: string): Output {
  if (name === "/dev/stdout") return f.stdout;
  if (name === "/dev/stderr") return f.stderr;
  let out = f.files.get(name);
  if (!out) {
    let fd: number;
    try {
      fd = f.sys.open(name, { write: true, create: true, truncate: true });
    } catch (e) {
      throw new FindError(`${f.q(name)}: ${strerror(e)}`);
    }
    out = new OutputClass(f.sys, fd);
    f.files.set(name, out);
  }
  return out;
}

/** The exit status of a command run for -exec and friends; undefined when it could not start. */
function runCommand(f: Find, argv: string[], cwd: string | undefined, stdin: number | undefined): number | undefined {
  f.flushAll();
  let pid: number;
  try {
    pid = f.sys.spawn(argv, [stdin, 1, 2], f.sys.env, cwd ?? f.sys.cwd);
  } catch (e) {
    f.stderr.write(`find: ${f.q(argv[0]!)}: ${strerror(e)}\n`);
    return undefined;
  }
  const status = f.sys.wait(pid);
  return status & 0x7f ? 128 + (status & 0x7f) : (status >> 8) & 0xff;
}

/** The directory a file is in (absolute) and its name as -execdir passes it: ./name. */
function execdirParts(f: Find, e: Entry): [string, string] {
  let p = e.path;
  if (e.depth > 0) return [f.sys.resolve(p.slice(0, p.length - e.name.length - 1) || "/"), `./${e.name}`];
  if (/^\/+$/.test(p)) return ["/", "/"];
  p = p.replace(/\/+$/, "");
  const i = p.lastIndexOf("/");
  if (i < 0) return [f.sys.cwd, `./${p}`];
  return [f.sys.resolve(p.slice(0, i) || "/"), `./${p.slice(i + 1)}`];
}

const ARG_LIMIT = 128 * 1024;

function execPrimary(f: Find, a: Args, inDir: boolean, ask: boolean): Primary {
  const command: string[] = [];
  let plus = false;
  for (;;) {
    const arg = a.peek();
    if (arg === undefined) throw new FindError(`missing argument to \`${a.name}'`);
    a.next();
    if (arg === ";") break;
    if (arg === "+" && command.length > 0 && command[command.length - 1]!.includes("{}") && !ask) {
      const last = command[command.length - 1]!;
      if (last !== "{}")
        throw new FindError(`In ${f.q(`${a.name} ... {} +`)} the ${f.q("{}")} must appear by itself, but you specified ${f.q(last)}`);
      plus = true;
      command.pop();
      break;
    }
    command.push(arg);
  }
  if (command.length === 0) throw new FindError(`invalid argument \`${plus ? "+" : ";"}' to \`${a.name}'`);
  if (plus) {
    for (const c of command)
      if (c.includes("{}")) {
        if (c === "{}") throw new FindError(`Only one instance of {} is supported with ${a.name} ... +`);
        throw new FindError(`In ${f.q(`${a.name} ... {} +`)} the ${f.q("{}")} must appear by itself, but you specified ${f.q(c)}`);
      }
    // Batches: one per directory for -execdir.
    let batch: string[] = [];
    let batchDir: string | undefined;
    let size = 0;
    const fixed = command.reduce((n, c) => n + c.length + 1, 0);
    const run = (): void => {
      if (batch.length === 0) return;
      const code = runCommand(f, [...command, ...batch], batchDir, 0);
      if (code !== 0) f.status = 1;
      batch = [];
      size = 0;
    };
    f.finishers.push(run);
    return {
      action: true,
      test: (e) => {
        let dir: string | undefined;
        let name = e.path;
        if (inDir) [dir, name] = execdirParts(f, e);
        if (batch.length > 0 && (dir !== batchDir || fixed + size + name.length + 1 > ARG_LIMIT)) run();
        batchDir = dir;
        batch.push(name);
        size += name.length + 1;
        return true;
      },
    };
  }
  return {
    action: true,
    test: (e) => {
      let dir: string | undefined;
      let name = e.path;
      if (inDir) [dir, name] = execdirParts(f, e);
      const argv = command.map((c) => c.replaceAll("{}", name));
      if (ask) {
        f.flushAll();
        f.stderr.write(`< ${argv[0]} ... ${name} > ? `);
        f.stderr.flush();
        if (!yes(f)) return false;
      }
      return runCommand(f, argv, dir, ask ? undefined : 0) === 0;
    },
  };
}

/** Reads an answer line from stdin: yes when it starts with y or Y. */
function yes(f: Find): boolean {
  let line = "";
  for (;;) {
    const b = f.sys.read(0, 1);
    if (b.length === 0) break;
    const c = String.fromCharCode(b[0]!);
    if (c === "\n") break;
    line += c;
  }
  return /^[yY]/.test(line);
}

function deletePrimary(f: Find): Primary {
  f.depthFirst = true;
  return {
    action: true,
    test: (e) => {
      if (e.path === "." || e.path === "./") return true;
      const dir = e.lstat()?.kind === "dir";
      try {
        if (dir) f.sys.rmdir(e.path);
        else f.sys.unlink(e.path);
        return true;
      } catch (err) {
        f.error(`cannot delete ${f.q(e.path)}: ${strerror(err)}`);
        return false;
      }
    },
  };
}

function nameTest(f: Find, a: Args, of: (e: Entry) => string, ignoreCase: boolean, warnSlash: boolean): Primary {
  const pattern = a.next();
  if (warnSlash && pattern.includes("/") && f.warnings)
    f.warn(
      `'${a.name}' matches against basenames only, but the given pattern contains a directory separator ('/'), thus the expression will evaluate to false all the time.  Did you mean '-wholename'?`,
    );
  if (!ignoreCase) {
    const literal = globLiteral(pattern);
    if (literal !== undefined) return { test: (e) => of(e) === literal };
    const suffix = globSuffix(pattern);
    if (suffix !== undefined) return { test: (e) => of(e).endsWith(suffix) };
  }
  const re = globToRegExp(pattern, ignoreCase);
  return { test: (e) => re.test(of(e)) };
}

function regexTest(f: Find, a: Args, ignoreCase: boolean): Primary {
  const pattern = a.next();
  const re = compileRegex(pattern, f.regexType, ignoreCase);
  if (re instanceof Error) throw new FindError(`failed to compile regular expression '${pattern}': ${re.message}`);
  return { test: (e) => re.test(e.path) };
}

function userTest(f: Find, a: Args, group: boolean): Primary {
  const name = a.next();
  let id = group ? f.groupId(name) : f.userId(name);
  if (id === undefined && /^\d+$/.test(name)) id = Number(name);
  if (id === undefined) {
    if (name === "") throw new FindError(group ? "argument to -group is empty, but should be a group name" : "The argument to -user should not be empty");
    throw new FindError(group ? `${f.q(name)} is not the name of an existing group` : `${f.q(name)} is not the name of a known user`);
  }
  const owner = group ? FILE_GID : FILE_UID;
  const match = id === owner;
  return { test: match ? TRUE : FALSE };
}

function depthOption(f: Find, a: Args, set: (n: number) => void): Primary {
  const v = a.next();
  if (!/^\d+$/.test(v)) throw new FindError(`Expected a positive decimal integer argument to ${a.name}, but got ${f.q(v)}`);
  return option(() => set(Number(v)), true);
}

function sizeTest(a: Args): Primary {
  const arg = a.next();
  const units: Record<string, number> = { b: 512, c: 1, w: 2, k: 1024, M: 1024 * 1024, G: 1024 * 1024 * 1024 };
  // GNU looks at the unit (the last character, when not a digit) before the number.
  const last = arg[arg.length - 1] ?? "";
  if (last !== "" && !/\d/.test(last) && units[last] === undefined) throw new FindError(`invalid -size type \`${last}'`);
  const m = /^([+-]?)(\d+)([bcwkMG]?)$/.exec(arg);
  if (!m) throw new FindError(`invalid argument \`${arg}' to \`-size'`);
  const unit = units[m[3] || "b"]!;
  const n = Number(m[2]);
  const cmp: Comparison = m[1] === "+" ? "gt" : m[1] === "-" ? "lt" : "eq";
  return {
    test: (e) => {
      const s = e.stat();
      if (!s) return false;
      return compare(cmp, n, Math.ceil(s.size / unit));
    },
  };
}

function emptyTest(f: Find): Primary {
  return {
    test: (e) => {
      const t = e.type();
      if (t === "f") return (e.stat()?.size ?? 1) === 0;
      if (t === "d") {
        try {
          return f.sys.readdir(e.path).length === 0;
        } catch (err) {
          f.error(`${f.q(e.path)}: ${strerror(err)}`);
          return false;
        }
      }
      return false;
    },
  };
}

const accessTest = (bit: number): Primary => ({
  test: (e) => {
    const s = e.stat();
    if (!s) return false;
    return (s.mode & bit) !== 0;
  },
});

/** The primaries by name; each parses its arguments and answers its test. */
export const PRIMARIES: Record<string, (f: Find, a: Args) => Primary> = {
  // Options.
  "-maxdepth": (f, a) => depthOption(f, a, (n) => (f.maxDepth = n)),
  "-mindepth": (f, a) => depthOption(f, a, (n) => (f.minDepth = n)),
  "-depth": (f) => option(() => ((f.depthFirst = true), (f.explicitDepth = true)), true),
  "-d": (f) => option(() => ((f.depthFirst = true), (f.explicitDepth = true)), true),
  "-xdev": (f) => option(() => (f.xdev = true), true),
  "-mount": (f) => option(() => (f.xdev = true), true),
  "-noleaf": () => option(undefined, true),
  "-ignore_readdir_race": () => option(undefined, true),
  "-noignore_readdir_race": () => option(undefined, true),
  "-follow": (f) => option(() => (f.symlinks = "L")),
  "-warn": (f) => option(() => (f.warnings = true)),
  "-nowarn": (f) => option(() => (f.warnings = false)),
  "-daystart": (f) =>
    option(() => {
      const d = new Date(f.now);
      f.dayStart = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
    }),
  "-regextype": (f, a) => {
    const t = a.next();
    if (!(REGEX_TYPES as readonly string[]).includes(t))
      throw new FindError(`Unknown regular expression type ${f.q(t)}; valid types are ${REGEX_TYPES.map((x) => f.q(x)).join(", ")}.`);
    return option(() => (f.regexType = t));
  },
  // Tests.
  "-true": () => ({ test: TRUE }),
  "-false": () => ({ test: FALSE }),
  "-name": (f, a) => nameTest(f, a, (e) => e.name, false, true),
  "-iname": (f, a) => nameTest(f, a, (e) => e.name, true, true),
  "-path": (f, a) => nameTest(f, a, (e) => e.path, false, false),
  "-wholename": (f, a) => nameTest(f, a, (e) => e.path, false, false),
  "-ipath": (f, a) => nameTest(f, a, (e) => e.path, true, false),
  "-iwholename": (f, a) => nameTest(f, a, (e) => e.path, true, false),
  "-lname": (f, a) => {
    const re = globToRegExp(a.next(), false);
    return { test: (e) => e.lstat()?.kind === "symlink" && re.test(f.sys.readlink(e.path)) };
  },
  "-ilname": (f, a) => {
    const re = globToRegExp(a.next(), true);
    return { test: (e) => e.lstat()?.kind === "symlink" && re.test(f.sys.readlink(e.path)) };
  },
  "-regex": (f, a) => regexTest(f, a, false),
  "-iregex": (f, a) => regexTest(f, a, true),
  "-type": (f, a) => {
    const set = typeSet(f, a);
    return { test: (e) => set.has(e.type()) };
  },
  "-xtype": (f, a) => {
    const set = typeSet(f, a);
    return { test: (e) => set.has(e.xtype()) };
  },
  "-empty": (f) => emptyTest(f),
  "-size": (_f, a) => sizeTest(a),
  "-links": (_f, a) => numericTest(a, (s) => s.nlink),
  "-inum": (_f, a) => numericTest(a, (s) => s.ino),
  "-uid": (_f, a) => {
    const [cmp, n] = comparison(a, a.next());
    return { test: () => compare(cmp, n, FILE_UID) };
  },
  "-gid": (_f, a) => {
    const [cmp, n] = comparison(a, a.next());
    return { test: () => compare(cmp, n, FILE_GID) };
  },
  "-user": (f, a) => userTest(f, a, false),
  "-group": (f, a) => userTest(f, a, true),
  "-nouser": () => ({ test: FALSE }),
  "-nogroup": () => ({ test: FALSE }),
  "-perm": (f, a) => permTest(f, a),
  "-readable": () => accessTest(0o400),
  "-writable": () => accessTest(0o200),
  "-executable": () => accessTest(0o100),
  "-mtime": (f, a) => timeTest(f, a, "mtimeMs", "day"),
  "-atime": (f, a) => timeTest(f, a, "atimeMs", "day"),
  "-ctime": (f, a) => timeTest(f, a, "ctimeMs", "day"),
  "-mmin": (f, a) => timeTest(f, a, "mtimeMs", "min"),
  "-amin": (f, a) => timeTest(f, a, "atimeMs", "min"),
  "-cmin": (f, a) => timeTest(f, a, "ctimeMs", "min"),
  "-newer": (f, a) => newerTest(f, "mtimeMs", reference(f, a.next()).mtimeMs),
  "-anewer": (f, a) => newerTest(f, "atimeMs", reference(f, a.next()).mtimeMs),
  "-cnewer": (f, a) => newerTest(f, "ctimeMs", reference(f, a.next()).mtimeMs),
  "-used": (_f, a) => {
    const [cmp, n] = comparison(a, a.next(), true);
    return {
      test: (e) => {
        const s = e.stat();
        if (!s) return false;
        const days = (s.atimeMs - s.ctimeMs) / 86400000;
        return cmp === "gt" ? days > n : cmp === "lt" ? days < n : Math.floor(days) === n;
      },
    };
  },
  "-samefile": (f, a) => {
    const ref = reference(f, a.next());
    return { test: (e) => { const s = e.stat(); return !!s && s.ino === ref.ino && s.dev === ref.dev; } };
  },
  "-fstype": (_f, a) => {
    const t = a.next();
    return { test: () => t === "tmpfs" };
  },
  "-context": (_f, a) => (a.next(), { test: FALSE }),
  // Actions.
  "-print": (f) => ({ action: true, test: (e) => (f.stdout.write(`${e.path}\n`), true) }),
  "-print0": (f) => ({ action: true, test: (e) => (f.stdout.write(`${e.path}\0`), true) }),
  "-printf": (f, a) => {
    const fmt = compileFormat(f, a.next());
    return { action: true, test: (e) => (f.stdout.write(fmt(e)), true) };
  },
  "-fprint": (f, a) => {
    const out = outputFile(f, a.next());
    return { action: true, test: (e) => (out.write(`${e.path}\n`), true) };
  },
  "-fprint0": (f, a) => {
    const out = outputFile(f, a.next());
    return { action: true, test: (e) => (out.write(`${e.path}\0`), true) };
  },
  "-fprintf": (f, a) => {
    const name = a.next();
    const fmt = compileFormat(f, a.next());
    const out = outputFile(f, name);
    return { action: true, test: (e) => (out.write(fmt(e)), true) };
  },
  "-ls": (f) => ({ action: true, test: (e) => (f.stdout.write(lsLine(f, e)), true) }),
  "-fls": (f, a) => {
    const out = outputFile(f, a.next());
    return { action: true, test: (e) => (out.write(lsLine(f, e)), true) };
  },
  "-prune": (f) => ({ test: () => ((f.prune = true), true) }),
  "-quit": (f) => ({ action: true, test: () => ((f.quit = true), true) }),
  "-delete": (f) => deletePrimary(f),
  "-exec": (f, a) => execPrimary(f, a, false, false),
  "-execdir": (f, a) => execPrimary(f, a, true, false),
  "-ok": (f, a) => execPrimary(f, a, false, true),
  "-okdir": (f, a) => execPrimary(f, a, true, true),
};

// -newerXY: X (the file's) and Y (the reference's) among a, B, c, m; Y t: a date.
for (const x of "aBcm")
  for (const y of "aBcmt")
    PRIMARIES[`-newer${x}${y}`] = (f, a) => {
      const arg = a.next();
      const when = y === "t" ? parseDate(f, arg) : reference(f, arg)[TIME_FIELD[y as keyof typeof TIME_FIELD]];
      return newerTest(f, TIME_FIELD[x as keyof typeof TIME_FIELD], when);
    };

function newerTest(_f: Find, field: "atimeMs" | "ctimeMs" | "mtimeMs", when: number): Primary {
  return { test: (e) => { const s = e.stat(); return !!s && s[field] > when; } };
}

export { blocks512, typeChar };
