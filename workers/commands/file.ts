import type { ScriptProcess } from "../script-host.js";
import { SysError, type Stat, type System } from "../system.js";
import { strerror } from "../../src/gnu/strerror.js";
import { getopt, UsageError } from "./getopt.js";
import { versionText } from "../../src/gnu/version.js";

// A subset of file 5.44: its answers, in its words, for the file types a project holds: text (ASCII,
// UTF-8, UTF-16, ISO-8859 and what its line terminators are), scripts by their #! line, JSON, HTML,
// XML, SVG, C and JavaScript source, and by their magic numbers PNG, JPEG, GIF, PDF, gzip, tar, Zip,
// ELF and WebAssembly; else "data". -b, -i/--mime, --mime-type, --mime-encoding, -L/-h, -F, -N.

const SPECS = [
  { key: "b", short: "b", long: "brief" },
  { key: "i", short: "i", long: "mime" },
  { key: "mime-type", long: "mime-type" },
  { key: "mime-encoding", long: "mime-encoding" },
  { key: "L", short: "L", long: "dereference" },
  { key: "h", short: "h", long: "no-dereference" },
  { key: "F", short: "F", long: "separator", arg: "required" as const },
  { key: "N", short: "N", long: "no-pad" },
  { key: "E", short: "E" },
  { key: "z", short: "z", long: "uncompress" },
  { key: "k", short: "k", long: "keep-going" },
  { key: "r", short: "r", long: "raw" },
  { key: "help", long: "help" },
  { key: "v", short: "v", long: "version" },
];

const USAGE = `Usage: file [-bcCdEhikLlNnprsSvzZ0] [--apple] [--extension] [--mime-encoding]
            [--mime-type] [-e <testname>] [-F <separator>]  [-f <namefile>]
            [-m <magicfiles>] [-P <parameter=value>] [--exclude-quiet]
            <file> ...
       file -C [-m <magicfiles>]
       file [--help]
`;

/** How much of a file is looked at (file's bytes_max). */
const BYTES_MAX = 1024 * 1024;

interface Answer {
  /** The description, as file prints it. */
  text: string;
  mime: string;
  /** The charset of -i and --mime-encoding (undefined: none printed, as for a broken link). */
  charset?: string;
}

// What each byte is to file's encoding.c: F never in text, T ASCII text, I ISO-8859, X extended ASCII.
const F = 0;
const T = 1;
const I = 2;
const X = 3;
const TEXT_CHARS: number[] = [];
for (let c = 0; c < 256; c++) {
  TEXT_CHARS[c] =
    (c >= 7 && c <= 13) || c === 0x1b || (c >= 0x20 && c <= 0x7e) || c === 0x85 ? T : c === 0x7f || c < 0x20 ? F : c < 0xa0 ? X : I;
}

interface Encoding {
  /** "ASCII", "Unicode text, UTF-8", …; undefined when binary. */
  code?: string;
  charset: string;
  /** The text as code points, for the line statistics. */
  chars?: number[];
}

function utf8Decode(buf: Uint8Array, from: number): number[] | undefined {
  const out: number[] = [];
  for (let i = from; i < buf.length; ) {
    const c = buf[i]!;
    if (c < 0x80) {
      if (TEXT_CHARS[c] !== T) return undefined;
      out.push(c);
      i++;
      continue;
    }
    const n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (n === 0) return undefined;
    if (i + n > buf.length) {
      // A sequence cut by the end of what was read still counts (file reads a prefix).
      if (buf.length >= BYTES_MAX) break;
      return undefined;
    }
    let cp = c & (n === 2 ? 0x1f : n === 3 ? 0x0f : 0x07);
    for (let k = 1; k < n; k++) {
      const b = buf[i + k]!;
      if ((b & 0xc0) !== 0x80) return undefined;
      cp = (cp << 6) | (b & 0x3f);
    }
    if ((n === 3 && cp < 0x800) || (n === 4 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff)) return undefined;
    out.push(cp);
    i += n;
  }
  return out;
}

