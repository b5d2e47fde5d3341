// What Sys.OPENFILES answers (src/kernel/open-files.ts), read by the runtime's lsof (workers/commands/lsof.ts).

/** One open file of a process as lsof shows it (Sys.OPENFILES). */
export interface ListedFile {
  /** The fd's number, or cwd (working directory), rtd (root directory). */
  fd: string;
  /** r, w or u (both); "" for cwd and rtd. */
  access: string;
  /** lsof's TYPE: REG, DIR, CHR, FIFO, IPv4, IPv6, unix, a_inode. */
  type: string;
  dev?: number;
  size?: number;
  node?: number;
  /** The path, `pipe`, or for an inode without a file [pidfd], [signalfd], [roomfd]. */
  name: string;
  /** Sockets: TCP or UDP (inet), STREAM or DGRAM (unix); the addresses as `address:port`; the TCP state. */
  proto?: string;
  local?: { address: string; port: number };
  remote?: { address: string; port: number };
  state?: string;
}

export interface ListedFiles {
  pid: number;
  command: string;
  files: ListedFile[];
}
