import { strerror } from "../../src/gnu/strerror.js";
import { versionText } from "../../src/gnu/version.js";
import type { ScriptProcess } from "../script-host.js";

/**
 * less 590 when its output is not a terminal (nothing is in the VM): it copies each file, or its standard input
 * when it names none (`-` names it too), and the options only steer a screen it never draws. What it still says
 * is kept: a missing file or a directory is reported on standard output and skipped; an option it does not know,
 * or a number option whose value is not a number, is reported on standard error and less goes on; an option
 * without its value at the end of the line is reported and nothing is copied. It ends with 0 in every case, as
 * less does.
 */

/** Letters whose value follows (attached or as the next argument), with the long name less gives in messages. */
const VALUE_LETTERS: Record<string, { long: string; number: boolean }> = {
  b: { long: "buffers", number: true },
  D: { long: "color", number: false },
  h: { long: "max-back-scroll", number: true },
  j: { long: "jump-target", number: false },
  k: { long: "lesskey-file", number: false },
  o: { long: "log-file", number: false },
  O: { long: "LOG-FILE", number: false },
  p: { long: "pattern", number: false },
  P: { long: "prompt", number: false },
  t: { long: "tag", number: false },
  T: { long: "tag-file", number: false },
  x: { long: "tabs", number: false },
  y: { long: "max-forw-scroll", number: true },
  z: { long: "window", number: true },
  '"': { long: "quotes", number: false },
  "#": { long: "shift", number: false },
};
const FLAG_LETTERS = new Set("aABcCdeEfFgGiIJKLmMnNqQrRsSuUwWX~0123456789");
const LONG_FLAGS = [
  "search-skip-screen", "SEARCH-SKIP-SCREEN", "auto-buffers", "clear-screen", "dumb", "quit-at-eof", "QUIT-AT-EOF",
  "force", "quit-if-one-screen", "hilite-search", "HILITE-SEARCH", "ignore-case", "IGNORE-CASE", "status-column",
  "quit-on-intr", "no-lessopen", "long-prompt", "LONG-PROMPT", "line-numbers", "LINE-NUMBERS", "quiet", "QUIET",
  "silent", "SILENT", "raw-control-chars", "RAW-CONTROL-CHARS", "squeeze-blank-lines", "chop-long-lines",
  "underline-special", "UNDERLINE-SPECIAL", "hilite-unread", "HILITE-UNREAD", "no-init", "tilde", "file-size",
  "follow-name", "incsearch", "mouse", "no-keypad", "no-histdups", "save-marks", "use-backslash", "use-color",
  "help", "version",
];
const LONG_VALUES = [...Object.values(VALUE_LETTERS).map((v) => v.long), "line-num-width", "rscroll", "status-col-width", "wheel-lines"];
const ALL_LONG = [...LONG_FLAGS, ...LONG_VALUES];

const HELP = `
                   SUMMARY OF LESS COMMANDS

      Commands marked with * may be preceded by a number, N.
      Notes in parentheses indicate the behavior if N is given.

  (This less copies its input: the VM has no terminal to page on.)
`;

type Parsed = { files: string[]; exit?: "version" | "help" };

export default function less({ sys, argv, stdout, stderr }: ScriptProcess): number {
  const complaints: string[] = [];
  const parsed = parse(argv.slice(1), complaints);
  for (const complaint of complaints) stderr.write(`${complaint}\n`);
  if (parsed === "stop") return 0;
  if (parsed.exit === "version") return stdout.write(versionText("less", "less 590")), 0;
  if (parsed.exit === "help") return stdout.write(HELP), 0;
  if (parsed.files.length === 0) {
    stdout.write(sys.readAll(0));
    return 0;
  }
  for (const file of parsed.files) {
    if (file === "-") {
      stdout.write(sys.readAll(0));
      continue;
    }
    try {
      if (sys.stat(file).kind === "dir") {
        stdout.write(`${file} is a directory\n`);
        continue;
      }
      stdout.write(sys.readFile(file));
    } catch (e) {
      stdout.write(`${file}: ${strerror(e)}\n`);
    }
  }
  return 0;
}

function parse(args: string[], complaints: string[]): Parsed | "stop" {
  const files: string[] = [];
  let exit: Parsed["exit"];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      files.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith("+")) continue; // a less command to run on each file
    if (arg.startsWith("--")) {
      const [name, value] = splitLong(arg.slice(2));
      const matches = ALL_LONG.filter((long) => long.startsWith(name));
      const long = ALL_LONG.includes(name) ? name : matches.length === 1 ? matches[0] : undefined;
      if (long === undefined) {
        const what = arg.slice(2);
        complaints.push(matches.length > 1 ? `${what} is an ambiguous abbreviation ("less --help" for help)` : `There is no ${what} option ("less --help" for help)`);
        continue;
      }
      if (long === "version") exit ??= "version";
      else if (long === "help") exit ??= "help";
      else if (LONG_VALUES.includes(long)) {
        const letter = Object.entries(VALUE_LETTERS).find(([, v]) => v.long === long)?.[0];
        if (letter === undefined) {
          if (value === undefined) i++;
        } else if (!takeValue(letter, value ?? args[++i], complaints)) return "stop";
      }
      continue;
    }
    if (arg.startsWith("-") && arg !== "-") {
      for (let j = 1; j < arg.length; j++) {
        const c = arg[j]!;
        if (VALUE_LETTERS[c]) {
          if (!takeValue(c, j + 1 < arg.length ? arg.slice(j + 1) : args[++i], complaints)) return "stop";
          break;
        }
        if (c === "V") exit ??= "version";
        else if (c === "?") exit ??= "help";
        else if (!FLAG_LETTERS.has(c)) complaints.push(`There is no -${c} option ("less --help" for help)`);
      }
      continue;
    }
    files.push(arg);
  }
  return { files, exit };
}

/** Checks an option's value as less does; false when it is missing, which ends less. */
function takeValue(letter: string, given: string | undefined, complaints: string[]): boolean {
  const { long, number } = VALUE_LETTERS[letter]!;
  if (given === undefined) {
    complaints.push(`Value is required after -${letter} (--${long})`);
    return false;
  }
  if (number && !/^\d+$/.test(given)) complaints.push(`Number is required after -${letter} (--${long})`);
  return true;
}

function splitLong(text: string): [string, string | undefined] {
  const eq = text.indexOf("=");
  return eq < 0 ? [text, undefined] : [text.slice(0, eq), text.slice(eq + 1)];
}