function encodingOf(buf: Uint8Array): Encoding {
  if (buf.every((c) => TEXT_CHARS[c] === T)) return { code: "ASCII", charset: "us-ascii", chars: [...buf] };
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) {
    const chars = utf8Decode(buf, 3);
    if (chars) return { code: "Unicode text, UTF-8 (with BOM)", charset: "utf-8", chars };
  }
  const utf8 = utf8Decode(buf, 0);
  if (utf8) return { code: "Unicode text, UTF-8", charset: "utf-8", chars: utf8 };
  if (buf.length >= 2 && ((buf[0] === 0xff && buf[1] === 0xfe) || (buf[0] === 0xfe && buf[1] === 0xff))) {
    const le = buf[0] === 0xff;
    const chars: number[] = [];
    let ok = true;
    for (let i = 2; i + 1 < buf.length; i += 2) {
      const u = le ? buf[i]! | (buf[i + 1]! << 8) : (buf[i]! << 8) | buf[i + 1]!;
      if (u < 128 && TEXT_CHARS[u] !== T) ok = false;
      chars.push(u);
    }
    if (ok) return { code: `Unicode text, UTF-16, ${le ? "little" : "big"}-endian`, charset: le ? "utf-16le" : "utf-16be", chars };
  }
  if (buf.every((c) => TEXT_CHARS[c] === T || TEXT_CHARS[c] === I)) return { code: "ISO-8859", charset: "iso-8859-1", chars: [...buf] };
  if (buf.every((c) => TEXT_CHARS[c] !== F)) return { code: "Non-ISO extended-ASCII", charset: "unknown-8bit", chars: [...buf] };
  return { charset: "binary" };
}

/** ", with very long lines (N)", the line terminators, escapes and overstriking, as ascmagic says them. */
function textTraits(chars: readonly number[]): string {
  let crlf = 0;
  let cr = 0;
  let lf = 0;
  let nel = 0;
  let escapes = false;
  let backspace = false;
  let longest = 0;
  let seen = 0;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === 13 && chars[i + 1] === 10) {
      crlf++;
      i++;
      seen = 0;
    } else if (c === 13) {
      cr++;
      seen = 0;
    } else if (c === 10) {
      lf++;
      seen = 0;
    } else if (c === 0x85) {
      nel++;
      seen = 0;
    } else {
      if (c === 0x1b) escapes = true;
      if (c === 8) backspace = true;
      seen++;
      if (seen > longest) longest = seen;
    }
  }
  let s = "";
  if (longest > 300) s += `, with very long lines (${longest})`;
  if (!crlf && !cr && !nel && !lf) s += ", with no line terminators";
  else if (crlf || cr || nel) {
    s += ", with";
    if (crlf) s += ` CRLF${cr || lf || nel ? "," : ""}`;
    if (cr) s += ` CR${lf || nel ? "," : ""}`;
    if (lf) s += ` LF${nel ? "," : ""}`;
    if (nel) s += " NEL";
    s += " line terminators";
  }
  if (escapes) s += ", with escape sequences";
  if (backspace) s += ", with overstriking";
  return s;
}

const u16be = (b: Uint8Array, o: number): number => (b[o]! << 8) | b[o + 1]!;
const u16le = (b: Uint8Array, o: number): number => b[o]! | (b[o + 1]! << 8);
const u32be = (b: Uint8Array, o: number): number => ((b[o]! << 24) >>> 0) + (b[o + 1]! << 16) + (b[o + 2]! << 8) + b[o + 3]!;
const u32le = (b: Uint8Array, o: number): number => b[o]! + (b[o + 1]! << 8) + (b[o + 2]! << 16) + ((b[o + 3]! << 24) >>> 0);
const startsWith = (b: Uint8Array, s: string, at = 0): boolean => {
  if (b.length < at + s.length) return false;
  for (let i = 0; i < s.length; i++) if (b[at + i] !== s.charCodeAt(i)) return false;
  return true;
};

