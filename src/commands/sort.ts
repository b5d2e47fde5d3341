/**
 * `sort`, following GNU coreutils sort in the C locale.
 *
 * Text is handled as "binary strings": every input byte becomes one UTF-16 code unit (latin1 decoding),
 * so JavaScript's `<` on strings is exactly GNU's memcmp byte order and the bytes come back unchanged
 * on output. Keys are extracted and parsed once per line before sorting; the comparator only compares
 * precomputed values.
 *
 * Not implemented from GNU: --debug, --files0-from, --compress-program, --help/--version, the obsolete
 * `+POS1 -POS2` key syntax, locale-aware collation/decimal points/thousands separators, a real k-way
 * merge for -m (inputs are simply sorted together), and -R uses a salted FNV hash instead of MD5.
 */
import type { CommandContext, CommandHandler } from "./command.js";

/** One sort key, with GNU's field/char positions converted to 0-based numbers. */
interface KeySpec {
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

interface Options {
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
  files: string[];
}

/** A usage or runtime failure: message for stderr and the exit status. */
class SortError extends Error {
  constructor(
    message: string,
    readonly status = 2,
    readonly tryHelp = false,
  ) {
    super(message);
  }
}

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
  ["buffer-size", "S", "required"],
  ["field-separator", "t", "required"],
  ["temporary-directory", "T", "required"],
  ["unique", "u", "none"],
  ["zero-terminated", "z", "none"],
  ["parallel", "parallel", "required"],
];
const SHORT_FLAGS = "bcCdfghiMmnRrsuVz";
const SHORT_WITH_ARG = "koStTy";

/** GNU argmatch's complaint about an option argument; it exits with status 1, not 2. */
function invalidArgument(arg: string, option: string, valid: string[]): SortError {
  const list = valid.map((v) => `  - ${v}\n`).join("");
  const message = `sort: invalid argument '${arg}' for '${option}'\nValid arguments are:\n${list.slice(0, -1)}`;
  return new SortError(message, 1, true);
}

/** Argument strings are Unicode; the sort works on bytes, so a tab must be given as a byte string. */
function toByteString(s: string): string {
  return Buffer.from(s, "utf8").toString("latin1");
}

/** getopt_long-style parsing (permuting operands unless POSIXLY_CORRECT), then GNU's consistency checks. */
function parseArgs(argv: readonly string[], env: Readonly<Record<string, string>>): Options {
  const o: Options = {
    global: newKey(), keys: [], tab: -1, unique: false, stable: false, check: "", output: null, zero: false,
    files: [],
  };
  const usage = (msg: string): never => {
    throw new SortError(msg, 2, true);
  };

  const apply = (id: string, arg: string): void => {
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
      case "m": break; // merge: inputs are sorted together, which gives the same output for sorted inputs
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
      case "S": case "T": case "y": case "parallel": case "random-source":
        break; // tuning knobs with no effect on an in-memory sort
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
      apply(id, arg);
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
          apply(c, arg);
          break;
        }
        if (!SHORT_FLAGS.includes(c)) usage(`sort: invalid option -- '${c}'`);
        apply(c, "");
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

// ---------------------------------------------------------------------------------------------------
// Key extraction (GNU begfield / limfield). Blanks are space, tab and newline (newline matters for -z).

function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 10;
}

/** Start of the key: skip `sword` fields, optional blanks, then `schar` chars, never past the line end. */
function begField(s: string, k: KeySpec, tab: number): number {
  const lim = s.length;
  let p = 0;
  let n = k.sword;
  if (tab >= 0) {
    while (p < lim && n-- > 0) {
      while (p < lim && s.charCodeAt(p) !== tab) p++;
      if (p < lim) p++;
    }
  } else {
    while (p < lim && n-- > 0) {
      while (p < lim && isBlank(s.charCodeAt(p))) p++;
      while (p < lim && !isBlank(s.charCodeAt(p))) p++;
    }
  }
  if (k.skipStart) while (p < lim && isBlank(s.charCodeAt(p))) p++;
  return Math.min(lim, p + k.schar);
}

