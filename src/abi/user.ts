/**
 * The VM's one user, as the kernel, /etc/passwd and the guests' host_user calls show it: every process runs as
 * it and owns every file. The file mode creation mask is the same for every process and fixed.
 */
export const VM_USER = { name: "user", uid: 1000, gid: 1000, home: "/home/user", shell: "/bin/sh" } as const;

/** New entries get the modes Linux gives them under umask 022. */
export const UMASK = 0o022;
