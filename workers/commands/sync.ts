import { quoteaf } from "../../src/gnu/quote.js";
import { strerror } from "../../src/gnu/strerror.js";
import type { ScriptProcess } from "../script-host.js";
import { parseArgs, usageError } from "./parse-args.js";

/** GNU sync: the VM's file system is in memory, so there is nothing to write back; named files must open. */
export default function sync(p: ScriptProcess): number {
  const parsed = parseArgs(
    p,
    [
      { key: "d", short: "d", long: "data" },
      { key: "f", short: "f", long: "file-system" },
    ],
    "Usage: sync [OPTION] [FILE]...\nSynchronize cached writes to persistent storage\n",
  );
  if (typeof parsed === "number") return parsed;
  const keys = parsed.options.map((o) => o.key);
  if (keys.includes("d") && keys.includes("f")) return p.stderr.write("sync: cannot specify both --data and --file-system\n"), 1;
  if (keys.includes("d") && parsed.operands.length === 0) return usageError(p, "--data needs at least one argument");
  let status = 0;
  for (const file of parsed.operands) {
    try {
      p.sys.close(p.sys.open(file));
    } catch (e) {
      p.stderr.write(`sync: error opening ${quoteaf(file)}: ${strerror(e)}\n`);
      status = 1;
    }
  }
  return status;
}
