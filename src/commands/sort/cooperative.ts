/**
 * Sorting without stalling the host. `sort` runs on the kernel's thread, which serves the system calls of
 * every VM and is the host's own event loop, so no step may hold it for long: the work is cut into steps
 * of bounded size, and between steps a Slicer lets the event loop run whenever the current time slice is
 * used up. Lines are sorted in blocks (runs of RUN items by Array.prototype.sort, then merged in pairs),
 * and the sorted blocks are merged k ways into the output.
 */
import { SYSCALL_TURN_MS } from "../../limits.js";

/** The longest sort holds the thread at a stretch: the turn the kernel gives one process's system calls. */
const SLICE_MS = SYSCALL_TURN_MS;
/** Items Array.prototype.sort sorts in one go: well under a slice even with a costly comparator (-V). */
const RUN = 1024;
/** Items merged or handed out between two looks at the clock. */
const STEP = 4096;
/** Lines keyed or checked between two looks at the clock; a line counts once per LINE_UNIT bytes too. */
const LINES_PER_STEP = 256;
const LINE_UNIT = 256;

export type Compare<T> = (a: T, b: T) => number;

/** Time slices of one sort process. */
export class Slicer {
  private ends = performance.now() + SLICE_MS;
  private lines = 0;

  constructor(private readonly signal: AbortSignal) {}

  /**
   * Called between bounded steps: once the slice is used up, lets the event loop run (setImmediate, so
   * pending I/O, timers and other processes go first) and starts a new slice. Throws the kill reason
   * when the process was killed meanwhile: it has exited, and nobody wants the rest of the work.
   */
  async pause(): Promise<void> {
    if (performance.now() < this.ends) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.signal.throwIfAborted();
    this.ends = performance.now() + SLICE_MS;
  }

  /**
   * Counts a line worked on (keyed, compared) in a loop over lines; true when the loop has done a step's
   * worth and should `await pause()`. Long lines count more, so that a step stays short whatever the input.
   */
  lineDone(line: string): boolean {
    this.lines += 1 + Math.floor(line.length / LINE_UNIT);
    if (this.lines < LINES_PER_STEP) return false;
    this.lines = 0;
    return true;
  }
}

/** Where a merge of src[lo..mid) and src[mid..hi) stands: next left item, next right item, next output. */
interface Cursor {
  i: number;
  j: number;
  k: number;
}

/** Merges from the cursor until dst is filled up to `end`; on ties the left run goes first (stable). */
function mergeUntil<T>(src: T[], dst: T[], mid: number, hi: number, c: Cursor, end: number, cmp: Compare<T>): void {
  let { i, j, k } = c;
  while (k < end) {
    if (i < mid && (j >= hi || cmp(src[i]!, src[j]!) <= 0)) dst[k++] = src[i++]!;
    else dst[k++] = src[j++]!;
  }
  c.i = i;
  c.j = j;
  c.k = k;
}

/**
 * Sorts `items` stably, cooperatively: runs of RUN items with `sortRun` (by default Array.prototype.sort
 * with `cmp`, which must give the same order), then bottom-up merges of neighbouring runs. Returns the
 * sorted items, in `items` or in a new array of the same length.
 */
export async function sortBlock<T>(
  items: T[],
  cmp: Compare<T>,
  slicer: Slicer,
  sortRun: (run: T[]) => T[] = (run) => run.sort(cmp),
): Promise<T[]> {
  const n = items.length;
  if (n <= RUN) return sortRun(items);
  for (let lo = 0; lo < n; lo += RUN) {
    const run = sortRun(items.slice(lo, lo + RUN));
    for (let i = 0; i < run.length; i++) items[lo + i] = run[i]!;
    await slicer.pause();
  }
  let src = items;
  let dst = new Array<T>(n);
  for (let width = RUN; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      // Runs already in order (sorted input is common) are copied: a merge with an empty right run.
      const inOrder = mid === hi || cmp(src[mid - 1]!, src[mid]!) <= 0;
      const c: Cursor = { i: lo, j: inOrder ? hi : mid, k: lo };
      while (c.k < hi) {
        mergeUntil(src, dst, inOrder ? hi : mid, hi, c, Math.min(c.k + STEP, hi), cmp);
        await slicer.pause();
      }
    }
    [src, dst] = [dst, src];
  }
  return src;
}

/**
 * Merges sorted blocks into one order and hands it to `emit` in pieces of at most STEP items. On ties the
 * earlier block goes first, so blocks taken in input order give a stable merge. A block is dropped from
 * `blocks` (replaced by an empty one) once it is used up, so that its memory can go; with `more`, a block
 * used up is followed by what `more(b)` gives next (a run read from a file a piece at a time), until null.
 */
export async function mergeBlocks<T>(
  blocks: T[][],
  cmp: Compare<T>,
  slicer: Slicer,
  emit: (items: readonly T[], from: number, to: number) => void,
  more?: (b: number) => Promise<T[] | null>,
): Promise<void> {
  if (blocks.length === 1 && !more) {
    const block = blocks[0]!;
    for (let lo = 0; lo < block.length; lo += STEP) {
      emit(block, lo, Math.min(lo + STEP, block.length));
      await slicer.pause();
    }
    return;
  }
  // A binary heap of block numbers, ordered by each block's next item, then by block number.
  const pos = new Array<number>(blocks.length).fill(0);
  const heap = blocks.flatMap((b, i) => (b.length > 0 ? [i] : []));
  const before = (x: number, y: number): boolean => {
    const d = cmp(blocks[x]![pos[x]!]!, blocks[y]![pos[y]!]!);
    return d < 0 || (d === 0 && x < y);
  };
  const siftDown = (at: number): void => {
    const top = heap[at]!;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= heap.length) break;
      if (child + 1 < heap.length && before(heap[child + 1]!, heap[child]!)) child++;
      if (!before(heap[child]!, top)) break;
      heap[at] = heap[child]!;
      at = child;
    }
    heap[at] = top;
  };
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(i);
  const batch: T[] = [];
  while (heap.length > 0) {
    batch.length = 0;
    while (batch.length < STEP) {
      const b = heap[0]!;
      const block = blocks[b]!;
      batch.push(block[pos[b]!++]!);
      if (pos[b] === block.length) {
        let next = more ? await more(b) : null;
        while (next?.length === 0) next = await more!(b);
        pos[b] = 0;
        blocks[b] = next ?? [];
        if (!next) {
          const last = heap.pop()!;
          if (heap.length === 0) break;
          heap[0] = last;
        }
      }
      siftDown(0);
    }
    emit(batch, 0, batch.length);
    await slicer.pause();
  }
}
