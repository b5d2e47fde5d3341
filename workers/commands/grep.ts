import { isAscii, isUtf8 } from "node:buffer";
import { strerror } from "../../src/gnu/strerror.js";
import type { ScriptProcess } from "../script-host.js";
import type { Stat, System } from "../system.js";
import { excluded, globRegExp, type ExcludeRule } from "./grep/glob.js";
import { HELP } from "./grep/help.js";
import { parseArgs, UsageError } from "./grep/options.js";
import { RegexSyntaxError } from "./grep/regex.js";
import { compile, PatternError, type Matcher, type MatchOptions, type Model } from "./grep/search.js";
import { versionText } from "../../src/gnu/version.js";

/**
 * GNU grep 3.8: BRE, ERE, fixed strings and (as JavaScript RegExp) -P; context, -o, -c/-l/-L/-q, -r/-R
 * with --include/--exclude/--exclude-dir, binary files, -z/-Z. Each file is read whole and scanned by one
 * RegExp (grep/search.ts); only the lines around matches are looked at. In a UTF-8 locale a file with
 * non-ASCII bytes is decoded (valid UTF-8) or searched byte-wise with its invalid lines held back as
 * GNU does ("binary file matches").
 */
export default function grep(p: ScriptProcess): number {
  return run(p, p.argv.slice(1));
}

const USAGE = "Usage: grep [OPTION]... PATTERNS [FILE]...\n";
const TRY = "Try 'grep --help' for more information.\n";

interface Config {
  match: MatchOptions;
  invert: boolean;
  count: boolean;
  list: "" | "l" | "L";
  quiet: boolean;
  onlyMatching: boolean;
  lineNumber: boolean;
  byteOffset: boolean;
  withFilename: boolean | undefined;
  nullName: boolean;
  initialTab: boolean;
  before: number;
  after: number;
  context: boolean;
  groupSeparator: string | undefined;
  maxCount: number;
  binaryFiles: "binary" | "text" | "without-match";
  directories: "read" | "skip" | "recurse";
  devicesSkip: boolean;
  dereference: boolean;
  noMessages: boolean;
  label: string;
  include: ExcludeRule[];
  excludeDir: ExcludeRule[];
}

class Exit extends Error {
  constructor(readonly status: number) {
    super(`exit ${status}`);
  }
}

