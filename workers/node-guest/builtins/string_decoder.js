// string_decoder: the npm port of Node's own decoder, which takes Buffers only; Node's takes any
// ArrayBufferView, and a string as it is.
'use strict';

const {
  ArrayBufferIsView,
  ReflectApply,
  GetBuffer,
  GetByteOffset,
  GetByteLength,
} = require('internal/primordials');

const { Buffer } = require('buffer');
const { invalidArgType } = require('internal/errors');
const Port = require('npm-string-decoder').StringDecoder;

function asBuffer(buf) {
  if (Buffer.isBuffer(buf)) return buf;
  if (!ArrayBufferIsView(buf)) throw invalidArgType('buf', 'an instance of Buffer, TypedArray, or DataView', buf);
  return Buffer.from(GetBuffer(buf), GetByteOffset(buf), GetByteLength(buf));
}

class StringDecoder extends Port {
  constructor(encoding) {
    super(encoding);
    // The port sets its end() per encoding, on the instance or the prototype.
    const end = this.end;
    this.end = function (buf) {
      return ReflectApply(end, this, buf === undefined ? [] : [asBuffer(buf)]);
    };
  }

  write(buf) {
    if (typeof buf === 'string') return buf;
    return ReflectApply(Port.prototype.write, this, [asBuffer(buf)]);
  }
}

module.exports = { StringDecoder };
