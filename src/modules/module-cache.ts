import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { importMemory } from "./memory-import.js";
import { moduleStats } from "./module-stats.js";

export { moduleStats, type ModuleStats } from "./module-stats.js";

/** A command binary ready to instantiate: compiled with its memory turned into an import (memory-import.ts). */
export interface CompiledCommand {
  module: WebAssembly.Module;
  /** The memory the module needs at least, in pages: the initial size of the memory given to it. */
  minimumPages: number;
  /** The maximum the module declared for itself, in pages, if any. */
  maximumPages: number | undefined;
}

/**
 * Compiled WebAssembly modules, once per host process. Multicall binaries ship as identical files under
 * several names, so modules are keyed by the content hash of the file as published; paths map to hashes
 * so each file is read once.
 */
const byHash = new Map<string, Promise<CompiledCommand>>();
const byPath = new Map<string, Promise<CompiledCommand>>();


export function loadModule(file: string): Promise<CompiledCommand> {
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
    const compiled = compileCommand(bytes);
    byHash.set(hash, compiled);
    compiled.catch(() => byHash.delete(hash));
    return compiled;
  });
  byPath.set(file, loading);
  // A failed read or compile is not cached: the next use tries again.
  loading.catch(() => byPath.delete(file));
  return loading;
}

async function compileCommand(bytes: Uint8Array): Promise<CompiledCommand> {
  const { bytes: rewritten, minimumPages, maximumPages } = importMemory(bytes);
  return { module: await WebAssembly.compile(rewritten), minimumPages, maximumPages };
}

let compiledAhead = false;

/** Starts compiling `files` in the background, once per host process, so that their first use finds them ready. */
export function compileAhead(files: readonly string[]): void {
  if (compiledAhead) return;
  compiledAhead = true;
  for (const file of files) loadModule(file).catch(() => {}); // a failure shows when the command is used
}
