/**
 * Patterns of find's tests as JavaScript regular expressions: fnmatch(3) globs (-name, -path) and the GNU
 * regex syntaxes of -regextype (-regex), each anchored at both ends, as find matches the whole name.
 */

const CLASSES: Record<string, string> = {
  alpha: "a-zA-Z",
  digit: "0-9",
  alnum: "a-zA-Z0-9",
  upper: "A-Z",
  lower: "a-z",
  space: " \\t\\n\\r\\f\\v",
  blank: " \\t",
  punct: "!-\\/:-@\\[-`{-~",
  print: " -~",
  graph: "!-~",
  cntrl: "\\x00-\\x1f\\x7f",
  xdigit: "0-9A-Fa-f",
};

const escapeClassChar = (c: string): string => (/[\\\]\[^-]/.test(c) ? `\\${c}` : c);
const escapeChar = (c: string): string => (/[\\^$.*+?()[\]{}|/]/.test(c) ? `\\${c}` : c);

/**
 * A bracket expression starting at `p[i] === "["`: [JS class, index after it], or undefined when it does
 * not end (then `[` is an ordinary character). `negators` are the characters that negate after `[`;
 * `backslash` whether a backslash escapes the next character inside (fnmatch) or is itself (regex).
 */
function bracket(p: string, i: number, negators: string, backslash: boolean, classes = true): [string, number] | undefined {
  let j = i + 1;
  let negate = false;
  if (j < p.length && negators.includes(p[j]!)) {
    negate = true;
    j++;
  }
  let out = "";
  let first = true;
  for (;;) {
    if (j >= p.length) return undefined;
    let c = p[j]!;
    if (c === "]" && !first) break;
    first = false;
    if (classes && c === "[" && (p[j + 1] === ":" || p[j + 1] === "." || p[j + 1] === "=")) {
      const kind = p[j + 1]!;
      const end = p.indexOf(`${kind}]`, j + 2);
      if (end < 0) return undefined;
      const name = p.slice(j + 2, end);
      j = end + 2;
      if (kind === ":") {
        const cls = CLASSES[name];
        if (cls === undefined) return undefined;
        out += cls;
      } else out += [...name].map(escapeClassChar).join("");
      continue;
    }
    if (backslash && c === "\\" && j + 1 < p.length) c = p[++j]!;
    j++;
    // A range a-z (not when - is last).
    if (p[j] === "-" && j + 1 < p.length && p[j + 1] !== "]") {
      let hi = p[j + 1]!;
      j += 2;
      if (backslash && hi === "\\" && j < p.length) hi = p[j++]!;
      if (hi < c) {
        // An empty range matches nothing.
        continue;
      }
      out += `${escapeClassChar(c)}-${escapeClassChar(hi)}`;
      continue;
    }
    out += escapeClassChar(c);
  }
  if (out === "") return [negate ? "[^]" : "[]", j + 1];
  return [negate ? `[^${out}]` : `[${out}]`, j + 1];
}

/** fnmatch(3) without FNM_PATHNAME and FNM_PERIOD: `*` and `?` match `/` and a leading dot. */
export function globToRegExp(glob: string, ignoreCase: boolean): RegExp {
  let out = "^";
  for (let i = 0; i < glob.length; ) {
    const c = glob[i]!;
    if (c === "*") {
      while (glob[i] === "*") i++;
      out += "[^]*";
    } else if (c === "?") {
      out += "[^]";
      i++;
    } else if (c === "[") {
      const b = bracket(glob, i, "!^", true);
      if (b) {
        out += b[0];
        i = b[1];
      } else {
        out += "\\[";
        i++;
      }
    } else if (c === "\\" && i + 1 < glob.length) {
      out += escapeChar(glob[i + 1]!);
      i += 2;
    } else {
      out += escapeChar(c);
      i++;
    }
  }
  return new RegExp(`${out}$`, ignoreCase ? "i" : "");
}

