/**
 * --include, --exclude and --exclude-dir as GNU grep applies them (gnulib exclude.c with
 * EXCLUDE_WILDCARDS): fnmatch(3) without FNM_PATHNAME or FNM_PERIOD, so `*` matches `/` and leading
 * dots. A command-line name matches when the whole name or any suffix after a `/` does; a name met in
 * the recursion is its base name. The last option that matches decides; when none does, a file is
 * excluded only if the first option was --include.
 */

/** fnmatch(pattern) as an anchored RegExp. */
export function globRegExp(glob: string): RegExp {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") out += "[^]*";
    else if (c === "?") out += "[^]";
    else if (c === "\\" && i + 1 < glob.length) out += escape(glob[++i]!);
    else if (c === "[") {
      let j = i + 1;
      let negate = false;
      if (glob[j] === "!" || glob[j] === "^") {
        negate = true;
        j++;
      }
      let body = "";
      let first = true;
      let closed = false;
      for (; j < glob.length; j++) {
        const d = glob[j]!;
        if (d === "]" && !first) {
          closed = true;
          break;
        }
        first = false;
        if (d === "[" && glob[j + 1] === ":") {
          const end = glob.indexOf(":]", j + 2);
          if (end > 0) {
            body += classBody(glob.slice(j + 2, end));
            j = end + 1;
            continue;
          }
        }
        if (d === "\\" && j + 1 < glob.length) body += `\\${glob[++j]!}`;
        else body += "\\^[]".includes(d) ? `\\${d}` : d;
      }
      if (!closed) out += "\\[";
      else {
        out += `[${negate ? "^" : ""}${body}]`;
        i = j;
      }
    } else out += escape(c);
  }
  return new RegExp(`^(?:${out})$`, "u");
}

const escape = (c: string): string => (/[\\^$.*+?()[\]{}|/-]/.test(c) ? `\\${c}` : c);

function classBody(name: string): string {
  const classes: Record<string, string> = {
    alpha: "A-Za-z",
    digit: "0-9",
    alnum: "A-Za-z0-9",
    upper: "A-Z",
    lower: "a-z",
    space: " \\t\\n\\v\\f\\r",
    blank: " \\t",
    punct: "!-\\/:-@\\[-`{-~",
    xdigit: "0-9A-Fa-f",
    print: " -~",
    graph: "!-~",
    cntrl: "\\x00-\\x1f\\x7f",
  };
  return classes[name] ?? "";
}

export interface ExcludeRule {
  re: RegExp;
  include: boolean;
}

/** Whether `name` is excluded; `commandLine`: also try each suffix that follows a `/`. */
export function excluded(rules: readonly ExcludeRule[], name: string, commandLine: boolean): boolean {
  if (rules.length === 0) return false;
  const matches = (re: RegExp): boolean => {
    if (re.test(name)) return true;
    if (!commandLine) return false;
    for (let i = 0; i < name.length; i++) if (name[i] === "/" && name[i + 1] !== "/" && i + 1 < name.length && re.test(name.slice(i + 1))) return true;
    return false;
  };
  for (let k = rules.length - 1; k >= 0; k--) if (matches(rules[k]!.re)) return !rules[k]!.include;
  return rules[0]!.include;
}
