import { FileType } from "../src/abi/wasi.js";

/** Entries of one listing whose stats are kept (a larger listing has the rest asked for one by one). */
const MAX_ENTRIES = 4096;
const FILETYPE_OFFSET = 16;

/**
 * The stats the kernel sent with a directory's entries (Sys.READDIR with statsFor), which answer the
 * process's path_filestat_get (and libposix's path_stat) of those entries without a round trip to the kernel: `ls -l`, `ls -R` and
 * `du` list a directory and then stat every entry in it.
 *
 * Coherence: the stats are what STAT answered at the moment the kernel listed them, and they serve only
 * until the process makes any other system call (KernelClient.call forgets them) or reads a clock. Until
 * then the process has learnt nothing since that moment — it can only hear of another process's change,
 * or of the host's, through a system call or the time — so the answers are the ones a STAT at that moment
 * gives, as if the stats had been made then. Each listing replaces the one before, so that all the stats
 * served come from one moment. Only paths written without `.`, `..`, `//` or a trailing slash are served
 * (the kernel's checks of such a path passed when it made the stat); anything else goes to the kernel.
 */
export class ListedStats {
  private dirfd = -1;
  /** The absolute VM path of `dirfd`'s directory, as the kernel names it. */
  private dir = "";
  private readonly stats = new Map<string, Uint8Array>();

  constructor(private readonly rootFd: number) {}

  /**
   * A listing of directory fd `dirfd` (at VM path `dir`) gave `count` entries: unless it gave none of the
   * directory read before (its end, which tells nothing new), the stats kept so far go.
   */
  begin(dirfd: number, dir: string, count: number): void {
    if (count === 0 && dirfd === this.dirfd) return;
    this.forget();
    this.dirfd = dirfd;
    this.dir = dir === "/" ? "" : dir;
  }

  /**
   * Entry `name` of the listing begun last has `stat`: the 64-byte filestat, then u32 st_mode, as Sys.STAT
   * answers them (copied). `.` is the directory's own.
   */
  add(name: string, stat: Uint8Array): void {
    if (this.stats.size < MAX_ENTRIES) this.stats.set(name === "." ? this.dir || "/" : `${this.dir}/${name}`, stat.slice());
  }

  forget(): void {
    if (this.dirfd === -1) return;
    this.dirfd = -1;
    this.stats.clear();
  }

  /**
   * What Sys.STAT would answer for `path` (written relative to `dirfd`), if a listing gave it: the filestat
   * and u32 st_mode (68 bytes). A link to follow is the kernel's to resolve.
   */
  lookup(dirfd: number, path: string, follow: boolean): Uint8Array | undefined {
    if (this.dirfd === -1 || !clean(path)) return undefined;
    const abs = path.startsWith("/") ? path : dirfd === this.rootFd ? `/${path}` : dirfd === this.dirfd ? `${this.dir}/${path}` : undefined;
    const stat = abs === undefined ? undefined : this.stats.get(abs);
    if (!stat || (follow && stat[FILETYPE_OFFSET] === FileType.SYMBOLIC_LINK)) return undefined;
    return stat;
  }
}

/** A path as the kernel would name it after normalising: no empty, `.` or `..` component (a leading `/` aside). */
function clean(path: string): boolean {
  if (path === "" || path === "/" || path.endsWith("/")) return false;
  const parts = path.split("/");
  for (let i = path.startsWith("/") ? 1 : 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part === "" || part === "." || part === "..") return false;
  }
  return true;
}
