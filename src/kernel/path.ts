/** POSIX path helpers for absolute, normalised VFS paths. */

/** Normalises an absolute path: collapses `//`, `.` and `..` (`..` at the root stays at the root). */
export function normalize(path: string): string {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return "/" + out.join("/");
}

export function join(base: string, rel: string): string {
  return normalize(rel.startsWith("/") ? rel : `${base}/${rel}`);
}

export function dirname(path: string): string {
  const i = path.lastIndexOf("/");
  return i <= 0 ? "/" : path.slice(0, i);
}

export function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}
