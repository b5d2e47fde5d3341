import { UMASK } from "../abi/user.js";

/**
 * The file mode creation mask (abi/user.ts), the same for every process and fixed: `umask` is a command of the
 * runtime (commands/umask.ts), not a builtin of the shell, and could not change its shell's mask.
 */
export { UMASK };
/** rwxr-xr-x */
export const DIR_MODE = 0o777 & ~UMASK;
/** rw-r--r-- */
export const FILE_MODE = 0o666 & ~UMASK;