/** End of the key (exclusive). With echar 0 the key runs to the end of field `eword`, excluding its separator. */
function limField(s: string, k: KeySpec, tab: number): number {
  const lim = s.length;
  if (k.eword < 0) return lim;
  const echar = k.echar;
  let n = echar === 0 ? k.eword + 1 : k.eword;
  let p = 0;
  if (tab >= 0) {
    while (p < lim && n-- > 0) {
      while (p < lim && s.charCodeAt(p) !== tab) p++;
      if (p < lim && (n > 0 || echar !== 0)) p++;
    }
  } else {
    while (p < lim && n-- > 0) {
      while (p < lim && isBlank(s.charCodeAt(p))) p++;
      while (p < lim && !isBlank(s.charCodeAt(p))) p++;
    }
  }
  if (echar !== 0) {
    if (k.skipEnd) while (p < lim && isBlank(s.charCodeAt(p))) p++;
    p = Math.min(lim, p + echar);
  }
  return p;
}

/** -d keeps alphanumerics and blanks; -i keeps printable ASCII; -f folds to upper case (C locale). */
function transformKey(t: string, k: KeySpec): string {
  if (k.ignore === "dict") t = t.replace(/[^A-Za-z0-9 \t\n]+/g, "");
  else if (k.ignore === "print") t = t.replace(/[^\x20-\x7e]+/g, "");
  if (k.fold && /[a-z]/.test(t)) t = t.replace(/[a-z]+/g, (m) => m.toUpperCase());
  return t;
}

// ---------------------------------------------------------------------------------------------------
// Key values. Each ordering mode parses a key once into a value its comparator can compare cheaply.

/** Each mode compares its own value type; the plan pairs every comparator with its own parser. */
type Cmp = (a: any, b: any) => number;

/** Byte order, since each code unit is one byte. Testing equality first saves a second full scan. */
function compareText(a: string, b: string): number {
  return a === b ? 0 : a < b ? -1 : 1;
}

/**
 * A decimal number as GNU strnumcmp sees it, kept exact so that long digit strings still order
 * correctly: `int` has no leading zeros and `frac` no trailing zeros; zero has sign 0 (so -0 == 0).
 * Numbers with at most 15 significant digits, nearly all of them, are plain doubles instead: a
 * double holds them exactly enough to order them, and comparing doubles is much cheaper.
 */
interface DecNum {
  sign: number;
  int: string;
  frac: string;
  /** The nearest double: rounding keeps order, so different approximations already decide. */
  approx: number;
}
type Decimal = number | DecNum;

const POW10 = Array.from({ length: 16 }, (_, i) => 10 ** i);

/** Parses blanks, optional '-', digits, optional '.' digits at the start of t; anything else is 0. */
function parseDecimal(t: string): Decimal {
  const n = t.length;
  let i = 0;
  while (i < n && isBlank(t.charCodeAt(i))) i++;
  const start = i;
  const neg = t.charCodeAt(i) === 45;
  if (neg) i++;
  let s = i;
  while (s < n && t.charCodeAt(s) === 48) s++; // leading zeros
  let e = s;
  while (e < n && isDigit(t.charCodeAt(e))) e++;
  let f = e; // end of the number
  let end = e; // end of its significant fraction digits
  if (t.charCodeAt(e) === 46) {
    f = e + 1;
    while (f < n && isDigit(t.charCodeAt(f))) f++;
    end = f;
    while (end > e + 1 && t.charCodeAt(end - 1) === 48) end--;
  }
  if (e === i && f <= e + 1) return 0; // no digits at all: "", "-", ".", "-."
  const fracDigits = Math.max(0, end - e - 1);
  if (e - s + fracDigits <= 15) {
    // The significant digits form an exact integer; one correctly rounded division places the point,
    // which gives the same double as parsing the text, without building a string to parse.
    let mant = 0;
    for (let j = s; j < e; j++) mant = mant * 10 + t.charCodeAt(j) - 48;
    for (let j = e + 1; j < end; j++) mant = mant * 10 + t.charCodeAt(j) - 48;
    const v = fracDigits === 0 ? mant : mant / POW10[fracDigits]!;
    return neg && v !== 0 ? -v : v;
  }
  const int = t.slice(s, e);
  const frac = end > e ? t.slice(e + 1, end) : "";
  return { sign: neg ? -1 : 1, int, frac, approx: Number(t.slice(start, f)) };
}

