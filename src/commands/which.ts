import type { CommandHandler } from "./command.js";

/**
 * `which [-a] NAME…` as Debian's which: for each name, the first `DIR/NAME` along PATH that is a regular
 * file (all of them with -a); a name with a slash is printed if it is a file. Nothing is printed for a
 * name not found; the status is then 1. (Every file counts as executable: the VM keeps no modes yet.)
 */
export const which: CommandHandler = (ctx) => {
  let all = false;
  let i = 1;
  for (; i < ctx.argv.length && ctx.argv[i]!.startsWith("-") && ctx.argv[i] !== "-"; i++) {
    const arg = ctx.argv[i]!;
    if (arg === "--") {
      i++;
      break;
    }
    if (arg !== "-a") {
      ctx.writeStdout(`Usage: ${ctx.argv[0]} [-a] args\n`);
      return 2;
    }
    all = true;
  }
  const names = ctx.argv.slice(i);
  const dirs = (ctx.env["PATH"] ?? "").split(":").map((d) => d || ".");
  let status = names.length === 0 ? 1 : 0;
  for (const name of names) {
    const found = name.includes("/") ? [name].filter((p) => ctx.fs.isFile(p)) : dirs.map((d) => `${d}/${name}`).filter((p) => ctx.fs.isFile(p));
    const shown = all ? found : found.slice(0, 1);
    if (shown.length > 0) ctx.writeStdout(shown.map((p) => `${p}\n`).join(""));
    else status = 1;
  }
  return status;
};
