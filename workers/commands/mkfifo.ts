import { compileMode } from "../../src/gnu/mode-change.js";
import { quoteaf } from "../../src/gnu/quote.js";
import { strerrorOf } from "../../src/gnu/strerror.js";
import type { ScriptProcess } from "../script-host.js";
import type { System } from "../system.js";
import { parseArgs, usageError } from "./parse-args.js";

/**
 * Why making a special file at `path` fails: what mkfifo(3)/mknod(2) would answer for the path (EEXIST,
 * ENOENT or ENOTDIR of its directory), else ENOTSUP for a FIFO, as a file system without FIFOs does (the
 * VM's has none; a pipe exists only between processes), and EPERM for a device, as for a user who is not root.
 */
export function specialFileError(sys: System, path: string, device: boolean): string {
  try {
    sys.stat(path, false);
    return "EEXIST";
  } catch {
    // free: check the directory it would go in
  }
  const trimmed = path.replace(/\/+$/, "");
  const dir = trimmed.includes("/") ? trimmed.slice(0, trimmed.lastIndexOf("/")) || "/" : ".";
  try {
    if (sys.stat(dir).kind !== "dir") return "ENOTDIR";
  } catch (e) {
    return (e as { code?: string }).code ?? "ENOENT";
  }
  return device ? "EPERM" : "ENOTSUP";
}

/** -m, -Z and --context, which mkfifo and mknod share. */
export const MODE_SPECS = [
  { key: "m", short: "m", long: "mode", arg: "required" as const },
  { key: "Z", short: "Z" },
  { key: "context", long: "context", arg: "optional" as const },
];

/** GNU mkfifo: the VM's file system has no FIFOs, so each one fails with the reason (specialFileError). */
export default function mkfifo(p: ScriptProcess): number {
  const { sys, stderr } = p;
  const parsed = parseArgs(p, MODE_SPECS, "Usage: mkfifo [OPTION]... NAME...\nCreate named pipes (FIFOs) with the given NAMEs.\n");
  if (typeof parsed === "number") return parsed;
  if (parsed.operands.length === 0) return usageError(p, "missing operand");
  if (parsed.options.some((o) => o.key === "m" && !compileMode(o.value!))) return stderr.write("mkfifo: invalid mode\n"), 1;
  for (const name of parsed.operands) stderr.write(`mkfifo: cannot create fifo ${quoteaf(name)}: ${strerrorOf(specialFileError(sys, name, false))}\n`);
  return 1;
}
