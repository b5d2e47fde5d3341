// Errors of the guest's realm, shaped as Node's: system errors (`ENOENT: no such file or directory, open
// '/x'` with errno, code, syscall, path, dest) and the coded errors of Node's argument checks.
'use strict';

const {
  Error,
  ObjectDefineProperty,
  String,
  TypeError,
  StringPrototypeIncludes,
  StringPrototypeSlice,
  StringPrototypeStartsWith,
} = require('internal/primordials');

/** errno name → [Linux errno (libuv's own codes above 3000), libuv's description], in libuv's order, as Node reports them. */
const ERRNO = {
  __proto__: null,
  E2BIG: [7, 'argument list too long'],
  EACCES: [13, 'permission denied'],
  EADDRINUSE: [98, 'address already in use'],
  EADDRNOTAVAIL: [99, 'address not available'],
  EAFNOSUPPORT: [97, 'address family not supported'],
  EAGAIN: [11, 'resource temporarily unavailable'],
  EAI_ADDRFAMILY: [3000, 'address family not supported'],
  EAI_AGAIN: [3001, 'temporary failure'],
  EAI_BADFLAGS: [3002, 'bad ai_flags value'],
  EAI_BADHINTS: [3013, 'invalid value for hints'],
  EAI_CANCELED: [3003, 'request canceled'],
  EAI_FAIL: [3004, 'permanent failure'],
  EAI_FAMILY: [3005, 'ai_family not supported'],
  EAI_MEMORY: [3006, 'out of memory'],
  EAI_NODATA: [3007, 'no address'],
  EAI_NONAME: [3008, 'unknown node or service'],
  EAI_OVERFLOW: [3009, 'argument buffer overflow'],
  EAI_PROTOCOL: [3014, 'resolved protocol is unknown'],
  EAI_SERVICE: [3010, 'service not available for socket type'],
  EAI_SOCKTYPE: [3011, 'socket type not supported'],
  EALREADY: [114, 'connection already in progress'],
  EBADF: [9, 'bad file descriptor'],
  EBUSY: [16, 'resource busy or locked'],
  ECANCELED: [125, 'operation canceled'],
  ECHARSET: [4080, 'invalid Unicode character'],
  ECONNABORTED: [103, 'software caused connection abort'],
  ECONNREFUSED: [111, 'connection refused'],
  ECONNRESET: [104, 'connection reset by peer'],
  EDESTADDRREQ: [89, 'destination address required'],
  EEXIST: [17, 'file already exists'],
  EFAULT: [14, 'bad address in system call argument'],
  EFBIG: [27, 'file too large'],
  EHOSTUNREACH: [113, 'host is unreachable'],
  EINTR: [4, 'interrupted system call'],
  EINVAL: [22, 'invalid argument'],
  EIO: [5, 'i/o error'],
  EISCONN: [106, 'socket is already connected'],
  EISDIR: [21, 'illegal operation on a directory'],
  ELOOP: [40, 'too many symbolic links encountered'],
  EMFILE: [24, 'too many open files'],
  EMSGSIZE: [90, 'message too long'],
  ENAMETOOLONG: [36, 'name too long'],
  ENETDOWN: [100, 'network is down'],
  ENETUNREACH: [101, 'network is unreachable'],
  ENFILE: [23, 'file table overflow'],
  ENOBUFS: [105, 'no buffer space available'],
  ENODEV: [19, 'no such device'],
  ENOENT: [2, 'no such file or directory'],
  ENOMEM: [12, 'not enough memory'],
  ENONET: [64, 'machine is not on the network'],
  ENOPROTOOPT: [92, 'protocol not available'],
  ENOSPC: [28, 'no space left on device'],
  ENOSYS: [38, 'function not implemented'],
  ENOTCONN: [107, 'socket is not connected'],
  ENOTDIR: [20, 'not a directory'],
  ENOTEMPTY: [39, 'directory not empty'],
  ENOTSOCK: [88, 'socket operation on non-socket'],
  ENOTSUP: [95, 'operation not supported on socket'],
  EOVERFLOW: [75, 'value too large for defined data type'],
  EPERM: [1, 'operation not permitted'],
  EPIPE: [32, 'broken pipe'],
  EPROTO: [71, 'protocol error'],
  EPROTONOSUPPORT: [93, 'protocol not supported'],
  EPROTOTYPE: [91, 'protocol wrong type for socket'],
  ERANGE: [34, 'result too large'],
  EROFS: [30, 'read-only file system'],
  ESHUTDOWN: [108, 'cannot send after transport endpoint shutdown'],
  ESPIPE: [29, 'invalid seek'],
  ESRCH: [3, 'no such process'],
  ETIMEDOUT: [110, 'connection timed out'],
  ETXTBSY: [26, 'text file is busy'],
  EXDEV: [18, 'cross-device link not permitted'],
  UNKNOWN: [4094, 'unknown error'],
  EOF: [4095, 'end of file'],
  ENXIO: [6, 'no such device or address'],
  EMLINK: [31, 'too many links'],
  EHOSTDOWN: [112, 'host is down'],
  EREMOTEIO: [121, 'remote I/O error'],
  ENOTTY: [25, 'inappropriate ioctl for device'],
  EFTYPE: [4028, 'inappropriate file type or format'],
  EILSEQ: [84, 'illegal byte sequence'],
  ESOCKTNOSUPPORT: [94, 'socket type not supported'],
  ENODATA: [61, 'no data available'],
  EUNATCH: [49, 'protocol driver not attached'],
  // Not in Node 20's map: Node 22 added ENOEXEC to it; ECHILD, EINPROGRESS and ENOTFOUND (getaddrinfo's
  // EAI_NONAME as Node names it) are reported but never listed (UNLISTED).
  ENOEXEC: [8, 'exec format error'],
  ECHILD: [10, 'no child processes'],
  EINPROGRESS: [115, 'operation in progress'],
  ENOTFOUND: [3008, 'unknown node or service'],
};

function sysError(code, syscall, path, dest) {
  const known = ERRNO[code] || [0, 'unknown error'];
  const errno = known[0];
  const text = known[1];
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
  ObjectDefineProperty(e, 'code', { value: code, enumerable: true, writable: true, configurable: true });
  // Node's coded errors print as `TypeError [CODE]: message` in their stack.
  const stack = e.stack;
  if (typeof stack === 'string' && StringPrototypeStartsWith(stack, `${e.name}: `)) e.stack = `${e.name} [${code}]${StringPrototypeSlice(stack, e.name.length)}`;
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
  let shown = typeof value === 'string' ? `'${value.length > 25 ? `${StringPrototypeSlice(value, 0, 25)}...` : value}'` : String(value);
  if (typeof value === 'bigint') shown += 'n';
  return ` Received type ${typeof value} (${shown})`;
}

function invalidArgType(name, expected, value) {
  const what = StringPrototypeIncludes(name, '.') ? 'property' : 'argument';
  return codeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "${name}" ${what} must be ${expected}.${received(value)}`);
}

/** ERRNO's names that util.getSystemErrorMap does not list. */
const UNLISTED = ['ECHILD', 'EINPROGRESS', 'ENOTFOUND'];

module.exports = { ERRNO, UNLISTED, sysError, codeError, invalidArgType, received };
