import * as crypto from "node:crypto";
import { answer, type Bulk, decodeOptions, HandleTable, relaying, unpack } from "./host-assist.js";
import type { HostOp, HostState } from "./host-ops.js";
import { roomBytes } from "./memory-budget.js";

/** scrypt's own maxmem when none is given (Node's default, 32 MiB). */
const SCRYPT_DEFAULT_MAXMEM = 32 * 1024 * 1024;

/**
 * Host operations behind the guest's `crypto` ciphers, key derivations, keys (KeyObject handles) and signatures (workers/node-guest/builtins/crypto.js),
 * computed by the worker's own node:crypto, with the conventions of host-assist.ts.
 */

type AnyCipher = crypto.Cipher | crypto.Decipher;

export function cryptoOps(state: HostState, bulk: Bulk): Record<string, HostOp> {
  const ciphers = new HandleTable<{ c: AnyCipher; decipher: boolean }>("cipher");
  const create = (decipher: boolean) =>
    relaying((layout: unknown, algorithm: unknown, key: unknown, iv: unknown, options: unknown) => {
      const [alg, k, v] = unpack(state, bulk, layout, [algorithm, key, iv]);
      const opts = decodeOptions(options) as crypto.CipherGCMOptions | undefined;
      const make = (decipher ? crypto.createDecipheriv : crypto.createCipheriv) as (a: unknown, k: unknown, v: unknown, o?: unknown) => AnyCipher;
      return ciphers.add(() => ({ c: make(alg, k, v, opts), decipher }));
    });
  /** Hashes given more input than the guest holds (workers/node-guest/builtins/crypto.js Hash): fed as it comes. */
  const hashes = new HandleTable<crypto.Hash | crypto.Hmac>("hash");
  const keys = new HandleTable<crypto.KeyObject>("key");
  /**
   * The key argument of the next key operation (keyStage): Node's own validation then sees it as the guest
   * gave it, and the operations stay within the host channel's six arguments.
   */
  let staged: unknown;
  /** A key agreement's public key, staged before its private key (keyStagePeer). */
  let peer: unknown;
  const takeStaged = (): unknown => {
    const k = staged;
    staged = undefined;
    return k;
  };
  const keyDesc = (k: unknown): unknown => {
    if (k instanceof crypto.KeyObject) return { h: keys.add(() => k) };
    if (typeof k === "string") return { s: k };
    return { b: (k as Buffer).length };
  };
  // Bigints (an RSA key's publicExponent) as {"$n": digits}, which the guest revives.
  const toJson = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? { $n: x.toString() } : x));
  /**
   * Host objects the guest drives through whitelisted methods (ECDH, DiffieHellman): up to two arguments by
   * layout, answering the output's length, -1 for none (a setter's `this`).
   */
  const driven = <T extends object>(what: string, methods: string[]) => {
    const table = new HandleTable<T>(what);
    const allowed = new Set(methods);
    const callOp = relaying((id: unknown, method: unknown, layout: unknown, a: unknown, b: unknown) => {
      const o = table.get(id);
      const f = typeof method === "string" && allowed.has(method) ? (o as Record<string, unknown>)[method] : undefined;
      if (typeof f !== "function") throw new TypeError(`bad ${what} method`);
      const r = (f as (...x: unknown[]) => unknown).apply(o, unpack(state, bulk, layout, [a, b]));
      return Buffer.isBuffer(r) ? answer(state, bulk, r) : -1;
    });
    return { table, callOp, freeOp: ((id) => void table.delete(id)) as HostOp };
  };
  const ecdhs = driven<crypto.ECDH>("ecdh", ["generateKeys", "computeSecret", "getPublicKey", "getPrivateKey", "setPrivateKey"]);
  const dhs = driven<crypto.DiffieHellman | crypto.DiffieHellmanGroup>("dh", ["generateKeys", "computeSecret", "getPrime", "getGenerator", "getPublicKey", "getPrivateKey", "setPublicKey", "setPrivateKey"]);
  const certs = new HandleTable<crypto.X509Certificate>("x509");
  const certProto = crypto.X509Certificate.prototype as unknown as Record<string, unknown>;
  /** The certificate's own members in the host's order: [name, is a getter]. */
  const certMembers = Object.getOwnPropertyNames(certProto)
    .filter((k) => k !== "constructor")
    .map((k) => [k, typeof Object.getOwnPropertyDescriptor(certProto, k)?.get === "function"] as const);
  /** Getters whose values are answered as JSON; the others the guest makes from handles or bytes. */
  const certFields = new Set(certMembers.filter(([k, g]) => g && !["raw", "publicKey", "issuerCertificate"].includes(k)).map(([k]) => k));
  /** A value of toLegacyObject as tagged JSON: undefined {u}, bytes {b: base64}, arrays {a}, objects {o: entries, n: null prototype}. */
  const tagged = (v: unknown): unknown => {
    if (v === undefined) return { u: 1 };
    if (Buffer.isBuffer(v)) return { b: v.toString("base64") };
    if (Array.isArray(v)) return { a: v.map(tagged) };
    if (v !== null && typeof v === "object") return { o: Object.keys(v).map((k) => [k, tagged((v as Record<string, unknown>)[k])]), n: Object.getPrototypeOf(v) === null };
    if (v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean") return v;
    throw new TypeError("bad certificate value");
  };
  type KeyFn = (key: unknown, data: unknown) => Buffer;
  const keyCiphers: Record<string, KeyFn> = {
    publicEncrypt: crypto.publicEncrypt as KeyFn,
    privateDecrypt: crypto.privateDecrypt as KeyFn,
    privateEncrypt: crypto.privateEncrypt as KeyFn,
    publicDecrypt: crypto.publicDecrypt as KeyFn,
  };
  return {
    /** A hash (an HMAC keyed with the first `keyLength` pending bytes) of the pending input; answers its handle. */
    hashOpen: relaying((algorithm: unknown, keyLength: unknown) => {
      if (typeof algorithm !== "string" || (keyLength !== undefined && (typeof keyLength !== "number" || !Number.isInteger(keyLength) || keyLength < 0))) throw new TypeError("bad hash");
      return hashes.add(() => {
        const input = bulk.input();
        if (keyLength !== undefined && keyLength > input.length) throw new TypeError("bad hash");
        const h = keyLength === undefined ? crypto.createHash(algorithm) : crypto.createHmac(algorithm, input.subarray(0, keyLength));
        return h.update(input.subarray(keyLength ?? 0));
      });
    }),
    hashUpdate: relaying((id: unknown) => void hashes.get(id).update(bulk.input())),
    /** The digest, answered as bytes; the hash is closed. */
    hashDigest: relaying((id: unknown) => {
      const h = hashes.get(id);
      hashes.delete(id);
      return answer(state, bulk, h.digest());
    }),
    hashCopy: relaying((id: unknown) => {
      const h = hashes.get(id);
      if (!("copy" in h)) throw new TypeError("bad hash");
      return hashes.add(() => h.copy());
    }),
    hashFree: (id) => void hashes.delete(id),
    pbkdf2: relaying((layout: unknown, password: unknown, salt: unknown, iterations: unknown, keylen: unknown, digest: unknown) => {
      const a = unpack(state, bulk, layout, [password, salt, iterations, keylen, digest]);
      // The key is made here for the guest: no longer than its process may still hold (Node's error for a failed allocation).
      if (typeof a[3] === "number" && a[3] > roomBytes()) throw new RangeError("Array buffer allocation failed");
      return answer(state, bulk, (crypto.pbkdf2Sync as (...x: unknown[]) => Buffer)(...a));
    }),
    scrypt: relaying((layout: unknown, password: unknown, salt: unknown, keylen: unknown, options: unknown) => {
      const [p, s, k] = unpack(state, bulk, layout, [password, salt, keylen]);
      // scrypt's memory is the worker's, for the guest: its maxmem (32 MiB unless given) within what the process may still hold.
      const o = decodeOptions(options) ?? (Object.create(null) as Record<string, unknown>);
      const room = roomBytes();
      const own = o["maxmem"] ?? o["maxMem"];
      if (own === undefined || (typeof own === "number" && own > room)) {
        delete o["maxMem"];
        o["maxmem"] = Math.min(room, own === undefined ? SCRYPT_DEFAULT_MAXMEM : Infinity);
      }
      if (typeof k === "number" && k > room) throw new RangeError("Array buffer allocation failed");
      return answer(state, bulk, (crypto.scryptSync as (...x: unknown[]) => Buffer)(p, s, k, o));
    }),
    hkdf: relaying((layout: unknown, digest: unknown, ikm: unknown, salt: unknown, info: unknown, keylen: unknown) => {
      const a = unpack(state, bulk, layout, [digest, ikm, salt, info, keylen]);
      return answer(state, bulk, Buffer.from((crypto.hkdfSync as (...x: unknown[]) => ArrayBuffer)(...a)));
    }),
    cipherList: () => crypto.getCiphers().join(","),
    /** An ArrayBuffer's bytes, or (options.bigint) "n" and the prime's digits. */
    generatePrime: relaying((size: unknown, options: unknown) => {
      const o = decodeOptions(options);
      const p = (crypto.generatePrimeSync as (...x: unknown[]) => ArrayBuffer | bigint)(size, ...(o === undefined ? [] : [o]));
      return typeof p === "bigint" ? `n${p}` : answer(state, bulk, Buffer.from(p));
    }),
    checkPrime: relaying((layout: unknown, candidate: unknown, options: unknown) => {
      const [c] = unpack(state, bulk, layout, [candidate]);
      const o = decodeOptions(options);
      return (crypto.checkPrimeSync as (...x: unknown[]) => boolean)(c, ...(o === undefined ? [] : [o])) ? 1 : 0;
    }),
    /** JSON of the cipher's information, or "" when there is none. */
    cipherInfo: relaying((nameOrNid: unknown, options: unknown) => {
      const o = decodeOptions(options);
      const info = (crypto.getCipherInfo as (...x: unknown[]) => object | undefined)(nameOrNid, ...(o === undefined ? [] : [o]));
      return info === undefined ? "" : JSON.stringify(info);
    }),
    cipherNew: create(false),
    decipherNew: create(true),
    /** update(data, inputEncoding): answers the output's length. */
    cipherUpdate: relaying((id: unknown, layout: unknown, data: unknown, encoding: unknown) => {
      const { c } = ciphers.get(id);
      const [d, enc] = unpack(state, bulk, layout, [data, encoding]);
      return answer(state, bulk, (c.update as (d: unknown, e?: unknown) => Buffer)(d, enc));
    }),
    /**
     * final(), then the handle is released whatever happened. Answers out * 65536 + tag: the output followed by
     * the authentication tag of an AEAD cipher (the guest keeps it for getAuthTag).
     */
    cipherFinal: relaying((id: unknown) => {
      const { c, decipher } = ciphers.get(id);
      ciphers.delete(id);
      const out = c.final();
      let tag = Buffer.alloc(0);
      if (!decipher) {
        try {
          tag = (c as crypto.CipherGCM).getAuthTag();
        } catch {
          // not an AEAD mode
        }
      }
      answer(state, bulk, Buffer.concat([out, tag]));
      return out.length * 65536 + tag.length;
    }),
    cipherSetAAD: relaying((id: unknown, layout: unknown, aad: unknown, plaintextLength: unknown) => {
      const { c } = ciphers.get(id);
      const [a, n] = unpack(state, bulk, layout, [aad, plaintextLength]);
      (c as crypto.CipherGCM).setAAD(a as Buffer, n === undefined ? undefined : ({ plaintextLength: n } as { plaintextLength: number }));
    }),
    cipherSetAuthTag: relaying((id: unknown, layout: unknown, tag: unknown) => {
      const { c } = ciphers.get(id);
      const [t] = unpack(state, bulk, layout, [tag]);
      (c as crypto.DecipherGCM).setAuthTag(t as Buffer);
    }),
    cipherSetAutoPadding: relaying((id: unknown, on: unknown) => {
      ciphers.get(id).c.setAutoPadding(on as boolean);
    }),
    cipherFree: (id) => void ciphers.delete(id),
    cipherCount: () => ciphers.size,
    curveList: () => crypto.getCurves().join(","),
    cryptoConstants: () => JSON.stringify(crypto.constants),
    /**
     * Stages a key argument: `material` as given when there are no options, else {key: material, passphrase,
     * oaepLabel, ...options}. Option `$h` marks the material as a key handle, `$jwk` as a JWK's JSON text,
     * `$bare` the material alone.
     */
    keyStage: relaying((layout: unknown, material: unknown, passphrase: unknown, label: unknown, options: unknown) => {
      staged = undefined;
      // Copies: bytes in the scratch are a view that the next call overwrites.
      const [m, p, l] = unpack(state, bulk, layout, [material, passphrase, label]).map((x) => (Buffer.isBuffer(x) ? Buffer.from(x) : x));
      const o = decodeOptions(options);
      if (o === undefined) return void (staged = m);
      const key = o["$h"] === true ? keys.get(m) : o["$jwk"] === true ? (JSON.parse(m as string) as unknown) : m;
      if (o["$bare"] === true) return void (staged = key);
      const out = Object.create(null) as Record<string, unknown>;
      for (const [k, v] of Object.entries(o)) if (!k.startsWith("$")) out[k] = v;
      out["key"] = key;
      if (p !== undefined) out["passphrase"] = p;
      if (l !== undefined) out["oaepLabel"] = l;
      staged = out;
    }),
    /** A KeyObject of the staged key: `kind` secret (with the key's encoding), public or private. */
    keyNew: relaying((kind: unknown, encoding: unknown) => {
      const key = takeStaged();
      const make = kind === "secret" ? () => (crypto.createSecretKey as (k: unknown, e?: unknown) => crypto.KeyObject)(key, encoding) : kind === "public" ? () => crypto.createPublicKey(key as crypto.PublicKeyInput) : () => crypto.createPrivateKey(key as crypto.PrivateKeyInput);
      return keys.add(make);
    }),
    /** JSON [type, asymmetricKeyType, asymmetricKeyDetails, symmetricKeySize]. */
    keyInfo: relaying((id: unknown) => {
      const k = keys.get(id);
      return toJson([k.type, k.asymmetricKeyType ?? null, k.asymmetricKeyDetails ?? null, k.symmetricKeySize ?? null]);
    }),
    /** export(options): PEM text, bytes (answers their length) or a JWK as JSON text. */
    keyExport: relaying((id: unknown, layout: unknown, passphrase: unknown, options: unknown) => {
      const k = keys.get(id);
      const [p] = unpack(state, bulk, layout, [passphrase]);
      const o = decodeOptions(options);
      if (o !== undefined && p !== undefined) o["passphrase"] = p;
      const r = (k.export as (o?: unknown) => unknown)(o);
      if (Buffer.isBuffer(r)) return answer(state, bulk, r);
      return typeof r === "string" ? r : JSON.stringify(r);
    }),
    keyEquals: relaying((a: unknown, b: unknown) => keys.get(a).equals(keys.get(b))),
    keyFree: (id) => void keys.delete(id),
    keyCount: () => keys.size,
    /** generateKeySync(type, options): a handle. */
    keyGenerate: relaying((type: unknown, options: unknown) => {
      const o = decodeOptions(options);
      return keys.add(() => (crypto.generateKeySync as (t: unknown, o: unknown) => crypto.KeyObject)(type, o));
    }),
    /**
     * generateKeyPairSync(type, options), the encodings' passphrases given apart: JSON [public, private], each
     * {h: handle}, {s: text} or {b: length}, the bytes of both following each other in the output.
     */
    keyPairGenerate: relaying((type: unknown, layout: unknown, publicPassphrase: unknown, privatePassphrase: unknown, options: unknown) => {
      const [pp, sp] = unpack(state, bulk, layout, [publicPassphrase, privatePassphrase]);
      const o = decodeOptions(options);
      if (o !== undefined && pp !== undefined && typeof o["publicKeyEncoding"] === "object") (o["publicKeyEncoding"] as Record<string, unknown>)["passphrase"] = pp;
      if (o !== undefined && sp !== undefined && typeof o["privateKeyEncoding"] === "object") (o["privateKeyEncoding"] as Record<string, unknown>)["passphrase"] = sp;
      const { publicKey, privateKey } = (crypto.generateKeyPairSync as (t: unknown, o: unknown) => { publicKey: unknown; privateKey: unknown })(type, o);
      const bytes = [publicKey, privateKey].filter((k): k is Buffer => Buffer.isBuffer(k));
      const pub = keyDesc(publicKey) as { h?: number };
      let priv;
      try {
        priv = keyDesc(privateKey);
      } catch (e) {
        keys.delete(pub.h);
        throw e;
      }
      const desc = toJson([pub, priv]);
      if (bytes.length > 0) answer(state, bulk, Buffer.concat(bytes));
      return desc;
    }),
    /** Signs `data` with the staged key: crypto.sign, or (stream) createSign(algorithm).update(data).sign(key). */
    sign: relaying((layout: unknown, algorithm: unknown, data: unknown, stream: unknown) => {
      const key = takeStaged();
      const [alg, d] = unpack(state, bulk, layout, [algorithm, data]);
      const sig = stream === true ? crypto.createSign(alg as string).update(d as Buffer).sign(key as crypto.KeyLike) : (crypto.sign as (a: unknown, d: unknown, k: unknown) => Buffer)(alg, d, key);
      return answer(state, bulk, sig);
    }),
    verify: relaying((layout: unknown, algorithm: unknown, data: unknown, signature: unknown, stream: unknown, sigEncoding: unknown) => {
      const key = takeStaged();
      const [alg, d, s] = unpack(state, bulk, layout, [algorithm, data, signature]);
      if (stream === true) return (crypto.createVerify(alg as string).update(d as Buffer).verify as (k: unknown, s: unknown, e?: unknown) => boolean)(key, s, sigEncoding);
      return (crypto.verify as (a: unknown, d: unknown, k: unknown, s: unknown) => boolean)(alg, d, key, s);
    }),
    /** Validates a digest as createSign/createVerify do when made. */
    signCheck: relaying((algorithm: unknown) => void crypto.createSign(algorithm as string)),
    /** publicEncrypt, privateDecrypt, privateEncrypt or publicDecrypt of `data` with the staged key. */
    keyCipher: relaying((name: unknown, layout: unknown, data: unknown) => {
      const key = takeStaged();
      const f = typeof name === "string" && Object.hasOwn(keyCiphers, name) ? keyCiphers[name]! : undefined;
      if (!f) throw new TypeError("bad key cipher");
      const [d] = unpack(state, bulk, layout, [data]);
      return answer(state, bulk, f(key, d));
    }),
    ecdhNew: relaying((curve: unknown) => ecdhs.table.add(() => crypto.createECDH(curve as string))),
    /** One method of an ECDH (bytes in, bytes out; its point format given as is). */
    ecdhCall: ecdhs.callOp,
    ecdhFree: ecdhs.freeOp,
    ecdhConvert: relaying((layout: unknown, key: unknown, curve: unknown, format: unknown) => {
      const [k] = unpack(state, bulk, layout, [key]);
      return answer(state, bulk, (crypto.ECDH.convertKey as (...x: unknown[]) => Buffer)(k, curve, undefined, "buffer", format));
    }),
    /** createDiffieHellman(sizeOrKey, keyEncoding, generator, generatorEncoding) as the guest gave them: Node validates. */
    dhNew: relaying((layout: unknown, a: unknown, b: unknown, c: unknown, d: unknown) => {
      const args = unpack(state, bulk, layout, [a, b, c, d]);
      return dhs.table.add(() => (crypto.createDiffieHellman as (...x: unknown[]) => crypto.DiffieHellman)(...args));
    }),
    dhGroupNew: relaying((layout: unknown, name: unknown) => {
      const [n] = unpack(state, bulk, layout, [name]);
      return dhs.table.add(() => crypto.createDiffieHellmanGroup(n as string));
    }),
    dhVerifyError: relaying((id: unknown) => dhs.table.get(id).verifyError),
    /** One method of a DiffieHellman: inputs with their encodings (Node decodes and validates), bytes out. */
    dhCall: dhs.callOp,
    dhFree: dhs.freeOp,
    /** crypto.diffieHellman of two key handles. */
    diffieHellman: relaying((privateId: unknown, publicId: unknown) => answer(state, bulk, crypto.diffieHellman({ privateKey: keys.get(privateId), publicKey: keys.get(publicId) }))),
    /** Sets the staged key aside as the public key of the next diffieHellmanStaged. */
    keyStagePeer: () => {
      peer = takeStaged();
    },
    /** new X509Certificate(buffer) as the guest gave it: Node validates and parses. */
    x509New: relaying((layout: unknown, buffer: unknown) => {
      const [b] = unpack(state, bulk, layout, [buffer]);
      return certs.add(() => new (crypto.X509Certificate as new (b: unknown) => crypto.X509Certificate)(b));
    }),
    /** JSON [[name, is a getter], …] of the certificate's members. */
    x509Members: () => JSON.stringify(certMembers),
    /** A getter's value (or toString's PEM) as JSON, a Date as {$d: time}; "u" for undefined. */
    x509Get: relaying((id: unknown, name: unknown) => {
      const c = certs.get(id);
      if (name === "toString") return JSON.stringify(c.toString());
      if (typeof name !== "string" || !certFields.has(name)) throw new TypeError("bad certificate field");
      const v = (c as unknown as Record<string, unknown>)[name];
      if (v === undefined) return "u";
      return JSON.stringify(v instanceof Date ? { $d: v.getTime() } : v);
    }),
    x509Raw: relaying((id: unknown) => answer(state, bulk, Buffer.from(certs.get(id).raw))),
    x509PublicKey: relaying((id: unknown) => {
      const c = certs.get(id);
      return keys.add(() => c.publicKey);
    }),
    /** checkHost, checkEmail or checkIP: options as given (a primitive) or as option entries. */
    x509Check: relaying((id: unknown, method: unknown, layout: unknown, subject: unknown, options: unknown, entries: unknown) => {
      const c = certs.get(id);
      if (method !== "checkHost" && method !== "checkEmail" && method !== "checkIP") throw new TypeError("bad certificate check");
      const [s] = unpack(state, bulk, layout, [subject]);
      const o = entries === undefined ? options : decodeOptions(entries);
      const r = (c[method] as (s: unknown, o?: unknown) => string | undefined)(s, o);
      return r === undefined ? "u" : `s${r}`;
    }),
    x509Issued: relaying((id: unknown, otherId: unknown) => certs.get(id).checkIssued(certs.get(otherId))),
    /** verify(publicKey) or checkPrivateKey(privateKey) with a key handle. */
    x509WithKey: relaying((id: unknown, method: unknown, keyId: unknown) => {
      const c = certs.get(id);
      const k = keys.get(keyId);
      if (method === "verify") return c.verify(k);
      if (method === "checkPrivateKey") return c.checkPrivateKey(k);
      throw new TypeError("bad certificate method");
    }),
    x509Legacy: relaying((id: unknown) => JSON.stringify(tagged(certs.get(id).toLegacyObject()))),
    x509Free: (id) => void certs.delete(id),
    x509Count: () => certs.size,
    /** crypto.diffieHellman of the staged keys as the guest gave them (Node ≥ 24 takes any key argument). */
    diffieHellmanStaged: relaying(() => {
      const publicKey = peer;
      peer = undefined;
      return answer(state, bulk, (crypto.diffieHellman as (o: unknown) => Buffer)({ privateKey: takeStaged(), publicKey }));
    }),
  };
}
