// process.stdout, stderr and stdin: streams over fds 0–2. Writes are synchronous system calls, as Node's
// are to files and pipes on Linux, so output is never lost at exit. stdin reads without blocking: EAGAIN
// arms the wake ring and the read goes on when the kernel says the fd is readable, so `echo hi | node`
// streams and a guest waiting for input burns nothing.
'use strict';

const {
  MathMax,
  TypedArrayPrototypeSubarray,
} = require('internal/primordials');

const { Writable, Readable } = require('stream');
const { Buffer } = require('buffer');
const { waitFd, cancelFd, setRef } = require('internal/event-loop');
const sys = internal.sys;

function writeAll(fd, chunk) {
  const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
  for (let off = 0; off < bytes.length; ) {
    const n = sys.write(fd, bytes, off, bytes.length - off, -1);
    if (n === 0) break;
    off += n;
  }
}

function createWritable(fd) {
  const stream = new Writable({
    decodeStrings: false,
    write(chunk, encoding, callback) {
      try {
        writeAll(fd, typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk);
      } catch (e) {
        return callback(e);
      }
      callback();
    },
  });
  stream.fd = fd;
  stream._type = 'fs';
  stream._isStdio = true;
  // Node sets isTTY only on terminals (the VM has none yet).
  stream.destroySoon = stream.destroy;
  // Closing stdout does not close fd 1 in Node either.
  stream._destroy = (err, cb) => cb(err);
  return stream;
}

function createReadable(fd) {
  let reading = false;
  let nonblocking = false;
  const stream = new Readable({
    highWaterMark: 64 * 1024,
    read(size) {
      if (reading) return;
      if (!nonblocking) {
        sys.setNonblocking(fd, true);
        nonblocking = true;
      }
      pump(MathMax(size, 64 * 1024));
    },
    destroy(err, cb) {
      cancelFd(fd, false);
      cb(err);
    },
  });
  function pump(size) {
    for (;;) {
      const buf = Buffer.allocUnsafe(size);
      let n;
      try {
        n = sys.read(fd, buf, 0, size, -1);
      } catch (e) {
        if (e.code === 'EAGAIN') {
          reading = true;
          waitFd(fd, false, () => {
            reading = false;
            pump(size);
          }, stream._refed !== false);
          return;
        }
        stream.destroy(e);
        return;
      }
      if (n === 0) {
        stream.push(null);
        return;
      }
      if (!stream.push(n === size ? buf : TypedArrayPrototypeSubarray(buf, 0, n))) return;
    }
  }
  stream.fd = fd;
  stream.ref = () => {
    stream._refed = true;
    setRef(fd, false, true);
    return stream;
  };
  stream.unref = () => {
    stream._refed = false;
    setRef(fd, false, false);
    return stream;
  };
  stream.setRawMode = () => stream;
  return stream;
}

module.exports = { createWritable, createReadable, writeAll };
