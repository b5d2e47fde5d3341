/**
 * Sorting more than fits sort's buffer, as GNU sort does: each buffer's worth of lines is sorted and
 * written to a temporary file, a run (temp-files.ts); the runs are then merged into the output, at most
 * --batch-size of them at a time (with more, groups are merged into new runs first, in order, so that the
 * merge stays stable). `-m` merges its inputs the same way, without sorting them.
 */
import type { CommandContext } from "../command.js";
import { errorCode, strerror } from "../../gnu/strerror.js";
import { DEFAULT_LIMITS, SORT_BUFFER_BYTES } from "../../limits.js";
import { mergeBlocks, sortBlock, type Compare, type Slicer } from "./cooperative.js";
import { MAX_LINE_BYTES, openInput, readChunk, WINDOW_BYTES } from "./input.js";
import { sortable } from "./items.js";
import { SortError, type Options } from "./options.js";
import { makeRec, type Plan } from "./plan.js";
import type { TempFiles } from "./temp-files.js";

/** The smallest buffer, whatever -S says (GNU has a floor too): a few windows of input. */
const MIN_BUFFER_BYTES = 16 * 1024;
/** The largest: what a guest process may have as memory (a TypeScript command cannot see its VM's limits). */
const MAX_BUFFER_BYTES = DEFAULT_LIMITS.maxProcessMemoryBytes;
/** Output gathered before one write. */
const WRITE_BYTES = 64 * 1024;

/** The bytes sort holds before it spills: -S, or SORT_BUFFER_BYTES, within the floor and ceiling above. */
export function bufferBytes(o: Options): number {
  return Math.min(MAX_BUFFER_BYTES, Math.max(MIN_BUFFER_BYTES, o.bufferBytes ?? SORT_BUFFER_BYTES));
}

/** Bytes read and split in one step: a window, or less for a small buffer, so that runs keep to it. */
export function windowBytes(buffer: number): number {
  return Math.min(WINDOW_BYTES, Math.max(4096, buffer >> 2));
}

/** Output lines, each with its terminator, written in pieces of about WRITE_BYTES. */
export class LineWriter {
  private lines: string[] = [];
  private size = 0;

  constructor(
    private readonly eol: string,
    private readonly write: (data: Uint8Array) => void,
  ) {}

  add(line: string): void {
    this.lines.push(line);
    this.size += line.length + 1;
    if (this.size >= WRITE_BYTES) this.flush();
  }

  flush(): void {
    if (this.lines.length === 0) return;
    const data = Buffer.from(this.lines.join(this.eol) + this.eol, "latin1");
    this.lines = [];
    this.size = 0;
    this.write(data);
  }
}

/**
 * The output (stdout, or the -o file, opened now: sort has read all it sorts by the time it writes). A
 * failed write is GNU's "write failed" (or "fflush failed" for the last piece, which GNU writes as it
 * exits) and then, from closing stdout, "write error"; a broken pipe stays EPIPE (the runtime ends the
 * process with SIGPIPE).
 */
export function openOutput(ctx: CommandContext, o: Options, eol: string): { out: LineWriter; close: () => void } {
  let closing = false;
  const failed = (name: string, e: unknown): never => {
    if (errorCode(e) === "EPIPE" || ctx.signal.aborted) throw e;
    throw new SortError(`sort: ${closing ? "fflush" : "write"} failed: ${name}: ${strerror(e)}\nsort: write error`);
  };
  if (o.output === null) {
    const out = new LineWriter(eol, (d) => {
      try {
        ctx.writeStdout(d);
      } catch (e) {
        failed("'standard output'", e);
      }
    });
    return { out, close: () => ((closing = true), out.flush()) };
  }
  const name = o.output;
  let file: ReturnType<CommandContext["fs"]["open"]>;
  try {
    file = ctx.fs.open(name, "w");
  } catch (e) {
    throw new SortError(`sort: open failed: ${name}: ${strerror(e)}`);
  }
  const out = new LineWriter(eol, (d) => {
    try {
      file.write(d);
    } catch (e) {
      failed(name, e);
    }
  });
  return {
    out,
    close: () => {
      closing = true;
      try {
        out.flush();
      } finally {
        file.close();
      }
    },
  };
}

/**
 * The `emit` of mergeBlocks that writes each item's line to `out`; with -u only the first of each run of
 * items that compare equal (keys only: the plan leaves out the last-resort comparison then).
 */
function writeItems<T>(o: Options, compare: Compare<T>, lineOf: (item: T) => string, out: LineWriter) {
  let last: T | undefined;
  let first = true;
  return (items: readonly T[], from: number, to: number): void => {
    for (let i = from; i < to; i++) {
      const item = items[i]!;
      if (o.unique && !first && compare(last!, item) === 0) continue;
      first = false;
      last = item;
      out.add(lineOf(item));
    }
  };
}

