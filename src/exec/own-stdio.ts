import { shellQuote } from "./shell-quote.js";

/**
 * brush hands a child its own stdout or stderr as "inherit" (fd 1 or 2) whatever `2>&1` or `1>&2` says,
 * but a file it opened as that file's fd (userland.md §2.2). So a command runs as
 * `eval 'SCRIPT' </dev/stdin >/dev/stdout 2>/dev/stderr`: the kernel answers those opens with new
 * references to the shell's own fds 0–2 (syscalls/path.ts), and the shell then gives every child the fds
 * its redirections ask for. `eval` parses and reports errors as `sh -c` does, and keeps `exit` the
 * script's own.
 */
export function withOwnStdio(script: string): string {
  return `eval ${shellQuote(script)} </dev/stdin >/dev/stdout 2>/dev/stderr`;
}
