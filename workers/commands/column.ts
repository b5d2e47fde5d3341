import { strerror } from "../../src/gnu/strerror.js";
import type { ScriptProcess } from "../script-host.js";
import type { System } from "../system.js";
import { getopt, UsageError } from "./getopt.js";
import { versionText } from "../../src/gnu/version.js";

// util-linux 2.38 column: fills columns (or rows, -x) with tab stops up to the output width (-c, then
// $COLUMNS, then 80), or makes a table (-t) as libsmartcols prints it: cells padded to the widest of
// their column, joined by the output separator (two spaces), the last column unpadded. Input lines are
// decoded per the locale (LC_ALL, LC_CTYPE, LANG): a line that does not decode has its invalid bytes
// written as \xHH; widths are display widths (control characters 0, wide characters 2).

const SPECS = [
  { key: "t", short: "t", long: "table" },
  { key: "n", short: "n", long: "table-name", arg: "required" as const },
  { key: "O", short: "O", long: "table-order", arg: "required" as const },
  { key: "N", short: "N", long: "table-columns", arg: "required" as const },
  { key: "l", short: "l", long: "table-columns-limit", arg: "required" as const },
  { key: "E", short: "E", long: "table-noextreme", arg: "required" as const },
  { key: "d", short: "d", long: "table-noheadings" },
  { key: "e", short: "e", long: "table-header-repeat" },
  { key: "H", short: "H", long: "table-hide", arg: "required" as const },
  { key: "R", short: "R", long: "table-right", arg: "required" as const },
  { key: "T", short: "T", long: "table-truncate", arg: "required" as const },
  { key: "W", short: "W", long: "table-wrap", arg: "required" as const },
  { key: "L", short: "L", long: "keep-empty-lines" },
  { key: "J", short: "J", long: "json" },
  { key: "r", short: "r", long: "tree", arg: "required" as const },
  { key: "i", short: "i", long: "tree-id", arg: "required" as const },
  { key: "p", short: "p", long: "tree-parent", arg: "required" as const },
  { key: "c", short: "c", long: "output-width", arg: "required" as const },
  { key: "o", short: "o", long: "output-separator", arg: "required" as const },
  { key: "s", short: "s", long: "separator", arg: "required" as const },
  { key: "x", short: "x", long: "fillrows" },
  { key: "h", short: "h", long: "help" },
  { key: "V", short: "V", long: "version" },
];

const HELP = `
Usage:
 column [options] [<file>...]

Columnate lists.

Options:
 -t, --table                      create a table
 -n, --table-name <name>          table name for JSON output
 -O, --table-order <columns>      specify order of output columns
 -N, --table-columns <names>      comma separated columns names
 -l, --table-columns-limit <num>  maximal number of input columns
 -E, --table-noextreme <columns>  don't count long text from the columns to column width
 -d, --table-noheadings           don't print header
 -e, --table-header-repeat        repeat header for each page
 -H, --table-hide <columns>       don't print the columns
 -R, --table-right <columns>      right align text in these columns
 -T, --table-truncate <columns>   truncate text in the columns when necessary
 -W, --table-wrap <columns>       wrap text in the columns when necessary
 -L, --keep-empty-lines           don't ignore empty lines
 -J, --json                       use JSON output format for table

 -r, --tree <column>              column to use tree-like output for the table
 -i, --tree-id <column>           line ID to specify child-parent relation
 -p, --tree-parent <column>       parent to specify child-parent relation

 -c, --output-width <width>       width of output in number of characters
 -o, --output-separator <string>  columns separator for table output (default is two spaces)
 -s, --separator <string>         possible table delimiters
 -x, --fillrows                   fill rows before columns

 -h, --help                       display this help
 -V, --version                    display version

For more details see column(1).
`;

const TABLE_ONLY = new Set(["n", "O", "N", "l", "E", "d", "e", "H", "R", "T", "W", "J"]);

/** Whether the locale's charset is UTF-8 (LC_ALL, else LC_CTYPE, else LANG). */
export function utf8Locale(env: Readonly<Record<string, string>>): boolean {
  const locale = env["LC_ALL"] || env["LC_CTYPE"] || env["LANG"] || "";
  return /utf-?8/i.test(locale);
}

const WIDE: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f],
  [0x231a, 0x231b],
  [0x2329, 0x232a],
  [0x23e9, 0x23ec],
  [0x25fd, 0x25fe],
  [0x2614, 0x2615],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x3fffd],
];

/** wcwidth(3) of one code point, 0 for what it calls unprintable. */
export function charWidth(cp: number): number {
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if (cp === 0xad) return 1;
  if (cp >= 0x300 && /[\p{Mn}\p{Me}\p{Cf}]/u.test(String.fromCodePoint(cp))) return 0;
  for (const [a, b] of WIDE) if (cp >= a && cp <= b) return 2;
  return 1;
}

