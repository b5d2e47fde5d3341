import { quote, quoteaf } from "../../src/gnu/quote.js";
import { strerror } from "../../src/gnu/strerror.js";
import type { ScriptProcess } from "../script-host.js";
import type { Stat } from "../system.js";
import { getopt, UsageError } from "./getopt.js";
import { versionText } from "../../src/gnu/version.js";

// GNU du (coreutils 9.1). Disk usage is what the VM's file system allocates (Stat.blocks): a regular
// file takes its size rounded up to 4 KiB blocks; a directory, a symbolic link and a device take none of
// their own (`stat -c %b` says 0 and `ls -l` shows size 0 for a directory, so du agrees with them). A host
// on ext4 also counts 4 KiB per directory, so du of a tree differs from such a host by 4K per directory;
// files and --apparent-size of files agree.

const SPECS = [
  { key: "a", short: "a", long: "all" },
  { key: "apparent", long: "apparent-size" },
  { key: "B", short: "B", long: "block-size", arg: "required" as const },
  { key: "b", short: "b", long: "bytes" },
  { key: "c", short: "c", long: "total" },
  { key: "D", short: "D", long: "dereference-args" },
  { key: "H", short: "H" },
  { key: "d", short: "d", long: "max-depth", arg: "required" as const },
  { key: "h", short: "h", long: "human-readable" },
  { key: "si", long: "si" },
  { key: "k", short: "k" },
  { key: "l", short: "l", long: "count-links" },
  { key: "L", short: "L", long: "dereference" },
  { key: "m", short: "m" },
  { key: "P", short: "P", long: "no-dereference" },
  { key: "0", short: "0", long: "null" },
  { key: "S", short: "S", long: "separate-dirs" },
  { key: "s", short: "s", long: "summarize" },
  { key: "x", short: "x", long: "one-file-system" },
  { key: "help", long: "help" },
  { key: "version", long: "version" },
];

const HELP = `Usage: du [OPTION]... [FILE]...
  or:  du [OPTION]... --files0-from=F
Summarize device usage of the set of FILEs, recursively for directories.

Mandatory arguments to long options are mandatory for short options too.
  -0, --null            end each output line with NUL, not newline
  -a, --all             write counts for all files, not just directories
      --apparent-size   print apparent sizes rather than device usage; although
                          the apparent size is usually smaller, it may be
                          larger due to holes in ('sparse') files, internal
                          fragmentation, indirect blocks, and the like
  -B, --block-size=SIZE  scale sizes by SIZE before printing them; e.g.,
                           '-BM' prints sizes in units of 1,048,576 bytes;
                           see SIZE format below
  -b, --bytes           equivalent to '--apparent-size --block-size=1'
  -c, --total           produce a grand total
  -D, --dereference-args  dereference only symlinks that are listed on the
                          command line
  -d, --max-depth=N     print the total for a directory (or file, with --all)
                          only if it is N or fewer levels below the command
                          line argument;  --max-depth=0 is the same as
                          --summarize
  -H                    equivalent to --dereference-args (-D)
  -h, --human-readable  print sizes in human readable format (e.g., 1K 234M 2G)
      --si              like -h, but use powers of 1000 not 1024
  -k                    like --block-size=1K
  -L, --dereference     dereference all symbolic links
  -l, --count-links     count sizes many times if hard linked
  -m                    like --block-size=1M
  -P, --no-dereference  don't follow any symbolic links (this is the default)
  -S, --separate-dirs   for directories do not include size of subdirectories
  -s, --summarize       display only a total for each argument
  -x, --one-file-system    skip directories on different file systems
      --help        display this help and exit
      --version     output version information and exit

Display values are in units of the first available SIZE from --block-size,
and the DU_BLOCK_SIZE, BLOCK_SIZE and BLOCKSIZE environment variables.
Otherwise, units default to 1024 bytes (or 512 if POSIXLY_CORRECT is set).

The SIZE argument is an integer and optional unit (example: 10K is 10*1024).
Units are K,M,G,T,P,E,Z,Y (powers of 1024) or KB,MB,... (powers of 1000).
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.
`;

const POWERS = "KMGTPEZY";

