import type { ScriptProcess } from "../script-host.js";
import { run } from "./grep.js";

/** GNU's fgrep script as Debian ships grep 3.8 (no obsolescence warning): `grep -F "$@"`. */
export default function fgrep(p: ScriptProcess): number {
  return run(p, ["-F", ...p.argv.slice(1)]);
}
