/** sort's command line: GNU's options and key definitions, parsed into an Options. */
import { versionText } from "../../gnu/version.js";
import { DEFAULT_LIMITS } from "../../limits.js";

/** One sort key, with GNU's field/char positions converted to 0-based numbers. */
export interface KeySpec {
  /** Start field (0-based) and char offset within it (0-based). */
  sword: number;
  schar: number;
  /** End field (0-based), or -1 for "end of line"; echar 0 means "end of that field". */
  eword: number;
  echar: number;
  /** `b` on POS1 / POS2. */
  skipStart: boolean;
  skipEnd: boolean;
  ignore: "" | "dict" | "print";
  fold: boolean;
  numeric: boolean;
  general: boolean;
  human: boolean;
  month: boolean;
  version: boolean;
  random: boolean;
  reverse: boolean;
}

export interface Options {
  global: KeySpec;
  keys: KeySpec[];
  /** Field separator as a byte value, or -1 for GNU's default blank-to-nonblank splitting. */
  tab: number;
  unique: boolean;
  stable: boolean;
  /** "" = sort, "c" = check with diagnostic, "C" = quiet check. */
  check: "" | "c" | "C";
  output: string | null;
  zero: boolean;
  /** -m: the inputs are sorted already and are merged, not sorted. */
  merge: boolean;
  /** -S in bytes (the largest one given), or null for the default (runs.ts). */
  bufferBytes: number | null;
  /** -T, in order; none: $TMPDIR or /tmp. */
  tempDirs: string[];
  /** --batch-size: runs merged at once. */
  nmerge: number;
  files: string[];
}

/** GNU's NMERGE: runs merged at once unless --batch-size says otherwise. */
const NMERGE = 16;
/**
 * GNU allows --batch-size up to RLIMIT_NOFILE - 3 (stdin, stdout and stderr stay open). A TypeScript command
 * cannot see its VM's limits, so this is the default limits.maxOpenFds.
 */
const MAX_NMERGE = DEFAULT_LIMITS.maxOpenFds - 3;
/**
 * What `-S N%` is a percentage of: GNU takes the machine's physical memory; here it is the memory a guest
 * process may have (the default limits.maxProcessMemoryBytes), the most sort ever holds (runs.ts).
 */
const PHYSICAL_MEMORY = DEFAULT_LIMITS.maxProcessMemoryBytes;

/** A usage or runtime failure: message for stderr and the exit status. */
export class SortError extends Error {
  constructor(
    message: string,
    readonly status = 2,
    readonly tryHelp = false,
  ) {
    super(message);
  }
}

/** --help or --version: the text for stdout, and sort does nothing else (status 0). */
export class SortAnswer extends Error {
  constructor(readonly text: string) {
    super("sort answered");
  }
}

const HELP = `Usage: sort [OPTION]... [FILE]...
Write sorted concatenation of all FILE(s) to standard output.

With no FILE, or when FILE is -, read standard input.

Ordering options:
  -b, --ignore-leading-blanks  ignore leading blanks
  -d, --dictionary-order      consider only blanks and alphanumeric characters
  -f, --ignore-case           fold lower case to upper case characters
  -g, --general-numeric-sort  compare according to general numerical value
  -i, --ignore-nonprinting    consider only printable characters
  -M, --month-sort            compare (unknown) < 'JAN' < ... < 'DEC'
  -h, --human-numeric-sort    compare human readable numbers (e.g., 2K 1G)
  -n, --numeric-sort          compare according to string numerical value
  -R, --random-sort           shuffle, but group identical keys
      --random-source=FILE    accepted, without effect
  -r, --reverse               reverse the result of comparisons
      --sort=WORD             sort according to WORD:
                                general-numeric -g, human-numeric -h, month -M,
                                numeric -n, random -R, version -V
  -V, --version-sort          natural sort of (version) numbers within text

Other options:
      --batch-size=NMERGE   merge at most NMERGE inputs at once
  -c, --check, --check=diagnose-first  check for sorted input; do not sort
  -C, --check=quiet, --check=silent  like -c, but do not report first bad line
  -k, --key=KEYDEF          sort via a key; KEYDEF gives location and type
  -m, --merge               merge already sorted files; do not sort
  -o, --output=FILE         write result to FILE instead of standard output
  -s, --stable              stabilize sort by disabling last-resort comparison
  -S, --buffer-size=SIZE    use SIZE for main memory buffer
  -t, --field-separator=SEP  use SEP instead of non-blank to blank transition
  -T, --temporary-directory=DIR  use DIR for temporaries, not $TMPDIR or /tmp
      --parallel=N          accepted; this sort runs on one thread
  -u, --unique              with -c, check for strict ordering;
                              without -c, output only the first of an equal run
  -z, --zero-terminated     line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

KEYDEF is F[.C][OPTS][,F[.C][OPTS]] for start and stop position, where F is a
field number and C a character position in the field; both are origin 1, and
the stop position defaults to the line's end. OPTS is one or more single-letter
ordering options [bdfgiMhnRrV], which override global ordering options for that key.

SIZE may be followed by the following multiplicative suffixes:
% 1% of memory, b 1, K 1024 (default), and so on for M, G, T, P, E, Z, Y.

The C locale's byte order is used. This sort is agentos-vm's TypeScript implementation of GNU sort.
`;

