import { packFields, unpackFields } from "../src/abi/channel.js";
import { Errno } from "../src/abi/errno.js";
import { ipBytes, ipText } from "../src/abi/ip-bytes.js";
import { AF } from "../src/abi/net.js";
import { Sys } from "../src/abi/syscalls.js";
import type { GuestMemory } from "./guest-memory.js";
import type { KernelClient } from "./kernel-client.js";

/**
 * host_net: the kernel's socket system calls for WebAssembly programs (guests/libposix/socket.c and netdb.c,
 * docs network §5). Numbers are the kernel's (Linux's, src/abi/net.ts); libposix maps wasi-libc's own constants
 * to them. An address crosses as a 20-byte record: u16 family (AF_INET 2, AF_INET6 10), u16 port (host order),
 * 16 address bytes (4 used for AF_INET). Bytes move through fd_read/fd_write too; readiness through poll_oneoff.
 *
 * Every pointer and length is the guest's and checked as such: EFAULT off its memory, EINVAL for a family or
 * address the record cannot hold.
 */
export const ADDR_RECORD = 20;
/** The longest host name net_resolve takes (DNS names are at most 253 characters). */
const MAX_NAME = 1024;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function netImports(mem: GuestMemory, k: KernelClient) {
  const fits = (ptr: number, len: number): boolean => ptr >>> 0 === ptr && len >>> 0 === len && ptr + len <= mem.bytes.length;

  /** The address of a record in guest memory, as the kernel takes it (text and port); an errno when it is not one. */
  const readAddr = (ptr: number): { text: string; port: number } | number => {
    if (!fits(ptr, ADDR_RECORD)) return Errno.EFAULT;
    const family = mem.view.getUint16(ptr, true);
    const port = mem.view.getUint16(ptr + 2, true);
    if (family === AF.INET) return { text: ipText(mem.bytes.slice(ptr + 4, ptr + 8)), port };
    if (family === AF.INET6) return { text: ipText(mem.bytes.slice(ptr + 4, ptr + 20)), port };
    return Errno.EAFNOSUPPORT;
  };
  /** Writes an address the kernel answered into a record (a Unix or unnamed address: family as given, no bytes). */
  const writeAddr = (ptr: number, family: number, port: number, text: string): void => {
    mem.bytes.fill(0, ptr, ptr + ADDR_RECORD);
    mem.view.setUint16(ptr, family, true);
    mem.view.setUint16(ptr + 2, port, true);
    const b = family === AF.INET || family === AF.INET6 ? ipBytes(text) : undefined;
    if (b) mem.bytes.set(b, ptr + 4);
  };
  const outU32 = (ptr: number, err: number, i = 0): number => {
    if (err === Errno.SUCCESS) mem.u32(ptr, k.out(i));
    return err;
  };

  const host_net = {
    /** sock_open(domain, type, ret_fd_ptr) -> errno: socket(2); type may carry SOCK_NONBLOCK and SOCK_CLOEXEC. */
    sock_open(domain: number, type: number, retPtr: number): number {
      if (!fits(retPtr, 4)) return Errno.EFAULT;
      return outU32(retPtr, k.call(Sys.SOCKET, [domain, type]));
    },
    /** sock_pair(domain, type, ret_fds_ptr) -> errno: socketpair(2), two u32 fds (AF_UNIX only, as the kernel has it). */
    sock_pair(domain: number, type: number, retPtr: number): number {
      if (!fits(retPtr, 8)) return Errno.EFAULT;
      const err = k.call(Sys.SOCKETPAIR, [domain, type]);
      if (err === Errno.SUCCESS) {
        mem.u32(retPtr, k.out(0));
        mem.u32(retPtr + 4, k.out(1));
      }
      return err;
    },
    /** sock_bind(fd, addr_ptr) -> errno; port 0 picks one (sock_name tells which). */
    sock_bind(fd: number, addrPtr: number): number {
      const a = readAddr(addrPtr);
      return typeof a === "number" ? a : k.callWith(Sys.BIND, [fd, a.port], encoder.encode(a.text));
    },
    sock_listen: (fd: number, backlog: number) => k.call(Sys.LISTEN, [fd, backlog]),
    /** sock_accept(fd, flags, ret_fd_ptr, addr_ptr) -> errno: the new fd and its peer's address (addr_ptr 0: not wanted). */
    sock_accept(fd: number, flags: number, retPtr: number, addrPtr: number): number {
      if (!fits(retPtr, 4) || (addrPtr !== 0 && !fits(addrPtr, ADDR_RECORD))) return Errno.EFAULT;
      const err = k.call(Sys.ACCEPT, [fd, flags]);
      if (err !== Errno.SUCCESS) return err;
      mem.u32(retPtr, k.out(0));
      if (addrPtr !== 0) writeAddr(addrPtr, k.out(2), k.out(1), decoder.decode(k.data.subarray(0, k.replyLength)));
      return Errno.SUCCESS;
    },
    /** sock_connect(fd, addr_ptr) -> errno: EINPROGRESS on a NONBLOCK fd whose connection goes on (then POLLOUT and SO_ERROR). */
    sock_connect(fd: number, addrPtr: number): number {
      const a = readAddr(addrPtr);
      return typeof a === "number" ? a : k.callWith(Sys.CONNECT, [fd, a.port], encoder.encode(a.text));
    },
    /** sock_name(fd, peer, addr_ptr) -> errno: getsockname (peer 0) or getpeername (peer 1). */
    sock_name(fd: number, peer: number, addrPtr: number): number {
      if (!fits(addrPtr, ADDR_RECORD)) return Errno.EFAULT;
      const err = k.call(peer ? Sys.GETPEERNAME : Sys.GETSOCKNAME, [fd]);
      if (err === Errno.SUCCESS) writeAddr(addrPtr, k.out(1), k.out(0), decoder.decode(k.data.subarray(0, k.replyLength)));
      return err;
    },
    /** sock_setopt(fd, level, name, value) -> errno: an integer option (ENOPROTOOPT for one the kernel does not know). */
    sock_setopt: (fd: number, level: number, name: number, value: number) => k.call(Sys.SETSOCKOPT, [fd, level, name, value]),
    /** sock_getopt(fd, level, name, ret_value_ptr) -> errno: an integer option; SO_ERROR reads and clears a connect's failure. */
    sock_getopt(fd: number, level: number, name: number, retPtr: number): number {
      if (!fits(retPtr, 4)) return Errno.EFAULT;
      return outU32(retPtr, k.call(Sys.GETSOCKOPT, [fd, level, name]));
    },
    /**
     * sock_send(fd, buf, len, flags, addr_ptr, ret_sent_ptr) -> errno: send, or sendto when addr_ptr is not 0. At
     * most one channel's worth per call (a short send, as POSIX allows).
     */
    sock_send(fd: number, buf: number, len: number, flags: number, addrPtr: number, retPtr: number): number {
      if (!fits(buf, len) || !fits(retPtr, 4)) return Errno.EFAULT;
      if (addrPtr === 0) {
        const n = Math.min(len, k.data.length);
        k.data.set(mem.slice(buf, n));
        return outU32(retPtr, k.call(Sys.SEND, [fd, flags], n));
      }
      const a = readAddr(addrPtr);
      if (typeof a === "number") return a;
      let n: number;
      try {
        n = packFields(k.data, [encoder.encode(a.text), mem.slice(buf, len)]);
      } catch {
        return Errno.EMSGSIZE;
      }
      return outU32(retPtr, k.call(Sys.SENDTO, [fd, a.port, flags], n));
    },
    /**
     * sock_recv(fd, buf, len, flags, addr_ptr, ret_len_ptr) -> errno: recv, or recvfrom with the sender's address
     * when addr_ptr is not 0. ret_len is what was copied (0: end of file); a longer datagram is cut to `len`.
     */
    sock_recv(fd: number, buf: number, len: number, flags: number, addrPtr: number, retPtr: number): number {
      if (!fits(buf, len) || !fits(retPtr, 4) || (addrPtr !== 0 && !fits(addrPtr, ADDR_RECORD))) return Errno.EFAULT;
      if (addrPtr === 0) {
        const err = k.call(Sys.RECV, [fd, Math.min(len, k.data.length), flags]);
        if (err !== Errno.SUCCESS) return err;
        const n = Math.min(k.replyLength, len);
        mem.bytes.set(k.data.subarray(0, n), buf);
        mem.u32(retPtr, n);
        return Errno.SUCCESS;
      }
      const err = k.call(Sys.RECVFROM, [fd, len, flags]);
      if (err !== Errno.SUCCESS) return err;
      const [addr, bytes] = unpackFields(k.data, k.replyLength);
      const n = Math.min(bytes?.length ?? 0, len);
      mem.bytes.set(bytes!.subarray(0, n), buf);
      writeAddr(addrPtr, k.out(2), k.out(0), decoder.decode(addr));
      mem.u32(retPtr, n);
      return Errno.SUCCESS;
    },
    /**
     * net_resolve(name_ptr, name_len, family, out_ptr, out_count, ret_count_ptr) -> errno: a host name's addresses
     * through the VM's resolver (policy, /etc/hosts, pin table), as records (port 0); family 0, 4 or 6. At most
     * out_count are written, ret_count tells how many there were. ENOENT: no such name or one the policy does not
     * allow (EAI_NONAME); ETIMEDOUT: the host's resolver failed for now (EAI_AGAIN).
     */
    net_resolve(namePtr: number, nameLen: number, family: number, outPtr: number, outCount: number, retPtr: number): number {
      if (!fits(namePtr, nameLen) || !fits(retPtr, 4) || outCount >>> 0 !== outCount || !fits(outPtr, outCount * ADDR_RECORD)) return Errno.EFAULT;
      if (nameLen === 0 || nameLen > MAX_NAME || (family !== 0 && family !== 4 && family !== 6)) return Errno.EINVAL;
      const err = k.callWith(Sys.RESOLVE, [family], mem.slice(namePtr, nameLen));
      if (err !== Errno.SUCCESS) return err;
      const lines = decoder.decode(k.data.subarray(0, k.replyLength)).split("\n").filter((l) => l !== "");
      let count = 0;
      for (const line of lines) {
        const [fam, text] = line.split(" ");
        if (ipBytes(text ?? "") === undefined) continue;
        if (count < outCount) writeAddr(outPtr + count * ADDR_RECORD, fam === "6" ? AF.INET6 : AF.INET, 0, text!);
        count++;
      }
      mem.u32(retPtr, count);
      return Errno.SUCCESS;
    },
  };
  return { host_net };
}
