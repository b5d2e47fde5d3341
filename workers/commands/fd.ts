import { posix } from "node:path";
import type { ScriptProcess } from "../script-host.js";
import type { FileKind, Stat } from "../system.js";
import { getopt, UsageError } from "./getopt.js";
import { globSource, IgnoreStack, matchRules, parseIgnore } from "./ignore.js";
import { exitStatusOf, startCommand } from "./run-command.js";
import { AGENTOS_VERSION, versionText } from "../../src/gnu/version.js";

const SPECS = [
  { key: "H", short: "H", long: "hidden" },
  { key: "I", short: "I", long: "no-ignore" },
  { key: "no-ignore-vcs", long: "no-ignore-vcs" },
  { key: "no-ignore-parent", long: "no-ignore-parent" },
  { key: "u", short: "u", long: "unrestricted" },
  { key: "s", short: "s", long: "case-sensitive" },
  { key: "i", short: "i", long: "ignore-case" },
  { key: "g", short: "g", long: "glob" },
  { key: "regex", long: "regex" },
  { key: "F", short: "F", long: "fixed-strings" },
  { key: "a", short: "a", long: "absolute-path" },
  { key: "l", short: "l", long: "list-details" },
  { key: "L", short: "L", long: "follow" },
  { key: "p", short: "p", long: "full-path" },
  { key: "0", short: "0", long: "print0" },
  { key: "d", short: "d", long: "max-depth", arg: "required" as const },
  { key: "d", long: "maxdepth", arg: "required" as const },
  { key: "min-depth", long: "min-depth", arg: "required" as const },
  { key: "exact-depth", long: "exact-depth", arg: "required" as const },
  { key: "prune", long: "prune" },
  { key: "t", short: "t", long: "type", arg: "required" as const },
  { key: "e", short: "e", long: "extension", arg: "required" as const },
  { key: "E", short: "E", long: "exclude", arg: "required" as const },
  { key: "ignore-file", long: "ignore-file", arg: "required" as const },
  { key: "c", short: "c", long: "color", arg: "required" as const },
  { key: "j", short: "j", long: "threads", arg: "required" as const },
  { key: "max-results", long: "max-results", arg: "required" as const },
  { key: "1", short: "1" },
  { key: "q", short: "q", long: "quiet" },
  { key: "show-errors", long: "show-errors" },
  { key: "base-directory", long: "base-directory", arg: "required" as const },
  { key: "search-path", long: "search-path", arg: "required" as const },
  { key: "strip-cwd-prefix", long: "strip-cwd-prefix" },
  { key: "one-file-system", long: "one-file-system" },
  { key: "help", short: "h", long: "help" },
  { key: "version", short: "V", long: "version" },
];

const TYPES: Record<string, string> = { f: "file", file: "file", d: "directory", dir: "directory", directory: "directory", l: "symlink", symlink: "symlink", x: "executable", executable: "executable", e: "empty", empty: "empty", s: "socket", socket: "socket", p: "pipe", pipe: "pipe" };

const USAGE = "Usage: fd [OPTIONS] [pattern] [path]...\n\nFor more information try '--help'\n";

interface Found {
  /** As printed (the search path as given, then the path below it). */
  shown: string;
  kind: FileKind;
}

/** Paths in the order fd's sorted buffer has them: component by component, by bytes. */
function comparePaths(a: string, b: string): number {
  const x = a.split("/").filter(Boolean);
  const y = b.split("/").filter(Boolean);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return Buffer.compare(Buffer.from(x[i]!), Buffer.from(y[i]!));
  return x.length - y.length;
}

/**
 * fd 8.6 (fd-find): finds entries whose name matches a regular expression (smart case) or glob, skipping
 * hidden files and what .gitignore (in a git repository), .ignore and .fdignore exclude. Output is sorted
 * as fd sorts what it finds before printing, with a `/` after a directory; without a search path the
 * `./` prefix is left off (kept for -0 and the commands of -x/-X).
 */