/** The exact decimal of a double that came from at most 15 significant digits (used only when mixed). */
function toDecNum(x: Decimal): DecNum {
  if (typeof x !== "number") return x;
  if (x === 0) return { sign: 0, int: "", frac: "", approx: 0 };
  const [mant, exp] = Math.abs(x).toExponential(14).split("e") as [string, string];
  const digits = mant.replace(".", "");
  const e = Number(exp);
  const int = e >= 0 ? digits.slice(0, e + 1) : "";
  const frac = e >= 0 ? digits.slice(e + 1) : "0".repeat(-e - 1) + digits;
  return { sign: Math.sign(x), int: int.replace(/^0+/, ""), frac: frac.replace(/0+$/, ""), approx: x };
}

function compareDecimal(a: Decimal, b: Decimal): number {
  const ax = typeof a === "number" ? a : a.approx;
  const bx = typeof b === "number" ? b : b.approx;
  if (ax !== bx) return ax < bx ? -1 : 1;
  if (typeof a === "number" && typeof b === "number") return 0;
  const x = toDecNum(a);
  const y = toDecNum(b);
  if (x.sign !== y.sign) return x.sign < y.sign ? -1 : 1;
  let d = x.int.length - y.int.length;
  if (d === 0) d = compareText(x.int, y.int);
  if (d === 0) d = compareText(x.frac, y.frac);
  return x.sign * Math.sign(d);
}

/** -h: SI suffix order first (GNU find_unit_order), then the number itself. */
interface HumanNum { order: number; num: Decimal }

const UNIT_ORDER: Record<string, number> = { K: 1, k: 1, M: 2, G: 3, T: 4, P: 5, E: 6, Z: 7, Y: 8, R: 9, Q: 10 };

function parseHuman(t: string): HumanNum {
  let i = 0;
  while (i < t.length && isBlank(t.charCodeAt(i))) i++;
  const neg = t.charCodeAt(i) === 45;
  let p = neg ? i + 1 : i;
  let maxDigit = 48;
  const digits = (): void => {
    for (; p < t.length && isDigit(t.charCodeAt(p)); p++) maxDigit = Math.max(maxDigit, t.charCodeAt(p));
  };
  digits();
  if (t.charCodeAt(p) === 46) {
    p++;
    digits();
  }
  // A zero value has no unit, whatever follows it.
  const order = maxDigit > 48 ? (UNIT_ORDER[t.charAt(p)] ?? 0) : 0;
  return { order: neg ? -order : order, num: parseDecimal(t) };
}

function compareHuman(a: HumanNum, b: HumanNum): number {
  return a.order !== b.order ? (a.order < b.order ? -1 : 1) : compareDecimal(a.num, b.num);
}

/** -g: strtod on the key prefix. Non-numbers sort first, then NaNs, then numbers. */
interface GeneralNum { rank: number; value: number }

const GENERAL_RE = new RegExp(
  "^[\\t\\n\\v\\f\\r ]*([+-]?)(?:" +
    "0x([0-9a-f]+\\.?[0-9a-f]*|\\.[0-9a-f]+)(?:p([+-]?\\d+))?" + // hexadecimal float
    "|((?:\\d+\\.?\\d*|\\.\\d+)(?:e[+-]?\\d+)?)" + // decimal float
    "|(inf(?:inity)?)|(nan(?:\\([0-9a-z_]*\\))?))",
  "i",
);

function parseGeneral(t: string): GeneralNum {
  const m = GENERAL_RE.exec(t);
  if (!m) return { rank: 0, value: 0 };
  const sign = m[1] === "-" ? -1 : 1;
  if (m[6] !== undefined) return { rank: 1, value: 0 };
  if (m[5] !== undefined) return { rank: 2, value: sign * Infinity };
  if (m[4] !== undefined) return { rank: 2, value: sign * Number(m[4]) };
  // Hexadecimal float: mantissa digits scaled by the fraction length and the binary exponent.
  const hex = m[2]!;
  const dot = hex.indexOf(".");
  const digits = hex.replace(".", "");
  const fracDigits = dot < 0 ? 0 : hex.length - dot - 1;
  const value = parseInt(digits || "0", 16) * Math.pow(2, Number(m[3] ?? 0) - 4 * fracDigits);
  return { rank: 2, value: sign * value };
}

function compareGeneral(a: GeneralNum, b: GeneralNum): number {
  if (a.rank !== b.rank) return a.rank - b.rank;
  return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
}

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];

