import { FileType } from "../abi/wasi.js";
import type { Vfs } from "./vfs.js";

export const HOME = "/home/user";

/** The environment every command starts with (guest-abi §4); exec's `env` option adds to it. */
export function defaultEnv(cwd: string): Record<string, string> {
  return {
    HOME,
    USER: "user",
    LOGNAME: "user",
    SHELL: "/bin/sh",
    PATH: "/usr/local/bin:/usr/bin:/bin",
    LANG: "C.UTF-8",
    PWD: cwd,
  };
}

/**
 * Lays out a new VM's root: a stub in /bin for every command (so `ls /bin` and `command -v` find them),
 * the user's home with the shell's history file (brush loops without it), /tmp, /etc, /dev.
 */
export function createRootLayout(vfs: Vfs, commands: readonly string[]): void {
  for (const dir of ["/bin", "/usr/bin", "/usr/local/bin", "/tmp", "/etc", HOME, "/workspace"]) vfs.mkdir(dir, true);
  vfs.chmod("/tmp", 0o1777);
  for (const name of commands) {
    vfs.writeFile(`/bin/${name}`, `#!/bin/sh\n# agentos command: ${name}\n`);
    vfs.chmod(`/bin/${name}`, 0o755);
  }
  vfs.writeFile(`${HOME}/.brush_history`, "");
  vfs.writeFile("/etc/passwd", "root:x:0:0:root:/root:/bin/sh\nuser:x:1000:1000:user:/home/user:/bin/sh\n");
  vfs.writeFile("/etc/group", "root:x:0:\nuser:x:1000:\n");
  vfs.writeFile("/etc/hostname", "agentos\n");
}

/**
 * The working directory of an exec or spawn that names none: HOME, recreated (with the shell's history
 * file) when a command removed it. Agents run `rm -rf ~` or `rm -rf /*`, and every later command would
 * otherwise fail at its `cd`; refusing the removal instead (EBUSY) is not what Linux does for a working
 * directory. When HOME cannot be a directory again (a file took its name, or the file system is full) the
 * command runs in "/" rather than not at all.
 */
export function homeDirectory(vfs: Vfs): string {
  try {
    if (vfs.stat(HOME).filetype === FileType.DIRECTORY) return HOME;
  } catch {
    // missing: made again below
  }
  try {
    vfs.mkdir(HOME, true);
    vfs.writeFile(`${HOME}/.brush_history`, "");
    return HOME;
  } catch {
    return "/";
  }
}
