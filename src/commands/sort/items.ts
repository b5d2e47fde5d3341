/**
 * What sort actually sorts: per block of lines, a block of items, their order, and the line each stands
 * for. Without keys the items are the lines; with one key of plain numbers (-n, -M, nearly always) they
 * are line numbers with the values in one Float64Array, which takes far less memory and time than a
 * record per line; otherwise they are records of key values (plan.ts).
 */
import type { Compare, Slicer } from "./cooperative.js";
import { keyText } from "./fields.js";
import { BLOCK_SHIFT, KEY_BYTES, KEYED_LINE_BYTES, LINE_BYTES, NUMBER_BYTES } from "./input.js";
import type { Options } from "./options.js";
import { compareText } from "./orderings.js";
import { makeRec, type Plan, type Rec } from "./plan.js";

export interface Sortable<T> {
  blocks: T[][];
  compare: Compare<T>;
  lineOf: (item: T) => string;
  /** Sorts a run of items as `compare` would, faster. */
  sortRun?: (run: T[]) => T[];
}

/**
 * What each line will take besides its text, for LineReader (input.ts). With one numeric key a line may
 * turn out to need a record after all (byNumber); the buffer then holds more than planned, at most
 * KEYED_LINE_BYTES + KEY_BYTES more per line, for one buffer's worth.
 */
export function heldPerLine(o: Options, plan: Plan): number {
  if (o.keys.length === 0 || o.check) return LINE_BYTES; // -c keys one line at a time
  if (plan.numberFirst && o.keys.length === 1) return LINE_BYTES + NUMBER_BYTES;
  return LINE_BYTES + KEYED_LINE_BYTES + KEY_BYTES * o.keys.length;
}

/**
 * The items for `count` lines in blocks (LineReader.take); their key values are computed here, once. The
 * blocks of lines are emptied as records take their lines.
 */
export async function sortable(
  lines: string[][], count: number, o: Options, plan: Plan, slicer: Slicer,
): Promise<Sortable<unknown>> {
  if (o.keys.length === 0) {
    // The built-in order of strings is code unit order, which is byte order here; equal lines are
    // identical, so reversing an ascending run is the same as sorting it descending.
    const sortRun = o.global.reverse ? (run: string[]) => run.sort().reverse() : (run: string[]) => run.sort();
    const sorted: Sortable<string> = { blocks: lines, compare: plan.compare, lineOf: (line) => line, sortRun };
    return sorted as Sortable<unknown>;
  }
  if (plan.numberFirst && o.keys.length === 1) {
    const numbers = await byNumber(lines, count, o, plan, slicer);
    if (numbers) return numbers as Sortable<unknown>;
  }
  const blocks: Rec[][] = [];
  for (const [b, block] of lines.entries()) {
    const recs = new Array<Rec>(block.length);
    for (let i = 0; i < block.length; i++) {
      recs[i] = makeRec(block[i]!, o, plan);
      if (slicer.lineDone(block[i]!)) await slicer.pause();
    }
    blocks.push(recs);
    lines[b] = []; // the records hold the lines now
  }
  return { blocks, compare: plan.compare, lineOf: (r: Rec) => r.line } as Sortable<unknown>;
}

/**
 * Line numbers ordered by one numeric key, with GNU's ties as in plan.ts; null when some value is too
 * long for a double (the exact comparison then needs records).
 */
async function byNumber(
  lines: string[][], count: number, o: Options, plan: Plan, slicer: Slicer,
): Promise<Sortable<number> | null> {
  const key = o.keys[0]!;
  const parse = plan.parsers[0]!;
  const values = new Float64Array(count);
  const blocks: number[][] = [];
  for (const [b, block] of lines.entries()) {
    const items = new Array<number>(block.length);
    for (let i = 0, g = b << BLOCK_SHIFT; i < block.length; i++, g++) {
      const line = block[i]!;
      const v = parse(keyText(line, key, o.tab));
      if (typeof v !== "number") return null;
      values[g] = v;
      items[i] = g;
      if (slicer.lineDone(line)) await slicer.pause();
    }
    blocks.push(items);
  }
  const mask = (1 << BLOCK_SHIFT) - 1;
  const lineOf = (g: number): string => lines[g >> BLOCK_SHIFT]![g & mask]!;
  const reverse = key.reverse;
  const lastReverse = o.global.reverse;
  const tiesStay = o.stable || o.unique;
  const compare = (a: number, b: number): number => {
    const x = values[a]!;
    const y = values[b]!;
    if (x !== y) return x < y !== reverse ? -1 : 1;
    if (tiesStay) return 0;
    const d = compareText(lineOf(a), lineOf(b));
    return lastReverse ? -d : d;
  };
  return { blocks, compare, lineOf };
}
