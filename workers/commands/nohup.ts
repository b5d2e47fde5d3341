import { quoteaf } from "../../src/gnu/quote.js";
import type { ScriptProcess } from "../script-host.js";
import { runCommand } from "./run-command.js";
import { versionText } from "../../src/gnu/version.js";

/**
 * GNU nohup. Nothing in the VM is a terminal and no signal reaches a command from one, so it runs the
 * command as it is, with this process's stdin, stdout and stderr (GNU does the same when none of them is
 * a terminal).
 */
export default function nohup(p: ScriptProcess): number {
  const args = p.argv.slice(1);
  if (args[0] === "--") args.shift();
  if (args[0] === "--help") return p.stdout.write("Usage: nohup COMMAND [ARG]...\n  or:  nohup OPTION\nRun COMMAND, ignoring hangup signals.\n"), 0;
  if (args[0] === "--version") return p.stdout.write(versionText("nohup", "GNU coreutils 9.1")), 0;
  if (args[0]?.startsWith("-") && args[0] !== "-") {
    p.stderr.write(`nohup: ${args[0].startsWith("--") ? `unrecognized option '${args[0]}'` : `invalid option -- '${args[0][1]}'`}\nTry 'nohup --help' for more information.\n`);
    return 125;
  }
  if (args.length === 0) {
    p.stderr.write("nohup: missing operand\nTry 'nohup --help' for more information.\n");
    return 125;
  }
  return runCommand(p, args, `nohup: failed to run command ${quoteaf(args[0]!)}`);
}
