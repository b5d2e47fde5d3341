/**
 * The comparison of two files as GNU diff 3.8 makes it (src/analyze.c and gnulib's diffseq.h): the lines
 * of the identical prefix and suffix are set aside, the remaining lines are put in equivalence classes
 * (under -i/-b/-w/-E/-Z), lines that match nothing in the other file are discarded from the search, a
 * Myers O(ND) search with divide and conquer (and the too-expensive heuristic) marks changed lines, and
 * the boundaries of the runs of changes are shifted as GNU shifts them. The result is GNU's edit script.
 */

/** One line: its bytes without the newline (latin1), and whether it ended with one. */
export interface Line {
  text: string;
  newline: boolean;
}

/** A change: `deleted` lines of file 0 from `line0`, `inserted` lines of file 1 from `line1` (0-based). */
export interface Change {
  line0: number;
  line1: number;
  deleted: number;
  inserted: number;
  /** Only blank lines (-B) or lines matching -I: not a difference of its own. */
  ignore: boolean;
}

export interface CompareOptions {
  ignoreCase: boolean;
  ignoreAllSpace: boolean;
  ignoreSpaceChange: boolean;
  ignoreTabExpansion: boolean;
  ignoreTrailingSpace: boolean;
  minimal: boolean;
}

/** Splits the bytes (as a latin1 string) into lines; the last may lack its newline. */
export function splitLines(text: string, stripCr: boolean): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (;;) {
    const nl = text.indexOf("\n", start);
    if (nl < 0) break;
    let end = nl;
    if (stripCr && end > start && text.charCodeAt(end - 1) === 13) end--;
    lines.push({ text: text.slice(start, end), newline: true });
    start = nl + 1;
  }
  if (start < text.length) {
    let end = text.length;
    if (stripCr && text.charCodeAt(end - 1) === 13) end--;
    lines.push({ text: text.slice(start, end), newline: false });
  }
  return lines;
}

const isSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13);

function expandTabs(s: string): string {
  if (!s.includes("\t")) return s;
  let out = "";
  for (const c of s) out += c === "\t" ? " ".repeat(8 - (out.length % 8)) : c;
  return out;
}

/** What a line is compared as, under the options. */
export function lineKey(line: Line, o: CompareOptions): string {
  let s = line.text;
  if (o.ignoreAllSpace) {
    let out = "";
    for (let i = 0; i < s.length; i++) if (!isSpace(s.charCodeAt(i))) out += s[i];
    s = out;
  } else if (o.ignoreSpaceChange) {
    let out = "";
    let space = false;
    for (let i = 0; i < s.length; i++) {
      if (isSpace(s.charCodeAt(i))) space = true;
      else {
        if (space && out.length > 0) out += " ";
        space = false;
        out += s[i];
      }
    }
    s = out;
  } else {
    if (o.ignoreTabExpansion) s = expandTabs(s);
    if (o.ignoreTrailingSpace) {
      let end = s.length;
      while (end > 0 && isSpace(s.charCodeAt(end - 1))) end--;
      s = s.slice(0, end);
    }
  }
  if (o.ignoreCase) s = s.toLowerCase();
  // An incomplete last line differs from a complete one, unless white space is being ignored.
  const tolerant = o.ignoreAllSpace || o.ignoreSpaceChange || o.ignoreTrailingSpace;
  return line.newline || tolerant ? s : `${s}\u0100`;
}

