import type { System } from "../system.js";

/**
 * The VM's users and groups as the commands see them: one user, `user` (uid and gid 1000), runs every
 * process and owns every file (stat and ls say so); names and ids resolve through /etc/passwd and
 * /etc/group as the C library's getpwnam and getgrnam do, so a user's edits to them count.
 */
export const USER = { uid: 1000, gid: 1000, name: "user", group: "user", home: "/home/user" };

export interface Entry {
  name: string;
  id: number;
  /** /etc/passwd: the primary group; /etc/group: the members. */
  gid?: number;
  members?: string[];
  /** The line's fields (for /etc/passwd: name, password, uid, gid, gecos, home, shell). */
  fields: string[];
}

function readDb(sys: System, path: string): Entry[] {
  let text: string;
  try {
    text = Buffer.from(sys.readFile(path)).toString("utf8");
  } catch {
    return [];
  }
  const entries: Entry[] = [];
  for (const line of text.split("\n")) {
    const f = line.split(":");
    if (f.length < 3 || !/^\d+$/.test(f[2]!)) continue;
    entries.push({ name: f[0]!, id: Number(f[2]), gid: path.endsWith("passwd") && /^\d+$/.test(f[3] ?? "") ? Number(f[3]) : undefined, members: path.endsWith("group") && f[3] ? f[3].split(",").filter(Boolean) : [], fields: f });
  }
  return entries;
}

export const passwd = (sys: System): Entry[] => readDb(sys, "/etc/passwd");
export const groups = (sys: System): Entry[] => readDb(sys, "/etc/group");

/** The name of `id` in `db`, or the number itself (as ls and id print an id without a name). */
export const nameOf = (db: readonly Entry[], id: number): string => db.find((e) => e.id === id)?.name ?? String(id);

/** A user or group as chown takes it: a name, else a number (`+N` is always a number); undefined when neither. */
export function lookup(db: readonly Entry[], spec: string): number | undefined {
  if (!spec.startsWith("+")) {
    const e = db.find((x) => x.name === spec);
    if (e) return e.id;
  }
  return /^\+?\d+$/.test(spec) && Number(spec.replace("+", "")) <= 0xffffffff ? Number(spec.replace("+", "")) : undefined;
}

/** The host name: /etc/hostname's first line, as the VM is laid out (kernel/root-layout.ts). */
export function hostname(sys: System): string {
  try {
    return Buffer.from(sys.readFile("/etc/hostname")).toString("utf8").split("\n")[0]!.trim() || "agentos";
  } catch {
    return "agentos";
  }
}

/**
 * When the VM started: /dev is laid out with it and cannot be changed afterwards (kernel/protected-paths.ts),
 * so its change time is the boot time; now when it cannot be read.
 */
export function bootTimeMs(sys: System): number {
  try {
    return sys.stat("/dev").ctimeMs;
  } catch {
    return Date.now();
  }
}

/**
 * How wide who and pinky print a login time: "%Y-%m-%d %H:%M" (16) in a locale of its own, "%b %e %H:%M"
 * (12) in C or POSIX (gnulib hard_locale of LC_TIME).
 */
export function loginTimeWidth(env: Readonly<Record<string, string>>): number {
  const locale = env["LC_ALL"] || env["LC_TIME"] || env["LANG"] || "C";
  return locale === "C" || locale === "POSIX" ? 12 : 16;
}
