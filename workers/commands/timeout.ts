import { quote } from "../../src/gnu/quote.js";
import type { ScriptProcess } from "../script-host.js";
import { getopt, UsageError } from "./getopt.js";
import { exitStatusOf, startCommand } from "./run-command.js";
import { versionText } from "../../src/gnu/version.js";

const SIGNALS: Record<string, number> = { HUP: 1, INT: 2, QUIT: 3, KILL: 9, USR1: 10, USR2: 12, PIPE: 13, ALRM: 14, TERM: 15, CONT: 18, STOP: 19 };
const UNITS: Record<string, number> = { "": 1, s: 1, m: 60, h: 3600, d: 86400 };
/** What a timed-out command exits with, as GNU timeout. */
const TIMED_OUT = 124;

/** Seconds, or undefined when `text` is not a duration (`1.5`, `2m`, `.5s`). */
function duration(text: string): number | undefined {
  const m = /^(\d*\.?\d*)([smhd]?)$/.exec(text);
  if (!m || m[1] === "" || m[1] === ".") return undefined;
  return Number(m[1]) * UNITS[m[2]!]!;
}

function signal(text: string): number | undefined {
  if (/^\d+$/.test(text)) return Number(text);
  return SIGNALS[text.toUpperCase().replace(/^SIG/, "")];
}

/**
 * GNU timeout: runs a command and sends it a signal (TERM) when it outlives DURATION, then KILL after
 * --kill-after. The wait is a pidfd polled with a deadline (System.waitFor), not a sleep.
 */
export default function timeout(p: ScriptProcess): number {
  const usage = (message: string): number => (p.stderr.write(`timeout: ${message}\nTry 'timeout --help' for more information.\n`), 125);
  let parsed;
  try {
    parsed = getopt(
      p.argv.slice(1),
      [
        { key: "signal", short: "s", long: "signal", arg: "required" },
        { key: "kill-after", short: "k", long: "kill-after", arg: "required" },
        { key: "preserve-status", long: "preserve-status" },
        { key: "foreground", long: "foreground" },
        { key: "verbose", short: "v", long: "verbose" },
        { key: "help", long: "help" },
        { key: "version", long: "version" },
      ],
      true,
    );
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return usage(e.message);
  }
  let sig = SIGNALS.TERM!;
  let signalName = "TERM";
  let killAfter: number | undefined;
  let preserve = false;
  let verbose = false;
  for (const o of parsed.options) {
    if (o.key === "help") return p.stdout.write("Usage: timeout [OPTION] DURATION COMMAND [ARG]...\n  or:  timeout [OPTION]\nStart COMMAND, and kill it if still running after DURATION.\n"), 0;
    if (o.key === "version") return p.stdout.write(versionText("timeout", "GNU coreutils 9.1")), 0;
    if (o.key === "signal") {
      const n = signal(o.value!);
      if (n === undefined) {
        p.stderr.write(`timeout: ${quote(o.value!, p.sys.env)}: invalid signal\nTry 'timeout --help' for more information.\n`);
        return 125;
      }
      sig = n;
      signalName = Object.keys(SIGNALS).find((k) => SIGNALS[k] === n) ?? String(n);
    }
    if (o.key === "kill-after") {
      killAfter = duration(o.value!);
      if (killAfter === undefined) return usage(`invalid time interval ${quote(o.value!, p.sys.env)}`);
    }
    if (o.key === "preserve-status") preserve = true;
    if (o.key === "verbose") verbose = true;
  }
  const [limitText, ...command] = parsed.operands;
  // GNU says only how to get help here.
  if (limitText === undefined || command.length === 0) return p.stderr.write("Try 'timeout --help' for more information.\n"), 125;
  const limit = duration(limitText);
  if (limit === undefined) return usage(`invalid time interval ${quote(limitText, p.sys.env)}`);
  const started = startCommand(p, command, `timeout: failed to run command ${quote(command[0]!, p.sys.env)}`);
  if ("status" in started) return started.status;
  const { pid } = started;
  // A duration of 0 disables the timeout.
  if (limit === 0 || p.sys.waitFor(pid, limit * 1000)) return exitStatusOf(p.sys.wait(pid));
  const send = (n: number, name: string): void => {
    if (verbose) p.stderr.write(`timeout: sending signal ${name} to command ${quote(command[0]!, p.sys.env)}\n`), p.stderr.flush();
    p.sys.kill(pid, n);
  };
  send(sig, signalName);
  if (killAfter !== undefined && !p.sys.waitFor(pid, killAfter * 1000)) send(SIGNALS.KILL!, "KILL");
  const status = exitStatusOf(p.sys.wait(pid));
  if (preserve) return status;
  // Killed by KILL (from -s KILL or -k), timeout reports 128 + 9 as GNU's does (it dies of the same signal).
  return status === 128 + SIGNALS.KILL! ? status : TIMED_OUT;
}
