// The guest's `fs`: Node's fs API (sync, callback, streams; the promises API lives in fs-promises.js) over the
// synchronous system calls of `internal.sys`. Every operation is done synchronously; the callback forms call
// back on a later tick. Intrinsics come from internal/primordials (as they were before any guest code ran).
'use strict';

const {
  ObjectDefineProperty,
  ObjectFreeze,
  ObjectKeys,
  ObjectSetPrototypeOf,
  ArrayPrototypePush,
  ArrayPrototypePop,
  ArrayPrototypeUnshift,
  ArrayPrototypeJoin,
  ArrayPrototypeSlice,
  StringPrototypeSlice,
  StringPrototypeIndexOf,
  StringPrototypeEndsWith,
  StringPrototypeLastIndexOf,
  StringPrototypeSplit,
  StringPrototypeCharCodeAt,
  StringPrototypeReplace,
  StringPrototypeToLowerCase,
  StringPrototypeIncludes,
  StringPrototypeStartsWith,
  NumberIsInteger,
  NumberIsFinite,
  NumberParseInt,
  MathMin,
  MathMax,
  MathFloor,
  MathRound,
  MathRandom,
  DateNow,
  DatePrototypeGetTime,
  PromiseResolve,
  PromisePrototypeThen,
  ArrayBufferIsView,
  ArrayIsArray,
  MathCeil,
  WeakSetPrototypeAdd,
  WeakSetPrototypeHas,
  SymbolAsyncIterator,
  SymbolFor,
  ReflectApply,
  BigInt,
  Date,
  Error,
  Map,
  Number,
  Promise,
  RangeError,
  Symbol,
  TypeError,
  Uint8Array,
  WeakSet,
  decodeURIComponent,
  FunctionPrototypeCall,
  TypedArrayPrototypeGetSymbolToStringTag,
  uncurryThis,
  RegExpPrototypeExec,
  ObjectGetOwnPropertyDescriptor,
  StringPrototypeToUpperCase,
  SafeMap,
  SafeArrayIterator,
  ArrayPrototypeSome, TypedArrayPrototypeSubarray,
  NumberPrototypeToString, SymbolPrototypeToString,
  GetBuffer,
  GetByteOffset,
  GetByteLength,
  GetLength,
  hardenRegExp,
} = require('internal/primordials');
const { BufferPrototypeToString } = require('internal/buffer-primordials');

const sys = internal.sys;
const { Buffer } = require('buffer');

const uncurry = uncurryThis;
const DateCtor = Date;
const decodeURIComponentFn = decodeURIComponent;
const PromiseCtor = Promise;
const ErrorCtor = Error;
const TypeErrorCtor = TypeError;
const RangeErrorCtor = RangeError;
const Uint8ArrayCtor = Uint8Array;
const TypedArrayGetTag = TypedArrayPrototypeGetSymbolToStringTag;
const WeakSetCtor = WeakSet;
const SymbolCtor = Symbol;
const NumberCtor = Number;
const queueMicrotaskFn = typeof queueMicrotask === 'function' ? queueMicrotask : undefined;
const BigIntType = 'bigint';
const BigIntCtor = BigInt;
const kNsPerMsBigInt = 1000000n;

const kMaxLength = 0x7fffffff;
const kReadChunk = 64 * 1024;

// ---- constants (Linux values, as Node's fs.constants) -------------------------------------------------------

const constants = ObjectFreeze({
  __proto__: null,
  UV_FS_SYMLINK_DIR: 1, UV_FS_SYMLINK_JUNCTION: 2,
  O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2,
  UV_DIRENT_UNKNOWN: 0, UV_DIRENT_FILE: 1, UV_DIRENT_DIR: 2, UV_DIRENT_LINK: 3, UV_DIRENT_FIFO: 4,
  UV_DIRENT_SOCKET: 5, UV_DIRENT_CHAR: 6, UV_DIRENT_BLOCK: 7,
  EXTENSIONLESS_FORMAT_JAVASCRIPT: 0, EXTENSIONLESS_FORMAT_WASM: 1,
  S_IFMT: 61440, S_IFREG: 32768, S_IFDIR: 16384, S_IFCHR: 8192, S_IFBLK: 24576, S_IFIFO: 4096,
  S_IFLNK: 40960, S_IFSOCK: 49152,
  O_CREAT: 64, O_EXCL: 128, UV_FS_O_FILEMAP: 0, O_NOCTTY: 256, O_TRUNC: 512, O_APPEND: 1024,
  O_DIRECTORY: 65536, O_NOATIME: 262144, O_NOFOLLOW: 131072, O_SYNC: 1052672, O_DSYNC: 4096,
  O_DIRECT: 16384, O_NONBLOCK: 2048,
  S_IRWXU: 448, S_IRUSR: 256, S_IWUSR: 128, S_IXUSR: 64, S_IRWXG: 56, S_IRGRP: 32, S_IWGRP: 16,
  S_IXGRP: 8, S_IRWXO: 7, S_IROTH: 4, S_IWOTH: 2, S_IXOTH: 1,
  F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1,
  UV_FS_COPYFILE_EXCL: 1, COPYFILE_EXCL: 1, UV_FS_COPYFILE_FICLONE: 2, COPYFILE_FICLONE: 2,
  UV_FS_COPYFILE_FICLONE_FORCE: 4, COPYFILE_FICLONE_FORCE: 4,
});
const {
  O_RDONLY, O_WRONLY, O_RDWR, O_CREAT, O_EXCL, O_TRUNC, O_APPEND, O_SYNC,
  S_IFMT, S_IFREG, S_IFDIR, S_IFCHR, S_IFBLK, S_IFIFO, S_IFLNK, S_IFSOCK, F_OK, COPYFILE_EXCL,
} = constants;

// ---- errors: Node's codes and messages ----------------------------------------------------------------------

// Errors from argument validation are thrown synchronously by the callback API (as Node does) rather than passed
// to the callback; this set tells them apart from failures of the operation itself.
const validationErrors = new WeakSetCtor();

function quote(s) {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = StringPrototypeCharCodeAt(s, i);
    if (c === 39) out += "\\'";
    else if (c === 92) out += '\\\\';
    else if (c === 10) out += '\\n';
    else if (c < 32 || c === 127) out += '\\x' + (c < 16 ? '0' : '') + StringPrototypeToUpperCase(NumberPrototypeToString(c, 16));
    else out += s[i];
  }
  return "'" + out + "'";
}

function inspectPrimitive(value) {
  if (typeof value === 'string') return quote(value);
  if (typeof value === BigIntType) return `${value}n`;
  if (typeof value === 'symbol') return SymbolPrototypeToString(value);
  return `${value}`;
}

// Node's `determineSpecificType`, the "Received ..." part of its argument errors.
function describe(value) {
  if (value == null) return '' + value;
  if (typeof value === 'function') return `function ${value.name}`;
  if (typeof value === 'object') {
    const ctor = value.constructor;
    if (ctor && ctor.name) return `an instance of ${ctor.name}`;
    return '[Object: null prototype] {}';
  }
  let inspected = inspectPrimitive(value);
  if (inspected.length > 28) inspected = `${StringPrototypeSlice(inspected, 0, 25)}...`;
  return `type ${typeof value} (${inspected})`;
}

function codedError(Ctor, code, message, name) {
  const err = new Ctor(message);
  if (name !== undefined) ObjectDefineProperty(err, 'name', { value: name, writable: true, configurable: true });
  ObjectDefineProperty(err, 'code', { value: code, enumerable: true, writable: true, configurable: true });
  // Node shows the code in the name part of the stack: "TypeError [ERR_X]: message".
  if (typeof err.stack === 'string') {
    err.stack = `${err.name} [${code}]: ${message}` + StringPrototypeSlice(err.stack, StringPrototypeIndexOf(err.stack, '\n') === -1 ? err.stack.length : StringPrototypeIndexOf(err.stack, '\n'));
  }
  return err;
}

function validationError(Ctor, code, message) {
  const err = codedError(Ctor, code, message);
  WeakSetPrototypeAdd(validationErrors, err);
  return err;
}

function errInvalidArgType(name, expected, actual) {
  const what = StringPrototypeIncludes(name, '.') ? 'property' : 'argument';
  return validationError(TypeErrorCtor, 'ERR_INVALID_ARG_TYPE',
    `The "${name}" ${what} must be ${expected}. Received ${describe(actual)}`);
}

function errInvalidArgValue(name, value, reason = 'is invalid') {
  const what = StringPrototypeIncludes(name, '.') ? 'property' : 'argument';
  let inspected = typeof value === 'object' && value !== null ? describe(value) : inspectPrimitive(value);
  if (inspected.length > 128) inspected = `${StringPrototypeSlice(inspected, 0, 128)}...`;
  return validationError(TypeErrorCtor, 'ERR_INVALID_ARG_VALUE', `The ${what} '${name}' ${reason}. Received ${inspected}`);
}

function errOutOfRange(name, range, value) {
  return validationError(RangeErrorCtor, 'ERR_OUT_OF_RANGE',
    `The value of "${name}" is out of range. It must be ${range}. Received ${inspectPrimitive(value)}`);
}

/** The major version of Node the guest reports; process.versions is set when the process starts, so read it at call time. */
function nodeMajor() {
  const version = `${require('process').versions.node}`;
  return +StringPrototypeSlice(version, 0, StringPrototypeIndexOf(version, '.'));
}

