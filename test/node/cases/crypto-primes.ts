// Cases of test/node/node.differential.test.ts: prime generation and tests, cipher information, and the
// process-wide OpenSSL state a guest cannot change (FIPS mode, engines).
import type { Case } from "./case.js";

const js = String.raw;
export const CASES: Case[] = [
  { name: "crypto-primes", files: { "case.js": js`const c = require('crypto');
const t = (label, f) => { try { console.log(label, f()); } catch (e) { console.log(label, e.name, e.code, e.message); } };
t('check 7', () => c.checkPrimeSync(7n)); t('check 8', () => c.checkPrimeSync(8n)); t('check bytes', () => c.checkPrimeSync(Buffer.from([0x0b]))); t('check ab', () => c.checkPrimeSync(new Uint8Array([0x01, 0x01]).buffer));
t('check checks', () => c.checkPrimeSync(2n ** 127n - 1n, { checks: 10 })); t('check bad', () => c.checkPrimeSync('7')); t('check bad checks', () => c.checkPrimeSync(7n, { checks: -1 }));
const p = c.generatePrimeSync(64, { bigint: true }); console.log(typeof p, p.toString(2).length, c.checkPrimeSync(p));
const q = c.generatePrimeSync(32); console.log(q instanceof ArrayBuffer, q.byteLength, c.checkPrimeSync(q));
const s = c.generatePrimeSync(32, { safe: true, bigint: true }); console.log(c.checkPrimeSync((s - 1n) / 2n));
const r = c.generatePrimeSync(32, { add: 12n, rem: 11n, bigint: true }); console.log(r % 12n); const r2 = c.generatePrimeSync(32, { add: Buffer.from([12]), rem: Buffer.from([5]), bigint: true }); console.log(r2 % 12n);
t('gen bad size', () => c.generatePrimeSync(-1)); t('gen bad add', () => c.generatePrimeSync(16, { add: 'x' })); t('gen rem without add', () => typeof c.generatePrimeSync(16, { rem: 1n, bigint: true }));
t('gen no cb', () => c.generatePrime(16)); t('check no cb', () => c.checkPrime(7n));
c.generatePrime(16, { bigint: true }, (e, p) => { console.log('async gen', e, typeof p); c.checkPrime(13n, (e, ok) => console.log('async check', e, ok)); });` } },
  { name: "crypto-cipher-info-and-state", files: { "case.js": js`const c = require('crypto');
console.log(c.getCipherInfo('aes-128-gcm'), c.getCipherInfo('aes-256-cbc', { keyLength: 32 }), c.getCipherInfo('aes-256-cbc', { keyLength: 16 }), c.getCipherInfo('nope'), c.getCipherInfo(423));
for (const f of [() => c.getCipherInfo(null), () => c.getCipherInfo('aes-128-cbc', { ivLength: 'x' })]) { try { console.log(f()); } catch (e) { console.log(e.name, e.code, e.message); } }
console.log(c.getFips()); c.setFips(false); console.log(c.getFips());
try { c.setEngine('dynamic-nope'); } catch (e) { console.log(e.code, e.message); } try { c.setEngine(1); } catch (e) { console.log(e.code, e.message); }` } },
];
