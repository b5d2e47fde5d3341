// The guest's socket system calls (host ops in workers/node-host/socket-ops.ts) and Node's error shapes for
// them. Sockets are made non-blocking: a call that would wait throws EAGAIN, and the kernel has then armed the
// wake ring for that direction, so the caller waits with waitFd(..., armed = true).
'use strict';

const {
  Error,
  MathMin,
  Number,
  RegExp,
  ArrayPrototypeFilter,
  ArrayPrototypeIncludes,
  ArrayPrototypeJoin,
  ArrayPrototypeSlice,
  StringPrototypeEndsWith,
  StringPrototypeIndexOf,
  StringPrototypeReplace,
  StringPrototypeSlice,
  StringPrototypeSplit,
  StringPrototypeToLowerCase,
  RegExpPrototypeExec,
  ArrayPrototypeReverse,
  GetLength,
  hardenRegExp,
} = require('internal/primordials');

const { ERRNO } = require('internal/errors');
const host = internal.host;
const isFailure = internal.isFailure;
const CHUNK = internal.scratchBytes;

const AF_UNIX = 1;
const AF_INET = 2;
const AF_INET6 = 10;
const SOCK_STREAM = 1;
const SOCK_DGRAM = 2;
const SOCK_NONBLOCK = 0x800;
const SOCK_CLOEXEC = 0x80000;
const MSG_NOSIGNAL = 0x4000;
const SOL_SOCKET = 1;
const IPPROTO_TCP = 6;
const SO_KEEPALIVE = 9;
const SO_RCVBUF = 8;
const SO_SNDBUF = 7;
const TCP_NODELAY = 1;

const errnoOf = (code) => ERRNO[code] || [0, 'unknown error'];

/**
 * A failed call: the errno name, turned into Node's error by the caller, which knows the address. An Error
 * itself (with the errno and code), so that one no caller converts is still what a program can handle.
 */
class Failure extends Error {
  constructor(code) {
    super(`${code}: ${errnoOf(code)[1]}`);
    this.errno = -errnoOf(code)[0];
    this.code = code;
  }
}

function op(name, a, b, c, d, e) {
  const r = host(name, a, b, c, d, e);
  if (isFailure(r)) throw new Failure(StringPrototypeSlice(r, 2));
  return r;
}

const details = (address, port) => (port && port > 0 ? ` ${address}:${port}` : address ? ` ${address}` : '');

/** Node's errnoException: `read ECONNRESET`. */
function errnoException(code, syscall) {
  const e = new Error(`${syscall} ${code}`);
  e.errno = -errnoOf(code)[0];
  e.code = code;
  e.syscall = syscall;
  return e;
}

/** Node's exceptionWithHostPort: `connect ECONNREFUSED 127.0.0.1:1`. */
function exceptionWithHostPort(code, syscall, address, port) {
  const e = new Error(`${syscall} ${code}${details(address, port)}`);
  e.errno = -errnoOf(code)[0];
  e.code = code;
  e.syscall = syscall;
  e.address = address;
  if (port) e.port = port;
  return e;
}

/** Node's uvExceptionWithHostPort: `listen EADDRINUSE: address already in use :::3000`. */
function uvExceptionWithHostPort(code, syscall, address, port) {
  const e = new Error(`${syscall} ${code}: ${errnoOf(code)[1]}${details(address, port)}`);
  e.code = code;
  e.errno = -errnoOf(code)[0];
  e.syscall = syscall;
  e.address = address;
  if (port) e.port = port;
  return e;
}

const familyName = (af) => (af === AF_INET6 ? 'IPv6' : af === AF_INET ? 'IPv4' : 'unix');

/** "port\0family\0address" → { address, family, port }. */
function parseAddress(s) {
  const a = StringPrototypeSplit(s, '\0');
  return { address: ArrayPrototypeJoin(ArrayPrototypeSlice(a, 2), '\0'), family: familyName(Number(a[1])), port: Number(a[0]) };
}

