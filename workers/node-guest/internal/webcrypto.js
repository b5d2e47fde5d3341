// crypto.subtle (Web Crypto), as Node's lib/internal/crypto/webcrypto.js: each operation maps onto the guest's
// own `crypto` (hashes, HMACs, ciphers, KeyObjects, signatures, key derivations), which the host computes. A
// CryptoKey holds a KeyObject (internal/key-object.js), so its host key lives as long as it does.
'use strict';

const {
  ArrayBuffer,
  ArrayBufferIsView,
  ArrayFrom,
  DataView,
  JSONParse,
  JSONStringify,
  Number,
  ObjectAssign,
  ObjectDefineProperty,
  ObjectKeys,
  ObjectSetPrototypeOf,
  ReflectApply,
  Set,
  Symbol,
  SymbolFor,
  SymbolToStringTag,
  TypeError,
  Uint8Array,
  WeakMap,
  StringPrototypeSlice,
  StringPrototypeSplit,
  ArrayPrototypeUnshift, StringPrototypeRepeat, StringPrototypeStartsWith, StringPrototypeToLowerCase, StringPrototypeToUpperCase,
  SafeSet, SafeWeakMap,
  SafeArrayIterator,
  ArrayPrototypeFilter, ArrayPrototypeFind, ArrayPrototypeIncludes, ArrayPrototypeReduce, TypedArrayPrototypeSubarray,
  TypedArrayPrototypeSet,
  ArrayPrototypeConcat,
  GetBuffer,
  GetByteOffset,
  GetByteLength,
  GetLength,
} = require('internal/primordials');

const { Buffer } = require('buffer');
const DOMException = require('internal/dom-exception');
const { codeError } = require('internal/errors');
const keys = require('internal/key-object');
const { TextDecoder } = require('internal/encoding');

let lazyCrypto;
const nodeCrypto = () => (lazyCrypto ??= require('crypto'));

const kKeyObject = Symbol('kKeyObject');
const kAlgorithm = Symbol('kAlgorithm');
const kExtractable = Symbol('kExtractable');
const kUsages = Symbol('kUsages');
const kMake = Symbol('kMake');

/** Where Node ≥ 24 differs (JWK member order, messages), the guest follows the host's major, as it reports it. */
const NEWER = Number(StringPrototypeSplit(process.versions.node, '.')[0]) >= 24;

const notSupported = (m = 'Unrecognized algorithm name') => new DOMException(m, 'NotSupportedError');
const invalidAccess = (m = 'The requested operation is not valid for the provided key') => new DOMException(m, 'InvalidAccessError');
const operationError = (m = 'The operation failed for an operation-specific reason') => new DOMException(m, 'OperationError');
const dataError = (m) => new DOMException(m, 'DataError');
const syntaxError = (m) => new DOMException(m, 'SyntaxError');