// Node 24 checks cpSync's arguments in C++ and throws a plain Error with only a code.
function cpArgError(code, message) {
  const err = new ErrorCtor(message);
  err.code = code;
  return err;
}

// Node's SystemError for errors its JavaScript layer raises about the file system (ERR_FS_EISDIR, ...).
function systemError(code, prefix, info) {
  const err = codedError(ErrorCtor, code,
    `${prefix}: ${info.syscall} returned ${info.code} (${info.message}) ${info.path}`, 'SystemError');
  err.info = info;
  err.errno = info.errno;
  err.syscall = info.syscall;
  err.path = info.path;
  return err;
}

// A system call's error re-labelled with another syscall (copyfile, opendir), as Node reports it.
function relabel(err, syscall, path, dest) {
  if (!err || typeof err.code !== 'string' || typeof err.errno !== 'number') return err;
  const msg = `${err.message}`;
  const colon = StringPrototypeIndexOf(msg, ', ');
  const head = colon === -1 ? msg : StringPrototypeSlice(msg, 0, colon);
  let message = `${head}, ${syscall}`;
  if (path !== undefined) message += ` ${quote(path)}`;
  if (dest !== undefined) message += ` -> ${quote(dest)}`;
  const out = new ErrorCtor(message);
  out.errno = err.errno;
  out.code = err.code;
  out.syscall = syscall;
  if (path !== undefined) out.path = path;
  if (dest !== undefined) out.dest = dest;
  return out;
}

