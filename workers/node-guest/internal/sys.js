// internal.sys (README.md): the guest's synchronous system calls over the host function, with Node's
// errors. Bytes move through the scratch buffer in pieces of its size.
'use strict';

const {
  MathFloor,
  MathMin,
  Uint8Array,
  ArrayPrototypeConcat,
  ArrayPrototypeFlat,
  ArrayPrototypeJoin,
  ArrayPrototypePush,
  StringPrototypeSlice,
  StringPrototypeSplit,
  GetLength,
} = require('internal/primordials');

const { sysError } = require('internal/errors');
const host = internal.host;
const isFailure = internal.isFailure;
const f64 = internal.scratchF64;
const CHUNK = internal.scratchBytes;

function call(syscall, path, dest, op, a, b, c, d, e, f) {
  const r = host(op, a, b, c, d, e, f);
  if (isFailure(r)) throw sysError(StringPrototypeSlice(r, 2), syscall, path, dest);
  return r;
}

const statArray = () => [f64[0], f64[1], f64[2], f64[3], f64[4], f64[5], f64[6], f64[7], f64[8], f64[9], f64[10], f64[11], f64[12], f64[13]];

const sys = {
  open: (path, flags, mode) => call('open', path, undefined, 'open', path, flags, mode === undefined ? 0o666 : mode),
  close: (fd) => call('close', undefined, undefined, 'close', fd),
  read(fd, target, offset, length, position) {
    let total = 0;
    while (total < length) {
      const want = MathMin(length - total, CHUNK);
      let n;
      try {
        n = call('read', undefined, undefined, 'read', fd, want, position < 0 ? -1 : position + total);
      } catch (e) {
        // A non-blocking fd emptied after a full chunk: what was read counts.
        if (total > 0 && e.code === 'EAGAIN') break;
        throw e;
      }
      internal.fromScratch(target, offset + total, n);
      total += n;
      // A short read is what there is now (a pipe, the end of a file).
      if (n < want) break;
    }
    return total;
  },
  write(fd, source, offset, length, position) {
    let total = 0;
    while (total < length) {
      const n = MathMin(length - total, CHUNK);
      internal.toScratch(source, offset + total, offset + total + n);
      let written;
      try {
        written = call('write', undefined, undefined, 'write', fd, n, position < 0 ? -1 : position + total);
      } catch (e) {
        // A non-blocking fd filled up after an earlier chunk: what was written counts (as write(2)'s answer).
        if (total > 0 && e.code === 'EAGAIN') break;
        throw e;
      }
      total += written;
      if (written < n) break;
    }
    return total;
  },
  stat(path, follow) {
    call(follow === false ? 'lstat' : 'stat', path, undefined, 'stat', path, follow !== false);
    return statArray();
  },
  fstat(fd) {
    call('fstat', undefined, undefined, 'fstat', fd);
    return statArray();
  },
  readdir(path) {
    const r = call('scandir', path, undefined, 'readdir', path);
    if (r === '') return [];
    const parts = StringPrototypeSplit(r, '\0');
    const out = [];
    for (let i = 0; i < parts.length; i += 2) ArrayPrototypePush(out, [parts[i], parts[i + 1]]);
    return out;
  },
  mkdir: (path, mode) => call('mkdir', path, undefined, 'mkdir', path, mode === undefined ? 0o777 : mode),
  rmdir: (path) => call('rmdir', path, undefined, 'rmdir', path),
  unlink: (path) => call('unlink', path, undefined, 'unlink', path),
  rename: (from, to) => call('rename', from, to, 'rename', from, to),
  symlink: (target, path) => call('symlink', target, path, 'symlink', target, path),
  link: (existing, path) => call('link', existing, path, 'link', existing, path),
  chmod: (path, mode) => call('chmod', path, undefined, 'chmod', path, mode),
  fchmod: (fd, mode) => call('fchmod', undefined, undefined, 'fchmod', fd, mode),
  /** [bytes held, maxFsBytes, inodes held, maxFsInodes] of the file system `path` is on. */
  statfs(path) {
    call('statfs', path, undefined, 'statfs', path);
    return [f64[0], f64[1], f64[2], f64[3]];
  },
  ftruncate: (fd, length) => call('ftruncate', undefined, undefined, 'ftruncate', fd, length),
  utimes: (path, atimeMs, mtimeMs, follow) => call(follow === false ? 'lutime' : 'utime', path, undefined, 'utimes', path, atimeMs, mtimeMs, follow !== false),
  futimes: (fd, atimeMs, mtimeMs) => call('futime', undefined, undefined, 'futimes', fd, atimeMs, mtimeMs),
  fsync: (fd) => call('fsync', undefined, undefined, 'fsync', fd),
  access: (path, mode) => call('access', path, undefined, 'access', path, mode === undefined ? 0 : mode),
  readlink: (path) => call('readlink', path, undefined, 'readlink', path),
  realpath: (path) => call('realpath', path, undefined, 'realpath', path),
  cwd: () => call('uv_cwd', undefined, undefined, 'cwd'),
  chdir: (path) => call('chdir', path, undefined, 'chdir', path),
  // Beyond the file system: what process, child_process and the event loop need.
  setNonblocking: (fd, on) => call('fcntl', undefined, undefined, 'setNonblocking', fd, on),
  arm: (fd, events) => call('arm', undefined, undefined, 'arm', fd, events),
  isatty: (fd) => host('isatty', fd) === true,
  fdType: (fd) => call('fstat', undefined, undefined, 'fdType', fd),
  pipe() {
    const r = call('pipe', undefined, undefined, 'pipe');
    return [MathFloor(r / 65536), r % 65536];
  },
  /** fds: the child's 0-2 (-1: /dev/null); more: [childFd, callerFd] pairs for its fds above 2. */
  spawn: (file, argv, env, cwd, fds, more) => call('spawn', file, undefined, 'spawn', ArrayPrototypeJoin(argv, '\0'), ArrayPrototypeJoin(env, '\0'), cwd, ArrayPrototypeJoin(ArrayPrototypeConcat(fds, ArrayPrototypeFlat(more)), ',')),
  /** A connected pair of sockets (a duplex pipe). */
  spawnPair() {
    const r = call('socketpair', undefined, undefined, 'spawnPair');
    return [MathFloor(r / 65536), r % 65536];
  },
  waitpid: (pid, block) => call('waitpid', undefined, undefined, 'waitpid', pid, block === true),
  pidfd: (pid) => call('pidfd', undefined, undefined, 'pidfd', pid),
  kill: (pid, signal) => call('kill', undefined, undefined, 'kill', pid, signal),
  /** Makes child `pid` a thread of this process: it ends when this process does (a Worker's process). */
  threadOf: (pid) => call('threadof', undefined, undefined, 'threadOf', pid),
  sigcatch: (mask) => call('sigaction', undefined, undefined, 'sigcatch', mask),
  pollRead: (fds) => call('poll', undefined, undefined, 'pollRead', ArrayPrototypeJoin(fds, ',')),
  /** Bulk bytes to the host's pending input (for hashes and zlib). */
  put(bytes) {
    for (let off = 0, length = GetLength(bytes); off < length; off += CHUNK) {
      const n = MathMin(CHUNK, GetLength(bytes) - off);
      internal.toScratch(bytes, off, off + n);
      call('put', undefined, undefined, 'put', n);
    }
  },
  /** The host's last bulk output, `length` bytes, as a new Uint8Array. */
  take(length) {
    const out = new Uint8Array(length);
    for (let off = 0; off < length; ) {
      const n = call('take', undefined, undefined, 'take', off);
      if (n === 0) break;
      internal.fromScratch(out, off, n);
      off += n;
    }
    return out;
  },
};

module.exports = sys;
