import { posix } from "node:path";
import { strerror } from "../../src/gnu/strerror.js";
import type { ScriptProcess } from "../script-host.js";
import { type Stat, SysError, type System } from "./../system.js";
import { BLOCK, encodeEntry, type Entry, globRegExp, hasWildcards, Lister, parseHeader, parsePax, quoteName, RECORD } from "../../src/gnu/tar-format.js";
import { Gunzip, GzipEncoder, GzipFormatError } from "./tar/zstream.js";
import { versionText } from "../../src/gnu/version.js";

/**
 * GNU tar 1.34: create (c), append (r), list (t) and extract (x) archives in GNU format, with gzip (-z,
 * or detected when reading) through node:zlib. -C applies to the names that follow it, as in GNU tar.
 * Messages and exit statuses are GNU's: 2 for a fatal error or failures along the way, 64 for a usage error.
 */

const USER = { uid: 1000, gid: 1000, name: "user" };
const CHUNK = 64 * 1024;

interface LongOpt {
  name: string;
  key: string;
  arg?: "required" | "optional";
}

const LONG: LongOpt[] = [
  { name: "create", key: "c" },
  { name: "extract", key: "x" },
  { name: "get", key: "x" },
  { name: "list", key: "t" },
  { name: "append", key: "r" },
  { name: "update", key: "u" },
  { name: "file", key: "f", arg: "required" },
  { name: "directory", key: "C", arg: "required" },
  { name: "gzip", key: "z" },
  { name: "gunzip", key: "z" },
  { name: "ungzip", key: "z" },
  { name: "bzip2", key: "j" },
  { name: "xz", key: "J" },
  { name: "lzma", key: "lzma" },
  { name: "zstd", key: "zstd" },
  { name: "auto-compress", key: "a" },
  { name: "verbose", key: "v" },
  { name: "to-stdout", key: "O" },
  { name: "exclude", key: "exclude", arg: "required" },
  { name: "preserve-permissions", key: "p" },
  { name: "same-permissions", key: "p" },
  { name: "no-same-permissions", key: "no-same-permissions" },
  { name: "strip-components", key: "strip-components", arg: "required" },
  { name: "keep-old-files", key: "k" },
  { name: "skip-old-files", key: "skip-old-files" },
  { name: "overwrite", key: "overwrite" },
  { name: "touch", key: "m" },
  { name: "no-same-owner", key: "no-same-owner" },
  { name: "same-owner", key: "same-owner" },
  { name: "numeric-owner", key: "numeric-owner" },
  { name: "dereference", key: "h" },
  { name: "wildcards", key: "wildcards" },
  { name: "no-wildcards", key: "no-wildcards" },
  { name: "no-recursion", key: "no-recursion" },
  { name: "recursion", key: "recursion" },
  { name: "totals", key: "totals" },
  { name: "help", key: "help" },
  { name: "usage", key: "usage" },
  { name: "version", key: "version" },
  { name: "owner", key: "owner", arg: "required" },
  { name: "group", key: "group", arg: "required" },
  { name: "mtime", key: "mtime", arg: "required" },
  { name: "sort", key: "sort", arg: "required" },
  { name: "format", key: "H", arg: "required" },
  { name: "files-from", key: "T", arg: "required" },
  { name: "exclude-from", key: "X", arg: "required" },
  { name: "null", key: "null" },
  { name: "blocking-factor", key: "b", arg: "required" },
  { name: "force-local", key: "force-local" },
  { name: "warning", key: "warning", arg: "required" },
  { name: "unlink-first", key: "U" },
  { name: "recursive-unlink", key: "recursive-unlink" },
  { name: "absolute-names", key: "P" },
  { name: "one-file-system", key: "one-file-system" },
  { name: "full-time", key: "full-time" },
  { name: "show-transformed-names", key: "show-transformed-names" },
  { name: "delete", key: "delete" },
  { name: "diff", key: "d" },
  { name: "compare", key: "d" },
];

/** Short options taking an argument. */
const SHORT_ARG = new Set(["f", "C", "b", "T", "X", "K", "N", "g", "L", "V", "F", "H", "I"]);
const SHORT = new Set([..."AcdtrxuzjJZavOpkmhUPwWBGilMRSso", ...SHORT_ARG]);

