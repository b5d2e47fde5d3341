import { quoteaf } from "../../src/gnu/quote.js";
import { strerror } from "../../src/gnu/strerror.js";
import type { ScriptProcess } from "../script-host.js";
import type { Stat } from "../system.js";
import { getopt, UsageError } from "./getopt.js";
import { modeString } from "../../src/gnu/mode-change.js";
import { versionText } from "../../src/gnu/version.js";

const SPECS = [
  { key: "dereference", short: "L", long: "dereference" },
  { key: "format", short: "c", long: "format", arg: "required" as const },
  { key: "printf", long: "printf", arg: "required" as const },
  { key: "terse", short: "t", long: "terse" },
  { key: "file-system", short: "f", long: "file-system" },
  { key: "cached", long: "cached", arg: "required" as const },
  { key: "help", long: "help" },
  { key: "version", long: "version" },
];

const HELP = `Usage: stat [OPTION]... FILE...
Display file or file system status.

Mandatory arguments to long options are mandatory for short options too.
  -L, --dereference     follow links
  -f, --file-system     display file system status instead of file status
  -c  --format=FORMAT   use the specified FORMAT instead of the default;
                          output a newline after each use of FORMAT
      --printf=FORMAT   like --format, but interpret backslash escapes,
                          and do not output a mandatory trailing newline
  -t, --terse           print the information in terse form
      --help        display this help and exit
      --version     output version information and exit
`;

/** The VM's one user, who owns every file (host_user.getpwuid names every uid but 0 `user`). */
const USER = { uid: 1000, name: "user" };
/** The file system's block size (`%o`). */
const IO_BLOCK = 4096;

const TYPE_NAMES: Record<string, string> = {
  file: "regular file",
  dir: "directory",
  symlink: "symbolic link",
  char: "character special file",
  block: "block special file",
  fifo: "fifo",
  socket: "socket",
  unknown: "weird file",
};
const typeName = (st: Stat): string => (st.kind === "file" && st.size === 0 ? "regular empty file" : TYPE_NAMES[st.kind]!);

const DEFAULT_FORMAT =
  "  File: %n%\x01\n  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\nDevice: %Hd,%Ld\tInode: %-11i Links: %h\nAccess: (%04a/%A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\nAccess: %x\nModify: %y\nChange: %z\n Birth: %w\n";
const DEFAULT_DEVICE_FORMAT = DEFAULT_FORMAT.replace("Inode: %-11i Links: %h\n", "Inode: %-11i Links: %-5h Device type: %Hr,%Lr\n");
const TERSE_FORMAT = "%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o\n";

/** GNU stat: a file's status in the default form, with -c/--printf formats, or terse. */
export default function stat({ sys, argv, stdout, stderr }: ScriptProcess): number {
  let parsed;
  try {
    parsed = getopt(argv.slice(1), SPECS);
    if (parsed.operands.length === 0 && !parsed.options.some((o) => o.key === "help" || o.key === "version")) throw new UsageError("missing operand");
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    stderr.write(`stat: ${e.message}\nTry 'stat --help' for more information.\n`);
    return 1;
  }
  let follow = false;
  let format: string | undefined;
  let escapes = false;
  let terse = false;
  for (const o of parsed.options) {
    if (o.key === "help") return stdout.write(HELP), 0;
    if (o.key === "version") return stdout.write(versionText("stat", "GNU coreutils 9.1")), 0;
    if (o.key === "dereference") follow = true;
    if (o.key === "format") [format, escapes] = [`${o.value!}\n`, false];
    if (o.key === "printf") [format, escapes] = [o.value!, true];
    if (o.key === "terse") terse = true;
    if (o.key === "file-system") {
      stderr.write("stat: --file-system is not supported\n");
      return 1;
    }
  }
  const tz = sys.env["TZ"];
  let status = 0;
  for (const name of parsed.operands) {
    let st: Stat;
    let target: string | undefined;
    try {
      st = sys.stat(name, follow);
      if (st.kind === "symlink") target = sys.readlink(name);
    } catch (e) {
      stderr.write(`stat: cannot statx ${quoteaf(name)}: ${strerror(e)}\n`);
      status = 1;
      continue;
    }
    const fmt = format ?? (terse ? TERSE_FORMAT : st.kind === "char" || st.kind === "block" ? DEFAULT_DEVICE_FORMAT : DEFAULT_FORMAT);
    stdout.write(Buffer.from(render(fmt, escapes, { name, st, target, tz }), "latin1"));
  }
  return status;
}

interface Subject {
  name: string;
  st: Stat;
  target: string | undefined;
  tz: string | undefined;
}

const ESCAPES: Record<string, string> = { a: "\x07", b: "\b", e: "\x1b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v", "\\": "\\", '"': '"' };