function newKey(): KeySpec {
  return {
    sword: 0, schar: 0, eword: -1, echar: 0, skipStart: false, skipEnd: false, ignore: "", fold: false,
    numeric: false, general: false, human: false, month: false, version: false, random: false, reverse: false,
  };
}

/** GNU's default_key_compare: true when the key has no ordering option (reverse excluded). */
function isDefaultKey(k: KeySpec): boolean {
  return !(k.ignore || k.fold || k.skipStart || k.skipEnd || k.month || k.numeric || k.version ||
    k.general || k.human || k.random);
}

/** Applies modifier letters (GNU set_ordering); returns the index of the first unknown char. */
function setOrdering(s: string, i: number, k: KeySpec, blank: "start" | "end" | "both"): number {
  for (; i < s.length; i++) {
    switch (s[i]) {
      case "b":
        if (blank !== "end") k.skipStart = true;
        if (blank !== "start") k.skipEnd = true;
        break;
      case "d": k.ignore = "dict"; break;
      case "f": k.fold = true; break;
      case "g": k.general = true; break;
      case "h": k.human = true; break;
      // -d implies -i, so -i must not override an earlier -d.
      case "i": if (!k.ignore) k.ignore = "print"; break;
      case "M": k.month = true; break;
      case "n": k.numeric = true; break;
      case "R": k.random = true; break;
      case "r": k.reverse = true; break;
      case "V": k.version = true; break;
      default: return i;
    }
  }
  return i;
}

/** Parses the decimal count at s[i..]; GNU saturates huge values rather than failing. */
function parseCount(s: string, i: number, what: string): [number, number] {
  let j = i;
  while (j < s.length && s.charCodeAt(j) >= 48 && s.charCodeAt(j) <= 57) j++;
  if (j === i) throw new SortError(`sort: ${what}: invalid count at start of '${s.slice(i)}'`);
  const n = Number(s.slice(i, j));
  return [Number.isSafeInteger(n) ? n : Number.MAX_SAFE_INTEGER, j];
}

/** Parses a -k KEYDEF: F[.C][OPTS][,F[.C][OPTS]]. */
function parseKey(spec: string): KeySpec {
  const k = newKey();
  const bad = (why: string): never => {
    throw new SortError(`sort: ${why}: invalid field specification '${spec}'`);
  };
  let [n, i] = parseCount(spec, 0, "invalid number at field start");
  if (n === 0) bad("field number is zero");
  k.sword = n - 1;
  if (spec[i] === ".") {
    [n, i] = parseCount(spec, i + 1, "invalid number after '.'");
    if (n === 0) bad("character offset is zero");
    k.schar = n - 1;
  }
  i = setOrdering(spec, i, k, "start");
  if (spec[i] === ",") {
    [n, i] = parseCount(spec, i + 1, "invalid number after ','");
    if (n === 0) bad("field number is zero");
    k.eword = n - 1;
    if (spec[i] === ".") [k.echar, i] = parseCount(spec, i + 1, "invalid number after '.'");
    i = setOrdering(spec, i, k, "end");
  }
  if (i < spec.length) bad("stray character in field spec");
  return k;
}