export function textWidth(s: string): number {
  let w = 0;
  for (const ch of s) w += charWidth(ch.codePointAt(0)!);
  return w;
}

/** A line's bytes as text: decoded, or with each byte that does not decode as \xHH (mbs_invalid_encode). */
export function decodeLine(bytes: Uint8Array, utf8: boolean): string {
  if (!utf8) {
    let out = "";
    for (const b of bytes) out += b < 0x80 ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, "0")}`;
    return out;
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    let out = "";
    for (let i = 0; i < bytes.length; ) {
      const n = utf8Length(bytes, i);
      if (n > 0) {
        out += Buffer.from(bytes.subarray(i, i + n)).toString("utf8");
        i += n;
      } else out += `\\x${bytes[i++]!.toString(16).padStart(2, "0")}`;
    }
    return out;
  }
}

/** The length of the valid UTF-8 sequence at `i`, or 0. */
function utf8Length(b: Uint8Array, i: number): number {
  const c = b[i]!;
  if (c < 0x80) return 1;
  const n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  if (n === 0 || i + n > b.length) return 0;
  for (let k = 1; k < n; k++) if ((b[i + k]! & 0xc0) !== 0x80) return 0;
  if (c === 0xe0 && b[i + 1]! < 0xa0) return 0;
  if (c === 0xed && b[i + 1]! > 0x9f) return 0;
  if (c === 0xf0 && b[i + 1]! < 0x90) return 0;
  if (c === 0xf4 && b[i + 1]! > 0x8f) return 0;
  return n;
}

/** The lines of `fd` (without their newlines), `each` per line, reading in chunks. */
export function forEachLine(sys: System, fd: number, each: (line: Uint8Array) => void): void {
  let rest: Uint8Array = new Uint8Array(0);
  for (let chunk = sys.read(fd); chunk.length > 0; chunk = sys.read(fd)) {
    const data = rest.length ? Buffer.concat([rest, chunk]) : chunk;
    let start = 0;
    for (let nl = data.indexOf(10); nl >= 0; nl = data.indexOf(10, start)) {
      each(data.subarray(start, nl));
      start = nl + 1;
    }
    rest = data.slice(start);
  }
  if (rest.length) each(rest);
}

export default function column({ sys, argv, stdout, stderr }: ScriptProcess): number {
  let parsed;
  try {
    parsed = getopt(argv.slice(1), SPECS);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    stderr.write(`column: ${e.message}\nTry 'column --help' for more information.\n`);
    return 1;
  }
  let table = false;
  let fillRows = false;
  let keepEmpty = false;
  let noHeadings = false;
  let inputSep: string | undefined;
  let outputSep = "  ";
  let names: string[] | undefined;
  let limit = 0;
  let right: string[] = [];
  let hide: string[] = [];
  let width: number | undefined;
  const seen = new Set<string>();
  for (const o of parsed.options) {
    seen.add(o.key);
    const v = o.value!;
    switch (o.key) {
      case "h":
        stdout.write(HELP);
        return 0;
      case "V":
        stdout.write(versionText("column", "util-linux 2.38.1"));
        return 0;
      case "t":
        table = true;
        break;
      case "x":
        fillRows = true;
        break;
      case "L":
        keepEmpty = true;
        break;
      case "d":
        noHeadings = true;
        break;
      case "s":
        inputSep = v;
        break;
      case "o":
        outputSep = v;
        break;
      case "N":
        names = v.split(",");
        break;
      case "R":
        right = v.split(",");
        break;
      case "H":
        hide = v.split(",");
        break;
      case "l":
        if (!/^\s*[0-9]+$/.test(v)) {
          stderr.write(`column: invalid columns limit argument: '${v}'\n`);
          return 1;
        }
        limit = Number(v);
        break;
      case "c":
        if (!/^\s*[0-9]+$/.test(v)) {
          stderr.write(`column: invalid columns argument: '${v}'\n`);
          return 1;
        }
        width = Number(v);
        break;
      case "J":
      case "r":
      case "i":
      case "p":
        stderr.write(`column: ${o.name}: not supported here\n`);
        return 1;
    }
  }
  if (!table && [...seen].some((k) => TABLE_ONLY.has(k))) {
    stderr.write("column: option --table required for all --table-*\n");
    return 1;
  }
  if (width === undefined) {
    const cols = Number(sys.env["COLUMNS"]);
    width = Number.isInteger(cols) && cols > 0 ? cols : 80;
  }
  const utf8 = utf8Locale(sys.env);

  let status = 0;
  let held = 0;
  const lines: string[] = [];
  const take = (bytes: Uint8Array): void => {
    held += bytes.length * 2 + 32;
    if (held > sys.maxMemoryBytes) throw new Error("column: cannot allocate memory");
    lines.push(decodeLine(bytes, utf8));
  };
  if (parsed.operands.length === 0) forEachLine(sys, 0, take);
  for (const file of parsed.operands) {
    let fd: number;
    try {
      fd = sys.open(file);
    } catch (e) {
      stderr.write(`column: ${file}: ${strerror(e)}\n`);
      status = 1;
      continue;
    }
    try {
      forEachLine(sys, fd, take);
    } catch (e) {
      stderr.write(`column: read failed: ${file}: ${strerror(e)}\n`);
      status = 1;
    } finally {
      sys.close(fd);
    }
  }

  if (table) {
    const seps = inputSep ?? " \t";
    const greedy = inputSep === undefined;
    const rows: string[][] = [];
    for (const line of lines) {
      const start = line.search(/[^ \t\n\v\f\r]/);
      if (start < 0 || line.length === 0) {
        if (keepEmpty) rows.push([]);
        continue;
      }
      rows.push(split(line, seps, greedy, limit));
    }
    const ncols = Math.max(names?.length ?? 0, ...rows.map((r) => r.length));
    // The table exists once a line is in it; printing it then is the status (a missing file does not count).
    if (rows.length === 0) return status;
    const header = names && !noHeadings ? names : undefined;
    const pick = (spec: string[]): Set<number> => {
      const set = new Set<number>();
      for (const s of spec) {
        const byName = names?.indexOf(s) ?? -1;
        if (byName >= 0) set.add(byName);
        else if (/^[0-9]+$/.test(s) && Number(s) >= 1) set.add(Number(s) - 1);
      }
      return set;
    };
    const rightCols = pick(right);
    const hidden = pick(hide);
    const visible = Array.from({ length: ncols }, (_, i) => i).filter((i) => !hidden.has(i));
    const widths = new Array<number>(ncols).fill(0);
    for (const r of header ? [header, ...rows] : rows) for (let i = 0; i < ncols; i++) widths[i] = Math.max(widths[i]!, textWidth(r[i] ?? ""));
    const last = visible[visible.length - 1];
    const printRow = (r: readonly string[]): void => {
      let out = "";
      for (const [k, i] of visible.entries()) {
        const cell = r[i] ?? "";
        const pad = " ".repeat(Math.max(0, widths[i]! - textWidth(cell)));
        if (rightCols.has(i)) out += pad + cell;
        else out += i === last ? cell : cell + pad;
        if (k < visible.length - 1) out += outputSep;
      }
      stdout.write(`${out}\n`);
    };
    if (header) printRow(header);
    for (const r of rows) printRow(r);
    return 0;
  }

  const ents = keepEmpty ? lines : lines.filter((l) => /[^ \t\n\v\f\r]/.test(l));
  if (ents.length === 0) return status;
  let maxlength = Math.max(...ents.map(textWidth));
  maxlength = (maxlength + 8) & ~7;
  if (maxlength >= width) {
    for (const e of ents) stdout.write(`${e}\n`);
    return status;
  }
  const numcols = Math.floor(width / maxlength);
  const tabsTo = (chcnt: number, endcol: number): [string, number] => {
    let s = "";
    while (chcnt < endcol) {
      s += "\t";
      chcnt = (chcnt + 8) & ~7;
    }
    return [s, chcnt];
  };
  if (fillRows) {
    let chcnt = 0;
    let col = 0;
    let endcol = maxlength;
    let out = "";
    for (let k = 0; ; k++) {
      out += ents[k]!;
      chcnt += textWidth(ents[k]!);
      if (k === ents.length - 1) break;
      if (++col === numcols) {
        chcnt = col = 0;
        endcol = maxlength;
        stdout.write(`${out}\n`);
        out = "";
      } else {
        const [tabs, to] = tabsTo(chcnt, endcol);
        out += tabs;
        chcnt = to;
        endcol += maxlength;
      }
    }
    if (chcnt) stdout.write(`${out}\n`);
    else if (out) stdout.write(out);
    return status;
  }
  const numrows = Math.ceil(ents.length / numcols);
  for (let row = 0; row < numrows; row++) {
    let endcol = maxlength;
    let chcnt = 0;
    let out = "";
    for (let base = row, col = 0; col < numcols; col++) {
      out += ents[base]!;
      chcnt += textWidth(ents[base]!);
      if ((base += numrows) >= ents.length) break;
      const [tabs, to] = tabsTo(chcnt, endcol);
      out += tabs;
      chcnt = to;
      endcol += maxlength;
    }
    stdout.write(`${out}\n`);
  }
  return status;
}

/** The cells of a line: runs of separators split once (greedy, the default), or every separator (-s). */
function split(text: string, seps: string, greedy: boolean, limit: number): string[] {
  const cells: string[] = [];
  let cell = "";
  const chars = [...text];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (!seps.includes(ch)) {
      cell += ch;
      continue;
    }
    if (limit && cells.length + 1 === limit) {
      cell += ch;
      continue;
    }
    if (greedy) {
      if (cell !== "") cells.push(cell);
    } else cells.push(cell);
    cell = "";
  }
  if (greedy ? cell !== "" : true) cells.push(cell);
  return cells;
}