/** GNU's edit script between `a` and `b`: the changes in order. */
export function compareLines(a: readonly Line[], b: readonly Line[], o: CompareOptions, horizon = 0): Change[] {
  const keys = new Map<string, number>();
  const classOf = (l: Line): number => {
    const k = lineKey(l, o);
    let c = keys.get(k);
    if (c === undefined) keys.set(k, (c = keys.size + 1));
    return c;
  };
  // The identical prefix and suffix (exact lines, as GNU compares the buffers byte by byte).
  const same = (x: Line, y: Line): boolean => x.text === y.text && x.newline === y.newline;
  // GNU keeps `horizon` lines (the context) of each in the comparison, and bounds the suffix by the
  // prefix it keeps out (find_identical_ends).
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && same(a[prefix]!, b[prefix]!)) prefix++;
  prefix = Math.max(0, prefix - horizon);
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && same(a[a.length - 1 - suffix]!, b[b.length - 1 - suffix]!)) suffix++;
  suffix = Math.max(0, suffix - horizon);
  const n0 = a.length - prefix - suffix;
  const n1 = b.length - prefix - suffix;
  const eq0 = new Int32Array(n0);
  const eq1 = new Int32Array(n1);
  for (let i = 0; i < n0; i++) eq0[i] = classOf(a[prefix + i]!);
  for (let i = 0; i < n1; i++) eq1[i] = classOf(b[prefix + i]!);
  // changed[i + 1] for line i: index 0 and n + 1 are sentinels that stay 0.
  const changed0 = new Uint8Array(n0 + 2);
  const changed1 = new Uint8Array(n1 + 2);
  if (n0 > 0 || n1 > 0) {
    analyze(eq0, eq1, changed0, changed1, keys.size + 1, o.minimal);
    shiftBoundaries(eq0, changed0, changed1, n0);
    shiftBoundaries(eq1, changed1, changed0, n1);
  }
  // build_script, forward.
  const script: Change[] = [];
  let i0 = 0;
  let i1 = 0;
  while (i0 < n0 || i1 < n1) {
    if (changed0[i0 + 1] || changed1[i1 + 1]) {
      const line0 = i0;
      const line1 = i1;
      while (changed0[i0 + 1]) i0++;
      while (changed1[i1 + 1]) i1++;
      script.push({ line0: line0 + prefix, line1: line1 + prefix, deleted: i0 - line0, inserted: i1 - line1, ignore: false });
    }
    i0++;
    i1++;
  }
  return script;
}

