// Cases of test/node/node.differential.test.ts: fs ownership (chown as root), fchmod, readv/writev, statfs, openAsBlob, the stream aliases and watchFile's stat polling; buffer.transcode; path.matchesGlob.
import type { Case } from "./case.js";

const js = String.raw;
// Prints a thrown error's shape (or the value), for the cases below.
const show = js`const show = (f) => { try { const v = f(); console.log('ok', v); } catch (e) { console.log(e.name, e.code, e.errno, e.syscall, e.message); } };`;
export const CASES: Case[] = [
  { name: "fs-api-chown", files: { "case.js": js`${show} const fs = require('fs'); fs.writeFileSync('f', 'x'); fs.symlinkSync('missing', 'dangling');
show(() => fs.chownSync('f', 0, 0)); show(() => fs.chownSync('f', -1, -1)); show(() => fs.chownSync('nope', 0, 0)); show(() => fs.chownSync('f', '0', 0));
show(() => fs.chownSync('f', -2, 0)); show(() => fs.chownSync('f', 2 ** 32, 0)); show(() => fs.chownSync('f', 1.5, 0)); show(() => fs.chownSync('f', 0));
show(() => fs.chownSync(1, 0, 0)); show(() => fs.lchownSync('dangling', 0, 0)); show(() => fs.chownSync('dangling', 0, 0)); show(() => fs.lchownSync('nope', 0, 0));
const fd = fs.openSync('f', 'r'); show(() => fs.fchownSync(fd, 0, 0)); show(() => fs.fchownSync(999, 0, 0)); show(() => fs.fchownSync('x', 0, 0)); show(() => fs.fchownSync(fd, 0, -5));
show(() => fs.chown('f', 0, 0)); show(() => fs.fchown(fd, 'x')); show(() => fs.lchown(1, 0, 0)); show(() => fs.fchown(fd, 0, 0));
const st = fs.statSync('f'); console.log(st.uid, st.gid);
fs.chown('nope', 0, 0, (e) => { console.log('chown cb', e.code, e.message); fs.lchown('f', 0, 0, (e) => { console.log('lchown cb', e);
fs.fchown(999, 0, 0, (e) => { console.log('fchown cb', e.code, e.message); fs.fchown(fd, 0, 0, (...a) => { console.log('fchown cb', a); promises(); }); }); }); });
const p = fs.promises; const promises = async () => { console.log('p.chown', await p.chown('f', 0, 0)); await p.chown('nope', 0, 0).catch((e) => console.log('p.chown', e.code, e.message));
await p.lchown('f', 'x', 0).catch((e) => console.log('p.lchown', e.code, e.message));
await p.open('f', 'r').then(async (h) => { console.log('fh.chown', await h.chown(0, 0)); await h.chown(0).catch((e) => console.log('fh.chown', e.code, e.message)); await h.close(); await h.chown(0, 0).catch((e) => console.log('fh.chown closed', e.code, e.syscall)); }); };` } },
  { name: "fs-api-fchmod", files: { "case.js": js`${show} const fs = require('fs'); fs.writeFileSync('f', 'x'); const fd = fs.openSync('f', 'r+');
show(() => fs.fchmodSync(fd, 0o600)); console.log((fs.statSync('f').mode & 0o777).toString(8)); show(() => fs.fchmodSync(fd, '755')); console.log((fs.statSync('f').mode & 0o777).toString(8));
show(() => fs.fchmodSync(999, 0o644)); show(() => fs.fchmodSync(fd, 'abc')); show(() => fs.fchmodSync(fd)); show(() => fs.fchmodSync(fd, -1)); show(() => fs.fchmodSync(1.5, 0));
show(() => fs.fchmod(fd, 0o644)); show(() => fs.fchmod(fd, 'zz')); show(() => fs.chmod(1, 0)); show(() => fs.chmodSync('f')); show(() => fs.chmod('f', 'zz'));
fs.fchmod(fd, 0o640, (...a) => { console.log('fchmod cb', a, (fs.fstatSync(fd).mode & 0o777).toString(8));
  fs.fchmod(999, 0o640, (e) => { console.log('fchmod cb', e.code, e.message);
    fs.promises.open('f', 'r').then(async (h) => { console.log('fh.chmod', await h.chmod(0o604), (fs.statSync('f').mode & 0o777).toString(8)); await h.chmod('x').catch((e) => console.log(e.code, e.message)); await h.close(); await h.chmod(0o600).catch((e) => console.log('closed', e.code, e.syscall)); }); }); });` } },
  { name: "fs-api-lchmod", files: { "case.js": js`const fs = require('fs'); console.log(fs.lchmod, fs.lchmodSync, 'lchmod' in fs, Object.keys(fs).includes('lchmodSync'), typeof fs.promises.lchmod);
fs.promises.lchmod('f', 0o644).catch((e) => console.log(e.name, e.code, e.message, Object.keys(e))); fs.promises.lchmod(1).catch((e) => console.log(e.code));` } },
  { name: "fs-api-readv-writev", files: { "case.js": js`${show} const fs = require('fs'); fs.writeFileSync('f', 'hello world'); const fd = fs.openSync('f', 'r+');
const a = Buffer.alloc(3), b = new Uint8Array(4), c = Buffer.alloc(20);
console.log(fs.readvSync(fd, [a, b, c], 0), a.toString(), Buffer.from(b).toString(), c.toString('latin1', 0, 5));
console.log(fs.readvSync(fd, [a, Buffer.alloc(0), b]), a.toString(), Buffer.from(b).toString()); console.log(fs.readvSync(fd, [a, b]), a.toString()); show(() => fs.readvSync(fd, [])); show(() => fs.readvSync(fd, [], 0));
console.log(fs.writevSync(fd, [Buffer.from('AB'), new Uint16Array([0x4443])], 1), fs.readFileSync('f', 'latin1'));
console.log(fs.writevSync(fd, [Buffer.from('END')]), fs.writevSync(fd, []), fs.readFileSync('f', 'latin1'));
show(() => fs.readvSync(fd, 'x')); show(() => fs.readvSync(fd, ['x'])); show(() => fs.writevSync(fd, [Buffer.alloc(1), null])); show(() => fs.readvSync('1', [])); show(() => fs.writevSync(999, [Buffer.from('x')]));
show(() => fs.readv(fd, [a])); show(() => fs.writev(fd, 'x'));
fs.readv(fd, [Buffer.alloc(5)], 6, (...r) => { console.log('readv cb', r);
  fs.writev(fd, [Buffer.from('!')], (...r) => { console.log('writev cb', r);
    fs.writev(fd, [], 0, (...r) => { console.log('writev empty cb', r);
      fs.readv(999, [Buffer.alloc(1)], (e, n, bufs) => { console.log('readv bad', e.code, e.message, n, bufs); fs.readv(fd, [], 0, (e, n, bufs) => { console.log('readv empty', e.code, e.message, n, bufs);
        fs.promises.open('f', 'r+').then(async (h) => { const x = Buffer.alloc(2), y = Buffer.alloc(3); console.log(await h.readv([x, y], 1)); console.log(await h.writev([Buffer.from('zz'), Buffer.from('y')], 0), fs.readFileSync('f', 'latin1'));
          console.log(await h.readv([Buffer.alloc(4)])); await h.readv('x').catch((e) => console.log(e.code, e.message)); console.log(await h.writev([])); await h.readv([]).catch((e) => console.log(e.code, e.message)); await h.close(); await h.writev([x]).catch((e) => console.log('closed', e.code, e.syscall)); }); }); }); }); }); });` } },
  { name: "fs-api-statfs", files: { "case.js": js`${show} const fs = require('fs'); fs.writeFileSync('f', 'x');
const shape = (s) => console.log(s.constructor.name, Object.entries(s).map(([k, v]) => k + ':' + typeof v).join(), s.bsize, s.blocks >= s.bfree, s.bfree >= 0, s.files >= s.ffree, typeof s.type);
shape(fs.statfsSync('f')); shape(fs.statfsSync('.', { bigint: true })); shape(fs.statfsSync(Buffer.from('f')));
show(() => fs.statfsSync('nope')); show(() => fs.statfsSync(1)); show(() => fs.statfsSync('f', null)); show(() => fs.statfs('f'));
fs.statfs('f', (e, s) => { console.log('cb', e); shape(s); fs.statfs('f', { bigint: true }, (e, s) => { shape(s); fs.statfs('nope', (e) => { console.log('cb', e.code, e.message);
  fs.promises.statfs('f').then(shape).then(() => fs.promises.statfs('nope')).catch((e) => console.log('p', e.code, e.syscall, e.message)); }); }); });` } },
  { name: "fs-api-open-as-blob", files: { "case.js": js`${show} const fs = require('fs'); fs.writeFileSync('f', 'héllo'); fs.mkdirSync('d');
show(() => fs.openAsBlob('nope')); show(() => fs.openAsBlob(1)); show(() => fs.openAsBlob('f', 1)); show(() => fs.openAsBlob('f', null)); show(() => fs.openAsBlob('f', { type: 1 }));
const p = fs.openAsBlob('f'); console.log(p instanceof Promise);
p.then(async (b) => { console.log(b, b instanceof Blob, b.size, JSON.stringify(b.type), await b.text(), b.slice(1, 3).size); const t = await fs.openAsBlob(Buffer.from('f'), { type: 'text/plain' }); console.log(t.type, t.size, Buffer.from(await t.arrayBuffer()).toString()); });` } },
  { name: "fs-api-stream-aliases", files: { "case.js": js`const fs = require('fs'); console.log(fs.FileReadStream === fs.ReadStream, fs.FileWriteStream === fs.WriteStream, fs.FileReadStream.name, Object.keys(fs).filter((k) => /^(File)?(Read|Write)Stream$/.test(k)).sort());
const d = Object.getOwnPropertyDescriptor(fs, 'FileWriteStream'); console.log(typeof d.get, typeof d.set, d.enumerable, d.configurable);
fs.FileReadStream = 1; console.log(fs.FileReadStream, fs.ReadStream.name); fs.writeFileSync('f', 'abc'); new fs.FileWriteStream('g').end('xyz', () => console.log(fs.readFileSync('g', 'utf8')));` } },
  { name: "buffer-transcode-basic", files: { "case.js": js`const { transcode } = require('buffer'); const src = Buffer.from('aé€😀\u00ff\u0100z');
const encs = ['utf8', 'ucs2', 'utf16le', 'latin1', 'binary', 'ascii', 'UTF-8', 'Latin1', '', null, undefined, 'hex', 'base64', 'base64url', 'buffer', 'foo', 5];
for (const f of ['utf8', 'ucs2', 'latin1', 'ascii']) for (const t of encs) { try { const input = f === 'utf8' ? src : Buffer.from('aé€😀\u00ff\u0100z\x80', f); console.log(f, t, transcode(input, f, t).toString('hex')); } catch (e) { console.log(f, t, e.name, e.code, e.errno, e.message, Object.keys(e)); } }
for (const v of ['x', null, [1], new Uint16Array(2), undefined]) try { transcode(v, 'utf8', 'ascii'); } catch (e) { console.log(e.name, e.code, e.message); }
console.log(transcode(Buffer.alloc(0), 'x', 'y'), transcode(new Uint8Array([0x41, 0xe9]), 'latin1', 'utf8'), Buffer.isBuffer(transcode(new Uint8Array([0x41]), 'utf8', 'ucs2')));
const big = Buffer.from('ŝ'.repeat(50000) + '😀'); const r = transcode(big, 'utf8', 'ucs2'); console.log(r.length, r.toString('ucs2') === big.toString(), transcode(r, 'ucs2', 'utf8').equals(big));
try { transcode(Buffer.from([0xc3]), 'utf8', 'ucs2'); } catch (e) { console.log(e.stack.split('\n')[0], e.code, e.errno); }` } },
  { name: "buffer-transcode-invalid-input", files: { "case.js": js`const { transcode } = require('buffer');
const t = (h, f, to) => { try { console.log(f, to, h, '->', transcode(Buffer.from(h, 'hex'), f, to).toString('hex')); } catch (x) { console.log(f, to, h, x.code, x.errno); } };
for (const to of ['utf8', 'ucs2', 'latin1', 'ascii']) {
  for (const h of ['fffe41', 'c3', 'c341', 'eda08041', 'f09f98', 'e28241', 'c080', 'f4908080', 'efbbbf41', 'e0808041', 'f08f8080', 'c2', '80']) t(h, 'utf8', to);
  for (const h of ['3dd84100', '00de4100', '41003d', '3dd8', '61', '3dd800de', '00d83dd8', 'fffe4100', '410061']) t(h, 'ucs2', to);
  for (const h of ['80ff41', '7f00']) { t(h, 'ascii', to); t(h, 'latin1', to); }
}` } },
  { name: "path-matches-glob", files: { "case.js": js`const path = require('path'); process.removeAllListeners('warning'); const warnings = []; process.on('warning', (w) => warnings.push(w.name + ': ' + w.message));
console.log(typeof path.matchesGlob, path.matchesGlob.name, path.posix.matchesGlob === path.matchesGlob, path.win32.matchesGlob === path.matchesGlob);
for (const [p, g] of [['a/b.js', 'a/*.js'], ['a/b.js', '**/*.ts'], ['.x', '*'], ['x/.y/z', 'x/**/z'], ['ab', '{a,b}b'], ['a', '[!b]'], ['/a/b', '/a/*'], ['A', 'a'], ['a/b/c', 'a/**'], ['a/b', 'a/?'], ['', ''], ['a', '']]) console.log(p, g, path.matchesGlob(p, g), path.win32.matchesGlob(p, g));
console.log(path.win32.matchesGlob('a\\b.js', 'a/*.js'), path.win32.matchesGlob('C:\\x\\y', 'C:/x/*'), path.matchesGlob('a\\b.js', 'a/*.js'));
for (const f of [() => path.matchesGlob(1, 'x'), () => path.matchesGlob('x'), () => path.win32.matchesGlob('x', 2), () => path.matchesGlob()]) try { f(); } catch (e) { console.log(e.name, e.code, e.message); }
setImmediate(() => console.log(warnings));` } },
  { name: "path-matches-glob-warning", files: { "case.js": js`const { spawnSync } = require('child_process'); const r = spawnSync(process.execPath, ['child.js'], { encoding: 'utf8' });
console.log(r.status, JSON.stringify(r.stdout), JSON.stringify(r.stderr.replace(/\(node:\d+\)/g, '(node:PID)')));`, "child.js": js`const path = require('path'); try { path.matchesGlob(1, 'x'); } catch (e) { console.log(e.code); } console.log(path.matchesGlob('a.js', '*.js'), path.win32.matchesGlob('a', 'b'));` } },
  { name: "fs-watch-file", files: { "case.js": js`const fs = require('fs'); let n = 0;
const w = fs.watchFile('wf.txt', { interval: 20 }, (curr, prev) => {
  n++; console.log('change', n, curr.size, prev.size, curr.mtimeMs > 0, prev.mtimeMs > 0, curr.isFile(), prev.isFile(), curr.constructor.name);
  if (n === 1) fs.writeFileSync('wf.txt', 'abc'); else if (n === 2) fs.appendFileSync('wf.txt', 'de'); else if (n === 3) fs.unlinkSync('wf.txt'); else if (n === 4) fs.writeFileSync('wf.txt', 'again'); else fs.unwatchFile('wf.txt');
});
console.log(w.constructor.name, Object.keys(w).join(), w === fs.watchFile('wf.txt', () => {}), w.listenerCount('change'));
fs.unwatchFile('wf.txt', () => {}); console.log(w.listenerCount('change'));
w.on('stop', () => console.log('stopped', n));
for (const f of [() => fs.watchFile('x'), () => fs.watchFile(5, () => {}), () => fs.unwatchFile('never-watched')]) { try { console.log(f()); } catch (e) { console.log(e.code, e.message); } }` } },
  { name: "fs-watch-file-bigint-and-unref", files: { "case.js": js`const fs = require('fs'); fs.writeFileSync('b.txt', 'x');
const w = fs.watchFile('b.txt', { interval: 20, bigint: true }, (curr, prev) => { console.log(typeof curr.size, curr.size > prev.size, prev.size >= 1n, curr.constructor.name); fs.unwatchFile('b.txt'); });
const t = setInterval(() => fs.appendFileSync('b.txt', 'y'), 30); w.on('stop', () => clearInterval(t));
const u = fs.watchFile('never.txt', { persistent: false, interval: 10 }, () => console.log('unref watcher saw the missing file'));` } },
  { name: "fs-metadata-changes-keep-times", files: { "case.js": js`const fs = require('fs');
const check = (label, fn) => { fs.writeFileSync('t.txt', 'x'); fs.utimesSync('t.txt', new Date(1000000000000), new Date(1100000000000)); const s0 = fs.statSync('t.txt'); fn(); const s1 = fs.statSync(fs.existsSync('t.txt') ? 't.txt' : 't2.txt'); console.log(label, s1.atimeMs === s0.atimeMs, s1.mtimeMs, s1.ctimeMs >= s0.ctimeMs); for (const n of ['t.txt', 't2.txt', 't3.txt']) try { fs.unlinkSync(n); } catch {} };
check('chmod', () => fs.chmodSync('t.txt', 0o600)); check('fchmod', () => { const fd = fs.openSync('t.txt', 'r+'); fs.fchmodSync(fd, 0o644); fs.closeSync(fd); });
check('chown', () => fs.chownSync('t.txt', process.getuid(), process.getgid())); check('rename', () => fs.renameSync('t.txt', 't2.txt')); check('link', () => fs.linkSync('t.txt', 't3.txt'));
check('chmod then utimes then chmod', () => { fs.chmodSync('t.txt', 0o600); fs.utimesSync('t.txt', 5, 6); fs.chmodSync('t.txt', 0o644); });` } },
];
