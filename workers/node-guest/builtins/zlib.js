// `zlib`, host-assisted: the worker's zlib transforms bytes the guest hands it (host-ops.ts put/zlib/take).
// The streams gather their input and transform it at the end (no incremental output yet).
'use strict';

const { Buffer } = require('buffer');
const { Transform } = require('stream');
const { codeError } = require('internal/errors');
const host = internal.host;
const sys = internal.sys;

function toBuffer(data) {
  if (typeof data === 'string') return Buffer.from(data);
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer) return Buffer.from(data);
  throw require('internal/errors').invalidArgType('buffer', 'of type string or an instance of Buffer, TypedArray, DataView, or ArrayBuffer', data);
}

function run(method, data, options) {
  sys.put(toBuffer(data));
  const level = options && typeof options.level === 'number' ? options.level : undefined;
  const n = host('zlib', method, level);
  if (internal.isFailure(n)) {
    const broken = n.slice(2) === 'EPIPE';
    const e = new Error(broken ? 'unexpected end of file' : 'incorrect header check');
    e.errno = broken ? -5 : -3;
    e.code = broken ? 'Z_BUF_ERROR' : 'Z_DATA_ERROR';
    throw e;
  }
  return Buffer.from(sys.take(n));
}

const METHODS = ['deflate', 'inflate', 'gzip', 'gunzip', 'deflateRaw', 'inflateRaw', 'unzip', 'brotliCompress', 'brotliDecompress'];
const CLASSES = { deflate: 'Deflate', inflate: 'Inflate', gzip: 'Gzip', gunzip: 'Gunzip', deflateRaw: 'DeflateRaw', inflateRaw: 'InflateRaw', unzip: 'Unzip', brotliCompress: 'BrotliCompress', brotliDecompress: 'BrotliDecompress' };

module.exports = { constants: { Z_NO_FLUSH: 0, Z_PARTIAL_FLUSH: 1, Z_SYNC_FLUSH: 2, Z_FULL_FLUSH: 3, Z_FINISH: 4, Z_OK: 0, Z_STREAM_END: 1, Z_BUF_ERROR: -5, Z_DATA_ERROR: -3, Z_DEFAULT_COMPRESSION: -1, Z_BEST_SPEED: 1, Z_BEST_COMPRESSION: 9, BROTLI_PARAM_QUALITY: 1 } };
Object.assign(module.exports, module.exports.constants);

for (const method of METHODS) {
  const sync = (data, options) => run(method, data, options);
  module.exports[`${method}Sync`] = sync;
  module.exports[method] = (data, options, callback) => {
    if (typeof options === 'function') [callback, options] = [options, undefined];
    let result;
    try {
      result = sync(data, options);
    } catch (e) {
      return void internal.nextTick(callback, e);
    }
    internal.nextTick(callback, null, result);
  };
  class Stream extends Transform {
    constructor(options) {
      super(options);
      this._options = options;
      this._chunks = [];
      this.bytesWritten = 0;
    }
    _transform(chunk, encoding, callback) {
      const b = toBuffer(chunk);
      this.bytesWritten += b.length;
      this._chunks.push(b);
      callback();
    }
    _flush(callback) {
      try {
        this.push(sync(Buffer.concat(this._chunks), this._options));
      } catch (e) {
        return callback(e);
      }
      callback();
    }
    close(callback) {
      if (callback) internal.nextTick(callback);
      this.destroy();
    }
  }
  Object.defineProperty(Stream, 'name', { value: CLASSES[method] });
  module.exports[CLASSES[method]] = Stream;
  module.exports[`create${CLASSES[method]}`] = (options) => new Stream(options);
}
module.exports.crc32 = undefined;
delete module.exports.crc32;
void codeError;