/** Sorts `count` lines (LineReader.take) in memory and writes them to `out`. */
export async function writeSorted(
  lines: string[][], count: number, o: Options, plan: Plan, slicer: Slicer, out: LineWriter,
): Promise<void> {
  const { blocks, compare, lineOf, sortRun } = await sortable(lines, count, o, plan, slicer);
  for (let b = 0; b < blocks.length; b++) blocks[b] = await sortBlock(blocks[b]!, compare, slicer, sortRun);
  await mergeBlocks(blocks, compare, slicer, writeItems(o, compare, lineOf, out));
}

/** A run to merge: one of sort's temporary files, or an input of -m ("-" is stdin). */
export interface Run {
  name: string;
  temp: boolean;
}

/** The lines of a run, read a window at a time. */
class RunLines {
  private carry = "";
  private source: ReturnType<typeof openInput> | undefined;

  constructor(
    private readonly ctx: CommandContext,
    private readonly run: Run,
    private readonly eol: string,
    private readonly window: number,
    private readonly slicer: Slicer,
  ) {
    this.source = openInput(ctx, run.name);
  }

  /**
   * The next lines (at least one), or null at the end of the run, which is then closed. Throws "memory
   * exhausted" for a line past MAX_LINE_BYTES (an input of -m).
   */
  async next(): Promise<string[] | null> {
    while (this.source) {
      await this.slicer.pause();
      const chunk = await readChunk(this.ctx, this.source, this.window);
      if (!chunk) {
        this.close();
        const last = this.carry;
        this.carry = "";
        return last === "" ? null : [last];
      }
      const parts = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString("latin1").split(this.eol);
      parts[0] = this.carry + parts[0]!;
      this.carry = parts.pop()!;
      if (this.carry.length > MAX_LINE_BYTES) throw new SortError("sort: memory exhausted");
      if (parts.length > 0) return parts;
    }
    return null;
  }

  close(): void {
    if (this.source && !this.source.stdin) this.source.file.close();
    this.source = undefined;
  }
}

/** Merges runs: spills sorted buffers, and merges runs into the output or into new runs. */
export class Merger {
  constructor(
    private readonly ctx: CommandContext,
    private readonly o: Options,
    private readonly plan: Plan,
    private readonly temps: TempFiles,
    private readonly slicer: Slicer,
    private readonly eol: string,
    private readonly window: number,
  ) {}

  /** Sorts `count` lines (LineReader.take) and writes them to a new temporary file. */
  async spill(lines: string[][], count: number): Promise<Run> {
    const { name, file } = this.temps.create();
    try {
      const out = this.runWriter(name, (d) => file.write(d));
      await writeSorted(lines, count, this.o, this.plan, this.slicer, out);
      out.flush();
    } finally {
      file.close();
    }
    return { name, temp: true };
  }

  /**
   * Merges `runs` into `out`: while there are more than --batch-size, each group of that many is merged
   * into a new run first. Temporary runs are removed once merged.
   */
  async mergeInto(runs: readonly Run[], out: LineWriter): Promise<void> {
    while (runs.length > this.o.nmerge) {
      const next: Run[] = [];
      for (let i = 0; i < runs.length; i += this.o.nmerge) {
        const group = runs.slice(i, i + this.o.nmerge);
        if (group.length === 1) {
          next.push(group[0]!);
          continue;
        }
        const { name, file } = this.temps.create();
        try {
          const merged = this.runWriter(name, (d) => file.write(d));
          await this.merge(group, merged);
          merged.flush();
        } finally {
          file.close();
        }
        next.push({ name, temp: true });
      }
      runs = next;
    }
    await this.merge(runs, out);
  }

  /** Writes to temporary file `name`: a failure is GNU's "write failed". */
  private runWriter(name: string, write: (data: Uint8Array) => void): LineWriter {
    return new LineWriter(this.eol, (d) => {
      try {
        write(d);
      } catch (e) {
        if (this.ctx.signal.aborted) throw e;
        throw new SortError(`sort: write failed: ${name}: ${strerror(e)}`);
      }
    });
  }

  /** Merges at most --batch-size runs into `out`. */
  private async merge(runs: readonly Run[], out: LineWriter): Promise<void> {
    const { o, plan } = this;
    const readers: RunLines[] = [];
    try {
      for (const r of runs) readers.push(new RunLines(this.ctx, r, this.eol, this.window, this.slicer));
      // Without keys the items are the lines; with keys, records of their key values, made here again.
      const next = async (b: number): Promise<unknown[] | null> => {
        const lines = await readers[b]!.next();
        if (!lines || o.keys.length === 0) return lines;
        const items = lines as unknown[];
        for (let i = 0; i < lines.length; i++) {
          const line = lines[i]!;
          items[i] = makeRec(line, o, plan);
          if (this.slicer.lineDone(line)) await this.slicer.pause();
        }
        return items;
      };
      const blocks = await Promise.all(readers.map(async (_, b) => (await next(b)) ?? []));
      const lineOf = o.keys.length === 0 ? (x: unknown) => x as string : (x: unknown) => (x as { line: string }).line;
      await mergeBlocks(blocks, plan.compare, this.slicer, writeItems(o, plan.compare, lineOf, out), next);
    } finally {
      for (const r of readers) r.close();
    }
    for (const r of runs) if (r.temp) this.temps.remove(r.name);
  }
}
