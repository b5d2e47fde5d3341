import { strerror } from "../../src/gnu/strerror.js";
import type { ScriptProcess } from "../script-host.js";
import { type Stat, SysError } from "../system.js";
import { getopt, UsageError } from "./getopt.js";
import { crc32, Gunzip, GzipEncoder, GzipFormatError, parseGzipHeader } from "./tar/zstream.js";
import { versionText } from "../../src/gnu/version.js";

/**
 * GNU gzip 1.12: compresses each FILE to FILE.gz (or decompresses FILE.gz to FILE, -d), in place unless
 * -c; with no FILE, standard input to standard output. Messages say "gzip:" as gunzip and zcat (Debian's
 * scripts around `gzip -d` and `gzip -dc`) do. Exit 1 on an error, 2 on a warning only.
 */

const SPECS = [
  ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => ({ key: `level${n}`, short: String(n) })),
  { key: "ascii", short: "a", long: "ascii" },
  { key: "stdout", short: "c", long: "stdout" },
  { key: "stdout", long: "to-stdout" },
  { key: "decompress", short: "d", long: "decompress" },
  { key: "decompress", long: "uncompress" },
  { key: "force", short: "f", long: "force" },
  { key: "help", short: "h", long: "help" },
  { key: "keep", short: "k", long: "keep" },
  { key: "list", short: "l", long: "list" },
  { key: "license", short: "L", long: "license" },
  { key: "no-name", short: "n", long: "no-name" },
  { key: "name", short: "N", long: "name" },
  { key: "quiet", short: "q", long: "quiet" },
  { key: "quiet", long: "silent" },
  { key: "recursive", short: "r", long: "recursive" },
  { key: "rsyncable", long: "rsyncable" },
  { key: "suffix", short: "S", long: "suffix", arg: "required" as const },
  { key: "synchronous", long: "synchronous" },
  { key: "test", short: "t", long: "test" },
  { key: "verbose", short: "v", long: "verbose" },
  { key: "version", short: "V", long: "version" },
  { key: "level1", long: "fast" },
  { key: "level9", long: "best" },
];

const HELP = `Usage: gzip [OPTION]... [FILE]...
Compress or uncompress FILEs (by default, compress FILES in-place).

Mandatory arguments to long options are mandatory for short options too.

  -c, --stdout      write on standard output, keep original files unchanged
  -d, --decompress  decompress
  -f, --force       force overwrite of output file and compress links
  -h, --help        give this help
  -k, --keep        keep (don't delete) input files
  -l, --list        list compressed file contents
  -L, --license     display software license
  -n, --no-name     do not save or restore the original name and timestamp
  -N, --name        save or restore the original name and timestamp
  -q, --quiet       suppress all warnings
  -r, --recursive   operate recursively on directories
      --rsyncable   make rsync-friendly archive
  -S, --suffix=SUF  use suffix SUF on compressed files
      --synchronous synchronous output (safer if system crashes, but slower)
  -t, --test        test compressed file integrity
  -v, --verbose     verbose mode
  -V, --version     display version number
  -1, --fast        compress faster
  -9, --best        compress better

With no FILE, or when FILE is -, read standard input.

Report bugs to <bug-gzip@gnu.org>.
`;

const VERSION = versionText("gzip", "GNU gzip 1.12");

const CHUNK = 64 * 1024;
/** The suffixes gunzip knows (GNU's known_suffixes, after -S's). */
const KNOWN = [".gz", ".z", ".taz", ".tgz", "-gz", "-z", "_z"];

class Quit extends Error {}

export interface GzipMode {
  decompress?: boolean;
  stdout?: boolean;
}

export default function gzip(p: ScriptProcess): number {
  return gzipMain(p, {});
}

