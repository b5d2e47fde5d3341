import { strerror } from "../../src/gnu/strerror.js";
import type { ScriptProcess } from "../script-host.js";
import { SysError } from "../system.js";
import { versionText } from "../../src/gnu/version.js";

/** Linux's signal names by number. */
const SIGNALS = ["", "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL", "USR1", "SEGV", "USR2", "PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU", "URG", "XCPU", "XFSZ", "VTALRM", "PROF", "WINCH", "POLL", "PWR", "SYS"];

const USAGE = `
Usage:
 kill [options] <pid> [...]

Options:
 <pid> [...]            send signal to every <pid> listed
 -<signal>, -s, --signal <signal>
                        specify the <signal> to be sent
 -q, --queue <value>    integer value to be sent with the signal
 -l, --list=[<signal>]  list all signal names, or convert one to a name
 -L, --table            list all signal names in a nice table

 -h, --help     display this help and exit
 -V, --version  output version information and exit

For more details see kill(1).
`;

/** A signal's number from its name (with or without SIG, any case) or number; undefined when unknown. */
function signalNumber(text: string): number | undefined {
  if (/^\d+$/.test(text)) return Number(text) < SIGNALS.length ? Number(text) : undefined;
  const name = text.toUpperCase().replace(/^SIG/, "");
  const n = SIGNALS.indexOf(name);
  return n > 0 ? n : name === "IO" ? 29 : name === "IOT" ? 6 : name === "CLD" ? 17 : undefined;
}

/**
 * procps kill, the program (the shell's `kill` is its builtin): sends a signal to VM processes by pid
 * (kill(2) of the VM's kernel), lists signal names.
 */
export default function kill({ sys, argv, stdout, stderr }: ScriptProcess): number {
  const me = argv[0]!;
  const usage = (why: string): number => (stderr.write(`${me}: ${why}\n${USAGE}`), 1);
  const args = argv.slice(1);
  let signal = 15;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") {
      i++;
      break;
    }
    if (a === "-h" || a === "--help") return stdout.write(USAGE), 0;
    if (a === "-V" || a === "--version") return stdout.write(versionText("kill", "procps-ng 4.0.2")), 0;
    if (a === "-l" || a === "--list" || a.startsWith("--list=")) {
      const what = a.startsWith("--list=") ? a.slice(7) : args[i + 1];
      if (what === undefined) {
        const names = SIGNALS.slice(1);
        stdout.write(`${names.slice(0, 16).join(" ")}\n${names.slice(16).join(" ")}\n`);
        return 0;
      }
      const n = signalNumber(what);
      if (n === undefined) return stderr.write(`${me}: unknown signal name ${what}\n`), 1;
      stdout.write(/^\d+$/.test(what) ? `${SIGNALS[n]}\n` : `${n}\n`);
      return 0;
    }
    if (a === "-L" || a === "--table") {
      for (let n = 1; n < SIGNALS.length; n += 7) {
        stdout.write(`${SIGNALS.slice(n, n + 7).map((s, k) => `${String(n + k).padStart(2)} ${s.padEnd(7)}`).join(" ").trimEnd()}\n`);
      }
      return 0;
    }
    if (a === "-s" || a === "--signal" || a === "-n") {
      const v = args[++i];
      if (v === undefined) return usage(`invalid argument ${a.slice(1)}`);
      const n = signalNumber(v);
      if (n === undefined) return stderr.write(`${me}: unknown signal name ${v}\n`), 1;
      signal = n;
      continue;
    }
    if (/^-\d+$/.test(a) && i + 1 < args.length && signal === 15) {
      const n = signalNumber(a.slice(1));
      if (n === undefined) return usage(`invalid argument ${a.slice(1)}`);
      signal = n;
      continue;
    }
    if (/^-[A-Za-z]/.test(a)) {
      const n = signalNumber(a.slice(1));
      if (n === undefined) return usage(`invalid argument ${a[1]}`);
      signal = n;
      continue;
    }
    break;
  }
  const pids = args.slice(i);
  if (pids.length === 0) return stderr.write(USAGE), 1;
  let status = 0;
  for (const text of pids) {
    if (!/^-?\d+$/.test(text)) {
      stderr.write(`${me}: failed to parse argument: '${text}'\n`);
      status = 1;
      continue;
    }
    try {
      sys.kill(Number(text), signal);
    } catch (e) {
      if (!(e instanceof SysError)) throw e;
      stderr.write(`${me}: (${text}): ${strerror(e)}\n`);
      status = 1;
    }
  }
  return status;
}
