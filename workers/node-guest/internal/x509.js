// crypto's X509Certificate: a guest object naming a certificate parsed by the worker's node:crypto (a handle of
// crypto-ops.ts), released when the guest object is collected. The host's members and their order make the
// prototype, so it follows the host's version; values come as JSON text, bytes or a key handle and are kept once
// read, as Node keeps them.
'use strict';

const {
  JSONParse,
  JSONStringify,
  ObjectDefineProperty,
  ObjectPrototypeHasOwnProperty,
  ArrayIsArray,
  Date,
  FinalizationRegistry,
  Map,
  ObjectCreate,
  Symbol,
  SymbolFor,
  TypeError,
  ArrayPrototypePush,
  SafeMap,
  SafeArrayIterator,
  ArrayPrototypeMap, StringPrototypeSlice,
} = require('internal/primordials');

const { Buffer } = require('buffer');
const { codeError, invalidArgType } = require('internal/errors');
const { call, pack, optionEntry, receive } = require('internal/host-assist');
const { isKeyObject, handleOf, wrapKey } = require('internal/key-object');
const host = internal.host;
const hasOwn = (o, k) => ObjectPrototypeHasOwnProperty(o, k);

const kHandle = Symbol('kHandle');
const kState = Symbol('kInternalState');

/** Releases the worker's certificate of a collected guest certificate. */
const certRegistry = new FinalizationRegistry((id) => host('x509Free', id));

// Read as Node reads it, so that null and undefined fail as there.
const isX509 = (v) => v[kState] !== undefined && hasOwn(v, kHandle);

/** A value read once from the worker (`read` runs on the first access) and kept. */
function cached(self, name, read) {
  if (!self[kState].has(name)) self[kState].set(name, read());
  return self[kState].get(name);
}

const field = (self, name) =>
  cached(self, name, () => {
    const r = call('x509Get', self[kHandle], name);
    if (r === 'u') return undefined;
    const v = JSONParse(r);
    return v !== null && typeof v === 'object' && typeof v.$d === 'number' ? new Date(v.$d) : v;
  });

/** toLegacyObject's tagged JSON (crypto-ops.ts) made into this realm's values. */
function untag(t) {
  if (t === null || typeof t !== 'object') return t;
  if (hasOwn(t, 'u')) return undefined;
  if (hasOwn(t, 'b')) return Buffer.from(t.b, 'base64');
  if (hasOwn(t, 'a')) return ArrayPrototypeMap(t.a, untag);
  const o = t.n ? ObjectCreate(null) : {};
  for (let i = 0; i < t.o.length; i++) ObjectDefineProperty(o, t.o[i][0], { value: untag(t.o[i][1]), enumerable: true, writable: true, configurable: true });
  return o;
}

const FLAG_OPTIONS = ['subject', 'wildcards', 'partialWildcards', 'multiLabelWildcards', 'singleLabelSubdomains'];

function check(self, method, subject, options) {
  if (ArrayIsArray(options) || typeof options === 'function') throw invalidArgType('options', 'of type object', options);
  let entries;
  if (options !== null && typeof options === 'object') {
    entries = [];
    for (const k of new SafeArrayIterator(FLAG_OPTIONS)) {
      const e = optionEntry(k, options[k]);
      if (e) ArrayPrototypePush(entries, e);
    }
    entries = JSONStringify(entries);
    options = undefined;
  }
  const pair$80 = pack([subject]);
  const layout = pair$80[0], a = pair$80[1];
  const r = call('x509Check', self[kHandle], method, layout, a[0], options, entries);
  return r === 'u' ? undefined : StringPrototypeSlice(r, 1);
}

function keyArgument(pkey, type) {
  if (!isKeyObject(pkey)) throw invalidArgType('pkey', 'an instance of KeyObject', pkey);
  if (pkey.type !== type) throw codeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The argument 'pkey' is invalid. Received ${require('util').inspect(pkey)}`);
  return handleOf(pkey);
}

class X509Certificate {
  constructor(buffer) {
    const pair$93 = pack([buffer], false);
    const layout = pair$93[0], a = pair$93[1];
    const id = call('x509New', layout, a[0]);
    ObjectDefineProperty(this, kState, { value: new SafeMap(), writable: true });
    ObjectDefineProperty(this, kHandle, { value: id, writable: true });
    certRegistry.register(this, id, this);
  }

  [SymbolFor('nodejs.util.inspect.custom')](depth, options) {
    if (depth < 0) return this;
    const opts = { ...options, depth: options.depth == null ? null : options.depth - 1 };
    const shown = {};
    for (const k of new SafeArrayIterator(inspected)) shown[k] = this[k];
    return `X509Certificate ${require('util').inspect(shown, opts)}`;
  }
}

/** The members the guest makes itself; the other getters are the host's values (x509Get). */
const own = {
  issuerCertificate: { get() {} },
  raw: {
    get() {
      return cached(this, 'raw', () => receive(call('x509Raw', this[kHandle])));
    },
  },
  publicKey: {
    get() {
      return cached(this, 'publicKey', () => wrapKey(call('x509PublicKey', this[kHandle])));
    },
  },
  toString: {
    value() {
      return field(this, 'toString');
    },
  },
  toJSON: {
    value() {
      return this.toString();
    },
  },
  checkHost: {
    value(name, options) {
      return check(this, 'checkHost', name, options);
    },
  },
  checkEmail: {
    value(email, options) {
      return check(this, 'checkEmail', email, options);
    },
  },
  checkIP: {
    value(ip, options) {
      return check(this, 'checkIP', ip, options);
    },
  },
  checkIssued: {
    value(otherCert) {
      if (!isX509(otherCert)) throw invalidArgType('otherCert', 'an instance of X509Certificate', otherCert);
      return call('x509Issued', this[kHandle], otherCert[kHandle]);
    },
  },
  checkPrivateKey: {
    value(pkey) {
      return call('x509WithKey', this[kHandle], 'checkPrivateKey', keyArgument(pkey, 'private'));
    },
  },
  verify: {
    value(pkey) {
      return call('x509WithKey', this[kHandle], 'verify', keyArgument(pkey, 'public'));
    },
  },
  toLegacyObject: {
    value() {
      return untag(JSONParse(call('x509Legacy', this[kHandle])));
    },
  },
};

/** What util.inspect shows: the host's getters but the certificate, bytes, key and `ca`, as Node's. */
const inspected = [];
const members = JSONParse(call('x509Members'));
for (let i = 0; i < members.length; i++) {
  const name = members[i][0];
  const getter = members[i][1];
  let desc = own[name];
  if (desc === undefined && getter) {
    desc = {
      get() {
        return field(this, name);
      },
    };
  }
  if (desc === undefined) continue;
  if (getter && name !== 'issuerCertificate' && name !== 'raw' && name !== 'publicKey' && name !== 'ca') ArrayPrototypePush(inspected, name);
  // Methods keep their names (a getter's is `get <name>`).
  if (desc.get) ObjectDefineProperty(desc.get, 'name', { value: `get ${name}` });
  else ObjectDefineProperty(desc.value, 'name', { value: name });
  ObjectDefineProperty(X509Certificate.prototype, name, { ...desc, enumerable: false, configurable: true, ...(desc.value ? { writable: true } : {}) });
}

module.exports = { X509Certificate, isX509 };
