import { X509Certificate } from "node:crypto";

/**
 * Where a VM created with `network.ca` keeps those certificates on their own (Debian's place for local CAs,
 * which update-ca-certificates merges into the bundle, as the VM's bundle has them merged too). Guest `node`
 * reads them through NODE_EXTRA_CA_CERTS, which names this file unless the VM's env names another.
 */
export const NETWORK_CA_FILE = "/usr/local/share/ca-certificates/agentos-network.crt";

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n([\s\S]*?)-----END \1-----/g;

/**
 * `network.ca` checked: PEM text (or a list of them) holding one or more certificates and nothing else but
 * whitespace. Returns the certificates as PEM, one after another, each ending in a newline; a TypeError names
 * the first thing that is not a certificate.
 */
export function checkNetworkCa(ca: unknown): string {
  const texts = typeof ca === "string" ? [ca] : ca;
  if (!Array.isArray(texts) || texts.length === 0 || texts.some((t) => typeof t !== "string"))
    throw new TypeError("network.ca must be PEM text or a non-empty array of PEM texts (-----BEGIN CERTIFICATE-----)");
  const out: string[] = [];
  texts.forEach((text: string, i) => {
    const where = typeof ca === "string" ? "network.ca" : `network.ca[${i}]`;
    let rest = text;
    let count = 0;
    for (const m of text.matchAll(PEM_BLOCK)) {
      count++;
      if (m[1] !== "CERTIFICATE") throw new TypeError(`${where}: block ${count} is ${m[1]}, not CERTIFICATE`);
      try {
        new X509Certificate(m[0]);
      } catch (e) {
        throw new TypeError(`${where}: certificate ${count} does not parse (${(e as Error).message})`);
      }
      out.push(`${m[0].replace(/\r\n/g, "\n")}\n`);
      rest = rest.replace(m[0], "");
    }
    if (count === 0) throw new TypeError(`${where}: no PEM certificate (-----BEGIN CERTIFICATE-----) in it`);
    const stray = rest.trim();
    if (stray) throw new TypeError(`${where}: text outside the PEM certificates: ${JSON.stringify(stray.slice(0, 40))}`);
  });
  return out.join("");
}
