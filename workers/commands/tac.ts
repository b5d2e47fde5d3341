import { quoteaf } from "../../src/gnu/quote.js";
import { strerror } from "../../src/gnu/strerror.js";
import type { ScriptProcess } from "../script-host.js";
import { getopt, UsageError } from "./getopt.js";
import { versionText } from "../../src/gnu/version.js";

const SPECS = [
  { key: "before", short: "b", long: "before" },
  { key: "regex", short: "r", long: "regex" },
  { key: "separator", short: "s", long: "separator", arg: "required" as const },
  { key: "help", long: "help" },
  { key: "version", long: "version" },
];

const HELP = `Usage: tac [OPTION]... [FILE]...
Write each FILE to standard output, last line first.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -b, --before             attach the separator before instead of after
  -r, --regex              interpret the separator as a regular expression
  -s, --separator=STRING   use STRING as the separator instead of newline
      --help        display this help and exit
      --version     output version information and exit
`;

/** GNU tac: each file's records (lines, or what --separator ends) in reverse order. */
export default function tac({ sys, argv, stdout, stderr }: ScriptProcess): number {
  let parsed;
  try {
    parsed = getopt(argv.slice(1), SPECS);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    stderr.write(`tac: ${e.message}\nTry 'tac --help' for more information.\n`);
    return 1;
  }
  let before = false;
  let regex = false;
  let separator = "\n";
  for (const o of parsed.options) {
    if (o.key === "help") return stdout.write(HELP), 0;
    if (o.key === "version") return stdout.write(versionText("tac", "GNU coreutils 9.1")), 0;
    if (o.key === "before") before = true;
    if (o.key === "regex") regex = true;
    if (o.key === "separator") separator = o.value!;
  }
  if (separator === "") {
    stderr.write("tac: separator cannot be empty\n");
    return 1;
  }
  const split = regex ? new RegExp(separator, "g") : undefined;
  let status = 0;
  let held = 0;
  for (const file of parsed.operands.length > 0 ? parsed.operands : ["-"]) {
    let text: string;
    try {
      const bytes = file === "-" ? sys.readAll(0) : sys.readFile(file);
      held += bytes.length;
      if (held > sys.maxMemoryBytes) {
        stderr.write("tac: memory exhausted\n");
        return 1;
      }
      text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("latin1");
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === "ENOMEM") return stderr.write("tac: memory exhausted\n"), 1;
      if (code === "EISDIR") stderr.write(`tac: ${quoteaf(file)}: read error: Is a directory\n`);
      else stderr.write(`tac: failed to open ${quoteaf(file)} for reading: ${strerror(e)}\n`);
      status = 1;
      continue;
    }
    stdout.write(Buffer.from(reverse(text, separator, split, before), "latin1"));
  }
  return status;
}

/** Records end with the separator (start with it, with --before); the last may lack it. */
function reverse(text: string, separator: string, split: RegExp | undefined, before: boolean): string {
  const records: string[] = [];
  let start = 0;
  const next = (from: number): [number, number] | undefined => {
    if (!split) {
      const i = text.indexOf(separator, from);
      return i < 0 ? undefined : [i, separator.length];
    }
    split.lastIndex = from;
    const m = split.exec(text);
    return m ? [m.index, Math.max(m[0].length, 1)] : undefined;
  };
  if (before) {
    // A record is a separator and what follows it, up to the next one; text before the first stands alone.
    let at = next(0);
    if (!at) return text;
    if (at[0] > 0) records.push(text.slice(0, at[0]));
    for (;;) {
      const following = next(at[0] + at[1]);
      const end = following ? following[0] : text.length;
      records.push(text.slice(at[0], end));
      if (!following) break;
      at = following;
    }
  } else {
    for (let at = next(0); at; at = next(start)) {
      records.push(text.slice(start, at[0] + at[1]));
      start = at[0] + at[1];
    }
    if (start < text.length) records.push(text.slice(start));
  }
  return records.reverse().join("");
}
