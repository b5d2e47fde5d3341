import { BlockList, isIP } from "node:net";
import { networkInterfaces } from "node:os";

/**
 * The fixed address `host.agentos.internal` has in every VM (its /etc/hosts): 198.18.0.1, in the benchmarking
 * range 198.18.0.0/15 that is never a real LAN. A connection to it on a port the policy allows for
 * `host.agentos.internal:PORT` reaches the host's own 127.0.0.1:PORT.
 */
export const HOST_GATEWAY_ADDRESS = "198.18.0.1";
export const HOST_GATEWAY_NAME = "host.agentos.internal";

/**
 * Address ranges no name may reach (RFC 6890 special-purpose registries, cloud metadata services, the host's
 * own interfaces): loopback, private, link-local, shared, documentation, benchmarking, multicast, reserved.
 * An IP or CIDR entry of the policy can still allow one of them; a name entry never does, so a name that
 * resolves into one of them (DNS rebinding) does not reach it.
 */
const V4_SPECIAL: [string, number][] = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
  ["168.63.129.16", 32], // Azure's wire server: a public address that serves the instance
];
/**
 * IPv6. BlockList applies the IPv4 rules to IPv4-mapped addresses (::ffff:0:0/96) itself; the other ways to
 * carry an IPv4 address inside an IPv6 one (IPv4-compatible ::/96, NAT64, 6to4, Teredo) are special as a whole.
 */
const V6_SPECIAL: [string, number][] = [
  ["::", 96],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 32],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
];

function specialList(): BlockList {
  const list = new BlockList();
  for (const [a, p] of V4_SPECIAL) list.addSubnet(a, p, "ipv4");
  for (const [a, p] of V6_SPECIAL) list.addSubnet(a, p, "ipv6");
  for (const infos of Object.values(networkInterfaces()))
    for (const i of infos ?? []) if (!i.address.includes("%")) list.addAddress(i.address, i.family === "IPv6" ? "ipv6" : "ipv4");
  return list;
}

let special: BlockList | undefined;

/** A numeric address as the kernel takes it: dotted quad or IPv6 text (no inet_aton forms, no zone id); undefined otherwise. */
export function ipFamily(text: string): "ipv4" | "ipv6" | undefined {
  if (text.includes("%")) return undefined;
  const v = isIP(text);
  return v === 4 ? "ipv4" : v === 6 ? "ipv6" : undefined;
}

/** True when `address` (numeric) is in a special range: only an IP or CIDR entry of the policy reaches it. */
export function isSpecialAddress(address: string): boolean {
  const family = ipFamily(address);
  if (!family) return true;
  special ??= specialList();
  return special.check(address, family);
}