export default function fd(p: ScriptProcess): number {
  const { sys, stdout, stderr } = p;
  const clapError = (message: string): number => {
    stderr.write(`error: ${message}\n\n${message.startsWith("Found argument") ? USAGE : "For more information try '--help'\n"}`);
    return 2;
  };
  const fdError = (message: string): number => {
    stderr.write(`[fd error]: ${message}\n`);
    return 1;
  };
  // -x/-X take the rest of the command line up to ";".
  const args: string[] = [];
  let exec: { batch: boolean; argv: string[] } | undefined;
  const raw = p.argv.slice(1);
  for (let i = 0; i < raw.length; i++) {
    const a = raw[i]!;
    if (["-x", "--exec", "-X", "--exec-batch"].includes(a)) {
      const end = raw.indexOf(";", i + 1);
      const cmd = raw.slice(i + 1, end < 0 ? raw.length : end);
      if (cmd.length === 0) return clapError(`The argument '${a.startsWith("-X") || a === "--exec-batch" ? "--exec-batch" : "--exec"} <cmd>...' requires a value but none was supplied`);
      exec = { batch: a === "-X" || a === "--exec-batch", argv: cmd };
      i = end < 0 ? raw.length : end;
      continue;
    }
    args.push(a);
  }
  let parsed;
  try {
    parsed = getopt(args, SPECS);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    const bad = /'(-[^']*)'|-- '(.)'/.exec(e.message);
    const arg = bad?.[1] ?? `-${bad?.[2] ?? ""}`;
    return clapError(`Found argument '${arg}' which wasn't expected, or isn't valid in this context\n\n  If you tried to supply '${arg}' as a value rather than a flag, use '-- ${arg}'`);
  }
  let hidden = false;
  let noIgnore = false;
  let noVcs = false;
  let caseMode: "smart" | "sensitive" | "insensitive" = "smart";
  let mode: "regex" | "glob" | "fixed" = "regex";
  let absolute = false;
  let follow = false;
  let fullPath = false;
  let nul = false;
  let maxDepth = Infinity;
  let minDepth = 0;
  let prune = false;
  let quiet = false;
  let maxResults = Infinity;
  let stripPrefix = false;
  let listDetails = false;
  const types = new Set<string>();
  const extensions: string[] = [];
  const excludes: string[] = [];
  const ignoreFiles: string[] = [];
  const searchPaths: string[] = [];
  for (const o of parsed.options) {
    const number = (): number | undefined => {
      if (!/^\d+$/.test(o.value!)) {
        clapError(`Invalid value '${o.value}' for '${o.name === "-d" ? "--max-depth" : o.name} <${o.key === "max-results" ? "count" : "depth"}>': invalid digit found in string`);
        return undefined;
      }
      return Number(o.value);
    };
    switch (o.key) {
      case "help":
        stdout.write(`fd (agentos-vm) ${AGENTOS_VERSION}, compatible with fd 8.6.0\nA program to find entries in your filesystem\n\nUsage: fd [OPTIONS] [pattern] [path]...\n`);
        return 0;
      case "version":
        stdout.write(versionText("fd", "fd 8.6.0"));
        return 0;
      case "H":
        hidden = true;
        break;
      case "I":
        noIgnore = true;
        break;
      case "no-ignore-vcs":
        noVcs = true;
        break;
      case "u":
        [hidden, noIgnore] = [true, true];
        break;
      case "s":
        caseMode = "sensitive";
        break;
      case "i":
        caseMode = "insensitive";
        break;
      case "g":
        mode = "glob";
        break;
      case "regex":
        mode = "regex";
        break;
      case "F":
        mode = "fixed";
        break;
      case "a":
        absolute = true;
        break;
      case "l":
        listDetails = true;
        break;
      case "L":
        follow = true;
        break;
      case "p":
        fullPath = true;
        break;
      case "0":
        nul = true;
        break;
      case "d": {
        const n = number();
        if (n === undefined) return 2;
        maxDepth = n;
        break;
      }
      case "min-depth": {
        const n = number();
        if (n === undefined) return 2;
        minDepth = n;
        break;
      }
      case "exact-depth": {
        const n = number();
        if (n === undefined) return 2;
        [minDepth, maxDepth] = [n, n];
        break;
      }
      case "prune":
        prune = true;
        break;
      case "t": {
        const t = TYPES[o.value!];
        if (!t) return clapError(`'${o.value}' isn't a valid value for '--type <filetype>'\n  [possible values: file, directory, symlink, executable, empty, socket, pipe]`);
        types.add(t);
        break;
      }
      case "e":
        extensions.push(o.value!.replace(/^\./, "").toLowerCase());
        break;
      case "E":
        excludes.push(o.value!);
        break;
      case "ignore-file":
        ignoreFiles.push(o.value!);
        break;
      case "max-results": {
        const n = number();
        if (n === undefined) return 2;
        maxResults = n;
        break;
      }
      case "1":
        maxResults = 1;
        break;
      case "q":
        quiet = true;
        break;
      case "base-directory":
        sys.cwd = posix.normalize(sys.resolve(o.value!));
        break;
      case "search-path":
        searchPaths.push(o.value!);
        break;
      case "strip-cwd-prefix":
        stripPrefix = true;
        break;
    }
  }
  if (listDetails) exec = { batch: true, argv: ["ls", "-l", "--human-readable", "--directory", "--color=never"] };
  const [pattern = "", ...paths] = parsed.operands;
  searchPaths.push(...paths);

  if (!fullPath && mode !== "glob" && pattern.includes("/")) {
    return fdError(
      `The search pattern '${pattern}' contains a path-separation character ('/') and will not lead to any search results.\n\nIf you want to search for all files inside the '${pattern}' directory, use a match-all pattern:\n\n  fd . '${pattern}'\n\nInstead, if you want your pattern to match the full file path, use:\n\n  fd --full-path '${pattern}'`,
    );
  }
  const insensitive = caseMode === "insensitive" || (caseMode === "smart" && !/[A-Z]/.test(pattern.replace(/\\[A-Za-z]/g, "")));
  let matcher: RegExp;
  try {
    const source =
      mode === "glob" ? `^${globSource(pattern, fullPath)}$` : mode === "fixed" ? pattern.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&") : pattern.replace(/\(\?P</g, "(?<");
    matcher = new RegExp(source, `u${insensitive ? "i" : ""}`);
  } catch (e) {
    return fdError(`regex parse error:\n    ${pattern}\nerror: ${(e as Error).message.replace(/^Invalid regular expression: /, "")}\n\nNote: You can use the '--fixed-strings' option to search for a literal string instead of a regular expression. Alternatively, you can also use the '--glob' option to match on a glob pattern.`);
  }
  const excludeRules = parseIgnore(excludes.join("\n"));
  const customRules = ignoreFiles.flatMap((f) => {
    try {
      return parseIgnore(Buffer.from(sys.readFile(f)).toString("utf8"));
    } catch {
      return [];
    }
  });

  const defaultRoot = searchPaths.length === 0;
  const roots = defaultRoot ? ["."] : searchPaths;
  // fd leaves "./" off what it prints for the working directory, unless the paths go to a command or NUL-separated.
  const strip = defaultRoot && (stripPrefix || (!nul && !exec));
  const valid: string[] = [];
  for (const root of roots) {
    let st: Stat | undefined;
    try {
      st = sys.stat(root);
    } catch {
      st = undefined;
    }
    if (st?.kind === "dir") valid.push(root);
    else stderr.write(`[fd error]: Search path '${root}' is not a directory.\n`);
  }
  if (valid.length === 0) return fdError("No valid search paths given.");

  const found: Found[] = [];
  for (const root of valid) {
    const rootAbs = posix.normalize(sys.resolve(root)).replace(/(.)\/$/, "$1");
    const seen = new Set<string>();
    const names = noIgnore ? [] : [".fdignore", ".ignore"];
    const rootStack = IgnoreStack.at(sys, rootAbs, names, !noIgnore && !noVcs);
    const walk = (dirAbs: string, shownDir: string, depth: number, stack: IgnoreStack): void => {
      let entries;
      try {
        entries = sys.readdir(dirAbs);
      } catch {
        return;
      }
      for (const { name } of entries) {
        const abs = dirAbs === "/" ? `/${name}` : `${dirAbs}/${name}`;
        const shown = shownDir === "" ? name : shownDir.endsWith("/") ? shownDir + name : `${shownDir}/${name}`;
        if (!hidden && name.startsWith(".")) continue;
        let st: Stat;
        try {
          st = sys.stat(abs, false);
          if (follow && st.kind === "symlink") st = sys.stat(abs, true);
        } catch {
          if (!follow) continue;
          try {
            st = sys.stat(abs, false);
          } catch {
            continue;
          }
        }
        const isDir = st.kind === "dir";
        if (!noIgnore && (stack.ignored(abs, isDir) || matchRules(customRules, abs.slice(rootAbs.length + 1), isDir))) continue;
        if (excludeRules.length > 0 && matchRules(excludeRules, abs.slice(rootAbs.length === 1 ? 1 : rootAbs.length + 1), isDir)) continue;
        const d = depth + 1;
        const matches = d >= minDepth && wanted(abs, name, st);
        if (matches) found.push({ shown, kind: st.kind });
        if (isDir && d < maxDepth && !(prune && matches)) {
          const id = `${st.dev}:${st.ino}`;
          if (follow && seen.has(id)) continue;
          seen.add(id);
          walk(abs, shown, d, noIgnore ? stack : stack.enter(abs));
          seen.delete(id);
        }
      }
    };
    const wanted = (abs: string, name: string, st: Stat): boolean => {
      if (types.size > 0) {
        const exe = st.kind === "file" && (st.mode & 0o111) !== 0;
        const ok =
          (types.has("file") && st.kind === "file") ||
          (types.has("directory") && st.kind === "dir") ||
          (types.has("symlink") && st.kind === "symlink") ||
          (types.has("executable") && exe) ||
          (types.has("socket") && st.kind === "socket") ||
          (types.has("pipe") && st.kind === "fifo") ||
          (types.has("empty") && ((st.kind === "file" && st.size === 0) || (st.kind === "dir" && emptyDir(abs))));
        if (!ok) return false;
      }
      if (extensions.length > 0 && !extensions.some((e) => name.toLowerCase().endsWith(`.${e}`) && name.length > e.length + 1)) return false;
      matcher.lastIndex = 0;
      return matcher.test(fullPath ? abs : name);
    };
    const emptyDir = (abs: string): boolean => {
      try {
        return sys.readdir(abs).length === 0;
      } catch {
        return false;
      }
    };
    const shownRoot = absolute ? rootAbs : strip && root === "." ? "" : root;
    walk(rootAbs, shownRoot, 0, rootStack);
  }
  found.sort((a, b) => comparePaths(a.shown, b.shown));
  const results = found.slice(0, maxResults);
  if (quiet) return results.length > 0 ? 0 : 1;

  if (exec) return runExec(p, exec, results.map((f) => f.shown));
  const end = nul ? "\0" : "\n";
  for (const f of results) stdout.write(`${f.shown}${f.kind === "dir" ? "/" : ""}${end}`);
  return 0;
}

