import { quotef } from "../../src/gnu/quote.js";
import { errorCode, strerror } from "../../src/gnu/strerror.js";
import type { ScriptProcess } from "../script-host.js";
import type { Stat } from "../system.js";
import { type Change, compareLines, type CompareOptions, type Line, splitLines } from "./diff/analyze.js";
import { DIFF_HELP } from "./diff/help.js";
import { type Format, Printer } from "./diff/output.js";
import { formatTime, hardLocale, isBinary, scanOptionWords } from "./diff/util.js";
import { globToRegExp } from "./find/regex.js";
import { getopt, type OptionSpec, UsageError } from "./getopt.js";
import { versionText } from "../../src/gnu/version.js";

const R = "required" as const;
const O = "optional" as const;
const SPECS: OptionSpec[] = [
  { key: "normal", long: "normal" },
  { key: "brief", short: "q", long: "brief" },
  { key: "report-identical-files", short: "s", long: "report-identical-files" },
  { key: "context", short: "c" },
  { key: "context", long: "context", arg: O },
  { key: "context-n", short: "C", arg: R },
  { key: "unified", short: "u" },
  { key: "unified", long: "unified", arg: O },
  { key: "unified-n", short: "U", arg: R },
  { key: "ed", short: "e", long: "ed" },
  { key: "rcs", short: "n", long: "rcs" },
  { key: "side-by-side", short: "y", long: "side-by-side" },
  { key: "width", short: "W", long: "width", arg: R },
  { key: "left-column", long: "left-column" },
  { key: "suppress-common-lines", long: "suppress-common-lines" },
  { key: "show-c-function", short: "p", long: "show-c-function" },
  { key: "show-function-line", short: "F", long: "show-function-line", arg: R },
  { key: "label", long: "label", arg: R },
  { key: "expand-tabs", short: "t", long: "expand-tabs" },
  { key: "initial-tab", short: "T", long: "initial-tab" },
  { key: "tabsize", long: "tabsize", arg: R },
  { key: "suppress-blank-empty", long: "suppress-blank-empty" },
  { key: "paginate", short: "l", long: "paginate" },
  { key: "recursive", short: "r", long: "recursive" },
  { key: "no-dereference", long: "no-dereference" },
  { key: "new-file", short: "N", long: "new-file" },
  { key: "unidirectional-new-file", long: "unidirectional-new-file" },
  { key: "ignore-file-name-case", long: "ignore-file-name-case" },
  { key: "no-ignore-file-name-case", long: "no-ignore-file-name-case" },
  { key: "exclude", short: "x", long: "exclude", arg: R },
  { key: "exclude-from", short: "X", long: "exclude-from", arg: R },
  { key: "starting-file", short: "S", long: "starting-file", arg: R },
  { key: "from-file", long: "from-file", arg: R },
  { key: "to-file", long: "to-file", arg: R },
  { key: "ignore-case", short: "i", long: "ignore-case" },
  { key: "ignore-tab-expansion", short: "E", long: "ignore-tab-expansion" },
  { key: "ignore-trailing-space", short: "Z", long: "ignore-trailing-space" },
  { key: "ignore-space-change", short: "b", long: "ignore-space-change" },
  { key: "ignore-all-space", short: "w", long: "ignore-all-space" },
  { key: "ignore-blank-lines", short: "B", long: "ignore-blank-lines" },
  { key: "ignore-matching-lines", short: "I", long: "ignore-matching-lines", arg: R },
  { key: "text", short: "a", long: "text" },
  { key: "strip-trailing-cr", long: "strip-trailing-cr" },
  { key: "minimal", short: "d", long: "minimal" },
  { key: "horizon-lines", long: "horizon-lines", arg: R },
  { key: "speed-large-files", long: "speed-large-files" },
  { key: "color", long: "color", arg: O },
  { key: "palette", long: "palette", arg: R },
  { key: "help", long: "help" },
  { key: "version", short: "v", long: "version" },
  { key: "binary", long: "binary" },
];

const VERSION = versionText("diff", "GNU diffutils 3.8");

class Trouble extends Error {}

interface Settings {
  brief: boolean;
  reportIdentical: boolean;
  format: Format;
  compare: CompareOptions;
  recursive: boolean;
  newFile: boolean;
  unidirectional: boolean;
  exclude: RegExp[];
  ignoreBlank: boolean;
  ignoreRes: RegExp[];
  text: boolean;
  stripCr: boolean;
  labels: string[];
  follow: boolean;
  switches: string;
  tz: string | undefined;
  horizon: number;
  /** -c headers in the C locale: ctime's form. */
  ctime: boolean;
}

