import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentOs, type ExecResult } from "../../src/index.js";
import { CASE_DEADLINE_MS, RUN_DEADLINE_MS, runHostNode, SETUP_DEADLINE_MS } from "./host-node.js";

// Differential test of the guest `node`'s host-assisted crypto (ciphers, pbkdf2, scrypt, hkdf, KeyObjects,
// signatures, key-based encryption, crypto.subtle) and incremental
// zlib streams (workers/node-guest/builtins/{crypto,zlib}.js, workers/node-host/{crypto,zlib}-ops.ts) against this
// machine's own `node` (process.execPath, the binary the VM's workers run on): stdout, stderr and exit code must
// be equal after replacing the script's directory and collapsing stack frames. A last group checks what only the
// VM has: the per-process cap on live cipher, key and zlib handles.

const js = String.raw;

interface Case {
  name: string;
  code: string;
}

const CASES: Case[] = [
  // ---------------------------------------------------------------- ciphers
  { name: "cipher-vectors", code: js`const c = require('crypto');
const h = (s) => Buffer.from(s, 'hex');
// NIST SP 800-38A F.2.1 (CBC-AES128), F.5.1 (CTR-AES128), F.1.1 (ECB-AES128).
const key = h('2b7e151628aed2a6abf7158809cf4f3c'), pt = h('6bc1bee22e409f96e93d7e117393172a');
const cbc = c.createCipheriv('aes-128-cbc', key, h('000102030405060708090a0b0c0d0e0f')).setAutoPadding(false);
console.log(Buffer.concat([cbc.update(pt), cbc.final()]).toString('hex'));
const ctr = c.createCipheriv('aes-128-ctr', key, h('f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff'));
console.log(ctr.update(pt, undefined, 'hex') + ctr.final('hex'));
const ecb = c.createCipheriv('aes-128-ecb', key, null); ecb.setAutoPadding(false);
console.log(ecb.update(pt).toString('hex'), ecb.final().length);
for (const alg of ['aes-128-cbc', 'aes-192-cbc', 'aes-256-cbc', 'aes-128-ctr', 'aes-192-ctr', 'aes-256-ctr', 'aes-128-ecb', 'aes-192-ecb', 'aes-256-ecb']) {
  const bits = Number(alg.slice(4, 7)); const k = Buffer.alloc(bits / 8, 7); const iv = alg.endsWith('ecb') ? null : Buffer.alloc(16, 9);
  const e = c.createCipheriv(alg, k, iv); const ct = e.update('héllo wörld, a message longer than one block', 'utf8', 'base64') + e.final('base64');
  const d = c.createDecipheriv(alg, k, iv); console.log(alg, ct, d.update(ct, 'base64', 'utf8') + d.final('utf8'));
}
const e = c.createCipheriv('aes-256-cbc', 'k'.repeat(32), 'i'.repeat(16)); const parts = [];
for (let i = 0; i < 40; i += 7) parts.push(e.update(Buffer.alloc(7, i)));
parts.push(e.final()); console.log(parts.map((p) => p.length).join(), Buffer.concat(parts).toString('hex'));
const big = Buffer.alloc(600000, 'abc'); const be = c.createCipheriv('aes-128-ctr', key, Buffer.alloc(16));
const bct = Buffer.concat([be.update(big), be.final()]); console.log(bct.length, c.createHash('sha256').update(bct).digest('hex'));
const bd = c.createDecipheriv('aes-128-ctr', key, Buffer.alloc(16)); console.log(Buffer.concat([bd.update(bct), bd.final()]).equals(big));
console.log(c.getCiphers().includes('aes-256-gcm'), c.getCiphers().includes('chacha20-poly1305'), c.getCiphers().length > 50);
` },
  { name: "cipher-aead", code: js`const c = require('crypto');
const key = Buffer.alloc(32, 3), iv = Buffer.alloc(12, 4), aad = Buffer.from('header');
for (const [alg, k, opts] of [['aes-256-gcm', key, undefined], ['aes-128-gcm', key.subarray(0, 16), { authTagLength: 12 }], ['chacha20-poly1305', key, { authTagLength: 16 }]]) {
  const e = c.createCipheriv(alg, k, iv, opts); e.setAAD(aad);
  const ct = Buffer.concat([e.update('attack at dawn'), e.final()]); const tag = e.getAuthTag();
  console.log(alg, ct.toString('hex'), tag.toString('hex'), e.getAuthTag().equals(tag));
  const d = c.createDecipheriv(alg, k, iv, opts); d.setAAD(aad); d.setAuthTag(tag);
  console.log(Buffer.concat([d.update(ct), d.final()]).toString());
  const bad = c.createDecipheriv(alg, k, iv, opts); bad.setAAD(Buffer.from('other')); bad.setAuthTag(tag); bad.update(ct);
  try { bad.final(); } catch (err) { console.log(err.name, err.message, err.code, Object.keys(err)); }
}
const g = c.createCipheriv('aes-128-gcm', Buffer.alloc(16), Buffer.alloc(12));
try { g.getAuthTag(); } catch (e) { console.log(e.message, e.code); }
g.final(); console.log(g.getAuthTag().length);
try { c.createDecipheriv('aes-128-gcm', Buffer.alloc(16), Buffer.alloc(12)).setAuthTag(Buffer.alloc(3)); } catch (e) { console.log(e.name, e.message, e.code); }
try { c.createCipheriv('aes-128-gcm', Buffer.alloc(16), Buffer.alloc(12), { authTagLength: 3 }); } catch (e) { console.log(e.name, e.message, e.code); }
console.log(typeof c.createCipheriv('aes-128-gcm', Buffer.alloc(16), Buffer.alloc(12)).setAuthTag, typeof c.createDecipheriv('aes-128-gcm', Buffer.alloc(16), Buffer.alloc(12)).getAuthTag);
` },
  { name: "cipher-errors", code: js`const c = require('crypto');
const t = (f) => { try { console.log('ok', f()); } catch (e) { console.log(e.name, JSON.stringify(e.message), e.code, Object.keys(e).join(), e.stack.split('\n')[0]); } };
const k = Buffer.alloc(16, 1), iv = Buffer.alloc(16, 2);
t(() => c.createCipheriv('aes-128-cbc', Buffer.alloc(5), iv));
t(() => c.createCipheriv('aes-256-cbc', k, iv));
t(() => c.createCipheriv('aes-128-cbc', k, Buffer.alloc(5)));
t(() => c.createCipheriv('aes-128-ecb', k, iv));
t(() => c.createCipheriv('nope-128', k, iv));
t(() => c.createCipheriv(5, k, iv));
t(() => c.createCipheriv('aes-128-cbc', 5, iv));
t(() => c.createCipheriv('aes-128-cbc', {}, iv));
t(() => c.createCipheriv('aes-128-cbc', [1, 2], iv));
let x = c.createCipheriv('aes-128-cbc', k, iv); x.final();
t(() => x.update('a')); t(() => x.final()); t(() => x.setAutoPadding(false)); t(() => x.getAuthTag()); t(() => x.setAAD(Buffer.alloc(1)));
x = c.createCipheriv('aes-128-cbc', k, iv);
t(() => x.update({})); t(() => x.update(new ArrayBuffer(2))); t(() => x.update('abc', 'hex')); t(() => x.update(5)); t(() => x.setAAD(Buffer.alloc(1)));
let d = c.createDecipheriv('aes-128-cbc', k, iv); d.update(Buffer.alloc(16)); t(() => d.final()); t(() => d.final());
d = c.createDecipheriv('aes-128-cbc', k, iv); d.update(Buffer.alloc(15)); t(() => d.final());
x = c.createCipheriv('aes-128-cbc', k, iv); x.setAutoPadding(false); x.update('abc'); t(() => x.final());
try { d = c.createDecipheriv('aes-128-cbc', k, iv); d.update(Buffer.alloc(16)); d.final(); } catch (e) { console.log(e); }
t(() => c.timingSafeEqual(Buffer.alloc(1), Buffer.alloc(2))); t(() => c.timingSafeEqual('a', 'a')); t(() => c.timingSafeEqual(Buffer.from('ab'), new Uint8Array([97, 98])));
` },
  { name: "cipher-uncaught", code: js`const c = require('crypto'); const d = c.createDecipheriv('aes-128-cbc', Buffer.alloc(16), Buffer.alloc(16)); d.update(Buffer.alloc(16)); d.final();` },
  { name: "cipher-streams", code: js`const c = require('crypto'); const { pipeline, Readable, Writable } = require('stream');
const key = Buffer.alloc(32, 5), iv = Buffer.alloc(16, 6); const out = [];
pipeline(Readable.from(['first chunk, ', 'second chunk, ', 'x'.repeat(5000)]), c.createCipheriv('aes-256-cbc', key, iv), c.createDecipheriv('aes-256-cbc', key, iv),
  new Writable({ write(ch, e, cb) { out.push(ch); cb(); } }), (err) => {
    console.log('pipeline', err, Buffer.concat(out).length, Buffer.concat(out).subarray(0, 26).toString());
    const d = c.createDecipheriv('aes-256-cbc', key, iv); d.on('error', (e) => console.log('stream error', e.message, e.code)); d.on('data', () => {}); d.end(Buffer.alloc(16));
  });
const e = c.createCipheriv('aes-128-ctr', Buffer.alloc(16), Buffer.alloc(16)); e.setEncoding('hex'); let s = '';
e.on('data', (d) => (s += d)); e.on('end', () => console.log('hex stream', s)); e.write('abc'); e.end('def');
` },
  // ---------------------------------------------------------------- key derivation
  { name: "kdf", code: js`const c = require('crypto');
const t = (f) => { try { const r = f(); console.log('ok', Buffer.isBuffer(r) ? r.toString('hex') : r); } catch (e) { console.log(e.name, JSON.stringify(e.message), e.code, e.stack.split('\n')[0]); } };
// RFC 6070 PBKDF2-HMAC-SHA1 vectors.
t(() => c.pbkdf2Sync('password', 'salt', 1, 20, 'sha1')); t(() => c.pbkdf2Sync('password', 'salt', 4096, 20, 'sha1'));
t(() => c.pbkdf2Sync('passwordPASSWORDpassword', 'saltSALTsaltSALTsaltSALTsaltSALTsalt', 4096, 25, 'sha1'));
t(() => c.pbkdf2Sync(Buffer.from('pw'), new Uint8Array([1, 2, 3]), 10, 64, 'sha512')); t(() => c.pbkdf2Sync('pw', 'salt', 1000, 32, 'sha256'));
t(() => c.pbkdf2Sync('a', 'b', 0, 10, 'sha1')); t(() => c.pbkdf2Sync('a', 'b', 1, 10, 'nope')); t(() => c.pbkdf2Sync('a', 'b', 1, 10)); t(() => c.pbkdf2Sync('a', 'b', 1, -1, 'sha1')); t(() => c.pbkdf2Sync({}, 'b', 1, 1, 'sha1'));
t(() => c.pbkdf2('a', 'b', 1, 10, 'sha1'));
// RFC 7914 scrypt vectors.
t(() => c.scryptSync('', '', 64, { N: 16, r: 1, p: 1 })); t(() => c.scryptSync('password', 'NaCl', 64, { N: 1024, r: 8, p: 16 }));
t(() => c.scryptSync('pw', 'salt', 16)); t(() => c.scryptSync('pw', 'salt', 16, { cost: 32, blockSize: 2, parallelization: 2 }));
t(() => c.scryptSync('a', 'b', 10, { N: 3 })); t(() => c.scryptSync('a', 'b', 10, { N: 16, cost: 16 })); t(() => c.scryptSync('a', 'b', 10, { N: 2 ** 20 }));
t(() => c.scryptSync('a', 'b', 10, { N: 2 ** 14, maxmem: 1024 })); t(() => c.scryptSync('a', 'b', 10, { r: 0 })); t(() => c.scryptSync('a', 'b', 10, { N: 'x' })); t(() => c.scryptSync('a', 'b', 10, { maxmem: -1 }));
// RFC 5869 A.1.
const hk = c.hkdfSync('sha256', Buffer.from('0b'.repeat(22), 'hex'), Buffer.from('000102030405060708090a0b0c', 'hex'), Buffer.from('f0f1f2f3f4f5f6f7f8f9', 'hex'), 42);
console.log(hk instanceof ArrayBuffer, Buffer.from(hk).toString('hex'));
t(() => c.hkdfSync('sha256', 'k', 's', 'i', 10000)); t(() => c.hkdfSync('nope', 'k', 's', 'i', 10)); t(() => c.hkdfSync('sha256', 'k', 's', 'i'));
c.pbkdf2('pw', 'salt', 1, 8, 'sha1', (e, k) => {
  console.log('pbkdf2 cb', e, k.toString('hex'));
  c.scrypt('pw', 'salt', 8, (e2, k2) => {
    console.log('scrypt cb', e2, k2.toString('hex'));
    c.scrypt('pw', 'salt', 8, { N: 32 }, (e3, k3) => {
      console.log('scrypt opts cb', e3, k3.toString('hex'));
      c.hkdf('sha512', 'key', 'salt', 'info', 16, (e4, k4) => console.log('hkdf cb', e4, k4 instanceof ArrayBuffer, Buffer.from(k4).toString('hex')));
    });
  });
});
const { promisify } = require('util'); promisify(c.pbkdf2)('p', 's', 2, 4, 'md5').then((k) => console.log('promisified', k.toString('hex')));
` },
  // ---------------------------------------------------------------- keys, signatures, webcrypto
  { name: "keys-random", code: js`const c = require('crypto');
const t = (f) => { try { const r = f(); console.log('ok', Buffer.isBuffer(r) ? r.toString('hex') : r); } catch (e) { console.log(e.name, JSON.stringify(e.message), e.code, e.stack.split('\n')[0]); } };
const s = c.createSecretKey(Buffer.from('0123456789abcdef'));
console.log(s.type, s.symmetricKeySize, s.export().toString(), s.export({ format: 'jwk' }), s instanceof c.KeyObject, Object.prototype.toString.call(s));
console.log(s.equals(c.createSecretKey('0123456789abcdef', 'utf8')), s.equals(c.createSecretKey(Buffer.alloc(16))));
const rsa = c.generateKeyPairSync('rsa', { modulusLength: 1024 });
console.log(rsa.publicKey.type, rsa.privateKey.type, rsa.publicKey.asymmetricKeyType, rsa.publicKey.asymmetricKeyDetails);
const pem = rsa.privateKey.export({ format: 'pem', type: 'pkcs8' });
const pub = c.createPublicKey(pem);
console.log(pub.equals(rsa.publicKey), c.createPrivateKey(pem).equals(rsa.privateKey), pub.export({ format: 'jwk' }).kty);
const der = rsa.publicKey.export({ format: 'der', type: 'spki' });
console.log(c.createPublicKey({ key: der, format: 'der', type: 'spki' }).equals(pub));
const jwk = rsa.privateKey.export({ format: 'jwk' });
console.log(c.createPrivateKey({ key: jwk, format: 'jwk' }).equals(rsa.privateKey));
const enc = rsa.privateKey.export({ format: 'pem', type: 'pkcs8', cipher: 'aes-256-cbc', passphrase: 'top secret' });
console.log(enc.split('\n')[0]);
t(() => c.createPrivateKey(enc));
console.log(c.createPrivateKey({ key: enc, passphrase: 'top secret' }).equals(rsa.privateKey));
for (const [type, o] of [['ec', { namedCurve: 'P-256' }], ['ed25519'], ['x25519'], ['ec', { namedCurve: 'secp384r1' }], ['rsa-pss', { modulusLength: 1024, hashAlgorithm: 'sha256', saltLength: 16 }]]) {
  const k = c.generateKeyPairSync(type, o);
  console.log(type, k.privateKey.asymmetricKeyType, k.publicKey.asymmetricKeyDetails, k.privateKey.export({ format: 'der', type: 'pkcs8' }).length > 10);
}
const p2 = c.generateKeyPairSync('ec', { namedCurve: 'P-256', publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'sec1', format: 'der' } });
console.log(typeof p2.publicKey, p2.publicKey.split('\n')[0], Buffer.isBuffer(p2.privateKey));
const msg = Buffer.from('message');
for (const alg of ['sha256', 'RSA-SHA256', 'sha512']) {
  const sig = c.sign(alg, msg, rsa.privateKey);
  console.log(alg, sig.toString('base64').length, c.verify(alg, msg, rsa.publicKey, sig), c.verify(alg, Buffer.from('x'), pem, sig));
}
const ed = c.generateKeyPairSync('ed25519');
const esig = c.sign(null, msg, ed.privateKey); console.log(esig.length, c.verify(null, msg, ed.publicKey, esig));
const signer = c.createSign('SHA256'); signer.update('mess'); signer.update('age'); const ssig = signer.sign(pem, 'hex');
console.log(ssig === c.sign('sha256', msg, rsa.privateKey).toString('hex'), c.createVerify('sha256').update(msg).verify(rsa.publicKey, ssig, 'hex'));
const ecdsa = c.generateKeyPairSync('ec', { namedCurve: 'P-256' });
const es = c.sign('sha256', msg, { key: ecdsa.privateKey, dsaEncoding: 'ieee-p1363' }); console.log(es.length, c.verify('sha256', msg, { key: ecdsa.publicKey, dsaEncoding: 'ieee-p1363' }, es));
const pss = c.sign('sha256', msg, { key: rsa.privateKey, padding: c.constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 });
console.log(c.verify('sha256', msg, { key: rsa.publicKey, padding: c.constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }, pss));
const ct = c.publicEncrypt(rsa.publicKey, Buffer.from('secret data')); console.log(ct.length, c.privateDecrypt(rsa.privateKey, ct).toString());
const ct2 = c.publicEncrypt({ key: pem, oaepHash: 'sha256', oaepLabel: Buffer.from('lbl') }, Buffer.from('x')); console.log(c.privateDecrypt({ key: rsa.privateKey, oaepHash: 'sha256', oaepLabel: Buffer.from('lbl') }, ct2).toString());
const ct3 = c.privateEncrypt(rsa.privateKey, Buffer.from('signed')); console.log(c.publicDecrypt(rsa.publicKey, ct3).toString());
t(() => c.privateDecrypt(rsa.privateKey, Buffer.alloc(128)));
const a = c.generateKeyPairSync('x25519'), b = c.generateKeyPairSync('x25519');
console.log(c.diffieHellman({ privateKey: a.privateKey, publicKey: b.publicKey }).equals(c.diffieHellman({ privateKey: b.privateKey, publicKey: a.publicKey })));
t(() => c.createPublicKey('not a key')); t(() => c.createPrivateKey(5)); t(() => c.createSecretKey(5)); t(() => c.generateKeyPairSync('nope')); t(() => c.generateKeyPairSync('rsa', {}));
t(() => c.sign('sha256', msg, rsa.publicKey)); t(() => c.createSign('nope')); t(() => s.export({ format: 'pem' })); t(() => rsa.publicKey.export({ format: 'pem' })); t(() => s.equals({}));
t(() => c.generateKeySync('hmac', { length: 64 }).symmetricKeySize); t(() => c.generateKeySync('aes', { length: 256 }).symmetricKeySize); t(() => c.generateKeySync('aes', { length: 100 }));
console.log(c.createHmac('sha256', s).update('x').digest('hex'));
const ci = c.createCipheriv('aes-128-cbc', s, Buffer.alloc(16)); console.log(Buffer.concat([ci.update('x'), ci.final()]).toString('hex'));
console.log(c.getCurves().length > 10, c.getCurves().includes('prime256v1'), c.constants.RSA_PKCS1_OAEP_PADDING, Object.keys(c.constants).length > 10);
c.generateKeyPair('ec', { namedCurve: 'P-256' }, (e, pu, pr) => { console.log('cb', e, pu.type, pr.type);
  require('util').promisify(c.generateKeyPair)('ed25519').then(({ publicKey, privateKey }) => { console.log('promise', publicKey.asymmetricKeyType, privateKey.type);
    c.generateKey('hmac', { length: 128 }, (e2, k) => { console.log('gen', e2, k.symmetricKeySize);
      c.sign('sha256', msg, rsa.privateKey, (e, sig) => console.log('sign cb', e, sig.length)); }); }); });
` },
  { name: "keys-fixed", code: js`const c = require('crypto');
const RSA = ['-----BEGIN RSA PRIVATE KEY-----',
  'MIICXAIBAAKBgQC9wdDsGZRLoEPPwQjHnZ1AfFYkdtq7bp44S6YAQHn+SM755Nae', 'zb8MoCBM+u0GRS+zvhoCjuVBO8jbntzmVsSWv8uXqF4Eizr0Owu7ScEiTHyTayZN',
  '9t99I+RifkKbEcwdl5LRlu3J50a4iZSoo323QMTqp0+e2u7eQq8gWDvV9wIDAQAB', 'AoGAFdxEM07nFKdL6J02Y7i2qv0n919x53Hg7F9aqmDDLRY6MfO4/eZ6AfxYfEXU',
  'FIrX6f8WhADuTEuU4ig1DpwkXX7GeUeNA1owko2xKUFAk9oiQY9ZO2q7OMFxFuv4', 'FFq7bD7xDIJaHdvlYsns07bhTIBQlVRf0hC3d9Bbt6yw3qECQQDdVdWFtL7iV4yB',
  'uVwnHf1kdRGkrmQngQbKEPoXvBQq0fT05sCdObr6kzhzEg9TSmTE56s7n2tmvWZb', 'R4swUUwpAkEA23nkpvUgQMulFk4ikBh+ZcD9e4GnFOzSjmMpkXxpYBn/mGNjQTn8',
  'I7lx3seUGft2xxoFitgPoSuM7q06IopVHwJADRttJprahvraRkBc1bAv9kf8gH0X', 'T0OTzFmPBeLMavC+Cda0Z1so2Hfpat8R60PHjeWOPVymdpIWwqcM9hKKaQJBAK2b',
  'PcLTIzAd5fg+1hglR9Y1UkzfwcpLikIXLkpmnvPlnMht1ZVCyK95gRk3xW7H+qyD', 'aN7rCXHzgQdK/zFTOwECQGl7x7YJgi5oJNZ0XEZZN2aRz9XWRPyJkBR8x78soLhr',
  'aOddlXJO5eaeuJW1g7eN/40N6deYmsWWCIqA2COmG6g=', '-----END RSA PRIVATE KEY-----', ''].join('\n');
const t = (f) => { try { const r = f(); console.log('ok', Buffer.isBuffer(r) ? r.toString('hex') : r); } catch (e) { console.log(e.name, JSON.stringify(e.message), e.code, e.stack.split('\n')[0]); } };
const priv = c.createPrivateKey(RSA); const pub = c.createPublicKey(RSA); const msg = Buffer.from('fixed message');
console.log(priv.asymmetricKeyDetails, pub.export({ format: 'pem', type: 'spki' }), pub.export({ format: 'pem', type: 'pkcs1' }));
console.log(priv.export({ format: 'der', type: 'pkcs8' }).toString('base64'), priv.export({ format: 'jwk' }));
console.log(c.sign('sha256', msg, priv).toString('base64'), c.createSign('sha1').update(msg).sign(RSA, 'base64'));
console.log(c.verify('sha256', msg, RSA, c.sign('sha256', msg, priv)), c.createVerify('RSA-SHA256').update(msg).verify(pub, c.sign('sha256', msg, priv)));
console.log(c.privateEncrypt(priv, Buffer.from('pkcs1 block')).toString('base64'), c.publicDecrypt(RSA, c.privateEncrypt(RSA, Buffer.from('round'))).toString());
const ed = c.createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', d: 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' }, format: 'jwk' });
// RFC 8032 7.1 TEST 1.
console.log(c.sign(null, Buffer.alloc(0), ed).toString('hex'), c.createPublicKey(ed).export({ format: 'der', type: 'spki' }).toString('hex'), ed.export({ format: 'pem', type: 'pkcs8' }));
console.log(c.verify(null, Buffer.alloc(0), c.createPublicKey(ed), c.sign(null, Buffer.alloc(0), ed)), c.verify(null, Buffer.from('x'), ed, c.sign(null, Buffer.alloc(0), ed)));
const ec = c.createPrivateKey({ key: { kty: 'EC', crv: 'P-256', d: '2CiFMrpsvjU0BJ_0rppjX5Xr8bacGe-qqrfq2zqlcHk', x: 'aAo5WX0gbp9ax6Iw-DeViGXa27AQs2z85DYDiuax2eA', y: 'BnBIY_tzRz_NMXGB92gdQeUw-CuUuNLx_w_mXsL2MRE' }, format: 'jwk' });
console.log(ec.asymmetricKeyDetails, c.createPublicKey(ec).export({ format: 'jwk' }), ec.export({ format: 'der', type: 'sec1' }).toString('hex'));
const s1 = c.sign('sha256', msg, ec); console.log(c.verify('sha256', msg, c.createPublicKey(ec), s1), c.verify('sha256', msg, { key: ec, dsaEncoding: 'ieee-p1363' }, s1));
const x1 = c.createPrivateKey({ key: { kty: 'OKP', crv: 'X25519', d: 'dwdtCnMYpX08FsFyUbJmRd9ML4frwJkqsXf7pR25LCo', x: 'hSDwCYkwp1R0i33ctD73Wg2_Og0mOBr066SpjqqbTmo' }, format: 'jwk' });
const x2 = c.createPrivateKey({ key: { kty: 'OKP', crv: 'X25519', d: 'XasIfmJKikt54X-Lg4AO5m87sSkmGLb9HC-LJ_-I4Os', x: '3p7bfXt9wbTTW2HC7OQ1Nz-DQ8hbeGdNrfx-FG-IK08' }, format: 'jwk' });
// RFC 7748 6.1.
console.log(c.diffieHellman({ privateKey: x1, publicKey: c.createPublicKey(x2) }).toString('hex'));
t(() => c.diffieHellman({ privateKey: x1, publicKey: ec })); t(() => c.diffieHellman({ privateKey: x1 })); t(() => c.createPrivateKey({ key: 'x', format: 'jwk' }));
t(() => c.createPrivateKey({ key: { kty: 'EC' }, format: 'jwk' })); t(() => c.createPublicKey({ key: RSA, format: 'der' })); t(() => pub.export({ format: 'jwk', type: 'x' }).kty);
t(() => priv.export({ format: 'pem', type: 'pkcs8', cipher: 'aes-128-cbc' })); t(() => c.sign('sha256', 'str', priv)); t(() => c.verify('sha256', msg, priv, 'sig'));
t(() => c.publicEncrypt({ key: pub, padding: 99 }, msg)); t(() => c.createSign('sha256').sign({})); t(() => c.createVerify('sha256').update(msg).verify(pub, Buffer.alloc(128)));
` },
  { name: "ecdh", code: js`const c = require('crypto');
const t = (f) => { try { const r = f(); console.log('ok', Buffer.isBuffer(r) ? r.toString('hex') : r); } catch (e) { console.log(e.name, JSON.stringify(e.message), e.code, e.stack.split('\n')[0]); } };
const a = c.createECDH('prime256v1'); const b = c.createECDH('prime256v1');
a.setPrivateKey('2CiFMrpsvjU0BJ_0rppjX5Xr8bacGe-qqrfq2zqlcHk', 'base64url');
console.log(a.getPublicKey('hex'), a.getPublicKey('base64', 'compressed'), a.getPrivateKey('hex'));
const bk = b.generateKeys(); console.log(bk.length, a.computeSecret(bk).equals(b.computeSecret(a.getPublicKey())), b.computeSecret(a.getPublicKey('hex'), 'hex', 'base64').length);
console.log(c.ECDH.convertKey(a.getPublicKey(), 'prime256v1', undefined, 'hex', 'compressed'));
t(() => c.createECDH('nope')); t(() => a.computeSecret(Buffer.alloc(65, 4))); t(() => a.computeSecret(Buffer.alloc(3))); t(() => c.createECDH(5)); t(() => c.createECDH('secp384r1').getPublicKey());
t(() => a.getPublicKey('hex', 'weird'));
` },
  { name: "subtle", code: js`const c = require('crypto');
(async () => {
const s = crypto.subtle; const te = new TextEncoder(); const hex = (b) => Buffer.from(b).toString('hex');
console.log(s === c.subtle, s === c.webcrypto.subtle, globalThis.crypto === c.webcrypto, Object.prototype.toString.call(s));
for (const h of ['SHA-1', 'SHA-256', 'sha-384', { name: 'SHA-512' }]) console.log(hex(await s.digest(h, te.encode('hello'))));
const hk = await s.importKey('raw', te.encode('k'), { name: 'HMAC', hash: 'SHA-256' }, true, ['sign', 'verify']);
console.log(hk, hk.type, hk.extractable, hk.algorithm, hk.usages);
const mac = await s.sign('HMAC', hk, te.encode('data')); console.log(hex(mac), await s.verify('HMAC', hk, mac, te.encode('data')), await s.verify('HMAC', hk, mac, te.encode('other')));
console.log(await s.exportKey('jwk', hk), hex(await s.exportKey('raw', hk)));
const aes = await s.importKey('raw', new Uint8Array(16).fill(7), 'AES-GCM', true, ['encrypt', 'decrypt']);
const iv = new Uint8Array(12).fill(1);
const ct = await s.encrypt({ name: 'AES-GCM', iv, additionalData: te.encode('aad') }, aes, te.encode('plain text'));
console.log(hex(ct), Buffer.from(await s.decrypt({ name: 'AES-GCM', iv, additionalData: te.encode('aad') }, aes, ct)).toString());
try { await s.decrypt({ name: 'AES-GCM', iv }, aes, ct); } catch (e) { console.log(e.name, e.message, e instanceof DOMException); }
const cbc = await s.importKey('raw', new Uint8Array(32).fill(2), { name: 'AES-CBC' }, true, ['encrypt', 'decrypt']);
const ct2 = await s.encrypt({ name: 'AES-CBC', iv: new Uint8Array(16) }, cbc, te.encode('cbc data')); console.log(hex(ct2), Buffer.from(await s.decrypt({ name: 'AES-CBC', iv: new Uint8Array(16) }, cbc, ct2)).toString());
const ctr = await s.importKey('raw', new Uint8Array(16).fill(3), 'AES-CTR', false, ['encrypt']);
console.log(hex(await s.encrypt({ name: 'AES-CTR', counter: new Uint8Array(16), length: 64 }, ctr, te.encode('ctr data'))), ctr.algorithm, await s.exportKey('jwk', cbc));
try { await s.exportKey('raw', ctr); } catch (e) { console.log(e.name, e.message); }
const pb = await s.importKey('raw', te.encode('password'), 'PBKDF2', false, ['deriveBits', 'deriveKey']);
console.log(hex(await s.deriveBits({ name: 'PBKDF2', salt: te.encode('salt'), iterations: 1000, hash: 'SHA-256' }, pb, 256)));
const dk = await s.deriveKey({ name: 'PBKDF2', salt: te.encode('salt'), iterations: 10, hash: 'SHA-256' }, pb, { name: 'AES-GCM', length: 256 }, true, ['encrypt']);
console.log(dk.algorithm, hex(await s.exportKey('raw', dk)));
const hkdf = await s.importKey('raw', te.encode('ikm'), 'HKDF', false, ['deriveBits']);
console.log(hex(await s.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt: te.encode('s'), info: te.encode('i') }, hkdf, 128)));
const ec = await s.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
console.log(ec.publicKey.algorithm, ec.privateKey.usages, ec.publicKey.usages, ec.publicKey.extractable);
const sig = await s.sign({ name: 'ECDSA', hash: 'SHA-256' }, ec.privateKey, te.encode('msg'));
console.log(sig.byteLength, await s.verify({ name: 'ECDSA', hash: 'SHA-256' }, ec.publicKey, sig, te.encode('msg')), await s.verify({ name: 'ECDSA', hash: 'SHA-256' }, ec.publicKey, sig, te.encode('x')));
const raw = await s.exportKey('raw', ec.publicKey); const spki = await s.exportKey('spki', ec.publicKey); const jwk = await s.exportKey('jwk', ec.privateKey);
console.log(raw.byteLength, spki.byteLength, Object.keys(jwk), jwk.crv, jwk.key_ops);
const ec2 = await s.importKey('raw', raw, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['verify']);
console.log(await s.verify({ name: 'ECDSA', hash: 'SHA-256' }, ec2, sig, te.encode('msg')), hex(await s.exportKey('spki', ec2)) === hex(spki));
const ecp = await s.importKey('jwk', jwk, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign']);
const p8 = await s.exportKey('pkcs8', ecp); const ecp2 = await s.importKey('pkcs8', p8, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']); console.log(ecp2.algorithm, ecp2.type);
const ed = await s.generateKey('Ed25519', true, ['sign', 'verify']); const es = await s.sign('Ed25519', ed.privateKey, te.encode('m'));
console.log(es.byteLength, await s.verify('Ed25519', ed.publicKey, es, te.encode('m')), (await s.exportKey('raw', ed.publicKey)).byteLength, Object.keys(await s.exportKey('jwk', ed.privateKey)));
const edk = c.generateKeyPairSync('ed25519'); const edPub = await s.importKey('spki', edk.publicKey.export({ format: 'der', type: 'spki' }), 'Ed25519', true, ['verify']);
console.log(await s.verify('Ed25519', edPub, c.sign(null, Buffer.from('abc'), edk.privateKey), te.encode('abc')), hex(await s.exportKey('raw', edPub)) === edk.publicKey.export({ format: 'jwk' }).x.length.toString(16) || true);
for (const name of ['RSASSA-PKCS1-v1_5', 'RSA-PSS', 'RSA-OAEP']) {
  const usages = name === 'RSA-OAEP' ? ['encrypt', 'decrypt'] : ['sign', 'verify'];
  const k = await s.generateKey({ name, modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }, true, usages);
  console.log(k.privateKey.algorithm, k.publicKey.usages, (await s.exportKey('jwk', k.publicKey)).alg);
  if (name === 'RSA-OAEP') { const ct = await s.encrypt({ name, label: te.encode('l') }, k.publicKey, te.encode('oaep')); console.log(ct.byteLength, Buffer.from(await s.decrypt({ name, label: te.encode('l') }, k.privateKey, ct)).toString()); }
  else { const sg = await s.sign({ name, saltLength: 32 }, k.privateKey, te.encode('x')); console.log(sg.byteLength, await s.verify({ name, saltLength: 32 }, k.publicKey, sg, te.encode('x'))); }
}
const rsaK = c.generateKeyPairSync('rsa', { modulusLength: 1024 });
const imp = await s.importKey('pkcs8', rsaK.privateKey.export({ format: 'der', type: 'pkcs8' }), { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['sign']);
console.log(hex(await s.sign('RSASSA-PKCS1-v1_5', imp, te.encode('d'))) === c.sign('sha256', Buffer.from('d'), rsaK.privateKey).toString('hex'));
const a = await s.generateKey({ name: 'ECDH', namedCurve: 'P-384' }, true, ['deriveBits']); const b = await s.generateKey({ name: 'ECDH', namedCurve: 'P-384' }, true, ['deriveBits']);
console.log(hex(await s.deriveBits({ name: 'ECDH', public: b.publicKey }, a.privateKey, 384)) === hex(await s.deriveBits({ name: 'ECDH', public: a.publicKey }, b.privateKey, 384)));
const x = await s.generateKey({ name: 'X25519' }, true, ['deriveBits']); const y = await s.generateKey({ name: 'X25519' }, true, ['deriveBits']);
console.log(hex(await s.deriveBits({ name: 'X25519', public: y.publicKey }, x.privateKey, 256)) === hex(await s.deriveBits({ name: 'X25519', public: x.publicKey }, y.privateKey, 256)));
const g = await s.generateKey({ name: 'HMAC', hash: 'SHA-512' }, false, ['sign']); console.log(g.algorithm, g.usages);
const ga = await s.generateKey({ name: 'AES-GCM', length: 128 }, true, ['encrypt', 'decrypt']); console.log((await s.exportKey('raw', ga)).byteLength, (await s.exportKey('jwk', ga)).alg);
for (const f of [() => s.digest('SHA-3', new Uint8Array(1)), () => s.importKey('raw', new Uint8Array(16), 'AES-GCM', true, ['sign']), () => s.sign('HMAC', ga, new Uint8Array(1)), () => s.generateKey({ name: 'AES-GCM', length: 100 }, true, ['encrypt']), () => s.importKey('raw', te.encode('k'), 'PBKDF2', true, ['deriveBits']), () => s.encrypt({ name: 'AES-GCM', iv }, hk, new Uint8Array(1))])
  try { await f(); console.log('no error'); } catch (e) { console.log(e.name, e.message); }
const ko = c.KeyObject.from(hk); console.log(ko.type, ko.symmetricKeySize);
})();
` },
  { name: "subtle-fixed", code: js`const s = require('crypto').webcrypto.subtle; const te = new TextEncoder(); const hex = (b) => Buffer.from(b).toString('hex');
(async () => {
  const ed = await s.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', d: 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' }, 'Ed25519', true, ['sign']);
  console.log(ed.algorithm, ed.type, hex(await s.sign('Ed25519', ed, new Uint8Array(0))), await s.exportKey('jwk', ed), hex(await s.exportKey('pkcs8', ed)));
  const x1 = await s.importKey('jwk', { kty: 'OKP', crv: 'X25519', d: 'dwdtCnMYpX08FsFyUbJmRd9ML4frwJkqsXf7pR25LCo', x: 'hSDwCYkwp1R0i33ctD73Wg2_Og0mOBr066SpjqqbTmo' }, 'X25519', false, ['deriveBits']);
  const x2 = await s.importKey('raw', Buffer.from('de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f', 'hex'), { name: 'X25519' }, true, []);
  console.log(hex(await s.deriveBits({ name: 'X25519', public: x2 }, x1, 256)), hex(await s.deriveBits({ name: 'X25519', public: x2 }, x1, 64)), hex(await s.exportKey('spki', x2)));
  const ec = await s.importKey('jwk', { kty: 'EC', crv: 'P-256', x: 'aAo5WX0gbp9ax6Iw-DeViGXa27AQs2z85DYDiuax2eA', y: 'BnBIY_tzRz_NMXGB92gdQeUw-CuUuNLx_w_mXsL2MRE' }, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['verify']);
  console.log(ec.algorithm, ec.usages, hex(await s.exportKey('raw', ec)), hex(await s.exportKey('spki', ec)));
  // RFC 5869 A.1 and RFC 6070 through subtle.
  const ikm = await s.importKey('raw', Buffer.from('0b'.repeat(22), 'hex'), 'HKDF', false, ['deriveBits', 'deriveKey']);
  console.log(hex(await s.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt: Buffer.from('000102030405060708090a0b0c', 'hex'), info: Buffer.from('f0f1f2f3f4f5f6f7f8f9', 'hex') }, ikm, 336)));
  const hmacKey = await s.deriveKey({ name: 'HKDF', hash: 'SHA-512', salt: new Uint8Array(4), info: new Uint8Array(0) }, ikm, { name: 'HMAC', hash: 'SHA-256', length: 128 }, true, ['sign']);
  console.log(hmacKey.algorithm, hex(await s.exportKey('raw', hmacKey)), hex(await s.sign('HMAC', hmacKey, te.encode('x'))));
  const pw = await s.importKey('raw', te.encode('password'), { name: 'PBKDF2' }, false, ['deriveBits']);
  console.log(hex(await s.deriveBits({ name: 'PBKDF2', salt: te.encode('salt'), iterations: 4096, hash: 'SHA-1' }, pw, 160)));
  const aes = await s.importKey('jwk', { kty: 'oct', k: 'AAECAwQFBgcICQoLDA0ODw', alg: 'A128CBC' }, 'AES-CBC', true, ['encrypt', 'decrypt', 'wrapKey', 'unwrapKey']);
  console.log(hex(await s.encrypt({ name: 'AES-CBC', iv: new Uint8Array(16) }, aes, te.encode('sixteen byte msg'))), aes.algorithm);
  const wrapped = await s.wrapKey('raw', hmacKey, aes, { name: 'AES-CBC', iv: new Uint8Array(16) }); console.log(hex(wrapped));
  const un = await s.unwrapKey('raw', wrapped, aes, { name: 'AES-CBC', iv: new Uint8Array(16) }, { name: 'HMAC', hash: 'SHA-256' }, true, ['verify']);
  console.log(un.algorithm, un.usages, hex(await s.exportKey('raw', un)));
  const gcm = await s.importKey('raw', new Uint8Array(32), 'aes-gcm', false, ['encrypt', 'decrypt']);
  const ct = await s.encrypt({ name: 'AES-GCM', iv: new Uint8Array(12), tagLength: 96 }, gcm, te.encode('gcm')); console.log(hex(ct), Buffer.from(await s.decrypt({ name: 'AES-GCM', iv: new Uint8Array(12), tagLength: 96 }, gcm, ct)).toString());
  console.log(require('crypto').KeyObject.from(aes).symmetricKeySize, typeof require('crypto').webcrypto.getRandomValues, Object.prototype.toString.call(gcm));
})();
` },
  { name: "subtle-errors", code: js`const s = crypto.subtle; const te = new TextEncoder();
(async () => {
for (const f of [() => s.importKey('raw', new Uint8Array(16), 'AES-GCM', true, ['sign']), () => s.importKey('raw', new Uint8Array(16), 'HKDF', false, ['sign']), () => s.generateKey({name:'X25519'}, false, ['sign']), () => s.generateKey({name:'RSASSA-PKCS1-v1_5', modulusLength: 1024, publicExponent: new Uint8Array([1,0,1]), hash:'SHA-256'}, false, ['encrypt']),
  () => s.importKey('raw', new Uint8Array(16), 'HKDF', true, ['deriveBits']), () => s.digest('SHA-3', new Uint8Array(1)), () => s.generateKey({ name: 'AES-GCM', length: 100 }, true, ['encrypt'])])
  try { await f(); console.log('no error'); } catch (e) { console.log(e.name, e.message); }
const ec = await s.generateKey({name:'ECDSA', namedCurve:'P-256'}, true, ['sign']); console.log(Object.keys(await s.exportKey('jwk', ec.privateKey)));
const h = await s.generateKey({name:'HMAC', hash:'SHA-256'}, true, ['sign']); console.log(Object.keys(await s.exportKey('jwk', h)));
const k = await s.importKey('raw', new Uint8Array(16), 'AES-GCM', false, ['encrypt']);
try { await s.exportKey('raw', k); } catch (e) { console.log(e.name, e.message); }
try { await s.importKey('raw', new Uint8Array(16), {name:'HMAC', hash:'SHA-256'}, false, ['encrypt']); } catch (e) { console.log(e.name, e.message); }
try { await s.generateKey({name:'ECDSA', namedCurve:'P-256'}, false, ['encrypt']); } catch (e) { console.log(e.name, e.message); }
try { await s.generateKey({name:'RSA-OAEP', modulusLength: 1024, publicExponent: new Uint8Array([1,0,1]), hash:'SHA-256'}, false, ['sign']); } catch (e) { console.log(e.name, e.message); }
try { await s.importKey('raw', new Uint8Array(16), 'PBKDF2', false, ['encrypt']); } catch (e) { console.log(e.name, e.message); }
try { await s.generateKey({name:'Ed25519'}, false, ['encrypt']); } catch (e) { console.log(e.name, e.message); }
try { await s.generateKey({name:'AES-CBC', length: 128}, false, []); } catch (e) { console.log(e.name, e.message); }
try { await s.generateKey({name:'ECDSA', namedCurve:'P-256'}, false, ['verify']); } catch (e) { console.log(e.name, e.message); }
const h = await s.importKey('raw', new Uint8Array(16), {name:'HMAC', hash:'SHA-256', length: 128}, false, ['sign']); console.log(h.algorithm);
const r = await s.generateKey({name:'RSA-PSS', modulusLength: 1024, publicExponent: new Uint8Array([1,0,1]), hash:'SHA-1'}, true, ['verify', 'sign']); console.log(r.privateKey.usages, (await s.exportKey('jwk', r.privateKey)).alg, Object.keys(await s.exportKey('jwk', r.publicKey)));
const o = await s.generateKey({name:'RSA-OAEP', modulusLength: 1024, publicExponent: new Uint8Array([1,0,1]), hash:'SHA-1'}, true, ['unwrapKey', 'encrypt', 'decrypt', 'wrapKey']); console.log(o.privateKey.usages, o.publicKey.usages, (await s.exportKey('jwk', o.privateKey)).alg);
const hk = await s.importKey('raw', te.encode('key'), { name: 'HMAC', hash: 'SHA-1' }, false, ['verify']);
for (const f of [() => s.sign('HMAC', hk, te.encode('d')), () => s.encrypt({ name: 'AES-CBC', iv: new Uint8Array(16) }, hk, te.encode('d')), () => s.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: new Uint8Array(0) }, hk, 8),
  () => s.exportKey('raw', hk), () => s.importKey('raw', new Uint8Array(5), 'AES-GCM', true, ['encrypt']), () => s.importKey('pkcs8', new Uint8Array(5), { name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign']),
  () => s.importKey('jwk', { kty: 'EC', crv: 'P-256', x: 'AA', y: 'AA' }, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['verify'])])
  try { await f(); console.log('no error'); } catch (e) { console.log(e.name, e.message, e.cause && e.cause.code); }
})();
` },
  { name: "subtle-differential", code: js`(async () => { const d = await crypto.subtle.digest('SHA-256', new TextEncoder().encode('hello')); console.log(Buffer.from(d).toString('hex')); const key = await crypto.subtle.importKey('raw', new TextEncoder().encode('k'), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']); console.log(Buffer.from(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode('data'))).toString('hex')); })();` },
  // ---------------------------------------------------------------- zlib
  { name: "zlib-incremental", code: js`const zlib = require('zlib');
const gz = zlib.createGzip(); const seen = []; let ended = false;
gz.on('data', (d) => seen.push(d)); gz.on('end', () => { ended = true; console.log('end', seen.length > 1, zlib.gunzipSync(Buffer.concat(seen)).toString(), gz.bytesWritten); next(); });
gz.write('first half of the input, ');
gz.flush(() => {
  console.log('after flush: data before end', seen.length > 0, !ended, Buffer.concat(seen).toString('hex'));
  gz.end('second half');
});
function next() {
  const inf = zlib.createInflate(); const got = []; const input = zlib.deflateSync('x'.repeat(100000) + 'tail');
  inf.on('data', (d) => got.push(d.length));
  inf.write(input.subarray(0, input.length >> 1), () => {
    setTimeout(() => { console.log('data before end', got.length > 0); inf.end(input.subarray(input.length >> 1)); }, 5);
  });
  inf.on('end', () => { console.log('inflated', got.reduce((a, b) => a + b, 0), got.every((n) => n <= 16384)); next2(); });
}
function next2() {
  const d = zlib.createDeflate({ level: 1 }); const out = [];
  d.on('data', (b) => out.push(b)); d.write('abc'.repeat(100));
  d.params(9, zlib.constants.Z_FILTERED, () => { console.log('params done', d._level, d._strategy); d.end('def'.repeat(100)); });
  d.on('end', () => { const all = Buffer.concat(out); console.log('params', all.toString('base64'), zlib.inflateSync(all).length); next3(); });
}
function next3() {
  const b = zlib.createBrotliCompress(); const out = []; b.on('data', (x) => out.push(x));
  b.write('brotli '.repeat(50)); b.flush(() => { console.log('brotli flushed', zlib.brotliDecompressSync(Buffer.concat(out), { finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH }).toString().length); b.end(); });
  b.on('end', () => { const bd = zlib.createBrotliDecompress(); const r = []; bd.on('data', (x) => r.push(x)); bd.on('end', () => console.log('brotli', Buffer.concat(r).toString().length)); bd.end(Buffer.concat(out)); });
}
` },
  { name: "zlib-big-roundtrip", code: js`const zlib = require('zlib'); const crypto = require('crypto'); const { pipeline, Readable, Writable } = require('stream');
const chunks = []; let seed = 1; for (let i = 0; i < 80; i++) { const b = Buffer.alloc(65536); for (let j = 0; j < b.length; j++) { seed = (seed * 1103515245 + 12345) & 0x7fffffff; b[j] = 97 + ((seed >> 16) % 8); } chunks.push(b); }
const input = Buffer.concat(chunks); const hIn = crypto.createHash('sha256').update(input).digest('hex'); const hGz = crypto.createHash('sha256'); const hOut = crypto.createHash('sha256'); let n = 0; let gzBytes = 0;
const gz = zlib.createGzip(); gz.on('data', (d) => { gzBytes += d.length; hGz.update(d); });
pipeline(Readable.from(chunks), gz, zlib.createGunzip(), new Writable({ write(c, e, cb) { n += c.length; hOut.update(c); cb(); } }), (err) => {
  console.log(err, input.length, n, hIn === hOut.digest('hex'), gzBytes, hGz.digest('hex'));
  const big = zlib.gzipSync(input); console.log(big.length, zlib.gunzipSync(big).equals(input), zlib.inflateSync(zlib.deflateSync(input, { level: 9 })).length);
  zlib.gunzip(big, (e, out) => console.log('async', e, out.length));
});
` },
  { name: "zlib-errors", code: js`const zlib = require('zlib');
const t = (f) => { try { const r = f(); console.log('ok', Buffer.isBuffer(r) ? r.toString() : r); } catch (e) { console.log(e.name, JSON.stringify(e.message), e.code, e.errno, Object.keys(e).join(), e.stack.split('\n')[0]); } };
const gz = zlib.gzipSync('some text to compress');
t(() => zlib.gunzipSync(Buffer.from('not gzip at all'))); t(() => zlib.gunzipSync(gz.subarray(0, 12))); t(() => zlib.inflateSync(Buffer.from([1, 2, 3, 4])));
t(() => zlib.inflateRawSync(Buffer.from([0xff, 0xff]))); t(() => zlib.brotliDecompressSync(Buffer.from('garbage garbage')));
t(() => zlib.gunzipSync(gz.subarray(0, 12), { finishFlush: zlib.constants.Z_SYNC_FLUSH }));
t(() => zlib.gzipSync('x', { level: 42 })); t(() => zlib.gzipSync(123)); t(() => zlib.gzipSync({})); t(() => zlib.deflateSync('x', { windowBits: 'a' }));
t(() => zlib.gunzipSync(Buffer.concat([gz, zlib.gzipSync(' and more')]))); t(() => zlib.inflateSync(Buffer.concat([zlib.deflateSync('abc'), Buffer.from('junk')])));
t(() => zlib.inflateSync(zlib.deflateSync('dict data', { dictionary: Buffer.from('dict') }), { dictionary: Buffer.from('dict') }));
t(() => zlib.inflateSync(zlib.deflateSync('dict data', { dictionary: Buffer.from('dict') })));
t(() => zlib.inflateSync(zlib.deflateSync('a'.repeat(1000)), { maxOutputLength: 10 }));
zlib.gunzip(Buffer.from('bad'), (e, r) => { console.log('cb', e.message, e.code, e.errno, r); next0(); });
function next0() {
  const s = zlib.createGunzip(); s.on('error', (e) => { console.log('stream error', e.message, e.code, e.errno); next(); }); s.on('data', () => {}); s.end(Buffer.from('definitely not gzip'));
}
function next() {
  const u = zlib.createGunzip(); u.on('error', (e) => { console.log('truncated', e.message, e.code, e.errno); next2(); }); u.on('data', () => {}); u.end(gz.subarray(0, 15));
}
function next2() {
  const both = Buffer.concat([zlib.gzipSync('member one, '), zlib.gzipSync('member two')]); const u = zlib.createGunzip(); const r = [];
  u.on('data', (d) => r.push(d)); u.on('end', () => { console.log('members', Buffer.concat(r).toString()); next3(); });
  u.write(both.subarray(0, 5)); u.write(both.subarray(5, 40)); u.end(both.subarray(40));
}
function next3() {
  const u = zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH }); const r = [];
  u.on('data', (d) => r.push(d)); u.on('error', (e) => console.log('unexpected', e.message)); u.on('end', () => { console.log('finishFlush', Buffer.concat(r).toString()); next4(); }); u.end(zlib.gzipSync('partial content here').subarray(0, 20));
}
function next4() {
  const g = zlib.createGzip(); g.write('abc'); g.close(() => console.log('closed', g.destroyed));
  const d = zlib.createDeflate(); d.on('close', () => console.log('destroy close')); d.destroy();
  try { zlib.createGzip({ level: 99 }); } catch (e) { console.log(e.name, e.message, e.code); }
  try { zlib.createGzip({ chunkSize: 10 }); } catch (e) { console.log(e.name, e.message, e.code); }
  console.log(typeof zlib.crc32, typeof zlib.crc32 === 'function' ? [zlib.crc32('hello'), zlib.crc32(Buffer.from('world'), 12345), zlib.crc32('')] : 'none');
  console.log(zlib.codes.Z_DATA_ERROR, zlib.codes['-3'], zlib.Z_SYNC_FLUSH, zlib.constants.Z_DEFAULT_CHUNK, Object.isFrozen(zlib.constants));
}
` },
];

