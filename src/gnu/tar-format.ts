/**
 * The tar format as GNU tar 1.34 writes it by default (--format=gnu: "ustar  \0" magic, ././@LongLink for
 * names over 100 bytes) and what it reads (also ustar with a prefix, and pax extended headers), and its
 * `tar tv` listing line.
 */

export const BLOCK = 512;
export const RECORD = 20 * BLOCK;

export interface Entry {
  name: string;
  mode: number;
  uid: number;
  gid: number;
  size: number;
  mtime: number;
  /** '0' file, '1' hard link, '2' symlink, '3' char, '4' block, '5' directory, '6' fifo, … */
  type: string;
  linkname: string;
  uname: string;
  gname: string;
  devmajor: number;
  devminor: number;
}

const enc = new TextEncoder();
const dec = new TextDecoder();

function octal(value: number, width: number): string {
  // width includes the terminating NUL.
  return value.toString(8).padStart(width - 1, "0");
}

function put(b: Uint8Array, off: number, len: number, text: string | Uint8Array): void {
  const bytes = typeof text === "string" ? enc.encode(text) : text;
  b.set(bytes.subarray(0, len), off);
}

function checksum(b: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : b[i]!;
  return sum;
}

/** One header block (GNU format); `name` and `linkname` must fit (see `encodeEntry`). */
function headerBlock(e: Entry, name: Uint8Array, linkname: Uint8Array): Uint8Array {
  const b = new Uint8Array(BLOCK);
  put(b, 0, 100, name);
  put(b, 100, 8, octal(e.mode & 0o7777, 8));
  put(b, 108, 8, octal(e.uid, 8));
  put(b, 116, 8, octal(e.gid, 8));
  if (e.size >= 8 ** 11) {
    // base-256, as GNU does for sizes that do not fit in octal
    b[124] = 0x80;
    let v = BigInt(e.size);
    for (let i = 135; i > 124; i--) {
      b[i] = Number(v & 0xffn);
      v >>= 8n;
    }
  } else put(b, 124, 12, octal(e.size, 12));
  put(b, 136, 12, octal(Math.max(0, e.mtime), 12));
  b[156] = e.type.charCodeAt(0);
  put(b, 157, 100, linkname);
  put(b, 257, 8, "ustar  \0");
  put(b, 265, 32, e.uname);
  put(b, 297, 32, e.gname);
  if (e.type === "3" || e.type === "4") {
    put(b, 329, 8, octal(e.devmajor, 8));
    put(b, 337, 8, octal(e.devminor, 8));
  }
  put(b, 148, 8, `${octal(checksum(b), 7)}\0 `.slice(0, 6) + "\0 ");
  return b;
}

function longLink(type: "L" | "K", value: Uint8Array): Uint8Array[] {
  const data = new Uint8Array(Math.ceil((value.length + 1) / BLOCK) * BLOCK);
  data.set(value);
  const h = headerBlock(
    { name: "", mode: 0o644, uid: 0, gid: 0, size: value.length + 1, mtime: 0, type, linkname: "", uname: "root", gname: "root", devmajor: 0, devminor: 0 },
    enc.encode("././@LongLink"),
    new Uint8Array(0),
  );
  return [h, data];
}

/** The header blocks of `e`: ././@LongLink ones first when the name or the link target exceeds 100 bytes. */
export function encodeEntry(e: Entry): Uint8Array[] {
  const out: Uint8Array[] = [];
  const name = enc.encode(e.name);
  const link = enc.encode(e.linkname);
  if (link.length > 100) out.push(...longLink("K", link));
  if (name.length > 100) out.push(...longLink("L", name));
  out.push(headerBlock(e, name.subarray(0, 100), link.subarray(0, 100)));
  return out;
}

function cstr(b: Uint8Array, off: number, len: number): Uint8Array {
  const s = b.subarray(off, off + len);
  const z = s.indexOf(0);
  return z < 0 ? s : s.subarray(0, z);
}

function num(b: Uint8Array, off: number, len: number): number {
  if (b[off]! & 0x80) {
    let v = 0n;
    for (let i = off + 1; i < off + len; i++) v = (v << 8n) | BigInt(b[i]!);
    return Number(v);
  }
  const text = dec.decode(cstr(b, off, len)).trim();
  return text === "" ? 0 : parseInt(text, 8);
}

export type Parsed = { kind: "entry"; entry: Entry; raw: Uint8Array } | { kind: "zero" } | { kind: "bad" };