/** -M: 1..12 for a key starting (after blanks) with a month abbreviation in any case, else 0. */
function parseMonth(t: string): number {
  const m = /^[ \t\n]*([A-Za-z]{3})/.exec(t);
  return m ? MONTHS.indexOf(m[1]!.toUpperCase()) + 1 : 0;
}

function compareNumber(a: number, b: number): number {
  return a - b;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isAlpha(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** Length of s without its file suffix, the longest match of (\.[A-Za-z~][A-Za-z0-9~]*)*$ (gnulib). */
function filePrefixLen(s: string): number {
  const n = s.length;
  let prefixLen = 0;
  for (let i = 0; i < n; ) {
    i++;
    prefixLen = i;
    while (i + 1 < n && s.charCodeAt(i) === 46 && (isAlpha(s.charCodeAt(i + 1)) || s.charCodeAt(i + 1) === 126)) {
      for (i += 2; i < n && (isAlpha(s.charCodeAt(i)) || isDigit(s.charCodeAt(i)) || s.charCodeAt(i) === 126); i++);
    }
  }
  return prefixLen;
}

/** Weight of a byte in version comparison: '~' < end of string < digits < letters < other bytes. */
function verOrder(s: string, pos: number, len: number): number {
  if (pos === len) return -1;
  const c = s.charCodeAt(pos);
  if (isDigit(c)) return 0;
  if (isAlpha(c)) return c;
  if (c === 126) return -2;
  return c + 256;
}

/** dpkg's verrevcmp over s1[0..l1) and s2[0..l2): alternating non-digit runs and numeric runs. */
function verrevcmp(s1: string, l1: number, s2: string, l2: number): number {
  let p1 = 0;
  let p2 = 0;
  while (p1 < l1 || p2 < l2) {
    let firstDiff = 0;
    while ((p1 < l1 && !isDigit(s1.charCodeAt(p1))) || (p2 < l2 && !isDigit(s2.charCodeAt(p2)))) {
      const c1 = verOrder(s1, p1, l1);
      const c2 = verOrder(s2, p2, l2);
      if (c1 !== c2) return c1 - c2;
      p1++;
      p2++;
    }
    while (p1 < l1 && s1.charCodeAt(p1) === 48) p1++;
    while (p2 < l2 && s2.charCodeAt(p2) === 48) p2++;
    while (p1 < l1 && p2 < l2 && isDigit(s1.charCodeAt(p1)) && isDigit(s2.charCodeAt(p2))) {
      if (!firstDiff) firstDiff = s1.charCodeAt(p1) - s2.charCodeAt(p2);
      p1++;
      p2++;
    }
    if (p1 < l1 && isDigit(s1.charCodeAt(p1))) return 1;
    if (p2 < l2 && isDigit(s2.charCodeAt(p2))) return -1;
    if (firstDiff) return firstDiff;
  }
  return 0;
}

/** -V: gnulib filevercmp (".", ".." and dot-files first; suffixes compared only to break ties). */
function compareVersion(a: string, b: string): number {
  if (a === "" || b === "") return a === "" ? (b === "" ? 0 : -1) : 1;
  if (a[0] === ".") {
    if (b[0] !== ".") return -1;
    if (a === ".") return b === "." ? 0 : -1;
    if (b === ".") return 1;
    if (a === "..") return b === ".." ? 0 : -1;
    if (b === "..") return 1;
  } else if (b[0] === ".") {
    return 1;
  }
  const pa = filePrefixLen(a);
  const pb = filePrefixLen(b);
  const r = verrevcmp(a, pa, b, pb);
  if (r || (pa === a.length && pb === b.length)) return Math.sign(r);
  return Math.sign(verrevcmp(a, a.length, b, b.length));
}

/** -R: a salted hash groups equal keys together in an order that changes between runs. */
interface RandomKey { hash: number; text: string }

function compareRandom(a: RandomKey, b: RandomKey): number {
  return a.hash !== b.hash ? a.hash - b.hash : compareText(a.text, b.text);
}

function randomKey(t: string, salt: number): RandomKey {
  let h = salt;
  for (let i = 0; i < t.length; i++) h = Math.imul(h ^ t.charCodeAt(i), 16777619);
  return { hash: h >>> 0, text: t };
}

/** Picks the value parser and comparator for a key's ordering mode. */
function keyMode(k: KeySpec, salt: number): { parse: (t: string) => unknown; cmp: Cmp } {
  if (k.numeric) return { parse: parseDecimal, cmp: compareDecimal };
  if (k.general) return { parse: parseGeneral, cmp: compareGeneral };
  if (k.human) return { parse: parseHuman, cmp: compareHuman };
  if (k.month) return { parse: parseMonth, cmp: compareNumber };
  if (k.version) return { parse: (t) => t, cmp: compareVersion };
  if (k.random) return { parse: (t) => randomKey(t, salt), cmp: compareRandom };
  return { parse: (t) => t, cmp: compareText };
}

// ---------------------------------------------------------------------------------------------------
// Input and output.

/** A line with its key values: the first key in `key` (the common single-key case), the others in `more`. */
interface Rec {
  line: string;
  key: unknown;
  more: unknown[];
  /** prefixOf() the first key when it is compared as text, else 0; and of the line. */
  keyPrefix: number;
  linePrefix: number;
}

/**
 * The first 6 bytes as one exact number (shorter strings padded with 0): when two prefixes differ, the
 * strings differ in the same order, and comparing numbers is far cheaper than comparing strings.
 */
function prefixOf(s: string): number {
  let p = 0;
  for (let i = 0; i < 6; i++) p = p * 256 + (i < s.length ? s.charCodeAt(i) : 0);
  return p;
}

const STRERROR: Record<string, string> = {
  ENOENT: "No such file or directory",
  EISDIR: "Is a directory",
  ENOTDIR: "Not a directory",
  EACCES: "Permission denied",
  EPERM: "Operation not permitted",
  ELOOP: "Too many levels of symbolic links",
  ENAMETOOLONG: "File name too long",
  EIO: "Input/output error",
  EROFS: "Read-only file system",
  ENOSPC: "No space left on device",
  EINVAL: "Invalid argument",
  EBADF: "Bad file descriptor",
};

function errCode(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "";
}

function describe(e: unknown): string {
  return STRERROR[errCode(e)] ?? (e instanceof Error ? e.message : String(e));
}

/**
 * Reads every input before sorting, so -o may name an input. GNU checks that all inputs are
 * accessible first ("cannot read"), and only then reports failures of the read itself ("read failed").
 */
async function readInputs(ctx: CommandContext, files: string[]): Promise<Uint8Array[]> {
  let stdinRead = false;
  const results: (Uint8Array | { error: unknown; name: string })[] = [];
  for (const name of files) {
    if (name === "-") {
      // A second "-" finds stdin already at end of file.
      results.push(stdinRead ? new Uint8Array(0) : await ctx.readAllStdin());
      stdinRead = true;
      continue;
    }
    try {
      results.push(ctx.fs.readFile(name));
    } catch (error) {
      results.push({ error, name });
    }
  }
  const failures = results.filter((r): r is { error: unknown; name: string } => !(r instanceof Uint8Array));
  const accessCodes = ["ENOENT", "ENOTDIR", "EACCES", "EPERM", "ELOOP", "ENAMETOOLONG"];
  const access = failures.find((f) => accessCodes.includes(errCode(f.error)));
  if (access) throw new SortError(`sort: cannot read: ${access.name}: ${describe(access.error)}`);
  if (failures[0]) throw new SortError(`sort: read failed: ${failures[0].name}: ${describe(failures[0].error)}`);
  return results as Uint8Array[];
}

/** Splits on the terminator; a final unterminated line still counts, and empty input has no lines. */
function splitLines(data: Uint8Array, eol: string, into: string[]): void {
  if (data.length === 0) return;
  const text = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("latin1");
  const parts = text.split(eol);
  if (text.endsWith(eol)) parts.pop();
  for (const p of parts) into.push(p);
}

function bytes(s: string): Uint8Array {
  return Buffer.from(s, "latin1");
}

// ---------------------------------------------------------------------------------------------------

export const sort: CommandHandler = async (ctx) => {
  let opts: Options;
  try {
    opts = parseArgs(ctx.argv, ctx.env);
  } catch (e) {
    if (!(e instanceof SortError)) throw e;
    ctx.writeStderr(`${e.message}\n${e.tryHelp ? "Try 'sort --help' for more information.\n" : ""}`);
    return e.status;
  }
  try {
    return await run(ctx, opts);
  } catch (e) {
    if (e instanceof SortError) {
      ctx.writeStderr(`${e.message}\n`);
      return e.status;
    }
    throw e; // EPIPE included: the runtime ends the process with SIGPIPE

  }
};

async function run(ctx: CommandContext, o: Options): Promise<number> {
  const eol = o.zero ? "\0" : "\n";
  const files = o.files.length > 0 ? o.files : ["-"];
  const lines: string[] = [];
  for (const data of await readInputs(ctx, files)) splitLines(data, eol, lines);

  const plan = makePlan(o);
  if (o.check) {
    // Compare neighbours in input order; with -u equal neighbours are a disorder too.
    const items: unknown[] = o.keys.length === 0 ? lines : lines.map((line) => makeRec(line, o, plan));
    const limit = o.unique ? 0 : 1;
    for (let i = 1; i < items.length; i++) {
      if (plan.compare(items[i - 1], items[i]) >= limit) {
        if (o.check === "c") {
          ctx.writeStderr(bytes(`sort: ${files[0]}:${i + 1}: disorder: ${lines[i]}${eol}`));
        }
        return 1;
      }
    }
    return 0;
  }

  const sorted = sortLines(lines, o, plan);
  const out = sorted.length === 0 ? new Uint8Array(0) : bytes(sorted.join(eol) + eol);
  if (o.output !== null) {
    try {
      ctx.fs.writeFile(o.output, out);
    } catch (e) {
      throw new SortError(`sort: open failed: ${o.output}: ${describe(e)}`);
    }
  } else if (out.length > 0) {
    ctx.writeStdout(out);
  }
  return 0;
}

/** Sorts (and with -u deduplicates) the lines, taking the cheapest route the options allow. */
function sortLines(lines: string[], o: Options, plan: Plan): string[] {
  if (o.keys.length === 0) {
    // The built-in order of strings is code unit order, which is byte order here; equal lines are
    // identical, so reversing the ascending result is the same as sorting descending.
    lines.sort();
    if (o.global.reverse) lines.reverse();
    return uniq(lines, o.unique, plan.compare);
  }
  if (o.keys.length === 1 && plan.numberFirst) {
    const sorted = sortByNumber(lines, o, plan.parsers[0]!);
    if (sorted) return sorted;
  }
  const recs = lines.map((line) => makeRec(line, o, plan));
  recs.sort(plan.compare);
  return uniq(recs, o.unique, plan.compare).map((r) => r.line);
}

/**
 * Fast path for a single key whose values are all plain numbers (-n, -M): ranks the values with a
 * native typed-array sort and places the lines by a counting sort on rank, so there is no JavaScript
 * comparator call per comparison. Lines of equal value stay in input order, which is what -s wants;
 * -u keeps the first of them, and otherwise they get the last-resort (whole line) order.
 */
function sortByNumber(lines: string[], o: Options, parse: (t: string) => unknown): string[] | null {
  const n = lines.length;
  const k = o.keys[0]!;
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = parse(keyText(lines[i]!, k, o.tab));
    if (typeof v !== "number") return null; // a number too long for a double: use the exact comparator
    values[i] = v;
  }
  // The distinct values in ascending order.
  const distinct = values.slice().sort();
  let m = 0;
  for (let i = 0; i < n; i++) if (m === 0 || distinct[i] !== distinct[m - 1]) distinct[m++] = distinct[i]!;

  // Rank of each line (binary search), and where each rank's run starts in the output.
  const reverse = o.keys[0]!.reverse;
  const rank = new Int32Array(n);
  const start = new Int32Array(m + 1);
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    let lo = 0;
    let hi = m - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (distinct[mid]! < v) lo = mid + 1;
      else hi = mid;
    }
    const r = reverse ? m - 1 - lo : lo;
    rank[i] = r;
    start[r + 1]!++;
  }
  for (let r = 0; r < m; r++) start[r + 1]! += start[r]!;
  const placed = new Array<string>(n);
  const next = start.slice(0, m);
  for (let i = 0; i < n; i++) placed[next[rank[i]!]!++] = lines[i]!;

  if (o.unique) {
    const out = new Array<string>(m);
    for (let r = 0; r < m; r++) out[r] = placed[start[r]!]!;
    return out;
  }
  if (!o.stable) {
    for (let r = 0; r < m; r++) {
      const from = start[r]!;
      const to = start[r + 1]!;
      if (to - from < 2) continue;
      const run = placed.slice(from, to).sort(); // code unit order is byte order
      if (o.global.reverse) run.reverse();
      for (let j = 0; j < run.length; j++) placed[from + j] = run[j]!;
    }
  }
  return placed;
}

