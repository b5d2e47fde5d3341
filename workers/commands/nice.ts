import { quote } from "../../src/gnu/quote.js";
import type { ScriptProcess } from "../script-host.js";
import { getopt, UsageError } from "./getopt.js";
import { runCommand } from "./run-command.js";
import { versionText } from "../../src/gnu/version.js";

/**
 * GNU nice. The VM does not schedule by niceness: every process's is 0 (what `nice` alone prints), and an
 * adjustment is checked, then the command runs as it is.
 */
export default function nice(p: ScriptProcess): number {
  const args = p.argv.slice(1);
  // The old form -N: an adjustment as an option of its own.
  let adjustment: string | undefined;
  if (args[0] !== undefined && /^-[-+]?\d+$/.test(args[0]) && !args[0].startsWith("--")) adjustment = args.shift()!.slice(1);
  let command: string[];
  try {
    const { options, operands } = getopt(
      args,
      [
        { key: "n", short: "n", long: "adjustment", arg: "required" },
        { key: "help", long: "help" },
        { key: "version", long: "version" },
      ],
      true,
    );
    command = operands;
    for (const o of options) {
      if (o.key === "help") return p.stdout.write("Usage: nice [OPTION] [COMMAND [ARG]...]\nRun COMMAND with an adjusted niceness, which affects process scheduling.\n"), 0;
      if (o.key === "version") return p.stdout.write(versionText("nice", "GNU coreutils 9.1")), 0;
      adjustment = o.value;
    }
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    p.stderr.write(`nice: ${e.message}\nTry 'nice --help' for more information.\n`);
    return 125;
  }
  if (adjustment !== undefined && !/^[-+]?\d+$/.test(adjustment)) {
    p.stderr.write(`nice: invalid adjustment ${quote(adjustment, p.sys.env)}\n`);
    return 125;
  }
  if (command.length === 0) {
    if (adjustment !== undefined) {
      p.stderr.write("nice: a command must be given with an adjustment\nTry 'nice --help' for more information.\n");
      return 125;
    }
    p.stdout.write("0\n");
    return 0;
  }
  return runCommand(p, command, `nice: ${quote(command[0]!, p.sys.env)}`);
}
