import { quoteaf } from "../../src/gnu/quote.js";
import { strerror } from "../../src/gnu/strerror.js";
import type { ScriptProcess } from "../script-host.js";
import { parseArgs, usageError } from "./parse-args.js";
import { runCommand } from "./run-command.js";

/**
 * GNU chroot for the VM's user, who is not root: a new root is EPERM (after the checks chroot(2) makes
 * first: the directory must exist); `/` is the root already, which GNU does not change, so the command
 * just runs (default `$SHELL -i`).
 */
export default function chroot(p: ScriptProcess): number {
  const parsed = parseArgs(
    p,
    [
      { key: "groups", long: "groups", arg: "required" },
      { key: "userspec", long: "userspec", arg: "required" },
      { key: "skip-chdir", long: "skip-chdir" },
    ],
    "Usage: chroot [OPTION]... NEWROOT [COMMAND [ARG]...]\nRun COMMAND with root directory set to NEWROOT.\n",
    { usageStatus: 125, stopAtOperand: true },
  );
  if (typeof parsed === "number") return parsed;
  const [root, ...command] = parsed.operands;
  if (root === undefined) return usageError(p, "missing operand", 125);
  let isRoot = false;
  try {
    const st = p.sys.stat(root);
    const top = p.sys.stat("/");
    isRoot = st.dev === top.dev && st.ino === top.ino;
    if (st.kind !== "dir") throw Object.assign(new Error(), { code: "ENOTDIR" });
    if (!isRoot) throw Object.assign(new Error(), { code: "EPERM" });
  } catch (e) {
    p.stderr.write(`chroot: cannot change root directory to ${quoteaf(root)}: ${strerror(e)}\n`);
    return 125;
  }
  if (parsed.options.some((o) => o.key === "userspec" || o.key === "groups")) {
    p.stderr.write("chroot: failed to set supplemental groups: Operation not permitted\n");
    return 125;
  }
  const argv = command.length > 0 ? command : [p.sys.env["SHELL"] || "/bin/sh", "-i"];
  return runCommand(p, argv, `chroot: failed to run command ${quoteaf(argv[0]!)}`);
}
