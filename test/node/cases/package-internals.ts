// Cases of test/node/node.differential.test.ts: the Node internals and edge behaviours real packages depend on
// (zlib streams' _handle and _processChunk as minizlib drives them, the HTTP server's close on a client abort,
// url.parse on the hosts express's host check is tested with).
import type { Case } from "./case.js";

const js = String.raw;

export const CASES: Case[] = [
  { name: "zlib-handle-process-chunk-minizlib", files: { "case.js": js`const zlib = require('zlib');
const input = Buffer.from('hello hello hello hello '.repeat(200));
// minizlib's write path: the native handle's close() swapped for a no-op around a synchronous _processChunk.
function miniWrite(stream, chunk, flushFlag) {
  const nativeHandle = stream._handle;
  const originalNativeClose = nativeHandle.close;
  nativeHandle.close = () => {};
  const originalClose = stream.close;
  stream.close = () => {};
  let result;
  try {
    result = stream._processChunk(chunk, flushFlag);
  } finally {
    stream._handle = nativeHandle;
    nativeHandle.close = originalNativeClose;
    stream.close = originalClose;
    stream.removeAllListeners('error');
  }
  return result;
}
const gz = new zlib.Gzip();
console.log(typeof gz._handle, typeof gz._handle.close, typeof gz._processChunk, gz.bytesWritten, Object.keys(gz).includes('_handle'));
const part1 = Buffer.from(miniWrite(gz, input.subarray(0, 1000), zlib.constants.Z_NO_FLUSH)); // minizlib copies: Node reuses its output buffer
const part2 = miniWrite(gz, input.subarray(1000), zlib.constants.Z_FINISH);
console.log(Buffer.isBuffer(part1), gz.bytesWritten, typeof gz._handle);
const gzipped = Buffer.concat([part1, part2]);
console.log(zlib.gunzipSync(gzipped).equals(input));
const inf = new zlib.Gunzip();
const out = miniWrite(inf, gzipped, zlib.constants.Z_SYNC_FLUSH);
console.log(out.length, out.equals(input));
gz._handle.close();
console.log(typeof gz._handle, gz._handle === null);
// A plain _processChunk closes the stream's handle afterwards, as Node's sync path does.
const d = zlib.createDeflate();
const r = d._processChunk(Buffer.from('abc'), zlib.constants.Z_FINISH);
console.log(zlib.inflateSync(r).toString(), d._handle, d.bytesWritten);
// The stream form: bytesWritten, and the handle gone at the end.
const s = zlib.createGzip();
s.on('data', () => {});
s.on('end', () => console.log('end', s.bytesWritten, typeof s._handle, s._handle === null));
s.on('close', () => console.log('close', s._handle));
s.end(input);
` } },
  { name: "http-server-client-aborts-streamed-response", files: { "case.js": js`const http = require('http');
const fs = require('fs');
fs.writeFileSync('big.bin', Buffer.alloc(4 * 1024 * 1024, 97));
// Each side's events in order; printed once both sides are done (the order across the two sides is the loop's).
const server = [];
const client = [];
let pending = 4;
const done = () => {
  if (--pending === 0) setImmediate(() => { console.log(server.join('\n')); console.log('--'); console.log(client.join('\n')); srv.close(); });
};
const srv = http.createServer((req, res) => {
  req.on('aborted', () => server.push('req aborted'));
  req.on('close', () => { server.push('req close'); done(); });
  res.on('finish', () => server.push('res finish'));
  res.on('close', () => { server.push('res close ' + res.writableEnded + ' ' + res.writableFinished + ' ' + req.destroyed + ' ' + req.aborted); done(); });
  server.push('request ' + req.method + ' ' + req.url);
  if (req.url === '/file') fs.createReadStream('big.bin').pipe(res);
  else res.write('partial');
});
srv.listen(0, () => {
  const creq = http.get({ port: srv.address().port, path: '/file' }, (r) => {
    client.push('response ' + r.statusCode);
    r.once('data', () => { client.push('first data'); creq.destroy(); });
    r.on('aborted', () => client.push('res aborted'));
    r.on('error', (e) => { client.push('res error ' + e.code + ' ' + e.message); done(); });
  });
  creq.on('error', (e) => client.push('client error ' + e.code));
  creq.on('close', () => { client.push('client close'); done(); });
});
` } },
  { name: "http-server-client-aborts-partial-response", files: { "case.js": js`const http = require('http');
const fs = require('fs');
fs.writeFileSync('big.bin', Buffer.alloc(4 * 1024 * 1024, 97));
// Each side's events in order; printed once both sides are done (the order across the two sides is the loop's).
const server = [];
const client = [];
let pending = 3;
const done = () => {
  if (--pending === 0) setImmediate(() => { console.log(server.join('\n')); console.log('--'); console.log(client.join('\n')); srv.close(); });
};
const srv = http.createServer((req, res) => {
  req.on('aborted', () => server.push('req aborted'));
  req.on('close', () => { server.push('req close'); done(); });
  res.on('finish', () => server.push('res finish'));
  res.on('close', () => { server.push('res close ' + res.writableEnded + ' ' + res.writableFinished + ' ' + req.destroyed + ' ' + req.aborted); done(); });
  server.push('request ' + req.method + ' ' + req.url);
  if (req.url === '/file') fs.createReadStream('big.bin').pipe(res);
  else res.write('partial');
});
srv.listen(0, () => {
  const creq = http.get({ port: srv.address().port, path: '/partial' }, (r) => {
    client.push('response ' + r.statusCode);
    r.once('data', () => { client.push('first data'); creq.destroy(); });
    r.on('aborted', () => client.push('res aborted'));
    r.on('error', (e) => client.push('res error ' + e.code + ' ' + e.message));
  });
  creq.on('error', (e) => client.push('client error ' + e.code));
  creq.on('close', () => { client.push('client close'); done(); });
});
` } },
  { name: "http-server-client-aborts-before-response", files: { "case.js": js`const http = require('http');
// The client gives up before the server has answered at all.
const server = [];
const client = [];
let pending = 3;
const done = () => {
  if (--pending === 0) setImmediate(() => { console.log(server.join('\n')); console.log('--'); console.log(client.join('\n')); srv.close(); });
};
let creq;
const srv = http.createServer((req, res) => {
  req.on('aborted', () => server.push('req aborted'));
  req.on('close', () => { server.push('req close ' + req.aborted); done(); });
  res.on('close', () => { server.push('res close ' + res.headersSent + ' ' + res.writableEnded); done(); });
  server.push('request ' + req.url);
  creq.destroy();
});
srv.listen(0, () => {
  creq = http.get({ port: srv.address().port, path: '/slow' }, () => client.push('unexpected response'));
  creq.on('error', (e) => client.push('client error ' + e.code + ' ' + e.message));
  creq.on('close', () => { client.push('client close'); done(); });
});
` } },
  { name: "http-server-client-half-closes-unanswered", files: { "case.js": js`const http = require('http');
const net = require('net');
const srv = http.createServer((req, res) => {
  req.on('aborted', () => console.log('req aborted'));
  res.on('close', () => console.log('res close', res.writableFinished));
  // No answer: the client's half-close ends the exchange.
});
srv.listen(0, () => {
  const s = net.connect(srv.address().port, () => s.end('GET / HTTP/1.1\r\nHost: x\r\n\r\n'));
  let data = '';
  s.on('data', (d) => (data += d));
  s.on('close', () => { console.log('client got', JSON.stringify(data.split('\r\n')[0]), data.endsWith('hello')); srv.close(); });
});
` } },
  { name: "url-legacy-parse-odd-hosts", files: { "case.js": js`const url = require('url');
const inputs = [
  "http://a'b.com/x", 'http://a b.com/x', 'http://a<b.com/', 'http://a\\b.com/p', 'http://ex\u00e4mple.com/', 'http://[::1]:3000/x', 'http://[fe80::1%25en0]/',
  'http://user:pw@host.com:8080/p?q=1#h', '//host/path', 'http://evil.com\\@good.com/', 'http://good.com@evil.com', 'http://a.com:xyz/', 'HTTP://UPPER.COM/Path',
  'http://xn--exmple-cua.com/', 'http://a..b/', 'http://-a.com/', 'http://a_b.com/', 'javascript:alert(1)', 'mailto:a@b.com', 'http://127.0.0.1:80/', 'http://[::ffff:1.2.3.4]/',
  '/just/path?x=1', 'http://a.com/%zz', 'http://a.com/ spaced', 'http://\ta.com/', 'http://a.com?no-slash', 'http://a"b.com/', 'http://a\`b.com/', 'http://a{b}.com/', 'http://a|b.com/',
  'http://a^b.com/', 'http://a%41.com/', 'http://[1:2:3:4:5:6:7:8:9]/', 'http://[::1/', 'http://a.com:65536/',
];
for (const i of inputs) {
  let u; try { u = url.parse(i); } catch (e) { console.log(JSON.stringify(i), e.name, e.code, e.message); continue; }
  console.log(JSON.stringify(i), JSON.stringify([u.protocol, u.auth, u.host, u.hostname, u.port, u.pathname, u.search, u.hash, u.href]));
}
console.log(JSON.stringify(url.parse('http://a.com/x?y=1&y=2', true).query));
console.log(url.format({ protocol: 'http', host: 'a.com', pathname: '/x y', query: { a: [1, 2], b: 'c d' }, hash: 'h' }));
console.log(url.format(url.parse('http://user:p%40ss@host.com:8080/p/a/t/h?query=string#hash')));
console.log(url.resolve('/one/two/three', 'four'), url.resolve('http://example.com/', '/one'), url.resolve('http://example.com/one', '/two'), url.resolve('http://a.com/b/c', '../d'), url.resolve('http://a.com/b/c', '//x.com/y'));
console.log(JSON.stringify(url.resolveObject('http://a.com/b/c?x#y', 'd?e')));
console.log(url.format(new URL('http://u:p@a.com/x?y#z'), { auth: false, search: false, fragment: false }));
console.log(Object.keys(url.parse('http://a.com')), url.parse('http://a.com') instanceof url.Url);
try { url.parse(5); } catch (e) { console.log(e.code, e.message); }
try { url.format(5); } catch (e) { console.log(e.code, e.message); }
` } },
];
