import { modeString } from "../../src/gnu/mode-change.js";
import type { ScriptProcess } from "../script-host.js";
import type { Stat } from "../system.js";
import { globSource, IgnoreStack } from "./ignore.js";
import { versionText } from "../../src/gnu/version.js";

const USAGE = `usage: tree [-acdfghilnpqrstuvxACDFJQNSUX] [-L level [-R]] [-H  baseHREF]
	[-T title] [-o filename] [-P pattern] [-I pattern] [--gitignore]
	[--gitfile[=]file] [--matchdirs] [--metafirst] [--ignore-case]
	[--nolinks] [--inodes] [--device] [--sort[=]name] [--dirsfirst]
	[--filesfirst] [--filelimit #] [--si] [--du] [--prune] [--charset X]
	[--timefmt[=]format] [--fromfile] [--fflinks] [--info] [--infofile[=]file]
	[--noreport] [--version] [--help] [--] [directory ...]
`;

interface Options {
  all: boolean;
  dirsOnly: boolean;
  follow: boolean;
  fullPath: boolean;
  noIndent: boolean;
  quote: boolean;
  perms: boolean;
  size: boolean;
  humanBase: 0 | 1024 | 1000;
  classify: boolean;
  level: number;
  include: RegExp | undefined;
  exclude: RegExp | undefined;
  matchDirs: boolean;
  prune: boolean;
  sort: "name" | "version" | "mtime" | "ctime" | "size" | "none";
  reverse: boolean;
  dirsFirst: boolean;
  filesFirst: boolean;
  ascii: boolean;
  gitignore: boolean;
  fileLimit: number;
}

/** tree's -P/-I pattern: wildcards, alternatives separated by `|`, matched against the whole name. */
function patternRegex(pattern: string, ignoreCase: boolean): RegExp {
  return new RegExp(`^(?:${pattern.split("|").map((p) => globSource(p, false)).join("|")})$`, ignoreCase ? "i" : "");
}

/** tree's size column: bytes in 11 places, or -h/--si's 4 (one decimal below 10). */
function sizeText(n: number, base: 0 | 1024 | 1000): string {
  if (base === 0) return String(n).padStart(11);
  const units = base === 1024 ? "KMGTPEZY" : "kMGTPEZY";
  if (n < base) return String(n).padStart(4);
  let v = n;
  let e = -1;
  while (v >= base && e < units.length - 1) {
    v /= base;
    e++;
  }
  return v < 9.95 ? `${v.toFixed(1)}${units[e]}` : `${Math.round(v)}${units[e]}`.padStart(4);
}

interface Entry {
  name: string;
  path: string;
  st: Stat;
  /** What a symbolic link points to (followed), when it resolves. */
  target?: Stat;
  link?: string;
}

/**
 * tree 2.1: a directory's entries as an indented tree, then "N directories, M files". As tree 2.1 counts,
 * a directory given on the command line counts itself when it lists anything; a symbolic link to a
 * directory counts as a directory (listed, not followed, unless -l).
 */
