import { posix, win32 } from "node:path";
import type { HostOp } from "./host-ops.js";

const FUNCTIONS = new Set(["resolve", "normalize", "isAbsolute", "join", "relative", "toNamespacedPath", "dirname", "basename", "extname", "parse"]);

/**
 * The guest's `path.win32` (workers/node-guest/builtins/path.js): Node's own functions, given strings the
 * guest validated (a JSON array). Where Node reads the process's working directory (resolve, relative,
 * toNamespacedPath) it reads the guest's, lent to `process.cwd` for the call: the worker's own never shows.
 * The answer is a string (parse's as JSON).
 */
export function pathOps(): Record<string, HostOp> {
  return {
    pathWin32: (fn, cwd, json) => {
      if (typeof fn !== "string" || !FUNCTIONS.has(fn) || typeof cwd !== "string" || typeof json !== "string") throw new Error("bad path call");
      const args: unknown = JSON.parse(json);
      if (!Array.isArray(args) || !args.every((a) => typeof a === "string")) throw new Error("bad path call");
      const own = process.cwd;
      process.cwd = () => cwd;
      try {
        const r: unknown = (win32[fn as "join"] as (...p: string[]) => unknown)(...(args as string[]));
        return typeof r === "string" ? r : JSON.stringify(r);
      } finally {
        process.cwd = own;
      }
    },
    /** path.matchesGlob of the two strings, `windows` choosing path.win32's; the guest warns of it itself, the worker never does. */
    pathMatchesGlob: (windows, path, pattern) => {
      const match = (windows === true ? win32 : posix) as { matchesGlob?: (p: string, g: string) => boolean };
      if (typeof path !== "string" || typeof pattern !== "string" || typeof match.matchesGlob !== "function") throw new Error("bad path call");
      const emit = process.emitWarning;
      process.emitWarning = () => {};
      try {
        return match.matchesGlob(path, pattern);
      } finally {
        process.emitWarning = emit;
      }
    },
  };
}
