import type { FileStat } from "../abi/filestat.js";
import type { MemNode } from "./memfs-core.js";

/**
 * Times set to the nanosecond (utimensat, WASI's set_times), for the memory file system, whose nodes keep
 * milliseconds (a Date). Each is kept with the millisecond it was set to: while the node's time is still that
 * one, stat shows the exact time; once anything else sets it (a write, another utimes), the node's own again.
 */
const exact = new WeakMap<MemNode, { atime?: [number, bigint]; mtime?: [number, bigint] }>();

const NS_PER_MS = 1_000_000n;

/** Sets the node's times (undefined leaves one as it is) to these nanoseconds since the epoch. */
export function setExactTimes(node: MemNode, atimeNs: bigint | undefined, mtimeNs: bigint | undefined): void {
  const kept = exact.get(node) ?? {};
  if (atimeNs !== undefined) {
    const ms = Number(atimeNs / NS_PER_MS);
    node.atime = new Date(ms);
    kept.atime = [ms, atimeNs];
  }
  if (mtimeNs !== undefined) {
    const ms = Number(mtimeNs / NS_PER_MS);
    node.mtime = new Date(ms);
    kept.mtime = [ms, mtimeNs];
  }
  exact.set(node, kept);
}

/** `st` (the node's stat) with the exact times that still hold. */
export function withExactTimes(node: MemNode, st: FileStat): FileStat {
  const kept = exact.get(node);
  if (!kept) return st;
  if (kept.atime && kept.atime[0] === st.atimeMs) st.atimeNs = kept.atime[1];
  if (kept.mtime && kept.mtime[0] === st.mtimeMs) st.mtimeNs = kept.mtime[1];
  return st;
}
