import type { ScriptProcess } from "../script-host.js";
import { getopt, UsageError } from "./getopt.js";
import { versionText } from "../../src/gnu/version.js";

// procps-ng 4.0.2 free, in its layout, over the VM's memory: `total` is the VM's memory limit
// (Limits.maxVmMemoryBytes), `used` the WebAssembly memory of its processes as the kernel charges it (the ps
// RSS column, summed), `free` and `available` what is left of the limit. The VM has no page cache, shared
// memory nor swap: `shared`, `buff/cache` (or `buffers` and `cache` with -w) and the Swap row are 0.
// Not here: -l (no low/high memory), -v (no commit accounting), -s/-c (repeating): they fail with a message.

const HELP = `
Usage:
 free [options]

Options:
 -b, --bytes         show output in bytes
     --kilo          show output in kilobytes
     --mega          show output in megabytes
     --giga          show output in gigabytes
     --tera          show output in terabytes
     --peta          show output in petabytes
 -k, --kibi          show output in kibibytes
 -m, --mebi          show output in mebibytes
 -g, --gibi          show output in gibibytes
     --tebi          show output in tebibytes
     --pebi          show output in pebibytes
 -h, --human         show human-readable output
     --si            use powers of 1000 not 1024
 -l, --lohi          show detailed low and high memory statistics
 -t, --total         show total for RAM + swap
 -v, --committed     show committed memory and commit limit
 -s N, --seconds N   repeat printing every N seconds
 -c N, --count N     repeat printing N times, then exit
 -w, --wide          wide output

     --help     display this help and exit
 -V, --version  output version information and exit

For more details see free(1).
`;

/** Option key → the unit's power of 1024 (or of 1000 for the SI ones). */
const UNITS: Record<string, { power: number; si: boolean }> = {
  b: { power: 0, si: false },
  kilo: { power: 1, si: true },
  mega: { power: 2, si: true },
  giga: { power: 3, si: true },
  tera: { power: 4, si: true },
  peta: { power: 5, si: true },
  k: { power: 1, si: false },
  m: { power: 2, si: false },
  g: { power: 3, si: false },
  tebi: { power: 4, si: false },
  pebi: { power: 5, si: false },
};

const SPECS = [
  { key: "b", short: "b", long: "bytes" },
  { key: "kilo", long: "kilo" },
  { key: "mega", long: "mega" },
  { key: "giga", long: "giga" },
  { key: "tera", long: "tera" },
  { key: "peta", long: "peta" },
  { key: "k", short: "k", long: "kibi" },
  { key: "m", short: "m", long: "mebi" },
  { key: "g", short: "g", long: "gibi" },
  { key: "tebi", long: "tebi" },
  { key: "pebi", long: "pebi" },
  { key: "h", short: "h", long: "human" },
  { key: "si", long: "si" },
  { key: "l", short: "l", long: "lohi" },
  { key: "t", short: "t", long: "total" },
  { key: "v", short: "v", long: "committed" },
  { key: "s", short: "s", long: "seconds", arg: "required" as const },
  { key: "c", short: "c", long: "count", arg: "required" as const },
  { key: "w", short: "w", long: "wide" },
  { key: "help", long: "help" },
  { key: "V", short: "V", long: "version" },
];

/** procps's human-readable size: the shortest of `1.4Gi`, `23Gi` whose number and unit fit 4 characters. */
export function human(bytes: number, si: boolean): string {
  const base = si ? 1000 : 1024;
  const suffix = si ? "" : "i";
  if (String(bytes).length + 1 <= 4) return `${bytes}B`;
  for (const [i, unit] of ["K", "M", "G", "T", "P", "E"].entries()) {
    const value = bytes / base ** (i + 1);
    const fraction = `${value.toFixed(1)}${unit}`;
    if (fraction.length <= 4) return fraction + suffix;
    const whole = `${Math.trunc(value)}${unit}`;
    if (whole.length <= 4) return whole + suffix;
  }
  return `${bytes}B`;
}

export default function free({ sys, maxVmMemoryBytes, argv, stdout, stderr }: ScriptProcess): number {
  let parsed;
  try {
    parsed = getopt(argv.slice(1), SPECS);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    stderr.write(`free: ${e.message}\n${HELP}`);
    return 1;
  }
  let unit = UNITS.k!;
  let humanReadable = false;
  let si = false;
  let total = false;
  let wide = false;
  for (const o of parsed.options) {
    if (o.key === "help") return stdout.write(HELP), 0;
    if (o.key === "V") return stdout.write(versionText("free", "free from procps-ng 4.0.2")), 0;
    if (UNITS[o.key]) unit = UNITS[o.key]!;
    else if (o.key === "h") humanReadable = true;
    else if (o.key === "si") si = true;
    else if (o.key === "t") total = true;
    else if (o.key === "w") wide = true;
    else {
      stderr.write(`free: ${o.name}: the VM has no ${o.key === "l" ? "low and high memory" : o.key === "v" ? "commit accounting" : "repeated report"} to show\n`);
      return 1;
    }
  }
  if (parsed.operands.length > 0) {
    stderr.write(`free: unrecognized argument '${parsed.operands[0]}'\n${HELP}`);
    return 1;
  }
  const used = sys.processes().processes.reduce((n, p) => n + p.memoryKiB * 1024, 0);
  const mem = { total: maxVmMemoryBytes, used, free: Math.max(0, maxVmMemoryBytes - used) };
  const scale = (bytes: number): string => {
    if (humanReadable) return human(bytes, si);
    // procps divides the KiB figures (bytes for -b), truncating.
    if (unit.power === 0) return String(bytes);
    const kib = Math.trunc(bytes / 1024);
    return String(unit.si ? Math.trunc((kib * 1024) / 1000 ** unit.power) : Math.trunc(kib / 1024 ** (unit.power - 1)));
  };
  const row = (label: string, values: number[]): string => `${label.padEnd(9)}${values.map((v, i) => (i === 0 ? "" : " ") + scale(v).padStart(11)).join("")}\n`;
  stdout.write(
    wide
      ? "               total        used        free      shared     buffers       cache   available\n"
      : "               total        used        free      shared  buff/cache   available\n",
  );
  stdout.write(row("Mem:", wide ? [mem.total, mem.used, mem.free, 0, 0, 0, mem.free] : [mem.total, mem.used, mem.free, 0, 0, mem.free]));
  stdout.write(row("Swap:", [0, 0, 0]));
  if (total) stdout.write(row("Total:", [mem.total, mem.used, mem.free]));
  return 0;
}
