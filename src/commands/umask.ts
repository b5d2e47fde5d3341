/**
 * `umask [-p] [-S] [MODE]` with bash's output forms (`0022`, `-S`: `u=rwx,g=rx,o=rx`, `-p`: `umask 0022`).
 * The mask is fixed at 0022 (kernel/umask.ts): the shell has no umask builtin, and this command is a
 * process of its own, which could not change its shell's mask anyway. So a MODE that amounts to 0022
 * succeeds silently, and any other fails with status 1 and says why; bad modes and options fail as bash's do.
 */
import type { CommandHandler } from "./command.js";
import { UMASK } from "../kernel/umask.js";

const USAGE = "umask: usage: umask [-p] [-S] [mode]\n";

class UmaskError {
  constructor(readonly message: string) {}
}

export const umask: CommandHandler = (ctx) => {
  let symbolic = false;
  let reusable = false;
  let i = 1;
  for (; i < ctx.argv.length; i++) {
    const arg = ctx.argv[i]!;
    if (arg === "--") {
      i++;
      break;
    }
    if (arg === "--help") {
      ctx.writeStdout(`${USAGE.slice("umask: usage: ".length)}    Display the file mode creation mask, fixed at 0022 here.\n`);
      return 0;
    }
    if (!arg.startsWith("-") || arg === "-") break;
    for (const c of arg.slice(1)) {
      if (c === "S") symbolic = true;
      else if (c === "p") reusable = true;
      else {
        ctx.writeStderr(`umask: -${c}: invalid option\n${USAGE}`);
        return 2;
      }
    }
  }
  const mode = ctx.argv[i];
  if (mode === undefined) {
    ctx.writeStdout(`${reusable ? (symbolic ? "umask -S " : "umask ") : ""}${symbolic ? symbolicMask(UMASK) : octal(UMASK)}\n`);
    return 0;
  }
  let mask: number;
  try {
    mask = /^[0-9]/.test(mode) ? octalMask(mode) : 0o777 & ~applySymbolic(mode, 0o777 & ~UMASK);
  } catch (e) {
    if (!(e instanceof UmaskError)) throw e;
    ctx.writeStderr(`umask: ${e.message}\n`);
    return 1;
  }
  if (mask !== UMASK) {
    ctx.writeStderr(`umask: cannot set the mask to ${octal(mask)}: the file mode creation mask is fixed at ${octal(UMASK)} in this VM\n`);
    return 1;
  }
  if (symbolic) ctx.writeStdout(`${symbolicMask(mask)}\n`);
  return 0;
};

const octal = (mask: number): string => mask.toString(8).padStart(4, "0");

/** u=rwx,g=rx,o=rx: the permissions the mask leaves. */
function symbolicMask(mask: number): string {
  const perms = ~mask & 0o777;
  const part = (shift: number): string => (perms >> shift & 4 ? "r" : "") + (perms >> shift & 2 ? "w" : "") + (perms >> shift & 1 ? "x" : "");
  return `u=${part(6)},g=${part(3)},o=${part(0)}`;
}

/** bash's read_octal: up to 07777, kept to the permission bits. */
function octalMask(mode: string): number {
  if (!/^[0-7]+$/.test(mode) || parseInt(mode, 8) > 0o7777) throw new UmaskError(`${mode}: octal number out of range`);
  return parseInt(mode, 8) & 0o777;
}

/** bash's parse_symbolic_mode: `[ugoa]*[-+=][rwx]*`, comma-separated, applied to the permissions `bits`. */
function applySymbolic(mode: string, bits: number): number {
  const WHO: Record<string, number> = { u: 0o700, g: 0o070, o: 0o007, a: 0o777 };
  const PERM: Record<string, number> = { r: 0o444, w: 0o222, x: 0o111 };
  let i = 0;
  for (;;) {
    let who = 0;
    for (; WHO[mode[i] ?? ""] !== undefined; i++) who |= WHO[mode[i]!]!;
    const op = mode[i++] ?? "";
    if (op !== "+" && op !== "-" && op !== "=") throw new UmaskError(`\`${op}': invalid symbolic mode operator`);
    let perm = 0;
    for (; PERM[mode[i] ?? ""] !== undefined; i++) perm |= PERM[mode[i]!]!;
    if (i < mode.length && mode[i] !== ",") throw new UmaskError(`\`${mode[i]}': invalid symbolic mode character`);
    if (who) perm &= who;
    if (op === "+") bits |= perm;
    else if (op === "-") bits &= ~perm;
    else bits = (bits & ~(who || 0o777)) | perm;
    if (i++ >= mode.length) return bits;
  }
}
