import { strerror } from "../../src/gnu/strerror.js";
import type { ScriptProcess } from "../script-host.js";
import { CMP_HELP } from "./diff/help.js";
import { hardLocale } from "./diff/util.js";
import { getopt, type OptionSpec, UsageError } from "./getopt.js";
import { versionText } from "../../src/gnu/version.js";

const SPECS: OptionSpec[] = [
  { key: "print-bytes", short: "b", long: "print-bytes" },
  { key: "print-chars", short: "c", long: "print-chars" },
  { key: "ignore-initial", short: "i", long: "ignore-initial", arg: "required" },
  { key: "verbose", short: "l", long: "verbose" },
  { key: "bytes", short: "n", long: "bytes", arg: "required" },
  { key: "quiet", short: "s", long: "quiet" },
  { key: "quiet", long: "silent" },
  { key: "help", long: "help" },
  { key: "version", short: "v", long: "version" },
];

const VERSION = versionText("cmp", "GNU diffutils 3.8");

const SUFFIXES = "kKMGTPEZY";

/** A byte count with GNU's multiplicative suffixes (kB 1000, K/KiB 1024, …); undefined when invalid. */
function parseCount(text: string): number | undefined {
  const m = /^(\d+)([kKMGTPEZY]?)(B|iB)?$/.exec(text);
  if (!m) return undefined;
  let n = Number(m[1]);
  if (m[2]) {
    const power = SUFFIXES.indexOf(m[2]) === 0 ? 1 : SUFFIXES.indexOf(m[2]);
    const base = m[3] === "B" ? 1000 : 1024;
    n *= base ** power;
  } else if (m[3]) return undefined;
  return Number.isFinite(n) ? Math.min(n, Number.MAX_SAFE_INTEGER) : Number.MAX_SAFE_INTEGER;
}

/** A byte as cmp -b shows it: itself when printable, ^X for controls, M- for the high half. */
function showByte(c: number): string {
  let s = "";
  if (c >= 128) {
    s = "M-";
    c -= 128;
  }
  if (c < 32) return `${s}^${String.fromCharCode(c + 64)}`;
  if (c === 127) return `${s}^?`;
  return s + String.fromCharCode(c);
}

const octal = (c: number): string => c.toString(8).padStart(3, " ");

/** GNU cmp 3.8: compares two files byte by byte. */
export default function cmp({ sys, argv, stdout, stderr }: ScriptProcess): number {
  const usage = (message: string): number => {
    stderr.write(`cmp: ${message}\ncmp: Try 'cmp --help' for more information.\n`);
    return 2;
  };
  let parsed;
  try {
    parsed = getopt(argv.slice(1), SPECS);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return usage(e.message);
  }
  let printBytes = false;
  let mode: "first" | "all" | "status" = "first";
  const skip = [0, 0];
  let limit = Number.MAX_SAFE_INTEGER;
  for (const o of parsed.options) {
    switch (o.key) {
      case "help":
        stdout.write(CMP_HELP);
        return 0;
      case "version":
        stdout.write(VERSION);
        return 0;
      case "print-bytes":
      case "print-chars":
        printBytes = true;
        break;
      case "verbose":
        mode = "all";
        break;
      case "quiet":
        mode = "status";
        break;
      case "bytes": {
        const n = parseCount(o.value!);
        if (n === undefined) return usage(`invalid --bytes value '${o.value}'`);
        limit = Math.min(limit, n);
        break;
      }
      case "ignore-initial": {
        const [x, y] = o.value!.split(":", 2) as [string, string | undefined];
        const a = parseCount(x);
        const b = y === undefined ? a : parseCount(y);
        if (a === undefined || b === undefined || (y === undefined && o.value!.includes(":"))) return usage(`invalid --ignore-initial value '${o.value}'`);
        skip[0] = a;
        skip[1] = b;
        break;
      }
    }
  }
  const operands = parsed.operands;
  if (operands.length === 0) return usage("missing operand after 'cmp'");
  if (operands.length > 4) return usage(`extra operand '${operands[4]}'`);
  for (let f = 0; f < 2; f++) {
    const text = operands[f + 2];
    if (text === undefined) continue;
    const n = parseCount(text);
    if (n === undefined) return usage(`invalid --ignore-initial value '${text}'`);
    skip[f] = n;
  }
  const names = [operands[0]!, operands[1] ?? "-"];
  if (names[0] === "-" && names[1] === "-") return 0;
  const data: Uint8Array[] = [];
  for (const name of names) {
    try {
      if (name === "-") data.push(sys.readAll(0));
      else {
        const st = sys.stat(name);
        if (st.kind === "dir") throw Object.assign(new Error("EISDIR"), { code: "EISDIR" });
        data.push(sys.readFile(name));
      }
    } catch (e) {
      stderr.write(`cmp: ${name}: ${strerror(e)}\n`);
      return 2;
    }
  }
  const a = data[0]!.subarray(Math.min(skip[0]!, data[0]!.length));
  const b = data[1]!.subarray(Math.min(skip[1]!, data[1]!.length));
  const n = Math.min(a.length, b.length, limit);
  const width = String(Math.min(a.length, b.length, limit)).length;
  let line = 1;
  let differ = false;
  let out = "";
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x !== y) {
      differ = true;
      if (mode === "status") return 1;
      if (mode === "first") {
        // POSIX's "char" in the C locale, "byte" elsewhere.
        const unit = printBytes || hardLocale(sys.env, "LC_MESSAGES") ? "byte" : "char";
        let msg = `${names[0]} ${names[1]} differ: ${unit} ${i + 1}, line ${line}`;
        if (printBytes) msg += ` is ${octal(x)} ${showByte(x)} ${octal(y)} ${showByte(y)}`;
        stdout.write(Buffer.from(`${msg}\n`, "latin1"));
        return 1;
      }
      out += printBytes
        ? `${String(i + 1).padStart(width)} ${octal(x)} ${showByte(x).padEnd(4)} ${octal(y)} ${showByte(y)}\n`
        : `${String(i + 1).padStart(width)} ${octal(x)} ${octal(y)}\n`;
      if (out.length > 65536) {
        stdout.write(Buffer.from(out, "latin1"));
        out = "";
      }
    } else if (x === 10) line++;
  }
  stdout.write(Buffer.from(out, "latin1"));
  if (n < limit && a.length !== b.length) {
    // The shorter file ended first.
    const f = a.length < b.length ? 0 : 1;
    if (mode !== "status") {
      const shorter = f === 0 ? a : b;
      if (n === 0) stderr.write(`cmp: EOF on ${names[f]} which is empty\n`);
      else if (mode === "all") stderr.write(`cmp: EOF on ${names[f]} after byte ${n}\n`);
      else if (shorter[n - 1] === 10) stderr.write(`cmp: EOF on ${names[f]} after byte ${n}, line ${line - 1}\n`);
      else stderr.write(`cmp: EOF on ${names[f]} after byte ${n}, in line ${line}\n`);
    }
    return 1;
  }
  return differ ? 1 : 0;
}