function analyze(eq0: Int32Array, eq1: Int32Array, changed0: Uint8Array, changed1: Uint8Array, classes: number, minimal: boolean): void {
  const n0 = eq0.length;
  const n1 = eq1.length;
  // discard_confusing_lines
  const count0 = new Int32Array(classes);
  const count1 = new Int32Array(classes);
  for (let i = 0; i < n0; i++) count0[eq0[i]!]!++;
  for (let i = 0; i < n1; i++) count1[eq1[i]!]!++;
  const discarded = [discards(eq0, count1), discards(eq1, count0)];
  const vec: Int32Array[] = [];
  const real: Int32Array[] = [];
  const files = [eq0, eq1];
  const changed = [changed0, changed1];
  for (let f = 0; f < 2; f++) {
    const eq = files[f]!;
    const d = discarded[f]!;
    const v = new Int32Array(eq.length);
    const r = new Int32Array(eq.length);
    let j = 0;
    for (let i = 0; i < eq.length; i++) {
      if (minimal || d[i] === 0) {
        v[j] = eq[i]!;
        r[j++] = i;
      } else changed[f]![i + 1] = 1;
    }
    vec.push(v.subarray(0, j));
    real.push(r.subarray(0, j));
  }
  const xv = vec[0]!;
  const yv = vec[1]!;
  const xr = real[0]!;
  const yr = real[1]!;
  const diags = xv.length + yv.length + 3;
  let tooExpensive = 1;
  for (let d = diags; d !== 0; d = Math.floor(d / 4)) tooExpensive *= 2;
  tooExpensive = minimal ? Number.MAX_SAFE_INTEGER : Math.max(4096, tooExpensive);
  const offset = yv.length + 1;
  const fd = new Int32Array(diags);
  const bd = new Int32Array(diags);
  const OFFSET_MAX = 0x7fffffff;
  const part = { xmid: 0, ymid: 0, loMinimal: false, hiMinimal: false };

  const diag = (xoff: number, xlim: number, yoff: number, ylim: number, findMinimal: boolean): void => {
    const dmin = xoff - ylim;
    const dmax = xlim - yoff;
    const fmid = xoff - yoff;
    const bmid = xlim - ylim;
    let fmin = fmid;
    let fmax = fmid;
    let bmin = bmid;
    let bmax = bmid;
    const odd = ((fmid - bmid) & 1) !== 0;
    fd[fmid + offset] = xoff;
    bd[bmid + offset] = xlim;
    for (let c = 1; ; ++c) {
      if (fmin > dmin) fd[--fmin - 1 + offset] = -1;
      else ++fmin;
      if (fmax < dmax) fd[++fmax + 1 + offset] = -1;
      else --fmax;
      for (let d = fmax; d >= fmin; d -= 2) {
        const tlo = fd[d - 1 + offset]!;
        const thi = fd[d + 1 + offset]!;
        let x = tlo < thi ? thi : tlo + 1;
        let y = x - d;
        while (x < xlim && y < ylim && xv[x] === yv[y]) x++, y++;
        fd[d + offset] = x;
        if (odd && bmin <= d && d <= bmax && bd[d + offset]! <= x) {
          part.xmid = x;
          part.ymid = y;
          part.loMinimal = part.hiMinimal = true;
          return;
        }
      }
      if (bmin > dmin) bd[--bmin - 1 + offset] = OFFSET_MAX;
      else ++bmin;
      if (bmax < dmax) bd[++bmax + 1 + offset] = OFFSET_MAX;
      else --bmax;
      for (let d = bmax; d >= bmin; d -= 2) {
        const tlo = bd[d - 1 + offset]!;
        const thi = bd[d + 1 + offset]!;
        let x = tlo < thi ? tlo : thi - 1;
        let y = x - d;
        while (xoff < x && yoff < y && xv[x - 1] === yv[y - 1]) x--, y--;
        bd[d + offset] = x;
        if (!odd && fmin <= d && d <= fmax && x <= fd[d + offset]!) {
          part.xmid = x;
          part.ymid = y;
          part.loMinimal = part.hiMinimal = true;
          return;
        }
      }
      if (findMinimal) continue;
      if (c >= tooExpensive) {
        let fxybest = -1;
        let fxbest = 0;
        for (let d = fmax; d >= fmin; d -= 2) {
          let x = Math.min(fd[d + offset]!, xlim);
          let y = x - d;
          if (ylim < y) {
            x = ylim + d;
            y = ylim;
          }
          if (fxybest < x + y) {
            fxybest = x + y;
            fxbest = x;
          }
        }
        let bxybest = Number.MAX_SAFE_INTEGER;
        let bxbest = 0;
        for (let d = bmax; d >= bmin; d -= 2) {
          let x = Math.max(xoff, bd[d + offset]!);
          let y = x - d;
          if (y < yoff) {
            x = yoff + d;
            y = yoff;
          }
          if (x + y < bxybest) {
            bxybest = x + y;
            bxbest = x;
          }
        }
        if (xlim + ylim - bxybest < fxybest - (xoff + yoff)) {
          part.xmid = fxbest;
          part.ymid = fxybest - fxbest;
          part.loMinimal = true;
          part.hiMinimal = false;
        } else {
          part.xmid = bxbest;
          part.ymid = bxybest - bxbest;
          part.loMinimal = false;
          part.hiMinimal = true;
        }
        return;
      }
    }
  };

  // compareseq, with an explicit stack (the recursion depth can reach the number of changes).
  const stack: Array<[number, number, number, number, boolean]> = [[0, xv.length, 0, yv.length, minimal]];
  while (stack.length > 0) {
    let [xoff, xlim, yoff, ylim, findMinimal] = stack.pop()!;
    while (xoff < xlim && yoff < ylim && xv[xoff] === yv[yoff]) xoff++, yoff++;
    while (xlim > xoff && ylim > yoff && xv[xlim - 1] === yv[ylim - 1]) xlim--, ylim--;
    if (xoff === xlim) while (yoff < ylim) changed1[yr[yoff++]! + 1] = 1;
    else if (yoff === ylim) while (xoff < xlim) changed0[xr[xoff++]! + 1] = 1;
    else {
      diag(xoff, xlim, yoff, ylim, findMinimal);
      const { xmid, ymid, loMinimal, hiMinimal } = part;
      // The low half first: pushed last.
      stack.push([xmid, xlim, ymid, ylim, hiMinimal]);
      stack.push([xoff, xmid, yoff, ymid, loMinimal]);
    }
  }
}

