// `stream/web`: the WHATWG streams of the `web-streams-polyfill` port (npm), completed with what Node adds
// (TextEncoderStream, TextDecoderStream) and printed as Node prints its own.
'use strict';

const {
  ObjectDefineProperty,
  ArrayBuffer,
  ArrayBufferIsView,
  ObjectGetOwnPropertyNames,
  SharedArrayBuffer,
  SymbolFor,
  SymbolToStringTag,
  Uint8Array,
  StringPrototypeCharCodeAt,
  SafeArrayIterator,
  ReflectApply, StringPrototypeSlice, TypedArrayPrototypeSlice,
} = require('internal/primordials');

const web = internal.require('npm-web-streams');
const { invalidArgType } = require('internal/errors');
const { CompressionStream, DecompressionStream } = require('internal/compression-streams');

const {
  ReadableStream,
  ReadableStreamDefaultReader,
  ReadableStreamBYOBReader,
  ReadableStreamBYOBRequest,
  ReadableByteStreamController,
  ReadableStreamDefaultController,
  TransformStream,
  TransformStreamDefaultController,
  WritableStream,
  WritableStreamDefaultWriter,
  WritableStreamDefaultController,
  ByteLengthQueuingStrategy,
  CountQueuingStrategy,
} = web;

const customInspect = SymbolFor('nodejs.util.inspect.custom');

/** Node's form: `Name { ...data }`, one level deeper. */
function inspectAs(name, data) {
  return function (depth, options, inspect) {
    if (depth < 0) return options.stylize(`[${name}]`, 'special');
    return `${name} ${inspect(data(this), { ...options, depth: options.depth == null ? null : options.depth - 1 })}`;
  };
}
function setInspect(Class, data) {
  ObjectDefineProperty(Class.prototype, customInspect, { value: inspectAs(Class.name, data), writable: true, configurable: true, enumerable: false });
}

setInspect(ReadableStream, (s) => ({ locked: s.locked, state: s._state, supportsBYOB: s._readableStreamController instanceof ReadableByteStreamController }));
setInspect(WritableStream, (s) => ({ locked: s.locked, state: s._state }));
setInspect(TransformStream, (s) => ({ readable: s.readable, writable: s.writable, backpressure: s._backpressure }));
setInspect(ReadableStreamDefaultReader, (r) => ({ stream: r._ownerReadableStream, readRequests: r._readRequests ? r._readRequests.length : 0, close: r._closedPromise }));
setInspect(ReadableStreamBYOBReader, (r) => ({ stream: r._ownerReadableStream, requestIntoRequests: r._readIntoRequests ? r._readIntoRequests.length : 0, close: r._closedPromise }));
setInspect(WritableStreamDefaultWriter, (w) => ({ stream: w._ownerWritableStream, close: w._closedPromise, ready: w._readyPromise, desiredSize: w._ownerWritableStream ? w.desiredSize : null }));
setInspect(ReadableStreamDefaultController, (c) => ({ stream: c._controlledReadableStream }));
setInspect(ReadableByteStreamController, (c) => ({ stream: c._controlledReadableByteStream }));
setInspect(WritableStreamDefaultController, (c) => ({ stream: c._controlledWritableStream }));
setInspect(TransformStreamDefaultController, (c) => ({ stream: c._controlledTransformStream }));
setInspect(CountQueuingStrategy, (s) => ({ highWaterMark: s.highWaterMark }));
setInspect(ByteLengthQueuingStrategy, (s) => ({ highWaterMark: s.highWaterMark }));

// Set by index: `new Uint8Array(array)` would iterate the array with a method the guest can replace.
const REPLACEMENT = new Uint8Array(3);
REPLACEMENT[0] = 0xef;
REPLACEMENT[1] = 0xbf;
REPLACEMENT[2] = 0xbd;

