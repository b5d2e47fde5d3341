/** What find's parts share: the run's settings and state, and one file as the walk meets it. */
import { quote } from "../../../src/gnu/quote.js";
import { errorCode, strerror } from "../../../src/gnu/strerror.js";
import type { FileKind, Output, Stat, System } from "../../system.js";

export type SymlinkMode = "P" | "L" | "H";

const S_IFMT = 0o170000;
const TYPE_OF_MODE: Record<number, string> = {
  0o040000: "d",
  0o100000: "f",
  0o120000: "l",
  0o020000: "c",
  0o060000: "b",
  0o010000: "p",
  0o140000: "s",
};
const TYPE_OF_KIND: Record<FileKind, string> = { file: "f", dir: "d", symlink: "l", char: "c", block: "b", fifo: "p", socket: "s", unknown: "?" };

/** find's one-letter type (f d l b c p s) of a stat result. */
export const typeChar = (st: Stat): string => TYPE_OF_MODE[st.mode & S_IFMT] ?? TYPE_OF_KIND[st.kind];

export class Find {
  symlinks: SymlinkMode = "P";
  depthFirst = false;
  /** -depth given explicitly (not only implied by -delete). */
  explicitDepth = false;
  maxDepth = Number.POSITIVE_INFINITY;
  minDepth = 0;
  xdev = false;
  /** Warnings about the command line: on when stdin is a terminal, or -warn. */
  warnings = false;
  regexType = "findutils-default";
  /** When the run started (ms), the origin of -mtime and friends; -daystart moves `dayStart`. */
  readonly now = Date.now();
  dayStart = this.now;
  status = 0;
  /** Set by -prune for the current file; by -quit for the run. */
  prune = false;
  quit = false;
  /** Files opened by -fprint and friends, by name. */
  readonly files = new Map<string, Output>();
  /** Run at the end (or at -quit): pending -exec … + batches. */
  readonly finishers: Array<() => void> = [];

  constructor(
    readonly sys: System,
    readonly stdout: Output,
    readonly stderr: Output,
  ) {}

  private accounts: { users: Map<string, number>; groups: Map<string, number> } | undefined;

  /** The VM's users and groups (/etc/passwd, /etc/group): name → id. */
  private table(): { users: Map<string, number>; groups: Map<string, number> } {
    if (!this.accounts) {
      const read = (path: string): Map<string, number> => {
        const map = new Map<string, number>();
        try {
          for (const line of new TextDecoder().decode(this.sys.readFile(path)).split("\n")) {
            const fields = line.split(":");
            if (fields.length >= 3 && fields[0]) map.set(fields[0], Number(fields[2]));
          }
        } catch {
          // no such file: no names
        }
        return map;
      };
      this.accounts = { users: read("/etc/passwd"), groups: read("/etc/group") };
    }
    return this.accounts;
  }

  userId(name: string): number | undefined {
    return this.table().users.get(name);
  }

  groupId(name: string): number | undefined {
    return this.table().groups.get(name);
  }

  /** The name of a user id (the number when it has none). */
  userName(uid: number): string {
    for (const [name, id] of this.table().users) if (id === uid) return name;
    return String(uid);
  }

  groupName(gid: number): string {
    for (const [name, id] of this.table().groups) if (id === gid) return name;
    return String(gid);
  }

  /** A name in the locale's quotation marks, as GNU find's messages quote file names. */
  q(name: string): string {
    return quote(name, this.sys.env);
  }

  /** "find: …" on stderr; the run then exits 1. */
  error(message: string): void {
    this.stderr.write(`find: ${message}\n`);
    this.status = 1;
  }

  warn(message: string): void {
    this.stderr.write(`find: warning: ${message}\n`);
  }

  /** Writes out what is buffered for stdout, stderr and -fprint files: before a child writes to the same fds. */
  flushAll(): void {
    this.stdout.flush();
    this.stderr.flush();
    for (const f of this.files.values()) f.flush();
  }
}

/** A usage error: find prints `find: message` and exits 1 before walking. */
export class FindError extends Error {}

/** One file as the walk meets it. */
export class Entry {
  private lst: Stat | null | undefined;
  private st: Stat | null | undefined;
  private base: string | undefined;

  constructor(
    readonly f: Find,
    /** As printed: the starting point, and names below it joined with `/`. */
    readonly path: string,
    readonly start: string,
    readonly depth: number,
    /** The type readdir answered (of the entry itself, not what a link points to). */
    public kind: FileKind | undefined,
    name?: string,
  ) {
    this.base = name;
  }

  /** The last component, as -name sees it (trailing slashes of a starting point removed). */
  get name(): string {
    if (this.base === undefined) {
      const p = this.path.replace(/\/+$/, "");
      this.base = p === "" ? "/" : p.slice(p.lastIndexOf("/") + 1);
    }
    return this.base;
  }

  /** Whether symbolic links are followed for this file (-L, or -H for a starting point). */
  get follows(): boolean {
    return this.f.symlinks === "L" || (this.f.symlinks === "H" && this.depth === 0);
  }

  lstat(): Stat | undefined {
    if (this.lst === undefined) {
      try {
        this.lst = this.f.sys.stat(this.path, false);
      } catch {
        this.lst = null;
      }
    }
    return this.lst ?? undefined;
  }

  /** What the name leads to (undefined for a dangling link). */
  statFollow(): Stat | undefined {
    if (this.st === undefined) {
      if (this.kind !== undefined && this.kind !== "symlink" && this.kind !== "unknown") this.st = this.lstat() ?? null;
      else {
        try {
          this.st = this.f.sys.stat(this.path, true);
        } catch {
          this.st = null;
        }
      }
    }
    return this.st ?? undefined;
  }

  setStat(st: Stat, followed: boolean): void {
    if (followed) this.st = st;
    else this.lst = st;
    this.kind = st.kind;
  }

  /** The stat the tests use: the link's target when following (the link itself when it dangles), else the link. */
  stat(): Stat | undefined {
    return (this.follows && this.statFollow()) || this.lstat();
  }

  /** find's type letter of the file (of the target when following). */
  type(): string {
    if (this.kind !== undefined && this.kind !== "unknown" && (this.kind !== "symlink" || !this.follows)) return TYPE_OF_KIND[this.kind];
    const st = this.stat();
    return st ? typeChar(st) : "?";
  }

  /** The type -xtype tests: the other side of the link. */
  xtype(): string {
    if (this.kind !== undefined && this.kind !== "unknown" && this.kind !== "symlink") return TYPE_OF_KIND[this.kind];
    const st = this.follows ? this.lstat() : this.statFollow() ?? this.lstat();
    return st ? typeChar(st) : "?";
  }
}

/** The C library's message for errors strerror.ts does not list. */
const MORE_ERRORS: Record<string, string> = {
  ENOTEMPTY: "Directory not empty",
  EEXIST: "File exists",
  EBUSY: "Device or resource busy",
  EXDEV: "Invalid cross-device link",
  ENOEXEC: "Exec format error",
  ENOSYS: "Function not implemented",
};

/** strerror(3) of a failed system call. */
export const errorText = (e: unknown): string => MORE_ERRORS[errorCode(e)] ?? strerror(e);