/** One side of a comparison: its name as printed and what it is. */
interface Side {
  name: string;
  stat: Stat | undefined;
  /** Absent (-N): compared as empty. */
  absent: boolean;
}

/** GNU diff 3.8: compares files line by line, directories entry by entry. */
export default function diff(p: ScriptProcess): number {
  const { sys, argv, stdout, stderr } = p;
  const usage = (message: string): number => {
    stderr.write(`diff: ${message}\ndiff: Try 'diff --help' for more information.\n`);
    return 2;
  };
  let parsed;
  try {
    parsed = getopt(argv.slice(1), SPECS);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return usage(e.message);
  }
  const s: Settings = {
    brief: false,
    reportIdentical: false,
    format: { style: "normal", context: 3, width: 130, suppressCommon: false, leftColumn: false, expandTabs: false, initialTab: false, functionRe: undefined },
    compare: { ignoreCase: false, ignoreAllSpace: false, ignoreSpaceChange: false, ignoreTabExpansion: false, ignoreTrailingSpace: false, minimal: false },
    recursive: false,
    newFile: false,
    unidirectional: false,
    exclude: [],
    ignoreBlank: false,
    ignoreRes: [],
    text: false,
    stripCr: false,
    labels: [],
    follow: true,
    switches: "",
    tz: sys.env["TZ"],
    horizon: 0,
    ctime: !hardLocale(sys.env, "LC_TIME"),
  };
  let style: Format["style"] | undefined;
  let context: number | undefined;
  const setStyle = (st: Format["style"]): boolean => {
    if (style !== undefined && style !== st) return false;
    style = st;
    return true;
  };
  const number = (o: { value?: string; name: string }, what: string): number | undefined => {
    const v = o.value ?? "";
    return /^\d+$/.test(v) ? Number(v) : undefined;
  };
  for (const o of parsed.options) {
    switch (o.key) {
      case "help":
        stdout.write(DIFF_HELP);
        return 0;
      case "version":
        stdout.write(VERSION);
        return 0;
      case "normal":
        if (!setStyle("normal")) return usage("conflicting output style options");
        break;
      case "brief":
        s.brief = true;
        break;
      case "report-identical-files":
        s.reportIdentical = true;
        break;
      case "context":
      case "unified":
      case "context-n":
      case "unified-n": {
        const st = o.key.startsWith("context") ? "context" : "unified";
        if (o.value !== undefined) {
          const n = number(o, "context");
          if (n === undefined) return usage(`invalid context length '${o.value}'`);
          context = Math.max(context ?? 0, n);
        }
        if (!setStyle(st)) return usage("conflicting output style options");
        break;
      }
      case "ed":
        if (!setStyle("ed")) return usage("conflicting output style options");
        break;
      case "rcs":
        stderr.write("diff: --rcs is not supported\n");
        return 2;
      case "side-by-side":
        if (!setStyle("side")) return usage("conflicting output style options");
        break;
      case "width": {
        const n = number(o, "width");
        if (n === undefined || n === 0) return usage(`invalid width '${o.value}'`);
        s.format.width = n;
        break;
      }
      case "left-column":
        s.format.leftColumn = true;
        break;
      case "suppress-common-lines":
        s.format.suppressCommon = true;
        break;
      case "show-c-function":
        s.format.functionRe = /^[A-Za-z$_]/;
        break;
      case "show-function-line":
        try {
          s.format.functionRe = new RegExp(o.value!);
        } catch {
          return usage(`invalid regular expression '${o.value}'`);
        }
        break;
      case "label":
        s.labels.push(o.value!);
        break;
      case "expand-tabs":
        s.format.expandTabs = true;
        break;
      case "initial-tab":
        s.format.initialTab = true;
        break;
      case "recursive":
        s.recursive = true;
        break;
      case "no-dereference":
        s.follow = false;
        break;
      case "new-file":
        s.newFile = true;
        break;
      case "unidirectional-new-file":
        s.unidirectional = true;
        break;
      case "exclude":
        s.exclude.push(globToRegExp(o.value!, false));
        break;
      case "exclude-from":
        try {
          const text = Buffer.from(sys.readFile(o.value!)).toString("latin1");
          for (const pat of text.split("\n")) if (pat !== "") s.exclude.push(globToRegExp(pat, false));
        } catch (e) {
          stderr.write(`diff: ${o.value}: ${strerror(e)}\n`);
          return 2;
        }
        break;
      case "ignore-case":
        s.compare.ignoreCase = true;
        break;
      case "ignore-tab-expansion":
        s.compare.ignoreTabExpansion = true;
        break;
      case "ignore-trailing-space":
        s.compare.ignoreTrailingSpace = true;
        break;
      case "ignore-space-change":
        s.compare.ignoreSpaceChange = true;
        break;
      case "ignore-all-space":
        s.compare.ignoreAllSpace = true;
        break;
      case "ignore-blank-lines":
        s.ignoreBlank = true;
        break;
      case "ignore-matching-lines":
        try {
          s.ignoreRes.push(new RegExp(basicToJs(o.value!)));
        } catch {
          return usage(`invalid regular expression '${o.value}'`);
        }
        break;
      case "text":
        s.text = true;
        break;
      case "strip-trailing-cr":
        s.stripCr = true;
        break;
      case "minimal":
        s.compare.minimal = true;
        break;
      case "horizon-lines":
        if (number(o, o.key) === undefined) return usage(`invalid horizon length '${o.value}'`);
        s.horizon = Math.max(s.horizon, number(o, o.key)!);
        break;
      case "tabsize":
      case "palette": {
        if (o.key !== "palette" && number(o, o.key) === undefined) return usage(`invalid ${o.key === "tabsize" ? "tabsize" : "horizon length"} '${o.value}'`);
        break;
      }
      case "color":
        if (o.value !== undefined && !["never", "always", "auto"].includes(o.value)) return usage(`invalid color '${o.value}'`);
        break;
      default:
        break;
    }
  }
  s.format.style = style ?? "normal";
  if (context !== undefined) s.format.context = context;
  if (s.format.style === "unified" || s.format.style === "context") s.horizon = Math.max(s.horizon, s.format.context);
  if (s.labels.length > 2) return usage("too many file label options");
  s.switches = scanOptionWords(argv.slice(1), SPECS)
    .map((w) => ` ${quotef(w)}`)
    .join("");
  const operands = parsed.operands;
  if (operands.length === 0) return usage("missing operand after 'diff'");
  if (operands.length === 1) return usage(`missing operand after '${operands[0]}'`);
  if (operands.length > 2) return usage(`extra operand '${operands[2]}'`);
  const d = new Differ(p, s);
  let status: number;
  try {
    status = d.top(operands[0]!, operands[1]!);
  } catch (e) {
    if (e instanceof Trouble) status = 2;
    else throw e;
  }
  return status;
}