class Fatal extends Error {}
class UsageFail extends Error {
  constructor(
    message: string,
    readonly status = 2,
  ) {
    super(message);
  }
}

type Op = "c" | "x" | "t" | "r" | "u";
interface Item {
  name: string;
  dir: string;
}

export default function tar({ sys, argv, stdout, stderr }: ScriptProcess): number {
  let failed = false;
  const fail = (msg: string): void => {
    stderr.write(`tar: ${msg}\n`);
    failed = true;
  };
  /** An archive that cannot be opened: with -z it is gzip, GNU's child process, that tries. */
  const cannotOpen = (name: string, e: unknown): never => {
    if (compress === "z") {
      stderr.write(`tar (child): ${name}: Cannot open: ${strerror(e)}\ntar (child): Error is not recoverable: exiting now\n`);
      return fatal("Child returned status 2");
    }
    return fatal(`${name}: Cannot open: ${strerror(e)}`);
  };
  const fatal = (msg: string): never => {
    stderr.write(`tar: ${msg}\ntar: Error is not recoverable: exiting now\n`);
    throw new Fatal();
  };

  // ---- the command line ----
  const opts = new Map<string, string | true>();
  let op: Op | undefined;
  const setOp = (o: Op): void => {
    if (op && op !== o) throw new UsageFail("You may not specify more than one '-Acdtrux', '--delete' or  '--test-label' option");
    op = o;
  };
  let archive: string | undefined;
  let compress: "z" | "j" | "J" | undefined;
  const items: Item[] = [];
  const excludes: RegExp[] = [];
  let dir = ".";
  let verbose = 0;
  let wildcards = false;

  const apply = (key: string, value: string | undefined): void => {
    switch (key) {
      case "c":
      case "x":
      case "t":
      case "r":
      case "u":
        setOp(key);
        return;
      case "d":
      case "A":
      case "delete":
        throw new UsageFail(`--${key === "delete" ? "delete" : key === "d" ? "diff" : "catenate"} is not supported here`);
      case "f":
        archive = value!;
        return;
      case "C":
        dir = posix.isAbsolute(value!) ? value! : posix.join(dir, value!);
        if (op !== "c") opts.set("C", dir);
        items.push({ name: "", dir });
        return;
      case "z":
      case "j":
      case "J":
        compress = key;
        return;
      case "v":
        verbose++;
        return;
      case "exclude":
        excludes.push(globRegExp(value!.replace(/\/+$/, "")));
        return;
      case "wildcards":
        wildcards = true;
        return;
      case "no-wildcards":
        wildcards = false;
        return;
      case "strip-components": {
        if (!/^\d+$/.test(value!)) throw new UsageFail(`${value}: Invalid number of elements`);
        opts.set(key, value!);
        return;
      }
      case "T":
      case "X":
      case "K":
      case "N":
      case "g":
      case "L":
      case "V":
      case "F":
      case "I":
      case "lzma":
      case "zstd":
        throw new UsageFail(`option not supported here: ${key.length === 1 ? `-${key}` : `--${key}`}`);
      default:
        opts.set(key, value ?? true);
    }
  };

  try {
    const args = argv.slice(1);
    let i = 0;
    // The traditional style: the first argument holds option letters without a dash ("czf a.tgz").
    if (args.length > 0 && !args[0]!.startsWith("-")) {
      const letters = args[0]!;
      i = 1;
      for (const c of letters) {
        if (!SHORT.has(c)) throw new UsageFail(`invalid option -- '${c}'`, 64);
        if (SHORT_ARG.has(c)) {
          if (i >= args.length) throw new UsageFail(`Old option '${c}' requires an argument.`);
          apply(c, args[i++]);
        } else apply(c, undefined);
      }
    }
    for (; i < args.length; i++) {
      const a = args[i]!;
      if (a === "--") {
        for (const n of args.slice(i + 1)) items.push({ name: n, dir });
        break;
      }
      if (a.startsWith("--")) {
        const eq = a.indexOf("=");
        const name = eq < 0 ? a.slice(2) : a.slice(2, eq);
        const exact = LONG.find((l) => l.name === name);
        const matches = exact ? [exact] : LONG.filter((l) => l.name.startsWith(name));
        if (matches.length === 0) throw new UsageFail(`unrecognized option '${a}'`, 64);
        if (new Set(matches.map((m) => m.key)).size > 1) throw new UsageFail(`option '${a}' is ambiguous; possibilities:${matches.map((m) => ` '--${m.name}'`).join("")}`, 64);
        const spec = matches[0]!;
        let value: string | undefined;
        if (eq >= 0) {
          if (!spec.arg) throw new UsageFail(`option '--${spec.name}' doesn't allow an argument`, 64);
          value = a.slice(eq + 1);
        } else if (spec.arg === "required") {
          if (i + 1 >= args.length) throw new UsageFail(`option '--${spec.name}' requires an argument`, 64);
          value = args[++i];
        }
        apply(spec.key, value);
        continue;
      }
      if (a.startsWith("-") && a !== "-") {
        for (let j = 1; j < a.length; j++) {
          const c = a[j]!;
          if (!SHORT.has(c)) throw new UsageFail(`invalid option -- '${c}'`, 64);
          if (SHORT_ARG.has(c)) {
            let value = a.slice(j + 1);
            if (value === "") {
              if (i + 1 >= args.length) throw new UsageFail(`option requires an argument -- '${c}'`, 64);
              value = args[++i]!;
            }
            apply(c, value);
            break;
          }
          apply(c, undefined);
        }
        continue;
      }
      items.push({ name: a, dir });
    }
    if (opts.has("help")) {
      stdout.write("Usage: tar [OPTION...] [FILE]...\nGNU 'tar' saves many files together into a single tape or disk archive, and can\nrestore individual files from the archive.\n");
      return 0;
    }
    if (opts.has("version")) {
      stdout.write(versionText("tar", "GNU tar 1.34"));
      return 0;
    }
    if (!op) throw new UsageFail("You must specify one of the '-Acdtrux', '--delete' or '--test-label' options");
    if (op === "u") op = "r";
    if (op === "r" && (archive === undefined || archive === "-")) throw new UsageFail("Options '-Aru' are incompatible with '-f -'");
    if (op === "r" && compress) throw new UsageFail("Cannot update compressed archives");
    if (op === "c" && !items.some((it) => it.name !== "")) throw new UsageFail("Cowardly refusing to create an empty archive");
  } catch (e) {
    if (!(e instanceof UsageFail)) throw e;
    stderr.write(`tar: ${e.message}\nTry 'tar --help' or 'tar --usage' for more information.\n`);
    return e.status;
  }

  const archiveName = archive ?? "-";
  const toStdout = opts.has("O");
  // The listing goes to stderr when the archive or the members go to stdout.
  const lis = toStdout || (op === "c" && archiveName === "-") ? stderr : stdout;
  const lister = new Lister();

  try {
    if (compress === "j" || compress === "J") {
      const prog = compress === "j" ? "bzip2" : "xz";
      stderr.write(`tar (child): ${prog}: Cannot exec: No such file or directory\ntar (child): Error is not recoverable: exiting now\n`);
      fatal("Child returned status 2");
    }
    if (op === "c" || op === "r") create(op);
    else extractOrList(op!);
  } catch (e) {
    if (e instanceof Fatal) return 2;
    if (e instanceof SysError && e.code === "EPIPE") return 2;
    throw e;
  } finally {
    stdout.flush();
  }
  if (failed) {
    stderr.write("tar: Exiting with failure status due to previous errors\n");
    return 2;
  }
  return 0;

  // ---------------------------------------------------------------- create

  function create(mode: "c" | "r"): void {
    let fd: number;
    let existing: number | undefined;
    let tmpName: string | undefined;
    if (archiveName === "-") fd = 1;
    else if (mode === "r") {
      // Append: copy the archive up to its end-of-archive blocks into a new file, then add, then rename.
      try {
        existing = sys.open(archiveName);
      } catch (e) {
        if ((e as SysError).code !== "ENOENT") fatal(`${archiveName}: Cannot open: ${strerror(e)}`);
      }
      tmpName = `${archiveName}.tar-append-${process.pid}`;
      try {
        fd = sys.open(tmpName, { write: true, create: true, truncate: true });
      } catch (e) {
        fatal(`${archiveName}: Cannot open: ${strerror(e)}`);
      }
    } else {
      try {
        fd = sys.open(archiveName, { write: true, create: true, truncate: true });
      } catch (e) {
        cannotOpen(archiveName, e);
      }
    }
    let archiveStat: Stat | undefined;
    if (fd! !== 1) archiveStat = sys.fstat(fd!);
    else {
      try {
        archiveStat = sys.fstat(1);
        if (archiveStat.kind !== "file") archiveStat = undefined;
      } catch {
        archiveStat = undefined;
      }
    }

    // The output: records of 10240 bytes, through gzip with -z.
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    let total = 0;
    const rawWrite = (c: Uint8Array): void => {
      pending.push(c);
      pendingBytes += c.length;
      if (pendingBytes >= CHUNK) flushRaw();
    };
    const flushRaw = (): void => {
      if (pendingBytes === 0) return;
      const data = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
      pending = [];
      pendingBytes = 0;
      sys.write(fd!, data);
    };
    const gz = compress === "z" ? new GzipEncoder(6, 0, undefined, rawWrite) : undefined;
    const emit = (c: Uint8Array): void => {
      total += c.length;
      if (gz) gz.write(c);
      else rawWrite(c);
    };

    if (existing !== undefined) {
      // Copy the members of the existing archive.
      const src = new BlockReader(() => sys.read(existing!, CHUNK));
      for (;;) {
        const b = src.take(BLOCK);
        if (b.length < BLOCK || b.every((x) => x === 0)) break;
        const p = parseHeader(b);
        if (p.kind !== "entry") fatal("This does not look like a tar archive");
        emit(b);
        if (p.kind === "entry" && p.entry.type !== "5" && p.entry.type !== "2" && p.entry.type !== "1") {
          let left = Math.ceil(p.entry.size / BLOCK) * BLOCK;
          while (left > 0) {
            const c = src.take(Math.min(left, CHUNK));
            if (c.length === 0) break;
            emit(c);
            left -= c.length;
          }
        }
      }
      sys.close(existing);
    }

    const links = new Map<string, string>();
    let warnedSlash = false;
    const recurse = !opts.has("no-recursion");
    const deref = opts.has("h");

    const memberName = (name: string): string => {
      let n = name;
      if (!opts.has("P")) {
        const m = /^(\/|(\.\.\/)+|\/+)+/.exec(n);
        if (m && n.startsWith("/")) {
          if (!warnedSlash) stderr.write("tar: Removing leading `/' from member names\n");
          warnedSlash = true;
          n = n.replace(/^\/+/, "");
        }
      }
      return n;
    };

    const excluded = (name: string): boolean => {
      if (excludes.length === 0) return false;
      const trimmed = name.replace(/\/+$/, "");
      const parts = trimmed.split("/");
      for (const re of excludes) {
        for (let k = 0; k < parts.length; k++) if (re.test(parts.slice(k).join("/"))) return true;
      }
      return false;
    };

    const addFile = (path: string, name: string, top: boolean): void => {
      if (!top && excluded(name)) return;
      if (top && excluded(name)) return;
      let st: Stat;
      try {
        st = sys.stat(path, deref);
      } catch (e) {
        fail(`${name}: Cannot stat: ${strerror(e)}`);
        return;
      }
      if (archiveStat && st.ino === archiveStat.ino && st.dev === archiveStat.dev && st.kind === "file") {
        stderr.write(`tar: ${quoteName(name)}: file is the archive; not dumped\n`);
        return;
      }
      const stored = memberName(name);
      const entry: Entry = {
        name: stored,
        mode: st.mode & 0o7777,
        uid: USER.uid,
        gid: USER.gid,
        size: 0,
        mtime: Math.floor(st.mtimeMs / 1000),
        type: "0",
        linkname: "",
        uname: USER.name,
        gname: USER.name,
        devmajor: 0,
        devminor: 0,
      };
      if (st.kind === "dir") {
        entry.type = "5";
        if (!entry.name.endsWith("/")) entry.name += "/";
      } else if (st.kind === "symlink") {
        entry.type = "2";
        try {
          entry.linkname = sys.readlink(path);
        } catch (e) {
          fail(`${name}: Cannot readlink: ${strerror(e)}`);
          return;
        }
      } else if (st.kind === "fifo") entry.type = "6";
      else if (st.kind === "char" || st.kind === "block") entry.type = st.kind === "char" ? "3" : "4";
      else if (st.kind === "socket") {
        stderr.write(`tar: ${quoteName(name)}: socket ignored\n`);
        return;
      } else if (st.nlink > 1) {
        const key = `${st.dev}:${st.ino}`;
        const first = links.get(key);
        if (first !== undefined) {
          entry.type = "1";
          entry.linkname = first;
        } else links.set(key, stored);
      }
      if (entry.name === "" || entry.name === "/") entry.name = entry.type === "5" ? "./" : ".";
      let fd2: number | undefined;
      if (entry.type === "0") {
        try {
          fd2 = sys.open(path);
        } catch (e) {
          fail(`${name}: Cannot open: ${strerror(e)}`);
          return;
        }
        entry.size = st.size;
      }
      if (verbose > 1) lis.write(lister.line(entry, entry.name));
      else if (verbose) lis.write(`${quoteName(entry.name)}\n`);
      for (const b of encodeEntry(entry)) emit(b);
      if (fd2 !== undefined) {
        let left = entry.size;
        try {
          while (left > 0) {
            const c = sys.read(fd2, Math.min(CHUNK, left));
            if (c.length === 0) break;
            emit(c);
            left -= c.length;
          }
        } catch (e) {
          fail(`${name}: Read error: ${strerror(e)}`);
        } finally {
          sys.close(fd2);
        }
        if (left > 0) {
          fail(`${name}: File shrank by ${left} bytes; padding with zeros`);
          for (; left > 0; left -= Math.min(left, CHUNK)) emit(new Uint8Array(Math.min(left, CHUNK)));
        }
        const rem = entry.size % BLOCK;
        if (rem) emit(new Uint8Array(BLOCK - rem));
      }
      if (entry.type === "5" && recurse) {
        let names: string[];
        try {
          names = sys.readdir(path).map((d) => d.name);
        } catch (e) {
          fail(`${name}: Cannot open: ${strerror(e)}`);
          return;
        }
        const base = name.endsWith("/") ? name : `${name}/`;
        for (const n of names) addFile(posix.join(path, n), base + n, false);
      }
    };

    for (const it of items) {
      if (it.name === "") {
        // -C: the directory must exist.
        let st: Stat | undefined;
        try {
          st = sys.stat(it.dir);
        } catch (e) {
          fatal(`${it.dir}: Cannot open: ${strerror(e)}`);
        }
        if (st && st.kind !== "dir") fatal(`${it.dir}: Cannot open: Not a directory`);
        continue;
      }
      const path = it.name.startsWith("/") ? it.name : posix.join(sys.resolve(it.dir), it.name);
      addFile(it.name.endsWith("/") && it.name.length > 1 ? path + "/" : path, it.name.replace(/(.)\/+$/, "$1"), true);
    }
    // End of archive: two zero blocks, then the record's padding.
    emit(new Uint8Array(2 * BLOCK));
    const rem = total % RECORD;
    if (rem) emit(new Uint8Array(RECORD - rem));
    if (gz) gz.end();
    flushRaw();
    if (fd! !== 1) sys.close(fd!);
    if (tmpName !== undefined) sys.rename(tmpName, archiveName);
  }

  // ---------------------------------------------------------------- list and extract

  function extractOrList(mode: "x" | "t"): void {
    let fd: number;
    if (archiveName === "-") fd = 0;
    else {
      try {
        fd = sys.open(archiveName);
      } catch (e) {
        cannotOpen(archiveName, e);
      }
    }
    const baseDir = sys.resolve(opts.has("C") ? (opts.get("C") as string) : ".");
    if (opts.has("C")) {
      let st: Stat | undefined;
      try {
        st = sys.stat(baseDir);
      } catch (e) {
        fatal(`${opts.get("C")}: Cannot open: ${strerror(e)}`);
      }
      if (st && st.kind !== "dir") fatal(`${opts.get("C")}: Cannot open: Not a directory`);
    }
    const raw = new BlockReader(() => sys.read(fd!, CHUNK));
    // Compressed? Look at the first bytes.
    const head = raw.peek(3);
    const isGzip = head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
    const isBzip = head.length >= 3 && head[0] === 0x42 && head[1] === 0x5a && head[2] === 0x68;
    let src = raw;
    if (compress === "z" || isGzip) {
      if (!isGzip) {
        stderr.write(`\ngzip: stdin: ${head.length === 0 ? "unexpected end of file" : "not in gzip format"}\n`);
        fatal("Child returned status 1");
      }
      const g = new Gunzip(() => raw.takeAvailable(CHUNK));
      src = new BlockReader(() => {
        try {
          return g.next() ?? new Uint8Array(0);
        } catch (e) {
          if (!(e instanceof GzipFormatError)) throw e;
          const text: Record<string, string> = {
            eof: "unexpected end of file",
            invalid: "invalid compressed data--format violated",
            crc: "invalid compressed data--crc error",
            length: "invalid compressed data--length error",
            "not-gzip": "not in gzip format",
            "unknown-method": "unknown method",
          };
          stderr.write(`\ngzip: stdin: ${text[e.kind]}\n`);
          stderr.write("tar: Unexpected EOF in archive\ntar: Unexpected EOF in archive\n");
          fatal("Child returned status 1");
          return new Uint8Array(0);
        }
      });
    } else if (isBzip) {
      stderr.write("tar (child): bzip2: Cannot exec: No such file or directory\ntar (child): Error is not recoverable: exiting now\n");
      fatal("Child returned status 2");
    }

    const strip = Number(opts.get("strip-components") ?? 0);
    const names = items.filter((it) => it.name !== "").map((it) => ({ pattern: it.name.replace(/(.)\/+$/, "$1"), found: false }));
    if (!wildcards && names.some((n) => hasWildcards(n.pattern))) {
      // GNU warns when names hold wildcard characters without --wildcards.
    }
    const matchRes = names.map((n) => (wildcards && hasWildcards(n.pattern) ? globRegExp(n.pattern) : undefined));
    const selected = (name: string): boolean => {
      if (names.length === 0) return true;
      const trimmed = name.replace(/\/+$/, "");
      let hit = false;
      names.forEach((n, k) => {
        const re = matchRes[k];
        const ok = re
          ? re.test(trimmed) || trimmed.split("/").some((_, j, parts) => re.test(parts.slice(0, j + 1).join("/")))
          : trimmed === n.pattern || trimmed.startsWith(`${n.pattern}/`);
        if (ok) {
          n.found = true;
          hit = true;
        }
      });
      return hit;
    };
    const excluded = (name: string): boolean => {
      if (excludes.length === 0) return false;
      const parts = name.replace(/\/+$/, "").split("/");
      return excludes.some((re) => parts.some((_, k) => re.test(parts.slice(k).join("/"))));
    };

    let warnedSlash = false;
    const delayedDirs: Array<{ path: string; mode: number; mtime: number }> = [];
    let longName: string | undefined;
    let longLink: string | undefined;
    let pax = new Map<string, string>();
    let blocksSeen = 0;
    const umask = 0o022;

    const readData = (size: number): Uint8Array => {
      const padded = Math.ceil(size / BLOCK) * BLOCK;
      if (padded > sys.maxMemoryBytes) fatal("memory exhausted");
      const d = src.take(padded);
      if (d.length < padded) {
        stderr.write("tar: Unexpected EOF in archive\n");
        fatal("Unexpected EOF in archive".replace(/.*/, "Error exit delayed from previous errors").replace(/.*/, "Unexpected EOF in archive"));
      }
      return d.subarray(0, size);
    };
    const skipData = (size: number, each?: (c: Uint8Array) => void): void => {
      let left = Math.ceil(size / BLOCK) * BLOCK;
      let data = size;
      while (left > 0) {
        const c = src.take(Math.min(left, CHUNK));
        if (c.length === 0) {
          stderr.write("tar: Unexpected EOF in archive\n");
          fatal("Error is not recoverable: exiting now".replace(/.*/, "Unexpected EOF in archive"));
        }
        if (each && data > 0) each(c.subarray(0, Math.min(data, c.length)));
        data -= c.length;
        left -= c.length;
      }
    };

    for (;;) {
      const b = src.take(BLOCK);
      if (b.length === 0) break;
      if (b.length < BLOCK && blocksSeen === 0) {
        fail("This does not look like a tar archive");
        break;
      }
      if (b.length < BLOCK) {
        stderr.write("tar: Unexpected EOF in archive\n");
        fatal("Unexpected EOF in archive");
      }
      const p = parseHeader(b);
      if (p.kind === "zero") {
        // GNU stops at the first zero block (and reads the rest of the record).
        break;
      }
      if (p.kind === "bad") {
        if (blocksSeen === 0) {
          fail("This does not look like a tar archive");
          if (names.length > 0) for (const n of names) n.found = true;
          break;
        }
        fail("Skipping to next header");
        continue;
      }
      blocksSeen++;
      const e = p.entry;
      if (e.type === "L" || e.type === "K") {
        const text = new TextDecoder().decode(readData(e.size)).replace(/\0.*$/s, "");
        if (e.type === "L") longName = text;
        else longLink = text;
        continue;
      }
      if (e.type === "x" || e.type === "g") {
        const recs = parsePax(readData(e.size));
        if (e.type === "x") pax = recs;
        continue;
      }
      if (longName !== undefined) e.name = longName;
      if (longLink !== undefined) e.linkname = longLink;
      if (pax.has("path")) e.name = pax.get("path")!;
      if (pax.has("linkpath")) e.linkname = pax.get("linkpath")!;
      if (pax.has("size")) e.size = Number(pax.get("size"));
      if (pax.has("mtime")) e.mtime = Math.floor(Number(pax.get("mtime")));
      if (pax.has("uname")) e.uname = pax.get("uname")!;
      if (pax.has("gname")) e.gname = pax.get("gname")!;
      longName = undefined;
      longLink = undefined;
      pax = new Map();
      const hasData = e.type === "0" || e.type === "7" || (e.type !== "1" && e.type !== "2" && e.type !== "3" && e.type !== "4" && e.type !== "5" && e.type !== "6");
      const dataSize = hasData ? e.size : 0;

      if (!selected(e.name) || excluded(e.name)) {
        skipData(dataSize);
        continue;
      }
      let name = e.name;
      if (!opts.has("P") && name.startsWith("/")) {
        if (!warnedSlash) stderr.write("tar: Removing leading `/' from member names\n");
        warnedSlash = true;
        name = name.replace(/^\/+/, "");
      }
      if (mode === "t") {
        if (verbose) lis.write(lister.line(e, e.name));
        else lis.write(`${quoteName(e.name)}\n`);
        skipData(dataSize);
        continue;
      }
      // extract
      if (strip > 0) {
        const parts = name.split("/").filter((x, k, all) => x !== "" || k === all.length - 1);
        if (parts.length <= strip || parts.slice(strip).join("/") === "") {
          skipData(dataSize);
          continue;
        }
        name = parts.slice(strip).join("/");
      }
      let link = e.linkname;
      if (e.type === "1" && strip > 0) {
        const lp = link.split("/");
        link = lp.length > strip ? lp.slice(strip).join("/") : link;
      }
      if (name.split("/").includes("..")) {
        fail(`${quoteName(name)}: Member name contains '..'`);
        skipData(dataSize);
        continue;
      }
      if (verbose > 1) lis.write(lister.line(e, e.name));
      else if (verbose) lis.write(`${quoteName(e.name)}\n`);
      if (toStdout) {
        skipData(dataSize, hasData ? (c) => stdout.write(c) : undefined);
        continue;
      }
      const path = posix.join(baseDir, name);
      const shown = quoteName(name.replace(/\/+$/, "") || name);
      const parent = posix.dirname(path.replace(/\/+$/, ""));
      ensureDirs(parent);
      const existing = lstat(path);
      const perm = opts.has("p") ? e.mode & 0o7777 : e.mode & 0o7777 & ~umask;
      if (e.type === "5") {
        if (existing && existing.kind !== "dir") {
          if (opts.has("k") && !opts.has("overwrite")) {
            fail(`${shown}: Cannot mkdir: File exists`);
            continue;
          }
          try {
            sys.unlink(path);
          } catch {
            /* mkdir reports it */
          }
        }
        if (!existing || existing.kind !== "dir") {
          try {
            sys.mkdir(path);
          } catch (err) {
            fail(`${shown}: Cannot mkdir: ${strerror(err)}`);
            continue;
          }
        }
        delayedDirs.push({ path, mode: perm, mtime: e.mtime });
        continue;
      }
      if (existing) {
        if (opts.has("skip-old-files")) {
          skipData(dataSize);
          continue;
        }
        if (opts.has("k") && !opts.has("overwrite")) {
          if (e.type === "2") fail(`${shown}: Cannot create symlink to '${quoteName(link)}': File exists`);
          else if (e.type === "1") fail(`${shown}: Cannot hard link to '${quoteName(link)}': File exists`);
          else fail(`${shown}: Cannot open: File exists`);
          skipData(dataSize);
          continue;
        }
        if (existing.kind === "dir") {
          try {
            sys.rmdir(path);
          } catch {
            // A directory with entries stays; the file cannot replace it.
          }
        } else {
          try {
            sys.unlink(path);
          } catch {
            /* open reports it */
          }
        }
      }
      if (e.type === "2") {
        try {
          sys.symlink(link, path);
        } catch (err) {
          fail(`${shown}: Cannot create symlink to '${quoteName(link)}': ${strerror(err)}`);
        }
        continue;
      }
      if (e.type === "1") {
        try {
          sys.link(posix.join(baseDir, link), path);
        } catch (err) {
          fail(`${shown}: Cannot hard link to '${quoteName(link)}': ${strerror(err)}`);
        }
        continue;
      }
      if (e.type === "3" || e.type === "4" || e.type === "6") {
        fail(`${shown}: Cannot mknod: Operation not permitted`);
        continue;
      }
      let out: number;
      try {
        out = sys.open(path, { write: true, create: true, truncate: true });
      } catch (err) {
        fail(`${shown}: Cannot open: ${strerror(err)}`);
        skipData(dataSize);
        continue;
      }
      try {
        skipData(dataSize, (c) => sys.write(out, c));
      } finally {
        sys.close(out);
      }
      try {
        sys.chmod(path, perm);
        if (!opts.has("m")) sys.utimes(path, Date.now(), e.mtime * 1000);
      } catch (err) {
        fail(`${shown}: Cannot change mode to ${modeText(perm)}: ${strerror(err)}`);
      }
    }
    // Directory permissions and times last, deepest first, as GNU does.
    for (const d of delayedDirs.reverse()) {
      try {
        sys.chmod(d.path, d.mode);
        if (!opts.has("m")) sys.utimes(d.path, Date.now(), d.mtime * 1000);
      } catch {
        /* best effort */
      }
    }
    if (fd! !== 0) sys.close(fd!);
    if (!wildcards && names.some((n) => !n.found && hasWildcards(n.pattern)))
      stderr.write("tar: Pattern matching characters used in file names\ntar: Use --wildcards to enable pattern matching, or --no-wildcards to suppress this warning\n");
    for (const n of names) if (!n.found) fail(`${quoteName(n.pattern)}: Not found in archive`);
  }

  function lstat(path: string): Stat | undefined {
    try {
      return sys.stat(path, false);
    } catch {
      return undefined;
    }
  }

  function ensureDirs(path: string): void {
    if (path === "/" || path === ".") return;
    const st = lstat(path);
    if (st) return;
    ensureDirs(posix.dirname(path));
    try {
      sys.mkdir(path);
    } catch {
      /* the member's own open reports it */
    }
  }
}

function modeText(mode: number): string {
  return mode.toString(8).padStart(4, "0");
}

/** Reads exact amounts from a chunked source. */
class BlockReader {
  private buf: Uint8Array = new Uint8Array(0);
  private eof = false;

  constructor(private readonly read: () => Uint8Array) {}

  private more(): boolean {
    if (this.eof) return false;
    const c = this.read();
    if (c.length === 0) {
      this.eof = true;
      return false;
    }
    this.buf = this.buf.length === 0 ? c : Buffer.concat([this.buf, c]);
    return true;
  }

  /** Up to `n` bytes, without consuming them. */
  peek(n: number): Uint8Array {
    while (this.buf.length < n && this.more());
    return this.buf.subarray(0, n);
  }

  /** `n` bytes, fewer at the end. */
  take(n: number): Uint8Array {
    while (this.buf.length < n && this.more());
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(out.length);
    return out;
  }

  /** What is buffered, or the next chunk (empty at the end). */
  takeAvailable(max: number): Uint8Array {
    if (this.buf.length === 0 && !this.more()) return new Uint8Array(0);
    return this.take(Math.min(max, this.buf.length));
  }
}

export type { System };
