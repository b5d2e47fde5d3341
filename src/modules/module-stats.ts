/**
 * The module cache's counters (module-cache.ts), shared by all VMs of the host process. Their own file so
 * that the public types (VmStats) do not reach the cache's, which name WebAssembly types: consumers
 * without the DOM lib have no `WebAssembly` namespace.
 */
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
