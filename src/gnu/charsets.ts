/**
 * The character sets iconv converts between, under glibc's names and aliases: the Unicode forms (UTF-8, UTF-16,
 * UTF-32, UCS-2, UCS-4 and their byte orders), ASCII, and the single-byte sets (ISO-8859-*, Windows code
 * pages, KOI8, IBM866, Macintosh). A decoder reports malformed input where it starts; an encoder answers
 * undefined for a character the set has no place for.
 */

export type Decoded = { cp: number; length: number } | { error: "illegal" | "incomplete" };

export interface Charset {
  /** The character at `at`, or why there is none. `first` is true at the start of the input (a BOM's place). */
  decode(bytes: Uint8Array, at: number, first: boolean): Decoded;
  encode(cp: number, first: boolean): number[] | undefined;
}

const isSurrogate = (cp: number) => cp >= 0xd800 && cp <= 0xdfff;

const UTF8: Charset = {
  decode(b, at) {
    const c = b[at]!;
    if (c < 0x80) return { cp: c, length: 1 };
    const length = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (length === 0) return { error: "illegal" };
    let cp = c & (0xff >> (length + 1));
    for (let i = 1; i < length; i++) {
      if (at + i >= b.length) return { error: "incomplete" };
      const next = b[at + i]!;
      if ((next & 0xc0) !== 0x80) return { error: "illegal" };
      cp = (cp << 6) | (next & 0x3f);
    }
    const overlong = (length === 3 && cp < 0x800) || (length === 4 && cp < 0x10000);
    if (overlong || isSurrogate(cp) || cp > 0x10ffff) return { error: "illegal" };
    return { cp, length };
  },
  encode(cp) {
    if (cp < 0x80) return [cp];
    if (cp < 0x800) return [0xc0 | (cp >> 6), 0x80 | (cp & 0x3f)];
    if (cp < 0x10000) return [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)];
    return [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)];
  },
};

function unit(b: Uint8Array, at: number, size: 2 | 4, little: boolean): number {
  let v = 0;
  for (let i = 0; i < size; i++) v = v * 256 + b[at + (little ? size - 1 - i : i)]!;
  return v;
}

function bytesOf(v: number, size: 2 | 4, little: boolean): number[] {
  const out: number[] = [];
  for (let i = size - 1; i >= 0; i--) out.push(Math.floor(v / 256 ** i) % 256);
  return little ? out.reverse() : out;
}

/**
 * UTF-16 (with surrogate pairs) or UCS-2 (without). `bom`: the unmarked form, which reads a byte-order mark at
 * the start (little-endian without one, as glibc on this machine) and writes one.
 */
function utf16(little: boolean, bom: boolean, pairs: boolean): Charset {
  let order = little;
  return {
    decode(b, at, first) {
      if (first) order = little;
      if (at + 2 > b.length) return { error: "incomplete" };
      const u = unit(b, at, 2, order);
      if (bom && first && (u === 0xfeff || u === 0xfffe)) {
        if (u === 0xfffe) order = !order;
        return { cp: -1, length: 2 };
      }
      if (!pairs) return isSurrogate(u) ? { error: "illegal" } : { cp: u, length: 2 };
      if (u >= 0xdc00 && u <= 0xdfff) return { error: "illegal" };
      if (u < 0xd800 || u > 0xdbff) return { cp: u, length: 2 };
      if (at + 4 > b.length) return { error: "incomplete" };
      const low = unit(b, at + 2, 2, order);
      if (low < 0xdc00 || low > 0xdfff) return { error: "illegal" };
      return { cp: 0x10000 + ((u - 0xd800) << 10) + (low - 0xdc00), length: 4 };
    },
    encode(cp, first) {
      const head = bom && first ? bytesOf(0xfeff, 2, little) : [];
      if (cp < 0x10000) return [...head, ...bytesOf(cp, 2, little)];
      if (!pairs) return undefined;
      const v = cp - 0x10000;
      return [...head, ...bytesOf(0xd800 + (v >> 10), 2, little), ...bytesOf(0xdc00 + (v & 0x3ff), 2, little)];
    },
  };
}

function utf32(little: boolean, bom: boolean): Charset {
  let order = little;
  return {
    decode(b, at, first) {
      if (first) order = little;
      if (at + 4 > b.length) return { error: "incomplete" };
      const u = unit(b, at, 4, order);
      if (bom && first && (u === 0xfeff || u === 0xfffe0000)) {
        if (u === 0xfffe0000) order = !order;
        return { cp: -1, length: 4 };
      }
      return isSurrogate(u) || u > 0x10ffff ? { error: "illegal" } : { cp: u, length: 4 };
    },
    encode(cp, first) {
      return [...(bom && first ? bytesOf(0xfeff, 4, little) : []), ...bytesOf(cp, 4, little)];
    },
  };
}

