// Node's streams: the `readable-stream` port of Node's own implementation (npm), as Node's `stream` module,
// with the adapters to and from WHATWG streams that the port leaves empty.
'use strict';

const {
  ArrayBufferIsView,
  Error,
  Number,
  ObjectDefineProperty,
  ObjectGetOwnPropertyDescriptor,
  Symbol,
  ArrayPrototypePush, StringPrototypeSplit,
  SafeArrayIterator,
} = require('internal/primordials');

const { codeError } = require('internal/errors');
const process = require('process');

// The port's entry point is its Readable; its `Stream` is the module Node's lib/stream.js makes.
const Stream = internal.require('npm-stream').Stream;
require('internal/webstreams-adapters')(Stream);

// The process's Node version is known only when it starts, after this module is loaded.
const major = () => Number(StringPrototypeSplit(process.versions.node, '.')[0]);

function assert(ok) {
  if (!ok) throw codeError(Error, 'ERR_INTERNAL_ASSERTION', 'This is caused by either a bug in Node.js or incorrect usage of Node.js internals.\nPlease open an issue with this stack trace at https://github.com/nodejs/node/issues\n');
}

const kCallback = Symbol('Callback');
const kInitOtherSide = Symbol('InitOtherSide');

/** One end of Node's duplexPair: what is written to one is read from the other. */
class DuplexSide extends Stream.Duplex {
  #otherSide = null;

  constructor(options) {
    super(options);
    this[kCallback] = null;
    this.#otherSide = null;
  }

  [kInitOtherSide](otherSide) {
    assert(this.#otherSide === null);
    this.#otherSide = otherSide;
  }

  _read() {
    const callback = this[kCallback];
    if (callback) {
      this[kCallback] = null;
      callback();
    }
  }

  _write(chunk, encoding, callback) {
    assert(this.#otherSide !== null);
    assert(this.#otherSide[kCallback] === null);
    if (chunk.length === 0) {
      process.nextTick(callback);
    } else {
      this.#otherSide.push(chunk);
      this.#otherSide[kCallback] = callback;
    }
  }

  _final(callback) {
    this.#otherSide.on('end', callback);
    this.#otherSide.push(null);
  }

  _destroy(err, callback) {
    const otherSide = this.#otherSide;
    // Before Node 24, destroying one side leaves the other as it is.
    if (major() >= 24 && otherSide !== null && !otherSide.destroyed) {
      // Not in the stack that destroys this side (an HTTP parser's, say).
      process.nextTick(() => {
        if (otherSide.destroyed) return;
        // Closed without the error, which the other side's user would not be listening for.
        if (err) otherSide.destroy();
        else otherSide.push(null);
      });
    }
    callback(err);
  }
}

function duplexPair(options) {
  const side0 = new DuplexSide(options);
  const side1 = new DuplexSide(options);
  side0[kInitOtherSide](side1);
  side1[kInitOtherSide](side0);
  return [side0, side1];
}

Stream.duplexPair = duplexPair;
Stream._isArrayBufferView = ArrayBufferIsView;

// Node's keys, in Node's order.
const ORDER = ['isDestroyed', 'isDisturbed', 'isErrored', 'isReadable', 'isWritable', 'Readable', 'Writable', 'Duplex', 'Transform', 'PassThrough', 'duplexPair', 'pipeline', 'addAbortSignal', 'finished', 'destroy', 'compose', 'setDefaultHighWaterMark', 'getDefaultHighWaterMark', 'promises', 'Stream', '_isArrayBufferView', '_isUint8Array', '_uint8ArrayToBuffer'];
for (const key of new SafeArrayIterator(ORDER)) {
  const d = ObjectGetOwnPropertyDescriptor(Stream, key);
  delete Stream[key];
  ObjectDefineProperty(Stream, key, d);
}
module.exports = Stream;
