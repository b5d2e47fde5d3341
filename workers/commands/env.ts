import { posix } from "node:path";
import { quote, quoteaf } from "../../src/gnu/quote.js";
import { strerror } from "../../src/gnu/strerror.js";
import type { ScriptProcess } from "../script-host.js";
import { SysError } from "../system.js";
import { versionText } from "../../src/gnu/version.js";

// GNU env (coreutils 9.1): the environment changed by -i, -u and NAME=VALUE, then printed (no command)
// or given to COMMAND, started with sys.spawn in the same fds 0–2 (and -C's directory); env exits with
// its status, 128+N when signal N ended it. Options end at the first operand, as with "+" in getopt.
// Usage errors exit 125, a command that cannot run 126, one not found 127.

const HELP = `Usage: env [OPTION]... [-] [NAME=VALUE]... [COMMAND [ARG]...]
Set each NAME to VALUE in the environment and run COMMAND.

Mandatory arguments to long options are mandatory for short options too.
  -i, --ignore-environment  start with an empty environment
  -0, --null           end each output line with NUL, not newline
  -u, --unset=NAME     remove variable from the environment
  -C, --chdir=DIR      change working directory to DIR
  -S, --split-string=S  process and split S into separate arguments;
                        used to pass multiple arguments on shebang lines
      --block-signal[=SIG]    block delivery of SIG signal(s) to COMMAND
      --default-signal[=SIG]  reset handling of SIG signal(s) to the default
      --ignore-signal[=SIG]   set handling of SIG signal(s) to do nothing
      --list-signal-handling  list non default signal handling to stderr
  -v, --debug          print verbose information for each processing step
      --help        display this help and exit
      --version     output version information and exit

A mere - implies -i.  If no COMMAND, print the resulting environment.

SIG may be a signal name like 'PIPE', or a signal number like '13'.
Without SIG, all known signals are included.  Multiple signals can be
comma-separated.
`;

const LONG: Array<{ name: string; key: string; arg?: "required" | "optional" }> = [
  { name: "ignore-environment", key: "i" },
  { name: "null", key: "0" },
  { name: "unset", key: "u", arg: "required" },
  { name: "chdir", key: "C", arg: "required" },
  { name: "split-string", key: "S", arg: "required" },
  { name: "block-signal", key: "signal", arg: "optional" },
  { name: "default-signal", key: "signal", arg: "optional" },
  { name: "ignore-signal", key: "signal", arg: "optional" },
  { name: "list-signal-handling", key: "list" },
  { name: "debug", key: "v" },
  { name: "help", key: "help" },
  { name: "version", key: "version" },
];
const SHORT_ARG = new Set(["u", "C", "S"]);
const SHORT = new Set(["i", "0", "u", "C", "S", "v"]);

class Usage extends Error {}