/** A single-byte set from its 256 code points (-1: the byte means nothing). */
function singleByte(table: readonly number[]): Charset {
  const inverse = new Map<number, number>();
  table.forEach((cp, byte) => cp >= 0 && !inverse.has(cp) && inverse.set(cp, byte));
  return {
    decode(b, at) {
      const cp = table[b[at]!]!;
      return cp < 0 ? { error: "illegal" } : { cp, length: 1 };
    },
    encode(cp) {
      const byte = inverse.get(cp);
      return byte === undefined ? undefined : [byte];
    },
  };
}

const range = (n: number, f: (i: number) => number) => Array.from({ length: n }, (_, i) => f(i));

/**
 * A table from the WHATWG decoder of the same set (Node's TextDecoder). ISO-8859 sets keep C1 controls at
 * 0x80-0x9f (WHATWG reads some of their labels as Windows code pages); in a Windows code page, a byte WHATWG maps
 * to the C1 control of the same value is one the code page leaves undefined, as glibc does.
 */
function fromDecoder(label: string, iso: boolean): number[] {
  const decoder = new TextDecoder(label);
  return range(256, (byte) => {
    if (byte < 0x80 || (iso && byte < 0xa0)) return byte;
    const cp = decoder.decode(Uint8Array.of(byte)).codePointAt(0)!;
    if (cp === 0xfffd || (!iso && cp === byte && byte < 0xa0)) return -1;
    return cp;
  });
}

/**
 * Windows-1252: Latin-1 with printable characters in most of 0x80-0x9f. Written out because Node 20's
 * TextDecoder reads this label as Latin-1.
 */
const CP1252_HIGH = [
  0x20ac, -1, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, -1, 0x17d, -1,
  -1, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, -1, 0x17e, 0x178,
];
const cp1252 = () => range(256, (i) => (i >= 0x80 && i < 0xa0 ? CP1252_HIGH[i - 0x80]! : i));

interface Entry {
  names: string[];
  make: () => Charset;
}

const ENTRIES: Entry[] = [
  { names: ["UTF-8", "UTF8"], make: () => UTF8 },
  { names: ["ANSI_X3.4-1968", "ASCII", "US-ASCII", "US", "646", "ISO646-US", "CP367", "IBM367"], make: () => singleByte(range(256, (i) => (i < 0x80 ? i : -1))) },
  { names: ["ISO-8859-1", "ISO8859-1", "ISO_8859-1", "LATIN1", "L1", "CP819", "IBM819"], make: () => singleByte(range(256, (i) => i)) },
  { names: ["UTF-16", "UTF16"], make: () => utf16(true, true, true) },
  { names: ["UTF-16LE", "UTF16LE"], make: () => utf16(true, false, true) },
  { names: ["UTF-16BE", "UTF16BE"], make: () => utf16(false, false, true) },
  { names: ["UCS-2", "UCS2", "ISO-10646-UCS-2"], make: () => utf16(true, false, false) },
  { names: ["UCS-2LE", "UNICODELITTLE"], make: () => utf16(true, false, false) },
  { names: ["UCS-2BE", "UNICODEBIG"], make: () => utf16(false, false, false) },
  { names: ["UTF-32", "UTF32"], make: () => utf32(true, true) },
  { names: ["UTF-32LE", "UTF32LE"], make: () => utf32(true, false) },
  { names: ["UTF-32BE", "UTF32BE"], make: () => utf32(false, false) },
  { names: ["UCS-4", "UCS4", "ISO-10646-UCS-4", "UCS-4BE"], make: () => utf32(false, false) },
  { names: ["UCS-4LE"], make: () => utf32(true, false) },
  ...[2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16].map((n) => ({
    names: [`ISO-8859-${n}`, `ISO8859-${n}`, `ISO_8859-${n}`, ...(n === 15 ? ["LATIN-9", "LATIN9"] : [])],
    make: () => singleByte(fromDecoder(n === 9 ? "windows-1254" : n === 11 ? "windows-874" : `iso-8859-${n}`, true)),
  })),
  ...[1250, 1251, 1252, 1253, 1254, 1255, 1256, 1257, 1258].map((n) => ({
    names: [`CP${n}`, `WINDOWS-${n}`, `MS-${n}`],
    make: () => singleByte(n === 1252 ? cp1252() : fromDecoder(`windows-${n}`, false)),
  })),
  { names: ["KOI8-R"], make: () => singleByte(fromDecoder("koi8-r", false)) },
  { names: ["KOI8-U"], make: () => singleByte(fromDecoder("koi8-u", false)) },
  { names: ["IBM866", "CP866", "866"], make: () => singleByte(fromDecoder("ibm866", false)) },
  { names: ["MACINTOSH", "MAC", "MACROMAN"], make: () => singleByte(fromDecoder("macintosh", false)) },
];

/** The set glibc would use for `name` (any case), a new one each time (a decoder keeps its byte order). */
export function charset(name: string): Charset | undefined {
  const wanted = name.toUpperCase();
  return ENTRIES.find((e) => e.names.includes(wanted))?.make();
}

/** Every name, for `iconv -l`. */
export function charsetNames(): string[] {
  return ENTRIES.flatMap((e) => e.names).sort();
}
