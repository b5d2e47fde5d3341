import { strerror } from "../../src/gnu/strerror.js";
import type { ScriptProcess } from "../script-host.js";
import { getopt, UsageError } from "./getopt.js";
import { versionText } from "../../src/gnu/version.js";

const SPECS = [
  { key: "a", short: "a", long: "all" },
  { key: "d", short: "d", long: "data" },
  { key: "f", short: "f", long: "print-file-name" },
  { key: "n", short: "n", long: "bytes", arg: "required" as const },
  { key: "t", short: "t", long: "radix", arg: "required" as const },
  { key: "o", short: "o" },
  { key: "w", short: "w", long: "include-all-whitespace" },
  { key: "T", short: "T", long: "target", arg: "required" as const },
  { key: "e", short: "e", long: "encoding", arg: "required" as const },
  { key: "U", short: "U", long: "unicode", arg: "required" as const },
  { key: "s", short: "s", long: "output-separator", arg: "required" as const },
  { key: "help", short: "h", long: "help" },
  { key: "version", short: "v", long: "version" },
  { key: "version", short: "V" },
];

const USAGE = `Usage: strings [option(s)] [file(s)]
 Display printable strings in [file(s)] (stdin by default)
 The options are:
  -a - --all                Scan the entire file, not just the data section [default]
  -d --data                 Only scan the data sections in the file
  -f --print-file-name      Print the name of the file before each string
  -n <number>               Locate & print any sequence of at least <number>
    --bytes=<number>         displayable characters.  (The default is 4).
  -t --radix={o,d,x}        Print the location of the string in base 8, 10 or 16
  -w --include-all-whitespace Include all whitespace as valid string characters
  -o                        An alias for --radix=o
  -T --target=<BFDNAME>     Specify the binary file format
  -e --encoding={s,S,b,l,B,L} Select character size and endianness:
                            s = 7-bit, S = 8-bit, {b,l} = 16-bit, {B,L} = 32-bit
  -s --output-separator=<string> String used to separate strings in output.
  -h --help                 Display this information
  -v -V --version           Print the program's version number
`;

/** Characters of size and byte order per -e encoding (binutils strings). */
const ENCODINGS: Record<string, { size: number; bigEndian: boolean }> = {
  s: { size: 1, bigEndian: false },
  S: { size: 1, bigEndian: false },
  b: { size: 2, bigEndian: true },
  l: { size: 2, bigEndian: false },
  B: { size: 4, bigEndian: true },
  L: { size: 4, bigEndian: false },
};

/**
 * binutils strings: the runs of at least N printable characters of each file (every file is scanned
 * whole, as binutils does by default and for anything that is not an object file).
 */
export default function strings({ sys, argv, stdout, stderr }: ScriptProcess): number {
  // The old form -N: a minimum length as an option of its own.
  const args = argv.slice(1).map((a) => (/^-\d+$/.test(a) ? `--bytes=${a.slice(1)}` : a));
  let parsed;
  try {
    parsed = getopt(args, SPECS);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    stderr.write(`strings: ${e.message}\n${USAGE}`);
    return 1;
  }
  let min = 4;
  let radix: string | undefined;
  let printName = false;
  let allWhitespace = false;
  let encoding = "s";
  let separator = "\n";
  for (const o of parsed.options) {
    if (o.key === "help") return stdout.write(USAGE), 0;
    if (o.key === "version") return stdout.write(versionText("strings", "GNU strings 2.40")), 0;
    if (o.key === "n") {
      min = /^\d+$/.test(o.value!) ? Number(o.value) : 0;
      if (min < 1) return stderr.write(`strings: invalid minimum string length ${o.value}\n`), 1;
    }
    if (o.key === "t" || o.key === "o") {
      radix = o.key === "o" ? "o" : o.value!;
      if (!"odx".includes(radix) || radix.length !== 1) return stderr.write(`strings: invalid argument ${o.value}\n${USAGE}`), 1;
    }
    if (o.key === "f") printName = true;
    if (o.key === "w") allWhitespace = true;
    if (o.key === "s") separator = o.value!;
    if (o.key === "e") {
      encoding = o.value!;
      if (!(encoding in ENCODINGS) || encoding.length !== 1) return stderr.write(`strings: invalid encoding ${o.value}\n`), 1;
    }
  }
  const { size, bigEndian } = ENCODINGS[encoding]!;
  const printable = (c: number): boolean =>
    c === 9 || (c >= 0x20 && c < 0x7f) || (encoding === "S" && c > 127 && c <= 255) || (allWhitespace && c >= 9 && c <= 13);

  const scan = (data: Uint8Array, name: string): void => {
    const charAt = (i: number): number => {
      let c = 0;
      for (let k = 0; k < size; k++) c = c * 256 + data[bigEndian ? i + k : i + size - 1 - k]!;
      return c;
    };
    for (let i = 0; i + size <= data.length; ) {
      let j = i;
      while (j + size <= data.length && printable(charAt(j))) j += size;
      const count = (j - i) / size;
      if (count >= min) {
        let line = printName ? `${name}: ` : "";
        if (radix) line += `${i.toString(radix === "o" ? 8 : radix === "d" ? 10 : 16).padStart(7)} `;
        const chars = Buffer.alloc(count);
        for (let k = 0; k < count; k++) chars[k] = charAt(i + k * size);
        stdout.write(line);
        stdout.write(chars);
        stdout.write(separator);
      }
      i = j === i ? i + size : j;
    }
  };

  if (parsed.operands.length === 0) {
    scan(sys.readAll(0), "{standard input}");
    return 0;
  }
  let status = 0;
  for (const file of parsed.operands) {
    let data: Uint8Array;
    try {
      if (sys.stat(file).kind === "dir") {
        stderr.write(`strings: Warning: '${file}' is a directory\n`);
        status = 1;
        continue;
      }
      data = sys.readFile(file);
    } catch (e) {
      const code = (e as { code?: string }).code;
      stderr.write(code === "ENOENT" ? `strings: '${file}': No such file\n` : `strings: ${file}: ${strerror(e)}\n`);
      status = 1;
      continue;
    }
    scan(data, file);
  }
  return status;
}
