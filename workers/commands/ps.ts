import type { ScriptProcess } from "../script-host.js";
import type { ListedProcess } from "../system.js";
import { versionText } from "../../src/gnu/version.js";
import { nameOf, passwd, USER } from "./user-db.js";

const USAGE = `
Usage:
 ps [options]

 Try 'ps --help <simple|list|output|threads|misc|all>'
  or 'ps --help <s|l|o|t|m|a>'
 for additional help text.

For more details see ps(1).
`;

const HELP = `
Usage:
 ps [options]

Basic options:
 -A, -e               all processes
 a                    all with tty, including other users
 x                    processes without controlling ttys

Selection by list:
 -C <command>         command name
 -p, p, --pid <PID>   process id
 --ppid <PID>         parent process id
 -u, -U, --user <UID> effective or real user id or name

Output formats:
 -f                   full-format
 -o, o, --format <format>
                      user-defined format
 u                    user-oriented format
 h, --no-headers      do not print header

 --help <s|l|o|t|m|a> display help and exit
 -V, V, --version     display version information and exit

For more details see ps(1).
`;

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad2 = (n: number): string => String(n).padStart(2, "0");

interface Row extends ListedProcess {
  user: string;
  now: number;
}

/** A column of procps: its header, width, alignment, and value. */
interface Column {
  header: string;
  width: number;
  left?: boolean;
  value: (r: Row) => string;
}

/** The command's name as the kernel keeps it (Linux: 15 characters of argv[0]'s base name). */
const comm = (r: Row): string => {
  const a0 = r.argv[0] ?? "";
  const name = a0.slice(a0.lastIndexOf("/") + 1).slice(0, 15);
  return r.state === "Z" ? `${name} <defunct>` : name;
};
const args = (r: Row): string => (r.state === "Z" ? `[${comm(r).replace(/ <defunct>$/, "")}] <defunct>` : r.argv.join(" "));
/** `[[dd-]hh:]mm:ss`, procps's ELAPSED. */
function elapsed(r: Row): string {
  const s = Math.max(0, Math.floor((r.now - r.startMs) / 1000));
  const [d, h, m, sec] = [Math.floor(s / 86400), Math.floor((s % 86400) / 3600), Math.floor((s % 3600) / 60), s % 60];
  return `${d > 0 ? `${d}-` : ""}${d > 0 || h > 0 ? `${pad2(h)}:` : ""}${pad2(m)}:${pad2(sec)}`;
}
/** STIME and START: the time of day within the last day, the date within the year, else the year (UTC, the VM's zone). */
function startShort(r: Row): string {
  const d = new Date(r.startMs);
  if (r.now - r.startMs < 86400_000) return `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}`;
  if (r.now - r.startMs < 365 * 86400_000) return `${MONTHS[d.getUTCMonth()]}${pad2(d.getUTCDate())}`;
  return String(d.getUTCFullYear());
}
function startLong(r: Row): string {
  const d = new Date(r.startMs);
  if (r.now - r.startMs < 86400_000) return `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`;
  return `${MONTHS[d.getUTCMonth()]} ${pad2(d.getUTCDate())}`;
}

