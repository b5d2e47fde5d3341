// `zlib`, host-assisted: the worker's node:zlib does the work (zlib-ops.ts). One-shot forms are one host call;
// a stream owns an engine in the worker (an integer id here) that each write feeds, so output is pushed as
// input arrives. The engine is released at the stream's end, on error, close()/destroy(), or when the guest
// object is collected.
'use strict';

const {
  ObjectDefineProperty,
  JSONParse,
  JSONStringify,
  ArrayBuffer,
  ArrayBufferIsView,
  Error,
  FinalizationRegistry,
  NumberIsFinite,
  NumberIsNaN,
  ObjectFreeze,
  ObjectKeys,
  RangeError,
  Symbol,
  ArrayPrototypePush, StringPrototypeStartsWith,
  SafeArrayIterator,
  TypedArrayPrototypeSubarray,
  GetByteLength,
  GetLength,
} = require('internal/primordials');

const { Buffer } = require('buffer');
const { Transform, finished } = require('stream');
const { setImmediate } = require('timers');
const { codeError, invalidArgType } = require('internal/errors');
const host = internal.host;
const sys = internal.sys;
const isFailure = internal.isFailure;
const FinalizationRegistryCtor = FinalizationRegistry;
const { call, hostError, bytesOf, optionEntry, receive } = require('internal/host-assist');

const isBytes = (v) => ArrayBufferIsView(v) || v instanceof ArrayBuffer;

/** One data argument for a host op's layout (host-assist.ts): a primitive as is, bytes in the scratch or pending input. */
function packOne(v, arrayBuffers = true) {
  if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return ['p', v];
  if (ArrayBufferIsView(v) || (arrayBuffers && v instanceof ArrayBuffer)) {
    const u8 = bytesOf(v);
    if (u8.length <= internal.scratchBytes) {
      internal.toScratch(u8);
      return ['s', u8.length];
    }
    sys.put(u8);
    return ['b', u8.length];
  }
  return ['o', optionEntry('', v)[2]];
}

const OPTION_KEYS = ['flush', 'finishFlush', 'chunkSize', 'windowBits', 'level', 'memLevel', 'strategy', 'maxOutputLength', 'rejectGarbageAfterEnd'];

/** Options as zlib-ops.ts reads them (host-assist.ts decodeOptions); the dictionary's bytes go to the pending input. */
function encodeOptions(opts) {
  let dictLength = -1;
  if (opts === undefined || opts === null) return [undefined, dictLength];
  const entries = [];
  const add = (k, v) => {
    const entry = optionEntry(k, v);
    if (entry) ArrayPrototypePush(entries, entry);
  };
  if (typeof opts === 'object') {
    for (const k of new SafeArrayIterator(OPTION_KEYS)) add(k, opts[k]);
    const dictionary = opts.dictionary;
    if (isBytes(dictionary)) {
      const u8 = bytesOf(dictionary);
      if (u8.length > 0) sys.put(u8);
      dictLength = u8.length;
    } else add('dictionary', dictionary);
    const params = opts.params;
    if (params !== null && typeof params === 'object') for (const k of new SafeArrayIterator(ObjectKeys(params))) add(`params.${k}`, params[k]);
    else add('params', params);
  }
  return [JSONStringify(entries), dictLength];
}

const constants = {};
const constantList = JSONParse(host('zlibConstants'));
for (let i = 0; i < constantList.length; i++) constants[constantList[i][0]] = constantList[i][1] === null ? Infinity : constantList[i][1];

const codes = {
  Z_OK: constants.Z_OK, Z_STREAM_END: constants.Z_STREAM_END, Z_NEED_DICT: constants.Z_NEED_DICT, Z_ERRNO: constants.Z_ERRNO,
  Z_STREAM_ERROR: constants.Z_STREAM_ERROR, Z_DATA_ERROR: constants.Z_DATA_ERROR, Z_MEM_ERROR: constants.Z_MEM_ERROR,
  Z_BUF_ERROR: constants.Z_BUF_ERROR, Z_VERSION_ERROR: constants.Z_VERSION_ERROR,
};
for (const k of new SafeArrayIterator(ObjectKeys(codes))) codes[codes[k]] = k;
ObjectFreeze(codes);

