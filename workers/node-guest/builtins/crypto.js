// `crypto`, host-assisted: random bytes, hashes, HMACs, key derivations (pbkdf2, scrypt, hkdf) and ciphers are
// computed by the worker's Node over bytes the guest hands it (host-ops.ts put/hash/take, crypto-ops.ts); the
// objects are the guest's. A cipher, a key (KeyObject) or a key agreement (ECDH, DiffieHellman) is a handle in the
// worker (an integer id here), released by final(), destroy() or when the guest object is collected. Signatures
// hand the host the key argument as the guest gave it (internal/key-object.js stageKey); crypto.subtle is built on
// these (internal/webcrypto.js). An X509Certificate is a handle too, its values read from the worker's
// (internal/x509.js).
'use strict';

const {
  ArrayBufferIsView,
  ArrayPrototypeIncludes,
  ArrayPrototypePush,
  ArrayPrototypeSlice,
  JSONParse,
  JSONStringify,
  MathFloor,
  MathMin,
  NumberIsInteger,
  NumberIsSafeInteger,
  ObjectAssign,
  ObjectCreate,
  ObjectDefineProperty,
  StringPrototypeSlice,
  StringPrototypeSplit,
  StringPrototypeToLowerCase,
  SymbolFor,
  TypedArrayPrototypeSet,
  ArrayBuffer,
  BigInt,
  DataView,
  Error,
  FinalizationRegistry,
  Float32Array,
  Float64Array,
  Number,
  Promise,
  RangeError,
  Symbol,
  TypeError,
  Uint8Array,
  SafeArrayIterator,
  TypedArrayPrototypeSubarray,
  GetBuffer,
  GetByteOffset,
  GetByteLength,
  GetLength,
} = require('internal/primordials');
const { BufferPrototypeToString } = require('internal/buffer-primordials');

const { Buffer } = require('buffer');
const { Transform, Writable } = require('stream');
const { codeError, invalidArgType } = require('internal/errors');
const { setImmediate } = require('timers');
const host = internal.host;
const sys = internal.sys;

const HASHES = ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512', 'sha512-224', 'sha512-256', 'sha3-224', 'sha3-256', 'sha3-384', 'sha3-512', 'ripemd160'];

function toBytes(data, encoding, name = 'data') {
  if (typeof data === 'string') return Buffer.from(data, encoding || 'utf8');
  if (ArrayBufferIsView(data)) return Buffer.from(GetBuffer(data), GetByteOffset(data), GetByteLength(data));
  if (data instanceof ArrayBuffer) return Buffer.from(data);
  throw invalidArgType(name, 'of type string or an instance of Buffer, TypedArray, or DataView', data);
}