export default function tree({ sys, argv, stdout, stderr }: ScriptProcess): number {
  const o: Options = {
    all: false, dirsOnly: false, follow: false, fullPath: false, noIndent: false, quote: false, perms: false, size: false,
    humanBase: 0, classify: false, level: Infinity, include: undefined, exclude: undefined, matchDirs: false, prune: false,
    sort: "name", reverse: false, dirsFirst: false, filesFirst: false, ascii: false, gitignore: false, fileLimit: Infinity,
  };
  // Line graphics in a UTF-8 locale, ASCII otherwise (tree's charset follows the locale).
  const locale = sys.env["LC_ALL"] || sys.env["LC_CTYPE"] || sys.env["LANG"] || "";
  const utf8 = /utf-?8/i.test(locale);
  o.ascii = !utf8;
  let raw = false;
  let noReport = false;
  let ignoreCase = false;
  let includeText: string | undefined;
  const excludeText: string[] = [];
  const roots: string[] = [];
  const args = argv.slice(1);
  const invalid = (what: string): number => (stderr.write(`tree: Invalid argument -\`${what}'.\n${USAGE}`), 1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = (name: string): string | undefined => {
      const eq = a.indexOf("=");
      if (a.startsWith("--") && eq > 0) return a.slice(eq + 1);
      const v = args[++i];
      if (v === undefined) stderr.write(`tree: Missing argument to ${name} option.\n`);
      return v;
    };
    if (a === "--") {
      roots.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith("--")) {
      const name = a.split("=")[0]!;
      switch (name) {
        case "--help":
          stdout.write(USAGE);
          return 0;
        case "--version":
          stdout.write(versionText("tree", "tree v2.1.0"));
          return 0;
        case "--noreport":
          noReport = true;
          break;
        case "--dirsfirst":
          o.dirsFirst = true;
          break;
        case "--filesfirst":
          o.filesFirst = true;
          break;
        case "--prune":
          o.prune = true;
          break;
        case "--matchdirs":
          o.matchDirs = true;
          break;
        case "--ignore-case":
          ignoreCase = true;
          break;
        case "--gitignore":
          o.gitignore = true;
          break;
        case "--si":
          [o.size, o.humanBase] = [true, 1000];
          break;
        case "--charset": {
          const v = value("--charset");
          if (v === undefined) return 1;
          o.ascii = !/utf-?8/i.test(v);
          break;
        }
        case "--filelimit": {
          const v = value("--filelimit");
          if (v === undefined) return 1;
          o.fileLimit = Number(v);
          break;
        }
        case "--sort": {
          const v = value("--sort");
          if (v === undefined) return 1;
          if (!["name", "version", "mtime", "ctime", "size", "none"].includes(v)) {
            stderr.write(`tree: Sort type '${v}' not valid, should be one of: name, version, size, mtime, ctime, none\n`);
            return 1;
          }
          o.sort = v as Options["sort"];
          break;
        }
        case "--nolinks":
        case "--inodes":
        case "--device":
        case "--du":
        case "--metafirst":
        case "--fflinks":
          break;
        default:
          return invalid(a.slice(1));
      }
      continue;
    }
    if (a.startsWith("-") && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        const arg = (): string | undefined => {
          const v = args[++i];
          if (v === undefined) stderr.write(`tree: Missing argument to -${c} option.\n`);
          return v;
        };
        switch (c) {
          case "a": o.all = true; break;
          case "d": o.dirsOnly = true; break;
          case "l": o.follow = true; break;
          case "f": o.fullPath = true; break;
          case "i": o.noIndent = true; break;
          case "Q": o.quote = true; break;
          case "p": o.perms = true; break;
          case "s": o.size = true; break;
          case "h": [o.size, o.humanBase] = [true, 1024]; break;
          case "F": o.classify = true; break;
          case "r": o.reverse = true; break;
          case "t": o.sort = "mtime"; break;
          case "c": o.sort = "ctime"; break;
          case "v": o.sort = "version"; break;
          case "U": o.sort = "none"; break;
          case "S": o.ascii = false; break;
          case "N": raw = true; break;
          case "q": case "n": case "C": case "A": case "x": case "u": case "g": case "D": case "R":
            break;
          case "L": {
            const v = arg();
            if (v === undefined) return 1;
            if (!/^\d+$/.test(v) || Number(v) < 1) {
              stderr.write("tree: Invalid level, must be greater than 0.\n");
              return 1;
            }
            o.level = Number(v);
            break;
          }
          case "P": {
            const v = arg();
            if (v === undefined) return 1;
            includeText = v;
            break;
          }
          case "I": {
            const v = arg();
            if (v === undefined) return 1;
            excludeText.push(v);
            break;
          }
          case "o": case "H": case "T": {
            if (arg() === undefined) return 1;
            break;
          }
          default:
            return invalid(c);
        }
      }
      continue;
    }
    roots.push(a);
  }
  if (includeText !== undefined) o.include = patternRegex(includeText, ignoreCase);
  if (excludeText.length > 0) o.exclude = patternRegex(excludeText.join("|"), ignoreCase);

  const [V, T, L, S] = o.ascii ? ["|   ", "|-- ", "`-- ", "    "] : ["│   ", "├── ", "└── ", "    "];
  /**
   * A name as tree prints it: in a UTF-8 locale control characters as \ooo; otherwise also a space as `\ `,
   * a backslash doubled and \t-style escapes (tree's printit); -N prints names as they are.
   */
  const escape = (name: string): string => {
    if (raw) return name;
    let out = "";
    for (const ch of name) {
      const c = ch.codePointAt(0)!;
      if (utf8) out += c < 0x20 || c === 0x7f ? `\\${c.toString(8).padStart(3, "0")}` : ch;
      else if ((c >= 7 && c <= 13) || c === 0x5c || (c === 0x22 && o.quote) || (c === 0x20 && !o.quote)) out += `\\${c > 13 ? ch : "abtnvfr"[c - 7]}`;
      else out += c >= 0x20 && c < 0x7f ? ch : [...Buffer.from(ch)].map((b) => `\\${b.toString(8).padStart(3, "0")}`).join("");
    }
    return out;
  };
  const q = (name: string): string => (o.quote ? `"${escape(name)}"` : escape(name));
  const suffix = (st: Stat | undefined): string => {
    if (!o.classify || !st) return "";
    if (st.kind === "dir") return "/";
    if (st.kind === "socket") return "=";
    if (st.kind === "fifo") return "|";
    if (st.kind === "file" && st.mode & 0o111) return "*";
    return "";
  };
  const meta = (st: Stat): string => {
    const parts: string[] = [];
    if (o.perms) parts.push(modeString(st.mode));
    if (o.size) parts.push(sizeText(st.size, o.humanBase));
    return parts.length > 0 ? `[${parts.join(" ")}]  ` : "";
  };
  const compare = (a: Entry, b: Entry): number => {
    const aDir = (a.target ?? a.st).kind === "dir";
    const bDir = (b.target ?? b.st).kind === "dir";
    if (o.dirsFirst && aDir !== bDir) return aDir ? -1 : 1;
    if (o.filesFirst && aDir !== bDir) return aDir ? 1 : -1;
    let r = 0;
    if (o.sort === "mtime") r = b.st.mtimeMs - a.st.mtimeMs;
    else if (o.sort === "ctime") r = b.st.ctimeMs - a.st.ctimeMs;
    else if (o.sort === "size") r = b.st.size - a.st.size;
    else if (o.sort === "version") r = a.name.localeCompare(b.name, "en", { numeric: true });
    if (r === 0) r = a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
    return o.reverse ? -r : r;
  };

  let dirs = 0;
  let files = 0;
  let status = 0;
  /** The entries of `path` that are shown, sorted. */
  const entriesOf = (path: string, ignore: IgnoreStack | undefined): Entry[] | undefined => {
    let names;
    try {
      names = sys.readdir(path);
    } catch {
      return undefined;
    }
    const out: Entry[] = [];
    for (const { name } of names) {
      if (!o.all && name.startsWith(".")) continue;
      const p = path.endsWith("/") ? path + name : `${path}/${name}`;
      let st: Stat;
      try {
        st = sys.stat(p, false);
      } catch {
        continue;
      }
      const e: Entry = { name, path: p, st };
      if (st.kind === "symlink") {
        try {
          e.link = sys.readlink(p);
          e.target = sys.stat(p, true);
        } catch {
          // dangling: shown as a file
        }
      }
      const isDir = (e.target ?? st).kind === "dir";
      if (o.dirsOnly && !isDir) continue;
      if (ignore?.ignored(sys.resolve(p), isDir)) continue;
      if (o.exclude?.test(name)) continue;
      if (o.include && (!isDir || o.matchDirs) && !o.include.test(name)) continue;
      out.push(e);
    }
    if (o.sort !== "none") out.sort(compare);
    return out;
  };
  /** Whether a pruned listing of `e` (a directory) would show anything. */
  const hasContent = (e: Entry, depth: number, ignore: IgnoreStack | undefined): boolean => {
    if (depth >= o.level) return false;
    const children = entriesOf(e.path, ignore);
    return (children ?? []).some((c) => ((c.target ?? c.st).kind === "dir" ? hasContent(c, depth + 1, ignore) : true));
  };
  const list = (path: string, prefix: string, depth: number, ignore: IgnoreStack | undefined, ancestors: Set<string>): number => {
    let entries = entriesOf(path, ignore);
    if (!entries) return 0;
    // --prune drops directories that would show nothing (a link to one shows nothing unless -l follows it).
    if (o.prune)
      entries = entries.filter(
        (e) => (e.target ?? e.st).kind !== "dir" || ((e.st.kind !== "symlink" || o.follow) && hasContent(e, depth + 1, ignore?.enter(sys.resolve(e.path)))),
      );
    entries.forEach((e, i) => {
      const last = i === entries.length - 1;
      const shownName = o.fullPath ? e.path : e.name;
      const kind = (e.target ?? e.st).kind;
      let line = `${o.noIndent ? "" : prefix + (last ? L : T)}${meta(e.st)}${q(shownName)}`;
      if (e.st.kind === "symlink") line += e.link !== undefined ? `${suffix(undefined)} -> ${q(e.link)}${suffix(e.target)}` : "";
      else line += suffix(e.st);
      const isDir = kind === "dir";
      let descend = isDir && depth + 1 < o.level && (e.st.kind !== "symlink" || o.follow);
      let note = "";
      if (descend && e.st.kind === "symlink") {
        const id = `${e.target!.dev}:${e.target!.ino}`;
        if (ancestors.has(id)) [descend, note] = [false, "  [recursive, not followed]"];
      }
      if (descend && o.fileLimit !== Infinity) {
        try {
          const n = sys.readdir(e.path).length;
          if (n > o.fileLimit) [descend, note] = [false, `  [${n} entries exceeds filelimit, not opening dir]`];
        } catch {
          // reported when listed
        }
      }
      stdout.write(`${line}${note}\n`);
      if (isDir) dirs++;
      else files++;
      if (descend) {
        const id = `${(e.target ?? e.st).dev}:${(e.target ?? e.st).ino}`;
        ancestors.add(id);
        list(e.path, prefix + (o.noIndent ? "" : last ? S : V), depth + 1, ignore?.enter(sys.resolve(e.path)), ancestors);
        ancestors.delete(id);
      }
    });
    return entries.length;
  };

  for (const root of roots.length > 0 ? roots : ["."]) {
    let st: Stat | undefined;
    try {
      st = sys.stat(root);
    } catch {
      st = undefined;
    }
    if (st?.kind !== "dir") {
      stdout.write(`${q(root)}  [error opening dir]\n`);
      if (st) files++;
      else status = 2;
      continue;
    }
    stdout.write(`${meta(st)}${q(root)}${o.classify ? "/" : ""}\n`);
    const ignore = o.gitignore ? IgnoreStack.at(sys, sys.resolve(root).replace(/(.)\/$/, "$1"), [".gitignore"], false) : undefined;
    if (list(root, "", 0, ignore, new Set([`${st.dev}:${st.ino}`])) > 0) dirs++;
  }
  if (!noReport) {
    const d = `${dirs} director${dirs === 1 ? "y" : "ies"}`;
    stdout.write(o.dirsOnly ? `\n${d}\n` : `\n${d}, ${files} file${files === 1 ? "" : "s"}\n`);
  }
  return status;
}
