import { quote, quotef } from "../../src/gnu/quote.js";
import { strerror } from "../../src/gnu/strerror.js";
import type { ScriptProcess } from "../script-host.js";
import { SysError, type System } from "../system.js";
import { versionText } from "../../src/gnu/version.js";

const HELP = `Usage: xargs [OPTION]... COMMAND [INITIAL-ARGS]...
Run COMMAND with arguments INITIAL-ARGS and more arguments read from input.

Mandatory and optional arguments to long options are also
mandatory or optional for the corresponding short option.
  -0, --null                   items are separated by a null, not whitespace;
                                 disables quote and backslash processing and
                                 logical EOF processing
  -a, --arg-file=FILE          read arguments from FILE, not standard input
  -d, --delimiter=CHARACTER    items in input stream are separated by CHARACTER,
                                 not by whitespace; disables quote and backslash
                                 processing and logical EOF processing
  -E END                       set logical EOF string; if END occurs as a line
                                 of input, the rest of the input is ignored
                                 (ignored if -0 or -d was specified)
  -e, --eof[=END]              equivalent to -E END if END is specified;
                                 otherwise, there is no end-of-file string
  -I R                         same as --replace=R
  -i, --replace[=R]            replace R in INITIAL-ARGS with names read
                                 from standard input, split at newlines;
                                 if R is unspecified, assume {}
  -L, --max-lines=MAX-LINES    use at most MAX-LINES non-blank input lines per
                                 command line
  -l[MAX-LINES]                similar to -L but defaults to at most one non-
                                 blank input line if MAX-LINES is not specified
  -n, --max-args=MAX-ARGS      use at most MAX-ARGS arguments per command line
  -o, --open-tty               Reopen stdin as /dev/tty in the child process
                                 before executing the command; useful to run an
                                 interactive application.
  -p, --interactive            prompt before running commands
      --process-slot-var=VAR   set environment variable VAR in child processes
  -P, --max-procs=MAX-PROCS    run at most MAX-PROCS processes at a time
  -r, --no-run-if-empty        if there are no arguments, then do not run COMMAND;
                                 if this option is not given, COMMAND will be
                                 run at least once
  -s, --max-chars=MAX-CHARS    limit length of command line to MAX-CHARS
      --show-limits            show limits on command-line length
  -t, --verbose                print commands before executing them
  -x, --exit                   exit if the size (see -s) is exceeded
      --help                   display this help and exit
      --version                output version information and exit
`;

/** Option letter → whether it takes an argument: required, optional (attached only) or none. */
const SHORT: Record<string, "required" | "optional" | "none"> = {
  "0": "none",
  a: "required",
  d: "required",
  E: "required",
  e: "optional",
  I: "required",
  i: "optional",
  L: "required",
  l: "optional",
  n: "required",
  o: "none",
  p: "none",
  P: "required",
  r: "none",
  s: "required",
  t: "none",
  x: "none",
};

const LONG: Record<string, [string, "required" | "optional" | "none"]> = {
  null: ["0", "none"],
  "arg-file": ["a", "required"],
  delimiter: ["d", "required"],
  eof: ["e", "optional"],
  replace: ["i", "optional"],
  "max-lines": ["L", "required"],
  "max-args": ["n", "required"],
  "open-tty": ["o", "none"],
  interactive: ["p", "none"],
  "max-procs": ["P", "required"],
  "no-run-if-empty": ["r", "none"],
  "max-chars": ["s", "required"],
  verbose: ["t", "none"],
  exit: ["x", "none"],
  "process-slot-var": ["slot", "required"],
  "show-limits": ["limits", "none"],
  help: ["help", "none"],
  version: ["version", "none"],
};

class Usage extends Error {}
class Fatal extends Error {}