/** A POSIX basic regular expression (-I) as a JavaScript one (the common subset). */
function basicToJs(re: string): string {
  let out = "";
  for (let i = 0; i < re.length; i++) {
    const c = re[i]!;
    if (c === "\\" && i + 1 < re.length) {
      const n = re[++i]!;
      out += "(){}|+?".includes(n) ? n : `\\${n}`;
    } else if ("(){}|+?".includes(c)) out += `\\${c}`;
    else out += c;
  }
  return out;
}

const TYPES: Record<string, string> = {
  dir: "directory",
  file: "regular file",
  symlink: "symbolic link",
  fifo: "fifo",
  char: "character special file",
  block: "block special file",
  socket: "socket",
  unknown: "weird file",
};
const typeName = (st: Stat): string => (st.kind === "file" && st.size === 0 ? "regular empty file" : TYPES[st.kind]!);
const join = (dir: string, name: string): string => (dir.endsWith("/") ? `${dir}${name}` : `${dir}/${name}`);
const basename = (path: string): string => {
  const t = path.replace(/\/+$/, "");
  return t === "" ? "/" : t.slice(t.lastIndexOf("/") + 1);
};

class Differ {
  private stdin: Uint8Array | undefined;

  constructor(
    private readonly p: ScriptProcess,
    private readonly s: Settings,
  ) {}

  private error(name: string, e: unknown): number {
    this.p.stderr.write(`diff: ${name}: ${strerror(e)}\n`);
    return 2;
  }

  private stat(name: string, follow: boolean): Stat {
    return name === "-" ? this.p.sys.fstat(0) : this.p.sys.stat(name, follow);
  }