const net = {
  __proto__: null,
  AF_UNIX,
  AF_INET,
  AF_INET6,
  Failure,
  CHUNK,
  socket: (domain, dgram) => op('sockSocket', domain, (dgram ? SOCK_DGRAM : SOCK_STREAM) | SOCK_NONBLOCK | SOCK_CLOEXEC),
  bind: (fd, address, port) => op('sockBind', fd, address, port),
  listen: (fd, backlog) => op('sockListen', fd, backlog),
  /** The next connection: { fd, address, family, port } of the peer. EAGAIN when none is queued. */
  accept(fd) {
    const r = op('sockAccept', fd, SOCK_NONBLOCK);
    const i = StringPrototypeIndexOf(r, '\0');
    const peer = parseAddress(StringPrototypeSlice(r, i + 1));
    peer.fd = Number(StringPrototypeSlice(r, 0, i));
    return peer;
  },
  /** Connects; answers true when the connection is on its way (an outbound one: EINPROGRESS), false when made. */
  connect(fd, address, port) {
    try {
      op('sockConnect', fd, address, port);
    } catch (e) {
      if (e.code === 'EINPROGRESS') return true;
      throw e;
    }
    return false;
  },
  /** How a connection that was on its way ended: '' when made, else the errno's name (SO_ERROR). */
  connectError: (fd) => op('sockConnectError', fd),
  /** Sends from `bytes` (offset, length); answers the count taken (a short send when the peer's buffer fills). */
  send(fd, bytes, offset, length) {
    let total = 0;
    while (total < length) {
      const n = MathMin(length - total, CHUNK);
      internal.toScratch(bytes, offset + total, offset + total + n);
      let sent;
      try {
        sent = op('sockSend', fd, n, MSG_NOSIGNAL);
      } catch (e) {
        if (total > 0 && e.code === 'EAGAIN') return total;
        throw e;
      }
      total += sent;
      if (sent < n) break;
    }
    return total;
  },
  /** Receives at most `max` bytes: a new Uint8Array (empty at end of file). */
  recv(fd, max) {
    const n = op('sockRecv', fd, MathMin(max, CHUNK), 0);
    return internal.scratchCopy(n);
  },
  sendto(fd, bytes, address, port) {
    if (GetLength(bytes) > CHUNK) throw new Failure('EMSGSIZE');
    internal.toScratch(bytes);
    return op('sockSendto', fd, GetLength(bytes), address, port, MSG_NOSIGNAL);
  },
  /** The next datagram: { bytes, address, family, port, truncated }. */
  recvfrom(fd) {
    const r = StringPrototypeSplit(op('sockRecvfrom', fd, CHUNK, 0), '\0');
    const copied = Number(r[0]);
    return {
      bytes: internal.scratchCopy(copied),
      truncated: Number(r[1]) > copied,
      port: Number(r[2]),
      family: familyName(Number(r[3])),
      address: ArrayPrototypeJoin(ArrayPrototypeSlice(r, 4), '\0'),
    };
  },
  shutdown: (fd, how) => op('sockShutdown', fd, how),
  sockname: (fd) => parseAddress(op('sockName', fd, false)),
  peername: (fd) => parseAddress(op('sockName', fd, true)),
  setopt: (fd, level, name, value) => op('sockSetopt', fd, level, name, value),
  getopt: (fd, level, name) => op('sockGetopt', fd, level, name),
  close(fd) {
    try {
      op('close', fd);
    } catch {
      // Closing fails only for an fd that is already gone.
    }
  },
  unlink(path) {
    try {
      op('unlink', path);
    } catch {
      // Already removed.
    }
  },
  SOL_SOCKET,
  IPPROTO_TCP,
  SO_KEEPALIVE,
  SO_RCVBUF,
  SO_SNDBUF,
  TCP_NODELAY,
  errnoOf,
  errnoException,
  exceptionWithHostPort,
  uvExceptionWithHostPort,
};

module.exports = net;

// Node's own address patterns (lib/internal/net.js).
const v4Seg = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])';
const v4Str = `(?:${v4Seg}\\.){3}${v4Seg}`;
const IPv4Reg = new RegExp(`^${v4Str}$`);
const v6Seg = '(?:[0-9a-fA-F]{1,4})';
const IPv6Reg = new RegExp('^(?:' +
  `(?:${v6Seg}:){7}(?:${v6Seg}|:)|` +
  `(?:${v6Seg}:){6}(?:${v4Str}|:${v6Seg}|:)|` +
  `(?:${v6Seg}:){5}(?::${v4Str}|(?::${v6Seg}){1,2}|:)|` +
  `(?:${v6Seg}:){4}(?:(?::${v6Seg}){0,1}:${v4Str}|(?::${v6Seg}){1,3}|:)|` +
  `(?:${v6Seg}:){3}(?:(?::${v6Seg}){0,2}:${v4Str}|(?::${v6Seg}){1,4}|:)|` +
  `(?:${v6Seg}:){2}(?:(?::${v6Seg}){0,3}:${v4Str}|(?::${v6Seg}){1,5}|:)|` +
  `(?:${v6Seg}:){1}(?:(?::${v6Seg}){0,4}:${v4Str}|(?::${v6Seg}){1,6}|:)|` +
  `(?::(?:(?::${v6Seg}){0,5}:${v4Str}|(?::${v6Seg}){1,7}|:))` +
')(?:%[0-9a-zA-Z-.:]{1,})?$');
net.isIPv4 = (s) => RegExpPrototypeExec(IPv4Reg, `${s}`) !== null;
net.isIPv6 = (s) => RegExpPrototypeExec(IPv6Reg, `${s}`) !== null;
net.isIP = (s) => (net.isIPv4(s) ? 4 : net.isIPv6(s) ? 6 : 0);