/** The option letters GNU prints in "options '-gn' are incompatible". */
function keyLetters(k: KeySpec): string {
  return (k.ignore === "dict" ? "d" : "") + (k.fold ? "f" : "") + (k.general ? "g" : "") + (k.human ? "h" : "") +
    (k.ignore === "print" ? "i" : "") + (k.month ? "M" : "") + (k.numeric ? "n" : "") + (k.random ? "R" : "") +
    (k.version ? "V" : "");
}

type ArgKind = "none" | "required" | "optional";
/** Long options, in GNU's table order (it decides the order in "ambiguous" messages). */
const LONG_OPTIONS: ReadonlyArray<[name: string, id: string, arg: ArgKind]> = [
  ["ignore-leading-blanks", "b", "none"],
  ["check", "check", "optional"],
  ["dictionary-order", "d", "none"],
  ["ignore-case", "f", "none"],
  ["general-numeric-sort", "g", "none"],
  ["ignore-nonprinting", "i", "none"],
  ["key", "k", "required"],
  ["merge", "m", "none"],
  ["month-sort", "M", "none"],
  ["numeric-sort", "n", "none"],
  ["human-numeric-sort", "h", "none"],
  ["version-sort", "V", "none"],
  ["random-sort", "R", "none"],
  ["random-source", "random-source", "required"],
  ["sort", "sort", "required"],
  ["output", "o", "required"],
  ["reverse", "r", "none"],
  ["stable", "s", "none"],
  ["batch-size", "batch-size", "required"],
  ["buffer-size", "S", "required"],
  ["field-separator", "t", "required"],
  ["temporary-directory", "T", "required"],
  ["unique", "u", "none"],
  ["zero-terminated", "z", "none"],
  ["parallel", "parallel", "required"],
  ["help", "help", "none"],
  ["version", "version", "none"],
];
const SHORT_FLAGS = "bcCdfghiMmnRrsuVz";
const SHORT_WITH_ARG = "koStTy";

/** GNU argmatch's complaint about an option argument; it exits with status 1, not 2. */
function invalidArgument(arg: string, option: string, valid: string[]): SortError {
  const list = valid.map((v) => `  - ${v}\n`).join("");
  const message = `sort: invalid argument '${arg}' for '${option}'\nValid arguments are:\n${list.slice(0, -1)}`;
  return new SortError(message, 1, true);
}

const MAX_UINT = (1n << 64n) - 1n;
/** Powers of 1024 of the size suffixes GNU's xstrtoumax takes for -S ("EgGkKmMPtTYZ"). */
const SIZE_SUFFIXES: Record<string, number> = { k: 1, K: 1, m: 2, M: 2, g: 3, G: 3, t: 4, T: 4, P: 5, E: 6, Z: 7, Y: 8 };

/** GNU's xstrtol_fatal: the complaint about a number argument of `option`, status 2. */
function badNumber(arg: string, option: string, why: "invalid" | "suffix" | "large"): SortError {
  if (why === "large") return new SortError(`sort: ${option} argument '${arg}' too large`);
  return new SortError(`sort: invalid ${why === "suffix" ? "suffix in " : ""}${option} argument '${arg}'`);
}

/** xstrtoumax's number: leading blanks and '+', decimal digits; no sign, and nothing after the digits. */
function count(arg: string, option: string): bigint {
  const m = /^[ \t\n\v\f\r]*\+?(\d+)(.*)$/s.exec(arg);
  if (!m) throw badNumber(arg, option, "invalid");
  if (m[2] !== "") throw badNumber(arg, option, "suffix");
  const n = BigInt(m[1]!);
  return n > MAX_UINT ? MAX_UINT : n;
}

/**
 * -S SIZE in bytes, as GNU's specify_sort_size reads it: a number of KiB, or with a suffix b (bytes), % (of
 * PHYSICAL_MEMORY), or K, M, G, T, P, E, Z, Y (powers of 1024).
 */
