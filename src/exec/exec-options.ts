/** Checks of API arguments that are not paths (exec and spawn options, modes): a bad one is a TypeError with a Node-style code. */

function invalid(name: string, value: unknown, expected: string): TypeError {
  const shown = typeof value === "string" ? JSON.stringify(value) : String(value);
  return Object.assign(new TypeError(`${name} must be ${expected}, got ${shown}`), { code: "ERR_INVALID_ARG_VALUE" });
}

/** A timeout is a number of milliseconds > 0; Infinity means none. */
export function checkTimeout(timeout: unknown): void {
  if (timeout === undefined) return;
  if (typeof timeout !== "number" || Number.isNaN(timeout) || timeout <= 0)
    throw invalid("timeout", timeout, "a number of milliseconds > 0");
}

export function checkSignal(signal: unknown): void {
  if (signal !== undefined && !(signal instanceof AbortSignal)) throw invalid("signal", signal, "an AbortSignal");
}

export function checkListener<T>(name: string, listener: T): T {
  if (listener !== undefined && typeof listener !== "function") throw invalid(name, listener, "a function");
  return listener;
}

/** A mode for chmod: permission bits only (0 to 0o7777), as a number. */
export function checkMode(mode: unknown): void {
  if (typeof mode !== "number" || !Number.isInteger(mode) || mode < 0 || mode > 0o7777)
    throw invalid("mode", mode, "an integer from 0 to 0o7777");
}