/** Expands a format: `%[flags][width][.precision]X` directives and, for --printf, backslash escapes. */
function render(format: string, escapes: boolean, s: Subject): string {
  let out = "";
  for (let i = 0; i < format.length; i++) {
    const c = format[i]!;
    if (c === "\\" && escapes && i + 1 < format.length) {
      const n = format[++i]!;
      const octal = /^[0-7]{1,3}/.exec(format.slice(i));
      const hex = n === "x" ? /^[0-9a-fA-F]{1,2}/.exec(format.slice(i + 1)) : null;
      if (octal) {
        out += String.fromCharCode(parseInt(octal[0], 8) & 0xff);
        i += octal[0].length - 1;
      } else if (hex) {
        out += String.fromCharCode(parseInt(hex[0], 16));
        i += hex[0].length;
      } else out += ESCAPES[n] ?? `\\${n}`;
      continue;
    }
    if (c !== "%") {
      out += c;
      continue;
    }
    const m = /^%([-#+ 0']*)(\d*)(?:\.(\d*))?([HL]?)(.?)/.exec(format.slice(i))!;
    i += m[0].length - 1;
    const [, flags, width, precision, modifier, directive] = m as unknown as [string, string, string, string | undefined, string, string];
    if (directive === "") {
      out += "%";
      continue;
    }
    if (directive === "%") {
      out += "%";
      continue;
    }
    const value = expand(modifier + directive, s, precision);
    out += pad(value.text, flags!, width!, value.numeric);
  }
  return out;
}

function pad(text: string, flags: string, width: string, numeric: boolean): string {
  const w = Number(width || 0);
  if (text.length >= w) return text;
  if (flags.includes("-")) return text.padEnd(w);
  if (flags.includes("0") && numeric) return text.startsWith("-") ? `-${text.slice(1).padStart(w - 1, "0")}` : text.padStart(w, "0");
  return text.padStart(w);
}

function expand(directive: string, { name, st, target, tz }: Subject, precision: string | undefined): { text: string; numeric: boolean } {
  const num = (n: number): { text: string; numeric: boolean } => ({ text: String(n), numeric: true });
  const str = (text: string): { text: string; numeric: boolean } => ({ text, numeric: false });
  switch (directive) {
    case "a":
      return { text: (st.mode & 0o7777).toString(8), numeric: true };
    case "A":
      return str(modeString(st.mode));
    case "b":
      return num(st.blocks);
    case "B":
      return num(512);
    case "C":
      return str("?");
    case "d":
      return num(st.dev);
    case "D":
      return str(st.dev.toString(16));
    case "Hd":
      return num(Math.floor(st.dev / 256));
    case "Ld":
      return num(st.dev % 256);
    case "f":
      return str(st.mode.toString(16));
    case "F":
      return str(typeName(st));
    case "g":
    case "u":
      return num(USER.uid);
    case "G":
    case "U":
      return str(USER.name);
    case "h":
      return num(st.nlink);
    case "i":
      return num(st.ino);
    case "m":
      return str("/");
    case "n":
      return str(name);
    case "\x01":
      // Only in the default format: ` -> target` after a symbolic link's name, nothing quoted.
      return str(target === undefined ? "" : ` -> ${target}`);
    case "N":
      return str(target === undefined ? quoteaf(name) : `${quoteaf(name)} -> ${quoteaf(target)}`);
    case "o":
      return num(IO_BLOCK);
    case "s":
      return num(st.size);
    case "t":
    case "T":
    case "Hr":
    case "Lr":
      return str("0");
    case "w":
      return str("-");
    case "W":
      return num(0);
    case "x":
      return str(humanTime(st.atimeMs, tz));
    case "y":
      return str(humanTime(st.mtimeMs, tz));
    case "z":
      return str(humanTime(st.ctimeMs, tz));
    case "X":
      return str(epoch(st.atimeMs, precision));
    case "Y":
      return str(epoch(st.mtimeMs, precision));
    case "Z":
      return str(epoch(st.ctimeMs, precision));
    default:
      return str("?");
  }
}

/** Seconds since the epoch; with a precision, that many digits of the fraction (GNU: `%.9Y`). */
function epoch(ms: number, precision: string | undefined): string {
  const seconds = Math.floor(ms / 1000);
  if (precision === undefined) return String(seconds);
  const digits = precision === "" ? 9 : Math.min(Number(precision), 9);
  if (digits === 0) return String(seconds);
  const nanos = String(Math.round((ms - seconds * 1000) * 1e6)).padStart(9, "0");
  return `${seconds}.${nanos.slice(0, digits)}`;
}

/** `2026-11-23 18:36:31.758000000 +0000` in the zone TZ names (UTC when unset or unknown). */
function humanTime(ms: number, tz: string | undefined): string {
  let offsetMin = 0;
  if (tz && !/^(UTC|GMT|UTC0|GMT0|:?Etc\/UTC)$/.test(tz)) {
    try {
      const parts = new Intl.DateTimeFormat("en-US", { timeZone: tz.replace(/^:/, ""), timeZoneName: "longOffset" }).formatToParts(ms);
      const m = /GMT([+-])(\d\d):(\d\d)/.exec(parts.find((p) => p.type === "timeZoneName")?.value ?? "");
      if (m) offsetMin = (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
    } catch {
      offsetMin = 0;
    }
  }
  const d = new Date(ms + offsetMin * 60_000);
  const two = (n: number): string => String(n).padStart(2, "0");
  const nanos = String(Math.round((ms - Math.floor(ms / 1000) * 1000) * 1e6)).padStart(9, "0");
  const sign = offsetMin < 0 ? "-" : "+";
  const off = Math.abs(offsetMin);
  return `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}.${nanos} ${sign}${two(Math.floor(off / 60))}${two(off % 60)}`;
}