function png(b: Uint8Array): Answer {
  let text = "PNG image data";
  if (startsWith(b, "IHDR", 12) && b.length >= 29) {
    const depth = b[24]!;
    const color: Record<number, string> = { 0: `${depth}-bit grayscale`, 2: `${depth}-bit/color RGB`, 3: `${depth}-bit colormap`, 4: `${depth}-bit gray+alpha`, 6: `${depth}-bit/color RGBA` };
    text += `, ${u32be(b, 16)} x ${u32be(b, 20)}`;
    if (color[b[25]!]) text += `, ${color[b[25]!]}`;
    text += b[28] ? ", interlaced" : ", non-interlaced";
  }
  return { text, mime: "image/png", charset: "binary" };
}

function jpeg(b: Uint8Array): Answer {
  let text = "JPEG image data";
  let at = 2;
  if (startsWith(b, "\xff\xe0", 2) && startsWith(b, "JFIF\0", 6) && b.length >= 20) {
    const units = ["aspect ratio", "resolution (DPI)", "resolution (DPCM)"][b[13]!];
    text += `, JFIF standard ${b[11]}.${String(b[12]).padStart(2, "0")}`;
    if (units) text += `, ${units}, density ${u16be(b, 14)}x${u16be(b, 16)}`;
    text += `, segment length ${u16be(b, 4)}`;
  }
  // The frame header (SOFn) after the segments before it.
  const SOF: Record<number, string> = { 0xc0: "baseline", 0xc1: "extended sequential", 0xc2: "progressive", 0xc3: "lossless" };
  for (let k = 0; k < 64 && at + 4 <= b.length && b[at] === 0xff; k++) {
    const marker = b[at + 1]!;
    if (marker === 0xd9 || marker === 0xda) break;
    const len = u16be(b, at + 2);
    if (SOF[marker] && at + 10 <= b.length) {
      text += `, ${SOF[marker]}, precision ${b[at + 4]}, ${u16be(b, at + 7)}x${u16be(b, at + 5)}, components ${b[at + 9]}`;
      break;
    }
    at += 2 + len;
  }
  return { text, mime: "image/jpeg", charset: "binary" };
}

const GZIP_OS: Record<number, string> = {
  0: "FAT filesystem (MS-DOS, OS/2, NT)",
  1: "Amiga",
  2: "VMS",
  3: "Unix",
  5: "Atari",
  6: "HPFS filesystem (OS/2, NT)",
  7: "Macintosh",
  10: "Tops/20",
  11: "NTFS filesystem (NT)",
  13: "Acorn RISCOS",
};

function ctime(seconds: number): string {
  const d = new Date(seconds * 1000);
  const days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  const p = (n: number): string => String(n).padStart(2, "0");
  return `${days[d.getUTCDay()]} ${months[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, " ")} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} ${d.getUTCFullYear()}`;
}

function gzip(b: Uint8Array, tail: Uint8Array): Answer {
  let text = "gzip compressed data";
  const flags = b[3]!;
  if (flags & 0x08) {
    let at = 10;
    if (flags & 0x04) at += 2 + u16le(b, 10);
    let end = at;
    while (end < b.length && b[end] !== 0) end++;
    text += `, was "${Buffer.from(b.subarray(at, end)).toString("latin1")}"`;
  }
  const mtime = u32le(b, 4);
  if (mtime) text += `, last modified: ${ctime(mtime)}`;
  if (b[8] === 2) text += ", max compression";
  else if (b[8] === 4) text += ", max speed";
  const os = GZIP_OS[b[9]!];
  if (os) text += `, from ${os}`;
  if (tail.length === 4) text += `, original size modulo 2^32 ${u32le(tail, 0)}`;
  return { text, mime: "application/gzip", charset: "binary" };
}

function zip(b: Uint8Array): Answer {
  const version = u16le(b, 4);
  const methods: Record<number, string> = { 0: "store", 8: "deflate", 9: "deflate64", 12: "bzip2", 14: "lzma", 93: "zstd", 95: "xz" };
  const method = u16le(b, 8);
  const text = `Zip archive data, at least v${Math.floor(version / 10)}.${version % 10} to extract, compression method=${methods[method] ?? method}`;
  return { text, mime: "application/zip", charset: "binary" };
}