const METHODS = ['deflate', 'inflate', 'gzip', 'gunzip', 'deflateRaw', 'inflateRaw', 'unzip', 'brotliCompress', 'brotliDecompress'];
const CLASSES = { deflate: 'Deflate', inflate: 'Inflate', gzip: 'Gzip', gunzip: 'Gunzip', deflateRaw: 'DeflateRaw', inflateRaw: 'InflateRaw', unzip: 'Unzip', brotliCompress: 'BrotliCompress', brotliDecompress: 'BrotliDecompress' };

function syncOf(method) {
  return function (buffer, opts) {
    const pair$93 = encodeOptions(opts);
    const options = pair$93[0], dictLength = pair$93[1];
    const pair$94 = packOne(buffer);
    const layout = pair$94[0], arg = pair$94[1];
    return receive(call('zlibSync', method, options, dictLength, layout, arg));
  };
}

// ---- streams ----

const kId = Symbol('kId');
const kFlushFlag = Symbol('kFlushFlag');
/** Zero-length chunks that carry a flush through the write queue, by flag (as Node's kFlushBuffers). */
const flushBuffers = [];
for (let flag = 0; flag <= 5; flag++) {
  const b = Buffer.from(new ArrayBuffer(0));
  b[kFlushFlag] = flag;
  flushBuffers[flag] = b;
}
/** Flush flags by strength: Z_NO_FLUSH, Z_BLOCK, Z_PARTIAL_FLUSH, Z_SYNC_FLUSH, Z_FULL_FLUSH, Z_FINISH. */
const flushiness = [];
{
  const order = [0, 5, 1, 2, 3, 4];
  for (let i = 0; i < order.length; i++) flushiness[order[i]] = i;
}
const maxFlush = (a, b) => (flushiness[a] > flushiness[b] ? a : b);

/** Releases the worker's engine of a collected guest stream. */
const registry = new FinalizationRegistryCtor((id) => host('zlibFree', id));

/**
 * A stream's `_handle`, as Node's native one is to packages that reach into zlib's internals (minizlib, used by
 * tar, pacote and npm, swaps its close() while it calls _processChunk): an object whose close() releases the
 * engine. The engine is the stream's own (kId), whatever `_handle` is later set to.
 */
class ZlibHandle {
  #stream;
  constructor(stream) {
    this.#stream = stream;
  }

  close() {
    this.#stream._freeEngine();
  }
}

