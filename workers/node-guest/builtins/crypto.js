// `crypto`, host-assisted: random bytes, hashes and HMACs are computed by the worker's Node over bytes the
// guest hands it (host-ops.ts put/hash/take); the objects are the guest's. Ciphers, keys and subtle are
// not available yet.
'use strict';

const { Buffer } = require('buffer');
const { Transform } = require('stream');
const { codeError, invalidArgType } = require('internal/errors');
const host = internal.host;
const sys = internal.sys;

const HASHES = ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512', 'sha512-224', 'sha512-256', 'sha3-224', 'sha3-256', 'sha3-384', 'sha3-512', 'ripemd160'];

function toBytes(data, encoding, name = 'data') {
  if (typeof data === 'string') return Buffer.from(data, encoding || 'utf8');
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer) return Buffer.from(data);
  throw invalidArgType(name, 'of type string or an instance of Buffer, TypedArray, or DataView', data);
}

function randomBytes(size, callback) {
  if (typeof size !== 'number' || size < 0 || size > 2 ** 31 - 1 || !Number.isInteger(size))
    throw codeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "size" is out of range. It must be >= 0 && <= 2147483647. Received ${size}`);
  const out = Buffer.alloc(size);
  randomFillSync(out);
  if (typeof callback === 'function') return void internal.nextTick(callback, null, out);
  return out;
}

function randomFillSync(buffer, offset = 0, size) {
  const view = new Uint8Array(buffer.buffer || buffer, (buffer.byteOffset || 0) + offset, size === undefined ? (buffer.byteLength ?? buffer.length) - offset : size);
  for (let off = 0; off < view.length; ) {
    const n = host('random', Math.min(view.length - off, internal.scratch.length));
    view.set(internal.scratch.subarray(0, n), off);
    off += n;
  }
  return buffer;
}

function randomFill(buffer, offset, size, callback) {
  if (typeof offset === 'function') [callback, offset, size] = [offset, 0, undefined];
  else if (typeof size === 'function') [callback, size] = [size, undefined];
  randomFillSync(buffer, offset, size);
  internal.nextTick(callback, null, buffer);
}

function randomUUID() {
  const b = randomBytes(16);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function randomInt(min, max, callback) {
  if (max === undefined || typeof max === 'function') [min, max, callback] = [0, min, max];
  const range = max - min;
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || range <= 0)
    throw codeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "max" is out of range. It must be greater than the value of "min" (${min}). Received ${max}`);
  const limit = 2 ** 48 - (2 ** 48 % range);
  let x;
  do x = randomBytes(6).readUIntBE(0, 6);
  while (x >= limit);
  const n = min + (x % range);
  if (typeof callback === 'function') return void internal.nextTick(callback, null, n);
  return n;
}

function digestOf(algorithm, chunks, key) {
  if (key) sys.put(key);
  for (const c of chunks) sys.put(c);
  const r = host('hash', algorithm, key ? key.length : undefined);
  if (internal.isFailure(r)) throw codeError(Error, 'ERR_OSSL_EVP_UNSUPPORTED', `Digest method not supported`);
  return Buffer.from(sys.take(r));
}

class Hash extends Transform {
  constructor(algorithm, key, name) {
    super();
    if (typeof algorithm !== 'string') throw invalidArgType('algorithm', 'of type string', algorithm);
    this._algorithm = algorithm.toLowerCase();
    if (!HASHES.includes(this._algorithm)) throw new Error(name === 'Hmac' ? `Invalid digest: ${algorithm}` : 'Digest method not supported');
    this._key = key;
    this._chunks = [];
    this._done = false;
  }
  update(data, encoding) {
    if (this._done) throw codeError(Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
    this._chunks.push(Buffer.from(toBytes(data, encoding)));
    return this;
  }
  digest(encoding) {
    if (this._done) throw codeError(Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
    this._done = true;
    const out = digestOf(this._algorithm, this._chunks, this._key);
    this._chunks = [];
    return encoding && encoding !== 'buffer' ? out.toString(encoding) : out;
  }
  copy() {
    const h = new Hash(this._algorithm, this._key);
    h._chunks = this._chunks.slice();
    return h;
  }
  _transform(chunk, encoding, callback) {
    this.update(chunk, encoding);
    callback();
  }
  _flush(callback) {
    this.push(this.digest());
    callback();
  }
}

const createHash = (algorithm) => new Hash(algorithm);
const createHmac = (algorithm, key) => new Hash(algorithm, Buffer.from(toBytes(typeof key === 'object' && key && key.export ? key.export() : key, 'utf8', 'key')), 'Hmac');

function timingSafeEqual(a, b) {
  if (a.byteLength !== b.byteLength) throw codeError(RangeError, 'ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH', 'Input buffers must have the same byte length');
  const x = toBytes(a);
  const y = toBytes(b);
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i] ^ y[i];
  return diff === 0;
}

function notAvailable(name) {
  return () => {
    throw codeError(Error, 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM', `crypto.${name} is not available in this VM`);
  };
}

const webcrypto = {
  getRandomValues(array) {
    if (!ArrayBuffer.isView(array) || array instanceof Float32Array || array instanceof Float64Array) {
      const e = new (globalThis.DOMException || TypeError)("The data argument must be an integer-type TypedArray", 'TypeMismatchError');
      throw e;
    }
    if (array.byteLength > 65536) throw new (globalThis.DOMException || RangeError)(`The ArrayBufferView's byte length (${array.byteLength}) exceeds the number of bytes of entropy available via this API (65536)`, 'QuotaExceededError');
    return randomFillSync(array);
  },
  randomUUID,
  /** SubtleCrypto's methods exist and reject: feature tests see an object, uses a clear error. */
  subtle: new Proxy(Object.create(null), {
    get: (target, name) => (typeof name === 'string' ? () => Promise.reject(codeError(Error, 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM', `crypto.subtle.${name} is not available in this VM`)) : undefined),
  }),
};

module.exports = {
  randomBytes,
  pseudoRandomBytes: randomBytes,
  randomFillSync,
  randomFill,
  randomUUID,
  randomInt,
  getRandomValues: (a) => webcrypto.getRandomValues(a),
  createHash,
  createHmac,
  hash: (algorithm, data, encoding = 'hex') => createHash(algorithm).update(data).digest(encoding),
  Hash,
  Hmac: Hash,
  timingSafeEqual,
  getHashes: () => HASHES.slice(),
  getCiphers: () => [],
  getCurves: () => [],
  webcrypto,
  subtle: undefined,
  constants: {},
  createCipheriv: notAvailable('createCipheriv'),
  createDecipheriv: notAvailable('createDecipheriv'),
  createSign: notAvailable('createSign'),
  createVerify: notAvailable('createVerify'),
  generateKeyPairSync: notAvailable('generateKeyPairSync'),
  pbkdf2Sync: notAvailable('pbkdf2Sync'),
  scryptSync: notAvailable('scryptSync'),
};
Object.defineProperty(module.exports, 'subtle', { get: () => webcrypto.subtle, enumerable: true });