/** A --block-size: bytes per unit, and the suffix to print (for a bare unit such as `M`). */
export function parseBlockSize(spec: string): { size: bigint; suffix: string } | undefined {
  const m = /^([0-9]*)([KMGTPEZY](iB|B)?|[kK]B?|[bc])?$/.exec(spec);
  if (!m || spec === "") return undefined;
  let size = m[1] ? BigInt(m[1]) : 1n;
  let suffix = "";
  const unit = m[2];
  if (unit) {
    if (unit === "b") size *= 512n;
    else if (unit !== "c") {
      const letter = unit[0]!.toUpperCase();
      const base = unit.endsWith("B") && !unit.endsWith("iB") ? 1000n : 1024n;
      size *= base ** BigInt(POWERS.indexOf(letter) + 1);
      if (!m[1]) suffix = unit;
    }
  }
  if (size === 0n) return undefined;
  return { size, suffix };
}

/** gnulib human_readable with ceiling rounding and autoscale, as du -h/--si print. */
export function human(bytes: bigint, base: 1024n | 1000n): string {
  if (bytes < base) return String(bytes);
  let e = 0;
  let scale = 1n;
  while (bytes >= scale * base && e < POWERS.length) {
    scale *= base;
    e++;
  }
  const letter = (k: number): string => (base === 1000n && k === 1 ? "k" : POWERS[k - 1]!);
  // q = bytes / scale, 1 <= q < base
  if (bytes < 10n * scale) {
    const tenths = (bytes * 10n + scale - 1n) / scale;
    if (tenths < 100n) return `${tenths / 10n}.${tenths % 10n}${letter(e)}`;
    return `10${letter(e)}`;
  }
  const whole = (bytes + scale - 1n) / scale;
  if (whole === base && e < POWERS.length) return `1.0${letter(e + 1)}`;
  return `${whole}${letter(e)}`;
}