  top(name0: string, name1: string): number {
    const sides: Side[] = [];
    let trouble = false;
    for (const [i, name] of [name0, name1].entries()) {
      try {
        sides.push({ name, stat: this.stat(name, true), absent: false });
      } catch (e) {
        const newFile = this.s.newFile || (this.s.unidirectional && i === 0);
        if (errorCode(e) === "ENOENT" && newFile) sides.push({ name, stat: undefined, absent: true });
        else {
          this.error(name, e);
          trouble = true;
          sides.push({ name, stat: undefined, absent: false });
        }
      }
    }
    if (trouble) return 2;
    let [a, b] = sides as [Side, Side];
    if (a.absent && b.absent) return this.error(a.name, { code: "ENOENT" });
    const aDir = a.stat?.kind === "dir";
    const bDir = b.stat?.kind === "dir";
    if (aDir !== bDir && !a.absent && !b.absent) {
      // DIR FILE: compare DIR/basename(FILE) with FILE.
      const [dir, file] = aDir ? [a, b] : [b, a];
      if (file.name === "-") {
        this.p.stderr.write("diff: cannot compare '-' to a directory\n");
        return 2;
      }
      const name = join(dir.name, basename(file.name));
      let st: Stat;
      try {
        st = this.stat(name, true);
      } catch (e) {
        return this.error(name, e);
      }
      const inner: Side = { name, stat: st, absent: false };
      if (aDir) a = inner;
      else b = inner;
      if (st.kind === "dir") {
        this.p.stderr.write(`diff: ${name}: Is a directory\n`);
        return 2;
      }
    }
    return this.compare(a, b, true);
  }

  /** Compares two sides (files or directories); `top` for the operands themselves. */
  private compare(a: Side, b: Side, top: boolean): number {
    const aDir = a.stat?.kind === "dir" || (a.absent && b.stat?.kind === "dir");
    const bDir = b.stat?.kind === "dir" || (b.absent && a.stat?.kind === "dir");
    if (aDir && bDir) {
      if (!top && !this.s.recursive) {
        this.write(`Common subdirectories: ${a.name} and ${b.name}\n`);
        return 0;
      }
      return this.directories(a, b);
    }
    if (aDir !== bDir) {
      this.write(`File ${a.name} is a ${typeName(a.stat!)} while file ${b.name} is a ${typeName(b.stat!)}\n`);
      return 1;
    }
    return this.files(a, b, top);
  }

  private write(text: string): void {
    this.p.stdout.write(Buffer.from(text, "latin1"));
  }

  private list(side: Side): string[] {
    if (side.absent) return [];
    try {
      return this.p.sys
        .readdir(side.name)
        .map((e) => e.name)
        .sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    } catch (e) {
      this.error(side.name, e);
      throw new Trouble();
    }
  }

  private directories(a: Side, b: Side): number {
    let names0: string[];
    let names1: string[];
    try {
      names0 = this.list(a);
      names1 = this.list(b);
    } catch (e) {
      if (e instanceof Trouble) return 2;
      throw e;
    }
    const excluded = (n: string): boolean => this.s.exclude.some((re) => re.test(n));
    const all = [...new Set([...names0, ...names1])].filter((n) => !excluded(n)).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    const in0 = new Set(names0);
    const in1 = new Set(names1);
    let status = 0;
    for (const n of all) {
      const sa: Side = { name: join(a.name, n), stat: undefined, absent: !in0.has(n) };
      const sb: Side = { name: join(b.name, n), stat: undefined, absent: !in1.has(n) };
      let st = 0;
      try {
        if (!sa.absent) sa.stat = this.stat(sa.name, this.s.follow);
        if (!sb.absent) sb.stat = this.stat(sb.name, this.s.follow);
      } catch (e) {
        status = Math.max(status, this.error(sa.stat ? sb.name : sa.name, e));
        continue;
      }
      if (sa.absent || sb.absent) {
        const newFile = this.s.newFile || (this.s.unidirectional && sa.absent);
        if (!newFile) {
          this.write(`Only in ${sa.absent ? b.name : a.name}: ${n}\n`);
          status = Math.max(status, 1);
          continue;
        }
      }
      st = this.compare(sa, sb, false);
      status = Math.max(status, st);
    }
    return status;
  }

  private read(side: Side): Uint8Array {
    if (side.absent) return new Uint8Array(0);
    if (side.name === "-") return (this.stdin ??= this.p.sys.readAll(0));
    if (side.stat?.kind === "symlink" && !this.s.follow) return Buffer.from(this.p.sys.readlink(side.name), "latin1");
    return this.p.sys.readFile(side.name);
  }

