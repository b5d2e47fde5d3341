import { isIPv4, isIPv6 } from "node:net";
import { AF, type AddressFamily } from "../abi/net.js";
import { kerr } from "./kernel-error.js";

/** A socket's address as the guest sees it: a numeric IP address and port, or a Unix path ("" unnamed). */
export interface SockAddr {
  family: AddressFamily;
  address: string;
  port: number;
}

/**
 * What a bound address covers in the VM's loopback namespace: the IPv4 and the IPv6 addresses it
 * receives for, "any" for a wildcard. A dual-stack `::` covers both; `::ffff:127.0.0.1` is IPv4.
 */
export interface Cover {
  v4?: string;
  v6?: string;
}

/** A parsed IP address: `v4` when it reaches the IPv4 side (an IPv4 or v4-mapped address), else `v6`. */
export interface IpAddress {
  v4?: string;
  v6?: string;
  /** As the guest will be shown it (IPv6 in its canonical form). */
  text: string;
  family: AddressFamily;
}

const MAPPED_HEX = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/;

/** An IPv6 address in canonical form (lower case, longest zero run compressed), v4-mapped ones dotted. */
function canonicalV6(text: string): string {
  const c = new URL(`http://[${text}]`).hostname.slice(1, -1);
  const m = MAPPED_HEX.exec(c);
  if (!m) return c;
  const hi = parseInt(m[1]!, 16);
  const lo = parseInt(m[2]!, 16);
  return `::ffff:${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
}

/**
 * Parses `text` for a socket of `domain`: an AF_INET socket takes IPv4 only (EAFNOSUPPORT), an AF_INET6
 * one both (an IPv4 address is taken as v4-mapped). Anything but a numeric address is EINVAL: names are
 * resolved before the kernel sees them.
 */
export function parseIp(domain: number, text: string, syscall: string): IpAddress {
  if (isIPv4(text)) {
    const v4 = text.split(".").map(Number).join(".");
    return domain === AF.INET ? { v4, text: v4, family: AF.INET } : { v4, text: `::ffff:${v4}`, family: AF.INET6 };
  }
  // A zone id (fe80::1%eth0) names an interface of a host the VM does not have.
  if (!isIPv6(text) || text.includes("%")) throw kerr("EINVAL", { syscall, message: `not a numeric address: ${JSON.stringify(text)}` });
  if (domain !== AF.INET6) throw kerr("EAFNOSUPPORT", { syscall });
  const c = canonicalV6(text);
  return c.startsWith("::ffff:") && isIPv4(c.slice(7)) ? { v4: c.slice(7), text: c, family: AF.INET6 } : { v6: c, text: c, family: AF.INET6 };
}

export const isWildcard = (ip: IpAddress): boolean => ip.v4 === "0.0.0.0" || ip.v6 === "::";
export const isLoopback = (ip: IpAddress): boolean => (ip.v4 !== undefined ? ip.v4.startsWith("127.") : ip.v6 === "::1");

/** What a bind to `ip` covers; `v6only` is IPV6_V6ONLY of the socket. */
export function coverOf(ip: IpAddress, v6only: boolean): Cover {
  if (ip.v6 === "::") return v6only ? { v6: "any" } : { v4: "any", v6: "any" };
  if (ip.v4 === "0.0.0.0") return { v4: "any" };
  return ip.v4 !== undefined ? { v4: ip.v4 } : { v6: ip.v6! };
}

const overlap = (a: string | undefined, b: string | undefined): boolean =>
  a !== undefined && b !== undefined && (a === "any" || b === "any" || a === b);

/** Two bindings of one port that cannot coexist. */
export const coversOverlap = (a: Cover, b: Cover): boolean => overlap(a.v4, b.v4) || overlap(a.v6, b.v6);

/** How well a binding receives for `ip`: 2 exactly, 1 by a wildcard, 0 not at all. */
export function matchOf(cover: Cover, ip: IpAddress): number {
  const want = ip.v4 !== undefined ? cover.v4 : cover.v6;
  const got = ip.v4 ?? ip.v6;
  return want === got ? 2 : want === "any" ? 1 : 0;
}

/** The address a connect or send to a wildcard reaches: the loopback of that family, as on Linux. */
export function loopbackFor(ip: IpAddress): IpAddress {
  if (ip.v4 === "0.0.0.0") return { ...ip, v4: "127.0.0.1", text: ip.family === AF.INET ? "127.0.0.1" : "::ffff:127.0.0.1" };
  if (ip.v6 === "::") return { ...ip, v6: "::1", text: "::1" };
  return ip;
}

/** `ip` as a socket of `family` shows it: an IPv6 socket shows IPv4 peers v4-mapped. */
export function shownAs(family: AddressFamily, ip: IpAddress): string {
  if (ip.v4 === undefined) return ip.v6!;
  return family === AF.INET6 ? `::ffff:${ip.v4}` : ip.v4;
}