function bufferSize(arg: string, option: string): number {
  const m = /^[ \t\n\v\f\r]*\+?(\d*)(.*)$/s.exec(arg);
  const digits = m?.[1] ?? "";
  const suffix = m?.[2] ?? "";
  // Without digits a valid suffix stands for 1 of its unit (xstrtoumax); a sign is never valid.
  if (!m || (digits === "" && !(suffix[0]! in SIZE_SUFFIXES))) throw badNumber(arg, option, "invalid");
  let n = BigInt(digits || "1");
  if (suffix === "") n *= 1024n;
  else if (digits !== "" && suffix === "b") n *= 1n;
  else if (digits !== "" && suffix === "%") n = (BigInt(PHYSICAL_MEMORY) * n) / 100n;
  else if (suffix[0]! in SIZE_SUFFIXES) {
    n *= 1024n ** BigInt(SIZE_SUFFIXES[suffix[0]!]!);
    if (suffix.length > 1) throw badNumber(arg, option, "suffix");
  } else throw badNumber(arg, option, "suffix");
  if (n > MAX_UINT) throw badNumber(arg, option, "large");
  return Number(n);
}

/** --batch-size: at least 2, at most MAX_NMERGE (GNU's two-line complaints). */
function batchSize(arg: string, option: string): number {
  const n = count(arg, option);
  if (n < 2n) throw new SortError(`sort: invalid ${option} argument '${arg}'\nsort: minimum ${option} argument is '2'`);
  if (n > BigInt(MAX_NMERGE))
    throw new SortError(`sort: ${option} argument '${arg}' too large\nsort: maximum ${option} argument with current rlimit is ${MAX_NMERGE}`);
  return Number(n);
}

/** Argument strings are Unicode; the sort works on bytes, so a tab must be given as a byte string. */
function toByteString(s: string): string {
  return Buffer.from(s, "utf8").toString("latin1");
}