  private files(a: Side, b: Side, top: boolean): number {
    const s = this.s;
    let data0: Uint8Array;
    let data1: Uint8Array;
    try {
      data0 = this.read(a);
    } catch (e) {
      return this.error(a.name, e);
    }
    try {
      data1 = this.read(b);
    } catch (e) {
      return this.error(b.name, e);
    }
    const identical = (): number => {
      if (s.reportIdentical) this.write(`Files ${a.name} and ${b.name} are identical\n`);
      return 0;
    };
    if (Buffer.compare(data0, data1) === 0) return identical();
    if (!s.text && (isBinary(data0) || isBinary(data1))) {
      this.write(s.brief ? `Files ${a.name} and ${b.name} differ\n` : `Binary files ${a.name} and ${b.name} differ\n`);
      return 1;
    }
    const ignoring = Object.entries(s.compare).some(([k, v]) => k !== "minimal" && v) || s.ignoreBlank || s.ignoreRes.length > 0 || s.stripCr;
    if (s.brief && !ignoring) {
      this.write(`Files ${a.name} and ${b.name} differ\n`);
      return 1;
    }
    const text0 = Buffer.from(data0.buffer, data0.byteOffset, data0.length).toString("latin1");
    const text1 = Buffer.from(data1.buffer, data1.byteOffset, data1.length).toString("latin1");
    const lines0 = splitLines(text0, s.stripCr);
    const lines1 = splitLines(text1, s.stripCr);
    const script = compareLines(lines0, lines1, s.compare, s.horizon);
    if (s.ignoreBlank || s.ignoreRes.length > 0) for (const c of script) c.ignore = this.ignorable(c, lines0, lines1);
    if (!script.some((c) => !c.ignore)) return identical();
    if (s.brief) {
      this.write(`Files ${a.name} and ${b.name} differ\n`);
      return 1;
    }
    if (s.format.style === "ed") {
      const incomplete = [a, b].find((_, i) => [lines0, lines1][i]!.at(-1)?.newline === false);
      if (incomplete) {
        this.p.stderr.write(`diff: ${incomplete.name}: No newline at end of file\n\n`);
        return 2;
      }
    }
    const printer = new Printer(s.format, lines0, lines1);
    const names: [string, string] = [s.labels[0] ?? a.name, s.labels[1] ?? b.name];
    const times: [string, string] = ["", ""];
    if (s.format.style === "unified" || s.format.style === "context") {
      for (const [i, side] of [a, b].entries()) {
        if (s.labels[i] !== undefined) continue;
        const ms = side.absent ? 0 : side.name === "-" ? this.stdinTime() : side.stat!.mtimeMs;
        times[i] = `\t${formatTime(ms, s.tz, s.ctime && s.format.style === "context")}`;
      }
    }
    printer.print(script, names, times);
    if (printer.out !== "") {
      if (!top) this.write(`diff${s.switches} ${headerName(names[0])} ${headerName(names[1])}\n`);
      this.write(printer.out);
    }
    return 1;
  }

  private stdinTime(): number {
    try {
      const ms = this.p.sys.fstat(0).mtimeMs;
      return ms > 0 ? ms : Date.now();
    } catch {
      return Date.now();
    }
  }

  private ignorable(c: Change, a: readonly Line[], b: readonly Line[]): boolean {
    const s = this.s;
    const white = s.compare.ignoreAllSpace || s.compare.ignoreSpaceChange || s.compare.ignoreTrailingSpace;
    const trivial = (l: Line): boolean => {
      if (s.ignoreBlank && (l.text === "" || (white && /^[ \t\n\v\f\r]*$/.test(l.text)))) return true;
      return s.ignoreRes.some((re) => re.test(l.text));
    };
    for (let i = 0; i < c.deleted; i++) if (!trivial(a[c.line0 + i]!)) return false;
    for (let i = 0; i < c.inserted; i++) if (!trivial(b[c.line1 + i]!)) return false;
    return true;
  }
}

/** A name in a "diff -r a b" line: as is, or in C quotes when it holds spaces or special characters. */
function headerName(name: string): string {
  if (!/[\s"\\\x00-\x1f\x7f]/.test(name)) return name;
  const esc: Record<string, string> = { "\t": "\\t", "\n": "\\n", "\r": "\\r", "\v": "\\v", "\f": "\\f", "\b": "\\b", "\x07": "\\a", '"': '\\"', "\\": "\\\\" };
  return `"${[...name].map((c) => esc[c] ?? (c < " " || c === "\x7f" ? `\\${c.charCodeAt(0).toString(8).padStart(3, "0")}` : c)).join("")}"`;
}