/** getopt_long with "+": options up to the first operand (the command). */
function parseOptions(args: readonly string[]): { options: Array<[string, string | undefined]>; rest: string[] } {
  const options: Array<[string, string | undefined]> = [];
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      i++;
      break;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      const exact = LONG[name] ? [name] : Object.keys(LONG).filter((l) => l.startsWith(name));
      if (exact.length === 0) throw new Usage(`unrecognized option '${arg}'`);
      if (exact.length > 1) throw new Usage(`option '${eq < 0 ? arg : arg.slice(0, eq)}' is ambiguous; possibilities:${exact.map((l) => ` '--${l}'`).join("")}`);
      const long = exact[0]!;
      const [key, kind] = LONG[long]!;
      let value: string | undefined;
      if (eq >= 0) {
        if (kind === "none") throw new Usage(`option '--${long}' doesn't allow an argument`);
        value = arg.slice(eq + 1);
      } else if (kind === "required") {
        if (i + 1 >= args.length) throw new Usage(`option '--${long}' requires an argument`);
        value = args[++i];
      }
      options.push([key, value]);
      continue;
    }
    if (!arg.startsWith("-") || arg === "-") break;
    for (let j = 1; j < arg.length; j++) {
      const c = arg[j]!;
      const kind = SHORT[c];
      if (!kind) throw new Usage(`invalid option -- '${c}'`);
      if (kind === "none") {
        options.push([c, undefined]);
        continue;
      }
      let value: string | undefined = arg.slice(j + 1);
      if (value === "") {
        if (kind === "required") {
          if (i + 1 >= args.length) throw new Usage(`option requires an argument -- '${c}'`);
          value = args[++i];
        } else value = undefined;
      }
      options.push([c, value]);
      break;
    }
  }
  return { options, rest: args.slice(i) };
}

/** -d's argument: one character, or an escape (\n, \t, \0, \x41, \101). */
function delimiter(text: string): number {
  if (text.length === 1) return text.charCodeAt(0);
  const escapes: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, "\\": 92 };
  if (text.startsWith("\\")) {
    const rest = text.slice(1);
    if (rest.length === 1 && escapes[rest] !== undefined) return escapes[rest]!;
    if (/^x[0-9a-fA-F]{1,2}$/.test(rest)) return parseInt(rest.slice(1), 16);
    if (/^[0-7]{1,3}$/.test(rest)) return parseInt(rest, 8) & 0xff;
    if (rest.length === 1) return rest.charCodeAt(0);
  }
  throw new Fatal(`invalid input delimiter specification ${text}: the delimiter must be either a single character or an escape sequence starting with \\.`);
}

function positive(option: string, value: string, min: number): number {
  if (!/^\s*[+]?\d+$/.test(value)) throw new Usage(`invalid number "${value}" for -${option} option`);
  const n = Number(value);
  if (n < min) throw new Usage(`value ${value} for -${option} option should be >= ${min}`);
  return n;
}

/** Reads its input in chunks as items are needed. */
class Input {
  private buf = Buffer.alloc(0);
  private pos = 0;
  private eof = false;

  constructor(
    private readonly sys: System,
    private readonly fd: number,
  ) {}

  /** The next byte, or -1 at end of input. */
  byte(): number {
    if (this.pos >= this.buf.length) {
      if (this.eof) return -1;
      const chunk = this.sys.read(this.fd);
      if (chunk.length === 0) {
        this.eof = true;
        return -1;
      }
      this.buf = Buffer.from(chunk);
      this.pos = 0;
    }
    return this.buf[this.pos++]!;
  }

  /** Gives back the byte just read. */
  unread(c: number): void {
    if (c >= 0) this.pos--;
  }
}

interface Item {
  text: string;
  /** The item ends a (non-continued) input line: counts for -L. */
  endsLine: boolean;
}

const isBlank = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 11 || c === 12 || c === 13;