class ZlibBase extends Transform {
  constructor(method, opts) {
    // The worker's Node checks the options as it makes the engine: its errors are Node's.
    const pair$121 = encodeOptions(opts);
    const options = pair$121[0], dictLength = pair$121[1];
    const id = call('zlibNew', method, options, dictLength);
    let streamOptions = opts;
    if (opts && (opts.encoding || opts.objectMode || opts.writableObjectMode)) streamOptions = { ...opts, encoding: null, objectMode: false, writableObjectMode: false };
    try {
      super({ autoDestroy: true, ...streamOptions });
    } catch (e) {
      host('zlibFree', id);
      throw e;
    }
    const brotli = StringPrototypeStartsWith(method, 'brotli');
    const num = (v, d) => (typeof v === 'number' && NumberIsFinite(v) ? v : d);
    this[kId] = id;
    this._handle = new ZlibHandle(this);
    this.bytesWritten = 0;
    this._chunkSize = num(opts && opts.chunkSize, constants.Z_DEFAULT_CHUNK);
    this._defaultFlushFlag = num(opts && opts.flush, 0);
    this._finishFlushFlag = num(opts && opts.finishFlush, brotli ? constants.BROTLI_OPERATION_FINISH : constants.Z_FINISH);
    this._defaultFullFlushFlag = brotli ? constants.BROTLI_OPERATION_FLUSH : constants.Z_FULL_FLUSH;
    registry.register(this, id, this);
  }
  /** Releases the worker's engine (Node's handle.close(): `_handle` stays until the stream is destroyed). */
  _freeEngine() {
    if (this[kId] === 0) return;
    host('zlibFree', this[kId]);
    registry.unregister(this);
    this[kId] = 0;
  }
  /** The engine released and the handle gone, as Node's _close(). */
  _release() {
    this._freeEngine();
    this._handle = null;
  }
  /** The work is done on a later turn of the loop, where Node's thread pool would complete it. */
  _process(chunk, flag, callback) {
    setImmediate(() => this._processNow(chunk, flag, callback));
  }
  /**
   * Node's _processChunk: with a callback, the stream's own processing (output pushed); without, one chunk
   * processed at once, its output returned (Buffer.concat of the pieces, as Node's), the input counted in
   * bytesWritten, and the handle closed after it (Node's sync path does so; minizlib makes that close a no-op).
   */
  _processChunk(chunk, flushFlag, cb) {
    if (typeof cb === 'function') return this._process(chunk, flushFlag, cb);
    if (this[kId] === 0) throw codeError(Error, 'ERR_ZLIB_BINDING_CLOSED', 'zlib binding closed');
    const pieces = [];
    let total = 0;
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : bytesOf(chunk);
    const out = this._run(bytes, flushFlag);
    if (out.error) throw out.error;
    if (out.output !== undefined) {
      pieces[pieces.length] = out.output;
      total += GetLength(out.output);
    }
    this.bytesWritten = bytes.length;
    const handle = this._handle;
    if (handle !== null && handle !== undefined) handle.close();
    this._handle = null;
    if (total === 0) return Buffer.alloc(0);
    return pieces.length === 1 ? pieces[0] : Buffer.concat(pieces, total);
  }
  /** Feeds `bytes` with `flag` to the engine: { output, ended } or { error } (the engine is then released). */
  _run(bytes, flag) {
    let length = bytes.length;
    if (length <= internal.scratchBytes) internal.toScratch(bytes);
    else {
      sys.put(bytes);
      length = -1;
    }
    const r = host('zlibWrite', this[kId], length, flag);
    if (isFailure(r)) {
      // The worker released the engine.
      registry.unregister(this);
      this[kId] = 0;
      this._handle = null;
      return { error: hostError(r) };
    }
    const ended = r < 0;
    const n = ended ? -r - 1 : r;
    return { output: n > 0 ? receive(n) : undefined, ended };
  }
  _processNow(chunk, flag, callback) {
    if (this[kId] === 0) return void callback();
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : bytesOf(chunk);
    const { output, ended, error } = this._run(bytes, flag);
    if (error) return void callback(error);
    this.bytesWritten += bytes.length;
    if (output !== undefined) {
      const n = GetLength(output);
      for (let off = 0; off < n; off += this._chunkSize) this.push(off === 0 && n <= this._chunkSize ? output : TypedArrayPrototypeSubarray(output, off, off + this._chunkSize));
    }
    if (ended) this.push(null);
    callback();
  }
  _transform(chunk, encoding, callback) {
    let flag = this._defaultFlushFlag;
    if (chunk && typeof chunk[kFlushFlag] === 'number') flag = chunk[kFlushFlag];
    // The last chunk also gets the finishing flush.
    if (this.writableEnded && this.writableLength === GetByteLength(chunk)) flag = maxFlush(flag, this._finishFlushFlag);
    this._process(chunk, flag, callback);
  }
  _flush(callback) {
    this._transform(Buffer.alloc(0), '', (err) => {
      this._freeEngine();
      callback(err);
    });
  }
  _destroy(err, callback) {
    this._release();
    callback(err);
  }
  flush(kind, callback) {
    if (typeof kind === 'function' || (kind === undefined && !callback)) {
      callback = kind;
      kind = this._defaultFullFlushFlag;
    }
    if (this.writableFinished) {
      if (callback) internal.nextTick(callback);
    } else if (this.writableEnded) {
      if (callback) this.once('end', callback);
    } else this.write(flushBuffers[kind], '', callback);
  }
  close(callback) {
    if (callback) finished(this, callback);
    this.destroy();
  }
  reset() {
    if (this[kId] === 0) throw codeError(Error, 'ERR_INTERNAL_ASSERTION', 'zlib binding closed');
    call('zlibReset', this[kId]);
  }
}