class TextEncoderStream {
  #pendingHighSurrogate = null;
  #encoder = new TextEncoder();
  #transform;
  constructor() {
    this.#transform = new TransformStream({
      transform: (chunk, controller) => {
        chunk = `${chunk}`;
        let start = 0;
        if (this.#pendingHighSurrogate !== null) {
          const first = StringPrototypeCharCodeAt(chunk, 0);
          if (first >= 0xdc00 && first <= 0xdfff) {
            controller.enqueue(this.#encoder.encode(this.#pendingHighSurrogate + chunk[0]));
            start = 1;
          } else {
            controller.enqueue(TypedArrayPrototypeSlice(REPLACEMENT));
          }
          this.#pendingHighSurrogate = null;
        }
        let end = chunk.length;
        const last = StringPrototypeCharCodeAt(chunk, end - 1);
        if (end > start && last >= 0xd800 && last <= 0xdbff) {
          this.#pendingHighSurrogate = chunk[end - 1];
          end--;
        }
        if (end > start) controller.enqueue(this.#encoder.encode(StringPrototypeSlice(chunk, start, end)));
      },
      flush: (controller) => {
        if (this.#pendingHighSurrogate !== null) controller.enqueue(TypedArrayPrototypeSlice(REPLACEMENT));
      },
    });
  }
  get encoding() { return 'utf-8'; }
  get readable() { return this.#transform.readable; }
  get writable() { return this.#transform.writable; }
  get [SymbolToStringTag]() { return 'TextEncoderStream'; }
  [customInspect](depth, options, inspect) {
    return ReflectApply(inspectAs('TextEncoderStream', (s) => ({ encoding: s.encoding, readable: s.readable, writable: s.writable })), this, [depth, options, inspect]);
  }
}

class TextDecoderStream {
  #decoder;
  #transform;
  constructor(encoding = 'utf-8', options = {}) {
    this.#decoder = new TextDecoder(encoding, options);
    const decoder = this.#decoder;
    this.#transform = new TransformStream({
      transform(chunk, controller) {
        if (!(chunk instanceof ArrayBuffer) && !ArrayBufferIsView(chunk) && !(typeof SharedArrayBuffer === 'function' && chunk instanceof SharedArrayBuffer)) {
          throw invalidArgType('input', 'an instance of ArrayBuffer or ArrayBufferView', chunk);
        }
        const value = decoder.decode(chunk, { stream: true });
        if (value) controller.enqueue(value);
      },
      flush(controller) {
        const value = decoder.decode();
        if (value) controller.enqueue(value);
        controller.terminate();
      },
    });
  }
  get encoding() { return this.#decoder.encoding; }
  get fatal() { return this.#decoder.fatal; }
  get ignoreBOM() { return this.#decoder.ignoreBOM; }
  get readable() { return this.#transform.readable; }
  get writable() { return this.#transform.writable; }
  get [SymbolToStringTag]() { return 'TextDecoderStream'; }
  [customInspect](depth, options, inspect) {
    return ReflectApply(inspectAs('TextDecoderStream', (s) => ({ encoding: s.encoding, fatal: s.fatal, ignoreBOM: s.ignoreBOM, readable: s.readable, writable: s.writable })), this, [depth, options, inspect]);
  }
}
for (const C of new SafeArrayIterator([TextEncoderStream, TextDecoderStream])) {
  for (const name of new SafeArrayIterator(ObjectGetOwnPropertyNames(C.prototype))) {
    if (name !== 'constructor') ObjectDefineProperty(C.prototype, name, { enumerable: true });
  }
  ObjectDefineProperty(C.prototype, customInspect, { enumerable: false });
}

module.exports = {
  ReadableStream,
  ReadableStreamDefaultReader,
  ReadableStreamBYOBReader,
  ReadableStreamBYOBRequest,
  ReadableByteStreamController,
  ReadableStreamDefaultController,
  TransformStream,
  TransformStreamDefaultController,
  WritableStream,
  WritableStreamDefaultWriter,
  WritableStreamDefaultController,
  ByteLengthQueuingStrategy,
  CountQueuingStrategy,
  TextEncoderStream,
  TextDecoderStream,
  CompressionStream,
  DecompressionStream,
};
