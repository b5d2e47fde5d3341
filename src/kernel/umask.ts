/**
 * The file mode creation mask, the same for every process and fixed: `umask` is a command of the runtime
 * (commands/umask.ts), not a builtin of the shell, and could not change its shell's mask. New entries get
 * the modes Linux gives them under umask 022.
 */
export const UMASK = 0o022;
/** rwxr-xr-x */
export const DIR_MODE = 0o777 & ~UMASK;
/** rw-r--r-- */
export const FILE_MODE = 0o666 & ~UMASK;
