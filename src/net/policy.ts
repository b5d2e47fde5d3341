import { BlockList, isIP } from "node:net";
import { domainToASCII } from "node:url";
import { HOST_GATEWAY_ADDRESS, HOST_GATEWAY_NAME, ipFamily, isSpecialAddress } from "./address-class.js";

/** What the function form of `network.allow` is asked about. */
export interface NetworkRequest {
  /** "resolve": a name is looked up (no port yet); "connect": a TCP connection; "send": a datagram. */
  kind: "resolve" | "connect" | "send";
  /** The name the guest asked for (resolve), or the names the address was resolved from (connect). */
  host?: string;
  /** The numeric address (connect, send). */
  address?: string;
  port?: number;
  protocol: "dns" | "tcp" | "udp";
  /** The guest process asking. */
  pid: number;
}

/** `network.allow`: entries (see parseEntry), or a function asked about every name and connection. */
export type NetworkAllow = readonly string[] | ((request: NetworkRequest) => boolean | Promise<boolean>);

type Ports = "any" | ReadonlySet<number>;
type Entry = { kind: "name"; name: string; wildcard: boolean; ports: Ports } | { kind: "ip"; list: BlockList; ports: Ports };

/** A name without a port: the web's two ports. */
const WEB_PORTS: ReadonlySet<number> = new Set([80, 443]);

const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/**
 * A host name as the policy and the resolver compare it: lower case, one trailing dot dropped, IDNA to ASCII,
 * then letters, digits, hyphens (and underscores, as in SRV names) only, and not ending in a number.
 * Undefined for anything else.
 */
export function normalizeName(name: string): string | undefined {
  if (typeof name !== "string" || name.length === 0 || name.length > 254) return undefined;
  let n = name.toLowerCase();
  if (n.endsWith(".")) n = n.slice(0, -1);
  if (/[^\x20-\x7e]/.test(n)) n = domainToASCII(n);
  if (n.length === 0 || n.length > 253) return undefined;
  const labels = n.split(".");
  for (const label of labels) if (!LABEL.test(label)) return undefined;
  // A name that ends in a number is an IPv4 address in inet_aton's spelling (127.1, 0x7f.1), as URLs read it.
  if (/^(?:[0-9]+|0x[0-9a-f]*)$/.test(labels[labels.length - 1]!)) return undefined;
  return n;
}

function parsePort(text: string, entry: string): Ports {
  if (text === "*") return "any";
  if (!/^[0-9]{1,5}$/.test(text)) throw new TypeError(`network.allow: bad port in ${JSON.stringify(entry)}`);
  const port = Number(text);
  if (port < 1 || port > 65535) throw new TypeError(`network.allow: port out of range (1-65535) in ${JSON.stringify(entry)}`);
  return new Set([port]);
}

function ipEntry(address: string, prefix: string | undefined, ports: Ports, entry: string): Entry {
  const family = ipFamily(address);
  if (!family) throw new TypeError(`network.allow: bad address in ${JSON.stringify(entry)}`);
  const list = new BlockList();
  if (prefix === undefined) list.addAddress(address, family);
  else {
    if (!/^[0-9]{1,3}$/.test(prefix) || Number(prefix) > (family === "ipv4" ? 32 : 128))
      throw new TypeError(`network.allow: bad prefix length in ${JSON.stringify(entry)}`);
    list.addSubnet(address, Number(prefix), family);
  }
  return { kind: "ip", list, ports };
}

/**
 * One entry of `network.allow`, case-insensitive: `host` (ports 80 and 443), `host:PORT`, `host:*`,
 * `*.domain[:PORT|:*]` (any subdomain, not the domain itself), `1.2.3.4[:PORT|:*]`, `10.0.0.0/8[:PORT|:*]`,
 * `2001:db8::1`, `[2001:db8::1]:443`, `[2001:db8::/32]:*`, and `host.agentos.internal:PORT` (the port is
 * required: it is the door to the host's own loopback). TypeError for anything else.
 */
export function parseEntry(entry: unknown): Entry {
  if (typeof entry !== "string") throw new TypeError(`network.allow entries must be strings, got ${typeof entry}`);
  const text = entry.trim().toLowerCase();
  let host: string;
  let ports: Ports = WEB_PORTS;
  if (text.startsWith("[")) {
    const close = text.indexOf("]");
    if (close < 0) throw new TypeError(`network.allow: unclosed [ in ${JSON.stringify(entry)}`);
    const rest = text.slice(close + 1);
    if (rest !== "") {
      if (!rest.startsWith(":")) throw new TypeError(`network.allow: bad entry ${JSON.stringify(entry)}`);
      ports = parsePort(rest.slice(1), entry);
    }
    const [address, prefix] = text.slice(1, close).split("/", 2) as [string, string | undefined];
    if (ipFamily(address) !== "ipv6") throw new TypeError(`network.allow: not an IPv6 address in ${JSON.stringify(entry)}`);
    return ipEntry(address, prefix, ports, entry);
  }
  const slash = text.indexOf("/");
  if (isIP(text) === 6 || (slash > 0 && isIP(text.slice(0, slash)) === 6)) {
    const [address, prefix] = text.split("/", 2) as [string, string | undefined];
    return ipEntry(address, prefix, ports, entry);
  }
  const colon = text.lastIndexOf(":");
  host = text;
  if (colon >= 0) {
    host = text.slice(0, colon);
    ports = parsePort(text.slice(colon + 1), entry);
  }
  if (slash > 0) {
    const [address, prefix] = host.split("/", 2) as [string, string | undefined];
    return ipEntry(address, prefix, ports, entry);
  }
  if (isIP(host) === 4) return ipEntry(host, undefined, ports, entry);
  const wildcard = host.startsWith("*.");
  const name = normalizeName(wildcard ? host.slice(2) : host);
  if (!name) throw new TypeError(`network.allow: bad host name in ${JSON.stringify(entry)}`);
  if (name === HOST_GATEWAY_NAME && (wildcard || colon < 0))
    throw new TypeError(`network.allow: ${HOST_GATEWAY_NAME} needs a port (${HOST_GATEWAY_NAME}:PORT), got ${JSON.stringify(entry)}`);
  return { kind: "name", name, wildcard, ports };
}