/** With -u, keeps the first line of each run that compares equal (keys only, no last-resort compare). */
function uniq<T>(items: T[], unique: boolean, compare: (a: T, b: T) => number): T[] {
  if (!unique || items.length === 0) return items;
  const out: T[] = [items[0]!];
  for (let i = 1; i < items.length; i++) {
    if (compare(out[out.length - 1]!, items[i]!) !== 0) out.push(items[i]!);
  }
  return out;
}

/** How lines are keyed and compared: one value parser and comparator per key. */
interface Plan {
  parsers: Array<(t: string) => unknown>;
  /** The first key compares as plain text, so its prefix can stand in for it. */
  textFirst: boolean;
  /** The first key's values are usually plain numbers (-n, -M), so sortByNumber() may apply. */
  numberFirst: boolean;
  /** Compares two lines (no keys) or two Recs. */
  compare: Cmp;
}

/**
 * Key comparisons in order, each possibly reversed; when all keys tie, GNU's last-resort comparison of
 * whole lines in byte order (reversed by a global -r), unless -s or -u asks to keep ties as ties.
 */
function makePlan(o: Options): Plan {
  const lastReverse = o.global.reverse;
  if (o.keys.length === 0) {
    return {
      parsers: [],
      textFirst: false,
      numberFirst: false,
      compare: lastReverse ? (a: string, b: string) => compareText(b, a) : compareText,
    };
  }
  const salt = (Math.random() * 0x100000000) >>> 0;
  const modes = o.keys.map((k) => keyMode(k, salt));
  const first = modes[0]!.cmp;
  const firstReverse = o.keys[0]!.reverse;
  const more = modes.slice(1).map((m) => m.cmp);
  const moreReverse = o.keys.slice(1).map((k) => k.reverse);
  const tiesStay = o.stable || o.unique;
  const compare = (a: Rec, b: Rec): number => {
    let d = a.keyPrefix !== b.keyPrefix ? (a.keyPrefix < b.keyPrefix ? -1 : 1) : first(a.key, b.key);
    if (d !== 0) return firstReverse ? -d : d;
    for (let i = 0; i < more.length; i++) {
      d = more[i]!(a.more[i], b.more[i]);
      if (d !== 0) return moreReverse[i] ? -d : d;
    }
    if (tiesStay) return 0;
    d = a.linePrefix !== b.linePrefix ? (a.linePrefix < b.linePrefix ? -1 : 1) : compareText(a.line, b.line);
    return lastReverse ? -d : d;
  };
  return {
    parsers: modes.map((m) => m.parse), compare, textFirst: first === compareText,
    numberFirst: first === compareDecimal || first === compareNumber,
  };
}

const NO_KEYS: unknown[] = [];

/** The text of key k in the line, after -d/-i/-f. */
function keyText(line: string, k: KeySpec, tab: number): string {
  const beg = begField(line, k, tab);
  const lim = limField(line, k, tab);
  // A key whose end lies before its start is empty.
  const text = lim > beg ? (beg === 0 && lim === line.length ? line : line.slice(beg, lim)) : "";
  return k.ignore || k.fold ? transformKey(text, k) : text;
}

/** Precomputes every key value of a line once, so sorting never re-parses. */
function makeRec(line: string, o: Options, { parsers, textFirst }: Plan): Rec {
  const n = o.keys.length;
  const more = n > 1 ? new Array<unknown>(n - 1) : NO_KEYS;
  let key: unknown;
  for (let i = 0; i < n; i++) {
    const value = parsers[i]!(keyText(line, o.keys[i]!, o.tab));
    if (i === 0) key = value;
    else more[i - 1] = value;
  }
  return { line, key, more, keyPrefix: textFirst ? prefixOf(key as string) : 0, linePrefix: prefixOf(line) };
}
