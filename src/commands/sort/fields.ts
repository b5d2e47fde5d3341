/** Where a key lies in a line (GNU begfield / limfield) and its text after -d/-i/-f. */
import type { KeySpec } from "./options.js";

/** Blanks are space, tab and newline (newline matters for -z). */
export function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 10;
}

/** Start of the key: skip `sword` fields, optional blanks, then `schar` chars, never past the line end. */
function begField(s: string, k: KeySpec, tab: number): number {
  const lim = s.length;
  let p = 0;
  let n = k.sword;
  if (tab >= 0) {
    while (p < lim && n-- > 0) {
      while (p < lim && s.charCodeAt(p) !== tab) p++;
      if (p < lim) p++;
    }
  } else {
    while (p < lim && n-- > 0) {
      while (p < lim && isBlank(s.charCodeAt(p))) p++;
      while (p < lim && !isBlank(s.charCodeAt(p))) p++;
    }
  }
  if (k.skipStart) while (p < lim && isBlank(s.charCodeAt(p))) p++;
  return Math.min(lim, p + k.schar);
}

/** End of the key (exclusive). With echar 0 the key runs to the end of field `eword`, excluding its separator. */
function limField(s: string, k: KeySpec, tab: number): number {
  const lim = s.length;
  if (k.eword < 0) return lim;
  const echar = k.echar;
  let n = echar === 0 ? k.eword + 1 : k.eword;
  let p = 0;
  if (tab >= 0) {
    while (p < lim && n-- > 0) {
      while (p < lim && s.charCodeAt(p) !== tab) p++;
      if (p < lim && (n > 0 || echar !== 0)) p++;
    }
  } else {
    while (p < lim && n-- > 0) {
      while (p < lim && isBlank(s.charCodeAt(p))) p++;
      while (p < lim && !isBlank(s.charCodeAt(p))) p++;
    }
  }
  if (echar !== 0) {
    if (k.skipEnd) while (p < lim && isBlank(s.charCodeAt(p))) p++;
    p = Math.min(lim, p + echar);
  }
  return p;
}

/** -d keeps alphanumerics and blanks; -i keeps printable ASCII; -f folds to upper case (C locale). */
function transformKey(t: string, k: KeySpec): string {
  if (k.ignore === "dict") t = t.replace(/[^A-Za-z0-9 \t\n]+/g, "");
  else if (k.ignore === "print") t = t.replace(/[^\x20-\x7e]+/g, "");
  if (k.fold && /[a-z]/.test(t)) t = t.replace(/[a-z]+/g, (m) => m.toUpperCase());
  return t;
}

/** The text of key k in the line, after -d/-i/-f. */
export function keyText(line: string, k: KeySpec, tab: number): string {
  const beg = begField(line, k, tab);
  const lim = limField(line, k, tab);
  // A key whose end lies before its start is empty.
  const text = lim > beg ? (beg === 0 && lim === line.length ? line : line.slice(beg, lim)) : "";
  return k.ignore || k.fold ? transformKey(text, k) : text;
}