/** Items of the default format: blank-separated, with quotes and backslashes; undefined at end. */
function readDefaultItem(input: Input, linesMode: boolean, eofString: string | undefined, state: { done: boolean; unmatched?: string }): Item | undefined {
  if (state.done) return undefined;
  for (;;) {
    let c = input.byte();
    // Skip blanks (and empty lines).
    while (c !== -1 && isBlank(c)) c = input.byte();
    if (c === -1) {
      state.done = true;
      return undefined;
    }
    const bytes: number[] = [];
    let quoted = false;
    let endsLine = false;
    for (;;) {
      if (c === -1) {
        endsLine = true;
        break;
      }
      if (c === 10) {
        endsLine = true;
        break;
      }
      if (isBlank(c)) {
        // A blank at the end of a line continues it (-L).
        if (linesMode) {
          let n = input.byte();
          while (n === 32 || n === 9) n = input.byte();
          if (n === 10 || n === -1) {
            endsLine = false;
            break;
          }
          // It starts the next item.
          input.unread(n);
        }
        break;
      }
      if (c === 39 || c === 34) {
        quoted = true;
        if (!quotedInto(input, c, bytes, state)) return undefined;
      } else if (c === 92) {
        const n = input.byte();
        if (n === -1) break;
        bytes.push(n);
      } else bytes.push(c);
      c = input.byte();
    }
    return endOfItem(bytes, quoted, eofString, state, endsLine);
  }
}

/** After an opening quote `q`: the bytes up to the closing one; false (the input done) when a line or the input ends first. */
function quotedInto(input: Input, q: number, bytes: number[], state: { done: boolean; unmatched?: string }): boolean {
  for (;;) {
    const c = input.byte();
    if (c === -1 || c === 10) {
      state.done = true;
      state.unmatched = q === 39 ? "single" : "double";
      return false;
    }
    if (c === q) return true;
    bytes.push(c);
  }
}

/** The item read, or undefined (the input done) when it is the -E end-of-file string, unquoted. */
function endOfItem(bytes: number[], quoted: boolean, eofString: string | undefined, state: { done: boolean }, endsLine: boolean): Item | undefined {
  const text = Buffer.from(bytes).toString("utf8");
  if (eofString !== undefined && !quoted && text === eofString) {
    state.done = true;
    return undefined;
  }
  return { text, endsLine };
}

/** Items separated by one byte (-0, -d): no quoting; undefined at end. */
function readDelimitedItem(input: Input, delim: number, state: { done: boolean }): Item | undefined {
  if (state.done) return undefined;
  const bytes: number[] = [];
  for (;;) {
    const c = input.byte();
    if (c === -1) {
      state.done = true;
      if (bytes.length === 0) return undefined;
      break;
    }
    if (c === delim) break;
    bytes.push(c);
  }
  return { text: Buffer.from(bytes).toString("utf8"), endsLine: true };
}

/** -I: one item per line, leading blanks removed, quotes and backslashes processed; undefined at end. */
function readLineItem(input: Input, eofString: string | undefined, state: { done: boolean; unmatched?: string }): Item | undefined {
  if (state.done) return undefined;
  for (;;) {
    let c = input.byte();
    while (c === 32 || c === 9) c = input.byte();
    if (c === -1) {
      state.done = true;
      return undefined;
    }
    if (c === 10) continue;
    const bytes: number[] = [];
    let quoted = false;
    while (c !== -1 && c !== 10) {
      if (c === 39 || c === 34) {
        quoted = true;
        if (!quotedInto(input, c, bytes, state)) return undefined;
      } else if (c === 92) {
        const n = input.byte();
        if (n === -1) break;
        bytes.push(n);
      } else bytes.push(c);
      c = input.byte();
    }
    return endOfItem(bytes, quoted, eofString, state, true);
  }
}

/**
 * GNU xargs (findutils 4.9): builds command lines from the items of its input and runs them, up to -P at
 * a time. Exits 123 when a command failed, 124 when one exited 255, 125 when one was killed, 126 or 127
 * when the command could not be run or found.
 */