/** Replaces the script's directory and collapses stack frames ("    at …" lines) to one placeholder. */
function normalise(text: string, dir: string): string {
  let s = text.split(dir).join("<DIR>");
  s = s.replace(/(?:\n[ \t]+at [^\n]*?)+( \{)?(?=\n|$)/g, "\n    at <frames>$1");
  // The header Node prints above an uncaught error: `file:line`, the source line, the caret line.
  s = s.replace(/(^|\n)[^\n]*:\d+\n[^\n]*\n *\^+[^\n]*\n(?:\n)?/g, "$1");
  return s;
}

let hostRoot = "";
let vm: AgentOs | undefined;

// Only the scripts are written here; each case runs in the VM and on the host as its own test, a few at a time.
beforeAll(async () => {
  hostRoot = realpathSync(mkdtempSync(join(tmpdir(), "agentos-crypto-zlib-")));
  vm = await AgentOs.create();
  await vm.mkdir("/w", { recursive: true });
  for (const r of await vm.writeFiles(CASES.map((c) => ({ path: `/w/${c.name}.js`, content: c.code })))) if (!r.success) throw new Error(`${r.path}: ${r.error}`);
  mkdirSync(hostRoot, { recursive: true });
  for (const c of CASES) writeFileSync(join(hostRoot, `${c.name}.js`), c.code);
}, SETUP_DEADLINE_MS);

afterAll(async () => {
  await vm?.dispose();
  if (hostRoot) rmSync(hostRoot, { recursive: true, force: true });
});

describe("guest crypto and zlib match the host's node", { concurrent: true, timeout: CASE_DEADLINE_MS }, () => {
  for (const c of CASES) {
    it(c.name, async ({ expect }) => {
      const [vmResult, hostResult] = await Promise.all([
        vm!.exec(`node /w/${c.name}.js`, { timeout: RUN_DEADLINE_MS }),
        runHostNode([join(hostRoot, `${c.name}.js`)], hostRoot),
      ]);
      const norm = (r: ExecResult, dir: string): ExecResult => ({ exitCode: r.exitCode, stdout: normalise(r.stdout, dir), stderr: normalise(r.stderr, dir) });
      const inVm = norm(vmResult, "/w");
      const onHost = norm(hostResult, hostRoot);
      expect(inVm).toEqual(onHost);
    });
  }
});

describe("handles of a guest process are bounded and released", { timeout: CASE_DEADLINE_MS }, () => {
  const run = async (code: string): Promise<ExecResult> => {
    await vm!.writeFiles([{ path: "/w/limits.js", content: code }]);
    return vm!.exec("node /w/limits.js", { timeout: RUN_DEADLINE_MS });
  };

  it("a guest leaking 1000 unfinished ciphers hits the cap with a coded error", async () => {
    const r = await run(js`const c = require('crypto'); const kept = [];
      try { for (let i = 0; i < 1000; i++) { const x = c.createCipheriv('aes-128-cbc', Buffer.alloc(16), Buffer.alloc(16)); x.update('data'); kept.push(x); } console.log('no cap'); }
      catch (e) { console.log(kept.length, e.name, e.code, e.errno, e.message); }
      kept.forEach((x) => x.final()); const more = c.createCipheriv('aes-128-cbc', Buffer.alloc(16), Buffer.alloc(16)); console.log('after final', more.final().length);`);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("256 Error EMFILE -24 EMFILE: too many open cipher handles (limit 256 per process)\nafter final 16\n");
  });

  it("ciphers finished, destroyed or failed release their handles", async () => {
    const r = await run(js`const c = require('crypto');
      for (let i = 0; i < 1000; i++) c.createCipheriv('aes-128-gcm', Buffer.alloc(16), Buffer.alloc(12)).final();
      for (let i = 0; i < 1000; i++) c.createCipheriv('aes-128-cbc', Buffer.alloc(16), Buffer.alloc(16)).destroy();
      for (let i = 0; i < 1000; i++) { const d = c.createDecipheriv('aes-128-cbc', Buffer.alloc(16), Buffer.alloc(16)); d.update(Buffer.alloc(16)); try { d.final(); } catch {} }
      console.log('ok');`);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("ok\n");
  });

  // A key's handle is released by the guest's FinalizationRegistry once V8 collects the key, which only a full
  // collection does (the keys are old by then): each retry allocates an 8 MiB array in the large-object space,
  // kept in a global so that no compiler drops it, which makes V8 run one soon.
  it("a guest holding 1000 keys hits the cap; collected keys are released", async () => {
    const r = await run(js`const c = require('crypto'); const kept = [];
      try { for (let i = 0; i < 1000; i++) kept.push(c.createSecretKey(Buffer.alloc(16, i))); console.log('no cap'); }
      catch (e) { console.log(kept.length, e.name, e.code, e.errno, e.message); }
      try { c.generateKeyPairSync('ed25519'); } catch (e) { console.log('pair', e.code); }
      kept.length = 0;
      (async () => { for (let i = 0; i < 1000 && kept.length === 0; i++) { await new Promise((r) => setTimeout(r, 10)); try { kept.push(c.createSecretKey(Buffer.alloc(16))); } catch { globalThis.junk = new Array(1 << 20).fill(i); } } console.log('released', kept.length); })();`);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("256 Error EMFILE -24 EMFILE: too many open key handles (limit 256 per process)\npair EMFILE\nreleased 1\n");
  });

  it("zlib streams are capped too and released by end, close and destroy", async () => {
    const r = await run(js`const zlib = require('zlib'); const kept = [];
      try { for (let i = 0; i < 1000; i++) kept.push(zlib.createGzip()); } catch (e) { console.log(kept.length, e.code, e.message); }
      kept.forEach((z) => z.destroy());
      // Three rounds of 200 streams, each round ending before the next starts: 600 streams, never more than 200 live.
      const round = (k) => { let done = 0; for (let i = 0; i < 200; i++) { const z = zlib.createDeflate(); z.on('data', () => {}); z.on('end', () => { if (++done === 200) k(); }); z.end('x'); } };
      round(() => round(() => round(() => { for (let j = 0; j < 300; j++) zlib.createInflate().close(); console.log('rounds done'); })));`);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("256 EMFILE EMFILE: too many open zlib handles (limit 256 per process)\nrounds done\n");
  });
});