export function run(p: ScriptProcess, args: readonly string[]): number {
  const { sys, stdout, stderr } = p;
  const env = sys.env;
  const locale = env["LC_ALL"] || env["LC_CTYPE"] || env["LANG"] || "";
  const utf8 = /utf-?8/i.test(locale);
  const q = (s: string): string => (utf8 ? `\u2018${s}\u2019` : `'${s}'`);
  let parsed;
  try {
    parsed = parseArgs(args, env["POSIXLY_CORRECT"] !== undefined);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    stderr.write(`grep: ${e.message}\n${USAGE}${TRY}`);
    return 2;
  }
  const cfg: Config = {
    match: { mode: "G", patterns: [], icase: false, word: false, line: false, eol: "\n", utf8 },
    invert: false,
    count: false,
    list: "",
    quiet: false,
    onlyMatching: false,
    lineNumber: false,
    byteOffset: false,
    withFilename: undefined,
    nullName: false,
    initialTab: false,
    before: -1,
    after: -1,
    context: false,
    groupSeparator: "--",
    maxCount: Infinity,
    binaryFiles: "binary",
    directories: "read",
    devicesSkip: false,
    dereference: false,
    noMessages: false,
    label: "(standard input)",
    include: [],
    excludeDir: [],
  };
  let patterns: Buffer[] | undefined;
  let matcherSet: string | undefined;
  let defaultContext = -1;
  let help = false;
  const contextArg = (v: string): number => {
    if (!/^\d+$/.test(v)) {
      stderr.write(`grep: ${v}: invalid context length argument\n`);
      throw new Exit(2);
    }
    return Math.min(Number(v), Number.MAX_SAFE_INTEGER);
  };
  const setMatcher = (m: string): void => {
    if (matcherSet !== undefined && matcherSet !== m) {
      stderr.write("grep: conflicting matchers specified\n");
      throw new Exit(2);
    }
    matcherSet = m;
  };
  try {
    for (const { key, value } of parsed.options) {
      const v = value ?? "";
      switch (key) {
        case "E":
        case "F":
        case "G":
        case "P":
          setMatcher(key);
          break;
        case "X": {
          const m = { grep: "G", egrep: "E", fgrep: "F", perl: "P" }[v];
          if (!m) {
            stderr.write("grep: invalid matcher " + v + "\n");
            return 2;
          }
          setMatcher(m);
          break;
        }
        case "e":
          (patterns ??= []).push(...splitPatterns(Buffer.from(v, "utf8")));
          break;
        case "f": {
          let data: Uint8Array;
          try {
            data = v === "-" ? sys.readAll(0) : sys.readFile(v);
          } catch (e) {
            stderr.write(`grep: ${v}: ${strerror(e)}\n`);
            return 2;
          }
          const buf = Buffer.from(data.buffer, data.byteOffset, data.length);
          patterns ??= [];
          if (buf.length > 0) patterns.push(...splitPatterns(buf[buf.length - 1] === 10 ? buf.subarray(0, buf.length - 1) : buf));
          break;
        }
        case "i":
          cfg.match.icase = true;
          break;
        case "no-ignore-case":
          cfg.match.icase = false;
          break;
        case "w":
          cfg.match.word = true;
          break;
        case "x":
          cfg.match.line = true;
          break;
        case "z":
          cfg.match.eol = "\0";
          break;
        case "s":
          cfg.noMessages = true;
          break;
        case "v":
          cfg.invert = true;
          break;
        case "V":
          stdout.write(versionText("grep", "GNU grep 3.8"));
          return 0;
        case "help":
          help = true;
          break;
        case "m": {
          if (!/^\s*[-+]?\d+$/.test(v)) {
            stderr.write("grep: invalid max count\n");
            return 2;
          }
          const n = Number(v);
          cfg.maxCount = n < 0 ? Infinity : n;
          break;
        }
        case "b":
          cfg.byteOffset = true;
          break;
        case "n":
          cfg.lineNumber = true;
          break;
        case "H":
          cfg.withFilename = true;
          break;
        case "h":
          cfg.withFilename = false;
          break;
        case "label":
          cfg.label = v;
          break;
        case "o":
          cfg.onlyMatching = true;
          break;
        case "q":
          cfg.quiet = true;
          break;
        case "binary-files":
          if (v !== "binary" && v !== "text" && v !== "without-match") {
            stderr.write("grep: unknown binary-files type\n");
            return 2;
          }
          cfg.binaryFiles = v;
          break;
        case "a":
          cfg.binaryFiles = "text";
          break;
        case "I":
          cfg.binaryFiles = "without-match";
          break;
        case "d": {
          const choices = ["read", "recurse", "skip"];
          const found = choices.filter((c) => c.startsWith(v));
          const exact = choices.includes(v) ? v : found.length === 1 && v !== "" ? found[0] : undefined;
          if (!exact) {
            stderr.write(
              `grep: ${found.length > 1 && v !== "" ? "ambiguous" : "invalid"} argument ${q(v)} for ${q("--directories")}\nValid arguments are:\n${choices.map((c) => `  - ${q(c)}\n`).join("")}${USAGE}${TRY}`,
            );
            return 1;
          }
          cfg.directories = exact as Config["directories"];
          break;
        }
        case "D":
          if (v !== "read" && v !== "skip") {
            stderr.write("grep: unknown devices method\n");
            return 2;
          }
          cfg.devicesSkip = v === "skip";
          break;
        case "r":
          cfg.directories = "recurse";
          cfg.dereference = false;
          break;
        case "R":
          cfg.directories = "recurse";
          cfg.dereference = true;
          break;
        case "include":
        case "exclude":
          cfg.include.push({ re: globRegExp(v), include: key === "include" });
          break;
        case "exclude-from": {
          let data: Uint8Array;
          try {
            data = sys.readFile(v);
          } catch (e) {
            stderr.write(`grep: ${v}: ${strerror(e)}\n`);
            return 2;
          }
          for (const line of Buffer.from(data).toString("utf8").split("\n")) if (line !== "") cfg.include.push({ re: globRegExp(line), include: false });
          break;
        }
        case "exclude-dir":
          cfg.excludeDir.push({ re: globRegExp(v), include: false });
          break;
        case "L":
          cfg.list = "L";
          break;
        case "l":
          cfg.list = "l";
          break;
        case "c":
          cfg.count = true;
          break;
        case "T":
          cfg.initialTab = true;
          break;
        case "Z":
          cfg.nullName = true;
          break;
        case "A":
          cfg.after = contextArg(v);
          break;
        case "B":
          cfg.before = contextArg(v);
          break;
        case "C":
        case "NUM":
          defaultContext = contextArg(v);
          break;
        case "group-separator":
          cfg.groupSeparator = v;
          break;
        case "no-group-separator":
          cfg.groupSeparator = undefined;
          break;
        case "color":
          if (value !== undefined && !["always", "yes", "force", "never", "no", "none", "auto", "tty", "if-tty"].includes(v)) help = true;
          break;
        case "u":
          stderr.write("grep: warning: --unix-byte-offsets (-u) is obsolete\n");
          break;
        default:
          break;
      }
    }
  } catch (e) {
    if (e instanceof Exit) return e.status;
    throw e;
  }
  if (help) {
    stdout.write(HELP);
    return 0;
  }
  let operands = parsed.operands;
  if (patterns === undefined) {
    if (operands.length === 0) {
      stderr.write(`${USAGE}${TRY}`);
      return 2;
    }
    patterns = splitPatterns(Buffer.from(operands[0]!, "utf8"));
    operands = operands.slice(1);
  }
  cfg.match.mode = (matcherSet ?? "G") as MatchOptions["mode"];
  cfg.match.patterns = patterns;
  if (cfg.match.mode === "P" && patterns.length > 1) {
    stderr.write("grep: the -P option only supports a single pattern\n");
    return 2;
  }
  if (cfg.after < 0) cfg.after = defaultContext;
  if (cfg.before < 0) cfg.before = defaultContext;
  cfg.context = cfg.after >= 0 || cfg.before >= 0;
  cfg.after = Math.max(cfg.after, 0);
  cfg.before = Math.max(cfg.before, 0);
  if (cfg.quiet) cfg.list = "";
  if (cfg.quiet || cfg.list) cfg.count = false;

  // Compile now: syntax errors and warnings come before any file is read.
  const matchers = new Map<Model, Matcher>();
  const warn = (m: string): void => stderr.write(`grep: warning: ${m}\n`);
  const matcher = (model: Model): Matcher => {
    let m = matchers.get(model);
    if (!m) {
      m = compile(cfg.match, model, matchers.size === 0 ? warn : () => {});
      matchers.set(model, m);
    }
    return m;
  };
  try {
    matcher("bytes");
  } catch (e) {
    if (e instanceof RegexSyntaxError || e instanceof PatternError) {
      stderr.write(`grep: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  if (cfg.maxCount === 0) return 1;

  const g = new Grep(p, cfg, matcher);
  const recursive = cfg.directories === "recurse";
  const omitDotSlash = operands.length === 0 && recursive;
  if (operands.length === 0) operands = [recursive ? "." : "-"];
  g.outFile = cfg.withFilename ?? (operands.length > 1 ? true : recursive ? undefined : false);
  try {
    for (const operand of operands) {
      g.commandLine(operand, omitDotSlash);
      if (g.done) break;
    }
  } catch (e) {
    if (!(e instanceof Exit)) throw e;
  }
  if (cfg.quiet && g.matched) return 0;
  return g.error ? 2 : g.matched ? 0 : 1;
}

/** PATTERNS: one per line. */
function splitPatterns(buf: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (let i = buf.indexOf(10); i >= 0; i = buf.indexOf(10, start)) {
    out.push(buf.subarray(start, i));
    start = i + 1;
  }
  out.push(buf.subarray(start));
  return out;
}

const isDevice = (st: Stat): boolean => st.kind === "char" || st.kind === "block" || st.kind === "socket" || st.kind === "fifo";

class Grep {
  matched = false;
  error = false;
  done = false;
  /** Print file names: undefined until a directory is recursed into (-r with one operand). */
  outFile: boolean | undefined;
  /** Something was printed (for the group separator). */
  private used = false;
  private held = 0;

  constructor(
    private readonly p: ScriptProcess,
    private readonly cfg: Config,
    private readonly matcher: (model: Model) => Matcher,
  ) {}

  private fail(name: string, e: unknown): void {
    this.error = true;
    if (!this.cfg.noMessages) this.p.stderr.write(`grep: ${name}: ${strerror(e)}\n`);
  }

  commandLine(operand: string, omitDotSlash: boolean): void {
    const { sys } = this.p;
    const cfg = this.cfg;
    if (operand === "-") {
      let data: Uint8Array;
      try {
        data = this.readStdin();
      } catch (e) {
        this.fail(cfg.label, e);
        return;
      }
      this.searchData(data, cfg.label, undefined);
      return;
    }
    let st: Stat;
    try {
      st = sys.stat(operand);
    } catch (e) {
      this.fail(operand, e);
      return;
    }
    if (st.kind === "dir") {
      if (cfg.directories === "skip") return;
      if (cfg.directories === "recurse") {
        if (!omitDotSlash && excluded(cfg.excludeDir, operand, true)) return;
        if (this.outFile === undefined) this.outFile = true;
        this.walk(operand, omitDotSlash);
        return;
      }
      this.fail(operand, { code: "EISDIR" });
      return;
    }
    if (cfg.devicesSkip && isDevice(st)) return;
    if (excluded(cfg.include, operand, true)) return;
    this.file(operand, st);
  }

  private walk(dir: string, omitDotSlash: boolean): void {
    const { sys } = this.p;
    const cfg = this.cfg;
    let entries;
    try {
      entries = sys.readdir(dir);
    } catch (e) {
      this.fail(dir, e);
      return;
    }
    for (const { name, kind } of entries) {
      if (this.done) return;
      const path = omitDotSlash && dir === "." ? name : dir.endsWith("/") ? `${dir}${name}` : `${dir}/${name}`;
      let k = kind;
      let st: Stat | undefined;
      if (k === "symlink" || k === "unknown") {
        if (k === "symlink" && !cfg.dereference) continue;
        try {
          st = sys.stat(path);
          k = st.kind;
        } catch (e) {
          this.fail(path, e);
          continue;
        }
      }
      if (k === "dir") {
        if (excluded(cfg.excludeDir, name, false)) continue;
        this.walk(path, false);
        continue;
      }
      if (isDevice({ kind: k } as Stat)) continue;
      if (excluded(cfg.include, name, false)) continue;
      this.file(path, st);
    }
  }

  private file(name: string, st: Stat | undefined): void {
    const { sys } = this.p;
    let data: Uint8Array;
    try {
      const fd = sys.open(name);
      try {
        st ??= sys.fstat(fd);
        if (st.kind === "dir") throw Object.assign(new Error("EISDIR"), { code: "EISDIR" });
        const chunks: Uint8Array[] = [];
        let total = 0;
        for (let c = sys.read(fd); c.length > 0; c = sys.read(fd)) {
          chunks.push(c);
          total += c.length;
          if (this.held + total > sys.maxMemoryBytes) {
            this.p.stderr.write("grep: memory exhausted\n");
            this.error = true;
            throw new Exit(2);
          }
        }
        data = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
      } finally {
        sys.close(fd);
      }
    } catch (e) {
      if (e instanceof Exit) throw e;
      this.fail(name, e);
      return;
    }
    this.searchData(data, name, st.kind === "file" ? st.size : undefined);
  }

  /**
   * Standard input, up to its end, or (with -q, -l, -L, or -m without trailing context) only up to the
   * line that decides: `yes | grep -m1 y` ends as GNU's does. What was read is checked each time it
   * has doubled, so the work stays linear.
   */
  private readStdin(): Uint8Array {
    const { sys } = this.p;
    const cfg = this.cfg;
    const need = cfg.quiet || cfg.list ? 1 : cfg.after === 0 ? cfg.maxCount : Infinity;
    if (need === Infinity) return sys.readAll(0);
    const chunks: Uint8Array[] = [];
    let total = 0;
    let nextCheck = 0;
    for (let c = sys.read(0); c.length > 0; c = sys.read(0)) {
      chunks.push(c);
      total += c.length;
      if (total < nextCheck) continue;
      nextCheck = total * 2;
      const buf = Buffer.concat(chunks, total);
      chunks.length = 0;
      chunks.push(buf);
      const cut = buf.lastIndexOf(cfg.match.eol.charCodeAt(0)) + 1;
      if (cut > 0 && this.searchData(buf.subarray(0, cut), cfg.label, undefined, need)) return buf.subarray(0, cut);
    }
    return Buffer.concat(chunks, total);
  }

  /** Searches and reports; with `probe`, only answers whether `probe` lines are selected. */
  private searchData(data: Uint8Array, name: string, size: number | undefined, probe?: number): boolean {
    const cfg = this.cfg;
    const buf = Buffer.from(data.buffer, data.byteOffset, data.length);
    const eol = cfg.match.eol;
    let binary = false;
    if (cfg.binaryFiles !== "text" && eol === "\n" && buf.indexOf(0) >= 0) {
      if (cfg.binaryFiles === "without-match") {
        if (probe === undefined) this.finishFile(name, 0);
        return false;
      }
      binary = true;
    }
    let model: Model = "bytes";
    let checkEncoding = false;
    let text: string;
    if (cfg.match.utf8 && !isAscii(buf)) {
      if (isUtf8(buf)) model = "unicode";
      else {
        model = "utf8bytes";
        checkEncoding = cfg.binaryFiles !== "text";
      }
    }
    if (model === "unicode") text = buf.toString("utf8");
    else text = buf.toString("latin1");
    if (binary) text = text.replaceAll("\0", "\n");
    let m: Matcher;
    try {
      m = this.matcher(model);
    } catch (e) {
      this.p.stderr.write(`grep: ${(e as Error).message}\n`);
      this.error = true;
      throw new Exit(2);
    }
    if (probe !== undefined) {
      const counting: Config = { ...cfg, count: true, list: "", quiet: false, context: false, maxCount: binary && !cfg.count ? 1 : probe };
      return new FileSearch(this, counting, m, text, buf, name, model === "unicode", size, false, false).run() >= counting.maxCount;
    }
    const s = new FileSearch(this, cfg, m, text, buf, name, model === "unicode", size, binary, checkEncoding);
    const n = s.run();
    this.finishFile(name, n);
    if (s.encodingErrorOutput || (binary && n > 0 && !cfg.count && !cfg.list && !cfg.quiet)) {
      this.p.stderr.write(`grep: ${name}: binary file matches\n`);
    }
    return true;
  }

  private finishFile(name: string, n: number): void {
    const cfg = this.cfg;
    const out = this.p.stdout;
    if (n > 0) this.matched = true;
    const sep = cfg.nullName ? "\0" : "\n";
    if (cfg.count) {
      if (this.outFile) out.write(`${name}${cfg.nullName ? "\0" : ":"}`);
      out.write(`${n}\n`);
    }
    if (cfg.list === "l" && n > 0) out.write(name + sep);
    if (cfg.list === "L" && n === 0) out.write(name + sep);
    if (cfg.quiet && n > 0) this.done = true;
  }

  /** For FileSearch: output state shared by all files. */
  get everUsed(): boolean {
    return this.used;
  }
  set everUsed(v: boolean) {
    this.used = v;
  }
  write(data: string | Uint8Array): void {
    this.p.stdout.write(data);
  }
}

const te = new TextEncoder();

/** The search of one buffer. */
class FileSearch {
  encodingErrorOutput = false;
  private readonly eol: string;
  private readonly eolCode: number;
  private readonly len: number;
  private readonly validEnd: number;
  private readonly prefixName: string;
  private readonly width: number;
  /** Line numbering: line `numLine` starts at `numPos`. */
  private numPos = 0;
  private numLine = 1;
  private bytePos = 0;
  private byteCount = 0;
  /** End (index after the eol) of the last line output (or passed as context), -1 for none. */
  private lastOut = -1;
  /** End of the last line output or held back (an encoding error), -1 for none. */
  private scanPos = -1;
  private afterLeft = 0;
  private readonly output: boolean;

  constructor(
    private readonly g: Grep,
    private readonly cfg: Config,
    private readonly m: Matcher,
    private readonly text: string,
    private readonly buf: Buffer,
    private readonly name: string,
    private readonly unicode: boolean,
    size: number | undefined,
    private readonly binary: boolean,
    private readonly checkEncoding: boolean,
  ) {
    this.eol = cfg.match.eol;
    this.eolCode = this.eol.charCodeAt(0);
    this.len = text.length;
    // A match at the very end belongs to no line when the text is empty or ends with eol.
    this.validEnd = this.len > 0 && text.charCodeAt(this.len - 1) !== this.eolCode ? this.len : this.len - 1;
    this.prefixName = g.outFile ? name + (cfg.nullName ? "\0" : "") : "";
    this.width = cfg.initialTab ? (size !== undefined ? String(size).length : 19) : 0;
    this.output = !cfg.count && !cfg.list && !cfg.quiet && !binary;
  }

  /** Answers the number of selected lines. */
  run(): number {
    const { cfg, m, text, len, eol } = this;
    const max = cfg.maxCount;
    let selected = 0;
    let pos = 0;
    const stopEarly = !this.output && !cfg.count; // -l, -L, -q, binary: the first selected line decides
    const limit = stopEarly ? 1 : max;
    if (!cfg.invert) {
      while (pos <= this.validEnd && selected < limit) {
        const r = m.exec(text, pos);
        if (!r || r[0] > this.validEnd) break;
        const ls = r[0] === 0 ? 0 : text.lastIndexOf(eol, r[0] - 1) + 1;
        let le = text.indexOf(eol, r[0]);
        if (le < 0) le = len;
        selected++;
        if (this.output) this.selectedLine(ls, le, r);
        pos = le + 1;
      }
    } else {
      while (pos <= this.validEnd && selected < limit) {
        const r = m.exec(text, pos);
        const hit = r && r[0] <= this.validEnd ? r[0] : -1;
        const ms = hit < 0 ? len + 1 : hit === 0 ? 0 : text.lastIndexOf(eol, hit - 1) + 1;
        // The lines in [pos, ms) are selected.
        if (!this.output) {
          const n = this.countLines(pos, Math.min(ms, len));
          if (selected + n >= limit) {
            selected = limit;
            break;
          }
          selected += n;
        } else {
          while (pos < ms && pos <= this.validEnd && selected < limit) {
            let le = text.indexOf(eol, pos);
            if (le < 0) le = len;
            selected++;
            this.selectedLine(pos, le, undefined);
            pos = le + 1;
          }
          if (selected >= limit) break;
        }
        if (hit < 0) break;
        let le = text.indexOf(eol, hit);
        if (le < 0) le = len;
        pos = le + 1;
      }
    }
    if (this.output && this.afterLeft > 0) this.context(len);
    return selected;
  }

  /** Lines that start in [from, to): `to` is a line start or the end. */
  private countLines(from: number, to: number): number {
    const { text, eol } = this;
    let n = 0;
    let i = from;
    for (;;) {
      const j = text.indexOf(eol, i);
      if (j < 0 || j >= to) break;
      n++;
      i = j + 1;
    }
    if (i < to && to >= this.len && i < this.len) n++;
    return n;
  }

  private lineNo(pos: number): number {
    const { text, eol } = this;
    let i = this.numPos;
    let n = this.numLine;
    for (;;) {
      const j = text.indexOf(eol, i);
      if (j < 0 || j >= pos) break;
      n++;
      i = j + 1;
    }
    this.numPos = pos;
    this.numLine = n;
    return n;
  }

  private byteOffset(pos: number): number {
    if (!this.unicode) return pos;
    this.byteCount += Buffer.byteLength(this.text.slice(this.bytePos, pos), "utf8");
    this.bytePos = pos;
    return this.byteCount;
  }

  private bytes(from: number, to: number): Uint8Array {
    return this.unicode ? te.encode(this.text.slice(from, to)) : this.buf.subarray(from, to);
  }

  private head(pos: number, sep: string, partStart: number, partEnd: number): string | undefined {
    if (this.checkEncoding && !isUtf8(this.buf.subarray(partStart, partEnd))) {
      this.encodingErrorOutput = true;
      return undefined;
    }
    const cfg = this.cfg;
    let h = "";
    if (this.g.outFile) h += cfg.nullName ? this.prefixName : this.name + sep;
    if (cfg.lineNumber) h += String(this.lineNo(pos)).padStart(this.width) + sep;
    if (cfg.byteOffset) h += String(this.byteOffset(cfg.onlyMatching && sep === ":" ? partStart : pos)).padStart(this.width) + sep;
    if (cfg.initialTab && h !== "" && partEnd > partStart) h += "\t";
    return h;
  }

  /** False when the line is held back for an encoding error. */
  private printLine(ls: number, le: number, sep: string): boolean {
    if (this.cfg.onlyMatching) return true;
    const h = this.head(ls, sep, ls, le);
    if (h === undefined) return false;
    if (h !== "") this.g.write(h);
    this.g.write(this.bytes(ls, le));
    this.g.write(this.eol);
    return true;
  }

  /** Context lines from lastOut up to `to` (exclusive line start), as many as afterLeft allows. */
  private context(to: number): void {
    const { text, eol } = this;
    let pos = this.scanPos;
    while (this.afterLeft > 0 && pos < to && pos <= this.validEnd) {
      let le = text.indexOf(eol, pos);
      if (le < 0) le = this.len;
      const printed = this.printLine(pos, le, "-");
      this.afterLeft--;
      pos = le + 1;
      this.scanPos = pos;
      if (printed) this.lastOut = pos;
    }
  }

  private selectedLine(ls: number, le: number, first: [number, number] | undefined): void {
    const cfg = this.cfg;
    const { text, eol } = this;
    if (cfg.context) {
      if (this.scanPos >= 0 && this.afterLeft > 0) this.context(ls);
      // Leading context: up to `before` lines back, not before what was already output.
      let start = ls;
      const floor = Math.max(this.lastOut, 0);
      for (let k = 0; k < cfg.before && start > floor; k++) start = start - 1 === 0 ? 0 : text.lastIndexOf(eol, start - 2) + 1;
      if (start < floor) start = floor;
      if (this.g.everUsed && start !== this.lastOut && cfg.groupSeparator !== undefined) {
        this.g.write(`${cfg.groupSeparator}\n`);
      }
      for (let pos = start; pos < ls; ) {
        let e = text.indexOf(eol, pos);
        if (e < 0) e = this.len;
        if (this.printLine(pos, e, "-")) this.lastOut = e + 1;
        pos = e + 1;
      }
      this.afterLeft = cfg.after;
    }
    let printed = true;
    if (cfg.onlyMatching) {
      if (!cfg.invert) this.onlyMatching(ls, le, first!);
    } else printed = this.printLine(ls, le, ":");
    if (printed) {
      this.g.everUsed = true;
      this.lastOut = le + 1;
    }
    this.scanPos = le + 1;
  }

  private onlyMatching(ls: number, le: number, first: [number, number]): void {
    const { text, m } = this;
    let r: [number, number] | undefined = first;
    while (r && r[0] <= le) {
      if (r[1] === r[0]) {
        if (r[0] >= le) break;
        r = m.exec(text, r[0] + 1);
        continue;
      }
      const end = Math.min(m.longest(text, r[0], r[1]), le);
      const h = this.head(ls, ":", r[0], end);
      if (h !== undefined) {
        if (h !== "") this.g.write(h);
        this.g.write(this.bytes(r[0], end));
        this.g.write(this.eol);
      }
      r = end >= le ? undefined : m.exec(text, end);
    }
  }
}
