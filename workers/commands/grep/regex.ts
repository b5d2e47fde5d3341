/**
 * POSIX basic and extended regular expressions (with GNU's extensions, as GNU grep 3.8 reads them)
 * translated to JavaScript RegExp source, with glibc's and dfa.c's messages for the errors.
 *
 * The translation matches within one line of a whole buffer: nothing it produces matches the line
 * terminator (`eol`), so one global RegExp can scan a whole file. `^` and `$` become lookarounds on
 * `eol`, `.` and negated brackets exclude it. Matching is JavaScript's leftmost-first, not POSIX's
 * leftmost-longest: the same lines match, but -o may print a shorter part where an alternation's earlier
 * branch is a prefix of a later one (grep.ts tries the top-level branches one by one to cover the common
 * `a|ab` case).
 *
 * Two text models: "bytes" (a latin1 string, one char per byte: the C locale, and ASCII files in a UTF-8
 * locale) and "unicode" (UTF-8 decoded, the `u` flag: non-ASCII files in a UTF-8 locale).
 */

export class RegexSyntaxError extends Error {}

export interface TranslateOptions {
  extended: boolean;
  /** The `u` flag model (decoded UTF-8 text). */
  unicode: boolean;
  /** In "bytes" model of a UTF-8 locale: `.` matches one UTF-8 sequence. */
  utf8Bytes: boolean;
  eol: "\n" | "\0";
  /** Case folding by hand (the `i` flag would fold latin1 letters, which the C locale does not). */
  foldAscii: boolean;
  /** Capture groups of the patterns before this one, for back-references. */
  groupBase: number;
}

export interface Translated {
  source: string;
  groups: number;
  /** Top-level alternatives (sources), when the pattern has more than one. */
  branches: string[];
}

const RE_DUP_MAX = 32767;

const hex = (c: number): string => (c < 0x100 ? `\\x${c.toString(16).padStart(2, "0")}` : c < 0x10000 ? `\\u${c.toString(16).padStart(4, "0")}` : `\\u{${c.toString(16)}}`);

/** A char as an atom outside brackets. */
function literal(c: number): string {
  if (c < 0x20 || c === 0x7f || (c >= 0x80 && c < 0xa0)) return hex(c);
  const s = String.fromCodePoint(c);
  return "^$\\.*+?()[]{}|/".includes(s) ? `\\${s}` : s;
}

/** A char inside a JS class. */
function classChar(c: number): string {
  if (c < 0x20 || c === 0x7f || (c >= 0x80 && c < 0xa0)) return hex(c);
  const s = String.fromCodePoint(c);
  return "\\]^-[".includes(s) ? `\\${s}` : s;
}

type Range = [number, number];

const ASCII_CLASSES: Record<string, Range[]> = {
  alpha: [[65, 90], [97, 122]],
  upper: [[65, 90]],
  lower: [[97, 122]],
  digit: [[48, 57]],
  alnum: [[48, 57], [65, 90], [97, 122]],
  xdigit: [[48, 57], [65, 70], [97, 102]],
  space: [[9, 13], [32, 32]],
  blank: [[9, 9], [32, 32]],
  punct: [[33, 47], [58, 64], [91, 96], [123, 126]],
  print: [[32, 126]],
  graph: [[33, 126]],
  cntrl: [[0, 31], [127, 127]],
};

/** glibc's classes beyond ASCII in a UTF-8 locale, approximately, as JS class contents. */
const UNICODE_EXTRA: Record<string, string> = {
  alpha: "\\p{Alphabetic}",
  upper: "\\p{Lu}",
  lower: "\\p{Ll}",
  digit: "",
  alnum: "\\p{Alphabetic}\\p{Nd}",
  xdigit: "",
  space: "\\u1680\\u2000-\\u2006\\u2008-\\u200a\\u2028\\u2029\\u205f\\u3000",
  blank: "\\u1680\\u2000-\\u2006\\u2008-\\u200a\\u205f\\u3000",
  punct: "\\p{P}\\p{S}",
  print: "\\p{L}\\p{M}\\p{N}\\p{P}\\p{S}\\p{Zs}",
  graph: "\\p{L}\\p{M}\\p{N}\\p{P}\\p{S}",
  cntrl: "\\x80-\\x9f",
};

const UTF8_CHAR = "(?:[\\x00-\\x7f]|[\\xc2-\\xdf][\\x80-\\xbf]|[\\xe0-\\xef][\\x80-\\xbf]{2}|[\\xf0-\\xf4][\\x80-\\xbf]{3})";