/** Node's dnsException: `getaddrinfo ENOTFOUND example.com`. */
net.dnsException = (code, syscall, hostname) => {
  const e = new Error(`${syscall} ${code}${hostname ? ` ${hostname}` : ''}`);
  e.errno = code === 'ENOTFOUND' ? -3008 : code === 'EAI_AGAIN' ? -3001 : undefined;
  e.code = code;
  e.syscall = syscall;
  if (hostname) e.hostname = hostname;
  return e;
};

const LOCAL_NAMES = ['localhost', 'localhost.localdomain', 'ip6-localhost', 'ip6-loopback'];

/**
 * The kernel resolver's addresses of `name` (/etc/hosts, then the host's resolver for the names the network
 * policy allows): [{ address, family }], or a failure: 'ENOTFOUND' (no such name, or not allowed), 'EAI_AGAIN'.
 */
function resolveName(name, family) {
  let text;
  try {
    text = op('netResolve', name, family);
  } catch (e) {
    return { list: [], code: e.code === 'ETIMEDOUT' ? 'EAI_AGAIN' : 'ENOTFOUND' };
  }
  const list = [];
  const lines = StringPrototypeSplit(text, '\n');
  for (let i = 0; i < lines.length; i++) {
    const space = StringPrototypeIndexOf(lines[i], ' ');
    if (space < 0) continue;
    const f = Number(StringPrototypeSlice(lines[i], 0, space));
    list[list.length] = { address: StringPrototypeSlice(lines[i], space + 1), family: f === 6 ? 6 : 4 };
  }
  return { list, code: list.length ? undefined : 'ENOTFOUND' };
}

/** `list` in getaddrinfo's order for dns's `order` ('verbatim', 'ipv4first', 'ipv6first'). */
function ordered(list, order) {
  if (order === 'verbatim') return list;
  const first = order === 'ipv6first' ? 6 : 4;
  const a = ArrayPrototypeFilter(list, (x) => x.family === first);
  const b = ArrayPrototypeFilter(list, (x) => x.family !== first);
  for (let i = 0; i < b.length; i++) a[a.length] = b[i];
  return a;
}

/**
 * The addresses `hostname` has in the VM: { list: [{ address, family }], code } where code says why the list
 * is empty ('ENOTFOUND', 'EAI_AGAIN'). Literals and the loopback's names are answered here; any other name
 * goes to the kernel's resolver (the call waits for it).
 */
net.lookupAddresses = (hostname, family, order) => {
  const literal = net.isIP(hostname);
  if (literal) return family === 0 || family === literal ? { list: [{ address: hostname, family: literal }] } : { list: [], code: 'ENOTFOUND' };
  const name = StringPrototypeReplace(StringPrototypeToLowerCase(hostname), hardenRegExp(/\.$/), '');
  if (!ArrayPrototypeIncludes(LOCAL_NAMES, name) && !StringPrototypeEndsWith(name, '.localhost')) {
    const r = resolveName(hostname, family || 0);
    return { list: ordered(r.list, order), code: r.code };
  }
  let list = [{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }];
  if (order === 'ipv6first') ArrayPrototypeReverse(list);
  if (family) list = ArrayPrototypeFilter(list, (a) => a.family === family);
  return { list, code: list.length ? undefined : 'ENOTFOUND' };
};

/** The addresses `hostname` has in the VM (lookupAddresses' list): [{ address, family }], empty when none. */
net.addressesOf = (hostname, family, order) => net.lookupAddresses(hostname, family, order).list;