// CPU time is not counted per process by the VM: TIME is 0 and %CPU 0.0, as for a process that has not run
// for a clock tick.
const COLUMNS: Record<string, Column> = {
  pid: { header: "PID", width: 5, value: (r) => String(r.pid) },
  ppid: { header: "PPID", width: 5, value: (r) => String(r.ppid) },
  pgid: { header: "PGID", width: 5, value: (r) => String(r.pgid) },
  pgrp: { header: "PGRP", width: 5, value: (r) => String(r.pgid) },
  tty: { header: "TT", width: 8, left: true, value: () => "?" },
  tt: { header: "TT", width: 8, left: true, value: () => "?" },
  tname: { header: "TTY", width: 8, left: true, value: () => "?" },
  time: { header: "TIME", width: 8, value: () => "00:00:00" },
  cputime: { header: "TIME", width: 8, value: () => "00:00:00" },
  bsdtime: { header: "TIME", width: 6, value: () => "0:00" },
  etime: { header: "ELAPSED", width: 11, value: elapsed },
  etimes: { header: "ELAPSED", width: 7, value: (r) => String(Math.max(0, Math.floor((r.now - r.startMs) / 1000))) },
  stat: { header: "STAT", width: 4, left: true, value: (r) => r.state },
  state: { header: "S", width: 1, left: true, value: (r) => r.state },
  s: { header: "S", width: 1, left: true, value: (r) => r.state },
  rss: { header: "RSS", width: 5, value: (r) => String(r.memoryKiB) },
  rssize: { header: "RSS", width: 5, value: (r) => String(r.memoryKiB) },
  vsz: { header: "VSZ", width: 6, value: (r) => String(r.memoryKiB) },
  user: { header: "USER", width: 8, left: true, value: (r) => r.user },
  euser: { header: "EUSER", width: 8, left: true, value: (r) => r.user },
  uname: { header: "USER", width: 8, left: true, value: (r) => r.user },
  uid: { header: "UID", width: 5, value: () => String(USER.uid) },
  euid: { header: "EUID", width: 5, value: () => String(USER.uid) },
  comm: { header: "COMMAND", width: 15, left: true, value: comm },
  ucomm: { header: "COMMAND", width: 15, left: true, value: comm },
  fname: { header: "COMMAND", width: 8, left: true, value: (r) => comm(r).slice(0, 8) },
  args: { header: "COMMAND", width: 27, left: true, value: args },
  cmd: { header: "CMD", width: 27, left: true, value: args },
  command: { header: "COMMAND", width: 27, left: true, value: args },
  "%cpu": { header: "%CPU", width: 4, value: () => "0.0" },
  pcpu: { header: "%CPU", width: 4, value: () => "0.0" },
  "%mem": { header: "%MEM", width: 4, value: () => "0.0" },
  pmem: { header: "%MEM", width: 4, value: () => "0.0" },
  c: { header: "C", width: 2, value: () => "0" },
  stime: { header: "STIME", width: 5, left: true, value: startShort },
  start_time: { header: "START", width: 5, left: true, value: startShort },
  start: { header: "STARTED", width: 8, value: startLong },
};

/** The formats of `ps`, `ps -f` and `ps u` (procps's default, full and user-oriented). */
const DEFAULT = ["pid", "tname", "time", "ucomm:CMD"];
const FULL = ["uname:UID", "pid", "ppid", "c", "stime", "tname", "time", "args:CMD"];
const USER_FORMAT = ["user", "pid", "%cpu", "%mem", "vsz", "rss", "tname", "stat", "start_time", "bsdtime", "args"];

class PsError extends Error {}

/**
 * A -o list: specifiers separated by commas (or, without headers, spaces); `name=header` renames a column,
 * `name=` leaves its header empty.
 */
function parseFormat(text: string): Array<{ column: Column; header: string }> {
  const out: Array<{ column: Column; header: string }> = [];
  for (const item of text.split(",")) {
    const eq = item.indexOf("=");
    const specs = eq < 0 ? item.split(/\s+/).filter(Boolean) : [item.trim()];
    for (const spec of specs) {
      const name = eq < 0 ? spec : spec.slice(0, spec.indexOf("="));
      const column = COLUMNS[name.toLowerCase()];
      if (!column) throw new PsError(`unknown user-defined format specifier "${name}"`);
      out.push({ column, header: eq < 0 ? column.header : spec.slice(spec.indexOf("=") + 1) });
    }
  }
  return out;
}

const named = (spec: string): { column: Column; header: string } => {
  const [name, header] = spec.split(":") as [string, string?];
  const column = COLUMNS[name]!;
  return { column, header: header ?? column.header };
};

/**
 * procps ps: the VM's processes from the kernel's table (pid, parent, state, start, memory, command line) in
 * procps's formats: `ps`, `ps -ef`, `ps aux`, `ps -o LIST`, selection by -p, -C, -u and --ppid. The VM has no
 * terminals (every TTY is `?`) and one user; it does not count CPU time per process (TIME is 0).
 */
