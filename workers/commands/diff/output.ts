/**
 * The output formats of GNU diff 3.8 (normal.c, context.c, side.c, ed.c and util.c's hunk analysis):
 * normal, context (-c), unified (-u), side by side (-y) and ed (-e), from an edit script.
 */
import type { Change, Line } from "./analyze.js";

export type Style = "normal" | "context" | "unified" | "side" | "ed";

export interface Format {
  style: Style;
  context: number;
  /** -y: --width, --suppress-common-lines, --left-column. */
  width: number;
  suppressCommon: boolean;
  leftColumn: boolean;
  expandTabs: boolean;
  initialTab: boolean;
  /** -p / -F: the regular expression of a function's first line. */
  functionRe: RegExp | undefined;
}

const NO_NEWLINE = "\n\\ No newline at end of file\n";

/** The lines of one hunk, GNU's analyze_hunk: its extent and whether it deletes (1) or inserts (2). */
function analyzeHunk(hunk: readonly Change[]): { first0: number; last0: number; first1: number; last1: number; changes: number } {
  const first = hunk[0]!;
  const last = hunk[hunk.length - 1]!;
  let changes = 0;
  for (const c of hunk) {
    if (c.ignore) continue;
    if (c.deleted > 0) changes |= 1;
    if (c.inserted > 0) changes |= 2;
  }
  return { first0: first.line0, last0: last.line0 + last.deleted - 1, first1: first.line1, last1: last.line1 + last.inserted - 1, changes };
}

/** The changes grouped into hunks: changes closer than the context (find_hunk). */
function hunks(script: readonly Change[], context: number): Change[][] {
  const out: Change[][] = [];
  for (let i = 0; i < script.length; ) {
    const hunk = [script[i]!];
    for (;;) {
      const prev = hunk[hunk.length - 1]!;
      const next = script[i + hunk.length];
      if (!next) break;
      const thresh = next.ignore ? context : 2 * context + 1;
      if (next.line0 - (prev.line0 + prev.deleted) >= thresh) break;
      hunk.push(next);
    }
    i += hunk.length;
    out.push(hunk);
  }
  return out;
}

export class Printer {
  out = "";

  constructor(
    readonly f: Format,
    readonly a: readonly Line[],
    readonly b: readonly Line[],
  ) {}

  /** A line with its flag ("< ", "-", …) and, when it lacks its newline, GNU's note. */
  private line(flag: string, l: Line): void {
    let prefix = flag;
    if (this.f.initialTab) prefix = `${flag.slice(0, -1)}\t`;
    this.out += prefix + l.text + (l.newline ? "\n" : NO_NEWLINE);
  }

  print(script: readonly Change[], names: [string, string], times: [string, string]): void {
    switch (this.f.style) {
      case "normal":
        for (const h of hunks(script, 0)) this.normal(h);
        break;
      case "unified":
      case "context": {
        const groups = hunks(script, this.f.context).filter((h) => analyzeHunk(h).changes !== 0);
        if (groups.length === 0) return;
        const [m0, m1] = this.f.style === "unified" ? ["---", "+++"] : ["***", "---"];
        this.out += `${m0} ${names[0]}${times[0]}\n${m1} ${names[1]}${times[1]}\n`;
        for (const h of groups) (this.f.style === "unified" ? this.unified(h) : this.contextHunk(h));
        break;
      }
      case "side":
        this.side(script);
        break;
      case "ed":
        for (const h of hunks(script, 0).reverse()) this.ed(h);
        break;
    }
  }

  private range(a: number, b: number, sep: string): string {
    // Lines a..b (0-based, inclusive) as GNU's print_number_range prints them.
    const ta = a + 1;
    const tb = b + 1;
    return tb > ta ? `${ta}${sep}${tb}` : `${tb}`;
  }

  private normal(h: Change[]): void {
    const { first0, last0, first1, last1, changes } = analyzeHunk(h);
    if (!changes) return;
    this.out += `${this.range(first0, last0, ",")}${"?dac"[changes]}${this.range(first1, last1, ",")}\n`;
    if (changes & 1) for (let i = first0; i <= last0; i++) this.line("< ", this.a[i]!);
    if (changes === 3) this.out += "---\n";
    if (changes & 2) for (let i = first1; i <= last1; i++) this.line("> ", this.b[i]!);
  }