class CryptoKey {
  constructor(make) {
    if (make !== kMake) throw codeError(TypeError, 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor');
  }
  get type() {
    return this[kKeyObject].type;
  }
  get extractable() {
    return this[kExtractable];
  }
  get algorithm() {
    return this[kAlgorithm];
  }
  get usages() {
    return ArrayFrom(this[kUsages]);
  }
  [SymbolFor('nodejs.util.inspect.custom')](depth, options, inspect) {
    if (depth < 0) return this;
    const opts = { ...options, depth: options.depth == null ? null : options.depth - 1 };
    return `CryptoKey ${inspect({ type: this.type, extractable: this.extractable, algorithm: this.algorithm, usages: this.usages }, opts)}`;
  }
}
ObjectDefineProperty(CryptoKey.prototype, SymbolToStringTag, { value: 'CryptoKey', configurable: true });

function makeKey(keyObject, algorithm, extractable, usages) {
  const k = new CryptoKey(kMake);
  for (const entry$82 of new SafeArrayIterator([[kKeyObject, keyObject], [kAlgorithm, algorithm], [kExtractable, extractable], [kUsages, usages]])) { const s = entry$82[0], v = entry$82[1]; ObjectDefineProperty(k, s, { value: v }); }
  keys.keyHolders.set(k, keyObject);
  if (!extractable) keys.lockedKeys.add(k);
  return k;
}

// ---- algorithms ----

const HASHES = { 'SHA-1': ['sha1', 512], 'SHA-256': ['sha256', 512], 'SHA-384': ['sha384', 1024], 'SHA-512': ['sha512', 1024] };
const NAMES = ['AES-CTR', 'AES-CBC', 'AES-GCM', 'AES-KW', 'HMAC', 'PBKDF2', 'HKDF', 'ECDSA', 'ECDH', 'Ed25519', 'X25519', 'RSASSA-PKCS1-v1_5', 'RSA-PSS', 'RSA-OAEP', ...new SafeArrayIterator(ObjectKeys(HASHES))];
const CURVES = { 'P-256': 'prime256v1', 'P-384': 'secp384r1', 'P-521': 'secp521r1' };

function canonicalName(name) {
  const upper = StringPrototypeToUpperCase(`${name}`);
  const found = ArrayPrototypeFind(NAMES, (n) => StringPrototypeToUpperCase(n) === upper);
  if (found === undefined) throw notSupported();
  return found;
}

/** An algorithm argument (a name or a dictionary) with its name made canonical and its hash normalised. */
function normalize(algorithm, allowed) {
  const a = typeof algorithm === 'string' ? { name: algorithm } : algorithm;
  if (a === null || typeof a !== 'object' || a.name === undefined) throw new TypeError('Algorithm: name: Missing or not a string');
  const name = canonicalName(a.name);
  if (allowed && !ArrayPrototypeIncludes(allowed, name)) throw notSupported();
  const out = { ...a, name };
  if (a.hash !== undefined) out.hash = { name: hashName(a.hash) };
  return out;
}

function hashName(hash) {
  const name = canonicalName(typeof hash === 'string' ? hash : hash && hash.name);
  if (!HASHES[name]) throw notSupported();
  return name;
}

const nodeHash = (name) => HASHES[name][0];

function bytes(data, what = 'data') {
  if (ArrayBufferIsView(data)) return Buffer.from(GetBuffer(data), GetByteOffset(data), GetByteLength(data));
  if (data instanceof ArrayBuffer) return Buffer.from(data);
  throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "${what}" argument must be an instance of ArrayBuffer, Buffer, TypedArray, or DataView.`);
}

function arrayBuffer(buf) {
  const out = new ArrayBuffer(buf.length);
  TypedArrayPrototypeSet(new Uint8Array(out), buf);
  return out;
}

/** A key's KeyObject once the key may do `usage` with algorithm `name`, failing as Node's operation does. */
function checkKey(key, name, usage) {
  if (!(key instanceof CryptoKey)) throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "key" argument must be an instance of CryptoKey.');
  const nameOk = key[kAlgorithm].name === name;
  const usageOk = ArrayPrototypeIncludes(key[kUsages], usage);
  const derive = usage === 'deriveBits' || usage === 'deriveKey';
  if (NEWER) {
    if (!nameOk) throw invalidAccess('Key algorithm mismatch');
    if (!usageOk) throw invalidAccess(derive ? `baseKey does not have ${usage} usage` : `Unable to use this key to ${usage}`);
  } else if (usage === 'sign' || usage === 'verify') {
    if (!nameOk || !usageOk) throw invalidAccess(`Unable to use this key to ${usage}`);
  } else if (derive) {
    if (!nameOk) throw invalidAccess('Key algorithm mismatch');
    if (!usageOk) throw invalidAccess(`baseKey does not have ${usage} usage`);
  } else if (!nameOk || !usageOk) throw invalidAccess();
  return key[kKeyObject];
}

const USAGES = {
  HMAC: { secret: ['sign', 'verify'] },
  'AES-CTR': { secret: ['encrypt', 'decrypt', 'wrapKey', 'unwrapKey'] },
  'AES-CBC': { secret: ['encrypt', 'decrypt', 'wrapKey', 'unwrapKey'] },
  'AES-GCM': { secret: ['encrypt', 'decrypt', 'wrapKey', 'unwrapKey'] },
  'AES-KW': { secret: ['wrapKey', 'unwrapKey'] },
  PBKDF2: { secret: ['deriveKey', 'deriveBits'] },
  HKDF: { secret: ['deriveKey', 'deriveBits'] },
  ECDSA: { public: ['verify'], private: ['sign'] },
  Ed25519: { public: ['verify'], private: ['sign'] },
  'RSASSA-PKCS1-v1_5': { public: ['verify'], private: ['sign'] },
  'RSA-PSS': { public: ['verify'], private: ['sign'] },
  'RSA-OAEP': { public: ['encrypt', 'wrapKey'], private: ['decrypt', 'unwrapKey'] },
  ECDH: { public: [], private: ['deriveKey', 'deriveBits'] },
  X25519: { public: [], private: ['deriveKey', 'deriveBits'] },
};

function usageError(name) {
  if (name === 'PBKDF2' || name === 'HKDF') return syntaxError(`Unsupported key usage for a ${name} key`);
  if (NEWER) return syntaxError(`Unsupported key usage for ${name} key`);
  const family = StringPrototypeStartsWith(name, 'AES-') ? 'AES' : StringPrototypeStartsWith(name, 'RSA') ? 'RSA' : name;
  return syntaxError(`Unsupported key usage for ${family === 'RSA' ? 'a' : 'an'} ${family} key`);
}

function usagesFor(name, type, usages) {
  const list = ArrayFrom(new SafeSet(usages));
  const allowed = USAGES[name][type];
  for (const u of new SafeArrayIterator(list)) if (!ArrayPrototypeIncludes(allowed, u)) throw usageError(name);
  return list;
}

function aesLength(length) {
  if (!ArrayPrototypeIncludes([128, 192, 256], length)) throw operationError('AES key length must be 128, 192, or 256 bits');
  return length;
}

// ---- keys in and out ----

const b64url = (b) => Buffer.from(b).toString('base64url');
const fromB64url = (s) => Buffer.from(`${s}`, 'base64url');

/** An RSA algorithm's dictionary as Node gives it: the key's size and exponent (bytes, big-endian). */
function rsaAlgorithm(name, hash, keyObject) {
  const d = keyObject.asymmetricKeyDetails;
  let e = d.publicExponent;
  const exp = [];
  while (e > 0n) {
    ArrayPrototypeUnshift(exp, Number(e & 255n));
    e >>= 8n;
  }
  return { name, modulusLength: d.modulusLength, publicExponent: new Uint8Array(exp), hash: { name: hash } };
}

function asymmetricAlgorithm(a, keyObject) {
  const type = keyObject.asymmetricKeyType;
  switch (a.name) {
    case 'ECDSA':
    case 'ECDH': {
      if (type !== 'ec') throw dataError('Invalid key type');
      const curve = ArrayPrototypeFind(ObjectKeys(CURVES), (c) => CURVES[c] === keyObject.asymmetricKeyDetails.namedCurve);
      if (a.namedCurve !== curve) throw dataError('Named curve mismatch');
      return { name: a.name, namedCurve: curve };
    }
    case 'Ed25519':
    case 'X25519':
      if (type !== StringPrototypeToLowerCase(a.name)) throw dataError('Invalid key type');
      return { name: a.name };
    default:
      if (type !== 'rsa') throw dataError('Invalid key type');
      if (a.hash === undefined) throw new TypeError('Algorithm: hash: Missing or not a string');
      return rsaAlgorithm(a.name, a.hash.name, keyObject);
  }
}

function importKeySync(format, keyData, algorithm, extractable, usages) {
  const a = normalize(algorithm);
  const c = nodeCrypto();
  const name = a.name;
  if (!USAGES[name]) throw notSupported();
  extractable = !!extractable;
  if (format === 'raw' && USAGES[name].secret) {
    const raw = bytes(keyData, 'keyData');
    if (name === 'PBKDF2' || name === 'HKDF') {
      if (extractable) throw syntaxError(`${name} keys are not extractable`);
      return makeKey(c.createSecretKey(raw), { name }, false, usagesFor(name, 'secret', usages));
    }
    return secretKey(c.createSecretKey(raw), a, extractable, usages, GetLength(raw) * 8);
  }
  if (format === 'jwk' && USAGES[name].secret) {
    if (keyData === null || typeof keyData !== 'object') throw dataError('Invalid keyData');
    if (keyData.kty !== 'oct') throw dataError('Invalid JWK "kty" Parameter');
    const raw = fromB64url(keyData.k);
    const key = secretKey(c.createSecretKey(raw), a, extractable, usages, GetLength(raw) * 8);
    if (StringPrototypeStartsWith(name, 'AES-') && keyData.alg !== undefined && keyData.alg !== aesJwkAlg(key[kAlgorithm])) throw dataError('JWK "alg" does not match the requested algorithm');
    return key;
  }
  if (USAGES[name].secret) throw notSupported(`Unable to import ${name} key with format ${format}`);
  const keyObject = asymmetricKey(format, keyData, a);
  return makeKey(keyObject, asymmetricAlgorithm(a, keyObject), extractable, usagesFor(name, keyObject.type, usages));
}

/** Node's KeyObject for an asymmetric key's data; what Node refuses is a DataError caused by Node's error. */
function asymmetricKey(format, keyData, a) {
  const c = nodeCrypto();
  const name = a.name;
  if (!ArrayPrototypeIncludes(['spki', 'pkcs8', 'jwk', 'raw'], format)) throw notSupported(`Unable to import ${name} key with format ${format}`);
  if (format === 'jwk' && (keyData === null || typeof keyData !== 'object')) throw dataError('Invalid keyData');
  const data = format === 'jwk' ? keyData : bytes(keyData, 'keyData');
  try {
    return importAsymmetric(c, format, data, a);
  } catch (e) {
    if (e instanceof DOMException) throw e;
    throw new DOMException('Invalid keyData', { name: 'DataError', cause: e });
  }
}

function importAsymmetric(c, format, keyData, a) {
  const name = a.name;
  let keyObject;
  switch (format) {
    case 'spki':
      keyObject = c.createPublicKey({ key: keyData, format: 'der', type: 'spki' });
      break;
    case 'pkcs8':
      keyObject = c.createPrivateKey({ key: keyData, format: 'der', type: 'pkcs8' });
      break;
    case 'jwk':
      keyObject = keyData.d !== undefined ? c.createPrivateKey({ key: keyData, format: 'jwk' }) : c.createPublicKey({ key: keyData, format: 'jwk' });
      break;
    case 'raw': {
      const raw = keyData;
      if (name === 'Ed25519' || name === 'X25519') keyObject = c.createPublicKey({ key: { kty: 'OKP', crv: name, x: b64url(raw) }, format: 'jwk' });
      else if (name === 'ECDSA' || name === 'ECDH') {
        const size = { 'P-256': 32, 'P-384': 48, 'P-521': 66 }[a.namedCurve];
        if (size === undefined || GetLength(raw) !== 1 + 2 * size || raw[0] !== 4) throw dataError('Invalid keyData');
        keyObject = c.createPublicKey({ key: { kty: 'EC', crv: a.namedCurve, x: b64url(TypedArrayPrototypeSubarray(raw, 1, 1 + size)), y: b64url(TypedArrayPrototypeSubarray(raw, 1 + size)) }, format: 'jwk' });
      } else throw notSupported(`Unable to import ${name} key with format raw`);
      break;
    }
  }
  return keyObject;
}

function secretKey(keyObject, a, extractable, usages, bits) {
  const name = a.name;
  if (name === 'HMAC') {
    if (a.hash === undefined) throw new TypeError('Algorithm: hash: Missing or not a string');
    const algorithm = NEWER ? { name, length: a.length ?? bits, hash: a.hash } : { name, hash: a.hash, length: a.length ?? bits };
    return makeKey(keyObject, algorithm, extractable, usagesFor(name, 'secret', usages));
  }
  if (!ArrayPrototypeIncludes([128, 192, 256], bits)) throw dataError('Invalid key length');
  return makeKey(keyObject, { name, length: bits }, extractable, usagesFor(name, 'secret', usages));
}

const aesJwkAlg = (a) => `A${a.length}${StringPrototypeSlice(a.name, 4)}`;

const JWK_RSA = { 'RSASSA-PKCS1-v1_5': 'RS', 'RSA-PSS': 'PS' };

function exportKeySync(format, key) {
  if (!(key instanceof CryptoKey)) throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "key" argument must be an instance of CryptoKey.');
  if (!key[kExtractable]) throw new DOMException('key is not extractable', NEWER ? 'InvalidAccessError' : 'InvalidAccessException');
  const k = key[kKeyObject];
  const a = key[kAlgorithm];
  switch (format) {
    case 'raw':
      if (k.type === 'secret') return arrayBuffer(k.export());
      if (k.type === 'public') {
        const jwk = k.export({ format: 'jwk' });
        if (jwk.kty === 'OKP') return arrayBuffer(fromB64url(jwk.x));
        if (jwk.kty === 'EC') return arrayBuffer(Buffer.concat([Buffer.from([4]), fromB64url(jwk.x), fromB64url(jwk.y)]));
      }
      break;
    case 'spki':
      if (k.type === 'public') return arrayBuffer(k.export({ format: 'der', type: 'spki' }));
      break;
    case 'pkcs8':
      if (k.type === 'private') return arrayBuffer(k.export({ format: 'der', type: 'pkcs8' }));
      break;
    case 'jwk': {
      const bits = HASHES[a.hash && a.hash.name] ? StringPrototypeSlice(a.hash.name, 4) : '';
      let alg;
      if (a.name === 'HMAC') alg = `HS${a.hash.name === 'SHA-1' ? 1 : bits}`;
      else if (StringPrototypeStartsWith(a.name, 'AES-')) alg = aesJwkAlg(a);
      else if (JWK_RSA[a.name]) alg = `${JWK_RSA[a.name]}${a.hash.name === 'SHA-1' ? 1 : bits}`;
      else if (a.name === 'RSA-OAEP') alg = a.hash.name === 'SHA-1' ? 'RSA-OAEP' : `RSA-OAEP-${bits}`;
      else if (a.name === 'Ed25519') alg = 'Ed25519';
      // Node ≥ 24 puts alg before the key's members, older Nodes after them.
      const jwk = NEWER && alg !== undefined ? { key_ops: key.usages, ext: key[kExtractable], alg } : { key_ops: key.usages, ext: key[kExtractable] };
      ObjectAssign(jwk, k.export({ format: 'jwk' }));
      if (alg !== undefined) jwk.alg = alg;
      if (a.namedCurve) jwk.crv ||= a.namedCurve;
      return jwk;
    }
  }
  throw new DOMException(`Unable to export ${a.name} ${k.type} key using ${format} format`, 'InvalidAccessError');
}

function generateKeySync(algorithm, extractable, usages) {
  const a = normalize(algorithm);
  const c = nodeCrypto();
  const name = a.name;
  extractable = !!extractable;
  if (!USAGES[name] || name === 'PBKDF2' || name === 'HKDF') throw notSupported();
  if (USAGES[name].secret) {
    const list = usagesFor(name, 'secret', usages);
    if (list.length === 0) throw syntaxError('Usages cannot be empty when creating a key.');
    if (name === 'HMAC') {
      if (a.hash === undefined) throw new TypeError('Algorithm: hash: Missing or not a string');
      const length = a.length ?? HASHES[a.hash.name][1];
      return makeKey(c.generateKeySync('hmac', { length }), { name, length, hash: a.hash }, extractable, list);
    }
    const length = aesLength(a.length);
    return makeKey(c.generateKeySync('aes', { length }), { name, length }, extractable, list);
  }
  let pair;
  if (name === 'ECDSA' || name === 'ECDH') {
    if (!CURVES[a.namedCurve]) throw notSupported('Unsupported named curves');
    pair = c.generateKeyPairSync('ec', { namedCurve: a.namedCurve });
  } else if (name === 'Ed25519' || name === 'X25519') pair = c.generateKeyPairSync(StringPrototypeToLowerCase(name));
  else {
    if (a.hash === undefined) throw new TypeError('Algorithm: hash: Missing or not a string');
    const e = ArrayPrototypeReduce(ArrayFrom(bytes(a.publicExponent, 'publicExponent')), (n, x) => n * 256 + x, 0);
    pair = c.generateKeyPairSync('rsa', { modulusLength: a.modulusLength, publicExponent: e });
  }
  const all = ArrayFrom(new SafeSet(usages));
  const known = ArrayPrototypeConcat(USAGES[name].public, USAGES[name].private);
  for (const u of new SafeArrayIterator(all)) if (!ArrayPrototypeIncludes(known, u)) throw usageError(name);
  const pick = (type) => ArrayPrototypeFilter(USAGES[name][type], (u) => ArrayPrototypeIncludes(all, u));
  const alg = asymmetricAlgorithm(a, pair.publicKey);
  if (pick('private').length === 0) throw syntaxError('Usages cannot be empty when creating a key.');
  return {
    publicKey: makeKey(pair.publicKey, alg, true, pick('public')),
    privateKey: makeKey(pair.privateKey, { ...alg }, extractable, pick('private')),
  };
}

// ---- operations ----

const DSA = { ECDSA: true };
// What Node knows for each operation: another algorithm is "unrecognized" before the key is looked at.
const SIGN_NAMES = ['HMAC', 'ECDSA', 'Ed25519', 'RSASSA-PKCS1-v1_5', 'RSA-PSS'];
const CIPHER_NAMES = ['RSA-OAEP', 'AES-CTR', 'AES-CBC', 'AES-GCM'];
const WRAP_NAMES = [...new SafeArrayIterator(CIPHER_NAMES), 'AES-KW'];

function signSync(algorithm, key, data, signature) {
  const a = normalize(algorithm, SIGN_NAMES);
  const verifying = signature !== undefined;
  const k = checkKey(key, a.name, verifying ? 'verify' : 'sign');
  const d = bytes(data);
  const c = nodeCrypto();
  if (a.name === 'HMAC') {
    const mac = c.createHmac(nodeHash(key[kAlgorithm].hash.name), k).update(d).digest();
    if (!verifying) return arrayBuffer(mac);
    const s = bytes(signature, 'signature');
    return s.length === mac.length && c.timingSafeEqual(s, mac);
  }
  let hash = null;
  let keyArg = k;
  if (a.name === 'ECDSA') {
    if (a.hash === undefined) throw new TypeError('Algorithm: hash: Missing or not a string');
    hash = nodeHash(a.hash.name);
    keyArg = { key: k, dsaEncoding: 'ieee-p1363' };
  } else if (a.name === 'RSASSA-PKCS1-v1_5') hash = nodeHash(key[kAlgorithm].hash.name);
  else if (a.name === 'RSA-PSS') {
    hash = nodeHash(key[kAlgorithm].hash.name);
    keyArg = { key: k, padding: c.constants.RSA_PKCS1_PSS_PADDING, saltLength: a.saltLength };
  } else if (a.name !== 'Ed25519') throw notSupported();
  if (!verifying) return arrayBuffer(c.sign(hash, d, keyArg));
  const s = bytes(signature, 'signature');
  if (DSA[a.name]) {
    const size = { 'P-256': 64, 'P-384': 96, 'P-521': 132 }[key[kAlgorithm].namedCurve];
    if (s.length !== size) return false;
  }
  try {
    return c.verify(hash, d, keyArg, s);
  } catch {
    return false;
  }
}

function aesCipher(a, k, data, decrypt) {
  const c = nodeCrypto();
  const bits = k.symmetricKeySize * 8;
  const d = bytes(data);
  const run = (cipher, iv) => {
    const x = (decrypt ? c.createDecipheriv : c.createCipheriv)(`aes-${bits}-${cipher}`, k, iv);
    try {
      return Buffer.concat([x.update(d), x.final()]);
    } catch {
      throw operationError();
    }
  };
  switch (a.name) {
    case 'AES-CBC': {
      const iv = bytes(a.iv, 'algorithm.iv');
      if (iv.length !== 16) throw operationError('algorithm.iv must contain exactly 16 bytes');
      return run('cbc', iv);
    }
    case 'AES-CTR': {
      const counter = bytes(a.counter, 'algorithm.counter');
      if (counter.length !== 16) throw operationError('algorithm.counter must contain exactly 16 bytes');
      return run('ctr', counter);
    }
    case 'AES-GCM': {
      const tagLength = a.tagLength ?? 128;
      if (!ArrayPrototypeIncludes([32, 64, 96, 104, 112, 120, 128], tagLength)) throw operationError(`${tagLength} is not a valid AES-GCM tag length`);
      const tagBytes = tagLength / 8;
      const iv = bytes(a.iv, 'algorithm.iv');
      if (decrypt && GetLength(d) < tagBytes) throw operationError('The provided data is too small.');
      const cipher = (decrypt ? c.createDecipheriv : c.createCipheriv)(`aes-${bits}-gcm`, k, iv, { authTagLength: tagBytes });
      if (a.additionalData !== undefined) cipher.setAAD(bytes(a.additionalData, 'algorithm.additionalData'));
      if (decrypt) cipher.setAuthTag(TypedArrayPrototypeSubarray(d, GetLength(d) - tagBytes));
      let out;
      try {
        out = Buffer.concat([cipher.update(decrypt ? TypedArrayPrototypeSubarray(d, 0, GetLength(d) - tagBytes) : d), cipher.final()]);
      } catch {
        throw operationError();
      }
      return decrypt ? out : Buffer.concat([out, cipher.getAuthTag()]);
    }
  }
  throw notSupported();
}

const KW_IV = Buffer.from('a6a6a6a6a6a6a6a6', 'hex');

/** AES-KW (RFC 3394): the cipher id-aes<bits>-wrap with its default IV; the cipher's failure is the cause. */
function aesKw(k, data, unwrap) {
  const c = nodeCrypto();
  const d = bytes(data);
  const x = (unwrap ? c.createDecipheriv : c.createCipheriv)(`id-aes${k.symmetricKeySize * 8}-wrap`, k, KW_IV);
  try {
    return Buffer.concat([x.update(d), x.final()]);
  } catch (e) {
    x.destroy();
    throw new DOMException('The operation failed for an operation-specific reason', { name: 'OperationError', cause: e });
  }
}

function cipherSync(algorithm, key, data, decrypt) {
  const a = normalize(algorithm, CIPHER_NAMES);
  const k = checkKey(key, a.name, decrypt ? 'decrypt' : 'encrypt');
  if (a.name === 'RSA-OAEP') {
    const c = nodeCrypto();
    const options = { key: k, oaepHash: nodeHash(key[kAlgorithm].hash.name), padding: c.constants.RSA_PKCS1_OAEP_PADDING };
    if (a.label !== undefined) options.oaepLabel = bytes(a.label, 'algorithm.label');
    try {
      return arrayBuffer((decrypt ? c.privateDecrypt : c.publicEncrypt)(options, bytes(data)));
    } catch {
      throw operationError();
    }
  }
  return arrayBuffer(aesCipher(a, k, data, decrypt));
}

function deriveBitsSync(algorithm, baseKey, length, usage = 'deriveBits') {
  const a = normalize(algorithm);
  const k = checkKey(baseKey, a.name, usage);
  const c = nodeCrypto();
  if (length !== null && length !== undefined && length % 8 !== 0) throw operationError('length must be a multiple of 8');
  switch (a.name) {
    case 'PBKDF2':
      if (a.hash === undefined) throw new TypeError('Algorithm: hash: Missing or not a string');
      if (length === null || length === undefined) throw operationError('length cannot be null');
      if (a.iterations === 0) throw operationError('iterations cannot be zero');
      return arrayBuffer(c.pbkdf2Sync(k.export(), bytes(a.salt, 'algorithm.salt'), a.iterations, length / 8, nodeHash(a.hash.name)));
    case 'HKDF':
      if (a.hash === undefined) throw new TypeError('Algorithm: hash: Missing or not a string');
      if (length === null || length === undefined) throw operationError('length cannot be null');
      return c.hkdfSync(nodeHash(a.hash.name), k.export(), bytes(a.salt, 'algorithm.salt'), bytes(a.info, 'algorithm.info'), length / 8);
    case 'ECDH':
    case 'X25519': {
      const pub = a.public;
      if (!(pub instanceof CryptoKey) || pub.type !== 'public') throw invalidAccess('algorithm.public must be a public key');
      if (pub[kAlgorithm].name !== a.name) throw invalidAccess('The public and private keys must be of the same type');
      const secret = c.diffieHellman({ privateKey: k, publicKey: pub[kKeyObject] });
      if (length === null || length === undefined) return arrayBuffer(secret);
      if (length / 8 > GetLength(secret)) throw operationError('derived bit length is too small');
      return arrayBuffer(TypedArrayPrototypeSubarray(secret, 0, length / 8));
    }
  }
  throw notSupported();
}

function derivedLength(algorithm) {
  const a = normalize(algorithm);
  if (a.name === 'HMAC') {
    if (a.hash === undefined) throw new TypeError('Algorithm: hash: Missing or not a string');
    return a.length ?? HASHES[a.hash.name][1];
  }
  if (StringPrototypeStartsWith(a.name, 'AES-')) return aesLength(a.length);
  if (a.name === 'HKDF' || a.name === 'PBKDF2') return null;
  throw notSupported();
}

const argCount = (method, n, need) => {
  if (n < need) throw codeError(TypeError, 'ERR_MISSING_ARGS', `${method}: ${need} arguments required, but only ${n} present.`);
};

/** The methods are async (Node's are): a failure is a rejection, never a throw. */
class SubtleCrypto {
  constructor(make) {
    if (make !== kMake) throw codeError(TypeError, 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor');
  }
  async digest(algorithm, data) {
    argCount("Failed to execute 'digest' on 'SubtleCrypto'", arguments.length, 2);
    const name = hashName(typeof algorithm === 'string' ? algorithm : algorithm && algorithm.name);
    return arrayBuffer(nodeCrypto().createHash(nodeHash(name)).update(bytes(data)).digest());
  }
  async importKey(format, keyData, algorithm, extractable, keyUsages) {
    argCount("Failed to execute 'importKey' on 'SubtleCrypto'", arguments.length, 5);
    return importKeySync(format, keyData, algorithm, extractable, keyUsages);
  }
  async exportKey(format, key) {
    argCount("Failed to execute 'exportKey' on 'SubtleCrypto'", arguments.length, 2);
    return exportKeySync(format, key);
  }
  async generateKey(algorithm, extractable, keyUsages) {
    argCount("Failed to execute 'generateKey' on 'SubtleCrypto'", arguments.length, 3);
    return generateKeySync(algorithm, extractable, keyUsages);
  }
  async sign(algorithm, key, data) {
    argCount("Failed to execute 'sign' on 'SubtleCrypto'", arguments.length, 3);
    return signSync(algorithm, key, data);
  }
  async verify(algorithm, key, signature, data) {
    argCount("Failed to execute 'verify' on 'SubtleCrypto'", arguments.length, 4);
    return signSync(algorithm, key, data, bytes(signature, 'signature'));
  }
  async encrypt(algorithm, key, data) {
    argCount("Failed to execute 'encrypt' on 'SubtleCrypto'", arguments.length, 3);
    return cipherSync(algorithm, key, data, false);
  }
  async decrypt(algorithm, key, data) {
    argCount("Failed to execute 'decrypt' on 'SubtleCrypto'", arguments.length, 3);
    return cipherSync(algorithm, key, data, true);
  }
  async deriveBits(algorithm, baseKey, length) {
    argCount("Failed to execute 'deriveBits' on 'SubtleCrypto'", arguments.length, 2);
    return deriveBitsSync(algorithm, baseKey, length);
  }
  async deriveKey(algorithm, baseKey, derivedKeyAlgorithm, extractable, keyUsages) {
    argCount("Failed to execute 'deriveKey' on 'SubtleCrypto'", arguments.length, 5);
    const bits = deriveBitsSync(algorithm, baseKey, derivedLength(derivedKeyAlgorithm), 'deriveKey');
    return importKeySync('raw', bits, derivedKeyAlgorithm, extractable, keyUsages);
  }
  async wrapKey(format, key, wrappingKey, wrapAlgorithm) {
    argCount("Failed to execute 'wrapKey' on 'SubtleCrypto'", arguments.length, 4);
    const a = normalize(wrapAlgorithm, WRAP_NAMES);
    const exported = exportKeySync(format, key);
    let data = exported;
    if (format === 'jwk') {
      const text = JSONStringify(exported);
      // AES-KW wraps whole 64-bit blocks: Node pads the JSON with spaces.
      data = Buffer.from(a.name === 'AES-KW' && text.length % 8 !== 0 ? text + StringPrototypeRepeat(' ', 8 - (text.length % 8)) : text);
    }
    const k = checkKey(wrappingKey, a.name, 'wrapKey');
    if (a.name === 'AES-KW') return arrayBuffer(aesKw(k, data, false));
    return cipherSync(a, withUsage(wrappingKey, 'encrypt'), data, false);
  }
  async unwrapKey(format, wrappedKey, unwrappingKey, unwrapAlgorithm, unwrappedKeyAlgorithm, extractable, keyUsages) {
    argCount("Failed to execute 'unwrapKey' on 'SubtleCrypto'", arguments.length, 7);
    const a = normalize(unwrapAlgorithm, WRAP_NAMES);
    const k = checkKey(unwrappingKey, a.name, 'unwrapKey');
    const plain = a.name === 'AES-KW' ? aesKw(k, wrappedKey, true) : cipherSync(a, withUsage(unwrappingKey, 'decrypt'), wrappedKey, true);
    let keyData = plain;
    if (format === 'jwk') {
      try {
        keyData = JSONParse(new TextDecoder('utf-8', { fatal: true }).decode(plain));
      } catch (e) {
        // Node ≥ 24 gives the reason.
        throw NEWER ? new DOMException('Invalid wrapped JWK key', { name: 'DataError', cause: e }) : dataError('Invalid wrapped JWK key');
      }
    }
    return importKeySync(format, keyData, unwrappedKeyAlgorithm, extractable, keyUsages);
  }
}
ObjectDefineProperty(SubtleCrypto.prototype, SymbolToStringTag, { value: 'SubtleCrypto', configurable: true });

/** The same key allowed `usage` (wrapping is encryption with a key allowed to wrap). */
const withUsage = (key, usage) => makeKey(key[kKeyObject], key[kAlgorithm], false, [usage]);

const subtle = new SubtleCrypto(kMake);

/** The implementations behind each Crypto (the methods of the object it was made from). */
const cryptoParts = new SafeWeakMap();
const invalidCryptoThis = () => codeError(TypeError, 'ERR_INVALID_THIS', 'Value of "this" must be of type Crypto');
function partsOf(self) {
  const parts = self !== null && typeof self === 'object' ? cryptoParts.get(self) : undefined;
  if (parts === undefined) throw invalidCryptoThis();
  return parts;
}

/** The class of the global `crypto`, as Node's: its members live on the prototype. */
class Crypto {
  constructor(make = undefined) {
    if (make !== kMake) throw codeError(TypeError, 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor');
  }
  get subtle() {
    return partsOf(this).subtle;
  }
  getRandomValues(array) {
    return ReflectApply(partsOf(this).getRandomValues, this, arguments);
  }
  randomUUID() {
    return ReflectApply(partsOf(this).randomUUID, this, arguments);
  }
}
for (const name of new SafeArrayIterator(['subtle', 'getRandomValues', 'randomUUID'])) ObjectDefineProperty(Crypto.prototype, name, { enumerable: true });
ObjectDefineProperty(Crypto.prototype, SymbolToStringTag, { value: 'Crypto', writable: false, enumerable: false, configurable: true });

/** Makes `object` (crypto.webcrypto, with its members as own properties) a Crypto. */
function adoptCrypto(object) {
  if (cryptoParts.has(object)) return object;
  const parts = { subtle: object.subtle, getRandomValues: object.getRandomValues, randomUUID: object.randomUUID };
  cryptoParts.set(object, parts);
  for (const name of new SafeArrayIterator(ObjectKeys(parts))) delete object[name];
  ObjectSetPrototypeOf(object, Crypto.prototype);
  return object;
}

module.exports = { subtle, SubtleCrypto, CryptoKey, Crypto, adoptCrypto };