function elf(b: Uint8Array): Answer {
  const bits = b[4] === 2 ? 64 : 32;
  const le = b[5] !== 2;
  const half = (o: number): number => (le ? u16le(b, o) : u16be(b, o));
  const types: Record<number, [string, string]> = {
    1: ["relocatable", "application/x-object"],
    2: ["executable", "application/x-executable"],
    3: ["shared object", "application/x-sharedlib"],
    4: ["core file", "application/x-coredump"],
  };
  const machines: Record<number, string> = { 3: "Intel 80386", 8: "MIPS", 0x14: "PowerPC", 0x28: "ARM", 0x3e: "x86-64", 0xb7: "ARM aarch64", 0xf3: "UCB RISC-V" };
  const [type, mime] = types[half(16)] ?? ["unknown type", "application/octet-stream"];
  const osabi: Record<number, string> = { 0: "SYSV", 3: "GNU/Linux", 9: "FreeBSD" };
  let text = `ELF ${bits}-bit ${le ? "LSB" : "MSB"} ${type}`;
  const machine = machines[half(18)];
  if (machine) text += `, ${machine}`;
  text += `, version ${b[6]} (${osabi[b[7]!] ?? `unknown OS ABI ${b[7]}`})`;
  return { text, mime, charset: "binary" };
}

/** Whether a tar header's checksum is right (is_tar.c). */
function tarChecksumOk(b: Uint8Array): boolean {
  if (b.length < 512) return false;
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : b[i]!;
  const field = Buffer.from(b.subarray(148, 156)).toString("latin1").replace(/[\0 ]+$/, "").trim();
  return /^[0-7]+$/.test(field) && parseInt(field, 8) === sum;
}

/** The interpreter of a #! line, as file names its script. */
function script(firstLine: string): { label: string; mime: string; form: "normal" | "node" | "perl" } {
  const line = firstLine.slice(2).trim();
  let words = line.split(/[ \t]+/);
  let interp = words[0] ?? "";
  if (interp.endsWith("/env") && words.length > 1) {
    words = words.slice(1);
    interp = words[0]!;
  }
  const base = interp.slice(interp.lastIndexOf("/") + 1);
  if (/^(sh)$/.test(base)) return { label: "POSIX shell script", mime: "text/x-shellscript", form: "normal" };
  if (base === "bash") return { label: "Bourne-Again shell script", mime: "text/x-shellscript", form: "normal" };
  if (base === "zsh") return { label: "Paul Falstad's zsh script", mime: "text/x-shellscript", form: "normal" };
  if (/^python[0-9.]*$/.test(base)) return { label: "Python script", mime: "text/x-script.python", form: "normal" };
  if (/^ruby[0-9.]*$/.test(base)) return { label: "Ruby script", mime: "text/x-ruby", form: "normal" };
  if (base === "perl") return { label: "Perl script text executable", mime: "text/x-perl", form: "perl" };
  if (base === "node" || base === "nodejs") return { label: "Node.js script executable", mime: "application/javascript", form: "node" };
  return { label: `a ${line.replace(/^\S*\/env\s+/, "")} script`, mime: "text/plain", form: "normal" };
}

