import { Errno } from "../src/abi/errno.js";
import { FILESTAT_SIZE } from "../src/abi/filestat.js";
import { MSG, SHUT, SOCK } from "../src/abi/net.js";
import { Sys } from "../src/abi/syscalls.js";
import { ClockId, FdFlags, FstFlags, LookupFlags, RiFlags, RO_DATA_TRUNCATED, OFlags, PREOPENTYPE_NOT_DIR, Rights, rightsOf, ROOT_PREOPEN_FD, UTIMES_EXACT, Whence } from "../src/abi/wasi.js";
import type { GuestMemory } from "./guest-memory.js";
import { GuestExit, type KernelClient } from "./kernel-client.js";
import { guestClocks } from "./guest-clocks.js";
import { pollOneoff } from "./poll-oneoff.js";
import { ListedStats } from "./listed-stats.js";

const encoder = new TextEncoder();

/** A u64 as the (lo, hi) argument slots of a system call. */
const split = (n: bigint): [number, number] => [Number(n & 0xffffffffn), Number((n >> 32n) & 0xffffffffn)];

/** WASI's last signal number (SIGSYS); Linux's numbers of the signals ignored by default, and of those that stop. */
const WASI_SIGSYS = 30;
const IGNORED_SIGNALS = new Set([17, 18, 23, 28]); // CHLD, CONT, URG, WINCH
const STOP_SIGNALS = new Set([19, 20, 21, 22]); // STOP, TSTP, TTIN, TTOU

/** `err` when the call failed, else `then`. */
const orErrno = (err: number, then: number): number => (err === Errno.SUCCESS ? then : err);

/** Sizes of the argument and environment vectors as WASI lays them out: NUL-terminated strings. */
function vectorSizes(items: readonly Uint8Array[]): [number, number] {
  return [items.length, items.reduce((n, s) => n + s.length + 1, 0)];
}

/**
 * wasi_snapshot_preview1 for one process: guest pointers and iovecs become plain values here, and every
 * call that concerns files, pipes or processes goes to the kernel. `rootFd` is its preopen (Process.rootFd).
 */