/** -S: the string split as env splits it (quotes, backslash escapes, ${NAME}), before the remaining arguments. */
function splitString(s: string, env: Readonly<Record<string, string>>): string[] {
  const out: string[] = [];
  let cur: string | undefined;
  const add = (t: string): void => {
    cur = (cur ?? "") + t;
  };
  let i = 0;
  const expand = (): void => {
    const m = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}/.exec(s.slice(i));
    if (!m) throw new Usage(`only \${VARNAME} expansion is supported, error at: ${s.slice(i)}`);
    add(env[m[1]!] ?? "");
    i += m[0].length;
  };
  const ESC: Record<string, string> = { f: "\f", n: "\n", r: "\r", t: "\t", v: "\v", _: " ", "\\": "\\", '"': '"', "'": "'", "#": "#", $: "$" };
  while (i < s.length) {
    const c = s[i]!;
    if (c === " " || c === "\t" || c === "\n" || c === "\v" || c === "\f" || c === "\r") {
      if (cur !== undefined) out.push(cur);
      cur = undefined;
      i++;
    } else if (c === "#" && cur === undefined) break;
    else if (c === "'") {
      const end = s.indexOf("'", i + 1);
      if (end < 0) throw new Usage("no terminating quote in -S string");
      add(s.slice(i + 1, end).replace(/\\([\\'])/g, "$1"));
      i = end + 1;
    } else if (c === '"') {
      i++;
      add("");
      while (i < s.length && s[i] !== '"') {
        if (s[i] === "\\" && i + 1 < s.length) {
          const e = s[i + 1]!;
          if (e === "c") return [...out, ...(cur !== undefined ? [cur] : [])];
          if (!(e in ESC)) throw new Usage(`invalid sequence '\\${e}' in -S`);
          add(e === "_" ? " " : ESC[e]!);
          i += 2;
        } else if (s[i] === "$") expand();
        else add(s[i++]!);
      }
      if (i >= s.length) throw new Usage("no terminating quote in -S string");
      i++;
    } else if (c === "\\" && i + 1 < s.length) {
      const e = s[i + 1]!;
      if (e === "c") break;
      if (e === "_") {
        if (cur !== undefined) out.push(cur);
        cur = undefined;
        i += 2;
        continue;
      }
      if (!(e in ESC)) throw new Usage(`invalid sequence '\\${e}' in -S`);
      add(ESC[e]!);
      i += 2;
    } else if (c === "$") expand();
    else add(s[i++]!);
  }
  if (cur !== undefined) out.push(cur);
  return out;
}

export default function env({ sys, argv, stdout, stderr }: ScriptProcess): number {
  const usage = (message: string): number => {
    stderr.write(`env: ${message}\nTry 'env --help' for more information.\n`);
    return 125;
  };
  let args = argv.slice(1);
  const actions: Array<{ key: string; value?: string }> = [];
  let i = 0;
  try {
    for (; i < args.length; i++) {
      const a = args[i]!;
      if (a === "--") {
        i++;
        break;
      }
      if (a.startsWith("--")) {
        const eq = a.indexOf("=");
        const name = eq < 0 ? a.slice(2) : a.slice(2, eq);
        const exact = LONG.find((l) => l.name === name);
        const matches = exact ? [exact] : LONG.filter((l) => l.name.startsWith(name));
        if (matches.length === 0) throw new Usage(`unrecognized option '${a}'`);
        if (matches.length > 1) throw new Usage(`option '${eq < 0 ? a : a.slice(0, eq)}' is ambiguous; possibilities:${matches.map((m) => ` '--${m.name}'`).join("")}`);
        const spec = matches[0]!;
        let value: string | undefined;
        if (eq >= 0) {
          if (!spec.arg) throw new Usage(`option '--${spec.name}' doesn't allow an argument`);
          value = a.slice(eq + 1);
        } else if (spec.arg === "required") {
          if (i + 1 >= args.length) throw new Usage(`option '--${spec.name}' requires an argument`);
          value = args[++i];
        }
        actions.push({ key: spec.key, value });
        if (spec.key === "S") {
          args = [...args.slice(0, i + 1), ...splitString(value!, sys.env), ...args.slice(i + 1)];
        }
        continue;
      }
      if (a.startsWith("-") && a !== "-") {
        for (let j = 1; j < a.length; j++) {
          const c = a[j]!;
          if (!SHORT.has(c)) throw new Usage(`invalid option -- '${c}'`);
          if (SHORT_ARG.has(c)) {
            let value: string | undefined = a.slice(j + 1);
            if (value === "") {
              if (i + 1 >= args.length) throw new Usage(`option requires an argument -- '${c}'`);
              value = args[++i]!;
            }
            actions.push({ key: c, value });
            if (c === "S") args = [...args.slice(0, i + 1), ...splitString(value, sys.env), ...args.slice(i + 1)];
            break;
          }
          actions.push({ key: c });
        }
        continue;
      }
      break;
    }
  } catch (e) {
    if (!(e instanceof Usage)) throw e;
    if (/^(only|no terminating|invalid sequence)/.test(e.message)) {
      stderr.write(`env: ${e.message}\n`);
      return 125;
    }
    return usage(e.message);
  }
  let rest = args.slice(i);
  if (rest[0] === "-") {
    actions.push({ key: "i" });
    rest = rest.slice(1);
  }
  let debug = false;
  let nul = false;
  let chdir: string | undefined;
  let clear = false;
  const unset: string[] = [];
  for (const a of actions) {
    if (a.key === "help") return stdout.write(HELP), 0;
    if (a.key === "version") return stdout.write(versionText("env", "GNU coreutils 9.1")), 0;
    if (a.key === "i") clear = true;
    if (a.key === "0") nul = true;
    if (a.key === "v") debug = true;
    if (a.key === "u") unset.push(a.value!);
    if (a.key === "C") chdir = a.value!;
  }
  const log = (s: string): void => {
    if (debug) stderr.write(`${s}\n`);
  };
  const environ: Record<string, string> = clear ? {} : { ...sys.env };
  if (clear) log("cleaning environ");
  for (const name of unset) {
    if (name === "" || name.includes("=")) {
      stderr.write(`env: cannot unset ${quote(name, sys.env)}: Invalid argument\n`);
      return 125;
    }
    log(`unset:    ${name}`);
    delete environ[name];
  }
  for (; rest.length > 0 && rest[0]!.includes("="); rest = rest.slice(1)) {
    const a = rest[0]!;
    const eq = a.indexOf("=");
    log(`setenv:   ${a}`);
    environ[a.slice(0, eq)] = a.slice(eq + 1);
  }
  if (rest.length === 0) {
    if (chdir !== undefined) return usage("must specify command with --chdir (-C)");
    const eol = nul ? "\0" : "\n";
    for (const [k, v] of Object.entries(environ)) stdout.write(`${k}=${v}${eol}`);
    return 0;
  }
  if (nul) return usage("cannot specify --null (-0) with command");
  let cwd = sys.cwd;
  if (chdir !== undefined) {
    const dir = posix.normalize(sys.resolve(chdir));
    try {
      if (sys.stat(dir).kind !== "dir") throw new SysError("ENOTDIR", chdir);
    } catch (e) {
      stderr.write(`env: cannot change directory to ${quoteaf(chdir)}: ${strerror(e)}\n`);
      return 125;
    }
    log(`chdir:    ${quote(chdir, sys.env)}`);
    cwd = dir;
  }
  log(`executing: ${rest[0]}`);
  rest.forEach((a, k) => log(`   arg[${k}]= ${quote(a, sys.env)}`));
  stdout.flush();
  stderr.flush();
  let pid: number;
  try {
    pid = sys.spawn(rest, [0, 1, 2], environ, cwd);
  } catch (e) {
    const code = e instanceof SysError ? e.code : "";
    stderr.write(`env: ${quote(rest[0]!, sys.env)}: ${strerror(e)}\n`);
    return code === "ENOENT" ? 127 : 126;
  }
  const w = sys.wait(pid);
  return w & 0x7f ? 128 + (w & 0x7f) : (w >> 8) & 0xff;
}