function unsupported(what) {
  return codedError(ErrorCtor, 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM', `${what} is not supported in the VM`);
}

// ---- argument validation ------------------------------------------------------------------------------------

// By the typed array's internal name, which also holds for arrays of another realm (as Node's check).
function isUint8Array(v) { return ArrayBufferIsView(v) && TypedArrayGetTag(v) === 'Uint8Array'; }
function isURL(v) {
  return v != null && typeof v === 'object' && typeof v.href === 'string' && typeof v.protocol === 'string' &&
    v.auth === undefined && v.path === undefined;
}

function fileURLToPath(url) {
  if (url.protocol !== 'file:') throw validationError(TypeErrorCtor, 'ERR_INVALID_URL_SCHEME', 'The URL must be of scheme file');
  if (url.hostname !== '' && url.hostname !== undefined) {
    throw validationError(TypeErrorCtor, 'ERR_INVALID_FILE_URL_HOST', 'File URL host must be "localhost" or empty on linux');
  }
  const pathname = url.pathname;
  for (let i = 0; i < pathname.length; i++) {
    if (pathname[i] === '%') {
      const third = StringPrototypeCharCodeAt(pathname, i + 2) | 0x20;
      if (pathname[i + 1] === '2' && third === 102) {
        throw validationError(TypeErrorCtor, 'ERR_INVALID_FILE_URL_PATH', 'File URL path must not include encoded / characters');
      }
    }
  }
  return decodeURIComponentFn(pathname);
}

// A path argument as the string handed to the system calls.
function toPath(path, name = 'path') {
  let p;
  if (typeof path === 'string') p = path;
  else if (isUint8Array(path)) p = Buffer.from(GetBuffer(path), GetByteOffset(path), GetByteLength(path)).toString('utf8');
  else if (isURL(path)) p = fileURLToPath(path);
  else throw errInvalidArgType(name, 'of type string or an instance of Buffer or URL', path);
  if (StringPrototypeIncludes(p, '\u0000')) {
    throw errInvalidArgValue(name, typeof path === 'string' || isURL(path) ? p : path,
      'must be a string, Uint8Array, or URL without null bytes');
  }
  return p;
}

function validateFd(fd, name = 'fd') {
  if (typeof fd !== 'number') throw errInvalidArgType(name, 'of type number', fd);
  if (!NumberIsInteger(fd)) throw errOutOfRange(name, 'an integer', fd);
  if (fd < 0 || fd > kMaxLength) throw errOutOfRange(name, '>= 0 && <= 2147483647', fd);
  return fd;
}

function validateFunction(fn, name) {
  if (typeof fn !== 'function') throw errInvalidArgType(name, 'of type function', fn);
  return fn;
}

function validateInteger(v, name, min = -9007199254740991, max = 9007199254740991) {
  if (typeof v !== 'number') throw errInvalidArgType(name, 'of type number', v);
  if (!NumberIsInteger(v)) throw errOutOfRange(name, 'an integer', v);
  if (v < min || v > max) throw errOutOfRange(name, `>= ${min} && <= ${max}`, v);
  return v;
}

function parseMode(mode, name, def) {
  if (mode === undefined || mode === null) return def;
  if (typeof mode === 'string') {
    if (RegExpPrototypeExec(/^[0-7]+$/, mode) === null) {
      throw errInvalidArgValue(name, mode, 'must be a 32-bit unsigned integer or an octal string');
    }
    return NumberParseInt(mode, 8);
  }
  if (typeof mode !== 'number') throw errInvalidArgType(name, 'of type number', mode);
  if (!NumberIsInteger(mode)) throw errOutOfRange(name, 'an integer', mode);
  if (mode < 0 || mode > 4294967295) throw errOutOfRange(name, '>= 0 && <= 4294967295', mode);
  return mode;
}

const flagTable = {
  __proto__: null,
  'r': O_RDONLY, 'rs': O_RDONLY | O_SYNC, 'sr': O_RDONLY | O_SYNC,
  'r+': O_RDWR, 'rs+': O_RDWR | O_SYNC, 'sr+': O_RDWR | O_SYNC,
  'w': O_TRUNC | O_CREAT | O_WRONLY, 'wx': O_TRUNC | O_CREAT | O_WRONLY | O_EXCL, 'xw': O_TRUNC | O_CREAT | O_WRONLY | O_EXCL,
  'w+': O_TRUNC | O_CREAT | O_RDWR, 'wx+': O_TRUNC | O_CREAT | O_RDWR | O_EXCL, 'xw+': O_TRUNC | O_CREAT | O_RDWR | O_EXCL,
  'a': O_APPEND | O_CREAT | O_WRONLY, 'ax': O_APPEND | O_CREAT | O_WRONLY | O_EXCL, 'xa': O_APPEND | O_CREAT | O_WRONLY | O_EXCL,
  'as': O_APPEND | O_CREAT | O_WRONLY | O_SYNC, 'sa': O_APPEND | O_CREAT | O_WRONLY | O_SYNC,
  'a+': O_APPEND | O_CREAT | O_RDWR, 'ax+': O_APPEND | O_CREAT | O_RDWR | O_EXCL, 'xa+': O_APPEND | O_CREAT | O_RDWR | O_EXCL,
  'as+': O_APPEND | O_CREAT | O_RDWR | O_SYNC, 'sa+': O_APPEND | O_CREAT | O_RDWR | O_SYNC,
};

function stringToFlags(flags, name = 'flags') {
  if (typeof flags === 'number') return flags;
  if (flags == null) return O_RDONLY;
  const v = typeof flags === 'string' ? flagTable[flags] : undefined;
  if (v === undefined) throw errInvalidArgValue(name, flags);
  return v;
}

const encodings = ['utf8', 'utf-8', 'hex', 'base64', 'base64url', 'latin1', 'binary', 'ascii', 'ucs2', 'ucs-2', 'utf16le', 'utf-16le', 'buffer'];
function validateEncoding(enc) {
  if (enc == null) return enc;
  if (typeof enc === 'string') {
    const lower = StringPrototypeToLowerCase(enc);
    for (let i = 0; i < encodings.length; i++) if (encodings[i] === lower) return enc;
  }
  throw validationError(TypeErrorCtor, 'ERR_INVALID_ARG_VALUE',
    `The argument 'encoding' is invalid encoding. Received ${inspectPrimitive(enc)}`);
}

// Copies the defined own enumerable properties of `from`.
function copyInto(to, from) {
  const keys = ObjectKeys(from);
  for (let i = 0; i < keys.length; i++) if (from[keys[i]] !== undefined) to[keys[i]] = from[keys[i]];
  return to;
}

// Options given as an encoding string, an object, or nothing, merged over defaults.
function getOptions(options, defaults) {
  if (options == null || typeof options === 'function') return defaults;
  let out;
  if (typeof options === 'string') {
    out = { __proto__: null };
    copyInto(out, defaults);
    out.encoding = options;
  } else if (typeof options === 'object') {
    out = { __proto__: null };
    copyInto(out, defaults);
    copyInto(out, options);
  } else {
    throw errInvalidArgType('options', 'one of type string or an instance of Object', options);
  }
  validateEncoding(out.encoding);
  return out;
}

function encodeResult(buf, encoding) {
  if (encoding == null || encoding === 'buffer') return buf;
  if (encoding === 'base64url') {
    // The npm buffer has no base64url: base64 without padding, with the URL alphabet.
    return StringPrototypeReplace(StringPrototypeReplace(StringPrototypeReplace(BufferPrototypeToString(buf, 'base64'), hardenRegExp(/=+$/), ''), hardenRegExp(/\+/g), '-'), hardenRegExp(/\//g), '_');
  }
  return BufferPrototypeToString(buf, encoding);
}

// Bytes of a string or a binary view, as a Uint8Array over the same memory.
function toBytes(data, encoding, name = 'data') {
  if (typeof data === 'string') return Buffer.from(data, encoding === 'base64url' ? 'base64' : encoding || 'utf8');
  if (isUint8Array(data)) return data;
  if (ArrayBufferIsView(data)) return new Uint8ArrayCtor(GetBuffer(data), GetByteOffset(data), GetByteLength(data));
  throw errInvalidArgType(name, 'of type string or an instance of Buffer, TypedArray, or DataView', data);
}

function toPosition(position) {
  if (position == null) return -1;
  if (typeof position === BigIntType) return NumberCtor(position);
  if (typeof position !== 'number') throw errInvalidArgType('position', 'of type number', position);
  if (!NumberIsInteger(position)) throw errOutOfRange('position', 'an integer', position);
  return position < 0 ? -1 : position;
}

// utimes' times: seconds as numbers, numeric strings or Dates; sys takes milliseconds.
function toTimeMs(time, name) {
  if (typeof time === 'number') return NumberIsFinite(time) ? time * 1000 : DateNow();
  if (typeof time === BigIntType) return NumberCtor(time) * 1000;
  if (typeof time === 'string' && +time == time) return +time * 1000;
  if (time !== null && typeof time === 'object') {
    let ms;
    try { ms = DatePrototypeGetTime(time); } catch { ms = undefined; }
    if (ms !== undefined) return ms;
  }
  throw errInvalidArgType(name, 'of type string or number or an instance of Date', time);
}

// ---- paths (POSIX, without the path module: this file must not depend on more builtins than it needs) ------

function normalizeParts(p) {
  const parts = StringPrototypeSplit(p, '/');
  const out = [];
  for (let i = 0; i < parts.length; i++) {
    const s = parts[i];
    if (s === '' || s === '.') continue;
    if (s === '..') { if (out.length > 0 && out[out.length - 1] !== '..') ArrayPrototypePop(out); else if (p[0] !== '/') ArrayPrototypePush(out, '..'); }
    else ArrayPrototypePush(out, s);
  }
  return out;
}
function pathResolve(p) {
  const abs = p[0] === '/' ? p : `${sys.cwd()}/${p}`;
  return '/' + ArrayPrototypeJoin(normalizeParts(abs), '/');
}
function pathJoin(a, b) {
  if (a === '') return b;
  return a[a.length - 1] === '/' ? a + b : `${a}/${b}`;
}
function pathDirname(p) {
  let end = p.length;
  while (end > 1 && p[end - 1] === '/') end--;
  const i = StringPrototypeLastIndexOf(StringPrototypeSlice(p, 0, end), '/');
  if (i === -1) return '.';
  if (i === 0) return '/';
  let j = i;
  while (j > 1 && p[j - 1] === '/') j--;
  return StringPrototypeSlice(p, 0, j);
}
function stripTrailingSlashes(p) {
  let end = p.length;
  while (end > 1 && p[end - 1] === '/') end--;
  return StringPrototypeSlice(p, 0, end);
}

// ---- Stats and Dirent ---------------------------------------------------------------------------------------

function StatsBase(dev, mode, nlink, uid, gid, rdev, blksize, ino, size, blocks) {
  this.dev = dev;
  this.mode = mode;
  this.nlink = nlink;
  this.uid = uid;
  this.gid = gid;
  this.rdev = rdev;
  this.blksize = blksize;
  this.ino = ino;
  this.size = size;
  this.blocks = blocks;
}
StatsBase.prototype.isDirectory = function isDirectory() { return this._checkModeProperty(S_IFDIR); };
StatsBase.prototype.isFile = function isFile() { return this._checkModeProperty(S_IFREG); };
StatsBase.prototype.isBlockDevice = function isBlockDevice() { return this._checkModeProperty(S_IFBLK); };
StatsBase.prototype.isCharacterDevice = function isCharacterDevice() { return this._checkModeProperty(S_IFCHR); };
StatsBase.prototype.isSymbolicLink = function isSymbolicLink() { return this._checkModeProperty(S_IFLNK); };
StatsBase.prototype.isFIFO = function isFIFO() { return this._checkModeProperty(S_IFIFO); };
StatsBase.prototype.isSocket = function isSocket() { return this._checkModeProperty(S_IFSOCK); };

function Stats(dev, mode, nlink, uid, gid, rdev, blksize, ino, size, blocks, atimeMs, mtimeMs, ctimeMs, birthtimeMs) {
  FunctionPrototypeCall(StatsBase, this, dev, mode, nlink, uid, gid, rdev, blksize, ino, size, blocks);
  this.atimeMs = atimeMs;
  this.mtimeMs = mtimeMs;
  this.ctimeMs = ctimeMs;
  this.birthtimeMs = birthtimeMs;
  // Node 22+ makes the Dates lazy (accessors of Stats.prototype that become own properties when read or set);
  // Node 20 sets them here. Rounded to the millisecond, as Node's dateFromMs.
  if (nodeMajor() < 22) {
    this.atime = new DateCtor(MathRound(atimeMs));
    this.mtime = new DateCtor(MathRound(mtimeMs));
    this.ctime = new DateCtor(MathRound(ctimeMs));
    this.birthtime = new DateCtor(MathRound(birthtimeMs));
  }
}

// BigIntStats: every field a BigInt, plus the times in nanoseconds. The host reports times as float
// milliseconds, so the nanoseconds are what that float keeps (Node's come from the timespec).
function BigIntStats(dev, mode, nlink, uid, gid, rdev, blksize, ino, size, blocks, atimeNs, mtimeNs, ctimeNs, birthtimeNs) {
  FunctionPrototypeCall(StatsBase, this, dev, mode, nlink, uid, gid, rdev, blksize, ino, size, blocks);
  this.atimeMs = atimeNs / kNsPerMsBigInt;
  this.mtimeMs = mtimeNs / kNsPerMsBigInt;
  this.ctimeMs = ctimeNs / kNsPerMsBigInt;
  this.birthtimeMs = birthtimeNs / kNsPerMsBigInt;
  this.atimeNs = atimeNs;
  this.mtimeNs = mtimeNs;
  this.ctimeNs = ctimeNs;
  this.birthtimeNs = birthtimeNs;
  if (nodeMajor() < 22) {
    this.atime = new DateCtor(NumberCtor(this.atimeMs));
    this.mtime = new DateCtor(NumberCtor(this.mtimeMs));
    this.ctime = new DateCtor(NumberCtor(this.ctimeMs));
    this.birthtime = new DateCtor(NumberCtor(this.birthtimeMs));
  }
}
ObjectSetPrototypeOf(BigIntStats.prototype, StatsBase.prototype);
ObjectSetPrototypeOf(BigIntStats, StatsBase);
BigIntStats.prototype._checkModeProperty = function _checkModeProperty(property) {
  return (this.mode & BigIntCtor(S_IFMT)) === BigIntCtor(property);
};

for (const entry$504 of new SafeArrayIterator([['atime', 'atimeMs'], ['mtime', 'mtimeMs'], ['ctime', 'ctimeMs'], ['birthtime', 'birthtimeMs']])) { const name = entry$504[0], msName = entry$504[1];
  const own = (self, value) => ObjectDefineProperty(self, name, { value, writable: true, enumerable: true, configurable: true });
  const lazyDate = {
    get() {
      const date = new DateCtor(MathRound(NumberCtor(this[msName])));
      own(this, date);
      return date;
    },
    set(value) { own(this, value); },
    enumerable: true, configurable: true,
  };
  ObjectDefineProperty(Stats.prototype, name, lazyDate);
  ObjectDefineProperty(BigIntStats.prototype, name, lazyDate);
}
ObjectSetPrototypeOf(Stats.prototype, StatsBase.prototype);
ObjectSetPrototypeOf(Stats, StatsBase);
Stats.prototype.isFile = StatsBase.prototype.isFile;
Stats.prototype._checkModeProperty = function _checkModeProperty(property) {
  return (this.mode & S_IFMT) === property;
};

// Node asks the binding for BigInts only when the option is exactly true.
const wantsBigInt = (options) => options != null && typeof options === 'object' && options.bigint === true;
function nsFromMs(ms) {
  if (!NumberIsFinite(ms)) return 0n;
  const whole = MathFloor(ms);
  return BigIntCtor(whole) * kNsPerMsBigInt + BigIntCtor(MathRound((ms - whole) * 1e6));
}
function makeStats(a, options) {
  if (wantsBigInt(options)) {
    const b = BigIntCtor;
    return new BigIntStats(b(a[0]), b(a[1]), b(a[2]), b(a[3]), b(a[4]), b(a[5]), b(a[6]), b(a[7]), b(a[8]), b(a[9]),
      nsFromMs(a[10]), nsFromMs(a[11]), nsFromMs(a[12]), nsFromMs(a[13]));
  }
  return new Stats(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13]);
}

const kType = SymbolFor('nodejs.fs.dirent.type');
const direntTypes = { __proto__: null, file: 1, dir: 2, symlink: 3, fifo: 4, socket: 5, char: 6, block: 7, unknown: 0 };

class Dirent {
  constructor(name, type, path) {
    this.name = name;
    this.parentPath = path;
    this.path = path;
    this[kType] = type;
  }
  isDirectory() { return this[kType] === 2; }
  isFile() { return this[kType] === 1; }
  isBlockDevice() { return this[kType] === 7; }
  isCharacterDevice() { return this[kType] === 6; }
  isSymbolicLink() { return this[kType] === 3; }
  isFIFO() { return this[kType] === 4; }
  isSocket() { return this[kType] === 5; }
}

// ---- core synchronous operations ----------------------------------------------------------------------------

function openSync(path, flags, mode) {
  const p = toPath(path);
  return sys.open(p, stringToFlags(flags), parseMode(mode, 'mode', 0o666));
}

function closeSync(fd) {
  sys.close(validateFd(fd));
}

function readSync(fd, buffer, offsetOrOptions, length, position) {
  validateFd(fd);
  if (!ArrayBufferIsView(buffer)) {
    throw errInvalidArgType('buffer', 'an instance of Buffer, TypedArray, or DataView', buffer);
  }
  let offset = offsetOrOptions;
  if (arguments.length <= 3 || (offsetOrOptions !== null && typeof offsetOrOptions === 'object')) {
    const o = offsetOrOptions != null && typeof offsetOrOptions === 'object' ? offsetOrOptions : {};
    offset = o.offset !== undefined ? o.offset : 0;
    length = GetLength(o) !== undefined ? GetLength(o) : GetByteLength(buffer) - offset;
    position = o.position !== undefined ? o.position : null;
  }
  const bytes = toBytes(buffer, undefined, 'buffer');
  if (offset == null) offset = 0;
  else validateInteger(offset, 'offset', 0);
  if (length === undefined) length = GetByteLength(bytes) - offset;
  if (length === 0) return 0;
  if (GetByteLength(bytes) === 0) {
    throw validationError(TypeErrorCtor, 'ERR_INVALID_ARG_VALUE', "The argument 'buffer' is empty and cannot be written. Received Buffer(0) []");
  }
  validateInteger(length, 'length', 0, kMaxLength);
  if (offset > GetByteLength(bytes)) throw errOutOfRange('offset', `<= ${GetByteLength(bytes)}`, offset);
  if (length > GetByteLength(bytes) - offset) throw errOutOfRange('length', `<= ${GetByteLength(bytes) - offset}`, length);
  return sys.read(fd, bytes, offset, length, toPosition(position));
}

function writeAll(fd, bytes, offset, length, position) {
  let done = 0;
  while (done < length) {
    const n = sys.write(fd, bytes, offset + done, length - done, position < 0 ? -1 : position + done);
    if (n <= 0) break;
    done += n;
  }
  return done;
}

function writeSync(fd, buffer, offsetOrOptions, length, position) {
  validateFd(fd);
  if (typeof buffer === 'string') {
    // writeSync(fd, string[, position[, encoding]])
    const bytes = Buffer.from(buffer, validateEncoding(length) || 'utf8');
    return sys.write(fd, bytes, 0, GetByteLength(bytes), toPosition(offsetOrOptions));
  }
  if (!ArrayBufferIsView(buffer)) {
    throw errInvalidArgType('buffer', 'of type string or an instance of Buffer, TypedArray, or DataView', buffer);
  }
  const bytes = toBytes(buffer, undefined, 'buffer');
  let offset = offsetOrOptions;
  if (offsetOrOptions !== null && typeof offsetOrOptions === 'object') {
    offset = offsetOrOptions.offset;
    length = offsetOrOptions.length;
    position = offsetOrOptions.position;
  }
  if (offset == null) offset = 0;
  else validateInteger(offset, 'offset', 0);
  if (typeof length !== 'number') length = GetByteLength(bytes) - offset;
  if (offset > GetByteLength(bytes)) throw errOutOfRange('offset', `<= ${GetByteLength(bytes)}`, offset);
  validateInteger(length, 'length', 0, GetByteLength(bytes) - offset);
  return sys.write(fd, bytes, offset, length, toPosition(position));
}

// All of a file from the current position (fd) or from its start (path).
function readAllFromFd(fd) {
  // Node fstats first (so a bad fd fails in fstat); files of unknown size are read in chunks.
  const st = sys.fstat(fd);
  const size = (st[1] & S_IFMT) === S_IFREG ? st[8] : 0;
  const chunks = [];
  let total = 0;
  let buf = Buffer.allocUnsafe(size > 0 ? size : kReadChunk);
  let used = 0;
  for (;;) {
    if (used === GetLength(buf)) {
      ArrayPrototypePush(chunks, buf);
      total += used;
      buf = Buffer.allocUnsafe(kReadChunk);
      used = 0;
    }
    const n = sys.read(fd, buf, used, GetLength(buf) - used, -1);
    if (n === 0) break;
    used += n;
  }
  if (chunks.length === 0) return used === GetLength(buf) ? buf : TypedArrayPrototypeSubarray(buf, 0, used);
  ArrayPrototypePush(chunks, TypedArrayPrototypeSubarray(buf, 0, used));
  return Buffer.concat(chunks, total + used);
}

// As Node: only a uint32 number is taken as a file descriptor; other numbers are invalid paths.
function isFd(v) { return typeof v === 'number' && (v >>> 0) === v; }

function readFileSync(path, options) {
  const opts = getOptions(options, { __proto__: null, encoding: null, flag: 'r' });
  if (isFd(path)) return encodeResult(readAllFromFd(validateFd(path)), opts.encoding);
  const fd = sys.open(toPath(path), stringToFlags(opts.flag), 0o666);
  try {
    return encodeResult(readAllFromFd(fd), opts.encoding);
  } finally {
    sys.close(fd);
  }
}

function writeFileWith(path, data, options, defaultFlag) {
  const opts = getOptions(options, { __proto__: null, encoding: 'utf8', mode: 0o666, flag: defaultFlag });
  const bytes = toBytes(data, opts.encoding === 'buffer' ? 'utf8' : opts.encoding);
  if (isFd(path)) {
    writeAll(validateFd(path), bytes, 0, GetByteLength(bytes), -1);
    return;
  }
  const fd = sys.open(toPath(path), stringToFlags(opts.flag), parseMode(opts.mode, 'mode', 0o666));
  try {
    writeAll(fd, bytes, 0, GetByteLength(bytes), -1);
  } finally {
    sys.close(fd);
  }
}
function writeFileSync(path, data, options) { writeFileWith(path, data, options, 'w'); }
function appendFileSync(path, data, options) { writeFileWith(path, data, options, 'a'); }

// Node 24's throwIfNoEntry: false also covers ENOTDIR (a path below a file); Node 20 only ENOENT.
const noEntry = (code) => code === 'ENOENT' || (code === 'ENOTDIR' && nodeMajor() >= 24);
function statWith(path, options, follow) {
  const p = toPath(path);
  try {
    return makeStats(sys.stat(p, follow), options);
  } catch (err) {
    if (options && options.throwIfNoEntry === false && err && noEntry(err.code)) return undefined;
    throw err;
  }
}
function statSync(path, options) { return statWith(path, options, true); }
function lstatSync(path, options) { return statWith(path, options, false); }
function fstatSync(fd, options) {
  return makeStats(sys.fstat(validateFd(fd)), options);
}

function existsSync(path) {
  try {
    sys.access(toPath(path), F_OK);
    return true;
  } catch {
    return false;
  }
}

function accessSync(path, mode) {
  const p = toPath(path);
  sys.access(p, mode == null ? F_OK : validateInteger(mode, 'mode', 0, 7));
}

function readdirSync(path, options) {
  const opts = getOptions(options, { __proto__: null, encoding: 'utf8', withFileTypes: false, recursive: false });
  const base = toPath(path);
  const withTypes = !!opts.withFileTypes;
  const name = (n) => (opts.encoding === 'buffer' ? Buffer.from(n, 'utf8') : n);
  if (!opts.recursive) {
    const entries = sys.readdir(base);
    const out = [];
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i];
      ArrayPrototypePush(out, withTypes ? new Dirent(name(e[0]), direntTypes[e[1]], base) : name(e[0]));
    }
    return out;
  }
  // Breadth-first like Node: a directory's entries, then those of each subdirectory in the order met. Names are
  // relative to `base`; without withFileTypes, Node follows symbolic links to directories (it stats them).
  const out = [];
  const queue = [base];
  for (let q = 0; q < queue.length; q++) {
    const dir = queue[q];
    const entries = sys.readdir(dir);
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i];
      const full = pathJoin(dir, e[0]);
      let type = direntTypes[e[1]];
      if (withTypes) {
        ArrayPrototypePush(out, new Dirent(name(e[0]), type, dir));
      } else {
        const rel = StringPrototypeSlice(full, stripTrailingSlashes(base).length + (base === '/' ? 0 : 1));
        ArrayPrototypePush(out, name(rel));
        if (type === 3) {
          try { type = (sys.stat(full, true)[1] & S_IFMT) === S_IFDIR ? 2 : 0; } catch { type = 0; }
        }
      }
      if (type === 2) ArrayPrototypePush(queue, full);
    }
  }
  return out;
}

