/** -printf's format and -ls's line, as GNU find prints them (times in UTC: the VM has no time zone). */
import { modeString } from "../../../src/gnu/mode-change.js";
import type { Stat } from "../../system.js";
import { type Entry, FindError, type Find, typeChar } from "./context.js";

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const DAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

const pad = (n: number, width: number, c = "0"): string => String(n).padStart(width, c);

/** A time in ms as (whole seconds, nanoseconds): the kernel's times have microsecond precision. */
export function splitTime(ms: number): [number, number] {
  const us = Math.round(ms * 1000);
  const sec = Math.floor(us / 1e6);
  return [sec, (us - sec * 1e6) * 1000];
}

/** ISO 8601 week-based year and week number. */
function isoWeek(d: Date): [number, number] {
  const t = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  const day = t.getUTCDay() || 7;
  t.setUTCDate(t.getUTCDate() + 4 - day);
  const yearStart = Date.UTC(t.getUTCFullYear(), 0, 1);
  return [t.getUTCFullYear(), Math.ceil(((t.getTime() - yearStart) / 86400000 + 1) / 7)];
}

/** strftime(3) of one conversion letter, in UTC, with find's fractional seconds for @, S, T, X and +. */
export function strftime(k: string, ms: number): string | undefined {
  const [sec, ns] = splitTime(ms);
  const frac = `.${pad(ns, 9)}0`;
  const d = new Date(sec * 1000);
  const Y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  const day = d.getUTCDate();
  const H = d.getUTCHours();
  const M = d.getUTCMinutes();
  const S = d.getUTCSeconds();
  const w = d.getUTCDay();
  const yday = Math.floor((Date.UTC(Y, m, day) - Date.UTC(Y, 0, 1)) / 86400000);
  const I = H % 12 === 0 ? 12 : H % 12;
  switch (k) {
    case "@":
      return `${sec}${frac}`;
    case "a":
      return DAYS[w];
    case "A":
      return DAY_NAMES[w];
    case "b":
    case "h":
      return MONTHS[m];
    case "B":
      return MONTH_NAMES[m];
    case "c":
      return `${DAYS[w]} ${MONTHS[m]} ${pad(day, 2, " ")} ${pad(H, 2)}:${pad(M, 2)}:${pad(S, 2)} ${Y}`;
    case "C":
      return pad(Math.floor(Y / 100), 2);
    case "d":
      return pad(day, 2);
    case "D":
    case "x":
      return `${pad(m + 1, 2)}/${pad(day, 2)}/${pad(Y % 100, 2)}`;
    case "e":
      return pad(day, 2, " ");
    case "F":
      return `${Y}-${pad(m + 1, 2)}-${pad(day, 2)}`;
    case "g":
      return pad(isoWeek(d)[0] % 100, 2);
    case "G":
      return String(isoWeek(d)[0]);
    case "H":
      return pad(H, 2);
    case "I":
      return pad(I, 2);
    case "j":
      return pad(yday + 1, 3);
    case "k":
      return pad(H, 2, " ");
    case "l":
      return pad(I, 2, " ");
    case "m":
      return pad(m + 1, 2);
    case "M":
      return pad(M, 2);
    case "n":
      return "\n";
    case "p":
      return H < 12 ? "AM" : "PM";
    case "r":
      return `${pad(I, 2)}:${pad(M, 2)}:${pad(S, 2)} ${H < 12 ? "AM" : "PM"}`;
    case "R":
      return `${pad(H, 2)}:${pad(M, 2)}`;
    case "s":
      return String(sec);
    case "S":
      return `${pad(S, 2)}${frac}`;
    case "t":
      return "\t";
    case "T":
    case "X":
      return `${pad(H, 2)}:${pad(M, 2)}:${pad(S, 2)}${frac}`;
    case "u":
      return String(w || 7);
    case "U":
      return pad(Math.floor((yday + 7 - w) / 7), 2);
    case "V":
      return pad(isoWeek(d)[1], 2);
    case "w":
      return String(w);
    case "W":
      return pad(Math.floor((yday + 7 - ((w + 6) % 7)) / 7), 2);
    case "y":
      return pad(Y % 100, 2);
    case "Y":
      return String(Y);
    case "z":
      return "+0000";
    case "Z":
      return "UTC";
    case "+":
      return `${Y}-${pad(m + 1, 2)}-${pad(day, 2)}+${pad(H, 2)}:${pad(M, 2)}:${pad(S, 2)}${frac}`;
    default:
      return undefined;
  }
}

/** ctime(3) with find's fraction: "Wed Mar  4 05:06:07.5000000000 2020". */
function ctime(ms: number): string {
  const d = new Date(splitTime(ms)[0] * 1000);
  return `${strftime("a", ms)} ${strftime("b", ms)} ${strftime("e", ms)} ${strftime("T", ms)} ${d.getUTCFullYear()}`;
}