  private ed(h: Change[]): void {
    const { first0, last0, first1, last1, changes } = analyzeHunk(h);
    if (!changes) return;
    this.out += `${this.range(first0, last0, ",")}${"?dac"[changes]}\n`;
    if (changes & 2) {
      let inserting = true;
      for (let i = first1; i <= last1; i++) {
        const l = this.b[i]!;
        if (!inserting) this.out += "a\n";
        if (l.text === ".") {
          // A line of one dot ends the insertion: write "..", then make it "." again.
          this.out += "..\n.\ns/.//\n";
          inserting = false;
        } else {
          this.out += `${l.text}\n`;
          inserting = true;
        }
      }
      if (inserting) this.out += ".\n";
    }
  }

  /** The function line before `line` (-p), as " text" for the hunk header. */
  private functionOf(line: number): string {
    const re = this.f.functionRe;
    if (!re) return "";
    for (let i = line - 1; i >= 0; i--) {
      const t = this.a[i]!.text;
      if (re.test(t)) {
        let s = t.slice(0, 40);
        s = s.replace(/\s+$/, "");
        return ` ${s}`;
      }
    }
    return "";
  }

  private extent(h: Change[]): { first0: number; last0: number; first1: number; last1: number; changes: number } {
    const r = analyzeHunk(h);
    const c = this.f.context;
    r.first0 = Math.max(r.first0 - c, 0);
    r.first1 = Math.max(r.first1 - c, 0);
    r.last0 = r.last0 < this.a.length - c ? r.last0 + c : this.a.length - 1;
    r.last1 = r.last1 < this.b.length - c ? r.last1 + c : this.b.length - 1;
    return r;
  }

  private unified(h: Change[]): void {
    const { first0, last0, first1, last1 } = this.extent(h);
    const range = (a: number, b: number): string => {
      const ta = a + 1;
      const tb = b + 1;
      if (tb <= ta) return tb < ta ? `${tb},0` : `${tb}`;
      return `${ta},${tb - ta + 1}`;
    };
    this.out += `@@ -${range(first0, last0)} +${range(first1, last1)} @@${this.functionOf(first0)}\n`;
    let k = 0;
    let i = first0;
    let j = first1;
    while (i <= last0 || j <= last1) {
      const next = h[k];
      if (!next || i < next.line0) {
        this.uline(" ", this.a[i]!);
        i++;
        j++;
      } else {
        for (let n = 0; n < next.deleted; n++) this.uline("-", this.a[i++]!);
        for (let n = 0; n < next.inserted; n++) this.uline("+", this.b[j++]!);
        k++;
      }
    }
  }

  private uline(flag: string, l: Line): void {
    const prefix = !this.f.initialTab ? flag : flag === " " ? "\t" : `${flag}\t`;
    this.out += prefix + l.text + (l.newline ? "\n" : NO_NEWLINE);
  }

  private contextHunk(h: Change[]): void {
    const { first0, last0, first1, last1, changes } = this.extent(h);
    const range = (a: number, b: number): string => {
      const ta = a + 1;
      const tb = b + 1;
      return tb <= ta ? `${tb}` : `${ta},${tb}`;
    };
    this.out += `***************${this.functionOf(first0)}\n*** ${range(first0, last0)} ****\n`;
    const side = (lines: readonly Line[], first: number, last: number, at: (c: Change) => number, n: (c: Change) => number, other: (c: Change) => number, mark: string): void => {
      let k = 0;
      for (let i = first; i <= last; i++) {
        while (k < h.length && at(h[k]!) + n(h[k]!) <= i) k++;
        let prefix = "  ";
        const c = h[k];
        if (c && at(c) <= i) prefix = other(c) > 0 ? "! " : mark;
        this.line(prefix, lines[i]!);
      }
    };
    if (changes & 1) side(this.a, first0, last0, (c) => c.line0, (c) => c.deleted, (c) => c.inserted, "- ");
    this.out += `--- ${range(first1, last1)} ----\n`;
    if (changes & 2) side(this.b, first1, last1, (c) => c.line1, (c) => c.inserted, (c) => c.deleted, "+ ");
  }

