/** The orderings: each parses a key text once into a value, and compares two values. */
import { isBlank } from "./fields.js";
import type { KeySpec } from "./options.js";

/** Each mode compares its own value type; the plan pairs every comparator with its own parser. */
export type Cmp = (a: any, b: any) => number;

/** Byte order, since each code unit is one byte. Testing equality first saves a second full scan. */
export function compareText(a: string, b: string): number {
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

export function compareDecimal(a: Decimal, b: Decimal): number {
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

export function compareNumber(a: number, b: number): number {
  return a - b;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isAlpha(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/**
 * Length of s without its file suffix, the longest match of (\.[A-Za-z~][A-Za-z0-9~]*)*$, as the gnulib of
 * GNU coreutils 9.1 cuts it: a name that is all suffix (`.x`, `.bashrc`) has an empty prefix. (Later
 * gnulib keeps the first character in the prefix.)
 */
function filePrefixLen(s: string): number {
  const n = s.length;
  let prefixLen = 0;
  for (let i = 0; ; ) {
    while (i + 1 < n && s.charCodeAt(i) === 46 && (isAlpha(s.charCodeAt(i + 1)) || s.charCodeAt(i + 1) === 126)) {
      for (i += 2; i < n && (isAlpha(s.charCodeAt(i)) || isDigit(s.charCodeAt(i)) || s.charCodeAt(i) === 126); i++);
    }
    if (i >= n) return prefixLen;
    i++;
    prefixLen = i;
  }
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
export function keyMode(k: KeySpec, salt: number): { parse: (t: string) => unknown; cmp: Cmp } {
  if (k.numeric) return { parse: parseDecimal, cmp: compareDecimal };
  if (k.general) return { parse: parseGeneral, cmp: compareGeneral };
  if (k.human) return { parse: parseHuman, cmp: compareHuman };
  if (k.month) return { parse: parseMonth, cmp: compareNumber };
  if (k.version) return { parse: (t) => t, cmp: compareVersion };
  if (k.random) return { parse: (t) => randomKey(t, salt), cmp: compareRandom };
  return { parse: (t) => t, cmp: compareText };
}