export default function xargs({ sys, argv, stdout, stderr }: ScriptProcess): number {
  const fail = (message: string): number => {
    stderr.write(`xargs: ${message}\n`);
    return 1;
  };
  let parsed;
  try {
    parsed = parseOptions(argv.slice(1));
  } catch (e) {
    if (!(e instanceof Usage)) throw e;
    return fail(`${e.message}\nTry 'xargs --help' for more information.`);
  }
  let delim: number | undefined;
  let eofString: string | undefined;
  let replace: string | undefined;
  let maxLines: number | undefined;
  let maxArgs: number | undefined;
  let maxChars = 131072;
  let maxProcs = 1;
  let noRunIfEmpty = false;
  let verbose = false;
  let exitIfTooLong = false;
  let argFile: string | undefined;
  let slotVar: string | undefined;
  try {
    for (const [key, value] of parsed.options) {
      switch (key) {
        case "help":
          stdout.write(HELP);
          return 0;
        case "version":
          stdout.write(versionText("xargs", "GNU findutils 4.9.0"));
          return 0;
        case "limits":
          break;
        case "0":
          delim = 0;
          break;
        case "d":
          delim = delimiter(value!);
          break;
        case "a":
          argFile = value;
          break;
        case "E":
          eofString = value;
          break;
        case "e":
          eofString = value || undefined;
          break;
        case "I":
          replace = value;
          maxLines = 1;
          maxArgs = undefined;
          exitIfTooLong = true;
          break;
        case "i":
          replace = value ?? "{}";
          maxLines = 1;
          maxArgs = undefined;
          exitIfTooLong = true;
          break;
        case "L":
          maxLines = positive("L", value!, 1);
          maxArgs = undefined;
          replace = undefined;
          break;
        case "l":
          maxLines = value === undefined ? 1 : positive("l", value, 1);
          maxArgs = undefined;
          replace = undefined;
          break;
        case "n":
          maxArgs = positive("n", value!, 1);
          if (replace === undefined) maxLines = undefined;
          break;
        case "P":
          maxProcs = positive("P", value!, 0);
          break;
        case "s":
          if (/^\s*0+$/.test(value!))
            // GNU reports the value and then that nothing fits.
            return fail("value 0 for -s option should be >= 1\nxargs: cannot fit single argument within argument list size limit");
          maxChars = positive("s", value!, 1);
          break;
        case "r":
          noRunIfEmpty = true;
          break;
        case "t":
        case "p":
          verbose = true;
          break;
        case "x":
          exitIfTooLong = true;
          break;
        case "slot":
          slotVar = value;
          break;
      }
    }
  } catch (e) {
    if (e instanceof Usage) return fail(`${e.message}\nTry 'xargs --help' for more information.`);
    if (e instanceof Fatal) return fail(e.message);
    throw e;
  }
  const command = parsed.rest.length > 0 ? parsed.rest : ["echo"];
  let inputFd = 0;
  if (argFile !== undefined) {
    try {
      inputFd = argFile === "-" ? 0 : sys.open(argFile);
    } catch (e) {
      return fail(`Cannot open input file ${quote(argFile, sys.env)}: ${strerror(e)}`);
    }
  }
  // The commands' stdin: /dev/null while xargs reads its own stdin, else the inherited one.
  const childStdin = argFile !== undefined && argFile !== "-" ? 0 : undefined;
  const input = new Input(sys, inputFd);
  const state: { done: boolean; unmatched?: string } = { done: false };
  const next = (): Item | undefined =>
    delim !== undefined
      ? readDelimitedItem(input, delim, state)
      : replace !== undefined
        ? readLineItem(input, eofString, state)
        : readDefaultItem(input, maxLines !== undefined, eofString, state);

  let status = 0;
  let stop = false;
  const running = new Map<number, string>();
  const slots = new Map<number, number>();
  const reap = (pid?: number): void => {
    // The oldest child when none is named: waitpid(-1) can lose a child's exit in the kernel (see report).
    const which = pid ?? running.keys().next().value!;
    const result = { pid: which, status: sys.wait(which) };
    const name = running.get(result.pid) ?? command[0]!;
    running.delete(result.pid);
    slots.delete(result.pid);
    const w = result.status;
    if (w & 0x7f) {
      stderr.write(`xargs: ${name}: terminated by signal ${w & 0x7f}\n`);
      status = 125;
      stop = true;
      return;
    }
    const code = (w >> 8) & 0xff;
    if (code === 255) {
      stderr.write(`xargs: ${name}: exited with status 255; aborting\n`);
      status = 124;
      stop = true;
    } else if (code !== 0 && status === 0) status = 123;
    else if (code !== 0 && status < 123) status = 123;
  };
  const run = (args: string[]): void => {
    if (verbose) {
      stderr.write(`${args.map(quotef).join(" ")}\n`);
    }
    stdout.flush();
    stderr.flush();
    const limit = maxProcs === 0 ? Number.POSITIVE_INFINITY : maxProcs;
    while (running.size >= limit && !stop) reap();
    if (stop) return;
    let env = sys.env;
    let slot = 0;
    if (slotVar !== undefined) {
      const used = new Set(slots.values());
      while (used.has(slot)) slot++;
      env = { ...sys.env, [slotVar]: String(slot) };
    }
    let pid: number;
    for (;;) {
      try {
        pid = sys.spawn(args, [childStdin, 1, 2], env);
        break;
      } catch (e) {
        const code = e instanceof SysError ? e.code : "";
        // No room for another process (EAGAIN): as GNU xargs, wait for one of its own to end and try
        // again; with none running, it cannot fork.
        if (code === "EAGAIN" && running.size > 0) {
          reap();
          if (stop) return;
          continue;
        }
        if (code === "EAGAIN") {
          stderr.write(`xargs: cannot fork: ${strerror(e)}\n`);
          status = 1;
        } else {
          stderr.write(`xargs: ${args[0]}: ${strerror(e)}\n`);
          status = code === "ENOENT" ? 127 : 126;
        }
        stop = true;
        return;
      }
    }
    running.set(pid, args[0]!);
    if (slotVar !== undefined) slots.set(pid, slot);
    if (maxProcs === 1) reap(pid);
  };

  const fixedSize = command.reduce((n, c) => n + Buffer.byteLength(c) + 1, 0);
  let ranOnce = false;
  try {
    if (replace !== undefined) {
      const r = replace;
      for (let item = next(); item && !stop; item = next()) {
        const args = command.map((c) => c.replaceAll(r, item!.text));
        const size = args.reduce((n, c) => n + Buffer.byteLength(c) + 1, 0);
        if (size > maxChars) {
          stderr.write("xargs: argument line too long\n");
          status = 1;
          stop = true;
          break;
        }
        run(args);
        ranOnce = true;
      }
    } else {
      if (fixedSize > maxChars) {
        stderr.write("xargs: argument line too long\n");
        status = 1;
        stop = true;
      }
      let args: string[] = [];
      let size = fixedSize;
      let lines = 0;
      const flush = (): void => {
        run([...command, ...args]);
        ranOnce = true;
        args = [];
        size = fixedSize;
        lines = 0;
      };
      for (let item = stop ? undefined : next(); item && !stop; item = next()) {
        const n = Buffer.byteLength(item.text) + 1;
        if (size + n > maxChars) {
          if (args.length === 0 || exitIfTooLong) {
            stderr.write("xargs: argument line too long\n");
            status = 1;
            stop = true;
            break;
          }
          flush();
          if (stop) break;
        }
        args.push(item.text);
        size += n;
        if (item.endsLine) lines++;
        if ((maxArgs !== undefined && args.length >= maxArgs) || (maxLines !== undefined && lines >= maxLines)) {
          flush();
        }
      }
      if (!stop && (args.length > 0 || (!ranOnce && !noRunIfEmpty && !state.unmatched))) flush();
    }
    while (running.size > 0) reap();
  } finally {
    if (inputFd !== 0) sys.close(inputFd);
  }
  if (state.unmatched) {
    stderr.write(`xargs: unmatched ${state.unmatched} quote; by default quotes are special to xargs unless you use the -0 option\n`);
    if (status === 0) status = 1;
  }
  return status;
}