function mkdirSync(path, options) {
  let recursive = false;
  let mode = 0o777;
  if (typeof options === 'number' || typeof options === 'string') {
    mode = parseMode(options, 'mode', 0o777);
  } else if (options != null) {
    if (typeof options !== 'object') throw errInvalidArgType('options', 'of type object', options);
    if (options.recursive !== undefined) {
      if (typeof options.recursive !== 'boolean') throw errInvalidArgType('options.recursive', 'of type boolean', options.recursive);
      recursive = options.recursive;
    }
    mode = parseMode(options.mode, 'mode', 0o777);
  }
  const p = toPath(path);
  if (!recursive) {
    sys.mkdir(p, mode);
    return undefined;
  }
  return mkdirp(p, mode);
}

// Creates `p` and its missing parents; returns the first directory created (undefined if none). Follows Node's
// MKDirpSync, whose errors name the requested path whichever ancestor failed.
function mkdirp(p, mode) {
  const stack = [p];
  let first;
  try {
    while (stack.length > 0) {
      const next = stack[stack.length - 1];
      try {
        sys.mkdir(next, mode);
        ArrayPrototypePop(stack);
        if (first === undefined) first = next;
        continue;
      } catch (err) {
        const code = err && err.code;
        if (code === 'ENOENT') {
          const parent = pathDirname(next);
          if (parent === next || stack.length > 4096) throw err;
          ArrayPrototypePush(stack, parent);
          continue;
        }
        if (code === 'EACCES' || code === 'ENOSPC' || code === 'ENOTDIR' || code === 'EPERM') throw err;
        ArrayPrototypePop(stack);
        const st = sys.stat(next, true);
        if ((st[1] & S_IFMT) !== S_IFDIR) throw err;
      }
    }
  } catch (err) {
    throw relabel(err, 'mkdir', p);
  }
  return first;
}