function randomBytes(size, callback) {
  if (typeof size !== 'number' || size < 0 || size > 2 ** 31 - 1 || !NumberIsInteger(size))
    throw codeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "size" is out of range. It must be >= 0 && <= 2147483647. Received ${size}`);
  const out = Buffer.alloc(size);
  randomFillSync(out);
  if (typeof callback === 'function') return void internal.nextTick(callback, null, out);
  return out;
}

function randomFillSync(buffer, offset = 0, size) {
  const view = new Uint8Array(GetBuffer(buffer) || buffer, (GetByteOffset(buffer) || 0) + offset, size === undefined ? (GetByteLength(buffer) ?? GetLength(buffer)) - offset : size);
  for (let off = 0; off < GetLength(view); ) {
    const n = host('random', MathMin(GetLength(view) - off, internal.scratchBytes));
    internal.fromScratch(view, off, n);
    off += n;
  }
  return buffer;
}

function randomFill(buffer, offset, size, callback) {
  if (typeof offset === 'function') {
    callback = offset; offset = 0; size = undefined;
  }
  else if (typeof size === 'function') {
    callback = size; size = undefined;
  }
  randomFillSync(buffer, offset, size);
  internal.nextTick(callback, null, buffer);
}

function randomUUID() {
  const b = randomBytes(16);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = BufferPrototypeToString(b, 'hex');
  return `${StringPrototypeSlice(h, 0, 8)}-${StringPrototypeSlice(h, 8, 12)}-${StringPrototypeSlice(h, 12, 16)}-${StringPrototypeSlice(h, 16, 20)}-${StringPrototypeSlice(h, 20)}`;
}

function randomInt(min, max, callback) {
  if (max === undefined || typeof max === 'function') {
    callback = max;
    max = min;
    min = 0;
  }
  const range = max - min;
  if (!NumberIsSafeInteger(min) || !NumberIsSafeInteger(max) || range <= 0)
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
  for (let i = 0; i < chunks.length; i++) sys.put(chunks[i]);
  const r = host('hash', algorithm, key ? GetLength(key) : undefined);
  if (internal.isFailure(r)) throw codeError(Error, 'ERR_OSSL_EVP_UNSUPPORTED', `Digest method not supported`);
  return Buffer.from(sys.take(r));
}

/**
 * Input a hash holds before it goes to the worker: a hash given more is kept by the worker (hashOpen), which
 * hashes the input as it comes, so that a hash of any length takes constant memory, as in Node.
 */
const HASH_HELD = 1024 * 1024;
/** Releases the worker's hash of a collected guest hash. */
const hashRegistry = new FinalizationRegistry((id) => host('hashFree', id));

class Hash extends Transform {
  constructor(algorithm, key, name) {
    super();
    if (typeof algorithm !== 'string') throw invalidArgType('algorithm', 'of type string', algorithm);
    this._algorithm = StringPrototypeToLowerCase(algorithm);
    if (!ArrayPrototypeIncludes(HASHES, this._algorithm)) throw new Error(name === 'Hmac' ? `Invalid digest: ${algorithm}` : 'Digest method not supported');
    this._key = key;
    this._chunks = [];
    this._held = 0;
    /** The worker's hash once the input passed HASH_HELD (0 before). */
    this._id = 0;
    this._done = false;
  }
  update(data, encoding) {
    if (this._done) throw codeError(Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
    const bytes = Buffer.from(toBytes(data, encoding));
    ArrayPrototypePush(this._chunks, bytes);
    this._held += GetLength(bytes);
    if (this._held >= HASH_HELD) this._send();
    return this;
  }
  /** The input held, to the worker's hash (opened now if it is not yet). */
  _send() {
    if (this._id === 0 && this._key) sys.put(this._key);
    for (let i = 0; i < this._chunks.length; i++) sys.put(this._chunks[i]);
    this._chunks = [];
    this._held = 0;
    if (this._id !== 0) call('hashUpdate', this._id);
    else {
      this._id = call('hashOpen', this._algorithm, this._key ? GetLength(this._key) : undefined);
      hashRegistry.register(this, this._id, this);
    }
  }
  digest(encoding) {
    if (this._done) throw codeError(Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
    this._done = true;
    let out;
    if (this._id === 0) out = digestOf(this._algorithm, this._chunks, this._key);
    else {
      this._send();
      const id = this._id;
      hashRegistry.unregister(this);
      this._id = 0;
      out = Buffer.from(receive(call('hashDigest', id)));
    }
    this._chunks = [];
    return encoding && encoding !== 'buffer' ? BufferPrototypeToString(out, encoding) : out;
  }
  copy() {
    const h = new Hash(this._algorithm, this._key);
    h._chunks = ArrayPrototypeSlice(this._chunks);
    h._held = this._held;
    if (this._id !== 0) {
      h._id = call('hashCopy', this._id);
      hashRegistry.register(h, h._id, h);
    }
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
  // Node checks these in C++: plain messages, no code in the stack.
  const check = (v, name) => {
    if (ArrayBufferIsView(v) || v instanceof ArrayBuffer) return;
    const e = new TypeError(`The "${name}" argument must be an instance of ArrayBuffer, Buffer, TypedArray, or DataView.`);
    ObjectDefineProperty(e, 'code', { __proto__: null, value: 'ERR_INVALID_ARG_TYPE', enumerable: true, writable: true, configurable: true });
    throw e;
  };
  check(a, 'buf1');
  check(b, 'buf2');
  if (GetByteLength(a) !== GetByteLength(b)) {
    const e = new RangeError('Input buffers must have the same byte length');
    ObjectDefineProperty(e, 'code', { __proto__: null, value: 'ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH', enumerable: true, writable: true, configurable: true });
    throw e;
  }
  const x = toBytes(a);
  const y = toBytes(b);
  let diff = 0;
  for (let i = 0, n = GetLength(x); i < n; i++) diff |= x[i] ^ y[i];
  return diff === 0;
}

// ---- the worker's node:crypto through crypto-ops.ts ----

const FinalizationRegistryCtor = FinalizationRegistry;
const { call, pack, optionEntry, receive } = require('internal/host-assist');

/** Options as the host's decodeOptions reads them: the named keys that are set. */
function encodeOptions(options, keys) {
  if (options === undefined || options === null) return undefined;
  const entries = [];
  if (typeof options === 'object' || typeof options === 'function') {
    for (const k of keys) {
      const entry = optionEntry(k, options[k]);
      if (entry) ArrayPrototypePush(entries, entry);
    }
  }
  return JSONStringify(entries);
}

/** The result of an async form, on a later turn of the loop (where Node's thread pool would deliver it). */
const later = (callback, result) => setImmediate(() => callback(null, result));

const validateCallback = (callback) => {
  if (typeof callback !== 'function') throw invalidArgType('callback', 'of type function', callback);
};

function pbkdf2Sync(password, salt, iterations, keylen, digest) {
  const packed = pack([password, salt, iterations, keylen, digest]);
  const layout = packed[0];
  const a = packed[1];
  return receive(call('pbkdf2', layout, a[0], a[1], a[2], a[3], a[4]));
}

function pbkdf2(password, salt, iterations, keylen, digest, callback) {
  if (typeof digest === 'function') {
    callback = digest; digest = undefined;
  }
  const key = pbkdf2Sync(password, salt, iterations, keylen, digest);
  validateCallback(callback);
  later(callback, key);
}

const SCRYPT_OPTIONS = ['N', 'r', 'p', 'cost', 'blockSize', 'parallelization', 'maxmem'];

function scryptSync(password, salt, keylen, options) {
  const packed = pack([password, salt, keylen]);
  const layout = packed[0];
  const a = packed[1];
  return receive(call('scrypt', layout, a[0], a[1], a[2], encodeOptions(options, SCRYPT_OPTIONS)));
}

function scrypt(password, salt, keylen, options, callback) {
  if (typeof options === 'function') {
    callback = options; options = undefined;
  }
  const key = scryptSync(password, salt, keylen, options);
  validateCallback(callback);
  later(callback, key);
}

function hkdfSync(digest, ikm, salt, info, keylen) {
  const packed = pack([digest, ikm, salt, info, keylen]);
  const layout = packed[0];
  const a = packed[1];
  const key = receive(call('hkdf', layout, a[0], a[1], a[2], a[3], a[4]));
  const out = new ArrayBuffer(GetLength(key));
  TypedArrayPrototypeSet(new Uint8Array(out), key);
  return out;
}

function hkdf(digest, ikm, salt, info, keylen, callback) {
  const key = hkdfSync(digest, ikm, salt, info, keylen);
  validateCallback(callback);
  later(callback, key);
}

let cipherNames;
const getCiphers = () => ArrayPrototypeSlice((cipherNames ??= StringPrototypeSplit(call('cipherList'), ',')));

/** An ArrayBuffer (or view) of a big-endian unsigned integer as a bigint: how Node reads a prime's bytes. */
function bigintOf(v) {
  if (!(v instanceof ArrayBuffer) && !ArrayBufferIsView(v)) return v;
  const hex = BufferPrototypeToString(toBytes(v), 'hex');
  return hex === '' ? 0n : BigInt(`0x${hex}`);
}

const PRIME_OPTIONS = ['safe', 'add', 'rem', 'bigint'];

/** generatePrimeSync by the worker's Node: an ArrayBuffer, or a bigint ("n" and its digits from the host). */
function generatePrimeSync(size, options = {}) {
  // Node takes add and rem as bytes or bigints; they travel as bigints.
  const o = options !== null && typeof options === 'object' ? { ...options, add: bigintOf(options.add), rem: bigintOf(options.rem) } : options;
  const r = call('generatePrime', size, encodeOptions(o, PRIME_OPTIONS));
  if (typeof r === 'string') return BigInt(StringPrototypeSlice(r, 1));
  const bytes = receive(r);
  const out = new ArrayBuffer(GetLength(bytes));
  TypedArrayPrototypeSet(new Uint8Array(out), bytes);
  return out;
}

function generatePrime(size, options, callback) {
  if (typeof options === 'function') {
    callback = options; options = {};
  }
  validateCallback(callback);
  const prime = generatePrimeSync(size, options);
  // Node's prime jobs call back with an undefined error.
  setImmediate(() => callback(undefined, prime));
}

function checkPrimeSync(candidate, options = {}) {
  const packed = pack([candidate], true);
  const layout = packed[0];
  const a = packed[1];
  return call('checkPrime', layout, a[0], encodeOptions(options, ['checks'])) === 1;
}

function checkPrime(candidate, options, callback) {
  if (typeof options === 'function') {
    callback = options; options = {};
  }
  validateCallback(callback);
  const result = checkPrimeSync(candidate, options);
  setImmediate(() => callback(undefined, result));
}

function getCipherInfo(nameOrNid, options) {
  const r = call('cipherInfo', nameOrNid, encodeOptions(options, ['keyLength', 'ivLength']));
  return r === '' ? undefined : JSONParse(r);
}

// The VM's OpenSSL state is the worker's, shared by every guest: no FIPS mode, no engines, no secure heap.
const getFips = () => 0;
function setFips(value) {
  if (value) throw codeError(Error, 'ERR_ACCESS_DENIED', 'FIPS mode is not available in this VM');
}
function setEngine(id, flags) {
  if (typeof id !== 'string') throw invalidArgType('id', 'of type string', id);
  if (flags !== undefined && typeof flags !== 'number') throw invalidArgType('flags', 'of type number', flags);
  throw codeError(Error, 'ERR_CRYPTO_ENGINE_UNKNOWN', `Engine "${id}" was not found`);
}
const secureHeapUsed = () => ({ total: 0, used: 0, utilization: 0, min: 0 });

/** Releases the worker's cipher of a collected guest cipher. */
const cipherRegistry = new FinalizationRegistryCtor((id) => host('cipherFree', id));

const kId = Symbol('kId');
const kTag = Symbol('kTag');

function invalidState(op) {
  return codeError(Error, 'ERR_CRYPTO_INVALID_STATE', `Invalid state for operation ${op}`);
}

/** Node's errors for a finished cipher that come from its C++ side: no code in the stack. */
function nativeError(message, code) {
  const e = new Error(message);
  if (code) ObjectDefineProperty(e, 'code', { __proto__: null, value: code, enumerable: true, writable: true, configurable: true });
  return e;
}

class CipherBase extends Transform {
  constructor(decipher, cipher, key, iv, options) {
    // A secret KeyObject's bytes: the host's cipher is given them as any key.
    if (isKeyObject(key) && key.type === 'secret') key = key.export();
    const packed = pack([cipher, key, iv]);
  const layout = packed[0];
  const a = packed[1];
    const id = call(decipher ? 'decipherNew' : 'cipherNew', layout, a[0], a[1], a[2], encodeOptions(options, ['authTagLength']));
    try {
      super(options);
    } catch (e) {
      host('cipherFree', id);
      throw e;
    }
    this[kId] = id;
    this[kTag] = undefined;
    this._decoder = null;
    cipherRegistry.register(this, id, this);
  }
  _release() {
    if (this[kId] === 0) return;
    host('cipherFree', this[kId]);
    cipherRegistry.unregister(this);
    this[kId] = 0;
  }
  _decode(bytes, outputEncoding, last) {
    if (!outputEncoding || outputEncoding === 'buffer') return bytes;
    const { StringDecoder } = require('string_decoder');
    this._decoder ??= new StringDecoder(outputEncoding);
    return last ? this._decoder.end(bytes) : this._decoder.write(bytes);
  }
  update(data, inputEncoding, outputEncoding) {
    if (this[kId] === 0) throw nativeError('Trying to add data in unsupported state');
    const packed = pack([data, inputEncoding], false);
  const layout = packed[0];
  const a = packed[1];
    return this._decode(receive(call('cipherUpdate', this[kId], layout, a[0], a[1])), outputEncoding, false);
  }
  final(outputEncoding) {
    if (this[kId] === 0) throw nativeError('Invalid state', 'ERR_CRYPTO_INVALID_STATE');
    const id = this[kId];
    cipherRegistry.unregister(this);
    this[kId] = 0;
    const r = call('cipherFinal', id);
    const outLength = MathFloor(r / 65536);
    const bytes = receive(outLength + (r % 65536));
    if (r % 65536 > 0) this[kTag] = Buffer.from(TypedArrayPrototypeSubarray(bytes, outLength));
    return this._decode(TypedArrayPrototypeSubarray(bytes, 0, outLength), outputEncoding, true);
  }
  setAutoPadding(ap) {
    if (this[kId] === 0) throw invalidState('setAutoPadding');
    call('cipherSetAutoPadding', this[kId], ap === undefined ? undefined : !!ap);
    return this;
  }
  setAAD(buffer, options) {
    if (this[kId] === 0) throw invalidState('setAAD');
    const plaintextLength = options !== null && typeof options === 'object' ? options.plaintextLength : undefined;
    const packed = pack([buffer, typeof plaintextLength === 'object' ? undefined : plaintextLength], false);
  const layout = packed[0];
  const a = packed[1];
    call('cipherSetAAD', this[kId], layout, a[0], a[1]);
    return this;
  }
  _transform(chunk, encoding, callback) {
    this.push(this.update(chunk, encoding));
    callback();
  }
  _flush(callback) {
    try {
      this.push(this.final());
    } catch (e) {
      callback(e);
      return;
    }
    callback();
  }
  _destroy(err, callback) {
    this._release();
    callback(err);
  }
}

class Cipheriv extends CipherBase {
  constructor(cipher, key, iv, options) {
    super(false, cipher, key, iv, options);
  }
  getAuthTag() {
    if (this[kTag] === undefined) throw invalidState('getAuthTag');
    return Buffer.from(this[kTag]);
  }
}

class Decipheriv extends CipherBase {
  constructor(cipher, key, iv, options) {
    super(true, cipher, key, iv, options);
  }
  setAuthTag(tagbuf) {
    if (this[kId] === 0) throw invalidState('setAuthTag');
    const packed = pack([tagbuf], false);
  const layout = packed[0];
  const a = packed[1];
    call('cipherSetAuthTag', this[kId], layout, a[0]);
    return this;
  }
}

// ---- keys, signatures and key-based encryption (internal/key-object.js) ----

const keys = require('internal/key-object');
const { stageKey, isKeyObject } = keys;

function generateKeyPair(type, options, callback) {
  if (typeof options === 'function') {
    callback = options; options = undefined;
  }
  validateCallback(callback);
  const { publicKey, privateKey } = keys.generateKeyPairSync(type, options);
  later((e, pair) => callback(e, pair[0], pair[1]), [publicKey, privateKey]);
}
ObjectDefineProperty(generateKeyPair, SymbolFor('nodejs.util.promisify.custom'), {
  __proto__: null,
  value: (type, options) => new Promise((resolve, reject) => generateKeyPair(type, options, (e, publicKey, privateKey) => (e ? reject(e) : resolve({ publicKey, privateKey })))),
});

function generateKey(type, options, callback) {
  validateCallback(callback);
  later(callback, keys.generateKeySync(type, options));
}

/** Signs or verifies with a key argument of Node's API (KeyObject, PEM/DER, JWK or options). */
function signWith(algorithm, data, key, stream) {
  stageKey(key);
  const packed = pack([algorithm, data]);
  const layout = packed[0];
  const a = packed[1];
  return receive(call('sign', layout, a[0], a[1], stream));
}

function verifyWith(algorithm, data, key, signature, stream, sigEncoding) {
  stageKey(key);
  const packed = pack([algorithm, data, signature]);
  const layout = packed[0];
  const a = packed[1];
  return call('verify', layout, a[0], a[1], a[2], stream, sigEncoding);
}

function sign(algorithm, data, key, callback) {
  const sig = signWith(algorithm, data, key, false);
  if (typeof callback === 'function') return void later(callback, sig);
  return sig;
}

function verify(algorithm, data, key, signature, callback) {
  const ok = verifyWith(algorithm, data, key, signature, false);
  if (typeof callback === 'function') return void later(callback, ok);
  return ok;
}

/** createSign/createVerify: the data is kept here and signed whole (as createSign(...).update(all)). */
class SignBase extends Writable {
  constructor(algorithm, options) {
    if (typeof algorithm !== 'string') throw invalidArgType('algorithm', 'of type string', algorithm);
    call('signCheck', algorithm);
    super(options);
    this._algorithm = algorithm;
    this._chunks = [];
  }
  update(data, encoding) {
    if (typeof data !== 'string' && !ArrayBufferIsView(data)) throw invalidArgType('data', 'of type string or an instance of Buffer, TypedArray, or DataView', data);
    ArrayPrototypePush(this._chunks, Buffer.from(toBytes(data, encoding)));
    return this;
  }
  _write(chunk, encoding, callback) {
    this.update(chunk, encoding);
    callback();
  }
  _data() {
    return Buffer.concat(this._chunks);
  }
}

class Sign extends SignBase {
  sign(privateKey, outputEncoding) {
    const sig = signWith(this._algorithm, this._data(), privateKey, true);
    return outputEncoding && outputEncoding !== 'buffer' ? BufferPrototypeToString(sig, outputEncoding) : sig;
  }
}

class Verify extends SignBase {
  verify(object, signature, sigEncoding) {
    return verifyWith(this._algorithm, this._data(), object, signature, true, sigEncoding);
  }
}

function keyCipher(name) {
  return (key, buffer) => {
    stageKey(key);
    const packed = pack([buffer]);
  const layout = packed[0];
  const a = packed[1];
    return receive(call('keyCipher', name, layout, a[0]));
  };
}

/** Where Node ≥ 24 differs, the guest follows the host's major, as it reports it. */
const NEWER = Number(StringPrototypeSplit(process.versions.node, '.')[0]) >= 24;

function diffieHellman(options, callback) {
  if (options === null || typeof options !== 'object') throw invalidArgType('options', 'of type object', options);
  const { privateKey, publicKey } = options;
  if (NEWER) {
    // Any key argument, validated by the worker's Node; the public key is staged first.
    if (callback !== undefined) validateCallback(callback);
    stageKey(publicKey);
    call('keyStagePeer');
    stageKey(privateKey);
    const secret = receive(call('diffieHellmanStaged'));
    if (callback === undefined) return secret;
    return void later(callback, secret);
  }
  const check = (v, name) => {
    if (isKeyObject(v)) return;
    // Node shortens what it shows of the value.
    const shown = require('util').inspect(v);
    throw codeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The property 'options.${name}' is invalid. Received ${shown.length > 128 ? `${StringPrototypeSlice(shown, 0, 128)}...` : shown}`);
  };
  check(privateKey, 'privateKey');
  check(publicKey, 'publicKey');
  return receive(call('diffieHellman', keys.handleOf(privateKey), keys.handleOf(publicKey)));
}

