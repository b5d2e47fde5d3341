/**
 * `sort`, following GNU coreutils sort in the C locale (src/commands/sort/: the command line, key fields,
 * orderings, the plan that keys and compares lines, reading the inputs, cooperative sorting).
 *
 * It runs on the kernel's thread, so it sorts cooperatively: it reads the inputs into blocks of lines,
 * computes every line's key values once, sorts each block, and merges the blocks into the output, in steps
 * that never hold the thread for more than a time slice (sort/cooperative.ts). It holds all input lines
 * in memory, within a bound (sort/input.ts).
 *
 * Not implemented from GNU: --debug, --files0-from, --compress-program, --help/--version, the obsolete
 * `+POS1 -POS2` key syntax, locale-aware collation/decimal points/thousands separators, a real k-way
 * merge for -m (inputs are simply sorted together), and -R uses a salted FNV hash instead of MD5.
 */
import type { CommandContext, CommandHandler } from "./command.js";
import { mergeBlocks, Slicer, sortBlock } from "./sort/cooperative.js";
import { readLines } from "./sort/input.js";
import { strerror } from "../gnu/strerror.js";
import { heldPerLine, sortable } from "./sort/items.js";
import { parseArgs, SortError, type Options } from "./sort/options.js";
import { makePlan, makeRec, type Plan, type Rec } from "./sort/plan.js";

/** Output gathered before one write. */
const WRITE_BYTES = 64 * 1024;

export const sort: CommandHandler = async (ctx) => {
  let opts: Options;
  try {
    opts = parseArgs(ctx.argv, ctx.env);
  } catch (e) {
    if (!(e instanceof SortError)) throw e;
    ctx.writeStderr(`${e.message}\n${e.tryHelp ? "Try 'sort --help' for more information.\n" : ""}`);
    return e.status;
  }
  try {
    return await run(ctx, opts);
  } catch (e) {
    if (e instanceof SortError) {
      ctx.writeStderr(`${e.message}\n`);
      return e.status;
    }
    throw e; // EPIPE included: the runtime ends the process with SIGPIPE
  }
};

async function run(ctx: CommandContext, o: Options): Promise<number> {
  const slicer = new Slicer(ctx.signal);
  const eol = o.zero ? "\0" : "\n";
  const files = o.files.length > 0 ? o.files : ["-"];
  const plan = makePlan(o);
  const reader = await readLines(ctx, files, eol, heldPerLine(o, plan), slicer);
  if (o.check) return check(ctx, o, plan, reader.blocks, files[0]!, eol, slicer);

  const { blocks, compare, lineOf, sortRun } = await sortable(reader, o, plan, slicer);
  for (let b = 0; b < blocks.length; b++) blocks[b] = await sortBlock(blocks[b]!, compare, slicer, sortRun);
  const out = new LineWriter(eol, o.output === null ? (d) => ctx.writeStdout(d) : null);
  // With -u, keeps the first item of each run that compares equal (keys only, no last-resort compare).
  let last: unknown;
  let first = true;
  await mergeBlocks(blocks, compare, slicer, (items, from, to) => {
    for (let i = from; i < to; i++) {
      const item = items[i];
      if (o.unique && !first && compare(last, item) === 0) continue;
      first = false;
      last = item;
      out.add(lineOf(item));
    }
  });
  out.flush();
  if (o.output !== null) {
    const data = await concat(out.gathered, slicer);
    try {
      ctx.fs.writeFile(o.output, data);
    } catch (e) {
      throw new SortError(`sort: open failed: ${o.output}: ${strerror(e)}`);
    }
  }
  return 0;
}

/** -c/-C: compares neighbours in input order; with -u equal neighbours are a disorder too. */
async function check(
  ctx: CommandContext, o: Options, plan: Plan, blocks: string[][], file: string, eol: string, slicer: Slicer,
): Promise<number> {
  const limit = o.unique ? 0 : 1;
  let prev: string | Rec | undefined;
  let n = 0;
  for (const block of blocks) {
    for (const line of block) {
      const item = o.keys.length === 0 ? line : makeRec(line, o, plan);
      if (prev !== undefined && plan.compare(prev, item) >= limit) {
        if (o.check === "c") ctx.writeStderr(bytes(`sort: ${file}:${n + 1}: disorder: ${line}${eol}`));
        return 1;
      }
      prev = item;
      n++;
      if (slicer.lineDone(line)) await slicer.pause();
    }
  }
  return 0;
}

function bytes(s: string): Uint8Array {
  return Buffer.from(s, "latin1");
}

/** Output lines, each with its terminator: written in pieces of about WRITE_BYTES, or gathered (for -o). */
class LineWriter {
  readonly gathered: Uint8Array[] = [];
  private lines: string[] = [];
  private size = 0;

  constructor(
    private readonly eol: string,
    private readonly write: ((data: Uint8Array) => void) | null,
  ) {}

  add(line: string): void {
    this.lines.push(line);
    this.size += line.length + 1;
    if (this.size >= WRITE_BYTES) this.flush();
  }

  flush(): void {
    if (this.lines.length === 0) return;
    const data = bytes(this.lines.join(this.eol) + this.eol);
    this.lines = [];
    this.size = 0;
    if (this.write) this.write(data);
    else this.gathered.push(data);
  }
}

/** The pieces as one buffer, for the file system's single writeFile. */
async function concat(pieces: Uint8Array[], slicer: Slicer): Promise<Uint8Array> {
  const out = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
    await slicer.pause();
  }
  return out;
}
