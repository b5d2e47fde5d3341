import type { ScriptProcess } from "../script-host.js";
import { gzipMain } from "./gzip.js";

/** `gzip -d` (GNU's gunzip script). */
export default function gunzip(p: ScriptProcess): number {
  return gzipMain(p, { decompress: true });
}
