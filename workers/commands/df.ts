import { quote } from "../../src/gnu/quote.js";
import { strerror } from "../../src/gnu/strerror.js";
import type { ScriptProcess } from "../script-host.js";
import type { System } from "../system.js";
import { human, parseBlockSize } from "./du.js";
import { parseArgs, usageError } from "./parse-args.js";

const SPECS = [
  { key: "a", short: "a", long: "all" },
  { key: "B", short: "B", long: "block-size", arg: "required" as const },
  { key: "h", short: "h", long: "human-readable" },
  { key: "H", short: "H", long: "si" },
  { key: "i", short: "i", long: "inodes" },
  { key: "k", short: "k" },
  { key: "l", short: "l", long: "local" },
  { key: "no-sync", long: "no-sync" },
  { key: "output", long: "output", arg: "optional" as const },
  { key: "P", short: "P", long: "portability" },
  { key: "sync", long: "sync" },
  { key: "total", long: "total" },
  { key: "t", short: "t", long: "type", arg: "required" as const },
  { key: "T", short: "T", long: "print-type" },
  { key: "x", short: "x", long: "exclude-type", arg: "required" as const },
  { key: "v", short: "v" },
];

/** The VM's one file system: in memory, like tmpfs, bounded by maxFsBytes and maxFsInodes. */
const SOURCE = "agentos";
const TYPE = "tmpfs";

type Field = "source" | "fstype" | "itotal" | "iused" | "iavail" | "ipcent" | "size" | "used" | "avail" | "pcent" | "file" | "target";
const ALL_FIELDS: Field[] = ["source", "fstype", "itotal", "iused", "iavail", "ipcent", "size", "used", "avail", "pcent", "file", "target"];
/** Header, minimum width, left-aligned (df.c field_data). */
const FIELD: Record<Field, [string, number, boolean]> = {
  source: ["Filesystem", 14, true],
  fstype: ["Type", 4, true],
  itotal: ["Inodes", 5, false],
  iused: ["IUsed", 5, false],
  iavail: ["IFree", 5, false],
  ipcent: ["IUse%", 5, false],
  size: ["Size", 5, false],
  used: ["Used", 5, false],
  avail: ["Avail", 5, false],
  pcent: ["Use%", 4, false],
  file: ["File", 0, true],
  target: ["Mounted on", 0, true],
};

