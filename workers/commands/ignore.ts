import type { System } from "../system.js";

/**
 * Glob patterns and ignore files as fd (the `ignore` and `globset` crates) and `tree --gitignore` read
 * them: gitignore syntax (negation, a trailing `/` for directories only, a `/` that anchors, `**`).
 */

/**
 * A glob as a regular expression source: `*` and `?` match no `/` when `slashSeparates` (gitignore),
 * otherwise any character (globset's default, what fd's `--glob` uses).
 */
export function globSource(glob: string, slashSeparates: boolean): string {
  const any = slashSeparates ? "[^/]" : ".";
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        const atStart = i === 0 || glob[i - 1] === "/";
        const atEnd = i + 2 === glob.length || glob[i + 2] === "/";
        if (atStart && atEnd) {
          // `**/` any leading directories, `/**` anything below, `a/**/b` zero or more directories.
          if (i + 2 === glob.length) out += ".*";
          else {
            out += "(?:.*/)?";
            i++;
          }
          i++;
          continue;
        }
      }
      out += `${any}*`;
    } else if (c === "?") out += any;
    else if (c === "[") {
      const close = glob.indexOf("]", i + 2);
      if (close < 0) out += "\\[";
      else {
        let body = glob.slice(i + 1, close);
        if (body.startsWith("!")) body = `^${body.slice(1)}`;
        out += `[${body.replace(/\\/g, "\\\\")}]`;
        i = close;
      }
    } else if (c === "\\" && i + 1 < glob.length) out += `\\${glob[++i]}`.replace(/^\\([A-Za-z0-9])$/, "$1");
    else out += /[.+^${}()|\\/]/.test(c) ? `\\${c}` : c;
  }
  return out;
}

interface Rule {
  regex: RegExp;
  negate: boolean;
  dirOnly: boolean;
  /** Matched against the path relative to the file's directory, else against the name alone. */
  anchored: boolean;
}

/** The rules of one ignore file (gitignore syntax). */
export function parseIgnore(text: string): Rule[] {
  const rules: Rule[] = [];
  for (let line of text.split(/\r?\n/)) {
    if (line === "" || line.startsWith("#")) continue;
    line = line.replace(/(?<!\\)\s+$/, "");
    let negate = false;
    if (line.startsWith("!")) [negate, line] = [true, line.slice(1)];
    else if (line.startsWith("\\!") || line.startsWith("\\#")) line = line.slice(1);
    const dirOnly = line.endsWith("/");
    if (dirOnly) line = line.replace(/\/+$/, "");
    if (line === "") continue;
    const anchored = line.includes("/");
    if (line.startsWith("/")) line = line.slice(1);
    rules.push({ regex: new RegExp(`^${globSource(line, true)}$`), negate, dirOnly, anchored });
  }
  return rules;
}

/** Whether the last rule that matches ignores (true), keeps (false, a `!` rule) or says nothing (undefined). */
export function matchRules(rules: readonly Rule[], relPath: string, isDir: boolean): boolean | undefined {
  const name = relPath.slice(relPath.lastIndexOf("/") + 1);
  for (let i = rules.length - 1; i >= 0; i--) {
    const r = rules[i]!;
    if (r.dirOnly && !isDir) continue;
    if (r.regex.test(r.anchored ? relPath : name)) return !r.negate;
  }
  return undefined;
}

/** The ignore files of one directory, most important first. */
interface Level {
  dir: string;
  files: Rule[][];
}

/**
 * The ignore files in force at a directory, the deepest first: each directory's `.fdignore`, `.ignore`
 * and (in a git repository, one with `.git` here or above) `.gitignore`, and `.git/info/exclude` at the
 * repository's top, as the `ignore` crate reads them. A directory's own rules decide before its parents'.
 */
export class IgnoreStack {
  private constructor(
    private readonly sys: System,
    private readonly names: readonly string[],
    private readonly levels: readonly Level[],
    private readonly inGit: boolean,
  ) {}

  /**
   * The stack for a search starting at `root` (absolute, normalised): the ignore files of its ancestors
   * count too. `names` are the per-directory files always read; `vcs` adds the git ones in a repository.
   */
  static at(sys: System, root: string, names: readonly string[], vcs: boolean): IgnoreStack {
    const ancestors: string[] = [];
    for (let d = root; ; d = d.slice(0, d.lastIndexOf("/")) || "/") {
      ancestors.unshift(d);
      if (d === "/") break;
    }
    const isDir = (p: string): boolean => {
      try {
        return sys.stat(p).kind === "dir";
      } catch {
        return false;
      }
    };
    const gitTop = vcs ? [...ancestors].reverse().find((d) => isDir(`${d === "/" ? "" : d}/.git`)) : undefined;
    let stack = new IgnoreStack(sys, names, [], gitTop !== undefined);
    if (gitTop !== undefined) {
      const exclude = stack.read(`${gitTop === "/" ? "" : gitTop}/.git/info/exclude`);
      if (exclude) stack = new IgnoreStack(sys, names, [{ dir: gitTop, files: [exclude] }], true);
    }
    // Above the git repository only .ignore-like files count (git stops at its top).
    for (const d of ancestors) stack = stack.enter(d, gitTop === undefined || d.length >= gitTop.length);
    return stack;
  }

  private read(path: string): Rule[] | undefined {
    try {
      const rules = parseIgnore(Buffer.from(this.sys.readFile(path)).toString("utf8"));
      return rules.length > 0 ? rules : undefined;
    } catch {
      return undefined;
    }
  }

  /** The stack inside directory `dir` (absolute): its own ignore files on top. */
  enter(dir: string, withGit = true): IgnoreStack {
    const files: Rule[][] = [];
    for (const name of this.inGit && withGit ? [...this.names, ".gitignore"] : this.names) {
      const rules = this.read(`${dir === "/" ? "" : dir}/${name}`);
      if (rules) files.push(rules);
    }
    return files.length === 0 ? this : new IgnoreStack(this.sys, this.names, [{ dir, files }, ...this.levels], this.inGit);
  }

  /** Whether `path` (absolute) is ignored. */
  ignored(path: string, isDir: boolean): boolean {
    for (const level of this.levels) {
      const prefix = level.dir === "/" ? "/" : `${level.dir}/`;
      if (!path.startsWith(prefix)) continue;
      const rel = path.slice(prefix.length);
      for (const rules of level.files) {
        const verdict = matchRules(rules, rel, isDir);
        if (verdict !== undefined) return verdict;
      }
    }
    return false;
  }
}
