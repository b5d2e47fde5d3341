/**
 * `sort`, following GNU coreutils sort in the C locale (src/commands/sort/: the command line, key fields,
 * orderings, the plan that keys and compares lines, reading the inputs, cooperative sorting, runs and
 * temporary files).
 *
 * It runs on the kernel's thread, so it sorts cooperatively: it reads the inputs into blocks of lines,
 * computes every line's key values once, sorts each block, and merges the blocks into the output, in steps
 * that never hold the thread for more than a time slice (sort/cooperative.ts). As GNU sort, it holds a
 * buffer's worth of input at a time (-S; SORT_BUFFER_BYTES in src/limits.ts by default): a larger input is
 * sorted a buffer at a time into temporary files, which are then merged (sort/runs.ts, -T, --batch-size).
 * `-m` merges sorted inputs the same way, reading them as it goes.
 *
 * Not implemented from GNU: --debug, --files0-from, --compress-program, the obsolete
 * `+POS1 -POS2` key syntax, locale-aware collation/decimal points/thousands separators, more than one
 * thread (--parallel is accepted), and -R uses a salted FNV hash instead of MD5.
 */
import type { CommandContext, CommandHandler, CommandStat } from "./command.js";
import { Slicer } from "./sort/cooperative.js";
import { checkInputs, LineReader, LINE_BYTES, openInput, readChunk, readLines } from "./sort/input.js";
import { strerror } from "../gnu/strerror.js";
import { heldPerLine } from "./sort/items.js";
import { parseArgs, SortAnswer, SortError, type Options } from "./sort/options.js";
import { makePlan, makeRec, type Plan, type Rec } from "./sort/plan.js";
import { bufferBytes, Merger, openOutput, windowBytes, writeSorted, type Run } from "./sort/runs.js";
import { tempDirs, TempFiles } from "./sort/temp-files.js";

export const sort: CommandHandler = async (ctx) => {
  let opts: Options;
  try {
    opts = parseArgs(ctx.argv, ctx.env);
  } catch (e) {
    if (e instanceof SortAnswer) {
      ctx.writeStdout(e.text);
      return 0;
    }
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
  const buffer = bufferBytes(o);
  const window = windowBytes(buffer);
  if (o.check) return check(ctx, o, plan, files, eol, new LineReader(eol, LINE_BYTES, buffer), window, slicer);

  const temps = new TempFiles(ctx, tempDirs(o.tempDirs, ctx.env));
  try {
    const merger = new Merger(ctx, o, plan, temps, slicer, eol, window);
    if (o.merge) {
      checkInputs(ctx, files);
      const runs = await keepOutputsInputs(ctx, o, files, temps, window);
      const output = openOutput(ctx, o, eol);
      await merger.mergeInto(runs, output.out);
      output.close();
      return 0;
    }
    const reader = new LineReader(eol, heldPerLine(o, plan), buffer);
    const runs: Run[] = [];
    const spill = async (): Promise<boolean> => {
      const { lines, count } = reader.take();
      runs.push(await merger.spill(lines, count));
      return false;
    };
    await readLines(ctx, files, reader, window, slicer, spill);
    // Everything is read by now, so -o may name an input.
    if (runs.length === 0) {
      const { lines, count } = reader.take();
      const output = openOutput(ctx, o, eol);
      await writeSorted(lines, count, o, plan, slicer, output.out);
      output.close();
    } else {
      if (reader.count > 0) await spill();
      const output = openOutput(ctx, o, eol);
      await merger.mergeInto(runs, output.out);
      output.close();
    }
    return 0;
  } finally {
    temps.removeAll();
  }
}

/** Whether two stats are of the same file. */
const sameFile = (a: CommandStat, b: CommandStat): boolean => a.dev === b.dev && a.ino === b.ino;

/**
 * The inputs of -m as runs. -m writes while it reads, so an input that is also the -o file is copied to a
 * temporary file first, as GNU does.
 */
async function keepOutputsInputs(
  ctx: CommandContext, o: Options, files: readonly string[], temps: TempFiles, window: number,
): Promise<Run[]> {
  const statOf = (name: string): CommandStat | undefined => {
    try {
      return ctx.fs.stat(name);
    } catch {
      return undefined; // nothing there yet (or /dev/fd/N, a pipe): not a file the output could overwrite
    }
  };
  const output = o.output === null ? undefined : statOf(o.output);
  const runs: Run[] = [];
  for (const name of files) {
    const input = name === "-" || output === undefined ? undefined : statOf(name);
    if (!input || !sameFile(input, output!) || input.type !== "file") {
      runs.push({ name, temp: false });
      continue;
    }
    const copy = temps.create();
    const source = openInput(ctx, name);
    try {
      for (let c = await readChunk(ctx, source, window); c; c = await readChunk(ctx, source, window)) {
        try {
          copy.file.write(c);
        } catch (e) {
          throw new SortError(`sort: write failed: ${copy.name}: ${strerror(e)}`);
        }
      }
    } finally {
      if (!source.stdin) source.file.close();
      copy.file.close();
    }
    runs.push({ name: copy.name, temp: true });
  }
  return runs;
}

/**
 * -c/-C: compares neighbours in input order, a buffer's worth at a time; with -u equal neighbours are a
 * disorder too. Stops reading at the first disorder.
 */
async function check(
  ctx: CommandContext, o: Options, plan: Plan, files: string[], eol: string, reader: LineReader, window: number,
  slicer: Slicer,
): Promise<number> {
  const limit = o.unique ? 0 : 1;
  let prev: string | Rec | undefined;
  let n = 0;
  let disorder = false;
  const checkLines = async (): Promise<boolean> => {
    for (const block of reader.take().lines) {
      for (const line of block) {
        const item = o.keys.length === 0 ? line : makeRec(line, o, plan);
        if (prev !== undefined && plan.compare(prev, item) >= limit) {
          if (o.check === "c") ctx.writeStderr(Buffer.from(`sort: ${files[0]}:${n + 1}: disorder: ${line}${eol}`, "latin1"));
          disorder = true;
          return true;
        }
        prev = item;
        n++;
        if (slicer.lineDone(line)) await slicer.pause();
      }
    }
    return false;
  };
  if (await readLines(ctx, files, reader, window, slicer, checkLines)) await checkLines();
  return disorder ? 1 : 0;
}