export default function du({ sys, argv, stdout, stderr }: ScriptProcess): number {
  const usageError = (message: string): number => {
    stderr.write(`du: ${message}\nTry 'du --help' for more information.\n`);
    return 1;
  };
  let parsed;
  try {
    parsed = getopt(argv.slice(1), SPECS);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return usageError(e.message);
  }
  let all = false;
  let apparent = false;
  let total = false;
  let summarize = false;
  let separate = false;
  let countLinks = false;
  let maxDepth: number | undefined;
  let deref: "none" | "args" | "all" = "none";
  let humanBase: 1024n | 1000n | undefined;
  let blockSize = 1024n;
  let blockSuffix = "";
  let nul = false;
  const envSize = sys.env["DU_BLOCK_SIZE"] || sys.env["BLOCK_SIZE"] || sys.env["BLOCKSIZE"];
  if (envSize) {
    const b = parseBlockSize(envSize);
    if (b) ({ size: blockSize, suffix: blockSuffix } = b);
  } else if (sys.env["POSIXLY_CORRECT"] !== undefined) blockSize = 512n;
  for (const o of parsed.options) {
    switch (o.key) {
      case "help":
        stdout.write(HELP);
        return 0;
      case "version":
        stdout.write(versionText("du", "GNU coreutils 9.1"));
        return 0;
      case "a":
        all = true;
        break;
      case "apparent":
        apparent = true;
        break;
      case "b":
        apparent = true;
        humanBase = undefined;
        blockSize = 1n;
        blockSuffix = "";
        break;
      case "B": {
        const b = parseBlockSize(o.value!);
        if (!b) {
          stderr.write(`du: invalid --block-size argument ${quote(o.value!, sys.env)}\n`);
          return 1;
        }
        humanBase = undefined;
        ({ size: blockSize, suffix: blockSuffix } = b);
        break;
      }
      case "c":
        total = true;
        break;
      case "D":
      case "H":
        deref = "args";
        break;
      case "L":
        deref = "all";
        break;
      case "P":
        deref = "none";
        break;
      case "d":
        if (!/^\s*\+?[0-9]+$/.test(o.value!)) return usageError(`invalid maximum depth ${quote(o.value!, sys.env)}`);
        maxDepth = Number(o.value!.trim());
        break;
      case "h":
        humanBase = 1024n;
        break;
      case "si":
        humanBase = 1000n;
        break;
      case "k":
        humanBase = undefined;
        blockSize = 1024n;
        blockSuffix = "";
        break;
      case "m":
        humanBase = undefined;
        blockSize = 1024n * 1024n;
        blockSuffix = "";
        break;
      case "l":
        countLinks = true;
        break;
      case "0":
        nul = true;
        break;
      case "S":
        separate = true;
        break;
      case "s":
        summarize = true;
        break;
    }
  }
  if (summarize && all) return usageError("cannot both summarize and show all entries");
  if (summarize && maxDepth !== undefined && maxDepth === 0) stderr.write("du: warning: summarizing is the same as using --max-depth=0\n");
  else if (summarize && maxDepth !== undefined) {
    stderr.write(`du: warning: summarizing conflicts with --max-depth=${maxDepth}\n`);
    stderr.write("Try 'du --help' for more information.\n");
    return 1;
  }
  if (summarize) maxDepth = 0;

  const eol = nul ? "\0" : "\n";
  const format = (bytes: bigint): string =>
    humanBase !== undefined ? human(bytes, humanBase) : `${(bytes + blockSize - 1n) / blockSize}${blockSuffix}`;
  const sizeOf = (st: Stat): bigint => {
    if (apparent) return st.kind === "file" || st.kind === "symlink" ? BigInt(st.size) : 0n;
    return BigInt(st.blocks * 512);
  };

  const operands = parsed.operands.length > 0 ? parsed.operands : ["."];
  const hashAll = operands.length > 1 || deref === "all";
  const seen = new Set<string>();
  let status = 0;
  let grand = 0n;

  /** Whether the entry measured last was a directory (-S leaves a subdirectory's size out of its parent's). */
  let lastWasDir = false;
  /** A directory being measured: its size so far and the names in it still to measure. */
  interface Level {
    path: string;
    depth: number;
    size: bigint;
    names: string[];
    next: number;
  }
  const levels: Level[] = [];
  /**
   * Measures `path` (depth levels below its operand), printing what the options ask for: its size, or
   * undefined when it cannot be measured; a directory is entered instead (returns "entered"), and measured
   * when everything below it has been.
   */
  const begin = (path: string, depth: number, follow: boolean): bigint | undefined | "entered" => {
    let st: Stat;
    try {
      st = sys.stat(path, follow);
    } catch (e) {
      stderr.write(`du: cannot access ${quoteaf(path)}: ${strerror(e)}\n`);
      status = 1;
      lastWasDir = false;
      return undefined;
    }
    lastWasDir = st.kind === "dir";
    if (!countLinks && (hashAll || (st.kind !== "dir" && st.nlink > 1))) {
      const id = `${st.dev}:${st.ino}`;
      if (seen.has(id)) return 0n;
      seen.add(id);
    }
    const size = sizeOf(st);
    if (st.kind === "dir") {
      let names: string[] = [];
      try {
        names = sys.readdir(path).map((e) => e.name);
      } catch (e) {
        stderr.write(`du: cannot read directory ${quoteaf(path)}: ${strerror(e)}\n`);
        status = 1;
      }
      levels.push({ path, depth, size, names, next: 0 });
      return "entered";
    }
    lastWasDir = false;
    if (depth === 0 || (all && (maxDepth === undefined || depth <= maxDepth))) {
      stdout.write(`${format(size)}\t${path}${eol}`);
    }
    return size;
  };
  /**
   * The size of an operand and of everything below it, depth first with a stack of the directories on the
   * way down instead of recursion: no tree is too deep for the worker's stack.
   */
  const walk = (operand: string, follow: boolean): bigint | undefined => {
    let measured = begin(operand, 0, follow);
    for (;;) {
      const level = levels[levels.length - 1];
      if (!level) return measured === "entered" ? undefined : measured;
      if (measured !== "entered" && measured !== undefined && !(separate && lastWasDir)) level.size += measured;
      const name = level.names[level.next++];
      if (name !== undefined) {
        const prefix = level.path.endsWith("/") ? level.path : `${level.path}/`;
        measured = begin(prefix + name, level.depth + 1, deref === "all");
        continue;
      }
      levels.pop();
      if (maxDepth === undefined || level.depth <= maxDepth) stdout.write(`${format(level.size)}\t${level.path}${eol}`);
      lastWasDir = true;
      measured = level.size;
    }
  };

  for (const operand of operands) {
    const size = walk(operand, deref !== "none");
    if (size !== undefined) grand += size;
  }
  if (total) stdout.write(`${format(grand)}\ttotal${eol}`);
  return status;
}