const encoded = (bytes, encoding) => (encoding && encoding !== 'buffer' ? BufferPrototypeToString(bytes, encoding) : bytes);
const decoded = (data, encoding) => (typeof data === 'string' ? Buffer.from(data, encoding || 'utf8') : data);

/**
 * Key agreements (ECDH, DiffieHellman) are the worker's objects behind a handle, driven by the ops `${kind}Call`
 * and released by `${kind}Free` when the guest object is collected.
 */
const agreementRegistries = {
  ecdh: new FinalizationRegistryCtor((id) => host('ecdhFree', id)),
  dh: new FinalizationRegistryCtor((id) => host('dhFree', id)),
};

function holdAgreement(self, kind, id) {
  self[kId] = id;
  agreementRegistries[kind].register(self, id, self);
}

/** A method of the worker's object with up to two arguments; its output bytes, undefined for none. */
function agreementCall(self, kind, method, x, y) {
  const packed = pack([x, y]);
  const layout = packed[0];
  const a = packed[1];
  const n = call(`${kind}Call`, self[kId], method, layout, a[0], a[1]);
  return n < 0 ? undefined : receive(n);
}

/** createECDH: encodings are applied here, point formats there. */
class ECDH {
  constructor(curve) {
    if (typeof curve !== 'string') throw invalidArgType('curve', 'of type string', curve);
    holdAgreement(this, 'ecdh', call('ecdhNew', curve));
  }
  static convertKey(key, curve, inputEncoding, outputEncoding, format) {
    const packed = pack([decoded(key, inputEncoding)]);
  const layout = packed[0];
  const a = packed[1];
    return encoded(receive(call('ecdhConvert', layout, a[0], curve, format)), outputEncoding);
  }
  _call(method, x, y) {
    return agreementCall(this, 'ecdh', method, x, y);
  }
  generateKeys(encoding, format) {
    this._call('generateKeys');
    return this.getPublicKey(encoding, format);
  }
  computeSecret(otherPublicKey, inputEncoding, outputEncoding) {
    return encoded(this._call('computeSecret', decoded(otherPublicKey, inputEncoding)), outputEncoding);
  }
  getPublicKey(encoding, format) {
    return encoded(this._call('getPublicKey', undefined, format), encoding);
  }
  getPrivateKey(encoding) {
    return encoded(this._call('getPrivateKey'), encoding);
  }
  setPrivateKey(privateKey, encoding) {
    this._call('setPrivateKey', decoded(privateKey, encoding));
    return this;
  }
}