/** GNU df for the VM's one file system: its size is the VM's maxFsBytes and maxFsInodes, its use what its quota counts (Sys.STATFS). */
export default function df(p: ScriptProcess): number {
  const { sys, stdout, stderr } = p;
  const parsed = parseArgs(p, SPECS, "Usage: df [OPTION]... [FILE]...\nShow information about the file system on which each FILE resides,\nor all file systems by default.\n");
  if (typeof parsed === "number") return parsed;
  let humanBase: 1024n | 1000n | undefined;
  let blockSize = 1024n;
  let blockSuffix = "";
  let inodesMode = false;
  let posix = false;
  let printType = false;
  let total = false;
  let output: Field[] | undefined;
  const included: string[] = [];
  const excluded: string[] = [];
  const envSize = sys.env["DF_BLOCK_SIZE"] || sys.env["BLOCK_SIZE"] || sys.env["BLOCKSIZE"];
  if (envSize) {
    const b = parseBlockSize(envSize);
    if (b) ({ size: blockSize, suffix: blockSuffix } = b);
  }
  for (const o of parsed.options) {
    switch (o.key) {
      case "B": {
        const b = parseBlockSize(o.value!);
        if (!b) return stderr.write(`df: invalid --block-size argument ${quote(o.value!, sys.env)}\n`), 1;
        humanBase = undefined;
        ({ size: blockSize, suffix: blockSuffix } = b);
        break;
      }
      case "h":
        humanBase = 1024n;
        break;
      case "H":
        humanBase = 1000n;
        break;
      case "k":
        humanBase = undefined;
        [blockSize, blockSuffix] = [1024n, ""];
        break;
      case "i":
        inodesMode = true;
        break;
      case "P":
        posix = true;
        break;
      case "T":
        printType = true;
        break;
      case "total":
        total = true;
        break;
      case "t":
        included.push(o.value!);
        break;
      case "x":
        excluded.push(o.value!);
        break;
      case "output": {
        const names = (o.value ?? ALL_FIELDS.join(",")).split(",");
        const bad = names.find((n) => !ALL_FIELDS.includes(n as Field));
        if (bad !== undefined) return usageError(p, `${quote(bad, sys.env)}: not a valid field for --output`);
        output = [...(output ?? []), ...(names as Field[])];
        break;
      }
    }
  }
  if (output && (inodesMode || printType || posix)) {
    const opt = inodesMode ? "-i" : printType ? "-T" : "-P";
    return usageError(p, `options --output and ${opt} are mutually exclusive`);
  }
  let status = 0;
  const rows: string[][] = [];
  const files = parsed.operands;
  for (const file of files) {
    try {
      sys.stat(file);
    } catch (e) {
      stderr.write(`df: ${file}: ${strerror(e)}\n`);
      status = 1;
    }
  }
  const shown = (included.length === 0 || included.includes(TYPE)) && !excluded.includes(TYPE);
  const okFiles = files.filter((f) => {
    try {
      sys.stat(f);
      return true;
    } catch {
      return false;
    }
  });
  if (!shown || (files.length > 0 && okFiles.length === 0)) {
    if (status === 0 || !shown) stderr.write("df: no file systems processed\n");
    return 1;
  }

  const { bytes, maxBytes, inodes, maxInodes } = sys.statfs();
  const fields: Field[] =
    output ??
    (inodesMode
      ? ["source", ...(printType ? ["fstype" as const] : []), "itotal", "iused", "iavail", "ipcent", "target"]
      : ["source", ...(printType ? ["fstype" as const] : []), "size", "used", "avail", "pcent", "target"]);
  const blockHeader = humanBase !== undefined ? "Size" : posix && blockSize === 1024n && !blockSuffix ? "1024-blocks" : `${blockSuffix ? `1${blockSuffix}` : blockLabel(blockSize)}-blocks`;
  const header = fields.map((f) => {
    if (f === "size") return blockHeader;
    if (f === "avail" && humanBase === undefined) return "Available";
    if (f === "pcent" && posix) return "Capacity";
    return FIELD[f][0];
  });
  const fsBytes = BigInt(maxBytes);
  const usedBytes = BigInt(bytes);
  const scaled = (n: bigint): string => (humanBase !== undefined ? human(n, humanBase) : String((n + blockSize - 1n) / blockSize));
  const percent = (used: bigint, avail: bigint): string => (used + avail === 0n ? "-" : `${(used * 100n + used + avail - 1n) / (used + avail)}%`);
  const row = (file: string | undefined, source: string, target: string, n: number): string[] => {
    const size = fsBytes * BigInt(n);
    const used = usedBytes * BigInt(n);
    const itotal = BigInt(maxInodes * n);
    const iused = BigInt(inodes * n);
    const values: Record<Field, string> = {
      source,
      fstype: source === "total" ? "-" : TYPE,
      size: scaled(size),
      used: scaled(used),
      avail: scaled(size - used),
      pcent: percent(used, size - used),
      itotal: humanBase !== undefined ? human(itotal, humanBase) : String(itotal),
      iused: humanBase !== undefined ? human(iused, humanBase) : String(iused),
      iavail: humanBase !== undefined ? human(itotal - iused, humanBase) : String(itotal - iused),
      ipcent: percent(iused, itotal - iused),
      file: file ?? "-",
      target,
    };
    return fields.map((f) => values[f]);
  };
  for (const file of files.length > 0 ? okFiles : [undefined]) rows.push(row(file, SOURCE, "/", 1));
  if (total) rows.push(row("-", "total", "-", rows.length));
  // Each column as wide as its widest cell (at least df's minimum); the last is not padded.
  const table = [header, ...rows];
  const widths = fields.map((f, i) => Math.max(FIELD[f][1], ...table.map((r) => r[i]!.length)));
  for (const r of table) {
    const cells = r.map((cell, i) => {
      const left = FIELD[fields[i]!][2];
      if (i === r.length - 1 && left) return cell;
      return left ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!);
    });
    stdout.write(`${cells.join(" ")}\n`);
  }
  return status;
}

/** 1K, 1M, … for a block size of a power of 1024, else the number of bytes. */
function blockLabel(size: bigint): string {
  const units = "KMGTPEZY";
  let n = size;
  let e = 0;
  while (n % 1024n === 0n && n > 1n && e < units.length) {
    n /= 1024n;
    e++;
  }
  return e === 0 ? String(size) : `${n}${units[e - 1]}`;
}