/** What file says of the bytes of a file (its first BYTES_MAX, and its last 4). */
export function classify(b: Uint8Array, tail: Uint8Array): Answer {
  if (b.length === 0) return { text: "empty", mime: "inode/x-empty", charset: "binary" };
  if (startsWith(b, "\x89PNG\r\n\x1a\n")) return png(b);
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return jpeg(b);
  if (startsWith(b, "GIF87a") || startsWith(b, "GIF89a")) {
    const text = `GIF image data, version ${String.fromCharCode(b[3]!, b[4]!, b[5]!)}${b.length >= 10 ? `, ${u16le(b, 6)} x ${u16le(b, 8)}` : ""}`;
    return { text, mime: "image/gif", charset: "binary" };
  }
  if (startsWith(b, "%PDF-")) {
    const version = /^[0-9.]+/.exec(Buffer.from(b.subarray(5, 20)).toString("latin1"))?.[0] ?? "";
    return { text: `PDF document, version ${version}`, mime: "application/pdf", charset: encodingOf(b).charset };
  }
  if (b[0] === 0x1f && b[1] === 0x8b && b[2] === 8) return gzip(b, tail);
  if (startsWith(b, "ustar  \0", 257) && tarChecksumOk(b)) return { text: "POSIX tar archive (GNU)", mime: "application/x-tar", charset: "binary" };
  if (startsWith(b, "ustar\x0000", 257) && tarChecksumOk(b)) return { text: "POSIX tar archive", mime: "application/x-tar", charset: "binary" };
  if (startsWith(b, "PK\x03\x04")) return zip(b);
  if (startsWith(b, "PK\x05\x06")) return { text: "Zip archive data (empty)", mime: "application/zip", charset: "binary" };
  if (startsWith(b, "\x7fELF") && b.length >= 20) return elf(b);
  if (startsWith(b, "\0asm")) {
    const v = b.length >= 8 ? u32le(b, 4) : 0;
    return { text: `WebAssembly (wasm) binary module version 0x${v.toString(16)}${v === 1 ? " (MVP)" : ""}`, mime: "application/wasm", charset: "binary" };
  }
  const enc = encodingOf(b);
  if (!enc.code) return { text: "data", mime: "application/octet-stream", charset: "binary" };
  const traits = textTraits(enc.chars!);
  const textOf = (label?: string): string => `${label ? `${label}, ` : ""}${enc.code} text${traits}`;
  const head = Buffer.from(b.subarray(0, 4096)).toString("latin1");
  if (head.startsWith("#!")) {
    const s = script(head.split("\n")[0]!.replace(/\r$/, ""));
    const text = s.form === "perl" ? s.label : s.form === "node" ? `${s.label}, ${enc.code} text${traits}` : `${s.label}, ${enc.code} text executable${traits}`;
    return { text, mime: s.mime, charset: enc.charset };
  }
  const trimmed = head.replace(/^[\s\ufeff]+/, "").replace(/^\xef\xbb\xbf/, "");
  if (/^[[{]/.test(trimmed) && enc.charset !== "utf-16le" && enc.charset !== "utf-16be") {
    try {
      JSON.parse(Buffer.from(b).toString("utf8").replace(/^\ufeff/, ""));
      return { text: "JSON text data", mime: "application/json", charset: enc.charset };
    } catch {
      // not JSON: plain text
    }
  }
  if (/^<svg[\s>]/i.test(trimmed)) return { text: "SVG Scalable Vector Graphics image", mime: "image/svg+xml", charset: enc.charset };
  if (/^<\?xml version="1\.0"/.test(trimmed)) {
    if (/<svg[\s>]/.test(head)) return { text: "SVG Scalable Vector Graphics image", mime: "image/svg+xml", charset: enc.charset };
    return { text: textOf("XML 1.0 document"), mime: "text/xml", charset: enc.charset };
  }
  if (/^<(!DOCTYPE html|html|head|body|title)[\s>]/i.test(trimmed)) return { text: textOf("HTML document"), mime: "text/html", charset: enc.charset };
  if (/^#include\s*[<"]/m.test(head)) return { text: textOf("C source"), mime: "text/x-c", charset: enc.charset };
  if (/^import\s.*\sfrom\s/m.test(head) && /^(import|export)\s/.test(trimmed)) return { text: textOf("JavaScript source"), mime: "application/javascript", charset: enc.charset };
  return { text: textOf(), mime: "text/plain", charset: enc.charset };
}

/** The first BYTES_MAX bytes of an open file, and its last 4. */
function readHead(sys: System, fd: number): { head: Uint8Array; tail: Uint8Array } {
  const chunks: Uint8Array[] = [];
  let have = 0;
  let last = new Uint8Array(0);
  for (let c = sys.read(fd); c.length > 0; c = sys.read(fd)) {
    if (have < BYTES_MAX) {
      const take = c.subarray(0, BYTES_MAX - have);
      chunks.push(take);
      have += take.length;
    }
    last = Buffer.concat([last, c]).subarray(-4);
  }
  return { head: Buffer.concat(chunks), tail: last.length === 4 ? last : new Uint8Array(0) };
}

export default function file({ sys, argv, stdout, stderr }: ScriptProcess): number {
  let parsed;
  try {
    parsed = getopt(argv.slice(1), SPECS);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    stderr.write(`file: ${e.message}\n${USAGE}`);
    return 1;
  }
  let brief = false;
  let mime: "none" | "full" | "type" | "encoding" = "none";
  let follow = false;
  let separator = ":";
  let pad = true;
  for (const o of parsed.options) {
    if (o.key === "help") return stdout.write("Usage: file [OPTION...] [FILE...]\nDetermine type of FILEs.\n"), 0;
    if (o.key === "v") return stdout.write(versionText("file", "file 5.44")), 0;
    if (o.key === "b") brief = true;
    if (o.key === "i") mime = "full";
    if (o.key === "mime-type") mime = "type";
    if (o.key === "mime-encoding") mime = "encoding";
    if (o.key === "L") follow = true;
    if (o.key === "h") follow = false;
    if (o.key === "F") separator = o.value!;
    if (o.key === "N") pad = false;
  }
  if (parsed.operands.length === 0) {
    stderr.write(USAGE);
    return 1;
  }
  const names = parsed.operands.map((n) => (n === "-" ? "/dev/stdin" : n));
  const width = Math.max(...names.map((n) => [...n].length));
  const show = (a: Answer): string => {
    if (mime === "none") return a.text;
    if (mime === "type") return a.mime;
    if (mime === "encoding") return a.charset ?? "";
    return a.charset === undefined ? a.mime : `${a.mime}; charset=${a.charset}`;
  };
  for (const [k, operand] of parsed.operands.entries()) {
    const name = names[k]!;
    const prefix = brief ? "" : `${name}${separator}${pad ? " ".repeat(width - [...name].length) : ""} `;
    let answer: Answer;
    if (operand === "-") {
      answer = classifyFd(sys, 0);
    } else {
      let st: Stat | undefined;
      try {
        st = sys.stat(operand, follow);
      } catch (e) {
        stdout.write(`${prefix}cannot open \`${operand}' (${strerror(e)})\n`);
        continue;
      }
      if (st.kind === "symlink") {
        let target = "";
        try {
          target = sys.readlink(operand);
        } catch {
          // unreadable link: no target
        }
        let broken = false;
        try {
          sys.stat(operand, true);
        } catch {
          broken = true;
        }
        answer = broken
          ? { text: `broken symbolic link to ${target}`, mime: "inode/symlink" }
          : { text: `symbolic link to ${target}`, mime: "inode/symlink", charset: "binary" };
      } else if (st.kind === "dir") answer = { text: "directory", mime: "inode/directory", charset: "binary" };
      else if (st.kind === "fifo") answer = { text: "fifo (named pipe)", mime: "inode/fifo", charset: "binary" };
      else if (st.kind === "socket") answer = { text: "socket", mime: "inode/socket", charset: "binary" };
      else if (st.kind === "char") answer = { text: "character special", mime: "inode/chardevice", charset: "binary" };
      else if (st.kind === "block") answer = { text: "block special", mime: "inode/blockdevice", charset: "binary" };
      else {
        let fd: number;
        try {
          fd = sys.open(operand);
        } catch (e) {
          stdout.write(`${prefix}cannot open \`${operand}' (${strerror(e)})\n`);
          continue;
        }
        try {
          answer = classifyFd(sys, fd);
        } catch (e) {
          if (!(e instanceof SysError)) throw e;
          stdout.write(`${prefix}cannot read \`${operand}' (${strerror(e)})\n`);
          continue;
        } finally {
          sys.close(fd);
        }
      }
    }
    stdout.write(`${prefix}${show(answer)}\n`);
  }
  return 0;
}

function classifyFd(sys: System, fd: number): Answer {
  const { head, tail } = readHead(sys, fd);
  return classify(head, tail);
}