function checkRange(value, name, lower, upper) {
  if (value === undefined || NumberIsNaN(value)) return;
  if (typeof value !== 'number') throw invalidArgType(name, 'of type number', value);
  if (!NumberIsFinite(value)) throw codeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "${name}" is out of range. It must be a finite number. Received ${value}`);
  if (value < lower || value > upper) throw codeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "${name}" is out of range. It must be >= ${lower} and <= ${upper}. Received ${value}`);
}

class Zlib extends ZlibBase {
  constructor(method, opts) {
    super(method, opts);
    this._level = typeof (opts && opts.level) === 'number' ? opts.level : constants.Z_DEFAULT_COMPRESSION;
    this._strategy = typeof (opts && opts.strategy) === 'number' ? opts.strategy : constants.Z_DEFAULT_STRATEGY;
  }
  params(level, strategy, callback) {
    checkRange(level, 'level', constants.Z_MIN_LEVEL, constants.Z_MAX_LEVEL);
    checkRange(strategy, 'strategy', constants.Z_DEFAULT_STRATEGY, constants.Z_FIXED);
    if (this._level !== level || this._strategy !== strategy) {
      this.flush(constants.Z_SYNC_FLUSH, () => {
        if (this[kId] !== 0) call('zlibParams', this[kId], level, strategy);
        if (!this.destroyed) {
          this._level = level;
          this._strategy = strategy;
          if (callback) callback();
        }
      });
    } else if (callback) internal.nextTick(callback);
  }
}

module.exports = {};

for (const method of new SafeArrayIterator(METHODS)) {
  const sync = syncOf(method);
  const Base = StringPrototypeStartsWith(method, 'brotli') ? ZlibBase : Zlib;
  const Stream = {
    [CLASSES[method]]: class extends Base {
      constructor(opts) {
        super(method, opts);
      }
    },
  }[CLASSES[method]];
  module.exports[CLASSES[method]] = Stream;
  module.exports[`${method}Sync`] = sync;
  module.exports[method] = (buffer, opts, callback) => {
    if (typeof opts === 'function') {
      callback = opts;
      opts = {};
    }
    if (typeof callback !== 'function') throw invalidArgType('callback', 'of type function', callback);
    let result;
    try {
      result = sync(buffer, opts);
    } catch (e) {
      // Errors of the data reach the callback; those of the arguments are thrown, as Node's.
      if (e && (typeof e.errno === 'number' || e.code === 'ERR_BUFFER_TOO_LARGE')) return void internal.nextTick(callback, e);
      throw e;
    }
    internal.nextTick(callback, null, result);
  };
  module.exports[`create${CLASSES[method]}`] = (opts) => new Stream(opts);
}

if (!isFailure(host('zlibCrc32', 'pp', '', 0))) {
  module.exports.crc32 = function crc32(data, value = 0) {
    const pair$279 = packOne(data, false);
    const l1 = pair$279[0], a1 = pair$279[1];
    return call('zlibCrc32', `${l1}p`, a1, value);
  };
}
module.exports.constants = constants;
module.exports.codes = codes;
// The legacy constants: on the module, not enumerable, without Brotli's (as Node).
for (const k of new SafeArrayIterator(ObjectKeys(constants))) if (!StringPrototypeStartsWith(k, 'BROTLI')) ObjectDefineProperty(module.exports, k, { enumerable: false, value: constants[k], writable: false });