function rmdirSync(path, options) {
  const p = toPath(path);
  if (options && options.recursive) {
    // Deprecated in Node, kept for old code: behaves as rm -r, failing when the path is missing.
    sys.stat(p, false);
    removeTree(p);
    return;
  }
  sys.rmdir(p);
}

function removeTree(p) {
  const st = sys.stat(p, false);
  if ((st[1] & S_IFMT) !== S_IFDIR) {
    sys.unlink(p);
    return;
  }
  const entries = sys.readdir(p);
  for (let i = 0; i < entries.length; i++) removeTree(pathJoin(p, entries[i][0]));
  sys.rmdir(p);
}

function rmSync(path, options) {
  const p = toPath(path);
  const opts = options == null ? {} : options;
  if (typeof opts !== 'object') throw errInvalidArgType('options', 'of type object', options);
  const force = !!opts.force;
  const recursive = !!opts.recursive;
  let st;
  try {
    st = sys.stat(p, false);
  } catch (err) {
    if (force && err && err.code === 'ENOENT') return;
    throw err;
  }
  if ((st[1] & S_IFMT) === S_IFDIR && !recursive) {
    throw systemError('ERR_FS_EISDIR', 'Path is a directory',
      { code: 'EISDIR', message: 'is a directory', path: p, syscall: 'rm', errno: 21 });
  }
  try {
    removeTree(p);
  } catch (err) {
    if (force && err && err.code === 'ENOENT') return;
    throw err;
  }
}

function unlinkSync(path) { sys.unlink(toPath(path)); }
function renameSync(oldPath, newPath) { sys.rename(toPath(oldPath, 'oldPath'), toPath(newPath, 'newPath')); }
function linkSync(existingPath, newPath) { sys.link(toPath(existingPath, 'existingPath'), toPath(newPath, 'newPath')); }
function symlinkSync(target, path, type) {
  if (type != null && type !== 'dir' && type !== 'file' && type !== 'junction') {
    throw errInvalidArgValue('type', type, "must be one of: 'dir', 'file', 'junction'");
  }
  sys.symlink(toPath(target, 'target'), toPath(path));
}

function readlinkSync(path, options) {
  const opts = getOptions(options, { __proto__: null, encoding: 'utf8' });
  const r = sys.readlink(toPath(path));
  return opts.encoding === 'buffer' ? Buffer.from(r, 'utf8') : r;
}

function realpathSync(path, options) {
  const opts = getOptions(options, { __proto__: null, encoding: 'utf8' });
  const r = sys.realpath(toPath(path));
  return opts.encoding === 'buffer' ? Buffer.from(r, 'utf8') : r;
}
realpathSync.native = function realpathSyncNative(path, options) { return realpathSync(path, options); };

// A mode Node requires (chmod, fchmod): absent is an argument error.
function requiredMode(mode) {
  const m = parseMode(mode, 'mode');
  if (m === undefined) throw errInvalidArgType('mode', 'of type number', undefined);
  return m;
}

// Ownership: the process runs as root (uid 0, gid 0) and the VM's file system keeps no other owner, so a
// chown validates as Node does, then succeeds on a file that exists, leaving it root's.
const kMaxUserId = 4294967295;
function validateIds(uid, gid) {
  validateInteger(uid, 'uid', -1, kMaxUserId);
  validateInteger(gid, 'gid', -1, kMaxUserId);
}
function existing(p, follow, syscall) {
  try {
    sys.stat(p, follow);
  } catch (err) {
    throw relabel(err, syscall, p);
  }
}

// The calls whose callback form checks every argument before the callback (as Node's do): each validates
// its arguments and answers the operation.
const prepared = {
  chmod(path, mode) {
    const p = toPath(path);
    const m = requiredMode(mode);
    return () => sys.chmod(p, m);
  },
  fchmod(fd, mode) {
    validateFd(fd);
    const m = requiredMode(mode);
    return () => sys.fchmod(fd, m);
  },
  fchown(fd, uid, gid) {
    validateFd(fd);
    validateIds(uid, gid);
    return () => {
      try {
        sys.fstat(fd);
      } catch (err) {
        throw relabel(err, 'fchown');
      }
    };
  },
};
function chmodSync(path, mode) { prepared.chmod(path, mode)(); }
function fchmodSync(fd, mode) { prepared.fchmod(fd, mode)(); }
function fchownSync(fd, uid, gid) { prepared.fchown(fd, uid, gid)(); }
function chownSync(path, uid, gid) {
  const p = toPath(path);
  validateIds(uid, gid);
  existing(p, true, 'chown');
}
function lchownSync(path, uid, gid) {
  const p = toPath(path);
  validateIds(uid, gid);
  existing(p, false, 'lchown');
}

// ---- vectored I/O: the buffers in turn, until one is not filled (or not written) whole -----------------

function validateBufferArray(buffers) {
  let ok = ArrayIsArray(buffers);
  for (let i = 0; ok && i < buffers.length; i++) ok = ArrayBufferIsView(buffers[i]);
  if (!ok) throw errInvalidArgType('buffers', 'an ArrayBufferView[]', buffers);
  return buffers;
}
function vectored(fd, buffers, position, io) {
  validateFd(fd);
  validateBufferArray(buffers);
  // As Node: a position that is not a number means the file's current offset.
  const pos = typeof position === 'number' && position >= 0 ? position : -1;
  // readv(2) of no buffers is EINVAL; Node writes none without asking.
  if (buffers.length === 0) {
    if (io === sys.write) return 0;
    const err = new ErrorCtor('EINVAL: invalid argument, read');
    err.errno = -22; err.code = 'EINVAL'; err.syscall = 'read';
    throw err;
  }
  let total = 0;
  for (let i = 0; i < buffers.length; i++) {
    const bytes = toBytes(buffers[i], undefined, 'buffers');
    if (GetByteLength(bytes) === 0) continue;
    const n = io(fd, bytes, 0, GetByteLength(bytes), pos < 0 ? -1 : pos + total);
    total += n;
    if (n < GetByteLength(bytes)) break;
  }
  return total;
}
function readvSync(fd, buffers, position) { return vectored(fd, buffers, position, sys.read); }
function writevSync(fd, buffers, position) { return vectored(fd, buffers, position, sys.write); }

// ---- statfs: the VM's one file system, a tmpfs as large as the VM's limits (as df shows it) -----------

const kTmpfsMagic = 0x01021994;
const kFsBlockSize = 4096;
class StatFs {
  constructor(type, bsize, blocks, bfree, bavail, files, ffree) {
    this.type = type;
    this.bsize = bsize;
    // Node 24 adds the fragment size, which Linux's tmpfs reports equal to the block size.
    if (nodeMajor() >= 24) this.frsize = bsize;
    this.blocks = blocks;
    this.bfree = bfree;
    this.bavail = bavail;
    this.files = files;
    this.ffree = ffree;
  }
}
function statfsSync(path, options = { bigint: false }) {
  const p = toPath(path);
  const bigint = options.bigint === true;
  const u = sys.statfs(p);
  const blocks = MathCeil(u[1] / kFsBlockSize);
  const free = MathMax(0, blocks - MathCeil(u[0] / kFsBlockSize));
  const n = bigint ? BigIntCtor : (v) => v;
  return new StatFs(n(kTmpfsMagic), n(kFsBlockSize), n(blocks), n(free), n(free), n(u[3]), n(MathMax(0, u[3] - u[2])));
}

// Node reads the file when the blob is read; here its bytes are taken when the blob is made.
function openAsBlob(path, options = {}) {
  if (options === null || typeof options !== 'object' || ArrayIsArray(options)) throw errInvalidArgType('options', 'of type object', options);
  const type = options.type || '';
  if (typeof type !== 'string') throw errInvalidArgType('options.type', 'of type string', type);
  const p = toPath(path);
  let bytes;
  try {
    bytes = readFileSync(p);
  } catch {
    throw validationError(TypeErrorCtor, 'ERR_INVALID_ARG_VALUE', 'Unable to open file as blob');
  }
  return PromiseResolve(new (require('buffer').Blob)([bytes], { type }));
}

function utimesSync(path, atime, mtime) { sys.utimes(toPath(path), toTimeMs(atime, 'atime'), toTimeMs(mtime, 'mtime'), true); }
function lutimesSync(path, atime, mtime) { sys.utimes(toPath(path), toTimeMs(atime, 'atime'), toTimeMs(mtime, 'mtime'), false); }
function futimesSync(fd, atime, mtime) { sys.futimes(validateFd(fd), toTimeMs(atime, 'atime'), toTimeMs(mtime, 'mtime')); }

