import { isUtf8 } from "node:buffer";
import { escapeFixed, RegexSyntaxError, translate, wordClass } from "./regex.js";

/**
 * The matchers: the patterns compiled once per text model into one global RegExp that scans a whole
 * buffer (or a plain indexOf for one literal string), and the search of one buffer with grep's output.
 */

export interface MatchOptions {
  mode: "G" | "E" | "F" | "P";
  patterns: Buffer[];
  icase: boolean;
  word: boolean;
  line: boolean;
  eol: "\n" | "\0";
  /** The locale's charset is UTF-8. */
  utf8: boolean;
}

export type Model = "bytes" | "unicode" | "utf8bytes";

/** Finds the leftmost match at or after `from`: [start, end], or undefined. */
export interface Matcher {
  exec(text: string, from: number): [number, number] | undefined;
  /** The longest match among the top-level alternatives that start at `start` (for -o). */
  longest(text: string, start: number, end: number): number;
}

export class PatternError extends Error {}

const LITERAL_SAFE = /^[A-Za-z0-9 _,;:'"=<>@#%&~!/-]+$/;

export function compile(o: MatchOptions, model: Model, warn: (m: string) => void): Matcher {
  const unicode = model === "unicode";
  const texts = o.patterns.map((p) => (unicode ? p.toString("utf8") : p.toString("latin1")));
  const E = o.eol === "\n" ? "\\n" : "\\x00";
  const anyHigh = texts.some((t) => /[^\x00-\x7f]/.test(t));
  const foldAscii = o.icase && !unicode && anyHigh;
  const flagI = o.icase && !foldAscii;
  if (o.mode === "P") return perlMatcher(o, texts[0] ?? "", unicode);

  // One literal: indexOf.
  if (texts.length === 1 && !o.word && !o.line && texts[0] !== "" && (o.mode === "F" || LITERAL_SAFE.test(texts[0]!)) && !texts[0]!.includes(o.eol)) {
    if (!o.icase || !/[A-Za-z]/.test(texts[0]!)) return literalMatcher(texts[0]!);
  }

  const sources: string[] = [];
  const branches: string[] = [];
  let groupBase = 0;
  const wrap = (src: string): string => {
    if (o.line) return `(?<![^${E}])(?:${src})(?![^${E}])`;
    if (o.word) {
      const W = wordClass(unicode);
      return `(?<![${W}])(?:${src})(?![${W}])`;
    }
    return src;
  };
  const ordered = o.mode === "F" ? [...texts].sort((a, b) => b.length - a.length) : texts;
  for (const t of ordered) {
    if (o.mode === "F") {
      const src = wrap(escapeFixed(t, foldAscii));
      sources.push(src);
      branches.push(src);
      continue;
    }
    const tr = translate(t, { extended: o.mode === "E", unicode, utf8Bytes: model === "utf8bytes", eol: o.eol, foldAscii, groupBase }, warn);
    groupBase += tr.groups;
    sources.push(wrap(tr.source));
    if (tr.groups === 0) for (const b of tr.branches.length > 0 ? tr.branches : [tr.source]) branches.push(wrap(b));
  }
  const flags = `${unicode ? "u" : ""}${flagI ? "i" : ""}`;
  let re: RegExp;
  try {
    re = new RegExp(sources.length === 0 ? "(?!)" : sources.join("|"), `g${flags}`);
  } catch (e) {
    throw new PatternError((e as Error).message);
  }
  const sticky = branches.length > 1 ? branches.map((b) => new RegExp(b, `y${flags}`)) : [];
  return {
    exec(text, from) {
      re.lastIndex = from;
      const m = re.exec(text);
      return m ? [m.index, m.index + m[0].length] : undefined;
    },
    longest(text, start, end) {
      for (const b of sticky) {
        b.lastIndex = start;
        const m = b.exec(text);
        if (m && start + m[0].length > end) end = start + m[0].length;
      }
      return end;
    },
  };
}

function literalMatcher(lit: string): Matcher {
  return {
    exec(text, from) {
      const i = text.indexOf(lit, from);
      return i < 0 ? undefined : [i, i + lit.length];
    },
    longest: (_t, _s, end) => end,
  };
}

/** -P: a JavaScript RegExp (close to PCRE for the usual patterns), run on each line by itself. */
function perlMatcher(o: MatchOptions, pattern: string, unicode: boolean): Matcher {
  let src = pattern;
  // PCRE's \K (keep what precedes out of the match), as a lookbehind: the usual `prefix\Kpart`.
  const k = /^((?:[^\\]|\\[^K])*)\\K(.*)$/s.exec(src);
  if (k && !/\\K/.test(k[2]!)) src = `(?<=${k[1]})${k[2]}`;
  if (o.line) src = `^(?:${src})$`;
  else if (o.word) src = `(?<![\\p{L}\\p{N}_])(?:${src})(?![\\p{L}\\p{N}_])`;
  let re: RegExp;
  try {
    re = new RegExp(src, `g${unicode || o.word ? "u" : ""}${o.icase ? "i" : ""}`);
  } catch (e) {
    const message = (e as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, "");
    throw new PatternError(PCRE_MESSAGES[message] ?? message);
  }
  return {
    exec(text, from) {
      let lineStart = from === 0 ? 0 : text.lastIndexOf(o.eol, from - 1) + 1;
      while (lineStart <= text.length) {
        let lineEnd = text.indexOf(o.eol, lineStart);
        if (lineEnd < 0) lineEnd = text.length;
        const line = text.slice(lineStart, lineEnd);
        re.lastIndex = Math.max(0, from - lineStart);
        const m = re.exec(line);
        if (m) return [lineStart + m.index, lineStart + m.index + m[0].length];
        if (lineEnd >= text.length) return undefined;
        lineStart = lineEnd + 1;
      }
      return undefined;
    },
    longest: (_t, _s, end) => end,
  };
}

/** V8's messages for the usual mistakes, as PCRE2 words them. */
const PCRE_MESSAGES: Record<string, string> = {
  "Unterminated group": "missing closing parenthesis",
  "Unmatched ')'": "unmatched closing parenthesis",
  "Nothing to repeat": "quantifier does not follow a repeatable item",
  "Unterminated character class": "missing terminating ] for character class",
  "\\ at end of pattern": "\\ at end of pattern",
};

export { isUtf8, RegexSyntaxError };