/** A glob that is a plain `*suffix` (the common -name '*.txt'): the suffix, for a faster test. */
export function globSuffix(glob: string): string | undefined {
  return /^\*[^*?[\\]*$/.test(glob) ? glob.slice(1) : undefined;
}

/** A glob without special characters: the literal name. */
export function globLiteral(glob: string): string | undefined {
  return /^[^*?[\\]*$/.test(glob) ? glob : undefined;
}

export const REGEX_TYPES = [
  "findutils-default",
  "ed",
  "emacs",
  "gnu-awk",
  "grep",
  "posix-awk",
  "awk",
  "posix-basic",
  "posix-egrep",
  "egrep",
  "posix-extended",
  "posix-minimal-basic",
  "sed",
] as const;

type Flavour = "emacs" | "basic" | "extended";

const FLAVOURS: Record<string, Flavour> = {
  "findutils-default": "emacs",
  emacs: "emacs",
  ed: "basic",
  sed: "basic",
  grep: "basic",
  "posix-basic": "basic",
  "posix-minimal-basic": "basic",
  "gnu-awk": "extended",
  "posix-awk": "extended",
  awk: "extended",
  "posix-egrep": "extended",
  egrep: "extended",
  "posix-extended": "extended",
};

/**
 * A GNU regular expression of the given -regextype as a JavaScript one matching the whole string, or an
 * Error with regcomp's message.
 */
export function compileRegex(pattern: string, type: string, ignoreCase: boolean): RegExp | Error {
  const flavour = FLAVOURS[type] ?? "emacs";
  let out = "";
  let depth = 0;
  // Whether an operator here would have nothing to repeat (start of the pattern, a group or an alternative).
  let atStart = true;
  let quantified = false;
  for (let i = 0; i < pattern.length; ) {
    const c = pattern[i]!;
    const next = pattern[i + 1];
    const start = atStart;
    atStart = false;
    const wasQuantified = quantified;
    quantified = false;
    if (c === "\\") {
      if (next === undefined) return new Error("Trailing backslash");
      i += 2;
      if (flavour !== "extended" && next === "(") {
        out += "(?:";
        depth++;
        atStart = true;
      } else if (flavour !== "extended" && next === ")") {
        if (depth === 0) return new Error("Unmatched ) or \\)");
        out += ")";
        depth--;
      } else if (next === "|" && flavour !== "extended") {
        out += "|";
        atStart = true;
      } else if (flavour === "basic" && (next === "{" || next === "}")) {
        out += next;
      } else if (flavour === "basic" && (next === "+" || next === "?")) {
        out += next;
      } else if (next === "w" || next === "W" || next === "s" || next === "S" || next === "b" || next === "B") {
        out += `\\${next}`;
      } else if (next === "<" || next === ">") {
        out += "\\b";
      } else if (next === "`") {
        out += "^";
      } else if (next === "'") {
        out += "$";
      } else if (/[1-9]/.test(next)) {
        out += `\\${next}`;
      } else if (next === "n" && flavour === "extended") {
        out += "n";
      } else {
        out += escapeChar(next);
      }
      continue;
    }
    if (c === "[") {
      // Emacs syntax has no character classes: [[:upper:]] is a set of [, :, u, … followed by ].
      const b = bracket(pattern, i, "^", false, flavour !== "emacs");
      if (!b) return new Error("Unmatched [, [^, [:, [., or [=");
      out += b[0];
      i = b[1];
      continue;
    }
    i++;
    if (flavour === "extended" && c === "(") {
      out += "(?:";
      depth++;
      atStart = true;
    } else if (flavour === "extended" && c === ")") {
      if (depth === 0) out += "\\)";
      else {
        out += ")";
        depth--;
      }
    } else if (flavour === "extended" && c === "|") {
      out += "|";
      atStart = true;
    } else if (flavour === "extended" && c === "{") {
      const m = /^\{(\d*)(,?)(\d*)\}/.exec(pattern.slice(i - 1));
      if (m && !start && (m[1] !== "" || m[3] !== "")) {
        out += `{${m[1] || "0"}${m[2]}${m[3]}}`;
        i += m[0].length - 1;
      } else out += "\\{";
    } else if (c === "*" || ((c === "+" || c === "?") && flavour !== "basic")) {
      if (start) out += flavour === "extended" ? "" : escapeChar(c);
      else if (wasQuantified) {
        // GNU takes a** as a* (a repetition repeated); JavaScript would reject it.
      } else out += c;
      quantified = true;
      continue;
    } else if (c === "^") {
      out += start || flavour === "extended" ? "^" : "\\^";
      if (start) atStart = true;
    } else if (c === "$") {
      const end = i >= pattern.length || (flavour !== "extended" && (pattern.startsWith("\\)", i) || pattern.startsWith("\\|", i)));
      out += end || flavour === "extended" ? "$" : "\\$";
    } else if (c === ".") {
      out += flavour === "emacs" ? "[^\\n]" : "[^]";
    } else out += escapeChar(c);
  }
  if (depth > 0) return new Error("Unmatched ( or \\(");
  try {
    return new RegExp(`^(?:${out})$`, ignoreCase ? "i" : "");
  } catch (e) {
    return new Error((e as Error).message);
  }
}
