/**
 * What the agent adapters show a model of a long output or file: the head and the tail, with a marker in
 * between saying how many bytes were cut. Cuts fall on UTF-8 character boundaries.
 */

/** Default bytes of one output stream (or of a file) shown to a model. */
export const DEFAULT_OUTPUT_LIMIT = 30_000;

const isContinuation = (b: number | undefined): boolean => b !== undefined && (b & 0xc0) === 0x80;

/**
 * `text` if its UTF-8 form is at most `limit` bytes; otherwise its first and last `limit / 2` bytes (about),
 * joined by `\n[… N bytes cut …]\n`.
 */
export function truncateMiddle(text: string, limit: number): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= limit) return text;
  let headEnd = Math.floor(limit / 2);
  while (headEnd > 0 && isContinuation(bytes[headEnd])) headEnd--;
  let tailStart = bytes.length - (limit - Math.floor(limit / 2));
  while (tailStart < bytes.length && isContinuation(bytes[tailStart])) tailStart++;
  const cut = tailStart - headEnd;
  return `${bytes.subarray(0, headEnd).toString("utf8")}\n[… ${cut} bytes cut …]\n${bytes.subarray(tailStart).toString("utf8")}`;
}

/** A limit option: a positive integer number of bytes. */
export function checkLimitOption(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0)
    throw Object.assign(new TypeError(`${name} must be a positive integer, got ${String(value)}`), { code: "ERR_INVALID_ARG_VALUE" });
  return value;
}
