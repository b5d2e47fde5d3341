import { charset, charsetNames, type Charset } from "../../src/gnu/charsets.js";
import { TRANSLIT_C, TRANSLIT_C_UTF8 } from "../../src/gnu/iconv-translit.js";
import { strerror } from "../../src/gnu/strerror.js";
import { versionText } from "../../src/gnu/version.js";
import type { ScriptProcess } from "../script-host.js";
import { getopt, UsageError } from "./getopt.js";

const SPECS = [
  { key: "from", short: "f", long: "from-code", arg: "required" as const },
  { key: "to", short: "t", long: "to-code", arg: "required" as const },
  { key: "list", short: "l", long: "list" },
  { key: "omit", short: "c" },
  { key: "output", short: "o", long: "output", arg: "required" as const },
  { key: "silent", short: "s", long: "silent" },
  { key: "verbose", long: "verbose" },
  { key: "help", short: "?", long: "help" },
  { key: "usage", long: "usage" },
  { key: "version", short: "V", long: "version" },
];

const TRY = "Try `iconv --help' or `iconv --usage' for more information.\n";

const HELP = `Usage: iconv [OPTION...] [FILE...]
Convert encoding of given files from one encoding to another.

 Input/Output format specification:
  -f, --from-code=NAME       encoding of original text
  -t, --to-code=NAME         encoding for output

 Information:
  -l, --list                 list all known coded character sets

 Output control:
  -c                         omit invalid characters from output
  -o, --output=FILE          output file
  -s, --silent               suppress warnings
      --verbose              print progress information

  -?, --help                 Give this help list
      --usage                Give a short usage message
  -V, --version              Print program version

Mandatory or optional arguments to long options are also mandatory or optional
for any corresponding short options.
`;

/**
 * glibc's iconv (2.36) over the character sets of src/gnu/charsets.ts. What glibc does is kept: input that is
 * not valid in the source set stops the conversion with its byte position (with -c it is skipped); a character
 * the target set has no place for stops it too, or is dropped with -c or //IGNORE,
 * or becomes glibc's transliteration with //TRANSLIT (its tables, per locale, in src/gnu/iconv-translit.ts;
 * "?" when there is none); a file that cannot be opened is reported and the others still converted.
 */
export default function iconv({ sys, argv, stdout, stderr }: ScriptProcess): number {
  let parsed;
  try {
    parsed = getopt(argv.slice(1), SPECS);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    stderr.write(`iconv: ${e.message}\n${TRY}`);
    return 64;
  }
  const option = (key: string) => parsed.options.findLast((o) => o.key === key)?.value;
  const has = (key: string) => parsed.options.some((o) => o.key === key);
  if (has("help")) return stdout.write(HELP), 0;
  if (has("usage")) return stdout.write("Usage: iconv [-cls?V] [-f NAME] [-t NAME] [-o FILE] [--from-code=NAME]\n            [--to-code=NAME] [--list] [--output=FILE] [--silent] [--verbose]\n            [--help] [--usage] [--version] [FILE...]\n"), 0;
  if (has("version")) return stdout.write(versionText("iconv", "glibc iconv 2.36")), 0;
  if (has("list")) return stdout.write(charsetNames().map((n) => `${n}//\n`).join("")), 0;

  const utf8Locale = /utf-?8/i.test(sys.env.LC_ALL || sys.env.LC_CTYPE || sys.env.LANG || "");
  const localeSet = utf8Locale ? "UTF-8" : "ANSI_X3.4-1968";
  const [fromName] = (option("from") ?? localeSet).split("//");
  const [toName = "", ...suffixes] = (option("to") ?? localeSet).split("//");
  const flags = suffixes.flatMap((s) => s.toUpperCase().split(","));
  const from = charset(fromName || localeSet);
  const to = charset(toName || localeSet);
  if (!from || !to) {
    // glibc's words for a conversion it cannot make; `iconv -l` lists the sets this one has.
    const what = !from && !to ? `from \`${fromName}' to \`${toName}'` : !from ? `from \`${fromName}'` : `to \`${toName}'`;
    stderr.write(`iconv: conversion ${what} is not supported\n`);
    return 1;
  }
  const conversion: Conversion = { from, to, omit: has("omit"), ignore: flags.includes("IGNORE"), translit: flags.includes("TRANSLIT") ? translitTable(utf8Locale) : undefined };

  const out = new ByteSink();
  let status = 0;
  const files = parsed.operands.length > 0 ? parsed.operands : ["-"];
  for (const file of files) {
    let input: Uint8Array;
    try {
      if (file !== "-" && sys.stat(file).kind === "dir") {
        // glibc opens it, and its first read fails: that ends the run.
        writeOut(sys, option("output"), out, stdout);
        stderr.write("iconv: error while reading the input: Is a directory\n");
        return 1;
      }
      input = file === "-" ? sys.readAll(0) : sys.readFile(file);
    } catch (e) {
      stderr.write(`iconv: cannot open input file \`${file}': ${strerror(e)}\n`);
      status = 1;
      continue;
    }
    const result = convert(input, conversion, out);
    if (result.failure) {
      writeOut(sys, option("output"), out, stdout);
      stderr.write(`iconv: ${result.failure}\n`);
      return 1;
    }
    // glibc's status for characters -c or //IGNORE left out: 1 only when nothing of the file was written.
    if (result.dropped && result.written === 0) status = 1;
  }
  writeOut(sys, option("output"), out, stdout);
  return status;
}

