import type { ScriptProcess } from "../script-host.js";
import { getopt, UsageError } from "./getopt.js";
import { versionText } from "../../src/gnu/version.js";
import { hostname } from "./user-db.js";
import { exitStatusOf } from "./run-command.js";
import { SysError } from "../system.js";

// procps-ng 4.0.2 watch, in TypeScript. procps's watch draws on a terminal with ncurses, which the VM has none
// of (watch itself fails with "Error opening terminal" where TERM names none): this one writes each screen it
// would draw as lines of text, one screen after another, flushed as it is drawn. A screen is what watch shows on a
// COLUMNS × LINES terminal (80 × 24 without them): the header line (unless -t) and a blank line, then the
// command's output (stdout and stderr), tabs expanded, unprintable bytes dropped, long lines wrapped (cut with
// -w), cut at the last row. The waits between runs are kernel timers (Sys.SLEEP): no polling. Not here: -d
// (highlighting changes), -c (colours) and -b's bell are accepted and draw nothing, as on a terminal without
// those attributes.

const USAGE = `
Usage:
 watch [options] command

Options:
  -b, --beep             beep if command has a non-zero exit
  -c, --color            interpret ANSI color and style sequences
  -d, --differences[=<permanent>]
                         highlight changes between updates
  -e, --errexit          exit if command has a non-zero exit
  -g, --chgexit          exit when output from command changes
  -q, --equexit <cycles>
                         exit when output from command does not change
  -n, --interval <secs>  seconds to wait between updates
  -p, --precise          attempt run command in precise intervals
  -t, --no-title         turn off header
  -w, --no-wrap          turn off line wrapping
  -x, --exec             pass command to exec instead of "sh -c"

 -h, --help     display this help and exit
 -v, --version  output version information and exit

For more details see watch(1).
`;

