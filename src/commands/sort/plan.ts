/** How lines are keyed and compared: the key values of a line are computed once, and compared many times. */
import { keyText } from "./fields.js";
import type { Options } from "./options.js";
import { compareDecimal, compareNumber, compareText, keyMode, type Cmp } from "./orderings.js";

/** A line with its key values: the first key in `key` (the common single-key case), the others in `more`. */
export interface Rec {
  line: string;
  key: unknown;
  more: unknown[];
  /** prefixOf() the first key when it is compared as text, else 0; and of the line. */
  keyPrefix: number;
  linePrefix: number;
}

/**
 * The first 6 bytes as one exact number (shorter strings padded with 0): when two prefixes differ, the
 * strings differ in the same order, and comparing numbers is far cheaper than comparing strings.
 */
function prefixOf(s: string): number {
  let p = 0;
  for (let i = 0; i < 6; i++) p = p * 256 + (i < s.length ? s.charCodeAt(i) : 0);
  return p;
}

/** How lines are keyed and compared: one value parser and comparator per key. */
export interface Plan {
  parsers: Array<(t: string) => unknown>;
  /** The first key compares as plain text, so its prefix can stand in for it. */
  textFirst: boolean;
  /** The first key's values are usually plain numbers (-n, -M), so they may go in a Float64Array (items.ts). */
  numberFirst: boolean;
  /** Compares two lines (no keys) or two Recs. */
  compare: Cmp;
}

/**
 * Key comparisons in order, each possibly reversed; when all keys tie, GNU's last-resort comparison of
 * whole lines in byte order (reversed by a global -r), unless -s or -u asks to keep ties as ties.
 */
export function makePlan(o: Options): Plan {
  const lastReverse = o.global.reverse;
  if (o.keys.length === 0) {
    return {
      parsers: [],
      textFirst: false,
      numberFirst: false,
      compare: lastReverse ? (a: string, b: string) => compareText(b, a) : compareText,
    };
  }
  const salt = (Math.random() * 0x100000000) >>> 0;
  const modes = o.keys.map((k) => keyMode(k, salt));
  const first = modes[0]!.cmp;
  const firstReverse = o.keys[0]!.reverse;
  const more = modes.slice(1).map((m) => m.cmp);
  const moreReverse = o.keys.slice(1).map((k) => k.reverse);
  const tiesStay = o.stable || o.unique;
  const compare = (a: Rec, b: Rec): number => {
    let d = a.keyPrefix !== b.keyPrefix ? (a.keyPrefix < b.keyPrefix ? -1 : 1) : first(a.key, b.key);
    if (d !== 0) return firstReverse ? -d : d;
    for (let i = 0; i < more.length; i++) {
      d = more[i]!(a.more[i], b.more[i]);
      if (d !== 0) return moreReverse[i] ? -d : d;
    }
    if (tiesStay) return 0;
    d = a.linePrefix !== b.linePrefix ? (a.linePrefix < b.linePrefix ? -1 : 1) : compareText(a.line, b.line);
    return lastReverse ? -d : d;
  };
  return {
    parsers: modes.map((m) => m.parse), compare, textFirst: first === compareText,
    numberFirst: first === compareDecimal || first === compareNumber,
  };
}

const NO_KEYS: unknown[] = [];

/** Precomputes every key value of a line once, so sorting never re-parses. */
export function makeRec(line: string, o: Options, { parsers, textFirst }: Plan): Rec {
  const n = o.keys.length;
  const more = n > 1 ? new Array<unknown>(n - 1) : NO_KEYS;
  let key: unknown;
  for (let i = 0; i < n; i++) {
    const value = parsers[i]!(keyText(line, o.keys[i]!, o.tab));
    if (i === 0) key = value;
    else more[i - 1] = value;
  }
  return { line, key, more, keyPrefix: textFirst ? prefixOf(key as string) : 0, linePrefix: prefixOf(line) };
}