/** The converted bytes, in a buffer that doubles as it fills. */
class ByteSink {
  private buffer = new Uint8Array(1 << 12);
  private length = 0;

  push(byte: number): void {
    if (this.length === this.buffer.length) {
      const grown = new Uint8Array(this.buffer.length * 2);
      grown.set(this.buffer);
      this.buffer = grown;
    }
    this.buffer[this.length++] = byte;
  }

  take(): Uint8Array {
    const bytes = this.buffer.slice(0, this.length);
    this.length = 0;
    return bytes;
  }
}

function writeOut(sys: ScriptProcess["sys"], path: string | undefined, out: ByteSink, stdout: ScriptProcess["stdout"]): void {
  const bytes = out.take();
  if (path === undefined) return stdout.write(bytes);
  const fd = sys.open(path, { write: true, create: true, truncate: true });
  try {
    sys.write(fd, bytes);
  } finally {
    sys.close(fd);
  }
}

interface Conversion {
  from: Charset;
  to: Charset;
  omit: boolean;
  ignore: boolean;
  translit: Map<number, string> | undefined;
}

/** Appends `input` converted to `out`; a failure is glibc's message, `dropped` whether characters were left out. */
function convert(input: Uint8Array, c: Conversion, out: ByteSink): { failure?: string; dropped: boolean; written: number } {
  let dropped = false;
  let written = 0;
  let first = true;
  let firstOut = true;
  for (let at = 0; at < input.length; ) {
    const d = c.from.decode(input, at, first);
    first = false;
    if ("error" in d) {
      if (d.error === "incomplete") return { failure: "incomplete character or shift sequence at end of buffer", dropped, written };
      if (c.omit) {
        at++;
        continue;
      }
      return { failure: `illegal input sequence at position ${at}`, dropped, written };
    }
    if (d.cp >= 0) {
      let bytes = c.to.encode(d.cp, firstOut);
      if (bytes === undefined && c.translit) bytes = transliterate(d.cp, c, firstOut);
      if (bytes === undefined) {
        if (!c.omit && !c.ignore) return { failure: `illegal input sequence at position ${at}`, dropped, written };
        dropped = true;
      } else {
        for (const b of bytes) out.push(b);
        written += bytes.length;
        firstOut = false;
      }
    }
    at += d.length;
  }
  // glibc reports characters //IGNORE left out as an error at the end of the input.
  if (dropped && c.ignore && !c.omit) return { failure: `illegal input sequence at position ${input.length}`, dropped, written };
  return { dropped, written };
}

/** glibc's replacement in the target set, or "?" when it has none (or the target cannot hold it either). */
function transliterate(cp: number, c: Conversion, firstOut: boolean): number[] | undefined {
  const text = c.translit!.get(cp) ?? "?";
  const bytes: number[] = [];
  for (const ch of text) {
    const encoded = c.to.encode(ch.codePointAt(0)!, firstOut && bytes.length === 0);
    if (encoded === undefined) return c.to.encode(0x3f, firstOut);
    bytes.push(...encoded);
  }
  return bytes;
}

const tables = new Map<boolean, Map<number, string>>();

function translitTable(utf8Locale: boolean): Map<number, string> {
  let table = tables.get(utf8Locale);
  if (!table) {
    table = new Map();
    for (const pair of (utf8Locale ? TRANSLIT_C_UTF8 : TRANSLIT_C).split("\x01")) {
      const eq = pair.indexOf("=");
      table.set(parseInt(pair.slice(0, eq), 16), pair.slice(eq + 1));
    }
    tables.set(utf8Locale, table);
  }
  return table;
}