const SPECS = [
  { key: "b", short: "b", long: "beep" },
  { key: "c", short: "c", long: "color" },
  { key: "d", short: "d", long: "differences", arg: "optional" as const },
  { key: "e", short: "e", long: "errexit" },
  { key: "g", short: "g", long: "chgexit" },
  { key: "q", short: "q", long: "equexit", arg: "required" as const },
  { key: "n", short: "n", long: "interval", arg: "required" as const },
  { key: "p", short: "p", long: "precise" },
  { key: "t", short: "t", long: "no-title" },
  { key: "w", short: "w", long: "no-wrap" },
  { key: "x", short: "x", long: "exec" },
  { key: "h", short: "h", long: "help" },
  { key: "v", short: "v", long: "version" },
];

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad2 = (n: number): string => String(n).padStart(2, "0");
/** strftime's "%a %b %e %H:%M:%S %Y" in UTC, the VM's zone. */
function timestamp(d: Date): string {
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2)} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())} ${d.getUTCFullYear()}`;
}

/** strtod's whole-argument parse (procps's strtod_or_err): undefined when `text` is not all a number. */
function parseNumber(text: string): number | undefined {
  const t = text.trim();
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return undefined;
  return Number(t);
}

/** `LINES`/`COLUMNS` from the environment when they are positive numbers, else the fallback. */
function dimension(value: string | undefined, fallback: number): number {
  const n = value !== undefined && /^\d+$/.test(value) ? Number(value) : 0;
  return n > 0 ? n : fallback;
}

/** The rows `output` fills on a `width`-column screen from row `top` to row `height` − 1, as watch draws it. */
function screenRows(output: Uint8Array, width: number, rows: number, wrap: boolean): string[] {
  const out: string[] = [];
  let line = "";
  let i = 0;
  const text = Buffer.from(output).toString("latin1");
  while (out.length < rows && i <= text.length) {
    if (i === text.length) {
      if (line !== "") out.push(line);
      break;
    }
    const c = text[i++]!;
    if (c === "\n") {
      out.push(line);
      line = "";
      continue;
    }
    if (c === "\x1b") {
      // An escape sequence (a colour): watch interprets it, it takes no column.
      const m = /^\[[0-9;]*[A-Za-z]/.exec(text.slice(i));
      if (m) i += m[0].length;
      continue;
    }
    const code = c.charCodeAt(0);
    const printable = c === "\t" || (code >= 0x20 && code !== 0x7f && code < 0x80) || code >= 0xa0;
    if (!printable) continue;
    if (line.length >= width) {
      // The row is full: the character starts the next row, or with -w the rest of the line is skipped.
      out.push(line);
      line = "";
      if (!wrap) {
        const nl = text.indexOf("\n", i - 1);
        i = nl < 0 ? text.length : nl + 1;
        continue;
      }
    }
    if (c === "\t") {
      do line += " ";
      while (line.length % 8 !== 0 && line.length < width);
    } else line += c;
  }
  return out.slice(0, rows).map((r) => r.trimEnd());
}

export default function watch(p: ScriptProcess): number {
  const { sys, argv, stdout, stderr } = p;
  const usageError = (message: string): number => (stderr.write(`watch: ${message}\n${USAGE}`), 1);
  let parsed;
  try {
    parsed = getopt(argv.slice(1), SPECS, true);
  } catch (e) {
    if (e instanceof UsageError) return usageError(e.message);
    throw e;
  }
  let interval = 2;
  const fromEnv = sys.env["WATCH_INTERVAL"];
  if (fromEnv !== undefined) {
    const n = parseNumber(fromEnv);
    if (n === undefined) return stderr.write(`watch: Could not parse interval from WATCH_INTERVAL: '${fromEnv}': Invalid argument\n`), 1;
    interval = n;
  }
  let title = true;
  let wrap = true;
  let exec = false;
  let errExit = false;
  let changeExit = false;
  let beep = false;
  let precise = false;
  let sameCycles = 0;
  for (const { key, value } of parsed.options) {
    if (key === "h") return stdout.write(USAGE), 0;
    if (key === "v") return stdout.write(versionText("watch", "procps-ng 4.0.2")), 0;
    if (key === "n" || key === "q") {
      const n = parseNumber(value!);
      if (n === undefined) return stderr.write(`watch: failed to parse argument: '${value}': Invalid argument\n`), 1;
      if (key === "n") interval = n;
      else sameCycles = Math.trunc(n);
    } else if (key === "t") title = false;
    else if (key === "w") wrap = false;
    else if (key === "x") exec = true;
    else if (key === "e") errExit = true;
    else if (key === "g") changeExit = true;
    else if (key === "b") beep = true;
    else if (key === "p") precise = true;
  }
  if (parsed.operands.length === 0) return stderr.write(USAGE), 1;
  interval = Math.min(Math.max(interval, 0.1), 0xffffffff / 1000);
  const command = parsed.operands.join(" ");
  const width = dimension(sys.env["COLUMNS"], 80);
  const height = dimension(sys.env["LINES"], 24);
  const host = hostname(sys);
  const left = `Every ${interval.toFixed(1)}s: `;

  /** The header row: interval and command on the left, host and time on the right, clipped to the width. */
  const header = (): string => {
    const right = `${host}: ${timestamp(new Date())}`;
    if (width < right.length) return "";
    const room = width - left.length - right.length;
    if (room < 0) return `${" ".repeat(width - right.length)}${right}`;
    const shown = room > command.length ? command : room > 4 ? `${command.slice(0, room - 5)}...` : "";
    return `${(left + shown).padEnd(width - right.length)}${right}`;
  };

  /** Runs the command once: its output (stdout and stderr together) and exit status. */
  const run = (): { output: Uint8Array; status: number } => {
    const [r, w] = sys.pipe();
    let pid: number;
    try {
      pid = sys.spawn(exec ? parsed.operands : ["sh", "-c", command], [0, w, w]);
    } catch (e) {
      sys.close(r);
      sys.close(w);
      if (!(e instanceof SysError)) throw e;
      return { output: new TextEncoder().encode(`${parsed.operands[0]}: ${e.message.replace(/^.*?: /, "")}`), status: 0x7f };
    }
    sys.close(w);
    // What a screen can show is kept (a cell takes a byte, 8 at most with the escapes watch drops); the rest is
    // read and dropped, as watch does, so that the command is not stopped by a full pipe.
    const keep = Math.min(width * height * 8, sys.maxMemoryBytes);
    const chunks: Uint8Array[] = [];
    let held = 0;
    try {
      for (let c = sys.read(r); c.length > 0; c = sys.read(r)) {
        if (held >= keep) continue;
        chunks.push(c.subarray(0, keep - held));
        held += Math.min(c.length, keep - held);
      }
    } finally {
      sys.close(r);
    }
    return { output: Buffer.concat(chunks), status: exitStatusOf(sys.wait(pid)) };
  };

  const top = title ? 2 : 0;
  let previous: string[] | undefined;
  let unchanged = 0;
  for (;;) {
    const started = Date.now();
    const { output, status } = run();
    const rows = screenRows(output, width, Math.max(0, height - top), wrap);
    while (rows.length > 0 && rows[rows.length - 1] === "") rows.pop();
    const screen = title ? [header(), "", ...rows] : rows;
    stdout.write(screen.map((row) => `${row}\n`).join(""));
    if (beep && status !== 0) stdout.write("\x07");
    stdout.flush();
    if (errExit && status !== 0) {
      // watch waits for a key before it exits; end of input counts as one.
      stdout.write("command exit with a non-zero status, press a key to exit\n");
      stdout.flush();
      sys.read(0, 1);
      return 8;
    }
    const same = previous !== undefined && previous.length === rows.length && previous.every((row, k) => row === rows[k]);
    if (changeExit && previous !== undefined && !same) return 0;
    unchanged = same ? unchanged + 1 : 0;
    if (sameCycles > 0 && unchanged >= sameCycles) return 0;
    previous = rows;
    sys.sleep(precise ? Math.max(0, interval * 1000 - (Date.now() - started)) : interval * 1000);
  }
}