const portIn = (ports: Ports, port: number): boolean => ports === "any" || ports.has(port);

/** Why a name or a connection was refused. */
export type DenialReason = "network disabled" | "not allowed" | "special address" | "resolves only to special addresses" | "limit reached";

/** An answer of the policy: allowed, or the reason it is not. */
export type Verdict = true | DenialReason;

/**
 * A VM's network policy. Names are checked before any lookup, addresses at connect: an address is allowed iff
 * an IP or CIDR entry covers it and the port, or it is not special (address-class.ts) and one of the names it
 * was resolved from (the pin table, resolver.ts) has an entry for the port. The function form is asked instead
 * of the entries, after the special classes: it cannot open a special address, except `host.agentos.internal`.
 */
export class NetworkPolicy {
  private readonly entries: readonly Entry[];
  private readonly ask: ((request: NetworkRequest) => boolean | Promise<boolean>) | undefined;

  constructor(allow: unknown) {
    if (typeof allow === "function") {
      this.ask = allow as (request: NetworkRequest) => boolean | Promise<boolean>;
      this.entries = [];
    } else if (Array.isArray(allow)) {
      this.entries = allow.map(parseEntry);
      this.ask = undefined;
    } else throw new TypeError("network.allow must be an array of entries or a function");
  }

  /** No network at all: every name and connection refused. */
  static readonly none = new NetworkPolicy([]);

  /** May `name` (normalized) be looked up? The answer of a function form is awaited; a throw denies. */
  resolve(name: string, pid: number): Verdict | Promise<Verdict> {
    if (this.ask) return this.asked({ kind: "resolve", host: name, protocol: "dns", pid });
    return this.entries.some((e) => e.kind === "name" && this.nameMatches(e, name)) ? true : "not allowed";
  }

  /** May `address` (one the resolver returned, or a literal) be connected to? `names`: those it is pinned for. */
  connect(address: string, port: number, names: readonly string[], protocol: "tcp" | "udp", pid: number): Verdict | Promise<Verdict> {
    const kind = protocol === "tcp" ? "connect" : "send";
    if (address === HOST_GATEWAY_ADDRESS) {
      if (this.ask) return this.asked({ kind, host: HOST_GATEWAY_NAME, address, port, protocol, pid });
      return this.entries.some((e) => e.kind === "name" && !e.wildcard && e.name === HOST_GATEWAY_NAME && portIn(e.ports, port)) ? true : "not allowed";
    }
    const family = ipFamily(address);
    if (!family) return "not allowed";
    if (this.entries.some((e) => e.kind === "ip" && portIn(e.ports, port) && e.list.check(address, family))) return true;
    if (isSpecialAddress(address)) return "special address";
    if (this.ask) {
      if (names.length === 0) return this.asked({ kind, address, port, protocol, pid });
      return this.anyAsked(names.map((host) => ({ kind, host, address, port, protocol, pid })));
    }
    return names.some((n) => this.entries.some((e) => e.kind === "name" && portIn(e.ports, port) && this.nameMatches(e, n))) ? true : "not allowed";
  }

  /** Does an IP or CIDR entry cover `address` on some port (so a name may resolve to it although it is special)? */
  coversAddress(address: string): boolean {
    const family = ipFamily(address);
    return family !== undefined && this.entries.some((e) => e.kind === "ip" && e.list.check(address, family));
  }

  private nameMatches(e: Extract<Entry, { kind: "name" }>, name: string): boolean {
    if (!e.wildcard) return e.name === name;
    return name !== HOST_GATEWAY_NAME && name.endsWith(`.${e.name}`);
  }

  private asked(request: NetworkRequest): Verdict | Promise<Verdict> {
    const ask = this.ask!;
    let answer: boolean | Promise<boolean>;
    try {
      answer = ask(Object.freeze({ ...request }));
    } catch {
      return "not allowed";
    }
    if (answer === true) return true;
    if (answer !== null && typeof answer === "object" && typeof (answer as Promise<boolean>).then === "function")
      return Promise.resolve(answer).then(
        (v) => (v === true ? true : "not allowed"),
        () => "not allowed",
      );
    return "not allowed";
  }

  private async anyAsked(requests: NetworkRequest[]): Promise<Verdict> {
    for (const r of requests) if ((await this.asked(r)) === true) return true;
    return "not allowed";
  }
}
