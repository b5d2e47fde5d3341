// crypto's KeyObject: a guest object naming a key in the worker's node:crypto (a handle of crypto-ops.ts),
// released when the guest object is collected. What the key is (type, details) is asked once and kept.
'use strict';

const {
  JSONParse,
  JSONStringify,
  ObjectPrototypeHasOwnProperty,
  ArrayBuffer,
  ArrayBufferIsView,
  BigInt,
  FinalizationRegistry,
  Number,
  ObjectDefineProperty,
  Symbol,
  SymbolToStringTag,
  WeakMap,
  WeakSet,
  ArrayPrototypePush, StringPrototypeSplit, StringPrototypeStartsWith,
  SafeWeakMap, SafeWeakSet,
  SafeArrayIterator,
  ArrayPrototypeMap, ArrayPrototypeReduce, TypedArrayPrototypeSubarray,
} = require('internal/primordials');

const { Buffer } = require('buffer');
const { invalidArgType } = require('internal/errors');
const { call, pack, optionEntry, receive } = require('internal/host-assist');
const host = internal.host;
const BigIntCtor = BigInt;

const kHandle = Symbol('kHandle');
const kInfo = Symbol('kInfo');
const kMake = Symbol('kMake');

/** Releases the worker's key of a collected guest key. */
const keyRegistry = new FinalizationRegistry((id) => host('keyFree', id));

/** Guest objects that stand for a key (a CryptoKey) → their KeyObject; those not extractable. */
const keyHolders = new SafeWeakMap();
const lockedKeys = new SafeWeakSet();
let warnedFrom = false;

const isKeyObject = (v) => v !== null && typeof v === 'object' && ObjectPrototypeHasOwnProperty(v, kHandle);

/** The handle of a KeyObject, or of the KeyObject a CryptoKey holds; undefined for anything else. */
function handleOf(v) {
  if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return undefined;
  if (isKeyObject(v)) return v[kHandle];
  const k = keyHolders.get(v);
  return k === undefined ? undefined : k[kHandle];
}

const revive = (k, v) => (v !== null && typeof v === 'object' && typeof v.$n === 'string' ? BigIntCtor(v.$n) : v);

function info(key) {
  return (key[kInfo] ??= JSONParse(call('keyInfo', key[kHandle]), revive));
}

class KeyObject {
  constructor(id, make) {
    if (make !== kMake) throw invalidArgType('handle', 'of type object', make);
    ObjectDefineProperty(this, kHandle, { value: id, enumerable: false, writable: true });
    keyRegistry.register(this, id, this);
  }
  static from(key) {
    const k = keyHolders.get(key);
    if (k === undefined) throw invalidArgType('key', 'an instance of CryptoKey', key);
    // Node 24 deprecates this (DEP0204), warning once.
    if (lockedKeys.has(key) && !warnedFrom && Number(StringPrototypeSplit(process.versions.node, '.')[0]) >= 24) {
      warnedFrom = true;
      process.emitWarning('Passing a non-extractable CryptoKey to KeyObject.from() is deprecated.', 'DeprecationWarning', 'DEP0204');
    }
    return k;
  }
  get type() {
    return info(this)[0];
  }
  equals(otherKeyObject) {
    if (!isKeyObject(otherKeyObject)) throw invalidArgType('otherKeyObject', 'an instance of KeyObject', otherKeyObject);
    return otherKeyObject.type === this.type && call('keyEquals', this[kHandle], otherKeyObject[kHandle]);
  }
  export(options) {
    if (options !== undefined && (options === null || typeof options !== 'object')) throw invalidArgType('options', 'of type object', options);
    const entries = [];
    if (options) {
      for (const k of new SafeArrayIterator(['format', 'type', 'cipher'])) {
        const e = optionEntry(k, options[k]);
        if (e) ArrayPrototypePush(entries, e);
      }
    }
    const pair$89 = pack([options ? options.passphrase : undefined]);
    const layout = pair$89[0], a = pair$89[1];
    const r = call('keyExport', this[kHandle], layout, a[0], options ? JSONStringify(entries) : undefined);
    if (typeof r === 'number') return receive(r);
    return StringPrototypeStartsWith(r, '{') ? JSONParse(r) : r;
  }
}
ObjectDefineProperty(KeyObject.prototype, SymbolToStringTag, { value: 'KeyObject', configurable: true });

class SecretKeyObject extends KeyObject {
  get symmetricKeySize() {
    return info(this)[3];
  }
}

class AsymmetricKeyObject extends KeyObject {
  get asymmetricKeyType() {
    return info(this)[1] ?? undefined;
  }
  get asymmetricKeyDetails() {
    const d = info(this)[2];
    return d === null ? undefined : { ...d };
  }
}
class PublicKeyObject extends AsymmetricKeyObject {}
class PrivateKeyObject extends AsymmetricKeyObject {}

/** A guest KeyObject for a handle the host made. */
function wrapKey(id) {
  const type = JSONParse(call('keyInfo', id), revive)[0];
  const Ctor = type === 'secret' ? SecretKeyObject : type === 'public' ? PublicKeyObject : PrivateKeyObject;
  return new Ctor(id, kMake);
}

