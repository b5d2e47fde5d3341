// Cases of test/node/node.differential.test.ts: DiffieHellman objects and groups, crypto.diffieHellman, and AES-KW (the id-aes*-wrap ciphers and crypto.subtle's wrapKey/unwrapKey); output that does not depend on random keys.
import type { Case } from "./case.js";

const js = String.raw;
const T = js`const t = (label, f) => { try { const r = f(); console.log(label, 'ok', Buffer.isBuffer(r) ? r.toString('hex') : r); } catch (e) { console.log(label, e.name, e.code, JSON.stringify(e.message), e.stack.split('\n')[0]); } };
const ta = async (label, f) => { try { const r = await f(); console.log(label, 'ok', r instanceof ArrayBuffer ? Buffer.from(r).toString('hex') : r); } catch (e) { console.log(label, e.name, e.code, JSON.stringify(e.message), e.cause ? ['cause', e.cause.name] : ''); } };
`;
// RFC 3526 group 14 (2048-bit MODP) prime.
const MODP14 = 'FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7EDEE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3BE39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA051015728E5A8AACAA68FFFFFFFFFFFFFFFF';
export const CASES: Case[] = [
  { name: "crypto-dh-fixed-keys", files: { "case.js": T + js`const c = require('crypto');
const p = '${MODP14}';
const a = c.createDiffieHellman(p, 'hex', 2); const b = c.createDiffieHellman(Buffer.from(p, 'hex'), Buffer.from([2]));
a.setPrivateKey('0123456789abcdef0123456789abcdef', 'hex'); b.setPrivateKey(Buffer.from('fedcba9876543210fedcba9876543210', 'hex'));
console.log(a.verifyError, b.verifyError, a.getGenerator('hex'), b.getPrime().equals(Buffer.from(p, 'hex')), a.getPrivateKey('hex'));
// Without generateKeys, the public key is not there yet.
t('no public', () => a.getPublicKey());
a.generateKeys(); const bpub = b.generateKeys('base64');
console.log(a.getPublicKey('hex').slice(0, 64), bpub.slice(0, 44), a.getPrivateKey('hex'));
const s1 = a.computeSecret(bpub, 'base64', 'hex'); const s2 = b.computeSecret(a.getPublicKey());
console.log(s1 === s2.toString('hex'), s1.slice(0, 64), s2.length);
const d = c.createDiffieHellman(p, 'hex'); d.setPublicKey(a.getPublicKey()); d.setPrivateKey(a.getPrivateKey());
console.log(d.getPublicKey().equals(a.getPublicKey()), d.computeSecret(b.getPublicKey('latin1'), 'latin1', 'base64url').slice(0, 20), d.setPublicKey(a.getPublicKey('hex'), 'hex') === d);
` } },
  { name: "crypto-dh-groups", files: { "case.js": T + js`const c = require('crypto');
for (const n of ['modp1', 'modp2', 'modp5', 'modp14', 'modp15', 'modp16', 'modp17', 'modp18']) { const g = c.getDiffieHellman(n); console.log(n, g.constructor.name, Object.keys(g), g.verifyError, g.getGenerator('hex'), g.getPrime().length, c.createHash('sha256').update(g.getPrime()).digest('hex').slice(0, 16)); }
const g = c.createDiffieHellmanGroup('modp14'); const h = c.DiffieHellmanGroup('modp14');
console.log(g instanceof c.DiffieHellmanGroup, h instanceof c.DiffieHellmanGroup, g instanceof c.DiffieHellman, typeof g.setPublicKey, typeof g.setPrivateKey, typeof c.DiffieHellman.prototype.setPublicKey);
g.generateKeys(); h.generateKeys();
console.log(g.computeSecret(h.getPublicKey()).equals(h.computeSecret(g.getPublicKey('hex'), 'hex')), g.getPublicKey().length, Object.getOwnPropertyDescriptor(g, 'verifyError'));
t('unknown group', () => c.getDiffieHellman('modp3')); t('group not string', () => c.createDiffieHellmanGroup(14)); t('group object', () => c.getDiffieHellman({}));
` } },
  { name: "crypto-dh-generator-forms", files: { "case.js": T + js`const c = require('crypto');
const p = 'ffffffffffffffffc90fdaa22168c234c4c6628b80dc1cd129024e088a67cc74020bbea63b139b22514a08798e3404ddef9519b3cd3a431b302b0a6df25f14374fe1356d6d51c245e485b576625e7ec6f44c42e9a637ed6b0bff5cb6f406b7edee386bfb5a899fa5ae9f24117c4b1fe65381ffffffffffffffff';
for (const args of [[p, 'hex'], [p, 'hex', 5], [p, 'hex', '02', 'hex'], [p, 'hex', 'Ag==', 'base64'], [p, 'hex', Buffer.from([3])], [Buffer.from(p, 'hex'), 2], [Buffer.from(p, 'hex'), '05', 'hex'], [new Uint8Array(Buffer.from(p, 'hex')).buffer, 2], [Buffer.from([23]), 5], [Buffer.from([23]), 2], [Buffer.from('ff', 'hex'), 2]]) {
  t(args.map((a) => typeof a === 'string' ? a.slice(0, 6) : a.constructor.name).join(','), () => { const d = c.createDiffieHellman(...args); return [d.verifyError, d.getGenerator('hex'), d.getPrime('hex').length]; });
}
const small = c.DiffieHellman(Buffer.from([23]), 5); console.log(small instanceof c.DiffieHellman, Object.keys(small), small.verifyError);
` } },
  { name: "crypto-dh-errors", files: { "case.js": T + js`const c = require('crypto');
t('object', () => c.createDiffieHellman({})); t('array', () => c.createDiffieHellman([1, 2])); t('fraction', () => c.createDiffieHellman(1.5)); t('big', () => c.createDiffieHellman(2 ** 40));
t('nothing', () => c.createDiffieHellman()); t('null', () => c.createDiffieHellman(null)); t('bool', () => c.createDiffieHellman(true));
t('generator object', () => c.createDiffieHellman('ff', 'hex', {})); t('generator fraction', () => c.createDiffieHellman('ff', 'hex', 2.5)); t('generator shifted', () => c.createDiffieHellman(Buffer.from([23]), {}));
t('too small', () => c.createDiffieHellman(16)); t('zero gen', () => c.createDiffieHellman(Buffer.from([23]), 0).verifyError); t('one gen', () => c.createDiffieHellman(Buffer.from([23]), 1));
const g = c.getDiffieHellman('modp14');
t('secret before keys', () => g.computeSecret(Buffer.alloc(4)).length);
g.generateKeys();
t('secret short', () => g.computeSecret(Buffer.from([1]))); t('secret zero', () => g.computeSecret(Buffer.alloc(256))); t('secret p-1', () => g.computeSecret(Buffer.from(g.getPrime().toString('hex').replace(/f$/, 'e'), 'hex')));
t('secret object', () => g.computeSecret({})); t('secret number', () => g.computeSecret(5)); t('secret bad hex', () => g.computeSecret('zz', 'hex').length);
const d = c.createDiffieHellman(g.getPrime()); t('set public object', () => d.setPublicKey({})); t('set private number', () => d.setPrivateKey(1)); t('get private', () => d.getPrivateKey());
` } },
  { name: "crypto-dh-keyobjects", files: { "case.js": T + js`const c = require('crypto');
const a = c.generateKeyPairSync('dh', { group: 'modp14' }); const b = c.generateKeyPairSync('dh', { group: 'modp14' });
const s1 = c.diffieHellman({ privateKey: a.privateKey, publicKey: b.publicKey }); const s2 = c.diffieHellman({ privateKey: b.privateKey, publicKey: a.publicKey });
console.log(a.publicKey.asymmetricKeyType, s1.equals(s2), s1.length);
t('not keys', () => c.diffieHellman({ privateKey: 'x', publicKey: b.publicKey })); t('not object', () => c.diffieHellman(null));
t('mixed', () => c.diffieHellman({ privateKey: a.privateKey, publicKey: c.generateKeyPairSync('x25519').publicKey }));
const x = c.createPrivateKey({ key: { kty: 'OKP', crv: 'X25519', d: 'dwdtCnMYpX08FsFyUbJmRd9ML4frwJkqsXf7pR25LCo', x: 'hSDwCYkwp1R0i33ctD73Wg2_Og0mOBr066SpjqqbTmo' }, format: 'jwk' });
const y = c.createPrivateKey({ key: { kty: 'OKP', crv: 'X25519', d: 'XasIfmJKikt54X-Lg4AO5m87sSkmGLb9HC-LJ_-I4Os', x: '3p7bfXt9wbTTW2HC7OQ1Nz-DQ8hbeGdNrfx-FG-IK08' }, format: 'jwk' });
const pem = x.export({ format: 'pem', type: 'pkcs8' }); const ypub = c.createPublicKey(y).export({ format: 'pem', type: 'spki' });
t('keyobjects', () => c.diffieHellman({ privateKey: x, publicKey: c.createPublicKey(y) })); t('private as public', () => c.diffieHellman({ privateKey: x, publicKey: y }));
// Node 24 takes PEM, DER options and other key arguments; older Nodes KeyObjects only.
t('pem', () => c.diffieHellman({ privateKey: pem, publicKey: ypub })); t('der', () => c.diffieHellman({ privateKey: { key: x.export({ format: 'der', type: 'pkcs8' }), format: 'der', type: 'pkcs8' }, publicKey: ypub }));
t('null', () => c.diffieHellman({ privateKey: null, publicKey: ypub })); t('undefined', () => c.diffieHellman({ privateKey: x })); t('number', () => c.diffieHellman({ privateKey: 5, publicKey: y }));
t('bad pem', () => c.diffieHellman({ privateKey: 'x', publicKey: 'y' })); t('public as private', () => c.diffieHellman({ privateKey: c.createPublicKey(x), publicKey: y })); t('secret', () => c.diffieHellman({ privateKey: x, publicKey: c.createSecretKey(Buffer.alloc(8)) }));
t('callback not function', () => c.diffieHellman({ privateKey: x, publicKey: y }, 5));
t('callback', () => c.diffieHellman({ privateKey: x, publicKey: y }, (e, s) => console.log('callback', e, s && s.toString('hex'))));
` } },
  { name: "crypto-dh-many-live", files: { "case.js": js`const c = require('crypto');
// Many live at once, within the worker's cap (its bound is checked in the VM alone: the host has none). Making a
// DiffieHellman checks its prime, slow on any Node (tens of ms each): a few only.
const kept = []; let sum = 0; const p = c.getDiffieHellman('modp2').getPrime();
for (let i = 0; i < 4; i++) { const d = c.createDiffieHellman(p, 2); d.setPrivateKey(Buffer.from([i + 2])); kept.push(d); }
for (const d of kept) sum += d.generateKeys()[0];
for (let i = 0; i < 30; i++) kept.push(c.getDiffieHellman('modp2'));
// A public key with a leading zero byte is shorter: how long each is varies.
const lengths = new Set(kept.slice(4, 12).map((g) => g.generateKeys().length > 120));
const e = Array.from({ length: 50 }, () => c.createECDH('prime256v1'));
console.log(kept.length, sum, [...lengths], e.length, kept[5].computeSecret(kept[6].getPublicKey()).equals(kept[6].computeSecret(kept[5].getPublicKey())));
` } },
  { name: "crypto-aes-kw-ciphers", files: { "case.js": T + js`const c = require('crypto');
const names = c.getCiphers(); console.log(names.filter((n) => /wrap/.test(n)), names.length > 100);
const iv = Buffer.from('a6a6a6a6a6a6a6a6', 'hex');
// RFC 3394 4.1 and 4.6.
const w = c.createCipheriv('id-aes128-wrap', Buffer.from('000102030405060708090A0B0C0D0E0F', 'hex'), iv);
console.log(Buffer.concat([w.update(Buffer.from('00112233445566778899AABBCCDDEEFF', 'hex')), w.final()]).toString('hex'));
const k256 = Buffer.from('000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F', 'hex');
const w2 = c.createCipheriv('id-aes256-wrap', k256, iv); const ct = Buffer.concat([w2.update(Buffer.from('00112233445566778899AABBCCDDEEFF000102030405060708090A0B0C0D0E0F', 'hex')), w2.final()]); console.log(ct.toString('hex'));
const u = c.createDecipheriv('id-aes256-wrap', k256, iv); console.log(Buffer.concat([u.update(ct), u.final()]).toString('hex'));
const u2 = c.createDecipheriv('id-aes256-wrap', k256, iv); ct[0] ^= 1; t('tampered', () => Buffer.concat([u2.update(ct), u2.final()]));
t('default iv', () => { const x = c.createCipheriv('id-aes128-wrap', Buffer.alloc(16), null); return Buffer.concat([x.update(Buffer.alloc(16)), x.final()]); });
t('pad', () => { const x = c.createCipheriv('id-aes192-wrap-pad', Buffer.alloc(24, 1), Buffer.from('a65959a6', 'hex')); return Buffer.concat([x.update(Buffer.from('abcde')), x.final()]); });
t('bad iv', () => c.createCipheriv('id-aes128-wrap', Buffer.alloc(16), Buffer.alloc(16)));
t('short data', () => { const x = c.createCipheriv('id-aes128-wrap', Buffer.alloc(16), iv); return Buffer.concat([x.update(Buffer.alloc(12)), x.final()]); });
` } },
  { name: "crypto-aes-kw-subtle-wrap", files: { "case.js": T + js`const s = crypto.subtle;
(async () => {
const kek = await s.importKey('raw', Buffer.from('000102030405060708090A0B0C0D0E0F', 'hex'), 'AES-KW', true, ['wrapKey', 'unwrapKey']);
console.log(kek.algorithm, kek.usages, kek.type, kek.extractable);
const key = await s.importKey('raw', Buffer.from('00112233445566778899AABBCCDDEEFF', 'hex'), 'AES-GCM', true, ['encrypt', 'decrypt']);
await ta('wrap raw', () => s.wrapKey('raw', key, kek, 'AES-KW'));
const kek256 = await s.importKey('raw', Buffer.from('000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F', 'hex'), { name: 'aes-kw' }, false, ['wrapKey']);
const k256 = await s.importKey('raw', Buffer.from('00112233445566778899AABBCCDDEEFF000102030405060708090A0B0C0D0E0F', 'hex'), 'AES-CBC', true, ['encrypt']);
await ta('wrap 256', () => s.wrapKey('raw', k256, kek256, { name: 'AES-KW' }));
const wj = await s.wrapKey('jwk', key, kek, 'AES-KW'); console.log('jwk wrapped', wj.byteLength, Buffer.from(wj).toString('hex'));
const back = await s.unwrapKey('jwk', wj, kek, 'AES-KW', 'AES-GCM', true, ['decrypt']); console.log(back.algorithm, back.usages, await s.exportKey('jwk', back));
const wr = await s.wrapKey('raw', key, kek, 'AES-KW');
const raw = await s.unwrapKey('raw', wr, kek, 'AES-KW', { name: 'HMAC', hash: 'SHA-256' }, true, ['sign']); console.log(raw.algorithm, Buffer.from(await s.exportKey('raw', raw)).toString('hex'));
const hk = await s.importKey('raw', new Uint8Array(20), { name: 'HMAC', hash: 'SHA-256' }, true, ['sign']);
await ta('wrap 20 bytes', () => s.wrapKey('raw', hk, kek, 'AES-KW'));
await ta('unwrap tampered', () => s.unwrapKey('raw', new Uint8Array(24), kek, 'AES-KW', 'AES-GCM', true, ['encrypt']));
await ta('unwrap short', () => s.unwrapKey('raw', new Uint8Array(7), kek, 'AES-KW', 'AES-GCM', true, ['encrypt']));
await ta('unwrap bad jwk', async () => s.unwrapKey('jwk', await s.wrapKey('raw', key, kek, 'AES-KW'), kek, 'AES-KW', 'AES-GCM', true, ['encrypt']));
})();
` } },
  { name: "crypto-aes-kw-subtle-keys", files: { "case.js": T + js`const s = crypto.subtle;
(async () => {
for (const length of [128, 192, 256]) { const k = await s.generateKey({ name: 'AES-KW', length }, true, ['wrapKey', 'unwrapKey', 'wrapKey']); const j = await s.exportKey('jwk', k); console.log(k.algorithm, k.usages, k.extractable, (await s.exportKey('raw', k)).byteLength, Object.keys(j), j.alg, j.key_ops); }
const kek = await s.importKey('raw', Buffer.from('000102030405060708090A0B0C0D0E0F', 'hex'), 'AES-KW', true, ['wrapKey', 'unwrapKey']);
console.log(await s.exportKey('jwk', kek));
await ta('jwk import', async () => (await s.importKey('jwk', { kty: 'oct', k: 'AAECAwQFBgcICQoLDA0ODw', alg: 'A128KW' }, 'AES-KW', false, ['unwrapKey'])).algorithm);
await ta('jwk import no alg', async () => (await s.importKey('jwk', { kty: 'oct', k: 'AAECAwQFBgcICQoLDA0ODwABAgMEBQYH' }, 'AES-KW', true, ['wrapKey'])).algorithm);
await ta('jwk bad alg', () => s.importKey('jwk', { kty: 'oct', k: 'AAECAwQFBgcICQoLDA0ODw', alg: 'A256KW' }, 'AES-KW', false, ['unwrapKey']));
await ta('jwk gcm alg on kw', () => s.importKey('jwk', { kty: 'oct', k: 'AAECAwQFBgcICQoLDA0ODw', alg: 'A128GCM' }, 'AES-KW', false, ['unwrapKey']));
await ta('gen usage', () => s.generateKey({ name: 'AES-KW', length: 128 }, true, ['encrypt']));
await ta('gen length', () => s.generateKey({ name: 'AES-KW', length: 100 }, true, ['wrapKey']));
await ta('gen empty usages', () => s.generateKey({ name: 'AES-KW', length: 128 }, true, []));
await ta('import length', () => s.importKey('raw', new Uint8Array(10), 'AES-KW', true, ['wrapKey']));
await ta('import usage', () => s.importKey('raw', new Uint8Array(16), 'AES-KW', true, ['decrypt']));
await ta('encrypt', () => s.encrypt('AES-KW', kek, new Uint8Array(16)));
await ta('decrypt', () => s.decrypt({ name: 'AES-KW' }, kek, new Uint8Array(24)));
await ta('sign', () => s.sign('AES-KW', kek, new Uint8Array(16)));
const gcm = await s.importKey('raw', new Uint8Array(16), 'AES-GCM', true, ['encrypt', 'wrapKey']);
await ta('wrap with gcm key', () => s.wrapKey('raw', gcm, gcm, 'AES-KW'));
const unwrapOnly = await s.importKey('raw', new Uint8Array(16), 'AES-KW', true, ['unwrapKey']);
await ta('wrap without usage', () => s.wrapKey('raw', gcm, unwrapOnly, 'AES-KW'));
const pb = await s.importKey('raw', new Uint8Array(8), 'PBKDF2', false, ['deriveKey']);
const dk = await s.deriveKey({ name: 'PBKDF2', salt: new Uint8Array(8), iterations: 1000, hash: 'SHA-256' }, pb, { name: 'AES-KW', length: 256 }, true, ['wrapKey']);
console.log(dk.algorithm, Buffer.from(await s.exportKey('raw', dk)).toString('hex'));
})();
` } },
];