/** fd's placeholders: {} the path, {/} its name, {//} its directory, {.} and {/.} without the extension. */
function expand(arg: string, path: string): string {
  const base = posix.basename(path);
  const stripExt = (s: string): string => {
    const i = s.lastIndexOf(".");
    return i > 0 && !s.slice(i).includes("/") ? s.slice(0, i) : s;
  };
  return arg.replace(/\{(\/\/|\/\.|\/|\.)?\}/g, (_, k: string | undefined) =>
    k === undefined ? path : k === "/" ? base : k === "//" ? posix.dirname(path) : k === "." ? stripExt(path) : stripExt(base),
  );
}

/** -x runs the command once per path (one after another), -X once with every path; status 1 when one fails. */
function runExec(p: ScriptProcess, exec: { batch: boolean; argv: string[] }, paths: string[]): number {
  const hasPlaceholder = exec.argv.some((a) => /\{(\/\/|\/\.|\/|\.)?\}/.test(a));
  const run = (argv: string[]): number => {
    const started = startCommand(p, argv, `[fd error]: Command not found: ${argv[0]}`);
    return "status" in started ? started.status : exitStatusOf(p.sys.wait(started.pid));
  };
  if (exec.batch) {
    if (paths.length === 0) return 0;
    const argv = hasPlaceholder ? exec.argv.flatMap((a) => (/\{(\/\/|\/\.|\/|\.)?\}/.test(a) ? paths.map((path) => expand(a, path)) : [a])) : [...exec.argv, ...paths];
    return run(argv) === 0 ? 0 : 1;
  }
  let status = 0;
  for (const path of paths) {
    const argv = hasPlaceholder ? exec.argv.map((a) => expand(a, path)) : [...exec.argv, path];
    if (run(argv) !== 0) status = 1;
  }
  return status;
}