function ftruncateSync(fd, len) {
  validateFd(fd);
  sys.ftruncate(fd, len == null ? 0 : MathMax(0, validateInteger(len, 'len')));
}
function truncateSync(path, len) {
  if (isFd(path)) return ftruncateSync(path, len);
  const fd = sys.open(toPath(path), O_RDWR, 0o666);
  try {
    ftruncateSync(fd, len);
  } finally {
    sys.close(fd);
  }
}
function fsyncSync(fd) { sys.fsync(validateFd(fd)); }
function fdatasyncSync(fd) { sys.fsync(validateFd(fd)); }

function copyFileSync(src, dest, mode) {
  const s = toPath(src, 'src');
  const d = toPath(dest, 'dest');
  const flags = mode == null ? 0 : validateInteger(mode, 'mode', 0, 7);
  copyFileImpl(s, d, flags);
}

function copyFileImpl(s, d, flags) {
  let inFd;
  let outFd;
  try {
    inFd = sys.open(s, O_RDONLY, 0);
    const st = sys.fstat(inFd);
    if ((st[1] & S_IFMT) === S_IFDIR) {
      const e = new ErrorCtor(`EISDIR: illegal operation on a directory, copyfile ${quote(s)} -> ${quote(d)}`);
      e.errno = -21; e.code = 'EISDIR'; e.syscall = 'copyfile'; e.path = s; e.dest = d;
      throw e;
    }
    outFd = sys.open(d, O_WRONLY | O_CREAT | O_TRUNC | ((flags & COPYFILE_EXCL) ? O_EXCL : 0), st[1] & 0o7777);
    const buf = Buffer.allocUnsafe(kReadChunk);
    for (;;) {
      const n = sys.read(inFd, buf, 0, GetLength(buf), -1);
      if (n === 0) break;
      writeAll(outFd, buf, 0, n, -1);
    }
  } catch (err) {
    throw err && err.syscall === 'copyfile' ? err : relabel(err, 'copyfile', s, d);
  } finally {
    if (inFd !== undefined) sys.close(inFd);
    if (outFd !== undefined) sys.close(outFd);
  }
}

function mkdtempSync(prefix, options) {
  const opts = getOptions(options, { __proto__: null, encoding: 'utf8' });
  const p = toPath(prefix, 'prefix');
  const chars = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  for (let attempt = 0; ; attempt++) {
    let suffix = '';
    for (let i = 0; i < 6; i++) suffix += chars[MathFloor(MathRandom() * chars.length)];
    const dir = p + suffix;
    try {
      sys.mkdir(dir, 0o700);
      return opts.encoding === 'buffer' ? Buffer.from(dir, 'utf8') : dir;
    } catch (err) {
      if (!(err && err.code === 'EEXIST') || attempt > 100) {
        throw err && err.code === 'EEXIST' ? err : relabel(err, 'mkdtemp', `${p}XXXXXX`);
      }
    }
  }
}

// cp: files, directories (recursive), symbolic links; Node's options force, errorOnExist, filter (sync),
// dereference, preserveTimestamps, verbatimSymlinks, mode.
function cpSync(src, dest, options) {
  const s = toPath(src, 'src');
  const d = toPath(dest, 'dest');
  const opts = { force: true, errorOnExist: false, recursive: false, dereference: false, preserveTimestamps: false, verbatimSymlinks: false, mode: 0, filter: undefined };
  if (options != null) {
    if (typeof options !== 'object') throw errInvalidArgType('options', 'of type object', options);
    copyInto(opts, options);
  }
  if (opts.filter !== undefined) validateFunction(opts.filter, 'options.filter');
  const srcAbs = pathResolve(s);
  const destAbs = pathResolve(d);
  const srcShown = StringPrototypeEndsWith(s, '/') ? s : `${s}/`;
  if (srcAbs === destAbs) {
    if (nodeMajor() >= 24) throw cpArgError('ERR_FS_CP_EINVAL', `src and dest cannot be the same ${d}`);
    throw systemError('ERR_FS_CP_EINVAL', 'Invalid src or dest',
      { message: 'src and dest cannot be the same', path: d, syscall: 'cp', errno: 22, code: 'EINVAL' });
  }
  const srcSt = opts.dereference ? sys.stat(s, true) : sys.stat(s, false);
  if ((srcSt[1] & S_IFMT) === S_IFDIR) {
    if (StringPrototypeStartsWith(destAbs + '/', srcAbs + '/')) {
      if (nodeMajor() >= 24) throw cpArgError('ERR_FS_CP_EINVAL', `Cannot copy ${srcShown} to a subdirectory of self ${d}`);
      throw systemError('ERR_FS_CP_EINVAL', 'Invalid src or dest',
        { message: `cannot copy ${s} to a subdirectory of self ${d}`, path: d, syscall: 'cp', errno: 22, code: 'EINVAL' });
    }
    if (!opts.recursive) {
      if (nodeMajor() >= 24) throw cpArgError('ERR_FS_EISDIR', `Recursive option not enabled, cannot copy a directory: ${srcShown}`);
      throw systemError('ERR_FS_EISDIR', 'Path is a directory',
        { message: `${s} is a directory (not copied)`, path: s, syscall: 'cp', errno: 21, code: 'EISDIR' });
    }
  }
  if (opts.filter && !opts.filter(s, d)) return;
  const parent = pathDirname(d);
  if (!existsSync(parent)) mkdirp(parent, 0o777);
  cpEntry(s, d, opts, srcSt);
}

function cpEntry(s, d, opts, srcSt) {
  const type = srcSt[1] & S_IFMT;
  let destSt;
  try { destSt = sys.stat(d, false); } catch (err) { if (!(err && err.code === 'ENOENT')) throw err; }
  if (type === S_IFDIR) {
    if (destSt === undefined) sys.mkdir(d, srcSt[1] & 0o7777);
    else if ((destSt[1] & S_IFMT) !== S_IFDIR) {
      throw systemError('ERR_FS_CP_NON_DIR_TO_DIR', 'Cannot overwrite non-directory with directory',
        { message: `cannot overwrite non-directory ${d} with directory ${s}`, path: d, syscall: 'cp', errno: 21, code: 'EISDIR' });
    }
    const entries = sys.readdir(s);
    for (let i = 0; i < entries.length; i++) {
      const cs = pathJoin(s, entries[i][0]);
      const cd = pathJoin(d, entries[i][0]);
      if (opts.filter && !opts.filter(cs, cd)) continue;
      cpEntry(cs, cd, opts, opts.dereference ? sys.stat(cs, true) : sys.stat(cs, false));
    }
    if (opts.preserveTimestamps) sys.utimes(d, srcSt[10], srcSt[11], true);
    return;
  }
  if (destSt !== undefined) {
    if ((destSt[1] & S_IFMT) === S_IFDIR) {
      throw systemError('ERR_FS_CP_DIR_TO_NON_DIR', 'Cannot overwrite directory with non-directory',
        { message: `cannot overwrite directory ${d} with non-directory ${s}`, path: d, syscall: 'cp', errno: 21, code: 'EISDIR' });
    }
    if (!opts.force) {
      if (opts.errorOnExist) {
        throw systemError('ERR_FS_CP_EEXIST', 'Target already exists',
          { message: `${d} already exists`, path: d, syscall: 'cp', errno: 17, code: 'EEXIST' });
      }
      return;
    }
  }
  if (type === S_IFLNK) {
    let target = sys.readlink(s);
    if (!opts.verbatimSymlinks && target[0] !== '/') target = pathResolve(pathJoin(pathDirname(s), target));
    if (destSt !== undefined) sys.unlink(d);
    sys.symlink(target, d);
    return;
  }
  copyFileImpl(s, d, opts.mode);
  if (opts.preserveTimestamps) sys.utimes(d, srcSt[10], srcSt[11], true);
}

// ---- Dir ----------------------------------------------------------------------------------------------------

