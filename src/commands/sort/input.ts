/**
 * Reading sort's inputs into lines, cooperatively (see cooperative.ts), and bounding what they hold.
 *
 * Text is handled as "binary strings": every input byte becomes one UTF-16 code unit (latin1 decoding),
 * so JavaScript's `<` on strings is exactly GNU's memcmp byte order and the bytes come back unchanged
 * on output.
 */
import type { CommandContext } from "../command.js";
import { DEFAULT_LIMITS } from "../../limits.js";
import type { Slicer } from "./cooperative.js";
import { SortError } from "./options.js";
import { errorCode, strerror } from "../../gnu/strerror.js";

/** Lines per block (a power of two): blocks are sorted one by one, and no array of lines grows past it. */
export const BLOCK_SHIFT = 18;
const BLOCK_LINES = 1 << BLOCK_SHIFT;
/** Bytes decoded and split in one step. */
const WINDOW_BYTES = 256 * 1024;

/**
 * What sort holds is every input line, in memory on the host's heap (GNU spills to temporary files; there
 * are none here). Besides the text itself, per line: the string's header, its slot in a block and in a
 * merge buffer (LINE_BYTES); with keys, its key values, as one number (NUMBER_BYTES) or as a record
 * (plan.ts) of values (KEYED_LINE_BYTES + KEY_BYTES per key). Measured on 64-bit Node 20, rounded up.
 */
export const LINE_BYTES = 48;
export const NUMBER_BYTES = 16;
export const KEYED_LINE_BYTES = 80;
export const KEY_BYTES = 48;
/**
 * The most sort may hold: what a guest process may have as memory (limits.ts). A TypeScript command
 * cannot see its VM's own limits, so this is the default; nor is it counted in the VM's memory account.
 */
const MAX_HELD_BYTES = DEFAULT_LIMITS.maxProcessMemoryBytes;

/**
 * Splits the inputs into lines, kept in input order in blocks of BLOCK_LINES (the last one may be
 * shorter), so line g is blocks[g >> BLOCK_SHIFT][g & (BLOCK_LINES - 1)].
 */
export class LineReader {
  readonly blocks: string[][] = [[]];
  private block = this.blocks[0]!;
  private bytes = 0;
  private lines = 0;
  /** The start of a line whose terminator has not come yet. */
  private carry = "";

  /** `heldPerLine`: what each line will take besides its text, from the options (LINE_BYTES and so on). */
  constructor(
    private readonly eol: string,
    private heldPerLine: number,
  ) {}

  get count(): number {
    return this.lines;
  }

  /** Adds data of the current input, a window at a time. Throws "memory exhausted" past MAX_HELD_BYTES. */
  async add(data: Uint8Array, slicer: Slicer): Promise<void> {
    for (let off = 0; off < data.length; off += WINDOW_BYTES) {
      const end = Math.min(off + WINDOW_BYTES, data.length);
      this.addText(Buffer.from(data.buffer, data.byteOffset + off, end - off).toString("latin1"));
      this.bytes += end - off;
      this.checkHeld(this.heldPerLine);
      await slicer.pause();
    }
  }

  /** Throws "memory exhausted" when the lines read, at `heldPerLine` each, take more than MAX_HELD_BYTES. */
  checkHeld(heldPerLine: number): void {
    this.heldPerLine = heldPerLine;
    if (this.bytes + this.lines * heldPerLine > MAX_HELD_BYTES) throw new SortError("sort: memory exhausted");
  }

  /** Ends the current input: a final line without terminator still counts; empty input has no lines. */
  end(): void {
    if (this.carry !== "") this.push(this.carry);
    this.carry = "";
  }

  private addText(text: string): void {
    const parts = text.split(this.eol);
    parts[0] = this.carry + parts[0]!;
    this.carry = parts.pop()!;
    for (const line of parts) this.push(line);
  }

  private push(line: string): void {
    if (this.block.length === BLOCK_LINES) this.blocks.push((this.block = []));
    this.block.push(line);
    this.lines++;
  }
}

/**
 * Reads every input ("-" is stdin) into blocks of lines before sorting, so -o may name an input. GNU checks
 * that all inputs are accessible first ("cannot read"), and only then reports failures of the read itself
 * ("read failed").
 */
export async function readLines(
  ctx: CommandContext,
  files: string[],
  eol: string,
  heldPerLine: number,
  slicer: Slicer,
): Promise<LineReader> {
  const reader = new LineReader(eol, heldPerLine);
  let stdinRead = false;
  const failures: { error: unknown; name: string }[] = [];
  for (const name of files) {
    // /dev/stdin names fd 0 as "-" does (ctx.fs reads files, not pipes).
    if (name === "-" || name === "/dev/stdin") {
      // A second "-" finds stdin already at end of file.
      if (!stdinRead) for (let c = await ctx.readStdin(); c; c = await ctx.readStdin()) await reader.add(c, slicer);
      stdinRead = true;
    } else {
      let data: Uint8Array;
      try {
        data = ctx.fs.readFile(name);
      } catch (error) {
        failures.push({ error, name });
        continue;
      }
      await reader.add(data, slicer);
    }
    reader.end();
  }
  const accessCodes = ["ENOENT", "ENOTDIR", "EACCES", "EPERM", "ELOOP", "ENAMETOOLONG"];
  const access = failures.find((f) => accessCodes.includes(errorCode(f.error)));
  if (access) throw new SortError(`sort: cannot read: ${access.name}: ${strerror(access.error)}`);
  if (failures[0]) throw new SortError(`sort: read failed: ${failures[0].name}: ${strerror(failures[0].error)}`);
  return reader;
}
