import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let gc: (() => void) | undefined;

/**
 * A full collection of this worker's heap. The WebAssembly memory of a process that ended here (MiBs each) is
 * given back only once its Memory is collected, and V8 collects when JavaScript allocates, which a worker
 * waiting in a guest's system call for hours never does: a router shell's worker would hold the memory of
 * every process it ran before the shell, ~15 MiB measured, for the shell's whole life.
 *
 * V8 gives gc() only to contexts made while its --expose-gc flag is set. Unless the host runs with it (then
 * this worker has gc already), the flag is set for the one context made here and cleared at once; V8's flags
 * are the process's, so a context another thread makes in that moment has gc() too.
 */
export function collectGarbage(): void {
  gc ??= (globalThis as { gc?: () => void }).gc ?? exposeGc();
  gc();
}

function exposeGc(): () => void {
  setFlagsFromString("--expose-gc");
  try {
    return runInNewContext("gc") as () => void;
  } finally {
    setFlagsFromString("--no-expose-gc");
  }
}