export default function ps(p: ScriptProcess): number {
  const { sys, argv, stdout, stderr } = p;
  const fail = (why: string): number => (stderr.write(`error: ${why}\n${USAGE}`), 1);
  let format: Array<{ column: Column; header: string }> | undefined;
  let full = false;
  let userFormat = false;
  let headers = true;
  let all = false;
  let bsdA = false;
  let bsdX = false;
  const pids: number[] = [];
  const ppids: number[] = [];
  const names: string[] = [];
  const users: string[] = [];
  const addFormat = (text: string): void => {
    if (text.trim() === "") throw new PsError("format specification must follow -o");
    format = [...(format ?? []), ...parseFormat(text)];
  };
  const list = (text: string | undefined, what: string): string[] => {
    if (text === undefined || text === "") throw new PsError(`list of ${what} must follow ${what === "process IDs" ? "-p" : what === "users" ? "-u" : "-C"}`);
    return text.split(/[,\s]+/).filter(Boolean);
  };
  const pidList = (text: string | undefined, into: number[]): void => {
    for (const t of list(text, "process IDs")) {
      if (!/^\d+$/.test(t)) throw new PsError("process ID list syntax error");
      if (Number(t) === 0 || Number(t) > 0x7fffffff) throw new PsError("process ID out of range");
      into.push(Number(t));
    }
  };
  try {
    const a = argv.slice(1);
    for (let i = 0; i < a.length; i++) {
      const arg = a[i]!;
      if (arg.startsWith("--")) {
        const [long, value] = arg.includes("=") ? [arg.slice(2, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg.slice(2), undefined];
        const next = (): string | undefined => value ?? a[++i];
        if (long === "help") return stdout.write(HELP), 0;
        if (long === "version") return stdout.write(versionText("ps", "procps-ng 4.0.2")), 0;
        if (long === "no-headers" || long === "no-heading") headers = false;
        else if (long === "format") addFormat(next() ?? "");
        else if (long === "pid") pidList(next(), pids);
        else if (long === "ppid") pidList(next(), ppids);
        else if (long === "user" || long === "User") users.push(...list(next(), "users"));
        else return fail("unknown gnu long option");
        continue;
      }
      if (arg.startsWith("-")) {
        for (let j = 1; j < arg.length; j++) {
          const c = arg[j]!;
          const rest = (): string | undefined => (j + 1 < arg.length ? arg.slice(j + 1) : a[++i]);
          if (c === "e" || c === "A") all = true;
          else if (c === "f") full = true;
          else if (c === "V") return stdout.write(versionText("ps", "procps-ng 4.0.2")), 0;
          else if (c === "o") {
            addFormat(rest() ?? "");
            break;
          } else if (c === "p") {
            pidList(rest(), pids);
            break;
          } else if (c === "C") {
            names.push(...list(rest(), "command names"));
            break;
          } else if (c === "u" || c === "U") {
            users.push(...list(rest(), "users"));
            break;
          } else return fail("unsupported SysV option");
        }
        continue;
      }
      // BSD options: a cluster of letters without a dash; o and p take the next argument.
      for (let j = 0; j < arg.length; j++) {
        const c = arg[j]!;
        const rest = (): string | undefined => (j + 1 < arg.length ? arg.slice(j + 1) : a[++i]);
        if (c === "a") bsdA = true;
        else if (c === "x") bsdX = true;
        else if (c === "u") userFormat = true;
        else if (c === "h") headers = false;
        else if (c === "V") return stdout.write(versionText("ps", "procps-ng 4.0.2")), 0;
        else if (c === "o") {
          addFormat(rest() ?? "");
          break;
        } else if (c === "p") {
          pidList(rest(), pids);
          break;
        } else return fail("unsupported option (BSD syntax)");
      }
    }
  } catch (e) {
    if (e instanceof PsError) return fail(e.message);
    throw e;
  }

  const accounts = passwd(sys);
  const unknown = users.find((u) => !/^\d+$/.test(u) && !accounts.some((e) => e.name === u));
  if (unknown !== undefined) return fail("user name does not exist");
  const listed = sys.processes();
  const user = nameOf(accounts, USER.uid);
  let rows: Row[] = listed.processes.map((q) => ({ ...q, user, now: listed.now })).sort((x, y) => x.pid - y.pid);
  // Every process of the VM is the user's and has no terminal: without a selection (the user's processes on
  // the caller's terminal, none here) and with -e or x all are listed; BSD `a` alone asks for those with a
  // terminal, which none has.
  // Every process is the VM's one user's: -u selects all of them or none.
  const byUser = users.some((u) => u === user || u === String(USER.uid));
  const byList = pids.length > 0 || ppids.length > 0 || names.length > 0 || users.length > 0;
  if (byList) rows = rows.filter((r) => byUser || pids.includes(r.pid) || ppids.includes(r.ppid) || names.includes(comm(r).replace(/ <defunct>$/, "")));
  else if (bsdA && !bsdX && !all) rows = [];

  const columns = format ?? (userFormat ? USER_FORMAT : full ? FULL : DEFAULT).map(named);
  const lines: string[][] = [];
  if (headers && columns.some((c) => c.header !== "")) lines.push(columns.map((c) => c.header));
  for (const r of rows) lines.push(columns.map((c) => c.column.value(r)));
  for (const cells of lines) {
    const out = cells.map((cell, k) => {
      const { column } = columns[k]!;
      if (k === cells.length - 1) return column.left ? cell : cell.padStart(column.width);
      return column.left ? cell.padEnd(column.width) : cell.padStart(column.width);
    });
    stdout.write(`${out.join(" ").trimEnd()}\n`);
  }
  return rows.length > 0 ? 0 : 1;
}
