import { compileMode } from "../../src/gnu/mode-change.js";
import { quote, quotef } from "../../src/gnu/quote.js";
import { strerrorOf } from "../../src/gnu/strerror.js";
import type { ScriptProcess } from "../script-host.js";
import { MODE_SPECS, specialFileError } from "./mkfifo.js";
import { parseArgs, usageError } from "./parse-args.js";

/**
 * GNU mknod: operands are checked as GNU does; then a FIFO fails as mkfifo does and a device with EPERM,
 * as for a user who is not root (specialFileError).
 */
export default function mknod(p: ScriptProcess): number {
  const { sys, stderr } = p;
  const usage = (message: string): number => usageError(p, message);
  const parsed = parseArgs(p, MODE_SPECS, "Usage: mknod [OPTION]... NAME TYPE [MAJOR MINOR]\nCreate the special file NAME of the given TYPE.\n");
  if (typeof parsed === "number") return parsed;
  if (parsed.options.some((o) => o.key === "m" && !compileMode(o.value!))) return stderr.write("mknod: invalid mode\n"), 1;
  const ops = parsed.operands;
  const q = (s: string): string => quote(s, sys.env);
  if (ops.length === 0) return usage("missing operand");
  const fifo = ops[1] === "p";
  const expected = ops.length >= 2 && fifo ? 2 : 4;
  if (ops.length < expected) {
    const more = ops.length === 2 ? "\nSpecial files require major and minor device numbers." : "";
    return usage(`missing operand after ${q(ops[ops.length - 1]!)}${more}`);
  }
  if (ops.length > expected) return usage(`extra operand ${q(ops[expected]!)}${fifo ? "\nFifos do not have major and minor device numbers." : ""}`);
  const [name, type] = ops as [string, string];
  if (!fifo) {
    if (!["b", "c", "u"].includes(type)) return stderr.write(`mknod: invalid device type ${q(type)}\n`), 1;
    if (!/^\d+$/.test(ops[2]!)) return stderr.write(`mknod: invalid major device number ${q(ops[2]!)}\n`), 1;
    if (!/^\d+$/.test(ops[3]!)) return stderr.write(`mknod: invalid minor device number ${q(ops[3]!)}\n`), 1;
  }
  stderr.write(`mknod: ${quotef(name)}: ${strerrorOf(specialFileError(sys, name, !fifo))}\n`);
  return 1;
}