/**
 * createDiffieHellman / getDiffieHellman, callable without `new` as Node's. Arguments and input keys go to the
 * worker with their encodings as given, so that its Node validates and decodes them; output encodings apply here.
 */
function DiffieHellman(sizeOrKey, keyEncoding, generator, genEncoding) {
  if (!(this instanceof DiffieHellman)) return new DiffieHellman(sizeOrKey, keyEncoding, generator, genEncoding);
  const packed = pack([sizeOrKey, keyEncoding, generator, genEncoding]);
  const layout = packed[0];
  const a = packed[1];
  initDiffieHellman(this, call('dhNew', layout, a[0], a[1], a[2], a[3]));
}

function DiffieHellmanGroup(name) {
  if (!(this instanceof DiffieHellmanGroup)) return new DiffieHellmanGroup(name);
  const packed = pack([name]);
  const layout = packed[0];
  const a = packed[1];
  initDiffieHellman(this, call('dhGroupNew', layout, a[0]));
}

function initDiffieHellman(self, id) {
  holdAgreement(self, 'dh', id);
  ObjectDefineProperty(self, 'verifyError', { __proto__: null, value: call('dhVerifyError', id), enumerable: true, writable: false });
}

const dhOutput = (method) =>
  function (encoding) {
    return encoded(agreementCall(this, 'dh', method), encoding);
  };