/** One header block as read (no long-name handling: the caller applies L, K and x records). */
export function parseHeader(b: Uint8Array): Parsed {
  if (b.every((x) => x === 0)) return { kind: "zero" };
  const stored = num(b, 148, 8);
  let signed = 0;
  for (let i = 0; i < BLOCK; i++) signed += i >= 148 && i < 156 ? 32 : (b[i]! << 24) >> 24;
  const sumText = dec.decode(cstr(b, 148, 8)).trim();
  if (!/^[0-7]+$/.test(sumText) || (stored !== checksum(b) && stored !== signed)) return { kind: "bad" };
  const magic = dec.decode(b.subarray(257, 263));
  let name = dec.decode(cstr(b, 0, 100));
  if (magic === "ustar\0") {
    const prefix = dec.decode(cstr(b, 345, 155));
    if (prefix) name = `${prefix}/${name}`;
  }
  const typeByte = b[156]!;
  let type = typeByte === 0 ? "0" : String.fromCharCode(typeByte);
  if (type === "7") type = "0";
  if (type === "0" && name.endsWith("/") && magic !== "ustar\0" && magic !== "ustar ") type = "5";
  return {
    kind: "entry",
    raw: b,
    entry: {
      name,
      mode: num(b, 100, 8),
      uid: num(b, 108, 8),
      gid: num(b, 116, 8),
      size: num(b, 124, 12),
      mtime: num(b, 136, 12),
      type,
      linkname: dec.decode(cstr(b, 157, 100)),
      uname: dec.decode(cstr(b, 265, 32)),
      gname: dec.decode(cstr(b, 297, 32)),
      devmajor: num(b, 329, 8),
      devminor: num(b, 337, 8),
    },
  };
}

/** The records of a pax extended header ("len key=value\n"…). */
export function parsePax(data: Uint8Array): Map<string, string> {
  const out = new Map<string, string>();
  let off = 0;
  while (off < data.length) {
    const sp = data.indexOf(0x20, off);
    if (sp < 0) break;
    const len = parseInt(dec.decode(data.subarray(off, sp)), 10);
    if (!(len > 0)) break;
    const rec = dec.decode(data.subarray(sp + 1, off + len - 1));
    const eq = rec.indexOf("=");
    if (eq > 0) out.set(rec.slice(0, eq), rec.slice(eq + 1));
    off += len;
  }
  return out;
}

const TYPE_CHAR: Record<string, string> = { "0": "-", "1": "h", "2": "l", "3": "c", "4": "b", "5": "d", "6": "p", "7": "-" };

export function modeString(type: string, mode: number): string {
  const rwx = (bits: number, special: number, sc: string): string => {
    const x = bits & 1;
    const s = mode & special;
    return `${bits & 4 ? "r" : "-"}${bits & 2 ? "w" : "-"}${s ? (x ? sc : sc.toUpperCase()) : x ? "x" : "-"}`;
  };
  return (
    (TYPE_CHAR[type] ?? "-") +
    rwx((mode >> 6) & 7, 0o4000, "s") +
    rwx((mode >> 3) & 7, 0o2000, "s") +
    rwx(mode & 7, 0o1000, "t")
  );
}

/** Names as GNU tar prints them (--quoting-style=escape, C locale): control and non-ASCII bytes in octal. */
export function quoteName(name: string): string {
  const ESC: Record<number, string> = { 7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r", 92: "\\\\" };
  let out = "";
  for (const byte of enc.encode(name)) {
    if (ESC[byte]) out += ESC[byte];
    else if (byte < 32 || byte >= 127) out += `\\${byte.toString(8).padStart(3, "0")}`;
    else out += String.fromCharCode(byte);
  }
  return out;
}

const pad2 = (n: number): string => String(n).padStart(2, "0");

/** "%Y-%m-%d %H:%M" in UTC (the VM's time zone). */
export function listTime(sec: number): string {
  const d = new Date(sec * 1000);
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}`;
}

/** The `tar tv` line's state: the owner-and-size column only ever widens (GNU's static ugswidth). */
export class Lister {
  private ugswidth = 19;
  private datewidth = 16;

  line(e: Entry, shownName: string): string {
    const user = e.uname || String(e.uid);
    const group = e.gname || String(e.gid);
    const size = e.type === "3" || e.type === "4" ? `${e.devmajor},${e.devminor}` : String(e.type === "5" || e.type === "2" || e.type === "1" ? 0 : e.size);
    const stamp = listTime(e.mtime);
    if (stamp.length > this.datewidth) this.datewidth = stamp.length;
    const pad = user.length + 1 + group.length + 1 + size.length;
    if (pad > this.ugswidth) this.ugswidth = pad;
    let line = `${modeString(e.type, e.mode)} ${user}/${group} ${size.padStart(this.ugswidth - pad + size.length)} ${stamp.padEnd(this.datewidth)} ${quoteName(shownName)}`;
    if (e.type === "2") line += ` -> ${quoteName(e.linkname)}`;
    else if (e.type === "1") line += ` link to ${quoteName(e.linkname)}`;
    return `${line}\n`;
  }
}

/** fnmatch(3) without FNM_PATHNAME: `*` and `?` match `/` too (tar's default for member names). */
export function globRegExp(pattern: string): RegExp {
  let re = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "*") re += ".*";
    else if (c === "?") re += ".";
    else if (c === "\\" && i + 1 < pattern.length) re += escapeRe(pattern[++i]!);
    else if (c === "[") {
      const end = pattern.indexOf("]", i + 2);
      if (end < 0) re += "\\[";
      else {
        let body = pattern.slice(i + 1, end);
        if (body.startsWith("!")) body = `^${body.slice(1)}`;
        re += `[${body.replace(/\\/g, "\\\\")}]`;
        i = end;
      }
    } else re += escapeRe(c);
  }
  return new RegExp(`^${re}$`, "s");
}

function escapeRe(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}

export const hasWildcards = (s: string): boolean => /[*?[]/.test(s);
