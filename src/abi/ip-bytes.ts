/**
 * Numeric IP addresses between the kernel's text form (src/abi/net.ts) and the 4 or 16 bytes of a C guest's
 * sockaddr (workers/net-imports.ts). Only numeric forms: names are the resolver's business.
 */

/** "a.b.c.d" for 4 bytes; eight uncompressed hex groups for 16 (a form every IPv6 parser accepts). */
export function ipText(bytes: Uint8Array): string {
  if (bytes.length === 4) return bytes.join(".");
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return groups.join(":");
}

function ipv4Bytes(text: string): number[] | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return undefined;
    out.push(Number(p));
  }
  return out;
}

/** The bytes of a numeric IPv4 (4) or IPv6 (16, an IPv6 zone dropped) address; undefined for anything else. */
export function ipBytes(text: string): Uint8Array | undefined {
  const v4 = ipv4Bytes(text);
  if (v4) return Uint8Array.from(v4);
  const addr = text.split("%")[0]!;
  if (!addr.includes(":")) return undefined;
  const halves = addr.split("::");
  if (halves.length > 2) return undefined;
  const groups = (s: string): number[] | undefined => {
    if (s === "") return [];
    const out: number[] = [];
    const parts = s.split(":");
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      if (i === parts.length - 1 && p.includes(".")) {
        const tail = ipv4Bytes(p);
        if (!tail) return undefined;
        out.push((tail[0]! << 8) | tail[1]!, (tail[2]! << 8) | tail[3]!);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(p)) out.push(parseInt(p, 16));
      else return undefined;
    }
    return out;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !tail) return undefined;
  const fill = 8 - head.length - tail.length;
  if (halves.length === 2 ? fill < 1 : fill !== 0) return undefined;
  const all = [...head, ...new Array<number>(halves.length === 2 ? fill : 0).fill(0), ...tail];
  const out = new Uint8Array(16);
  all.forEach((g, i) => {
    out[2 * i] = g >> 8;
    out[2 * i + 1] = g & 0xff;
  });
  return out;
}
