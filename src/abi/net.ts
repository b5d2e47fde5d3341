/**
 * Socket constants shared by the kernel and the guests (Linux's numbers, which the guests' libc and Node's
 * bindings already use). Addresses travel as UTF-8 strings: a numeric IPv4 or IPv6 address with the port
 * in an argument slot, or a Unix socket's path (port 0); "" is an unnamed address.
 */

export const AF = { UNSPEC: 0, UNIX: 1, INET: 2, INET6: 10 } as const;
export type AddressFamily = (typeof AF)["UNIX" | "INET" | "INET6"];

/** SOCKET's type argument: the type, or-ed with the creation flags. */
export const SOCK = { STREAM: 1, DGRAM: 2, TYPE_MASK: 0xf, NONBLOCK: 0x800, CLOEXEC: 0x80000 } as const;

/** Flags of SEND/RECV/SENDTO/RECVFROM. */
export const MSG = { PEEK: 0x2, TRUNC: 0x20, DONTWAIT: 0x40, NOSIGNAL: 0x4000 } as const;

export const SHUT = { RD: 0, WR: 1, RDWR: 2 } as const;

/** Option levels and names of SETSOCKOPT/GETSOCKOPT (the ones the kernel knows; others are ENOPROTOOPT). */
export const SOL_SOCKET = 1;
export const IPPROTO_TCP = 6;
export const IPPROTO_IPV6 = 41;
export const SO = {
  REUSEADDR: 2,
  TYPE: 3,
  ERROR: 4,
  BROADCAST: 6,
  SNDBUF: 7,
  RCVBUF: 8,
  KEEPALIVE: 9,
  REUSEPORT: 15,
  ACCEPTCONN: 30,
  DOMAIN: 39,
} as const;
export const TCP_NODELAY = 1;
export const IPV6_V6ONLY = 26;

/** Ports the kernel picks for bind(0) and for an unbound socket's connect or send. */
export const EPHEMERAL_FIRST = 49152;
export const EPHEMERAL_LAST = 65535;

/** The largest UDP payload: 65,535 minus the IP and UDP headers (IPv6's header is not in its length). */
export const MAX_UDP_PAYLOAD_V4 = 65_507;
export const MAX_UDP_PAYLOAD_V6 = 65_527;