export function wasiPreview1(mem: GuestMemory, k: KernelClient, argv: readonly string[], env: readonly string[], rootFd = ROOT_PREOPEN_FD) {
  const args = argv.map((a) => encoder.encode(a));
  const envs = env.map((e) => encoder.encode(e));
  const clocks = guestClocks();
  const listed = new ListedStats(rootFd);
  k.listedStats = listed;
  const decoder = new TextDecoder();

  const writeVector = (items: Uint8Array[], ptrs: number, buf: number): number => {
    const bytes = mem.bytes;
    for (const item of items) {
      mem.u32(ptrs, buf);
      ptrs += 4;
      bytes.set(item, buf);
      bytes[buf + item.length] = 0;
      buf += item.length + 1;
    }
    return Errno.SUCCESS;
  };

  const path = (ptr: number, len: number): Uint8Array => mem.slice(ptr, len);

  /** Copies a reply payload into guest memory. */
  const copyReply = (dst: number, len: number): void => {
    mem.bytes.set(k.data.subarray(0, len), dst);
  };

  /** UTIMES: the times in nanoseconds, then the path; on the fd itself without one. */
  const setTimes = (fd: number, follow: number, flags: number, atim: bigint, mtim: bigint, target: Uint8Array | undefined): number => {
    // A time and "now" for the same one contradict each other; no other bits exist.
    const { ATIM, ATIM_NOW, MTIM, MTIM_NOW } = FstFlags;
    if ((flags & ATIM && flags & ATIM_NOW) || (flags & MTIM && flags & MTIM_NOW) || flags & ~(ATIM | ATIM_NOW | MTIM | MTIM_NOW)) return Errno.EINVAL;
    if (target && 16 + target.length > k.data.length) return Errno.ENAMETOOLONG;
    const view = new DataView(k.data.buffer, k.data.byteOffset, 16);
    view.setBigUint64(0, atim, true);
    view.setBigUint64(8, mtim, true);
    if (target) k.data.set(target, 16);
    return k.call(Sys.UTIMES, [fd, follow, flags | UTIMES_EXACT, target ? 0 : 1], 16 + (target?.length ?? 0));
  };

  const iovecs = (iovs: number, count: number): Array<[number, number]> => {
    const view = mem.view;
    const out: Array<[number, number]> = [];
    for (let i = 0; i < count; i++) out.push([view.getUint32(iovs + i * 8, true), view.getUint32(iovs + i * 8 + 4, true)]);
    return out;
  };

  /** Spreads the first `got` bytes of the reply over the iovecs; returns `got`. */
  const scatter = (vecs: Array<[number, number]>, got: number): number => {
    let off = 0;
    for (const [ptr, len] of vecs) {
      if (off >= got) break;
      const n = Math.min(len, got - off);
      mem.bytes.set(k.data.subarray(off, off + n), ptr);
      off += n;
    }
    return got;
  };

  /**
   * Writes the iovecs' bytes a channel's payload at a time: `call(length, done)` sends the chunk in the payload
   * and answers an errno, the count written in OUT0. A short write or an error after some bytes ends it there.
   */
  const writeGathered = (iovs: number, count: number, writtenPtr: number, call: (length: number, done: number) => number): number => {
    let total = 0;
    for (const chunk of gather(iovecs(iovs, count))) {
      k.data.set(chunk);
      const err = call(chunk.length, total);
      if (err !== Errno.SUCCESS) {
        if (total === 0) return err;
        break;
      }
      total += k.out(0);
      if (k.out(0) < chunk.length) break;
    }
    mem.u32(writtenPtr, total);
    return Errno.SUCCESS;
  };

  /** The iovecs' bytes in chunks of at most a channel's payload (an empty write: one empty chunk). */
  function* gather(vecs: Array<[number, number]>): Generator<Uint8Array> {
    let left = vecs.reduce((n, [, len]) => n + len, 0);
    let chunk = new Uint8Array(Math.min(left, k.data.length));
    let fill = 0;
    if (left === 0) yield chunk;
    for (const [ptr, len] of vecs) {
      for (let off = 0; off < len; ) {
        const n = Math.min(len - off, chunk.length - fill);
        chunk.set(mem.slice(ptr + off, n), fill);
        fill += n;
        off += n;
        if (fill === chunk.length) {
          yield chunk;
          left -= fill;
          chunk = new Uint8Array(Math.min(left, k.data.length));
          fill = 0;
        }
      }
    }
  }

  return {
    args_sizes_get(argcPtr: number, sizePtr: number): number {
      const [n, size] = vectorSizes(args);
      mem.u32(argcPtr, n);
      mem.u32(sizePtr, size);
      return Errno.SUCCESS;
    },
    args_get: (ptrs: number, buf: number) => writeVector(args, ptrs, buf),
    environ_sizes_get(countPtr: number, sizePtr: number): number {
      const [n, size] = vectorSizes(envs);
      mem.u32(countPtr, n);
      mem.u32(sizePtr, size);
      return Errno.SUCCESS;
    },
    environ_get: (ptrs: number, buf: number) => writeVector(envs, ptrs, buf),

    fd_write(fd: number, iovs: number, count: number, nwrittenPtr: number): number {
      const data = k.data;
      let total = 0;
      let fill = 0;
      // A short write (a NONBLOCK fd whose pipe filled up) ends the call: the rest was not written.
      const flush = (): number => {
        if (fill === 0) return Errno.SUCCESS;
        const err = k.call(Sys.WRITE, [fd], fill);
        const wanted = fill;
        fill = 0;
        if (err !== Errno.SUCCESS) return err;
        total += k.out(0);
        return k.out(0) < wanted ? Errno.EAGAIN : Errno.SUCCESS;
      };
      for (const [ptr, len] of iovecs(iovs, count)) {
        for (let off = 0; off < len; ) {
          const n = Math.min(len - off, data.length - fill);
          data.set(mem.slice(ptr + off, n), fill);
          fill += n;
          off += n;
          if (fill === data.length) {
            const err = flush();
            if (err !== Errno.SUCCESS) return total > 0 ? (mem.u32(nwrittenPtr, total), Errno.SUCCESS) : err;
          }
        }
      }
      // Nothing to write still needs an fd that can be written (the kernel's write of 0 bytes checks it).
      const err = fill === 0 && total === 0 ? k.call(Sys.WRITE, [fd], 0) : flush();
      if (err !== Errno.SUCCESS && total === 0) return err;
      mem.u32(nwrittenPtr, total);
      return Errno.SUCCESS;
    },

    fd_read(fd: number, iovs: number, count: number, nreadPtr: number): number {
      const vecs = iovecs(iovs, count);
      const want = Math.min(
        vecs.reduce((n, [, len]) => n + len, 0),
        k.data.length,
      );
      const err = k.call(Sys.READ, [fd, want]);
      if (err !== Errno.SUCCESS) return err;
      mem.u32(nreadPtr, scatter(vecs, k.replyLength));
      return Errno.SUCCESS;
    },

    fd_close: (fd: number) => k.call(Sys.CLOSE, [fd]),
    fd_sync: (fd: number) => k.call(Sys.FSYNC, [fd]),
    fd_datasync: (fd: number) => k.call(Sys.FSYNC, [fd]),

    fd_pread(fd: number, iovs: number, count: number, offset: bigint, nreadPtr: number): number {
      const vecs = iovecs(iovs, count);
      const want = Math.min(
        vecs.reduce((n, [, len]) => n + len, 0),
        k.data.length,
      );
      const err = k.call(Sys.PREAD, [fd, want, ...split(offset)]);
      if (err !== Errno.SUCCESS) return err;
      mem.u32(nreadPtr, scatter(vecs, k.replyLength));
      return Errno.SUCCESS;
    },

    fd_pwrite: (fd: number, iovs: number, count: number, offset: bigint, nwrittenPtr: number) =>
      writeGathered(iovs, count, nwrittenPtr, (length, done) => k.call(Sys.PWRITE, [fd, ...split(offset + BigInt(done))], length)),

    fd_tell(fd: number, offsetPtr: number): number {
      const err = k.call(Sys.SEEK, [fd, 0, 0, Whence.CUR]);
      if (err === Errno.SUCCESS) mem.u64(offsetPtr, (BigInt(k.out(1)) << 32n) | BigInt(k.out(0) >>> 0));
      return err;
    },

    fd_renumber: (from: number, to: number) => k.call(Sys.RENUMBER, [from, to]),
    fd_allocate: (fd: number, offset: bigint, len: bigint) => k.call(Sys.ALLOCATE, [fd, ...split(offset), ...split(len)]),
    fd_advise: (fd: number, offset: bigint, len: bigint, advice: number) =>
      k.call(Sys.ADVISE, [fd, ...split(offset), ...split(len), advice]),

    fd_fdstat_get(fd: number, ptr: number): number {
      const err = k.call(Sys.FDSTAT, [fd]);
      if (err !== Errno.SUCCESS) return err;
      const view = mem.view;
      const [base, inheriting] = rightsOf(k.out(0), k.out(2));
      view.setUint8(ptr, k.out(0));
      view.setUint16(ptr + 2, k.out(1), true);
      view.setBigUint64(ptr + 8, base, true);
      view.setBigUint64(ptr + 16, inheriting, true);
      return Errno.SUCCESS;
    },
    // Rights are what the fd can do (fd_fdstat_get); they cannot be narrowed, as in wasmtime, since
    // preview2 has none.
    fd_fdstat_set_rights: (fd: number) => orErrno(k.call(Sys.FDSTAT, [fd]), Errno.ENOTSUP),

    fd_filestat_get(fd: number, ptr: number): number {
      const err = k.call(Sys.FSTAT, [fd]);
      if (err === Errno.SUCCESS) copyReply(ptr, FILESTAT_SIZE);
      return err;
    },

    fd_filestat_set_times: (fd: number, atim: bigint, mtim: bigint, flags: number) => setTimes(fd, 0, flags, atim, mtim, undefined),
    path_filestat_set_times: (dirfd: number, lookup: number, p: number, l: number, atim: bigint, mtim: bigint, flags: number) =>
      setTimes(dirfd, lookup & LookupFlags.SYMLINK_FOLLOW, flags, atim, mtim, path(p, l)),

    fd_filestat_set_size(fd: number, size: bigint): number {
      return k.call(Sys.FTRUNCATE, [fd, Number(size & 0xffffffffn), Number(size >> 32n)]);
    },

    // libc finds its preopens by asking fd 3, 4, … until EBADF: the fds below the root preopen, inherited
    // or closed, answer "not a directory preopen", which wasi-libc and Go skip (ENOTDIR would make
    // wasi-libc exit with EX_OSERR).
    fd_prestat_get(fd: number, ptr: number): number {
      if (fd < ROOT_PREOPEN_FD || fd > rootFd) return Errno.EBADF;
      mem.view.setUint8(ptr, fd === rootFd ? 0 : PREOPENTYPE_NOT_DIR);
      mem.u32(ptr + 4, fd === rootFd ? 1 : 0);
      return Errno.SUCCESS;
    },
    fd_prestat_dir_name(fd: number, ptr: number, len: number): number {
      if (fd !== rootFd) return Errno.EBADF;
      if (len < 1) return Errno.ENAMETOOLONG; // as wasmtime: the buffer cannot hold the name
      mem.bytes[ptr] = 0x2f; // "/"
      return Errno.SUCCESS;
    },

    fd_seek(fd: number, offset: bigint, whence: number, newOffsetPtr: number): number {
      const err = k.call(Sys.SEEK, [fd, Number(offset & 0xffffffffn), Number(offset >> 32n), whence]);
      if (err === Errno.SUCCESS) mem.u64(newOffsetPtr, (BigInt(k.out(1)) << 32n) | BigInt(k.out(0) >>> 0));
      return err;
    },

    fd_readdir(fd: number, buf: number, bufLen: number, cookie: bigint, usedPtr: number): number {
      let used = 0;
      let index = Number(cookie);
      const view = mem.view;
      const bytes = mem.bytes;
      // Ask the kernel for entries from `index` on until the guest buffer is full or the directory ends; with
      // their stats, kept for the path_filestat_get calls that usually follow (listed-stats.ts).
      for (;;) {
        const err = k.call(Sys.READDIR, [fd, index, Math.max(1, bufLen - used)]);
        if (err !== Errno.SUCCESS) return err;
        const count = k.out(0);
        const reply = k.channel.view;
        const dirLength = reply.getUint16(0, true);
        listed.begin(fd, decoder.decode(k.data.subarray(2, 2 + dirLength)), count);
        let off = 2 + dirLength;
        for (let i = 0; i < count; i++) {
          const ino = reply.getBigUint64(off, true);
          const type = reply.getUint8(off + 8);
          const namelen = reply.getUint16(off + 9, true);
          const name = k.data.subarray(off + 11, off + 11 + namelen);
          off += 11 + namelen;
          if (reply.getUint8(off) === 1) listed.add(decoder.decode(name), k.data.subarray(off + 1, off + 1 + FILESTAT_SIZE + 4));
          off += 1 + FILESTAT_SIZE + 4;
          index++;
          // 24-byte dirent header, then the name; a truncated last entry tells the guest to retry bigger.
          const header = new Uint8Array(24);
          const hv = new DataView(header.buffer);
          hv.setBigUint64(0, BigInt(index), true);
          hv.setBigUint64(8, ino, true);
          hv.setUint32(16, namelen, true);
          hv.setUint8(20, type);
          const entry = new Uint8Array(24 + namelen);
          entry.set(header);
          entry.set(name, 24);
          const n = Math.min(entry.length, bufLen - used);
          bytes.set(entry.subarray(0, n), buf + used);
          used += n;
          if (used >= bufLen) {
            view.setUint32(usedPtr, used, true);
            return Errno.SUCCESS;
          }
        }
        if (k.out(1) === 1 || count === 0) break;
      }
      view.setUint32(usedPtr, used, true);
      return Errno.SUCCESS;
    },

    path_open(
      dirfd: number,
      dirflags: number,
      pathPtr: number,
      pathLen: number,
      oflags: number,
      rightsBase: bigint,
      _rightsInheriting: bigint,
      fdflags: number,
      fdPtr: number,
    ): number {
      const wantWrite = (rightsBase & Rights.FD_WRITE) !== 0n || (oflags & (OFlags.CREAT | OFlags.TRUNC)) !== 0;
      const wantRead = (rightsBase & Rights.FD_READ) !== 0n;
      const follow = dirflags & LookupFlags.SYMLINK_FOLLOW ? 1 : 0;
      const err = k.callWith(
        Sys.OPEN,
        [dirfd, oflags, fdflags, wantRead ? 1 : 0, wantWrite ? 1 : 0, follow],
        path(pathPtr, pathLen),
      );
      if (err === Errno.SUCCESS) mem.u32(fdPtr, k.out(0));
      return err;
    },

    path_filestat_get(dirfd: number, flags: number, pathPtr: number, pathLen: number, buf: number): number {
      const follow = (flags & LookupFlags.SYMLINK_FOLLOW) !== 0;
      const kept = listed.lookup(dirfd, decoder.decode(mem.slice(pathPtr, pathLen)), follow);
      if (kept) {
        mem.bytes.set(kept.subarray(0, FILESTAT_SIZE), buf);
        return Errno.SUCCESS;
      }
      const err = k.callWith(Sys.STAT, [dirfd, flags & LookupFlags.SYMLINK_FOLLOW], path(pathPtr, pathLen));
      if (err === Errno.SUCCESS) copyReply(buf, FILESTAT_SIZE);
      return err;
    },

    path_readlink(dirfd: number, pathPtr: number, pathLen: number, buf: number, bufLen: number, usedPtr: number): number {
      const err = k.callWith(Sys.READLINK, [dirfd], path(pathPtr, pathLen));
      if (err !== Errno.SUCCESS) return err;
      const n = Math.min(k.replyLength, bufLen);
      copyReply(buf, n);
      mem.u32(usedPtr, n);
      return Errno.SUCCESS;
    },

    path_create_directory: (dirfd: number, p: number, l: number) => k.callWith(Sys.MKDIR, [dirfd], path(p, l)),
    path_remove_directory: (dirfd: number, p: number, l: number) => k.callWith(Sys.RMDIR, [dirfd], path(p, l)),
    path_unlink_file: (dirfd: number, p: number, l: number) => k.callWith(Sys.UNLINK, [dirfd], path(p, l)),
    path_rename: (fd: number, op: number, ol: number, nfd: number, np: number, nl: number) =>
      k.callWithFields(Sys.RENAME, [fd, nfd], [path(op, ol), path(np, nl)]),
    path_symlink: (op: number, ol: number, fd: number, np: number, nl: number) =>
      k.callWithFields(Sys.SYMLINK, [fd], [path(op, ol), path(np, nl)]),
    path_link: (ofd: number, flags: number, op: number, ol: number, nfd: number, np: number, nl: number) =>
      k.callWithFields(Sys.LINK, [ofd, nfd, flags & LookupFlags.SYMLINK_FOLLOW], [path(op, ol), path(np, nl)]),

    random_get(buf: number, len: number): number {
      for (let off = 0; off < len; off += 65536) crypto.getRandomValues(mem.slice(buf + off, Math.min(65536, len - off)));
      return Errno.SUCCESS;
    },

    clock_time_get(id: number, _precision: bigint, ptr: number): number {
      if (id > ClockId.THREAD_CPUTIME) return Errno.EINVAL;
      // Knowing the time, the process could know of a change made since the listing (listed-stats.ts).
      listed.forget();
      mem.u64(ptr, clocks.now(id));
      return Errno.SUCCESS;
    },
    clock_res_get(id: number, ptr: number): number {
      if (id > ClockId.THREAD_CPUTIME) return Errno.EINVAL;
      mem.u64(ptr, clocks.resolution(id));
      return Errno.SUCCESS;
    },

    poll_oneoff: (inPtr: number, outPtr: number, nsubs: number, neventsPtr: number) =>
      pollOneoff(mem, k, clocks, inPtr, outPtr, nsubs, neventsPtr),

    sched_yield: () => Errno.SUCCESS,
    proc_exit(code: number): never {
      throw new GuestExit(code);
    },
    /**
     * Sends a signal to the process itself, as kill(getpid(), sig): WASI numbers its signals as Linux does up
     * to SIGTERM (15) and one lower from there on (it has no SIGSTKFLT). The ones Linux ignores by default
     * do nothing; stopping a process is not supported (ENOTSUP); any other ends it, unless it catches it.
     */
    proc_raise(signal: number): number {
      if (signal > WASI_SIGSYS) return Errno.EINVAL;
      const linux = signal <= 15 ? signal : signal + 1;
      if (signal === 0 || IGNORED_SIGNALS.has(linux)) return Errno.SUCCESS;
      if (STOP_SIGNALS.has(linux)) return Errno.ENOTSUP;
      const err = k.call(Sys.GETPID);
      return err === Errno.SUCCESS ? k.call(Sys.KILL, [k.out(0), linux]) : err;
    },
    fd_fdstat_set_flags: (fd: number, flags: number) => k.call(Sys.SETFL, [fd, flags]),

    // The VM's sockets (a socket fd comes from a parent that made it, e.g. a shell's or node's): ENOTSOCK
    // for any other fd, as on Linux.
    sock_accept(fd: number, flags: number, fdPtr: number): number {
      if (flags & ~FdFlags.NONBLOCK) return Errno.EINVAL;
      const err = k.call(Sys.ACCEPT, [fd, flags & FdFlags.NONBLOCK ? SOCK.NONBLOCK : 0]);
      if (err === Errno.SUCCESS) mem.u32(fdPtr, k.out(0));
      return err;
    },
    sock_recv(fd: number, iovs: number, count: number, riFlags: number, nreadPtr: number, roFlagsPtr: number): number {
      if (riFlags & ~(RiFlags.RECV_PEEK | RiFlags.RECV_WAITALL)) return Errno.EINVAL;
      const vecs = iovecs(iovs, count);
      const want = Math.min(
        vecs.reduce((n, [, len]) => n + len, 0),
        k.data.length,
      );
      const peek = riFlags & RiFlags.RECV_PEEK ? MSG.PEEK : 0;
      const err = k.call(Sys.RECV, [fd, want, peek]);
      if (err !== Errno.SUCCESS) return err;
      let got = k.replyLength;
      // A datagram longer than the buffers is cut, and says so (ROFLAGS_DATA_TRUNCATED), as recv's MSG_TRUNC.
      const truncated = k.out(0) > got;
      // WAITALL: more receives until the buffers are full or the stream ends (or fails: what came is kept).
      if (riFlags & RiFlags.RECV_WAITALL && !peek && got > 0 && got < want) {
        const all = new Uint8Array(want);
        all.set(k.data.subarray(0, got));
        while (got < want && k.call(Sys.RECV, [fd, want - got, 0]) === Errno.SUCCESS && k.replyLength > 0) {
          all.set(k.data.subarray(0, k.replyLength), got);
          got += k.replyLength;
        }
        k.data.set(all.subarray(0, got));
      }
      mem.u32(nreadPtr, scatter(vecs, got));
      mem.view.setUint16(roFlagsPtr, truncated ? RO_DATA_TRUNCATED : 0, true);
      return Errno.SUCCESS;
    },
    sock_send: (fd: number, iovs: number, count: number, _siFlags: number, nsentPtr: number) =>
      writeGathered(iovs, count, nsentPtr, (length) => k.call(Sys.SEND, [fd, 0], length)),
    sock_shutdown(fd: number, how: number): number {
      const shut = [undefined, SHUT.RD, SHUT.WR, SHUT.RDWR][how];
      if (shut === undefined) {
        const err = k.call(Sys.FDSTAT, [fd]);
        return err === Errno.SUCCESS ? Errno.EINVAL : err;
      }
      return k.call(Sys.SHUTDOWN, [fd, shut]);
    },
  };
}

