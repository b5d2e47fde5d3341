import { HOST_GATEWAY_ADDRESS, HOST_GATEWAY_NAME } from "../net/address-class.js";
import { FileType } from "../abi/wasi.js";
import { STUB_PREFIX } from "./executable.js";
import type { Vfs } from "./vfs.js";

const encoder = new TextEncoder();

export const HOME = "/home/user";
/** PATH of every command, and where exec searches when PATH is unset. */
export const DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin";

/** The environment every command starts with (guest-abi §4); exec's `env` option adds to it. */
export function defaultEnv(cwd: string): Record<string, string> {
  return {
    HOME,
    USER: "user",
    LOGNAME: "user",
    SHELL: "/bin/sh",
    PATH: DEFAULT_PATH,
    LANG: "C.UTF-8",
    PWD: cwd,
  };
}

/**
 * Lays out a new VM's root: the userland (see userland), the user's home, /tmp, /etc, /dev.
 */
export function createRootLayout(vfs: Vfs, commands: { names(): readonly string[] }): void {
  for (const dir of ["/usr/local/bin", "/tmp", "/etc", HOME, "/workspace"]) vfs.mkdir(dir, true);
  vfs.chmod("/tmp", 0o1777);
  layUserland(vfs, commands);
  vfs.writeFile("/etc/passwd", "root:x:0:0:root:/root:/bin/sh\nuser:x:1000:1000:user:/home/user:/bin/sh\n");
  vfs.writeFile("/etc/group", "root:x:0:\nuser:x:1000:\n");
  vfs.writeFile("/etc/hostname", "agentos\n");
  vfs.writeFile("/etc/hosts", ETC_HOSTS);
  vfs.writeFile("/etc/resolv.conf", "# Names are answered by the VM's kernel, for the names its network policy allows.\nnameserver 127.0.0.53\n");
  vfs.writeFile("/etc/nsswitch.conf", "hosts: files dns\n");
}

/** The VM's /etc/hosts: its own loopback, and the one address that reaches the host's (src/net/address-class.ts). */
const ETC_HOSTS = `127.0.0.1\tlocalhost
::1\tlocalhost ip6-localhost ip6-loopback
${HOST_GATEWAY_ADDRESS}\t${HOST_GATEWAY_NAME}
`;

/**
 * The userland's files: a stub in /usr/bin for every command, which exec runs as that command
 * (executable.ts), and /bin a link to it (merged /usr, as on Debian: `#!/usr/bin/env` and `#!/bin/sh` both
 * find their program). Laid out again by an exec after /usr/bin is gone (`rm -rf /*`): the userland is the
 * VM's, not the user's data. A command removed on its own stays removed, as on Linux.
 */
export function userland(vfs: Vfs, commands: { names(): readonly string[] }): void {
  if (vfs.typeOf("/usr/bin") !== FileType.DIRECTORY) layUserland(vfs, commands);
}

/** The stubs and /bin, where nothing of those names is: a file of an image layer keeps its name. */
function layUserland(vfs: Vfs, commands: { names(): readonly string[] }): void {
  try {
    vfs.mkdir("/usr/bin", true);
    if (!vfs.exists("/bin")) vfs.symlink("usr/bin", "/bin");
    vfs.addFiles(
      "/usr/bin",
      commands.names().map((name) => ({ name, data: encoder.encode(`${STUB_PREFIX}${name}\n`), mode: 0o755 })),
    );
  } catch {
    // A file took its name, or the file system is full: commands are then not found, as on Linux.
  }
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
    return HOME;
  } catch {
    return "/";
  }
}
