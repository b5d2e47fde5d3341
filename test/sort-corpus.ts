/** Generated inputs for the differential suites of sort (test/sort.*.test.ts). */

/** A deterministic generator (mulberry32). */
export function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MONTHS = ["jan", "Feb", "MAR", "apr", "May", "jun", "xyz", " dec", ""];
const WORDS = [
  "a", "b", "B", "abc", "Abc", "a-b", "a_b", "zz", "é", "\x01x", "x\x7f", "file1.txt", "file10.txt", "file2.txt",
];

/**
 * Lines of 1–3 fields (space or comma separated) mixing numbers (negative, decimal, padded, huge), words in
 * both cases, bytes above 0x7f, months, sizes and versions, with many duplicates, so that ties matter.
 */
export function corpus(lines: number, seed: number): string {
  const r = random(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  // Not 0x80: GNU sort (with signed char) takes that byte for a thousands separator in -n numbers; ours does not.
  const byte = (): number => {
    const c = 32 + Math.floor(r() * 224);
    return c === 0x80 ? 0x81 : c;
  };
  const field = (): string => {
    switch (Math.floor(r() * 9)) {
      case 0: return String(Math.floor(r() * 100) - 50);
      case 1: return (r() * 1000 - 500).toFixed(Math.floor(r() * 3));
      case 2: return " ".repeat(Math.floor(r() * 3)) + String(Math.floor(r() * 20));
      case 3: return pick(WORDS);
      case 4: return pick(MONTHS);
      case 5: return `${Math.floor(r() * 10)}${pick(["", "K", "M", "G", "k"])}`;
      case 6: return `v${Math.floor(r() * 3)}.${Math.floor(r() * 12)}${pick(["", "~rc1", "a", ".1"])}`;
      case 7: return String.fromCharCode(...Array.from({ length: 1 + Math.floor(r() * 4) }, byte));
      default: return r() < 0.05 ? "123456789012345678901234567890" : String(Math.floor(r() * 5));
    }
  };
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const sep = r() < 0.5 ? " " : ",";
    out.push(Array.from({ length: 1 + Math.floor(r() * 3) }, field).join(sep));
  }
  return out.join("\n") + "\n";
}