/** discard_confusing_lines for one file: 1 discard, 0 keep. */
function discards(eq: Int32Array, otherCount: Int32Array): Uint8Array {
  const end = eq.length;
  const d = new Uint8Array(end);
  let many = 5;
  for (let tem = Math.floor(end / 64); (tem = tem >> 2) > 0; ) many *= 2;
  for (let i = 0; i < end; i++) {
    const nmatch = otherCount[eq[i]!]!;
    if (nmatch === 0) d[i] = 1;
    else if (nmatch > many) d[i] = 2;
  }
  for (let i = 0; i < end; i++) {
    if (d[i] === 2) d[i] = 0;
    else if (d[i] !== 0) {
      let j: number;
      let provisional = 0;
      for (j = i; j < end; j++) {
        if (d[j] === 0) break;
        if (d[j] === 2) ++provisional;
      }
      while (j > i && d[j - 1] === 2) (d[--j] = 0), --provisional;
      const length = j - i;
      if (provisional * 4 > length) {
        while (j > i) if (d[--j] === 2) d[j] = 0;
      } else {
        let minimum = 1;
        for (let tem = length >> 2; 0 < (tem >>= 2); ) minimum <<= 1;
        minimum++;
        let consec = 0;
        for (j = 0, consec = 0; j < length; j++) {
          if (d[i + j] !== 2) consec = 0;
          else if (minimum === ++consec) j -= consec;
          else if (minimum < consec) d[i + j] = 0;
        }
        for (j = 0, consec = 0; j < length; j++) {
          if (j >= 8 && d[i + j] === 1) break;
          if (d[i + j] === 2) (consec = 0), (d[i + j] = 0);
          else if (d[i + j] === 0) consec = 0;
          else consec++;
          if (consec === 3) break;
        }
        i += length - 1;
        for (j = 0, consec = 0; j < length; j++) {
          if (j >= 8 && d[i - j] === 1) break;
          if (d[i - j] === 2) (consec = 0), (d[i - j] = 0);
          else if (d[i - j] === 0) consec = 0;
          else consec++;
          if (consec === 3) break;
        }
      }
    }
  }
  return d;
}

/** shift_boundaries for one file; `changed` and `other` are indexed line + 1 (with zero sentinels). */
function shiftBoundaries(eq: Int32Array, changed: Uint8Array, other: Uint8Array, iEnd: number): void {
  // Positions below are line numbers; changed[x + 1] is line x. j walks the other file likewise.
  const ch = (x: number): number => changed[x + 1]!;
  const oc = (x: number): number => other[x + 1]!;
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < iEnd && !ch(i)) {
      while (oc(j++));
      i++;
    }
    if (i === iEnd) break;
    let start = i;
    while (ch(++i));
    while (oc(j)) j++;
    let runlength: number;
    let corresponding: number;
    do {
      runlength = i - start;
      while (start && eq[start - 1] === eq[i - 1]) {
        changed[--start + 1] = 1;
        changed[--i + 1] = 0;
        while (ch(start - 1)) start--;
        while (oc(--j));
      }
      corresponding = oc(j - 1) ? i : iEnd;
      while (i !== iEnd && eq[start] === eq[i]) {
        changed[start++ + 1] = 0;
        changed[i++ + 1] = 1;
        while (ch(i)) i++;
        while (oc(++j)) corresponding = i;
      }
    } while (runlength !== i - start);
    while (corresponding < i) {
      changed[--start + 1] = 1;
      changed[--i + 1] = 0;
      while (oc(--j));
    }
  }
}
