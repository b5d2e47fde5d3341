import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";

/**
 * Compiled WebAssembly modules, once per host process. Multicall binaries ship as identical files under
 * several names, so modules are keyed by content hash; paths map to hashes so each file is read once.
 */
const byHash = new Map<string, Promise<WebAssembly.Module>>();
const byPath = new Map<string, Promise<WebAssembly.Module>>();

export interface ModuleStats {
  /** Distinct binaries compiled. */
  compiles: number;
  /** Module requests served from the cache. */
  cacheHits: number;
  /** Binary files read from disk. */
  fileReads: number;
  /** Processes instantiated from a cached module. */
  instantiations: number;
}

export const moduleStats: ModuleStats = { compiles: 0, cacheHits: 0, fileReads: 0, instantiations: 0 };

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

let compiledAhead = false;

/** Starts compiling `files` in the background, once per host process, so that their first use finds them ready. */
export function compileAhead(files: readonly string[]): void {
  if (compiledAhead) return;
  compiledAhead = true;
  for (const file of files) loadModule(file).catch(() => {}); // a failure shows when the command is used
}