class Dir {
  #path;
  #entries;
  #index = 0;
  #closed = false;
  constructor(path, entries) {
    this.#path = path;
    this.#entries = entries;
  }
  get path() { return this.#path; }
  #check() {
    if (this.#closed) throw codedError(ErrorCtor, 'ERR_DIR_CLOSED', 'Directory handle was closed');
  }
  readSync() {
    this.#check();
    if (this.#index >= this.#entries.length) return null;
    const e = this.#entries[this.#index++];
    return new Dirent(e[0], direntTypes[e[1]], this.#path);
  }
  read(cb) {
    if (cb === undefined) return promiseOf(() => this.readSync());
    validateFunction(cb, 'callback');
    settle(cb, () => this.readSync());
  }
  closeSync() {
    this.#check();
    this.#closed = true;
  }
  close(cb) {
    if (cb === undefined) return promiseOf(() => this.closeSync());
    validateFunction(cb, 'callback');
    settle(cb, () => this.closeSync());
  }
  async *entries() {
    try {
      for (;;) {
        const d = this.readSync();
        if (d === null) break;
        yield d;
      }
    } finally {
      if (!this.#closed) this.closeSync();
    }
  }
  [SymbolAsyncIterator]() { return this.entries(); }
}

function opendirSync(path, options) {
  getOptions(options, { __proto__: null, encoding: 'utf8', bufferSize: 32, recursive: false });
  const p = toPath(path);
  let entries;
  try {
    entries = sys.readdir(p);
  } catch (err) {
    throw relabel(err, 'opendir', p);
  }
  return new Dir(p, entries);
}

// ---- asynchronous forms -------------------------------------------------------------------------------------

// Calls fn(...args) on a later tick, with exactly the arguments given (Node's callbacks get `(err)` on failure).
function defer(fn, ...args) {
  // Completions come in a later turn of the event loop, as Node's come from its thread pool.
  const tick = internal.deferIO || internal.nextTick;
  if (typeof tick === 'function') {
    ArrayPrototypeUnshift(args, fn);
    ReflectApply(tick, undefined, args);
  } else if (queueMicrotaskFn !== undefined) queueMicrotaskFn(() => ReflectApply(fn, undefined, args));
  else PromisePrototypeThen(PromiseResolve(), () => ReflectApply(fn, undefined, args));
}

// Runs `work` now and calls back later: validation errors are thrown to the caller, as Node does.
function settle(cb, work, spread) {
  let result;
  try {
    result = work();
  } catch (err) {
    if (WeakSetPrototypeHas(validationErrors, err)) throw err;
    defer(cb, err);
    return;
  }
  if (spread) defer(cb, null, result[0], result[1]);
  else defer(cb, null, result);
}

function promiseOf(work) {
  return new PromiseCtor((resolve, reject) => {
    try {
      resolve(work());
    } catch (err) {
      reject(err);
    }
  });
}

// The callback of a call: its last argument when that is a function; otherwise the argument at the callback's
// position (`arity`, as in Node's signature) is reported, usually undefined.
function takeCallback(args, arity) {
  const last = args.length > 0 ? args[args.length - 1] : undefined;
  if (typeof last === 'function') {
    ArrayPrototypePop(args);
    return last;
  }
  return validateFunction(args[arity - 1], 'cb');
}

// fs.NAME(...args, cb) over NAME + 'Sync'.
function callbackify(name, syncFn, arity, hasResult) {
  const fn = {
    [name](...args) {
      const cb = takeCallback(args, arity);
      settle(hasResult ? cb : (err) => (err ? cb(err) : cb(null)), () => ReflectApply(syncFn, undefined, args));
    },
  }[name];
  return fn;
}

// ---- streams ------------------------------------------------------------------------------------------------

let streamModule;
function lazyStream() {
  if (streamModule === undefined) streamModule = require('stream');
  return streamModule;
}

// fs.ReadStream, fs.WriteStream and their legacy names (File*), each its own settable export as in Node.
const streamClasses = { __proto__: null, ReadStream: undefined, WriteStream: undefined, FileReadStream: undefined, FileWriteStream: undefined };
// The FileHandle a stream was given as its fd.
const kHandle = SymbolCtor('kHandle');

function defineStreams() {
  if (streamClasses.ReadStream !== undefined) return;
  const { Readable, Writable } = lazyStream();

  class ReadStream extends Readable {
    constructor(path, options) {
      const opts = getOptions(options, { __proto__: null });
      const hwm = opts.highWaterMark !== undefined ? opts.highWaterMark : 64 * 1024;
      super({ highWaterMark: hwm, encoding: opts.encoding, emitClose: opts.emitClose !== false, autoDestroy: opts.autoClose !== false, signal: opts.signal });
      this.fd = opts.fd != null ? (typeof opts.fd === 'object' ? opts.fd.fd : validateFd(opts.fd)) : null;
      if (opts.fd != null && typeof opts.fd === 'object') this[kHandle] = opts.fd;
      this.path = this.fd === null ? toPath(path) : undefined;
      if (this.path !== undefined && typeof path !== 'string' && !isURL(path)) this.path = path;
      this.flags = opts.flags === undefined ? 'r' : opts.flags;
      this.mode = opts.mode === undefined ? 0o666 : opts.mode;
      this.start = opts.start;
      this.end = opts.end === undefined ? Infinity : opts.end;
      this.pos = undefined;
      this.bytesRead = 0;
      this.autoClose = opts.autoClose === undefined ? true : opts.autoClose;
      if (this.start !== undefined) {
        validateInteger(this.start, 'start', 0);
        this.pos = this.start;
      }
      if (this.end !== Infinity) {
        validateInteger(this.end, 'end', 0);
        if (this.start !== undefined && this.start > this.end) {
          throw errOutOfRange('start', `<= "end" (here: ${this.end})`, this.start);
        }
      }
    }
    _read(n) {
      n = this.pos !== undefined ? MathMin(this.end - this.pos + 1, n) : MathMin(this.end - this.bytesRead + 1, n);
      if (n <= 0) { this.push(null); return; }
      const buf = Buffer.allocUnsafe(n);
      let bytes;
      try {
        bytes = sys.read(this.fd, buf, 0, n, this.pos === undefined ? -1 : this.pos);
      } catch (err) {
        this.destroy(err);
        return;
      }
      if (bytes > 0) {
        if (this.pos !== undefined) this.pos += bytes;
        this.bytesRead += bytes;
        this.push(bytes === n ? buf : TypedArrayPrototypeSubarray(buf, 0, bytes));
      } else {
        this.push(null);
      }
    }
    close(cb) {
      if (typeof cb === 'function') lazyStream().finished(this, cb);
      this.destroy();
    }
  }

  class WriteStream extends Writable {
    constructor(path, options) {
      const opts = getOptions(options, { __proto__: null });
      super({ highWaterMark: opts.highWaterMark, decodeStrings: true, defaultEncoding: opts.encoding || 'utf8', emitClose: opts.emitClose !== false, autoDestroy: opts.autoClose !== false, signal: opts.signal });
      this.fd = opts.fd != null ? (typeof opts.fd === 'object' ? opts.fd.fd : validateFd(opts.fd)) : null;
      if (opts.fd != null && typeof opts.fd === 'object') this[kHandle] = opts.fd;
      this.path = this.fd === null ? toPath(path) : undefined;
      if (this.path !== undefined && typeof path !== 'string' && !isURL(path)) this.path = path;
      this.flags = opts.flags === undefined ? 'w' : opts.flags;
      this.mode = opts.mode === undefined ? 0o666 : opts.mode;
      this.start = opts.start;
      this.pos = undefined;
      this.bytesWritten = 0;
      this.autoClose = opts.autoClose === undefined ? true : opts.autoClose;
      if (this.start !== undefined) {
        validateInteger(this.start, 'start', 0);
        this.pos = this.start;
      }
      if (opts.encoding) this.setDefaultEncoding(opts.encoding);
    }
    _write(chunk, encoding, cb) {
      try {
        const bytes = toBytes(chunk, encoding);
        const n = writeAll(this.fd, bytes, 0, GetByteLength(bytes), this.pos === undefined ? -1 : this.pos);
        this.bytesWritten += n;
        if (this.pos !== undefined) this.pos += n;
      } catch (err) {
        cb(err);
        return;
      }
      cb();
    }
    close(cb) {
      if (cb) {
        if (this.closed) { defer(cb); return; }
        this.on('close', cb);
      }
      if (!this.autoClose) this.on('finish', this.destroy);
      this.end();
    }
    destroySoon() { this.end(); }
  }

  // What both streams do with their fd: open it (unless given one) before the first read or write, close it
  // at the end when autoClose.
  const fileStream = {
    get pending() { return this.fd === null; },
    _construct(callback) {
      if (this.fd !== null) { callback(); return; }
      try {
        this.fd = sys.open(toPath(this.path), stringToFlags(this.flags), parseMode(this.mode, 'mode', 0o666));
      } catch (err) {
        callback(err);
        return;
      }
      callback();
      this.emit('open', this.fd);
      this.emit('ready');
    },
    _destroy(err, cb) {
      if (this.fd !== null && this.autoClose) {
        const fd = this.fd;
        this.fd = null;
        // A FileHandle's stream closes the handle, so that closing it again later is not an EBADF.
        const handle = this[kHandle];
        if (handle !== undefined) {
          PromisePrototypeThen(handle.close(), () => cb(err), (e) => cb(err || e));
          return;
        }
        try { sys.close(fd); } catch (e) { err = err || e; }
      }
      cb(err);
    },
  };
  for (const C of new SafeArrayIterator([ReadStream, WriteStream])) {
    for (const key of new SafeArrayIterator(['pending', '_construct', '_destroy'])) ObjectDefineProperty(C.prototype, key, { ...ObjectGetOwnPropertyDescriptor(fileStream, key), enumerable: false });
  }

  streamClasses.ReadStream = streamClasses.FileReadStream = ReadStream;
  streamClasses.WriteStream = streamClasses.FileWriteStream = WriteStream;
}

function createReadStream(path, options) {
  defineStreams();
  return new streamClasses.ReadStream(path, options);
}
function createWriteStream(path, options) {
  defineStreams();
  return new streamClasses.WriteStream(path, options);
}

// ---- exports ------------------------------------------------------------------------------------------------

function watch() { throw unsupported('fs.watch'); }
// ---- fs.watchFile: Node's stat polling (libuv's fs_poll), a stat of the path every `interval` ms ------------

/** The stat fields libuv compares (dev, mode, uid, gid, ino, size, mtime, ctime, birthtime): not atime. */
const POLLED_FIELDS = [0, 1, 3, 4, 7, 8, 11, 12, 13];
const ZERO_STAT = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
/** Absolute path → its StatWatcher, shared by every watchFile of that path (as Node's). */
const statWatchers = new SafeMap();
let StatWatcher;
const kBigInt = Symbol('kBigInt');
const kPersistent = Symbol('kPersistent');

function statWatcherClass() {
  if (StatWatcher !== undefined) return StatWatcher;
  StatWatcher = class StatWatcher extends require('events') {
    constructor(bigint) {
      super();
      this._handle = null;
      this[kBigInt] = { bigint };
      this[kPersistent] = false;
    }

    /**
     * Polls `path` as libuv does: a first stat at once, then one every `interval` ms; 'change' (current,
     * previous) when a stat differs from the last good one, or fails (zeroed current) for a new reason.
     */
    start(path, persistent, interval) {
      let last = ZERO_STAT;
      let status = '';
      const poll = () => {
        let curr;
        try {
          curr = sys.stat(path, true);
        } catch (err) {
          if (status !== err.code) this.emit('change', makeStats(ZERO_STAT, this[kBigInt]), makeStats(last, this[kBigInt]));
          status = err.code;
        }
        if (curr !== undefined) {
          if (status !== '' && (status !== 'ok' || ArrayPrototypeSome(POLLED_FIELDS, (i) => curr[i] !== last[i]))) this.emit('change', makeStats(curr, this[kBigInt]), makeStats(last, this[kBigInt]));
          last = curr;
          status = 'ok';
        }
        if (this._handle === null) return;
        this._handle.timer = setTimeout(poll, interval);
        if (!this[kPersistent]) this._handle.timer.unref();
      };
      this[kPersistent] = persistent;
      this._handle = { timer: setTimeout(poll, 0) };
      if (!persistent) this._handle.timer.unref();
    }

    stop() {
      if (this._handle === null) return;
      clearTimeout(this._handle.timer);
      this._handle = null;
      require('process').nextTick(() => this.emit('stop'));
    }

    ref() {
      this[kPersistent] = true;
      if (this._handle !== null) this._handle.timer.ref();
      return this;
    }

    unref() {
      this[kPersistent] = false;
      if (this._handle !== null) this._handle.timer.unref();
      return this;
    }
  };
  return StatWatcher;
}

function absolutePath(path) {
  return require('path').resolve(toPath(path));
}

function watchFile(filename, options, listener) {
  const path = absolutePath(filename);
  if (options === null || typeof options !== 'object') {
    listener = options;
    options = null;
  }
  options = { interval: 5007, persistent: true, ...options };
  if (typeof listener !== 'function') throw errInvalidArgType('listener', 'of type function', listener);
  let stat = statWatchers.get(path);
  if (stat === undefined) {
    const Watcher = statWatcherClass();
    stat = new Watcher(options.bigint === true);
    stat.start(path, options.persistent !== false, options.interval);
    statWatchers.set(path, stat);
  } else if (options.persistent !== false) stat.ref();
  stat.addListener('change', listener);
  return stat;
}

function unwatchFile(filename, listener) {
  const path = absolutePath(filename);
  const stat = statWatchers.get(path);
  if (stat === undefined) return;
  if (typeof listener === 'function') stat.removeListener('change', listener);
  else stat.removeAllListeners('change');
  if (stat.listenerCount('change') === 0) {
    stat.stop();
    statWatchers.delete(path);
  }
}

const syncApi = {
  openSync, closeSync, readSync, writeSync, readFileSync, writeFileSync, appendFileSync, statSync, lstatSync,
  fstatSync, existsSync, accessSync, readdirSync, mkdirSync, rmdirSync, rmSync, unlinkSync, renameSync,
  copyFileSync, cpSync, symlinkSync, linkSync, readlinkSync, realpathSync, chmodSync, fchmodSync, chownSync,
  fchownSync, lchownSync, utimesSync, lutimesSync, futimesSync, truncateSync, ftruncateSync, fsyncSync,
  fdatasyncSync, mkdtempSync, opendirSync, readvSync, writevSync, statfsSync,
};
const syncNames = ObjectKeys(syncApi);
for (let i = 0; i < syncNames.length; i++) exports[syncNames[i]] = syncApi[syncNames[i]];

// Callback forms: [name, arity of Node's signature with the callback, whether the callback gets a result].
const callbackForms = [
  ['open', 4, true], ['readFile', 3, true], ['stat', 3, true], ['lstat', 3, true], ['fstat', 3, true],
  ['readdir', 3, true], ['mkdir', 3, true], ['readlink', 3, true], ['realpath', 3, true], ['mkdtemp', 3, true],
  ['opendir', 3, true], ['close', 2, false], ['writeFile', 4, false], ['appendFile', 4, false], ['access', 3, false],
  ['rmdir', 3, false], ['rm', 3, false], ['unlink', 2, false], ['rename', 3, false], ['copyFile', 4, false],
  ['cp', 4, true], ['symlink', 4, false], ['link', 3, false], ['chown', 4, false], ['lchown', 4, false],
  ['statfs', 3, true], ['utimes', 4, false], ['lutimes', 4, false], ['futimes', 4, false], ['truncate', 3, false],
  ['ftruncate', 3, false], ['fsync', 2, false], ['fdatasync', 2, false],
];
for (let i = 0; i < callbackForms.length; i++) {
  const f = callbackForms[i];
  exports[f[0]] = callbackify(f[0], syncApi[f[0] + 'Sync'], f[1], f[2]);
}
exports.realpath.native = callbackify('native', realpathSync, 3, true);
for (const name of new SafeArrayIterator(['chmod', 'fchmod', 'fchown'])) {
  const check = prepared[name];
  exports[name] = {
    [name](...args) {
      const cb = args[check.length];
      args.length = check.length;
      const op = ReflectApply(check, undefined, args);
      validateFunction(cb, 'cb');
      settle((err) => (err ? cb(err) : cb(null)), op);
    },
  }[name];
}
// Linux has no lchmod: Node's fs has the keys, undefined.
exports.lchmod = undefined;
exports.lchmodSync = undefined;
// Node 24's fs.mkdir parses the mode before it checks the callback; Node 20 checks the callback first.
const mkdirCallback = exports.mkdir;
exports.mkdir = function mkdir(path, options, callback) {
  if (nodeMajor() >= 24 && typeof options !== 'function') {
    if (typeof options === 'number' || typeof options === 'string') parseMode(options, 'mode', 0o777);
    else if (options != null && typeof options === 'object' && options.mode !== undefined) parseMode(options.mode, 'options.mode', 0o777);
  }
  return ReflectApply(mkdirCallback, this, arguments);
};

// read/write call back with two results: (err, bytesRead, buffer) and (err, bytesWritten, buffer|string).
exports.read = function read(fd, buffer, offset, length, position, callback) {
  validateFd(fd);
  const args = ArrayPrototypeSlice(arguments, 1);
  const cb = takeCallback(args, 5);
  let buf = args[0];
  if (args.length === 0 || (buf !== null && typeof buf === 'object' && !ArrayBufferIsView(buf))) {
    // read(fd, [options,] cb): the buffer comes from the options, or a new 16 KiB one.
    const o = args[0] || {};
    buf = GetBuffer(o) !== undefined ? GetBuffer(o) : Buffer.alloc(16384);
    const off = o.offset !== undefined ? o.offset : 0;
    settle(cb, () => [readSync(fd, buf, off, GetLength(o) !== undefined ? GetLength(o) : GetByteLength(buf) - off, o.position !== undefined ? o.position : null), buf], true);
    return;
  }
  ArrayPrototypeUnshift(args, fd);
  settle(cb, () => [ReflectApply(readSync, undefined, args), buf], true);
};
exports.write = function write(fd, buffer, offset, length, position, callback) {
  validateFd(fd);
  const args = ArrayPrototypeSlice(arguments, 1);
  const cb = takeCallback(args, 5);
  const data = args[0];
  ArrayPrototypeUnshift(args, fd);
  settle(cb, () => [ReflectApply(writeSync, undefined, args), data], true);
};
// readv/writev call back with (err, bytes, buffers), failures included (bytes 0 then).
for (const entry$1639 of new SafeArrayIterator([['readv', readvSync], ['writev', writevSync]])) { const name = entry$1639[0], syncFn = entry$1639[1];
  exports[name] = {
    [name](fd, buffers, position, callback) {
      validateFd(fd);
      validateBufferArray(buffers);
      const cb = validateFunction(callback || position, 'cb');
      settle((err, n) => cb(err, n || 0, buffers), () => syncFn(fd, buffers, typeof position === 'function' ? null : position));
    },
  }[name];
}
exports.exists = function exists(path, callback) {
  validateFunction(callback, 'cb');
  const r = existsSync(path);
  defer(callback, r);
};

exports.createReadStream = createReadStream;
exports.createWriteStream = createWriteStream;
exports.watch = watch;
exports.watchFile = watchFile;
exports.unwatchFile = unwatchFile;
exports.constants = constants;
exports.F_OK = F_OK;
exports.R_OK = constants.R_OK;
exports.W_OK = constants.W_OK;
exports.X_OK = constants.X_OK;
exports.Stats = Stats;
exports.Dirent = Dirent;
exports.Dir = Dir;
exports.openAsBlob = openAsBlob;

for (const name of new SafeArrayIterator(['ReadStream', 'WriteStream', 'FileReadStream', 'FileWriteStream'])) {
  ObjectDefineProperty(exports, name, {
    enumerable: true, configurable: true,
    get() { defineStreams(); return streamClasses[name]; },
    set(v) { streamClasses[name] = v; },
  });
}
// Loaded on first use, so that `fs` alone does not evaluate the promises module.
ObjectDefineProperty(exports, 'promises', {
  enumerable: true, configurable: true,
  get() { return require('fs/promises'); },
});
