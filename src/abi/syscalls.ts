/**
 * The one list of system calls between a process host (worker) and its kernel. Each entry documents its
 * wire layout: `args` are the i32 argument slots, `payload` the request bytes, `out` the i32 result slots
 * and `reply` the response bytes. 64-bit values travel as (lo, hi) pairs of slots. Paths are UTF-8.
 * Every call answers an errno in RET; the kernel dispatch table and the worker stubs are both keyed by it.
 */
export const Sys = {
  /** args: fd, maxLen · reply: the bytes read (RLEN = count, 0 = end of file). Parks on an empty pipe (EAGAIN on a NONBLOCK fd). */
  READ: 1,
  /** args: fd · payload: bytes · out: [written] (on a NONBLOCK fd what fits: less, or EAGAIN) */
  WRITE: 2,
  /** args: fd, offLo, offHi, whence · out: [posLo, posHi] */
  SEEK: 3,
  /** args: fd */
  CLOSE: 4,
  /** args: fd · out: [filetype, fdflags, access: bit 0 readable, bit 1 writable] */
  FDSTAT: 5,
  /** args: fd · reply: filestat (64 bytes) · out: [mode] (as FDMODE) */
  FSTAT: 6,
  /** args: fd, sizeLo, sizeHi */
  FTRUNCATE: 7,
  /**
   * args: fd, cookie, statsFor · reply: entries `ino u64, type u8, namelen u16, name` · out: [count, endReached].
   * With statsFor > 0 (the bytes of the guest's dirent buffer): the reply starts with the directory's path
   * (`len u16, path`), each entry is followed by `ok u8, filestat, mode u32` — what STAT of it (not followed) answers
   * now (`.`: of the directory's path); ok 0 for `..` and an entry STAT would fail on — and the entries stop once their WASI dirents
   * (24 bytes and the name each) fill statsFor bytes.
   */
  READDIR: 8,
  /** args: fd · out: [mode] (0 for stdio, pipes, unknown) */
  FDMODE: 9,
  /** args: fd · out: [isTerminal] */
  ISATTY: 10,
  /** args: fd · out: [newFd] */
  DUP: 11,
  /** out: [readFd, writeFd] */
  PIPE: 12,
  /** args: dirfd, oflags, fdflags, wantRead, wantWrite, followSymlinks · payload: path · out: [fd] */
  OPEN: 13,
  /** args: dirfd, followSymlinks · payload: path · reply: filestat · out: [mode] (st_mode, with the permission bits) */
  STAT: 14,
  /** args: dirfd · payload: path */
  MKDIR: 15,
  /** args: dirfd · payload: path */
  RMDIR: 16,
  /** args: dirfd · payload: path */
  UNLINK: 17,
  /** args: oldDirfd, newDirfd · payload: fields [old, new] */
  RENAME: 18,
  /** args: dirfd · payload: fields [target, linkPath] */
  SYMLINK: 19,
  /** args: oldDirfd, newDirfd, followSymlinks (of old) · payload: fields [old, new] */
  LINK: 20,
  /** args: dirfd · payload: path · reply: target */
  READLINK: 21,
  /** args: followSymlinks · payload: path (root-preopen relative) · out: [mode] (0 = unknown) */
  PATHMODE: 22,
  /** args: mode · payload: path */
  CHMOD: 23,
  /**
   * args: stdinFd, stdoutFd, stderrFd · payload: fields [argv NUL-terminated, envp NUL-terminated, cwd, and
   * optionally the fds above 2 the child inherits: u32 pairs (child's fd, caller's fd)] · out: [pid]
   */
  SPAWN: 24,
  /** args: pid, options · out: [status, pid]. Parks until a child changes state. */
  WAITPID: 25,
  /** args: pid, signal */
  KILL: 26,
  /** out: [pid] */
  GETPID: 27,
  /** args: ms. Parks for that long. */
  SLEEP: 28,
  /** args: fd, fdflags. NONBLOCK is kept per fd (fd-table.ts); APPEND is the open file's; the rest is ignored. */
  SETFL: 29,
  /**
   * args: count, hasTimeout, timeoutNsLo, timeoutNsHi · payload: count × (fd u32, eventType u32), eventType
   * FD_READ or FD_WRITE · reply: count × (errno u16, flags u16, nbytes u32), flags bit 0 = ready, bit 1 =
   * hang-up · out: [readyCount, timedOut]. Parks until one fd is ready or the (relative) timeout passes.
   */
  POLL: 30,
  /** args: pid · out: [fd]. A new fd that reads end of file once that child has exited (pid-fd.ts). */
  PIDFD: 31,
  /** reply: the process's working directory, absolute (RLEN = its length). */
  GETCWD: 32,
  /**
   * args: dirfd (or fd), followSymlinks, fstflags (WASI: ATIM 1, ATIM_NOW 2, MTIM 4, MTIM_NOW 8; and
   * UTIMES_EXACT 16), onFd · payload: atime and mtime as float64 milliseconds (16 bytes), or u64 nanoseconds
   * with UTIMES_EXACT, then the path (none with onFd).
   */
  UTIMES: 33,
  /** reply: why the process's last spawn could not exec, in bash's words: `PATH: TEXT` (ENOENT when it did not fail so). */
  SPAWNERROR: 34,
  /** args: mask (bit N: signal N is caught, queued instead of ending the process) · out: [fd] of the process's queue (signal-fd.ts). */
  SIGCATCH: 35,
  /**
   * args: fd, events (WakeEvent bits) · One-shot interest for the process's wake ring (wake-ring.ts): the
   * kernel appends `(fd, events)` to the ring once the fd is ready (at once if it already is).
   */
  ARM: 36,
  /**
   * args: dirfd · payload: path · reply: the whole file (links followed). ERANGE when it is larger than the
   * channel's payload: the caller then reads it with OPEN and READ. One call where a module loader made four.
   */
  READFILE: 37,
  /** args: dirfd · payload: path · reply: its canonical path. ERANGE inside a host mount (resolve it link by link there). */
  REALPATH: 38,
  /**
   * Sockets (src/abi/net.ts for the constants; addresses are UTF-8 strings, see there). A call that would
   * wait answers EAGAIN on a NONBLOCK fd or with MSG_DONTWAIT and arms the wake ring for that direction
   * in the same call (guest-js §4.3); otherwise it parks.
   *
   * args: domain (AF), type (SOCK_STREAM | SOCK_DGRAM, | SOCK_NONBLOCK | SOCK_CLOEXEC) · out: [fd]
   */
  SOCKET: 39,
  /** args: fd, port · payload: address (Unix: the path) · out: [port] (the one bound: port 0 picks one) */
  BIND: 40,
  /** args: fd, backlog (≤ 0: the default) */
  LISTEN: 41,
  /** args: fd, flags (SOCK_NONBLOCK) · out: [newFd, peerPort, peerFamily] · reply: the peer's address. Parks until a connection is queued. */
  ACCEPT: 42,
  /** args: fd, port · payload: address. A loopback connect completes at once. */
  CONNECT: 43,
  /** args: fd, flags (MSG_DONTWAIT, MSG_NOSIGNAL) · payload: bytes · out: [sent] (what fits: a short send). Parks while the peer's buffer is full. */
  SEND: 44,
  /**
   * args: fd, maxLen, flags (MSG_PEEK, MSG_DONTWAIT) · reply: the bytes (RLEN 0 = end of file) · out: [length]: a
   * datagram's whole length (more than the reply when it was cut to maxLen). Parks until data or end of file.
   */
  RECV: 45,
  /** args: fd, port, flags · payload: fields [address, bytes] (address "": the connected peer) · out: [sent] */
  SENDTO: 46,
  /**
   * args: fd, maxLen, flags · out: [port, length, family] (length: the whole datagram's, above maxLen when
   * it was truncated) · reply: fields [address, bytes]. Parks until a datagram arrives.
   */
  RECVFROM: 47,
  /** args: fd, how (SHUT_RD 0, SHUT_WR 1, SHUT_RDWR 2) */
  SHUTDOWN: 48,
  /** args: fd · out: [port, family] · reply: the local address */
  GETSOCKNAME: 49,
  /** args: fd · out: [port, family] · reply: the peer's address */
  GETPEERNAME: 50,
  /** args: fd, level, name, value */
  SETSOCKOPT: 51,
  /** args: fd, level, name · out: [value] */
  GETSOCKOPT: 52,
  /** args: domain (AF_UNIX), type (as SOCKET) · out: [fd0, fd1], connected to each other */
  SOCKETPAIR: 53,
  /**
   * The VM's file system, as its quota counts it (fs-quota.ts) · reply: 4 float64: bytes held, maxFsBytes,
   * inodes held, maxFsInodes.
   */
  STATFS: 54,
  /** args: fd, mode: chmod of the file the fd was opened from (one without a path, a pipe or a socket: nothing to change) */
  FCHMOD: 55,
  /**
   * out: [fd]. A new fd that reads end of file, and polls readable, while the VM could start a process
   * (fewer than limits.maxProcesses run and the worker pool has room); reading it before parks, or answers
   * EAGAIN on a NONBLOCK fd (room-fd.ts). A shell waits on it to try a spawn that failed with EAGAIN again.
   */
  ROOMFD: 56,
  /** args: fd, maxLen, offLo, offHi · reply: the bytes read at that offset (the fd's offset does not move) */
  PREAD: 57,
  /** args: fd, offLo, offHi · payload: bytes · out: [written] at that offset (at the end with APPEND); the fd's offset does not move */
  PWRITE: 58,
  /** args: from, to. Both must be open: `to` is closed and `from` moves there (fd_renumber, dup2 then close). */
  RENUMBER: 59,
  /** args: fd, offLo, offHi, lenLo, lenHi. The file grows to at least offset + len (posix_fallocate). */
  ALLOCATE: 60,
  /** args: fd, offLo, offHi, lenLo, lenHi, advice (WASI's 0-5). Checked, then ignored: everything is in memory. */
  ADVISE: 61,
  /** out: [ppid] (0 for a process the host started) */
  GETPPID: 62,
  /**
   * args: pid, options · out: [status, pid]. POSIX's waitpid, where WAITPID keeps the published binaries'
   * convention: WNOHANG while the children run answers pid 0, and a pid that is not a child ECHILD. Parks until
   * a child exits.
   */
  WAIT: 63,
  /** args: dirfd, mode · payload: path, resolved against dirfd as path_* paths are (fchmodat) */
  CHMODAT: 64,
  /**
   * args: fd. fsync/fdatasync: everything is written through at once, so nothing is flushed; EINVAL for what
   * cannot be synced (a pipe, a device), as on Linux.
   */
  FSYNC: 65,
  /**
   * args: maxArgvBytes (0: no limit) · reply: the VM's processes as JSON (ERANGE when longer than the payload):
   * `{ now, processes: [{ pid, ppid, pgid, state, startMs, memoryKiB, argv }] }`, state "R" (computing), "S"
   * (waiting in a system call) or "Z" (exited, its status not yet collected); the caller itself is "R"; each
   * argv cut to about maxArgvBytes (whole arguments, the last one shortened). What `ps` lists.
   */
  PROCLIST: 66,
  /**
   * args: family (0, 4, 6) · payload: a host name · reply: "family address\n" per address (getaddrinfo). Parks while
   * the host looks the name up. ENOENT: no such name, or one the network policy does not allow (no query was
   * made; EAI_NONAME); ETIMEDOUT: the host's resolver failed for now (EAI_AGAIN).
   */
  RESOLVE: 67,
  /**
   * args: pid (0: every process) · reply: the open files of the VM's running processes as JSON (ERANGE when longer
   * than the payload): `[{ pid, command, files: [{ fd, access, type, dev?, size?, node?, name, proto?, local?,
   * remote?, state? }] }]` (src/kernel/open-files.ts), the working and root directories first. What `lsof` lists.
   */
  OPENFILES: 68,
  /**
   * args: pid · Makes the caller's child `pid` a thread of the caller (a guest `node`'s worker_threads.Worker):
   * it is killed when the caller exits, as a process's threads end with it, and a heap that runs out ends it
   * without the fatal message a process prints (its parent reports it as Node reports a worker's).
   */
  THREADOF: 69,
} as const;

export type SysName = keyof typeof Sys;
export type SysNumber = (typeof Sys)[SysName];