  // Side by side (side.c).
  private halfWidth = 0;
  private column2 = 0;
  private next0 = 0;
  private next1 = 0;

  private side(script: readonly Change[]): void {
    const t = this.f.expandTabs ? 1 : 8;
    const width = this.f.width;
    const off = Math.floor((width + t + 3) / (2 * t)) * t;
    this.halfWidth = Math.max(0, Math.min(off - 3, width - off));
    this.column2 = this.halfWidth < off ? off : width;
    for (const c of script) {
      const { first0, last0, first1, last1, changes } = analyzeHunk([c]);
      if (!changes) continue;
      this.common(first0, first1);
      let i = first0;
      let j = first1;
      let ch = changes;
      if (ch === 3) {
        for (; i <= last0 && j <= last1; i++, j++) this.sideLine(this.a[i]!, "|", this.b[j]!);
        ch = (i <= last0 ? 1 : 0) + (j <= last1 ? 2 : 0);
      }
      if (ch & 2) for (; j <= last1; j++) this.sideLine(undefined, ">", this.b[j]!);
      if (ch & 1) for (; i <= last0; i++) this.sideLine(this.a[i]!, "<", undefined);
      this.next0 = last0 + 1;
      this.next1 = last1 + 1;
    }
    this.common(this.a.length, this.b.length);
  }

  private common(limit0: number, limit1: number): void {
    let i0 = this.next0;
    let i1 = this.next1;
    if (!this.f.suppressCommon && (i0 !== limit0 || i1 !== limit1)) {
      for (; i0 !== limit0 && i1 !== limit1; i0++, i1++) {
        if (this.f.leftColumn) this.sideLine(this.a[i0]!, "(", undefined);
        else this.sideLine(this.a[i0]!, " ", this.b[i1]!);
      }
    }
    this.next0 = limit0;
    this.next1 = limit1;
  }

  private tabFromTo(from: number, to: number): number {
    if (!this.f.expandTabs)
      for (let tab = from + 8 - (from % 8); tab <= to; tab += 8) {
        this.out += "\t";
        from = tab;
      }
    while (from++ < to) this.out += " ";
    return to;
  }

  private halfLine(l: Line, indent: number, bound: number): number {
    let inPos = 0;
    let outPos = 0;
    const s = l.text;
    for (let k = 0; k < s.length; k++) {
      const c = s[k]!;
      const code = c.charCodeAt(0);
      if (c === "\t") {
        const spaces = 8 - (inPos % 8);
        if (inPos === outPos) {
          let tabstop = outPos + spaces;
          if (this.f.expandTabs) {
            if (bound < tabstop) tabstop = bound;
            for (; outPos < tabstop; outPos++) this.out += " ";
          } else if (tabstop < bound) {
            outPos = tabstop;
            this.out += c;
          }
        }
        inPos += spaces;
      } else if (c === "\r") {
        this.out += c;
        this.tabFromTo(0, indent);
        inPos = outPos = 0;
      } else if (c === "\b") {
        if (inPos !== 0 && --inPos < outPos) this.out += c;
      } else if (code >= 32 && code < 127) {
        if (inPos++ < bound) {
          outPos = inPos;
          this.out += c;
        }
      } else {
        // Not printable in the C locale: written, taking no column.
        if (inPos < bound) this.out += c;
      }
    }
    return outPos;
  }

  private sideLine(left: Line | undefined, sep: string, right: Line | undefined): void {
    const hw = this.halfWidth;
    const c2o = this.column2;
    let col = 0;
    let newline = false;
    if (left) {
      newline ||= left.newline;
      col = this.halfLine(left, 0, hw);
    }
    if (sep !== " ") {
      col = this.tabFromTo(col, Math.floor((hw + c2o - 1) / 2)) + 1;
      if (sep === "|" && left!.newline !== right!.newline) sep = left!.newline ? "/" : "\\";
      this.out += sep;
    }
    if (right) {
      newline ||= right.newline;
      if (right.text !== "" || !right.newline) {
        if (right.text !== "") {
          col = this.tabFromTo(col, c2o);
          this.halfLine(right, col, hw);
        }
      }
    }
    if (newline) this.out += "\n";
  }
}
