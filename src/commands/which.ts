import type { CommandHandler } from "./command.js";

/**
 * `which [-a] NAME…` as Debian's which: for each name, the first `DIR/NAME` along PATH that is an
 * executable regular file (all of them with -a); a name with a slash is printed if it is one. Nothing is
 * printed for a name not found; the status is then 1.
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
  const isExecutable = (path: string): boolean => {
    try {
      const st = ctx.fs.stat(path);
      return st.type === "file" && (st.mode & 0o111) !== 0;
    } catch {
      return false;
    }
  };
  const dirs = (ctx.env["PATH"] ?? "").split(":").map((d) => d || ".");
  let status = names.length === 0 ? 1 : 0;
  for (const name of names) {
    const found = (name.includes("/") ? [name] : dirs.map((d) => `${d}/${name}`)).filter(isExecutable);
    const shown = all ? found : found.slice(0, 1);
    if (shown.length > 0) ctx.writeStdout(shown.map((p) => `${p}\n`).join(""));
    else status = 1;
  }
  return status;
};
