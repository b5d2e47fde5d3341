import { strerror } from "../../src/gnu/strerror.js";
import type { ScriptProcess } from "../script-host.js";
import { utf8Locale } from "./column.js";
import { getopt, UsageError } from "./getopt.js";
import { versionText } from "../../src/gnu/version.js";

// util-linux 2.38 rev: each line reversed character by character in the locale's charset (a UTF-8
// locale: characters; otherwise bytes, of which glibc's C locale reads only ASCII); a last line without
// a newline stays without. A line that does not decode ends that file with "FILE: LINES-DONE: …" and
// status 1, as fgetws fails there.

const SPECS = [
  { key: "h", short: "h", long: "help" },
  { key: "V", short: "V", long: "version" },
];

const HELP = `Usage: rev [options] [file ...]

Reverse lines characterwise.

Options:
 -h, --help     display this help
 -V, --version  display version

For more details see rev(1).
`;

const EILSEQ = "Invalid or incomplete multibyte or wide character";

export default function rev({ sys, argv, stdout, stderr }: ScriptProcess): number {
  let parsed;
  try {
    parsed = getopt(argv.slice(1), SPECS);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    stderr.write(`rev: ${e.message}\nTry 'rev --help' for more information.\n`);
    return 1;
  }
  for (const o of parsed.options) {
    if (o.key === "h") return stdout.write(HELP), 0;
    if (o.key === "V") return stdout.write(versionText("rev", "util-linux 2.38.1")), 0;
  }
  const utf8 = utf8Locale(sys.env);
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let status = 0;
  const files = parsed.operands.length > 0 ? parsed.operands : [undefined];
  for (const file of files) {
    let fd = 0;
    if (file !== undefined) {
      try {
        fd = sys.open(file);
      } catch (e) {
        stderr.write(`rev: cannot open ${file}: ${strerror(e)}\n`);
        status = 1;
        continue;
      }
    }
    const name = file ?? "stdin";
    let lines = 0;
    let rest: Uint8Array = new Uint8Array(0);
    /** Reverses one line (without its newline); false when it does not decode. */
    const line = (bytes: Uint8Array, newline: boolean): boolean => {
      let text: string;
      if (utf8) {
        try {
          text = decoder.decode(bytes);
        } catch {
          return false;
        }
        stdout.write(Buffer.from([...text].reverse().join(""), "utf8"));
      } else {
        for (const b of bytes) if (b >= 0x80) return false;
        stdout.write(Uint8Array.from(bytes).reverse());
      }
      if (newline) stdout.write("\n");
      lines++;
      return true;
    };
    try {
      let ok = true;
      read: for (let chunk = sys.read(fd); chunk.length > 0; chunk = sys.read(fd)) {
        const data = rest.length ? Buffer.concat([rest, chunk]) : chunk;
        let start = 0;
        for (let nl = data.indexOf(10); nl >= 0; nl = data.indexOf(10, start)) {
          if (!line(data.subarray(start, nl), true)) {
            ok = false;
            break read;
          }
          start = nl + 1;
        }
        rest = data.slice(start);
        if (rest.length > sys.maxMemoryBytes) throw new Error("rev: cannot allocate memory");
      }
      if (ok && rest.length > 0) ok = line(rest, false);
      if (!ok) {
        stderr.write(`rev: ${name}: ${lines}: ${EILSEQ}\n`);
        status = 1;
      }
    } catch (e) {
      if (!(e as { code?: string }).code) throw e;
      stderr.write(`rev: ${name}: ${lines}: ${strerror(e)}\n`);
      status = 1;
    } finally {
      if (file !== undefined) sys.close(fd);
    }
  }
  return status;
}
