// The guest's `fs/promises` (also `fs.promises`): each function does the synchronous operation of `fs` and settles
// a promise with its result; every failure, argument errors included, is a rejection, as in Node's async functions.
'use strict';

const {
  ReflectApply,
  ObjectDefineProperty,
  ArrayBufferIsView,
  Error,
  Promise,
  Symbol,
  StringPrototypeIndexOf,
  StringPrototypeSlice,
  GetBuffer,
  GetByteLength,
  GetLength,
} = require('internal/primordials');

const fs = require('fs');
const { Buffer } = require('buffer');

// Captured when this module is evaluated, so that a guest patching `fs` (graceful-fs does) does not change
// what the promises API does.
const {
  openSync, closeSync, readSync, writeSync, readFileSync, writeFileSync, appendFileSync, fstatSync, ftruncateSync,
  fsyncSync, fdatasyncSync, futimesSync, fchmodSync, fchownSync, readvSync, writevSync, createReadStream,
  createWriteStream, watch,
} = fs;
const PromiseCtor = Promise;
const ErrorCtor = Error;
const SymbolAsyncDispose = Symbol.asyncDispose;

function run(work) {
  return new PromiseCtor((resolve, reject) => {
    try {
      resolve(work());
    } catch (err) {
      reject(err);
    }
  });
}

// promises.NAME over fs.NAME + 'Sync'.
function promisified(name) {
  const syncFn = fs[`${name}Sync`];
  return {
    [name](...args) { return run(() => ReflectApply(syncFn, undefined, args)); },
  }[name];
}

const kFd = Symbol('kFd');

function badFd(syscall) {
  const err = new ErrorCtor(`EBADF: bad file descriptor, ${syscall}`);
  err.errno = -9;
  err.code = 'EBADF';
  err.syscall = syscall;
  return err;
}

// An open file of the promises API; its methods are those of Node's FileHandle that the VM can serve.
class FileHandle {
  constructor(fd) {
    this[kFd] = fd;
  }
  get fd() { return this[kFd]; }
  #open(syscall) {
    if (this[kFd] < 0) throw badFd(syscall);
    return this[kFd];
  }
  read(buffer, offset, length, position) {
    return run(() => {
      const fd = this.#open('read');
      let buf = buffer;
      let off = offset;
      let len = length;
      let pos = position;
      if (buf == null || !ArrayBufferIsView(buf)) {
        // read([options]): Node's defaults, a new 16 KiB buffer.
        const o = buf || {};
        buf = GetBuffer(o) !== undefined ? GetBuffer(o) : Buffer.alloc(16384);
        off = o.offset; len = GetLength(o); pos = o.position;
      } else if (off !== null && typeof off === 'object') {
        const o = off;
        off = o.offset; len = GetLength(o); pos = o.position;
      }
      if (off == null) off = 0;
      if (len == null) len = GetByteLength(buf) - off;
      const bytesRead = len === 0 ? 0 : readSync(fd, buf, off, len, pos === undefined ? null : pos);
      return { bytesRead, buffer: buf };
    });
  }
  write(data, offsetOrPosition, lengthOrEncoding, position) {
    return run(() => {
      const fd = this.#open('write');
      if (typeof data === 'string') {
        return { bytesWritten: writeSync(fd, data, offsetOrPosition, lengthOrEncoding), buffer: data };
      }
      const bytesWritten = ReflectApply(writeSync, undefined, [fd, data, offsetOrPosition, lengthOrEncoding, position]);
      return { bytesWritten, buffer: data };
    });
  }
  readFile(options) { return run(() => readFileSync(this.#open('read'), options)); }
  writeFile(data, options) { return run(() => writeFileSync(this.#open('write'), data, options)); }
  appendFile(data, options) { return run(() => appendFileSync(this.#open('write'), data, options)); }
  stat(options) { return run(() => fstatSync(this.#open('fstat'), options)); }
  truncate(len) { return run(() => ftruncateSync(this.#open('ftruncate'), len)); }
  sync() { return run(() => fsyncSync(this.#open('fsync'))); }
  datasync() { return run(() => fdatasyncSync(this.#open('fdatasync'))); }
  utimes(atime, mtime) { return run(() => futimesSync(this.#open('futime'), atime, mtime)); }
  chmod(mode) { return run(() => fchmodSync(this.#open('fchmod'), mode)); }
  chown(uid, gid) { return run(() => fchownSync(this.#open('fchown'), uid, gid)); }
  readv(buffers, position) {
    return run(() => ({ __proto__: null, bytesRead: readvSync(this.#open('readv'), buffers, position), buffers }));
  }
  writev(buffers, position) {
    return run(() => ({ __proto__: null, bytesWritten: writevSync(this.#open('writev'), buffers, position), buffers }));
  }
  createReadStream(options) { return createReadStream(null, { ...options, fd: this }); }
  createWriteStream(options) { return createWriteStream(null, { ...options, fd: this }); }
  // As Node: a readline Interface over a read stream of this file, taking \r\n as one line break.
  readLines(options) {
    const { Interface } = require('readline');
    return new Interface({ input: this.createReadStream(options), crlfDelay: Infinity });
  }
  close() {
    return run(() => {
      if (this[kFd] < 0) return undefined;
      const fd = this[kFd];
      this[kFd] = -1;
      closeSync(fd);
      return undefined;
    });
  }
}
if (SymbolAsyncDispose !== undefined) {
  ObjectDefineProperty(FileHandle.prototype, SymbolAsyncDispose, {
    value: function asyncDispose() { return this.close(); }, configurable: true, writable: true,
  });
}

// readFile/writeFile/appendFile take a FileHandle in place of a path.
function orFd(file) { return file instanceof FileHandle ? file.fd : file; }

const names = ['access', 'chmod', 'copyFile', 'cp', 'link', 'lstat', 'lutimes', 'mkdir', 'mkdtemp', 'opendir', 'readdir',
  'readlink', 'realpath', 'rename', 'rm', 'rmdir', 'stat', 'symlink', 'truncate', 'unlink', 'utimes', 'chown', 'lchown', 'statfs'];
for (let i = 0; i < names.length; i++) exports[names[i]] = promisified(names[i]);

// Linux has no lchmod: Node's promise says so before it looks at the arguments.
exports.lchmod = function lchmod(path, mode) {
  return run(() => {
    const message = 'The lchmod() method is not implemented';
    const err = new ErrorCtor(message);
    ObjectDefineProperty(err, 'code', { value: 'ERR_METHOD_NOT_IMPLEMENTED', enumerable: true, writable: true, configurable: true });
    const frames = StringPrototypeIndexOf(`${err.stack}`, '\n');
    err.stack = `Error [ERR_METHOD_NOT_IMPLEMENTED]: ${message}${frames === -1 ? '' : StringPrototypeSlice(`${err.stack}`, frames)}`;
    throw err;
  });
};

exports.open = function open(path, flags, mode) {
  return run(() => new FileHandle(openSync(path, flags, mode)));
};
exports.readFile = function readFile(path, options) {
  return run(() => readFileSync(orFd(path), options));
};
exports.writeFile = function writeFile(file, data, options) {
  return run(() => writeFileSync(orFd(file), data, options));
};
exports.appendFile = function appendFile(file, data, options) {
  return run(() => appendFileSync(orFd(file), data, options));
};
exports.watch = watch;
exports.constants = fs.constants;
exports.FileHandle = FileHandle;