/** The word constituents as JS class contents. */
export function wordClass(unicode: boolean): string {
  return unicode ? "\\p{Alphabetic}\\p{Nd}\\p{Mn}_" : "A-Za-z0-9_";
}

/** Removes `eol` from ranges (it never belongs to a line). */
function withoutEol(ranges: Range[], eol: number): Range[] {
  const out: Range[] = [];
  for (const [lo, hi] of ranges) {
    if (eol < lo || eol > hi) out.push([lo, hi]);
    else {
      if (lo < eol) out.push([lo, eol - 1]);
      if (eol < hi) out.push([eol + 1, hi]);
    }
  }
  return out;
}

function foldRanges(ranges: Range[]): Range[] {
  const extra: Range[] = [];
  for (const [lo, hi] of ranges) {
    for (let c = Math.max(lo, 65); c <= Math.min(hi, 90); c++) extra.push([c + 32, c + 32]);
    for (let c = Math.max(lo, 97); c <= Math.min(hi, 122); c++) extra.push([c - 32, c - 32]);
  }
  return ranges.concat(extra);
}

const rangeSource = (ranges: Range[]): string => ranges.map(([lo, hi]) => (lo === hi ? classChar(lo) : `${classChar(lo)}-${classChar(hi)}`)).join("");

export function translate(pattern: string, o: TranslateOptions, warn: (message: string) => void): Translated {
  const chars = Array.from(pattern, (c) => c.codePointAt(0)!);
  const eolCode = o.eol.charCodeAt(0);
  const E = o.eol === "\n" ? "\\n" : "\\x00";
  const W = wordClass(o.unicode);
  const BOL = `(?<![^${E}])`;
  const EOL = `(?![^${E}])`;
  const spaceRanges = withoutEol(ASCII_CLASSES.space!, eolCode);
  const SPACE = rangeSource(spaceRanges) + (o.unicode ? UNICODE_EXTRA.space : "");
  const n = chars.length;

  let out = "";
  /** Where the last atom starts in `out`, -1 when there is none (start of an expression). */
  let atom = -1;
  /** The last atom is quantified or zero-width: a quantifier must wrap it. */
  let wrapNeeded = false;
  /** At the start of an expression: BRE's `*` is literal, ERE's is dropped with a warning. */
  let atStart = true;
  let groups = 0;
  const completed = new Set<number>();
  const stack: Array<{ at: number; number: number }> = [];
  const topBranches: number[] = [0];
  let topBranchStart = 0;

  const emitAtom = (src: string, zeroWidth = false): void => {
    atom = out.length;
    out += src;
    wrapNeeded = zeroWidth;
    atStart = false;
  };
  const emitChar = (c: number): void => {
    if (o.foldAscii && ((c >= 65 && c <= 90) || (c >= 97 && c <= 122))) {
      const lower = c | 0x20;
      emitAtom(`[${String.fromCharCode(lower)}${String.fromCharCode(lower - 32)}]`);
    } else emitAtom(literal(c));
  };
  const quantify = (q: string): void => {
    if (wrapNeeded) out = `${out.slice(0, atom)}(?:${out.slice(atom)})`;
    out += q;
    wrapNeeded = true;
  };

  /** Parses `{m,n}` from index i (after the brace); answers the quantifier and the next index, or undefined. */
  const interval = (i: number, bre: boolean): { q: string; next: number } | "invalid" | "unterminated" => {
    let j = i;
    let min = "";
    let max: string | undefined;
    while (j < n && chars[j]! >= 48 && chars[j]! <= 57) min += String.fromCharCode(chars[j++]!);
    if (j < n && chars[j] === 44) {
      j++;
      max = "";
      while (j < n && chars[j]! >= 48 && chars[j]! <= 57) max += String.fromCharCode(chars[j++]!);
    } else max = min;
    if (bre) {
      if (j >= n) return "unterminated";
      if (chars[j] !== 92 || chars[j + 1] !== 125) return j + 1 >= n && chars[j] === 92 ? "unterminated" : "invalid";
      j += 2;
    } else {
      if (j >= n || chars[j] !== 125) return "invalid";
      j++;
    }
    if (min === "" && max === "" && !bre && chars[i] !== 44) return "invalid";
    const lo = min === "" ? 0 : Number(min);
    const hi = max === "" ? Infinity : Number(max);
    if (lo > RE_DUP_MAX || (hi !== Infinity && hi > RE_DUP_MAX)) throw new RegexSyntaxError("Regular expression too big");
    if (hi < lo) throw new RegexSyntaxError("Invalid content of \\{\\}");
    return { q: hi === Infinity ? `{${lo},}` : lo === hi ? `{${lo}}` : `{${lo},${hi}}`, next: j };
  };

  const bracket = (start: number): number => {
    // `start` is the index after `[`.
    let i = start;
    if (i >= n) throw new RegexSyntaxError("Invalid regular expression");
    const unmatched = (): RegexSyntaxError => new RegexSyntaxError("Unmatched [, [^, [:, [., or [=");
    let negate = false;
    if (chars[i] === 94) {
      negate = true;
      i++;
    }
    const contentStart = i;
    let ranges: Range[] = [];
    let classes = "";
    const classNames: string[] = [];
    let first = true;
    const element = (): number | undefined => {
      // A single char, `[.c.]` or `[=c=]`; undefined for `[:class:]` (handled by the caller).
      const c = chars[i]!;
      if (c === 91 && (chars[i + 1] === 46 || chars[i + 1] === 61)) {
        const kind = chars[i + 1]!;
        let j = i + 2;
        while (j + 1 < n && !(chars[j] === kind && chars[j + 1] === 93)) j++;
        if (j + 1 >= n) throw unmatched();
        const inner = chars.slice(i + 2, j);
        if (inner.length !== 1) throw new RegexSyntaxError("Invalid collation character");
        i = j + 2;
        return inner[0]!;
      }
      i++;
      return c;
    };
    for (;;) {
      if (i >= n) throw unmatched();
      const c = chars[i]!;
      if (c === 93 && !first) {
        i++;
        break;
      }
      first = false;
      if (c === 91 && chars[i + 1] === 58) {
        let j = i + 2;
        while (j + 1 < n && !(chars[j] === 58 && chars[j + 1] === 93)) j++;
        if (j + 1 >= n) throw unmatched();
        const name = String.fromCodePoint(...chars.slice(i + 2, j));
        const cls = ASCII_CLASSES[name];
        if (!cls) throw new RegexSyntaxError("Invalid character class name");
        classNames.push(name);
        i = j + 2;
        continue;
      }
      const lo = element()!;
      if (chars[i] === 45 && i + 1 < n && chars[i + 1] !== 93) {
        i++;
        const hi = element()!;
        if (hi < lo) throw new RegexSyntaxError("Invalid range end");
        ranges.push([lo, hi]);
      } else ranges.push([lo, lo]);
    }
    const content = chars.slice(contentStart, i - 1);
    if (content.length >= 2 && content[0] === 58 && content[content.length - 1] === 58)
      throw new RegexSyntaxError("character class syntax is [[:space:]], not [:space:]");
    for (const name of classNames) {
      const fold = o.foldAscii && (name === "upper" || name === "lower") ? ASCII_CLASSES.alpha! : ASCII_CLASSES[name]!;
      ranges = ranges.concat(fold);
      if (o.unicode) classes += UNICODE_EXTRA[name];
    }
    if (o.foldAscii) ranges = foldRanges(ranges);
    ranges = withoutEol(ranges, eolCode);
    const body = rangeSource(ranges) + classes;
    if (negate) emitAtom(`[^${body}${E}]`);
    else emitAtom(body === "" ? "[]" : `[${body}]`);
    return i;
  };

  for (let i = 0; i < n; ) {
    const c = chars[i]!;
    const next = chars[i + 1];
    if (c === 92) {
      if (next === undefined) throw new RegexSyntaxError("Trailing backslash");
      i += 2;
      if (!o.extended && next === 40) {
        stack.push({ at: out.length, number: ++groups });
        out += "(";
        atom = -1;
        atStart = true;
        continue;
      }
      if (!o.extended && next === 41) {
        const g = stack.pop();
        if (!g) throw new RegexSyntaxError("Unmatched ) or \\)");
        out += ")";
        completed.add(g.number);
        atom = g.at;
        wrapNeeded = false;
        atStart = false;
        continue;
      }
      if (!o.extended && next === 124) {
        if (stack.length === 0) topBranches.push(out.length + 1);
        out += "|";
        atom = -1;
        atStart = true;
        continue;
      }
      if (!o.extended && next === 123) {
        if (atom < 0) {
          emitChar(123);
          continue;
        }
        const r = interval(i, true);
        if (r === "unterminated") throw new RegexSyntaxError("Unmatched \\{");
        if (r === "invalid") throw new RegexSyntaxError("Invalid content of \\{\\}");
        quantify(r.q);
        i = r.next;
        continue;
      }
      if (!o.extended && (next === 43 || next === 63)) {
        if (atom < 0) emitChar(next);
        else quantify(next === 43 ? "+" : "?");
        continue;
      }
      if (next >= 49 && next <= 57) {
        const k = next - 48;
        if (!completed.has(k)) throw new RegexSyntaxError("Invalid back reference");
        emitAtom(`(?:\\${k + o.groupBase})`);
        continue;
      }
      switch (next) {
        case 60: // \<
          emitAtom(`(?<![${W}])(?=[${W}])`, true);
          continue;
        case 62: // \>
          emitAtom(`(?<=[${W}])(?![${W}])`, true);
          continue;
        case 98: // \b
          emitAtom(o.unicode ? `(?:(?<![${W}])(?=[${W}])|(?<=[${W}])(?![${W}]))` : "\\b", true);
          continue;
        case 66: // \B
          emitAtom(o.unicode ? `(?:(?<=[${W}])(?=[${W}])|(?<![${W}])(?![${W}]))` : "\\B", true);
          continue;
        case 119: // \w
          emitAtom(`[${W}]`);
          continue;
        case 87: // \W
          emitAtom(`[^${W}${E}]`);
          continue;
        case 115: // \s
          emitAtom(`[${SPACE}]`);
          continue;
        case 83: // \S
          emitAtom(`[^${SPACE}${E}]`);
          continue;
        case 96: // \`
          emitAtom(BOL, true);
          continue;
        case 39: // \'
          emitAtom(EOL, true);
          continue;
        default:
          emitChar(next);
          continue;
      }
    }
    if (o.extended && c === 40) {
      stack.push({ at: out.length, number: ++groups });
      out += "(";
      atom = -1;
      atStart = true;
      i++;
      continue;
    }
    if (o.extended && c === 41) {
      const g = stack.pop();
      i++;
      if (!g) {
        emitChar(41);
        continue;
      }
      out += ")";
      completed.add(g.number);
      atom = g.at;
      wrapNeeded = false;
      atStart = false;
      continue;
    }
    if (o.extended && c === 124) {
      if (stack.length === 0) topBranches.push(out.length + 1);
      out += "|";
      atom = -1;
      atStart = true;
      i++;
      continue;
    }
    if (c === 42 || (o.extended && (c === 43 || c === 63))) {
      i++;
      if (atom < 0) {
        if (!o.extended) emitChar(c);
        else if (atStart) warn(`${String.fromCharCode(c)} at start of expression`);
        continue;
      }
      quantify(c === 42 ? "*" : c === 43 ? "+" : "?");
      continue;
    }
    if (o.extended && c === 123) {
      if (atom < 0) {
        const r = interval(i + 1, false);
        if (r !== "invalid" && r !== "unterminated") {
          warn("{...} at start of expression");
          i++;
          continue;
        }
        emitChar(c);
        i++;
        continue;
      }
      const r = interval(i + 1, false);
      if (r === "invalid" || r === "unterminated") {
        emitChar(c);
        i++;
        continue;
      }
      quantify(r.q);
      i = r.next;
      continue;
    }
    if (c === 94) {
      // BRE: an anchor only at the start of an expression.
      if (o.extended || atStart) {
        // A quantifier right after it applies to nothing: BRE's `*` is literal there, ERE's is dropped.
        emitAtom(BOL, true);
        atom = -1;
        atStart = true;
      } else emitChar(c);
      i++;
      continue;
    }
    if (c === 36) {
      const anchor = o.extended || i + 1 === n || (next === 92 && (chars[i + 2] === 41 || chars[i + 2] === 124));
      if (anchor) emitAtom(EOL, true);
      else emitChar(c);
      i++;
      continue;
    }
    if (c === 46) {
      emitAtom(o.utf8Bytes ? `(?!${E})${UTF8_CHAR}` : `[^${E}]`);
      i++;
      continue;
    }
    if (c === 91) {
      i = bracket(i + 1);
      continue;
    }
    emitChar(c);
    i++;
  }
  if (stack.length > 0) throw new RegexSyntaxError("Unmatched ( or \\(");
  const branches: string[] = [];
  if (topBranches.length > 1) {
    for (let b = 0; b < topBranches.length; b++) branches.push(out.slice(topBranches[b]!, b + 1 < topBranches.length ? topBranches[b + 1]! - 1 : out.length));
  }
  return { source: out, groups, branches };
}

/** A fixed string as RegExp source. */
export function escapeFixed(text: string, foldAscii: boolean): string {
  let out = "";
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (foldAscii && ((c >= 65 && c <= 90) || (c >= 97 && c <= 122))) {
      const lower = c | 0x20;
      out += `[${String.fromCharCode(lower)}${String.fromCharCode(lower - 32)}]`;
    } else out += literal(c);
  }
  return out;
}
