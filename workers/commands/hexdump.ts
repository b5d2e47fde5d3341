import { strerror } from "../../src/gnu/strerror.js";
import type { ScriptProcess } from "../script-host.js";
import { getopt, UsageError } from "./getopt.js";
import { versionText } from "../../src/gnu/version.js";

// util-linux 2.38 hexdump (and `hd`, its `hexdump -C`) with its built-in formats: the default, -b, -c, -C,
// -d, -o, -x, each given format printed for every 16-byte block in the order given; -n, -s (with util-linux's
// size suffixes), -v. Lines are hexdump's: a unit repeated N times drops the last space of its last
// repetition, a unit past the end of input prints as blanks of its width, a 2-byte unit with one byte left
// reads it zero-padded, a block equal to the one before prints as one `*`, and the last line is the end
// address. Not here: -e/-f format strings and -L colours (they fail with a message).

/** One conversion of a format: `before`, `bytes` bytes of input shown by `show` in `width` columns, `after`. */
interface Unit {
  reps: number;
  bytes: 1 | 2;
  width: number;
  show: (value: number) => string;
  before: string;
  after: string;
  /** It starts a format string of its own, which reads the block from its start again (-C's `%_p` column). */
  restart?: boolean;
}

interface Format {
  /** Digits of the address at the start of each line and of the end address. */
  addressDigits: number;
  /** Text after the line's address. */
  afterAddress: string;
  units: Unit[];
  /** Text at the end of each line, before its newline. */
  end: string;
}

const pad = (s: string, n: number, c = " "): string => s.padStart(n, c);
const unit = (reps: number, bytes: 1 | 2, width: number, show: (v: number) => string, before: string, after: string): Unit => ({ reps, bytes, width, show, before, after });

