/** Checks of API arguments that are not paths (exec and spawn options, modes): a bad one is a TypeError with a Node-style code. */

import { constants as osConstants } from "node:os";

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

/**
 * Rejects option names that `known` does not list (a misspelt `timout` would otherwise be ignored without a
 * word). `what` names the call in the message: `exec`, `spawn`, `create` …
 */
export function checkOptionNames(what: string, options: object, known: readonly string[]): void {
  for (const name of Object.keys(options))
    if (!known.includes(name))
      throw Object.assign(
        new TypeError(`unknown option ${JSON.stringify(name)} of ${what} (known: ${known.join(", ")})`),
        { code: "ERR_INVALID_ARG_VALUE" },
      );
}

/** A signal as the API takes it: a number, or a name such as "SIGTERM" (os.constants.signals). */
export type SignalLike = number | NodeJS.Signals;

/**
 * The number of a signal given by number or by name. The VM's signal numbers are Linux's (abi/wasi.ts
 * Signal), and so are the numbers `os.constants.signals` gives on Linux; 0 (only "is it running?") is
 * allowed, as kill(2) allows it.
 */
export function signalNumber(signal: unknown): number {
  if (typeof signal === "string") {
    const n = (osConstants.signals as Record<string, number | undefined>)[signal];
    if (n === undefined) throw invalid("signal", signal, "a signal name such as \"SIGTERM\" or a signal number");
    return n;
  }
  if (typeof signal !== "number" || !Number.isInteger(signal) || signal < 0 || signal > 64)
    throw invalid("signal", signal, "a signal name such as \"SIGTERM\" or a signal number from 0 to 64");
  return signal;
}