const KEY_OPTIONS = ['format', 'type', 'encoding', 'padding', 'saltLength', 'dsaEncoding', 'oaepHash'];
const MARK_HANDLE = ['$h', 'b', 'true'];

/** Stages a key argument of Node's API for the next key operation (crypto-ops.ts keyStage). */
function stageKey(key, bare = false) {
  const h = handleOf(key);
  if (h !== undefined) return void call('keyStage', 'p', h, undefined, undefined, JSONStringify([MARK_HANDLE, ['$bare', 'b', 'true']]));
  if (bare || key === null || typeof key !== 'object' || ArrayBufferIsView(key) || key instanceof ArrayBuffer) {
    const pair$130 = pack([key]);
    const layout = pair$130[0], a = pair$130[1];
    return void call('keyStage', layout, a[0]);
  }
  const entries = [];
  let material = key.key;
  const kh = handleOf(material);
  if (kh !== undefined) {
    material = kh;
    ArrayPrototypePush(entries, MARK_HANDLE);
  } else if (key.format === 'jwk' && material !== null && typeof material === 'object') {
    material = JSONStringify(material);
    ArrayPrototypePush(entries, ['$jwk', 'b', 'true']);
  }
  for (const k of new SafeArrayIterator(KEY_OPTIONS)) {
    const e = optionEntry(k, key[k]);
    if (e) ArrayPrototypePush(entries, e);
  }
  const pair$147 = pack([material, key.passphrase, key.oaepLabel]);
  const layout = pair$147[0], a = pair$147[1];
  call('keyStage', layout, a[0], a[1], a[2], JSONStringify(entries));
}

function createSecretKey(key, encoding) {
  stageKey(key, true);
  return wrapKey(call('keyNew', 'secret', encoding));
}

function createPublicKey(key) {
  stageKey(key);
  return wrapKey(call('keyNew', 'public'));
}

function createPrivateKey(key) {
  stageKey(key);
  return wrapKey(call('keyNew', 'private'));
}

const PAIR_OPTIONS = ['modulusLength', 'publicExponent', 'hashAlgorithm', 'mgf1HashAlgorithm', 'saltLength', 'divisorLength', 'namedCurve', 'hash', 'mgf1Hash', 'paramEncoding', 'primeLength', 'generator', 'group', 'groupName', 'prime'];

function encodePairOptions(options) {
  if (options === undefined) return undefined;
  const entries = [];
  if (options === null || typeof options !== 'object') return JSONStringify(entries);
  for (const k of new SafeArrayIterator(PAIR_OPTIONS)) {
    const e = optionEntry(k, options[k]);
    if (e) ArrayPrototypePush(entries, e);
  }
  for (const which of new SafeArrayIterator(['publicKeyEncoding', 'privateKeyEncoding'])) {
    const enc = options[which];
    if (enc !== null && typeof enc === 'object') {
      // An entry of its own, so that an empty encoding is still an object to Node.
      ArrayPrototypePush(entries, [`${which}.$`, 'z', '']);
      for (const k of new SafeArrayIterator(['type', 'format', 'cipher'])) {
        const e = optionEntry(`${which}.${k}`, enc[k]);
        if (e) ArrayPrototypePush(entries, e);
      }
    } else {
      const e = optionEntry(which, enc);
      if (e) ArrayPrototypePush(entries, e);
    }
  }
  return JSONStringify(entries);
}

const passphraseOf = (enc) => (enc !== null && typeof enc === 'object' ? enc.passphrase : undefined);

function generateKeyPairSync(type, options) {
  const pair$196 = pack([passphraseOf(options && options.publicKeyEncoding), passphraseOf(options && options.privateKeyEncoding)]);
  const layout = pair$196[0], a = pair$196[1];
  const desc = JSONParse(call('keyPairGenerate', type, layout, a[0], a[1], encodePairOptions(options)));
  const bytesLength = ArrayPrototypeReduce(desc, (n, d) => n + (d.b ?? 0), 0);
  const bytes = bytesLength > 0 ? receive(bytesLength) : undefined;
  let off = 0;
  const pair$201 = ArrayPrototypeMap(desc, (d) => {
    if (d.h !== undefined) return wrapKey(d.h);
    if (d.s !== undefined) return d.s;
    off += d.b;
    return Buffer.from(TypedArrayPrototypeSubarray(bytes, off - d.b, off));
  });
  const publicKey = pair$201[0], privateKey = pair$201[1];
  return { publicKey, privateKey };
}

function generateKeySync(type, options) {
  const entries = [];
  if (options !== null && typeof options === 'object') {
    const e = optionEntry('length', options.length);
    if (e) ArrayPrototypePush(entries, e);
  }
  return wrapKey(call('keyGenerate', type, options === undefined ? undefined : options === null || typeof options !== 'object' ? JSONStringify([]) : JSONStringify(entries)));
}

const isKeyHolder = (v) => keyHolders.has(v);

module.exports = {
  KeyObject,
  SecretKeyObject,
  PublicKeyObject,
  PrivateKeyObject,
  isKeyObject,
  isKeyHolder,
  keyHolders,
  lockedKeys,
  handleOf,
  stageKey,
  wrapKey,
  createSecretKey,
  createPublicKey,
  createPrivateKey,
  generateKeyPairSync,
  generateKeySync,
};