/** 512-byte blocks the file takes (Stat.blocks). */
export const blocks512 = (st: Stat): number => st.blocks;

type Piece = string | ((e: Entry) => string);

const ESCAPES: Record<string, string> = { a: "\x07", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v", "\\": "\\" };

/** The directory part of a path, as %h prints it ("." when there is none). */
function dirPart(path: string): string {
  // Trailing slashes go, unless what is left is a single character (find 4.9's print.c).
  let end = path.length - 1;
  while (end >= 0 && path[end] === "/") end--;
  const p = end > 0 && end < path.length - 1 ? path.slice(0, end + 1) : path;
  const i = p.lastIndexOf("/");
  return i < 0 ? "." : p.slice(0, i);
}

/** gnulib base_name: the last component, keeping a trailing slash ("d/" for "d/", "/" for "/"). */
function baseName(path: string): string {
  let end = path.length;
  while (end > 1 && path[end - 1] === "/") end--;
  const i = path.lastIndexOf("/", end - 1);
  if (end === 1 && path[0] === "/") return path;
  return path.slice(i + 1);
}

const typeLetter = (e: Entry, follow: boolean): string => {
  if (!follow) {
    const st = e.lstat();
    return st ? typeChar(st) : "U";
  }
  const l = e.lstat();
  if (l && typeChar(l) !== "l") return typeChar(l);
  const st = e.statFollow();
  if (st) return typeChar(st);
  return "N";
};

/**
 * Compiles a -printf format: one function per directive. Warns (as GNU does) about unknown directives and
 * escapes; throws FindError for a `%` at the end.
 */
export function compileFormat(f: Find, format: string): (e: Entry) => string {
  const pieces: Piece[] = [];
  let text = "";
  let stop = false;
  const flush = (): void => {
    if (text) pieces.push(text);
    text = "";
  };
  for (let i = 0; i < format.length && !stop; ) {
    const c = format[i]!;
    if (c === "\\") {
      const n = format[i + 1];
      if (n === undefined) {
        text += "\\";
        i++;
      } else if (n === "c") {
        stop = true;
      } else if (/[0-7]/.test(n)) {
        let j = i + 1;
        let v = 0;
        for (; j < format.length && j < i + 4 && /[0-7]/.test(format[j]!); j++) v = v * 8 + Number(format[j]);
        text += String.fromCharCode(v & 0xff);
        i = j;
      } else if (ESCAPES[n] !== undefined) {
        text += ESCAPES[n];
        i += 2;
      } else {
        f.warn(`unrecognized escape \`\\${n}'`);
        text += `\\${n}`;
        i += 2;
      }
      continue;
    }
    if (c !== "%") {
      text += c;
      i++;
      continue;
    }
    // %[flags][width][.precision]directive
    const m = /^%([-+ #0]*)(\d*)(?:\.(\d*))?/.exec(format.slice(i))!;
    const flags = m[1]!;
    const width = m[2] ? Number(m[2]) : 0;
    const precision = m[3] !== undefined ? Number(m[3] || 0) : undefined;
    let j = i + m[0].length;
    const d = format[j];
    if (d === undefined) throw new FindError("error: % at end of format string");
    if (d === "%") {
      text += "%";
      i = j + 1;
      continue;
    }
    let get: ((e: Entry) => string) | undefined;
    const st = (e: Entry): Stat | undefined => e.stat();
    const num = (fn: (s: Stat) => number) => (e: Entry): string => {
      const s = st(e);
      return s ? String(fn(s)) : "0";
    };
    let k = "";
    if (d === "A" || d === "C" || d === "T") {
      k = format[j + 1] ?? "";
      const field = d === "A" ? "atimeMs" : d === "C" ? "ctimeMs" : "mtimeMs";
      if (strftime(k, 0) === undefined) {
        // GNU hands an unknown letter to strftime, which prints it as it is.
        text += `%${k}`;
        i = j + 2;
        continue;
      }
      get = (e) => {
        const s = st(e);
        return s ? strftime(k, s[field])! : "";
      };
      j++;
    } else {
      switch (d) {
        case "a":
        case "c":
        case "t": {
          const field = d === "a" ? "atimeMs" : d === "c" ? "ctimeMs" : "mtimeMs";
          get = (e) => {
            const s = st(e);
            return s ? ctime(s[field]) : "";
          };
          break;
        }
        case "b":
          get = num((s) => blocks512(s));
          break;
        case "k":
          get = num((s) => Math.ceil(blocks512(s) / 2));
          break;
        case "d":
          get = (e) => String(e.depth);
          break;
        case "D":
          get = num((s) => s.dev);
          break;
        case "f":
          get = (e) => (e.depth === 0 ? baseName(e.path) : e.name);
          break;
        case "F":
          get = () => "tmpfs";
          break;
        case "g":
          get = () => f.groupName(0);
          break;
        case "G":
          get = () => "0";
          break;
        case "u":
          get = () => f.userName(0);
          break;
        case "U":
          get = () => "0";
          break;
        case "h":
          get = (e) => dirPart(e.path);
          break;
        case "H":
          get = (e) => e.start;
          break;
        case "i":
          get = num((s) => s.ino);
          break;
        case "l":
          get = (e) => {
            if (e.lstat()?.kind !== "symlink") return "";
            try {
              return f.sys.readlink(e.path);
            } catch {
              return "";
            }
          };
          break;
        case "m":
          get = (e) => {
            const s = st(e);
            const v = (s?.mode ?? 0) & 0o7777;
            return flags.includes("#") ? `0${v.toString(8)}` : v.toString(8);
          };
          break;
        case "M":
          get = (e) => {
            const s = st(e);
            return s ? modeString(s.mode) : "";
          };
          break;
        case "n":
          get = num((s) => s.nlink);
          break;
        case "p":
          get = (e) => e.path;
          break;
        case "P":
          get = (e) => (e.depth === 0 ? "" : e.path.slice(e.start.length + (e.start.endsWith("/") ? 0 : 1)));
          break;
        case "s":
          get = num((s) => s.size);
          break;
        case "S":
          get = (e) => {
            const s = st(e);
            return s && s.size > 0 ? String((blocks512(s) * 512) / s.size) : "1";
          };
          break;
        case "y":
          get = (e) => typeLetter(e, false);
          break;
        case "Y":
          get = (e) => typeLetter(e, true);
          break;
        case "Z":
          get = () => "?";
          break;
        default:
          f.warn(`unrecognized format directive \`%${d}'`);
          text += `%${d}`;
          i = j + 1;
          continue;
      }
    }
    i = j + 1;
    flush();
    const left = flags.includes("-");
    // Only %d and %m are printed as numbers, which honour the 0 flag.
    const zero = !left && flags.includes("0") && (d === "d" || d === "m");
    const g = get;
    if (!width && precision === undefined) pieces.push(g);
    else
      pieces.push((e) => {
        let s = g(e);
        if (precision !== undefined && !zero) s = s.slice(0, precision);
        return left ? s.padEnd(width) : s.padStart(width, zero ? "0" : " ");
      });
  }
  flush();
  if (pieces.length === 1 && typeof pieces[0] === "string") {
    const s = pieces[0];
    return () => s;
  }
  return (e) => {
    let out = "";
    for (const p of pieces) out += typeof p === "string" ? p : p(e);
    return out;
  };
}

/** A name as -ls prints it: backslash escapes for blanks, quotes and control characters. */
function lsName(name: string): string {
  let out = "";
  for (const ch of Buffer.from(name, "utf8")) {
    const c = String.fromCharCode(ch);
    if (c === "\\") out += "\\\\";
    else if (c === "\n") out += "\\n";
    else if (c === "\b") out += "\\b";
    else if (c === "\r") out += "\\r";
    else if (c === "\t") out += "\\t";
    else if (c === "\f") out += "\\f";
    else if (c === " ") out += "\\ ";
    else if (c === '"') out += '\\"';
    else if (ch > 0o40 && ch < 0o177) out += c;
    else out += `\\${ch.toString(8).padStart(3, "0")}`;
  }
  return out;
}

/** listfile.c's field widths: minimums that grow with what has been printed. */
const widths = { inode: 9, blocks: 6, owner: 8, group: 8, size: 8 };

/** One line of -ls / -fls (`ls -dils` format). */
export function lsLine(f: Find, e: Entry): string {
  const s = e.stat();
  if (!s) return "";
  const field = (value: string, key: keyof typeof widths, left = false): string => {
    if (value.length > widths[key]) widths[key] = value.length;
    return left ? value.padEnd(widths[key]) : value.padStart(widths[key]);
  };
  const [sec] = splitTime(s.mtimeMs);
  const nowSec = Math.floor(f.now / 1000);
  const recent = nowSec - 6 * 30 * 24 * 60 * 60 <= sec && sec <= nowSec + 60 * 60;
  const date = recent
    ? `${strftime("b", s.mtimeMs)} ${strftime("e", s.mtimeMs)} ${strftime("R", s.mtimeMs)}`
    : `${strftime("b", s.mtimeMs)} ${strftime("e", s.mtimeMs)}  ${strftime("Y", s.mtimeMs)}`;
  let line =
    `${field(String(s.ino), "inode")} ${field(String(Math.ceil(blocks512(s) / 2)), "blocks")} ` +
    `${modeString(s.mode)} ${String(s.nlink).padStart(3)} ` +
    `${field(f.userName(0), "owner", true)} ${field(f.groupName(0), "group", true)} ` +
    `${field(String(s.size), "size")} ${date} ${lsName(e.path)}`;
  if (typeChar(s) === "l") {
    try {
      line += ` -> ${lsName(f.sys.readlink(e.path))}`;
    } catch {
      // GNU reports the error and prints the line without the target.
    }
  }
  return `${line}\n`;
}
