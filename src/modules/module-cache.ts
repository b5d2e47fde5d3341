import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";

/**
 * Compiled WebAssembly modules, once per host process. Multicall binaries ship as identical files under
 * several names, so modules are keyed by content hash; paths map to hashes so each file is read once.
 */
const byHash = new Map<string, Promise<WebAssembly.Module>>();
const byPath = new Map<string, Promise<WebAssembly.Module>>();

export const moduleStats = { compiles: 0, cacheHits: 0, fileReads: 0 };

export function loadModule(file: string): Promise<WebAssembly.Module> {
  const cached = byPath.get(file);
  if (cached) {
    moduleStats.cacheHits++;
    return cached;
  }
  const loading = readFile(file).then((bytes) => {
    moduleStats.fileReads++;
    const hash = createHash("sha256").update(bytes).digest("hex");
    const known = byHash.get(hash);
    if (known) return known;
    moduleStats.compiles++;
    const compiled = WebAssembly.compile(bytes);
    byHash.set(hash, compiled);
    return compiled;
  });
  byPath.set(file, loading);
  // A failed read or compile is not cached: the next use tries again.
  loading.catch(() => byPath.delete(file));
  return loading;
}
