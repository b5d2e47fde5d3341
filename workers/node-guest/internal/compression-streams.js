// CompressionStream and DecompressionStream, as Node's lib/internal/webstreams/compression.js makes them: a
// zlib stream of the guest's own, seen through the Duplex ↔ WHATWG streams adapter (Duplex.toWeb).
'use strict';

const {
  ArrayBufferIsView,
  Number,
  ObjectDefineProperty,
  ReflectApply,
  SymbolFor,
  SymbolToStringTag,
  TypeError,
  Uint8Array,
  StringPrototypeSplit,
  SafeArrayIterator,
  StringPrototypeSlice,
  GetBuffer,
  GetByteOffset,
  GetByteLength,
} = require('internal/primordials');

const { codeError, invalidArgType } = require('internal/errors');

const customInspect = SymbolFor('nodejs.util.inspect.custom');
// The process's Node version is known only when it starts, which may be after this module is loaded.
const newer = () => Number(StringPrototypeSplit(process.versions.node, '.')[0]) >= 24;

/** The zlib factory for each format, per direction; brotli came with Node 24. */
const COMPRESS = { __proto__: null, deflate: 'createDeflate', 'deflate-raw': 'createDeflateRaw', gzip: 'createGzip', brotli: 'createBrotliCompress' };
const DECOMPRESS = { __proto__: null, deflate: 'createInflate', 'deflate-raw': 'createInflateRaw', gzip: 'createGunzip', brotli: 'createBrotliDecompress' };

function invalidFormat(className, format) {
  if (newer()) return codeError(TypeError, 'ERR_INVALID_ARG_VALUE', `Failed to construct '${className}': 1st argument '${format}' is not a valid enum value of type CompressionFormat.`);
  let shown = require('util').inspect(format);
  if (shown.length > 128) shown = `${StringPrototypeSlice(shown, 0, 128)}...`;
  return codeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The argument 'format' is invalid. Received ${shown}`);
}

/**
 * Node's Writable takes any ArrayBufferView (and, under Node 24's adapter, an ArrayBuffer) where the port
 * takes only a Uint8Array: the zlib stream is given each such chunk as a Uint8Array over the same bytes.
 */
function takeBufferSources(handle) {
  const write = handle.write;
  const { isAnyArrayBuffer } = require('util').types;
  handle.write = function (chunk, encoding, callback) {
    if (ArrayBufferIsView(chunk)) chunk = new Uint8Array(GetBuffer(chunk), GetByteOffset(chunk), GetByteLength(chunk));
    else if (newer() && isAnyArrayBuffer(chunk)) chunk = new Uint8Array(chunk);
    else if (chunk !== null && typeof chunk !== 'string') throw invalidArgType('chunk', 'of type string or an instance of Buffer, TypedArray, or DataView', chunk);
    return ReflectApply(write, this, [chunk, encoding, callback]);
  };
  return handle;
}

/** The readable/writable pair over a new zlib stream of `format`. */
function pairFor(className, factories, format) {
  // Node 24 converts the format as a webidl enum (a string); Node 20 looks it up as it is.
  if (newer()) format = `${format}`;
  const name = typeof format === 'string' && (format !== 'brotli' || newer()) ? factories[format] : undefined;
  if (name === undefined) throw invalidFormat(className, format);
  // Node 24 takes nothing after the end of the compressed data.
  const options = factories === DECOMPRESS && newer() ? { rejectGarbageAfterEnd: true } : undefined;
  return require('stream').Duplex.toWeb(takeBufferSources(require('zlib')[name](options)));
}

/** Node 20 checks `this` with a brand test; Node 24 reads the private field and lets V8 throw. */
function checkThis(self, className, has) {
  if (has) return;
  if (newer()) throw new TypeError('Cannot read private member #transform from an object whose class did not declare it');
  throw codeError(TypeError, 'ERR_INVALID_THIS', `Value of "this" must be of type ${className}`);
}

/** Node's webstreams customInspect: `Name { ...data }`, nothing once past the depth. */
function inspectAs(name, data, depth, options, inspect) {
  if (depth < 0) return undefined;
  return `${name} ${inspect(data, { ...options, depth: options.depth == null ? null : options.depth - 1 })}`;
}

class CompressionStream {
  #transform;
  constructor(format) {
    this.#transform = pairFor('CompressionStream', COMPRESS, format);
  }
  get readable() {
    checkThis(this, 'CompressionStream', #transform in this);
    return this.#transform.readable;
  }
  get writable() {
    checkThis(this, 'CompressionStream', #transform in this);
    return this.#transform.writable;
  }
  [customInspect](depth, options, inspect) {
    return inspectAs('CompressionStream', { readable: this.readable, writable: this.writable }, depth, options, inspect);
  }
}

class DecompressionStream {
  #transform;
  constructor(format) {
    this.#transform = pairFor('DecompressionStream', DECOMPRESS, format);
  }
  get readable() {
    checkThis(this, 'DecompressionStream', #transform in this);
    return this.#transform.readable;
  }
  get writable() {
    checkThis(this, 'DecompressionStream', #transform in this);
    return this.#transform.writable;
  }
  [customInspect](depth, options, inspect) {
    return inspectAs('DecompressionStream', { readable: this.readable, writable: this.writable }, depth, options, inspect);
  }
}

for (const C of new SafeArrayIterator([CompressionStream, DecompressionStream])) {
  ObjectDefineProperty(C.prototype, 'readable', { enumerable: true });
  ObjectDefineProperty(C.prototype, 'writable', { enumerable: true });
  ObjectDefineProperty(C.prototype, SymbolToStringTag, { value: C.name, writable: false, enumerable: false, configurable: true });
}

module.exports = { CompressionStream, DecompressionStream };