export function gzipMain({ sys, argv, stdout, stderr }: ScriptProcess, mode: GzipMode): number {
  let parsed;
  try {
    parsed = getopt(argv.slice(1), SPECS);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    stderr.write(`gzip: ${e.message}\nTry \`gzip --help' for more information.\n`);
    return 1;
  }
  let decompress = mode.decompress ?? false;
  let toStdout = mode.stdout ?? false;
  let force = false;
  let keep = false;
  let list = false;
  let noName: boolean | undefined;
  let quiet = false;
  let recursive = false;
  let suffix = ".gz";
  let test = false;
  let verbose = 0;
  let level = 6;
  for (const o of parsed.options) {
    switch (o.key) {
      case "help":
        stdout.write(HELP);
        return 0;
      case "version":
      case "license":
        stdout.write(VERSION);
        return 0;
      case "stdout":
        toStdout = true;
        break;
      case "decompress":
        decompress = true;
        break;
      case "force":
        force = true;
        break;
      case "keep":
        keep = true;
        break;
      case "list":
        list = true;
        break;
      case "no-name":
        noName = true;
        break;
      case "name":
        noName = false;
        break;
      case "quiet":
        quiet = true;
        verbose = 0;
        break;
      case "recursive":
        recursive = true;
        break;
      case "suffix":
        suffix = o.value!;
        break;
      case "test":
        test = true;
        break;
      case "verbose":
        verbose++;
        quiet = false;
        break;
      default:
        if (o.key.startsWith("level")) level = Number(o.key.slice(5));
    }
  }
  if (suffix === "" || suffix.includes("/")) {
    stderr.write(suffix === "" ? `gzip: invalid suffix ''\n` : `gzip: suffix contains '/'\n`);
    stderr.write("Try `gzip --help' for more information.\n");
    return 1;
  }
  if (test || list) decompress = true;
  if (test) toStdout = true;
  const restoreName = noName === false;
  const suffixes = [suffix, ...KNOWN.filter((s) => s !== suffix)];

  let exitCode = 0;
  const error = (msg: string): void => {
    stderr.write(`gzip: ${msg}\n`);
    exitCode = 1;
  };
  const warn = (msg: string): void => {
    if (!quiet) stderr.write(`gzip: ${msg}\n`);
    if (exitCode === 0) exitCode = 2;
  };

  const FORMAT_ERRORS: Record<string, string> = {
    "not-gzip": "not in gzip format",
    invalid: "invalid compressed data--format violated",
    crc: "invalid compressed data--crc error",
    length: "invalid compressed data--length error",
    eof: "unexpected end of file",
  };
  const formatError = (kind: string, name: string): void => {
    if (kind === "unknown-method") stderr.write(`gzip: ${name}: unknown method -- not supported\n`);
    else stderr.write(`\ngzip: ${name}: ${FORMAT_ERRORS[kind]}\n`);
    exitCode = 1;
  };

  const readChunks = (fd: number): (() => Uint8Array) => () => sys.read(fd, CHUNK);

  // gzip -l
  let listed = 0;
  let totalIn = 0;
  let totalOut = 0;
  let lastHeaderBytes = 0;
  const listHeading = (): void => {
    if (listed++ > 0 || quiet) return;
    stdout.write(
      verbose > 0
        ? "method  crc     date  time           compressed        uncompressed  ratio uncompressed_name\n"
        : "         compressed        uncompressed  ratio uncompressed_name\n",
    );
  };
  const listOne = (fd: number, shown: string, displayName: string, size: number | undefined): void => {
    // The header, then the last 8 bytes (CRC and size of the last member).
    let total = 0;
    let head: Uint8Array = new Uint8Array(0);
    let tail: Uint8Array = new Uint8Array(0);
    for (let c = sys.read(fd, CHUNK); c.length > 0; c = sys.read(fd, CHUNK)) {
      total += c.length;
      if (head.length < 4096) head = Buffer.concat([head, c]).subarray(0, 4096);
      tail = Buffer.concat([tail, c]);
      if (tail.length > 8) tail = tail.subarray(tail.length - 8);
    }
    const h = parseGzipHeader(head, true);
    if (h === undefined || typeof h === "string" || total < h.length + 8) {
      formatError(h === "bad-magic" || total < 2 ? "not-gzip" : h === "bad-method" ? "unknown-method" : "eof", displayName);
      return;
    }
    const v = new DataView(tail.buffer, tail.byteOffset, 8);
    const crc = v.getUint32(0, true);
    const usize = v.getUint32(4, true);
    const csize = size ?? total;
    const headerBytes = h.length + 8;
    lastHeaderBytes = headerBytes;
    listHeading();
    let line = "";
    if (verbose > 0) line += `defla ${crc.toString(16).padStart(8, "0")} ${ctimeShort(h.mtime)} `;
    line += `${String(csize).padStart(19)} ${String(usize).padStart(19)} ${ratio(usize - (csize - headerBytes), usize)} ${shown}\n`;
    stdout.write(line);
    totalIn += csize;
    totalOut += usize;
  };

  /** Decompresses from `fd` to `emit`; answers false after reporting an error. */
  const inflate = (fd: number, name: string, emit: (c: Uint8Array) => void, counts?: { in: number; out: number; header: number }): boolean => {
    const g = new Gunzip(readChunks(fd));
    let out = 0;
    try {
      for (let c = g.next(); c !== undefined; c = g.next()) {
        out += c.length;
        emit(c);
      }
    } catch (e) {
      if (!(e instanceof GzipFormatError)) throw e;
      if (e.kind === "not-gzip" && force && toStdout && !test) {
        return passThrough(g, fd, emit);
      }
      formatError(e.kind, name);
      return false;
    }
    if (g.trailingGarbage) {
      if (!quiet) stderr.write(`\ngzip: ${name}: decompression OK, trailing garbage ignored\n`);
      if (exitCode === 0) exitCode = 2;
    }
    if (counts) {
      counts.in = g.bytesIn;
      counts.out = out;
      counts.header = (g.first?.length ?? 10) + 8;
    }
    return true;
  };

  /** zcat -f: data that is not gzip goes through as it is. */
  const passThrough = (g: Gunzip, fd: number, emit: (c: Uint8Array) => void): boolean => {
    void g;
    // The Gunzip read what it looked at: it kept it in its buffer, which the first read here would miss.
    const held = (g as unknown as { buf: Uint8Array }).buf;
    if (held.length > 0) emit(held);
    for (let c = sys.read(fd, CHUNK); c.length > 0; c = sys.read(fd, CHUNK)) emit(c);
    return true;
  };

  const compressTo = (fd: number, mtime: number, name: string | undefined, emit: (c: Uint8Array) => void): GzipEncoder => {
    const enc = new GzipEncoder(level, mtime, name, emit);
    for (let c = sys.read(fd, CHUNK); c.length > 0; c = sys.read(fd, CHUNK)) enc.write(c);
    enc.end();
    return enc;
  };

  const verboseRatio = (num: number, den: number): string => ratio(num, den);

  const treatStdin = (): void => {
    if (!force && !list && !test && (decompress ? sys.isatty(0) : sys.isatty(1))) {
      stderr.write(
        decompress
          ? "gzip: compressed data not read from a terminal. Use -f to force decompression.\nFor help, type: gzip -h\n"
          : "gzip: compressed data not written to a terminal. Use -f to force compression.\nFor help, type: gzip -h\n",
      );
      exitCode = 1;
      throw new Quit();
    }
    if (list) {
      listOne(0, "stdout", "stdin", undefined);
      return;
    }
    if (verbose > 0 && !list) stderr.write(test ? "stdin:\t" : "");
    if (decompress) {
      const counts = { in: 0, out: 0, header: 0 };
      const ok = inflate(0, "stdin", (c) => (test ? undefined : stdout.write(c)), counts);
      if (ok && verbose > 0) stderr.write(test ? " OK\n" : "");
      return;
    }
    compressTo(0, 0, undefined, (c) => stdout.write(c));
  };

  const lstatOrNull = (path: string, follow: boolean): Stat | undefined => {
    try {
      return sys.stat(path, follow);
    } catch {
      return undefined;
    }
  };

  const treatFile = (name: string, fromRecursion: boolean): void => {
    let path = name;
    let st: Stat;
    const follow = force || toStdout;
    try {
      st = sys.stat(path, follow);
    } catch (e) {
      let found: Stat | undefined;
      if (decompress && (e as SysError).code === "ENOENT" && !suffixes.some((s) => name.endsWith(s) && name.length > s.length)) {
        for (const s of suffixes) {
          found = lstatOrNull(name + s, follow);
          if (found) {
            path = name + s;
            break;
          }
        }
      }
      if (!found) {
        const shown = decompress && (e as SysError).code === "ENOENT" && !suffixes.some((s) => name.endsWith(s)) ? name + suffix : name;
        error(`${shown}: ${strerror(e)}`);
        return;
      }
      st = found;
      name = path;
    }
    if (st.kind === "symlink") {
      error(`${name}: Too many levels of symbolic links`);
      return;
    }
    if (st.kind === "dir") {
      if (recursive) {
        let entries;
        try {
          entries = sys.readdir(path);
        } catch (e) {
          error(`${name}: ${strerror(e)}`);
          return;
        }
        for (const e of entries) treatFile(name.endsWith("/") ? name + e.name : `${name}/${e.name}`, true);
        return;
      }
      warn(`${name} is a directory -- ignored`);
      return;
    }
    if (st.kind !== "file") {
      warn(`${name} is not a directory or a regular file - ignored`);
      return;
    }
    if (!toStdout && !list && st.nlink > 1 && !force) {
      warn(`${name} has ${st.nlink - 1} other link${st.nlink > 2 ? "s" : ""} -- file ignored`);
      return;
    }
    // The output name.
    let outName = "";
    const hasSuffix = suffixes.find((s) => name.length > s.length && name.endsWith(s) && !name.endsWith(`/${s}`));
    if (decompress) {
      if (!hasSuffix) {
        if (!toStdout && !list) {
          // GNU: with -q, neither the message nor the warning status.
          if (!quiet && (!(recursive && fromRecursion) || verbose > 0)) warn(`${name}: unknown suffix -- ignored`);
          return;
        }
        outName = name;
      } else outName = name.slice(0, -hasSuffix.length) + (hasSuffix === ".tgz" || hasSuffix === ".taz" ? ".tar" : "");
    } else {
      const own = name.length > suffix.length && name.endsWith(suffix) ? suffix : suffixes.find((s) => name.endsWith(s) && name.length > s.length);
      if (own && !force && !toStdout) {
        if (verbose > 0 || (!recursive && !quiet)) stderr.write(`gzip: ${name} already has ${own} suffix -- unchanged\n`);
        return;
      }
      outName = name + suffix;
    }
    let fd: number;
    try {
      fd = sys.open(path);
    } catch (e) {
      error(`${name}: ${strerror(e)}`);
      return;
    }
    try {
      if (list) {
        listOne(fd, outName, name, st.size);
        return;
      }
      // Restoring the original name (-N) when decompressing to a file.
      if (decompress && restoreName && !toStdout) {
        const head = sys.read(fd, 4096);
        const h = parseGzipHeader(head, true);
        sys.close(fd);
        fd = sys.open(path);
        if (h && typeof h !== "string" && h.name) {
          const dir = name.includes("/") ? name.slice(0, name.lastIndexOf("/") + 1) : "";
          outName = dir + h.name.slice(h.name.lastIndexOf("/") + 1);
        }
      }
      if (verbose > 0 && toStdout) stderr.write(`${name}:\t`);
      if (toStdout) {
        if (decompress) {
          const counts = { in: 0, out: 0, header: 0 };
          if (!inflate(fd, name, (c) => (test ? undefined : stdout.write(c)), counts)) return;
          if (verbose > 0) stderr.write(test ? " OK\n" : `${verboseRatio(counts.out - (counts.in - counts.header), counts.out)} -- replaced with stdout\n`);
        } else {
          const enc = compressTo(fd, noName ? 0 : Math.floor(st.mtimeMs / 1000), noName ? undefined : baseName(name), (c) => stdout.write(c));
          if (verbose > 0) stderr.write(`${verboseRatio(enc.bytesIn - (enc.bytesOut - enc.headerBytes), enc.bytesIn)} -- replaced with stdout\n`);
        }
        return;
      }
      // To a file: it must not exist unless -f.
      const existing = lstatOrNull(outName, false);
      if (existing) {
        if (!force) {
          warn(`${outName} already exists;\tnot overwritten`);
          return;
        }
        try {
          sys.unlink(outName);
        } catch (e) {
          error(`${outName}: ${strerror(e)}`);
          return;
        }
      }
      let out: number;
      try {
        out = sys.open(outName, { write: true, create: true, exclusive: true });
      } catch (e) {
        error(`${outName}: ${strerror(e)}`);
        return;
      }
      if (verbose > 0) stderr.write(`${name}:\t`);
      let ok = true;
      let line = "";
      const held: Uint8Array[] = [];
      let heldBytes = 0;
      const emit = (c: Uint8Array): void => {
        held.push(c);
        heldBytes += c.length;
        if (heldBytes >= CHUNK) {
          sys.write(out, Buffer.concat(held));
          held.length = 0;
          heldBytes = 0;
        }
      };
      try {
        if (decompress) {
          const counts = { in: 0, out: 0, header: 0 };
          ok = inflate(fd, name, emit, counts);
          line = ratio(counts.out - (counts.in - counts.header), counts.out);
        } else {
          const enc = compressTo(fd, noName ? 0 : Math.floor(st.mtimeMs / 1000), noName ? undefined : baseName(name), emit);
          line = ratio(enc.bytesIn - (enc.bytesOut - enc.headerBytes), enc.bytesIn);
        }
        if (heldBytes > 0) sys.write(out, Buffer.concat(held));
      } finally {
        sys.close(out);
      }
      if (!ok) {
        try {
          sys.unlink(outName);
        } catch {
          /* gone */
        }
        return;
      }
      try {
        sys.chmod(outName, st.mode & 0o7777);
        sys.utimes(outName, st.atimeMs, st.mtimeMs);
      } catch {
        /* as GNU: best effort */
      }
      if (!keep) {
        try {
          sys.unlink(path);
        } catch (e) {
          error(`${name}: ${strerror(e)}`);
        }
      }
      if (verbose > 0) stderr.write(`${line} -- ${keep ? "created" : "replaced with"} ${outName}\n`);
    } finally {
      try {
        sys.close(fd);
      } catch {
        /* closed */
      }
    }
  };

  try {
    const files = parsed.operands;
    if (files.length === 0) {
      if (recursive && !quiet) {
        // GNU ignores -r without files (stdin).
      }
      treatStdin();
    }
    for (const f of files) {
      if (f === "-") treatStdin();
      else treatFile(f, false);
    }
    if (list && listed > 1 && !quiet) {
      stdout.write(
        `${verbose > 0 ? " ".repeat(25) : ""}${String(totalIn).padStart(19)} ${String(totalOut).padStart(19)} ${ratio(totalOut - (totalIn - lastHeaderBytes), totalOut)} (totals)\n`,
      );
    }
  } catch (e) {
    if (!(e instanceof Quit)) {
      if (e instanceof SysError && (e.code === "EPIPE" || e.code === "EBADF")) return 1;
      throw e;
    }
  }
  void crc32;
  return exitCode;
}

function baseName(name: string): string {
  return name.slice(name.lastIndexOf("/") + 1);
}

/** GNU gzip's display_ratio: "%5.1f%%" of num/den (" 20.7%", "-16.7%"). */
function ratio(num: number, den: number): string {
  const r = den === 0 ? 0 : (100 * num) / den;
  return `${r.toFixed(1).padStart(5)}%`;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** ctime(3) without the weekday and the seconds: "Nov 23 19:22" (UTC). */
function ctimeShort(sec: number): string {
  const d = new Date(sec * 1000);
  const pad = (n: number): string => String(n).padStart(2, "0");
  return `${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}
