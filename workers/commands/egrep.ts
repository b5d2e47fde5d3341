import type { ScriptProcess } from "../script-host.js";
import { run } from "./grep.js";

/** GNU's egrep script as Debian ships grep 3.8 (no obsolescence warning): `grep -E "$@"`. */
export default function egrep(p: ScriptProcess): number {
  return run(p, ["-E", ...p.argv.slice(1)]);
}