const dhInput = (method) =>
  function (key, encoding) {
    agreementCall(this, 'dh', method, key, encoding);
    return this;
  };

DiffieHellmanGroup.prototype.generateKeys = DiffieHellman.prototype.generateKeys = dhOutput('generateKeys');
DiffieHellmanGroup.prototype.computeSecret = DiffieHellman.prototype.computeSecret = function computeSecret(key, inEnc, outEnc) {
  return encoded(agreementCall(this, 'dh', 'computeSecret', key, inEnc), outEnc);
};
for (const m of new SafeArrayIterator(['getPrime', 'getGenerator', 'getPublicKey', 'getPrivateKey'])) DiffieHellmanGroup.prototype[m] = DiffieHellman.prototype[m] = dhOutput(m);
DiffieHellman.prototype.setPublicKey = dhInput('setPublicKey');
DiffieHellman.prototype.setPrivateKey = dhInput('setPrivateKey');

let curveNames;
const getCurves = () => ArrayPrototypeSlice((curveNames ??= StringPrototypeSplit(call('curveList'), ',')));

// The global `crypto`: a Crypto, whose members live on its prototype (internal/webcrypto.js).
const webcrypto = require('internal/webcrypto').adoptCrypto({
  getRandomValues(array) {
    if (!ArrayBufferIsView(array) || array instanceof Float32Array || array instanceof Float64Array) {
      const e = new (globalThis.DOMException || TypeError)("The data argument must be an integer-type TypedArray", 'TypeMismatchError');
      throw e;
    }
    if (GetByteLength(array) > 65536) throw new (globalThis.DOMException || RangeError)(`The ArrayBufferView's byte length (${GetByteLength(array)}) exceeds the number of bytes of entropy available via this API (65536)`, 'QuotaExceededError');
    return randomFillSync(array);
  },
  randomUUID,
  subtle: require('internal/webcrypto').subtle,
});

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
  getHashes: () => ArrayPrototypeSlice(HASHES),
  getCiphers,
  getCurves,
  getCipherInfo,
  generatePrime,
  generatePrimeSync,
  checkPrime,
  checkPrimeSync,
  getFips,
  setFips,
  setEngine,
  secureHeapUsed,
  webcrypto,
  subtle: undefined,
  constants: ObjectAssign(ObjectCreate(null), JSONParse(call('cryptoConstants'))),
  createCipheriv: (cipher, key, iv, options) => new Cipheriv(cipher, key, iv, options),
  createDecipheriv: (cipher, key, iv, options) => new Decipheriv(cipher, key, iv, options),
  Cipheriv,
  Decipheriv,
  pbkdf2,
  pbkdf2Sync,
  scrypt,
  scryptSync,
  hkdf,
  hkdfSync,
  KeyObject: keys.KeyObject,
  createSecretKey: keys.createSecretKey,
  createPublicKey: keys.createPublicKey,
  createPrivateKey: keys.createPrivateKey,
  generateKeyPairSync: keys.generateKeyPairSync,
  generateKeyPair,
  generateKeySync: keys.generateKeySync,
  generateKey,
  createSign: (algorithm, options) => new Sign(algorithm, options),
  createVerify: (algorithm, options) => new Verify(algorithm, options),
  Sign,
  Verify,
  sign,
  verify,
  publicEncrypt: keyCipher('publicEncrypt'),
  privateDecrypt: keyCipher('privateDecrypt'),
  privateEncrypt: keyCipher('privateEncrypt'),
  publicDecrypt: keyCipher('publicDecrypt'),
  diffieHellman,
  createECDH: (curve) => new ECDH(curve),
  ECDH,
  createDiffieHellman: (sizeOrKey, keyEncoding, generator, genEncoding) => new DiffieHellman(sizeOrKey, keyEncoding, generator, genEncoding),
  createDiffieHellmanGroup: (name) => new DiffieHellmanGroup(name),
  getDiffieHellman: (name) => new DiffieHellmanGroup(name),
  DiffieHellman,
  DiffieHellmanGroup,
  X509Certificate: require('internal/x509').X509Certificate,
};
ObjectDefineProperty(module.exports, 'subtle', { __proto__: null, get: () => webcrypto.subtle, enumerable: true });