/** getopt_long-style parsing (permuting operands unless POSIXLY_CORRECT), then GNU's consistency checks. */
export function parseArgs(argv: readonly string[], env: Readonly<Record<string, string>>): Options {
  const o: Options = {
    global: newKey(), keys: [], tab: -1, unique: false, stable: false, check: "", output: null, zero: false,
    merge: false, bufferBytes: null, tempDirs: [], nmerge: NMERGE, files: [],
  };
  const usage = (msg: string): never => {
    throw new SortError(msg, 2, true);
  };

  /** `option` is how the option was named, for GNU's messages about its argument (-S, --buffer-size). */
  const apply = (id: string, arg: string, option: string): void => {
    switch (id) {
      case "c": case "C": case "check": {
        let mode: "c" | "C" = id === "C" ? "C" : "c";
        if (id === "check" && arg !== "") {
          const choices: Record<string, "c" | "C"> = { "diagnose-first": "c", quiet: "C", silent: "C" };
          const hit = Object.keys(choices).filter((c) => c.startsWith(arg));
          const exact = choices[arg];
          if (exact) mode = exact;
          else if (hit.length > 0 && hit.every((h) => choices[h] === choices[hit[0]!])) mode = choices[hit[0]!]!;
          else throw invalidArgument(arg, "--check", ["'quiet', 'silent'", "'diagnose-first'"]);
        }
        if (o.check && o.check !== mode) throw new SortError("sort: options '-cC' are incompatible");
        o.check = mode;
        break;
      }
      case "k": o.keys.push(parseKey(arg)); break;
      case "m": o.merge = true; break;
      case "o":
        if (o.output !== null && o.output !== arg) throw new SortError("sort: multiple output files specified");
        o.output = arg;
        break;
      case "s": o.stable = true; break;
      case "u": o.unique = true; break;
      case "z": o.zero = true; break;
      case "t": {
        const t = toByteString(arg);
        if (t === "") throw new SortError("sort: empty tab");
        let tab = t.charCodeAt(0);
        if (t.length > 1) {
          if (t === "\\0") tab = 0;
          else throw new SortError(`sort: multi-character tab '${arg}'`);
        }
        if (o.tab !== -1 && o.tab !== tab) throw new SortError("sort: incompatible tabs");
        o.tab = tab;
        break;
      }
      case "sort": {
        const words: Record<string, string> = {
          "general-numeric": "g", "human-numeric": "h", month: "M", numeric: "n", random: "R", version: "V",
        };
        const hit = Object.keys(words).filter((w) => w.startsWith(arg));
        const letter = words[arg] ?? (hit.length === 1 ? words[hit[0]!] : undefined);
        if (!letter) throw invalidArgument(arg, "--sort", Object.keys(words).map((w) => `'${w}'`));
        setOrdering(letter, 0, o.global, "both");
        break;
      }
      case "S": {
        // Several -S: the largest counts, so that their order does not matter (GNU).
        const size = bufferSize(arg, option);
        o.bufferBytes = Math.max(o.bufferBytes ?? 0, size);
        break;
      }
      case "T": o.tempDirs.push(arg); break;
      case "parallel":
        // Accepted as GNU accepts it; this sort runs on one thread, cooperatively.
        if (count(arg, option) === 0n) throw new SortError("sort: number in parallel must be nonzero");
        break;
      case "batch-size": o.nmerge = batchSize(arg, option); break;
      case "y": case "random-source":
        break; // no effect here
      // As GNU's, answered where they come, whatever follows.
      case "help": throw new SortAnswer(HELP);
      case "version": throw new SortAnswer(versionText("sort", "GNU coreutils 9.1"));
      default:
        setOrdering(id, 0, o.global, "both");
    }
  };

  const posixly = env["POSIXLY_CORRECT"] !== undefined;
  let i = 1;
  for (; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") { i++; break; }
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      const name = a.slice(2, eq < 0 ? undefined : eq);
      const exact = LONG_OPTIONS.find((l) => l[0] === name);
      const matches = exact ? [exact] : LONG_OPTIONS.filter((l) => l[0].startsWith(name));
      if (matches.length === 0) usage(`sort: unrecognized option '${eq < 0 ? a : a.slice(0, eq)}'`);
      if (matches.length > 1) {
        usage(`sort: option '${eq < 0 ? a : a.slice(0, eq)}' is ambiguous; possibilities:` +
          matches.map((m) => ` '--${m[0]}'`).join(""));
      }
      const [full, id, kind] = matches[0]!;
      let arg = "";
      if (eq >= 0) {
        if (kind === "none") usage(`sort: option '--${full}' doesn't allow an argument`);
        arg = a.slice(eq + 1);
      } else if (kind === "required") {
        if (i + 1 >= argv.length) usage(`sort: option '--${full}' requires an argument`);
        arg = argv[++i]!;
      }
      apply(id, arg, `--${full}`);
      continue;
    }
    if (a.startsWith("-") && a !== "-") {
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        if (SHORT_WITH_ARG.includes(c)) {
          let arg = a.slice(j + 1);
          if (arg === "") {
            if (i + 1 >= argv.length) usage(`sort: option requires an argument -- '${c}'`);
            arg = argv[++i]!;
          }
          apply(c, arg, `-${c}`);
          break;
        }
        if (!SHORT_FLAGS.includes(c)) usage(`sort: invalid option -- '${c}'`);
        apply(c, "", `-${c}`);
      }
      continue;
    }
    o.files.push(a);
    if (posixly) { i++; break; }
  }
  for (; i < argv.length; i++) o.files.push(argv[i]!);

  // Keys without ordering options of their own inherit the global ones (GNU main()).
  const g = o.global;
  for (const k of o.keys) {
    if (isDefaultKey(k) && !k.reverse) {
      k.ignore = g.ignore; k.fold = g.fold; k.skipStart = g.skipStart; k.skipEnd = g.skipEnd;
      k.month = g.month; k.numeric = g.numeric; k.general = g.general; k.human = g.human;
      k.version = g.version; k.random = g.random; k.reverse = g.reverse;
    }
  }
  // With no -k but some ordering option, the whole line is one key with the global options.
  if (o.keys.length === 0 && !isDefaultKey(g)) o.keys.push(g);

  for (const k of o.keys) {
    const kinds = +k.numeric + +k.general + +k.human + +k.month + +(k.version || k.random || k.ignore !== "");
    if (kinds > 1) throw new SortError(`sort: options '-${keyLetters(k)}' are incompatible`);
  }
  if (o.check) {
    if (o.files.length > 1) throw new SortError(`sort: extra operand '${o.files[1]}' not allowed with -${o.check}`);
    if (o.output !== null) throw new SortError(`sort: options '-${o.check}o' are incompatible`);
  }
  return o;
}

