import type { CommandFile, CommandFs } from "../src/commands/command.js";

/** A file system error shaped like the kernel's: an Error with an errno-name `code`. */
export function fsError(code: string): Error {
  return Object.assign(new Error(code), { code });
}

/**
 * A CommandFs over `files` (path → latin1 text, every byte one character), for running a TypeScript
 * command without a VM. The paths in `dirs` are directories; a path under `/nonexistent/` has no parent.
 * `open` keeps an offset per opened file, as the kernel's does.
 */
export function memoryCommandFs(files: Map<string, string>, dirs: readonly string[] = []): CommandFs {
  const bytes = (d: Uint8Array | string): string =>
    typeof d === "string" ? Buffer.from(d).toString("latin1") : Buffer.from(d.buffer, d.byteOffset, d.byteLength).toString("latin1");
  const noParent = (path: string): boolean => path.startsWith("/nonexistent/");
  return {
    readFile: (path) => {
      if (dirs.includes(path)) throw fsError("EISDIR");
      const content = files.get(path);
      if (content === undefined) throw fsError("ENOENT");
      return Buffer.from(content, "latin1");
    },
    writeFile: (path, data) => {
      if (noParent(path)) throw fsError("ENOENT");
      files.set(path, bytes(data));
    },
    exists: (path) => files.has(path) || dirs.includes(path),
    stat: () => {
      throw fsError("ENOENT");
    },
    chmod: () => {},
    readdir: () => [],
    open: (path, flags): CommandFile => {
      const isDir = dirs.includes(path);
      if (flags === "r") {
        if (!isDir && !files.has(path)) throw fsError("ENOENT");
      } else {
        if (isDir) throw fsError("EISDIR");
        if (noParent(path)) throw fsError("ENOENT");
        if (flags === "wx" && files.has(path)) throw fsError("EEXIST");
        files.set(path, "");
      }
      let at = 0;
      let closed = false;
      const live = (): void => {
        if (closed) throw fsError("EBADF");
      };
      return {
        read: async (target) => {
          live();
          if (isDir) throw fsError("EISDIR");
          const data = Buffer.from(files.get(path) ?? "", "latin1").subarray(at, at + target.length);
          target.set(data);
          at += data.length;
          return data.length;
        },
        write: (data) => {
          live();
          if (flags === "r") throw fsError("EBADF");
          files.set(path, (files.get(path) ?? "") + bytes(data));
        },
        close: () => {
          closed = true;
        },
      };
    },
    unlink: (path) => {
      if (!files.delete(path)) throw fsError(dirs.includes(path) ? "EISDIR" : "ENOENT");
    },
  };
}
