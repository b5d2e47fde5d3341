import { strerror } from "../../src/gnu/strerror.js";
import type { ScriptProcess } from "../script-host.js";
import { parseArgs } from "./parse-args.js";

/** GNU stty: nothing in the VM is a terminal, so every use but --help fails as stty does on a pipe. */
export default function stty(p: ScriptProcess): number {
  // Settings such as -echo look like options: only the real ones are parsed.
  const args = p.argv.slice(1).filter((a, i, all) => ["--help", "--version"].includes(a) || /^-[agF]|^--(all|save|file)/.test(a) || all[i - 1] === "-F" || all[i - 1] === "--file");
  const parsed = parseArgs(
    { ...p, argv: [p.argv[0]!, ...args] },
    [
      { key: "a", short: "a", long: "all" },
      { key: "g", short: "g", long: "save" },
      { key: "F", short: "F", long: "file", arg: "required" },
    ],
    "Usage: stty [-F DEVICE | --file=DEVICE] [SETTING]...\n  or:  stty [-F DEVICE | --file=DEVICE] [-a|--all]\n  or:  stty [-F DEVICE | --file=DEVICE] [-g|--save]\nPrint or change terminal characteristics.\n",
  );
  if (typeof parsed === "number") return parsed;
  const device = parsed.options.find((o) => o.key === "F")?.value;
  if (device === undefined && p.sys.isatty(0)) return 0;
  let reason = "Inappropriate ioctl for device";
  if (device !== undefined) {
    try {
      p.sys.stat(device);
    } catch (e) {
      reason = strerror(e);
    }
  }
  p.stderr.write(`stty: ${device ?? "'standard input'"}: ${reason}\n`);
  return 1;
}
