import type { ScriptProcess } from "../script-host.js";
import { gzipMain } from "./gzip.js";

/** `gzip -dc` (GNU's zcat script). */
export default function zcat(p: ScriptProcess): number {
  return gzipMain(p, { decompress: true, stdout: true });
}