/** `%3_c`: a byte as a character, C escape or octal number. */
const ESCAPES: Record<number, string> = { 0: "\\0", 7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r" };
const charOf = (b: number): string => (b >= 0x20 && b < 0x7f ? pad(String.fromCharCode(b), 3) : ESCAPES[b] !== undefined ? pad(ESCAPES[b], 3) : b.toString(8).padStart(3, "0"));

const FORMATS: Record<string, Format> = {
  // "%07.7_Ax\n" "%07.7_ax " 8/2 "%04x " "\n"
  default: { addressDigits: 7, afterAddress: " ", units: [unit(8, 2, 4, (v) => pad(v.toString(16), 4, "0"), "", " ")], end: "" },
  // "%07.7_ax " 16/1 "%03o "
  b: { addressDigits: 7, afterAddress: " ", units: [unit(16, 1, 3, (v) => pad(v.toString(8), 3, "0"), "", " ")], end: "" },
  // "%07.7_ax " 16/1 "%3_c "
  c: { addressDigits: 7, afterAddress: " ", units: [unit(16, 1, 3, charOf, "", " ")], end: "" },
  // "%08.8_ax  " 8/1 "%02x " "  " 8/1 "%02x " "  |" 16/1 "%_p" "|\n"
  C: {
    addressDigits: 8,
    afterAddress: "  ",
    units: [
      unit(8, 1, 2, (v) => pad(v.toString(16), 2, "0"), "", " "),
      unit(1, 1, 0, () => "", "  ", ""),
      unit(8, 1, 2, (v) => pad(v.toString(16), 2, "0"), "", " "),
      unit(1, 1, 0, () => "", "  |", ""),
      { ...unit(16, 1, 0, (v) => (v >= 0x20 && v < 0x7f ? String.fromCharCode(v) : "."), "", ""), restart: true },
    ],
    end: "|",
  },
  // "%07.7_ax " 8/2 "  %05u "
  d: { addressDigits: 7, afterAddress: " ", units: [unit(8, 2, 5, (v) => pad(String(v), 5, "0"), "  ", " ")], end: "" },
  // "%07.7_ax " 8/2 " %06o "
  o: { addressDigits: 7, afterAddress: " ", units: [unit(8, 2, 6, (v) => pad(v.toString(8), 6, "0"), " ", " ")], end: "" },
  // "%07.7_ax " 8/2 "   %04x "
  x: { addressDigits: 7, afterAddress: " ", units: [unit(8, 2, 4, (v) => pad(v.toString(16), 4, "0"), "   ", " ")], end: "" },
};

const BLOCK = 16;

/** One line of `f` for the block at `address`, of which `valid` bytes are input. */
function line(f: Format, block: Uint8Array, valid: number, address: number): string {
  let out = pad(address.toString(16), f.addressDigits, "0") + f.afterAddress;
  let at = 0;
  for (const u of f.units) {
    if (u.restart) at = 0;
    // The spacer units of -C (width 0, no bytes of their own) are text only.
    if (u.width === 0 && u.reps === 1) {
      out += u.before;
      continue;
    }
    for (let r = 0; r < u.reps; r++) {
      const last = r === u.reps - 1 && u.reps > 1;
      const shown = at < valid ? u.show(u.bytes === 2 ? block[at]! | (block[at + 1]! << 8) : block[at]!) : " ".repeat(u.width);
      out += u.before + shown + (last ? u.after.slice(0, -1) : u.after);
      at += u.bytes;
    }
  }
  return `${out}${f.end}\n`;
}

const HELP = `
Usage:
 hexdump [options] <file>...

Display file contents in hexadecimal, decimal, octal, or ascii.

Options:
 -b, --one-byte-octal      one-byte octal display
 -c, --one-byte-char       one-byte character display
 -C, --canonical           canonical hex+ASCII display
 -d, --two-bytes-decimal   two-byte decimal display
 -o, --two-bytes-octal     two-byte octal display
 -x, --two-bytes-hex       two-byte hexadecimal display
 -L, --color[=<mode>]      interpret color formatting specifiers
                             colors are enabled by default
 -e, --format <format>     format string to be used for displaying data
 -f, --format-file <file>  file that contains format strings
 -n, --length <length>     interpret only length bytes of input
 -s, --skip <offset>       skip offset bytes from the beginning
 -v, --no-squeezing        output identical lines

 -h, --help                display this help
 -V, --version             display version

Arguments:
 <length> and <offset> arguments may be followed by the suffixes for
   GiB, TiB, PiB, EiB, ZiB, and YiB (the "iB" is optional)

For more details see hexdump(1).
`;

const SPECS = [
  { key: "b", short: "b", long: "one-byte-octal" },
  { key: "c", short: "c", long: "one-byte-char" },
  { key: "C", short: "C", long: "canonical" },
  { key: "d", short: "d", long: "two-bytes-decimal" },
  { key: "o", short: "o", long: "two-bytes-octal" },
  { key: "x", short: "x", long: "two-bytes-hex" },
  { key: "L", short: "L", long: "color", arg: "optional" as const },
  { key: "e", short: "e", long: "format", arg: "required" as const },
  { key: "f", short: "f", long: "format-file", arg: "required" as const },
  { key: "n", short: "n", long: "length", arg: "required" as const },
  { key: "s", short: "s", long: "skip", arg: "required" as const },
  { key: "v", short: "v", long: "no-squeezing" },
  { key: "h", short: "h", long: "help" },
  { key: "V", short: "V", long: "version" },
];

/** util-linux's strtosize: a number (0x hex, 0 octal) with K, M, G… (1024s), KiB…, or KB… (1000s). */
export function parseSize(text: string): number | undefined {
  const m = /^(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)(?:([KMGTPEZY])(iB|B)?)?$/i.exec(text);
  if (!m) return undefined;
  const n = Number(m[1]!.startsWith("0x") || m[1]!.startsWith("0X") ? m[1] : /^0[0-7]+$/.test(m[1]!) ? parseInt(m[1]!, 8) : m[1]);
  if (!m[2]) return n;
  const power = "KMGTPEZY".indexOf(m[2].toUpperCase()) + 1;
  return n * (m[3]?.toUpperCase() === "B" && m[3] === "B" ? 1000 : 1024) ** power;
}

export default function hexdump({ sys, argv, stdout, stderr }: ScriptProcess): number {
  const name = (argv[0] ?? "hexdump").slice((argv[0] ?? "").lastIndexOf("/") + 1);
  let parsed;
  try {
    parsed = getopt(argv.slice(1), SPECS);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    stderr.write(`${name}: ${e.message}\nTry '${name} --help' for more information.\n`);
    return 1;
  }
  const formats: Format[] = [];
  let length = Infinity;
  let skip = 0;
  let squeeze = true;
  for (const o of parsed.options) {
    if (o.key === "h") return stdout.write(HELP), 0;
    if (o.key === "V") return stdout.write(versionText(name, "hexdump from util-linux 2.38.1")), 0;
    if (o.key === "n" || o.key === "s") {
      const n = parseSize(o.value!);
      if (n === undefined) {
        stderr.write(`${name}: failed to parse ${o.key === "n" ? "length" : "offset"}: '${o.value}': Invalid argument\n`);
        return 1;
      }
      if (o.key === "n") length = n;
      else skip = n;
    } else if (o.key === "v") squeeze = false;
    else if (o.key === "e" || o.key === "f" || o.key === "L") {
      stderr.write(`${name}: ${o.name}: format strings and colours are not supported by this hexdump\n`);
      return 1;
    } else formats.push(FORMATS[o.key]!);
  }
  // `hd` is `hexdump -C` (util-linux installs it so); the default format only without any other.
  if (formats.length === 0) formats.push(name === "hd" ? FORMATS.C! : FORMATS.default!);

  // The input: the files one after the other (stdin without any); -s skips over whole regular files without
  // reading them, as hexdump seeks; on a pipe it cannot seek, and says so.
  let status = 0;
  let address = 0;
  const chunks: Uint8Array[] = [];
  let have = 0;
  const files = parsed.operands.length > 0 ? parsed.operands : [undefined];
  let opened = 0;
  for (const file of files) {
    if (have >= length) break;
    let fd = 0;
    if (file !== undefined) {
      try {
        fd = sys.open(file);
      } catch (e) {
        stderr.write(`${name}: ${file}: ${strerror(e)}\n`);
        status = 1;
        continue;
      }
    }
    opened++;
    try {
      if (skip > 0) {
        const st = sys.fstat(fd);
        if (st.kind === "file" && skip >= st.size) {
          skip -= st.size;
          address += st.size;
          continue;
        }
        if (st.kind !== "file" && st.kind !== "char") {
          stderr.write(`${name}: ${file ?? "stdin"}: Illegal seek\n`);
          return 1;
        }
        if (st.kind === "char") {
          // A character device (/dev/null, /dev/zero) seeks anywhere.
          address += skip;
          skip = 0;
        }
      }
      for (let chunk = sys.read(fd); chunk.length > 0 && have < length; chunk = sys.read(fd)) {
        let data = chunk;
        if (skip > 0) {
          const drop = Math.min(skip, data.length);
          skip -= drop;
          address += drop;
          data = data.subarray(drop);
        }
        if (data.length > length - have) data = data.subarray(0, length - have);
        chunks.push(data.slice());
        have += data.length;
        if (have > sys.maxMemoryBytes) throw Object.assign(new Error(`${name}: cannot allocate memory`), { code: "ENOMEM" });
      }
    } catch (e) {
      if (!(e as { code?: string }).code) throw e;
      stderr.write(`${name}: ${file ?? "stdin"}: ${strerror(e)}\n`);
      status = 1;
    } finally {
      if (file !== undefined) sys.close(fd);
    }
  }
  if (opened === 0) {
    stderr.write(`${name}: all input file arguments failed\n`);
    return 1;
  }
  const input = Buffer.concat(chunks);
  let previous: Uint8Array | undefined;
  let starred = false;
  for (let at = 0; at < input.length; at += BLOCK) {
    const valid = Math.min(BLOCK, input.length - at);
    const block = new Uint8Array(BLOCK + 1);
    block.set(input.subarray(at, at + valid));
    if (squeeze && valid === BLOCK && previous && Buffer.compare(block, previous) === 0) {
      if (!starred) stdout.write("*\n");
      starred = true;
    } else {
      starred = false;
      for (const f of formats) stdout.write(line(f, block, valid, address + at));
    }
    previous = block;
  }
  const end = address + input.length;
  if (end > 0) stdout.write(`${pad(end.toString(16), formats.at(-1)!.addressDigits, "0")}\n`);
  return status;
}
