import { lookup as dnsLookup } from "node:dns/promises";
import { kerr } from "../kernel/kernel-error.js";
import { ipFamily, isSpecialAddress } from "./address-class.js";
import { normalizeName, type DenialReason, type NetworkPolicy } from "./policy.js";

/** One address of a name. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** How names are looked up on the host: dns.lookup by default; tests give their own (no DNS leaves the machine). */
export type LookupFunction = (name: string) => Promise<readonly ResolvedAddress[]>;

export const hostLookup: LookupFunction = async (name) => {
  const all = await dnsLookup(name, { all: true, order: "verbatim" });
  return all.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** How long a name's answer authorizes its addresses at least (Cilium's tofqdns-min-ttl: answers' TTLs are often seconds). */
const PIN_TTL_MS = 60 * 60 * 1000;
/** Addresses pinned at once per VM; the least recently resolved go first. */
const PIN_TABLE_SIZE = 4096;

/** What the resolver tells the VM about a name it refused. */
export type ResolveDenial = (name: string, reason: DenialReason, pid: number) => void;

/**
 * The VM's resolver (the RESOLVE call). A name is answered from the VM's /etc/hosts first (no query, no pin:
 * the address must still pass the policy on its own); otherwise it must pass the policy before any lookup
 * leaves the machine. The host's answer loses its special addresses (loopback, private, metadata: an IP/CIDR
 * entry alone can open them), and what is left is pinned: a connection to an address is authorized by the
 * names that resolved to it here, and by nothing else, so there is no second lookup to race (DNS rebinding).
 */
export class Resolver {
  /** address → (name → when the pin expires, ms since epoch); Map order is the LRU order. */
  private readonly pins = new Map<string, Map<string, number>>();

  constructor(
    private readonly hostsFile: () => string,
    private readonly policy: () => NetworkPolicy,
    private readonly lookup: LookupFunction,
    private readonly denied: ResolveDenial,
  ) {}

  /**
   * The addresses of `name` (family 0: both), or a KernelError: ENOENT (no such name, or not allowed:
   * getaddrinfo's EAI_NONAME), ETIMEDOUT (the host's resolver failed for now: EAI_AGAIN).
   */
  async resolve(name: string, family: 0 | 4 | 6, pid: number): Promise<ResolvedAddress[]> {
    const literal = ipFamily(name);
    if (literal) return family === 0 || (literal === "ipv4" ? 4 : 6) === family ? [{ address: name, family: literal === "ipv4" ? 4 : 6 }] : [];
    const n = normalizeName(name);
    const notFound = (): never => {
      throw kerr("ENOENT", { syscall: "getaddrinfo", message: `${name}: name not known` });
    };
    if (!n) return notFound();
    const local = this.fromHostsFile(n);
    if (local.length > 0) return byFamily(local, family);
    const verdict = await this.policy().resolve(n, pid);
    if (verdict !== true) {
      this.denied(n, verdict, pid);
      return notFound();
    }
    let answer: readonly ResolvedAddress[];
    try {
      answer = await this.lookup(n);
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === "ENOTFOUND" || code === "ENODATA" || code === "EAI_NONAME") return notFound();
      throw kerr("ETIMEDOUT", { syscall: "getaddrinfo", message: `${name}: temporary failure in name resolution` });
    }
    const policy = this.policy();
    const kept = answer.filter((a) => ipFamily(a.address) !== undefined && (!isSpecialAddress(a.address) || policy.coversAddress(a.address)));
    if (kept.length === 0) {
      this.denied(n, answer.length > 0 ? "resolves only to special addresses" : "not allowed", pid);
      return notFound();
    }
    const expires = Date.now() + PIN_TTL_MS;
    for (const a of kept) this.pin(a.address, n, expires);
    return byFamily(kept, family);
  }

  /** The names `address` was resolved from, whose pins have not expired. */
  namesOf(address: string): string[] {
    const names = this.pins.get(address);
    if (!names) return [];
    const now = Date.now();
    const out: string[] = [];
    for (const [name, expires] of names) {
      if (expires > now) out.push(name);
      else names.delete(name);
    }
    if (names.size === 0) this.pins.delete(address);
    return out;
  }

  private pin(address: string, name: string, expires: number): void {
    const names = this.pins.get(address) ?? new Map<string, number>();
    this.pins.delete(address);
    names.set(name, expires);
    this.pins.set(address, names);
    if (this.pins.size > PIN_TABLE_SIZE) this.pins.delete(this.pins.keys().next().value!);
  }

  /** The addresses the VM's /etc/hosts gives `name`. */
  private fromHostsFile(name: string): ResolvedAddress[] {
    let text: string;
    try {
      text = this.hostsFile();
    } catch {
      return [];
    }
    const out: ResolvedAddress[] = [];
    for (const line of text.split("\n")) {
      const fields = line.replace(/#.*/, "").trim().split(/\s+/);
      const [address, ...names] = fields;
      const family = address ? ipFamily(address) : undefined;
      if (!family || !names.some((h) => normalizeName(h) === name)) continue;
      out.push({ address: address!, family: family === "ipv4" ? 4 : 6 });
    }
    return out;
  }
}

const byFamily = (list: readonly ResolvedAddress[], family: 0 | 4 | 6): ResolvedAddress[] => list.filter((a) => family === 0 || a.family === family);
