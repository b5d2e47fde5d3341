/**
 * Reading sort's inputs into lines, cooperatively (see cooperative.ts), a buffer's worth at a time.
 *
 * Text is handled as "binary strings": every input byte becomes one UTF-16 code unit (latin1 decoding),
 * so JavaScript's `<` on strings is exactly GNU's memcmp byte order and the bytes come back unchanged
 * on output.
 */
import type { CommandContext, CommandFile } from "../command.js";
import { DEFAULT_LIMITS } from "../../limits.js";
import type { Slicer } from "./cooperative.js";
import { SortError } from "./options.js";
import { errorCode, strerror } from "../../gnu/strerror.js";

/** Lines per block (a power of two): blocks are sorted one by one, and no array of lines grows past it. */
export const BLOCK_SHIFT = 18;
const BLOCK_LINES = 1 << BLOCK_SHIFT;
/** Bytes read, decoded and split in one step. */
export const WINDOW_BYTES = 256 * 1024;

/**
 * What sort holds of its lines, on the host's heap: besides the text itself, per line the string's header,
 * its slot in a block and in a merge buffer (LINE_BYTES); with keys, its key values, as one number
 * (NUMBER_BYTES) or as a record (plan.ts) of values (KEYED_LINE_BYTES + KEY_BYTES per key). Measured on
 * 64-bit Node 20, rounded up. Past its buffer (runs.ts) sort sorts what it holds and spills it to a
 * temporary file.
 */
export const LINE_BYTES = 48;
export const NUMBER_BYTES = 16;
export const KEYED_LINE_BYTES = 80;
export const KEY_BYTES = 48;
/**
 * The longest line sort takes: what a guest process may have as memory (limits.ts), as a line must be held
 * whole. A TypeScript command cannot see its VM's own limits, so this is the default.
 */
export const MAX_LINE_BYTES = DEFAULT_LIMITS.maxProcessMemoryBytes;

/**
 * Splits input into lines, kept in input order in blocks of BLOCK_LINES (the last one may be shorter),
 * so line g is blocks[g >> BLOCK_SHIFT][g & (BLOCK_LINES - 1)], until `take` hands them over.
 */
export class LineReader {
  blocks: string[][] = [[]];
  private block = this.blocks[0]!;
  private bytes = 0;
  private lines = 0;
  /** The start of a line whose terminator has not come yet. */
  private carry = "";

  /**
   * `heldPerLine`: what each line takes besides its text (LINE_BYTES and so on, items.ts); `budget`: the
   * bytes a buffer's worth of lines may take.
   */
  constructor(
    private readonly eol: string,
    private readonly heldPerLine: number,
    private readonly budget: number,
  ) {}

  get count(): number {
    return this.lines;
  }

  /** The lines read take their budget: time to sort and spill them (sort.ts). */
  get full(): boolean {
    return this.bytes + this.lines * this.heldPerLine >= this.budget;
  }

  /** Adds data of the current input (at most a window). Throws "memory exhausted" for a line past MAX_LINE_BYTES. */
  add(data: Uint8Array): void {
    const parts = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("latin1").split(this.eol);
    parts[0] = this.carry + parts[0]!;
    this.carry = parts.pop()!;
    for (const line of parts) this.push(line);
    this.bytes += data.length;
    if (this.carry.length > MAX_LINE_BYTES) throw new SortError("sort: memory exhausted");
  }

  /** Ends the current input: a final line without terminator still counts; empty input has no lines. */
  end(): void {
    if (this.carry !== "") this.push(this.carry);
    this.carry = "";
  }

  /** Hands over the complete lines read so far, and starts again with none (a partial line stays). */
  take(): { lines: string[][]; count: number } {
    const taken = { lines: this.blocks, count: this.lines };
    this.blocks = [(this.block = [])];
    this.bytes = this.carry.length;
    this.lines = 0;
    return taken;
  }

  private push(line: string): void {
    if (this.block.length === BLOCK_LINES) this.blocks.push((this.block = []));
    this.block.push(line);
    this.lines++;
  }
}

/** Where sort reads an input from: stdin, or an open file. */
type Source = { stdin: true } | { stdin: false; file: CommandFile; name: string };

/** The codes of an input sort cannot read at all (GNU's "cannot read", before any reading). */
const ACCESS_CODES = ["ENOENT", "ENOTDIR", "EACCES", "EPERM", "ELOOP", "ENAMETOOLONG"];

/** "-" and /dev/stdin are fd 0 (a second one finds it at end of file); the others are opened. */
function isStdin(name: string): boolean {
  return name === "-" || name === "/dev/stdin";
}

/**
 * Opens `name` to read it; throws GNU's "cannot read" for one that cannot be opened. The file is the
 * caller's to close.
 */
export function openInput(ctx: CommandContext, name: string): Source {
  if (isStdin(name)) return { stdin: true };
  try {
    return { stdin: false, file: ctx.fs.open(name, "r"), name };
  } catch (error) {
    if (ACCESS_CODES.includes(errorCode(error))) throw new SortError(`sort: cannot read: ${name}: ${strerror(error)}`);
    throw new SortError(`sort: open failed: ${name}: ${strerror(error)}`);
  }
}

/**
 * Checks, as GNU does before reading anything, that every input can be opened: the first one that cannot
 * is the error ("cannot read"), whatever fails later while reading.
 */
export function checkInputs(ctx: CommandContext, files: readonly string[]): void {
  for (const name of files) {
    const source = openInput(ctx, name);
    if (!source.stdin) source.file.close();
  }
}

/**
 * Reads the next chunk of `source` (at most `window` bytes), or null at its end. A failure of the read
 * itself is GNU's "read failed" (a directory: EISDIR).
 */
export async function readChunk(ctx: CommandContext, source: Source, window: number): Promise<Uint8Array | null> {
  try {
    if (source.stdin) return await ctx.readStdin();
    const buf = new Uint8Array(window);
    const n = await source.file.read(buf);
    return n === 0 ? null : buf.subarray(0, n);
  } catch (error) {
    if (ctx.signal.aborted) throw error; // killed: the kill reason, not a read failure
    throw new SortError(`sort: read failed: ${source.stdin ? "-" : source.name}: ${strerror(error)}`);
  }
}

/**
 * Reads every input in order into `reader`; whenever what it holds reaches its budget, `onFull` takes
 * the lines (to sort and spill them, or to check them) and says whether to stop reading (-c found a
 * disorder). Returns false when stopped.
 */
export async function readLines(
  ctx: CommandContext,
  files: readonly string[],
  reader: LineReader,
  window: number,
  slicer: Slicer,
  onFull: () => Promise<boolean>,
): Promise<boolean> {
  checkInputs(ctx, files);
  let stdinRead = false;
  for (const name of files) {
    if (isStdin(name) && stdinRead) continue;
    stdinRead ||= isStdin(name);
    const source = openInput(ctx, name);
    try {
      for (let c = await readChunk(ctx, source, window); c; c = await readChunk(ctx, source, window)) {
        // A chunk of stdin can be larger than a window; each window is a step.
        for (let off = 0; off < c.length; off += window) {
          reader.add(c.subarray(off, off + window));
          if (reader.full && (await onFull())) return false;
          await slicer.pause();
        }
      }
    } finally {
      if (!source.stdin) source.file.close();
    }
    reader.end();
  }
  return true;
}
