import type { ExecFailure } from "./executable.js";
import { basename } from "./path.js";

/**
 * What the shell (brush) writes about itself, made to read like bash. Each of its lines comes in one
 * write of the shell process (guest-abi §1), so a whole write is matched, never a fragment of a stream.
 */

/** Its tracing lines: dropped from its stderr, whatever that is connected to. */
const NOISE = [
  "\x1b[33m WARN\x1b[0m could not retrieve pid for child process\n",
  "\x1b[31mERROR\x1b[0m unhandled process exit\n",
].map((s) => Buffer.from(s));

/** brush's error prefix, in colour; bash says `sh: ` (the name it was started as). */
const ERROR_PREFIX = Buffer.from("\x1b[31merror:\x1b[39m ");
const NOT_FOUND = /^command not found: (.*)\n$/s;
const NOT_EXECUTED = /^failed to execute command '(.*)': .*\n$/s;

export function isShellNoise(data: Uint8Array): boolean {
  return NOISE.some((n) => n.equals(data));
}

/**
 * An error line of the shell as bash writes it: `sh: ` instead of the coloured `error: `, and for a
 * command that could not be run, bash's words: `sh: x: command not found`, or what the kernel said when
 * it could not exec that command (`failure`: `sh: ./x.sh: Permission denied`). Anything else is returned
 * as it is.
 */
export function shellMessage(data: Uint8Array, failure?: { argv0: string; error: ExecFailure }): Uint8Array {
  if (data.length <= ERROR_PREFIX.length || !ERROR_PREFIX.equals(data.subarray(0, ERROR_PREFIX.length))) return data;
  const text = Buffer.from(data.subarray(ERROR_PREFIX.length)).toString();
  const notFound = NOT_FOUND.exec(text)?.[1];
  const command = notFound ?? NOT_EXECUTED.exec(text)?.[1];
  // The shell names the command as typed; it may have asked for it as `<PATH dir>/<name>` (executable.ts).
  const why = command !== undefined && failure && (failure.argv0 === command || basename(failure.argv0) === command) ? failure.error : undefined;
  if (why) return Buffer.from(`sh: ${why.path}: ${why.text}\n`);
  return Buffer.from(notFound !== undefined ? `sh: ${notFound}: command not found\n` : `sh: ${text}`);
}
