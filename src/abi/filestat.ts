/**
 * The 64-byte WASI filestat, which is also the kernel's wire form of a stat result:
 * dev u64 @0, ino u64 @8, filetype u8 @16, nlink u64 @24, size u64 @32, atim @40, mtim @48, ctim @56
 * (timestamps in nanoseconds). The kernel writes it; the process host copies it into guest memory.
 */
export const FILESTAT_SIZE = 64;

export interface FileStat {
  dev: number;
  ino: number;
  filetype: number;
  nlink: number;
  size: number;
  atimeMs: number;
  mtimeMs: number;
  ctimeMs: number;
  /** st_mode, type and permission bits, where the file system gave it (not on the wire: Sys.STAT's out). */
  mode?: number;
  /** The times to the nanosecond, when known beyond the millisecond (src/kernel/exact-times.ts). */
  atimeNs?: bigint;
  mtimeNs?: bigint;
}

const msToNs = (ms: number): bigint => BigInt(Math.round(ms * 1e6));

export function writeFileStat(view: DataView, offset: number, st: FileStat): void {
  view.setBigUint64(offset, BigInt(st.dev), true);
  view.setBigUint64(offset + 8, BigInt(st.ino), true);
  view.setBigUint64(offset + 16, BigInt(st.filetype), true);
  view.setBigUint64(offset + 24, BigInt(st.nlink), true);
  view.setBigUint64(offset + 32, BigInt(st.size), true);
  view.setBigUint64(offset + 40, st.atimeNs ?? msToNs(st.atimeMs), true);
  view.setBigUint64(offset + 48, st.mtimeNs ?? msToNs(st.mtimeMs), true);
  view.setBigUint64(offset + 56, msToNs(st.ctimeMs), true);
}
