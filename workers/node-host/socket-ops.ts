import { packFields, unpackFields } from "../../src/abi/channel.js";
import { Errno, errnoName } from "../../src/abi/errno.js";
import { SO, SOL_SOCKET } from "../../src/abi/net.js";
import { Sys } from "../../src/abi/syscalls.js";
import { SysError } from "../system.js";
import type { HostOp, HostState } from "./host-ops.js";

/**
 * Host operations behind the guest's `net`, `dgram` and `dns` (workers/node-guest/internal/net-sys.js): each a
 * thin wrapper of one socket system call. Arguments are checked with `typeof`; bytes go through the guest's
 * scratch buffer; an address comes back as one string "port\0family\0address" (addresses never hold NUL).
 */

/** The longest name RESOLVE is given (DNS names are at most 253 characters; IDNA text may be longer before conversion). */
const MAX_NAME_CHARS = 1024;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const str = (v: unknown): string => {
  if (typeof v !== "string") throw new SysError("EINVAL");
  return v;
};
const int = (v: unknown): number => {
  if (typeof v !== "number" || !Number.isInteger(v)) throw new SysError("EINVAL");
  return v;
};

export function socketOps(state: HostState): Record<string, HostOp> {
  const k = state.sys.k;
  const check = (err: number): void => {
    if (err !== Errno.SUCCESS) throw new SysError(errnoName(err));
  };
  const address = (portSlot: number): string =>
    `${k.out(portSlot)}\0${k.out(portSlot + 1)}\0${decoder.decode(k.data.subarray(0, k.channel.replyLength))}`;
  return {
    sockSocket: (domain, type) => {
      check(k.call(Sys.SOCKET, [int(domain), int(type)]));
      return k.out(0);
    },
    /** Answers the bound port (port 0 picks one). */
    sockBind: (fd, addr, port) => {
      check(k.callWith(Sys.BIND, [int(fd), int(port)], encoder.encode(str(addr))));
      return k.out(0);
    },
    sockListen: (fd, backlog) => check(k.call(Sys.LISTEN, [int(fd), int(backlog)])),
    /** Answers "newFd\0port\0family\0address" (the peer's). */
    sockAccept: (fd, flags) => {
      check(k.call(Sys.ACCEPT, [int(fd), int(flags)]));
      return `${k.out(0)}\0${address(1)}`;
    },
    sockConnect: (fd, addr, port) => check(k.callWith(Sys.CONNECT, [int(fd), int(port)], encoder.encode(str(addr)))),
    /** Sends the scratch's first `length` bytes; answers the count taken. */
    sockSend: (fd, length, flags) => {
      const n = Math.min(int(length), state.scratch.length, k.data.length);
      k.data.set(state.scratch.subarray(0, n));
      check(k.call(Sys.SEND, [int(fd), int(flags)], n));
      return k.out(0);
    },
    /** Receives at most `max` bytes into the scratch; answers the count (0: end of file). */
    sockRecv: (fd, max, flags) => {
      check(k.call(Sys.RECV, [int(fd), Math.min(int(max), state.scratch.length), int(flags)]));
      const n = k.channel.replyLength;
      state.scratch.set(k.data.subarray(0, n));
      return n;
    },
    /** A datagram of the scratch's first `length` bytes to `addr`:`port` ("" : the connected peer). */
    sockSendto: (fd, length, addr, port, flags) => {
      const n = Math.min(int(length), state.scratch.length);
      let len: number;
      try {
        len = packFields(k.data, [encoder.encode(str(addr)), state.scratch.subarray(0, n)]);
      } catch {
        throw new SysError("EMSGSIZE");
      }
      check(k.call(Sys.SENDTO, [int(fd), int(port), int(flags)], len));
      return k.out(0);
    },
    /** A datagram into the scratch; answers "copied\0length\0port\0family\0address" (length above copied: truncated). */
    sockRecvfrom: (fd, max, flags) => {
      check(k.call(Sys.RECVFROM, [int(fd), Math.min(int(max), state.scratch.length), int(flags)]));
      const [addr, bytes] = unpackFields(k.data, k.channel.replyLength);
      state.scratch.set(bytes!);
      return `${bytes!.length}\0${k.out(1)}\0${k.out(0)}\0${k.out(2)}\0${decoder.decode(addr)}`;
    },
    sockShutdown: (fd, how) => check(k.call(Sys.SHUTDOWN, [int(fd), int(how)])),
    /** "port\0family\0address" of the socket (peer false) or of its peer. */
    sockName: (fd, peer) => {
      check(k.call(peer === true ? Sys.GETPEERNAME : Sys.GETSOCKNAME, [int(fd)]));
      return address(0);
    },
    sockSetopt: (fd, level, name, value) => check(k.call(Sys.SETSOCKOPT, [int(fd), int(level), int(name), int(value)])),
    sockGetopt: (fd, level, name) => {
      check(k.call(Sys.GETSOCKOPT, [int(fd), int(level), int(name)]));
      return k.out(0);
    },
    /** How a connect that went on in the background ended (SO_ERROR): "" when it connected, else the errno's name. */
    sockConnectError: (fd) => {
      check(k.call(Sys.GETSOCKOPT, [int(fd), SOL_SOCKET, SO.ERROR]));
      const errno = k.out(0);
      return errno === Errno.SUCCESS ? "" : errnoName(errno);
    },
    /** The addresses of a host name (family 0, 4 or 6): "family address\n" per address. Waits for the kernel's resolver. */
    netResolve: (name, family) => {
      const n = str(name);
      const f = int(family);
      if (n.length === 0 || n.length > MAX_NAME_CHARS || (f !== 0 && f !== 4 && f !== 6)) throw new SysError("EINVAL");
      check(k.callWith(Sys.RESOLVE, [f], encoder.encode(n)));
      return decoder.decode(k.data.subarray(0, k.channel.replyLength));
    },
  };
}
