/**
 * Binary data in the MCP tools' text: base64, checked strictly on the way in (Node's decoder skips what it does
 * not know, which would write other bytes than the client meant) and bounded on the way out.
 */

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The bytes `text` encodes (standard alphabet; padding optional; whitespace such as line breaks ignored). */
export function decodeBase64(text: string): Buffer {
  const compact = text.replace(/\s+/g, "");
  if (!BASE64.test(compact) || compact.length % 4 === 1 || (compact.includes("=") && compact.length % 4 !== 0))
    throw Object.assign(new Error("content is not valid base64 (A-Z, a-z, 0-9, + and /, with = padding at the end)"), { code: "EINVAL" });
  return Buffer.from(compact, "base64");
}

/** Bytes whose base64 fits in `chars` characters (at least 3, one group). */
export function base64Capacity(chars: number): number {
  return Math.max(3, Math.floor(chars / 4) * 3);
}
