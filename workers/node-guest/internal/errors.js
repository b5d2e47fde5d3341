// Errors of the guest's realm, shaped as Node's: system errors (`ENOENT: no such file or directory, open
// '/x'` with errno, code, syscall, path, dest) and the coded errors of Node's argument checks.
'use strict';

/** errno name → [Linux errno, libuv's description], as Node reports them. */
const ERRNO = {
  __proto__: null,
  E2BIG: [7, 'argument list too long'],
  EACCES: [13, 'permission denied'],
  EAGAIN: [11, 'resource temporarily unavailable'],
  EBADF: [9, 'bad file descriptor'],
  ECHILD: [10, 'no child processes'],
  EEXIST: [17, 'file already exists'],
  EFAULT: [14, 'bad address in system call argument'],
  EINTR: [4, 'interrupted system call'],
  EINVAL: [22, 'invalid argument'],
  EIO: [5, 'i/o error'],
  EISDIR: [21, 'illegal operation on a directory'],
  ELOOP: [40, 'too many symbolic links encountered'],
  EMFILE: [24, 'too many open files'],
  ENAMETOOLONG: [36, 'name too long'],
  ENOENT: [2, 'no such file or directory'],
  ENOEXEC: [8, 'exec format error'],
  ENOMEM: [12, 'not enough memory'],
  ENOSPC: [28, 'no space left on device'],
  ENOSYS: [38, 'function not implemented'],
  ENOTDIR: [20, 'not a directory'],
  ENOTEMPTY: [39, 'directory not empty'],
  ENOTSUP: [95, 'operation not supported on socket'],
  ENOTTY: [25, 'inappropriate ioctl for device'],
  EPERM: [1, 'operation not permitted'],
  EPIPE: [32, 'broken pipe'],
  ERANGE: [34, 'result too large'],
  EROFS: [30, 'read-only file system'],
  ESPIPE: [29, 'invalid seek'],
  ESRCH: [3, 'no such process'],
  ETIMEDOUT: [110, 'connection timed out'],
  EXDEV: [18, 'cross-device link not permitted'],
  EILSEQ: [84, 'illegal byte sequence'],
};

function sysError(code, syscall, path, dest) {
  const [errno, text] = ERRNO[code] || [0, 'unknown error'];
  let message = `${code}: ${text}, ${syscall}`;
  if (path !== undefined) message += ` '${path}'`;
  if (dest !== undefined) message += ` -> '${dest}'`;
  const e = new Error(message);
  e.errno = -errno;
  e.code = code;
  e.syscall = syscall;
  if (path !== undefined) e.path = path;
  if (dest !== undefined) e.dest = dest;
  return e;
}

function codeError(Ctor, code, message) {
  const e = new Ctor(message);
  Object.defineProperty(e, 'code', { value: code, enumerable: true, writable: true, configurable: true });
  // Node's coded errors print as `TypeError [CODE]: message` in their stack.
  const stack = e.stack;
  if (typeof stack === 'string' && stack.startsWith(`${e.name}: `)) e.stack = `${e.name} [${code}]${stack.slice(e.name.length)}`;
  return e;
}

/** Node's description of a received value in ERR_INVALID_ARG_TYPE. */
function received(value) {
  if (value == null) return ` Received ${value}`;
  if (typeof value === 'function') return ` Received function ${value.name}`;
  if (typeof value === 'object') {
    const name = value.constructor && value.constructor.name;
    return name ? ` Received an instance of ${name}` : ' Received [Object: null prototype]';
  }
  let shown = typeof value === 'string' ? `'${value.length > 25 ? `${value.slice(0, 25)}...` : value}'` : String(value);
  if (typeof value === 'bigint') shown += 'n';
  return ` Received type ${typeof value} (${shown})`;
}

function invalidArgType(name, expected, value) {
  const what = name.includes('.') ? 'property' : 'argument';
  return codeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "${name}" ${what} must be ${expected}.${received(value)}`);
}

module.exports = { ERRNO, sysError, codeError, invalidArgType, received };
