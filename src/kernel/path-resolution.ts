import { kerr } from "./kernel-error.js";
import type { Process } from "./process.js";
import { dirname, join, normalize } from "./path.js";
import type { Vfs } from "./vfs.js";

/**
 * Resolves a path a process gave relative to one of its directory fds.
 *
 * The WebAssembly commands have no working directory of their own: both `a.txt` and `/a.txt` reach the
 * kernel as `a.txt` relative to the root preopen (Process.rootFd); only `./` and `../` survive. The kernel knows
 * each process's cwd and decides, in this order (README, "Relative paths"):
 *  1. the process resolves its own paths (the shell), or its cwd is `/`: the path is absolute;
 *  2. `..`, `./x`, `../x`: relative to the cwd; `.` too, unless the command line names `/` and not `.`
 *     (libc turns `/` into `.`);
 *  3. the command line says which: the longest argument that names this path (or a directory above it)
 *     decides, `/etc` meaning absolute and `etc` relative;
 *  4. otherwise the first of `<cwd>/p`, `/p` that exists; a path that exists in neither (a new file) is
 *     created under the cwd when its parent directory exists there, else under `/`.
 */
export function resolvePath(vfs: Vfs, proc: Process, dirfd: number, path: string): string {
  // As openat: an absolute path does not look at dirfd (the scripts' and node's, whose fd 3 may be one they
  // inherited rather than their root).
  if (path.startsWith("/")) return normalize(path);
  if (dirfd !== proc.rootFd) {
    const dir = proc.fds.get(dirfd);
    if (dir.path === undefined) throw kerr("ENOTDIR", { syscall: "openat", path });
    return join(dir.path, path);
  }
  if (proc.resolvesOwnPaths || proc.cwd === "/") return normalize("/" + path);
  const hint = argvHint(proc.argv, path);
  // "/" reaches the kernel as ".", like the cwd itself: only the command line can tell them apart.
  if (path === ".") return hint === "absolute" ? "/" : proc.cwd;
  if (path === ".." || path.startsWith("./") || path.startsWith("../")) return join(proc.cwd, path);
  const underCwd = join(proc.cwd, path);
  const underRoot = normalize("/" + path);
  if (hint === "relative") return underCwd;
  if (hint === "absolute") return underRoot;
  if (vfs.exists(underCwd)) return underCwd;
  if (vfs.exists(underRoot)) return underRoot;
  return vfs.exists(dirname(underCwd)) ? underCwd : underRoot;
}

type Hint = "relative" | "absolute";

/** Per command line: each path an argument names ("" for `/` and `.`) → how it was written. */
const hintsByArgv = new WeakMap<readonly string[], Map<string, Hint | "both">>();

function argvHints(argv: readonly string[]): Map<string, Hint | "both"> {
  let hints = hintsByArgv.get(argv);
  if (hints) return hints;
  hints = new Map();
  for (let i = 1; i < argv.length; i++) {
    let arg = argv[i]!;
    const eq = arg.indexOf("=");
    if (arg.startsWith("-") && eq > 0) arg = arg.slice(eq + 1);
    // `./x` and `../x` reach the kernel as they are (rule 2): they say nothing about a bare `x`.
    if (arg === "" || arg.startsWith("-") || arg.startsWith("./") || arg.startsWith("../")) continue;
    const named = normalize(arg).slice(1); // "/a/./b/" → "a/b", "/" and "." → ""
    const kind: Hint = arg.startsWith("/") ? "absolute" : "relative";
    const seen = hints.get(named);
    hints.set(named, seen === undefined || seen === kind ? kind : "both");
  }
  hintsByArgv.set(argv, hints);
  return hints;
}

/** The longest argument that names `path` or a directory above it decides; both forms at once: no hint. */
function argvHint(argv: readonly string[], path: string): Hint | undefined {
  const hints = argvHints(argv);
  for (let p = path === "." ? "" : path; ; p = p.slice(0, Math.max(0, p.lastIndexOf("/")))) {
    const kind = hints.get(p);
    if (kind !== undefined) return kind === "both" ? undefined : kind;
    if (p === "") return undefined;
  }
}
