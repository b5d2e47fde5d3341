import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentOs, type ExecResult } from "../../src/index.js";

// Differential test of the guest `node` (workers/node-guest, workers/node-host, src/kernel/node-process.ts)
// against this machine's own `node` (process.execPath, the same binary the VM's workers run on).
//
// Each case is a directory of files; it runs (a) in one VM as `node ARGS` with that directory as cwd and (b) on
// the host as `process.execPath ARGS` in a temp directory holding the same files. stdout, stderr and the exit
// code must be equal after normalising only:
// - the case directory (/w/NAME in the VM, a temp dir on the host) → <DIR>,
// - stack frames ("    at …" lines, collapsed to one placeholder line),
// - the source-context header Node prints above an uncaught error (`file:line`, the source line, the caret);
//   the case `uncaught-source-context` checks that header on its own.
// The host gets a fixed environment like the VM's (HOME=/home/user, PATH) and stdin /dev/null unless the case
// gives stdin. Snippets avoid what legitimately differs (pids, hostnames, times, absolute host paths).

interface Case {
  /** Unique; also the directory name. */
  name: string;
  /** Shorthand for files["case.js"]. */
  code?: string;
  files?: Record<string, string>;
  /** Arguments to node; default ["case.js"]. */
  args?: string[];
  stdin?: string;
  env?: Record<string, string>;
  /** Compare stderr without removing the source-context header of uncaught errors. */
  keepHeader?: boolean;
}

/** Cases where the guest node differs from node, each with the reason (a real difference: a bug to fix). */
const KNOWN_DIFFERENCES: Record<string, string> = {
  // console / util.inspect (the inspect port differs from Node 20's)
  "log-promise-proxy": "inspect cannot see a promise's state: Promise.resolve(4) prints Promise { <pending> }",
  "cli-print-promise": "node -p 'Promise.resolve(5)' prints Promise { <pending> } instead of Promise { 5 }",
  "log-map-set": "map.entries() / set.values() iterators print as [Map Iterator] {  } instead of [Map Entries] { [ 1, 2 ] } (an iterator's entries are not readable without V8 internals)",
  "log-globals": "Object.keys(globalThis) is empty (Node: atob, btoa, clearImmediate, … are enumerable)",
  // event loop
  "order-nested-ticks": "nextTick queue is not drained before the promise microtask queue",
  "async-local-storage": "AsyncLocalStorage store is lost in promise reactions and timers started inside als.run",
  // process
  "process-unhandled-handler": "no PromiseRejectionHandledWarning when a rejected promise is handled late",
  "perf-hooks-misc": "require('perf_hooks').performance !== globalThis.performance",
  // globals
  "text-encoding-web-globals": "fetch, Blob, BroadcastChannel, MessageChannel, Headers, Response globals are missing",
  "buffer-blob-base64-globals": "Blob global is missing",
  // crypto
  "crypto-subtle": "crypto.subtle not available",
  // events
  "events-error-no-listener": "the \"Emitted 'error' event at:\" section is there, but after \"[... lines matching original stack trace ...]\" Node shows one more frame of its own (the guest's stack below the script is the runtime's)",
  // fs
  "fs-filehandle": "FileHandle.readLines() is missing",
  "fs-stat-bigint": "statSync(p, { bigint: true }) not supported",
  // path
  "path": "path.win32 is null (path.win32.join throws): no win32 implementation among the polyfills (path-browserify is POSIX only)",
  // child_process
  "cp-fork": "child_process.fork not available (ERR_ACCESS_DENIED)",
  // vm
  "vm-module": "vm.runInNewContext not available (ERR_ACCESS_DENIED)",
  // modules
  "cjs-cycles-and-cache": "no 'Accessing non-existent property … inside circular dependency' warning",
  "esm-missing-package": "import('./d.json') without { with: { type: 'json' } } succeeds (Node: ERR_IMPORT_ASSERTION_TYPE_MISSING)",
  // uncaught errors
  "uncaught-non-error": "throw 'a string' prints \"Uncaught 'a string'\" (Node: the value, then (Use `node --trace-uncaught ...` …))",
  "uncaught-object": "throw { some: 'object' } prints 'Uncaught { some: 'object' }' (Node: the value and the --trace-uncaught hint)",
  "unhandled-rejection-non-error": "Promise.reject('s') prints 'Error [ERR_UNHANDLED_REJECTION]: … reason \"'plain reason'\"' with a name property (Node: 'UnhandledPromiseRejection: … reason \"plain reason\".')",
};

/** The host's major version: the guest reports it, and follows it where that is cheap (see workers/node-guest). */
const HOST_MAJOR = Number(process.versions.node.split(".")[0]);

/**
 * Known differences only on newer hosts: the guest keeps Node 20's behaviour there, because following the newer
 * Node would be a large change. Each is checked (and must still differ) when the host's major is at least the key.
 */
const KNOWN_FROM_MAJOR: Record<number, Record<string, string>> = {
  24: {
    "url-file-and-legacy": "url.parse() gives no DEP0169 DeprecationWarning (Node 24 makes it a runtime deprecation)",
    "cli-eval-syntax": "a syntax error in -e lacks Node 24's TypeScript-stripping diagnostic (\"Expression expected\") above the SyntaxError",
  },
};
for (const [major, known] of Object.entries(KNOWN_FROM_MAJOR)) {
  if (HOST_MAJOR >= Number(major)) Object.assign(KNOWN_DIFFERENCES, known);
}

const js = String.raw;

const CASES: Case[] = [
  // ---------------------------------------------------------------- console.log / util.inspect
  { name: "log-primitives", code: js`console.log(1, 'a', true, null, undefined, 1n, -0, NaN, Infinity, -Infinity, 0.1 + 0.2, 1e21, 2 ** 53, -1e-7);` },
  { name: "log-nested", code: js`console.log({ a: 1, b: { c: { d: { e: { f: 1 } } } }, arr: [1, [2, [3, [4, [5]]]]] }); console.log([[[[['deep']]]]]);` },
  { name: "log-long-array", code: js`console.log(Array.from({ length: 120 }, (_, i) => i)); console.log(Array.from({ length: 30 }, (_, i) => 'item' + i));` },
  { name: "log-wide-object", code: js`const o = {}; for (let i = 0; i < 30; i++) o['key' + i] = 'value' + i; console.log(o); console.log({ short: 1, list: ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa'] });` },
  { name: "log-map-set", code: js`console.log(new Map([['a', 1], [{ x: 1 }, [2]]]), new Set([1, 'two', [3]])); console.log(new Map(), new Set(), new WeakMap(), new WeakSet()); console.log([new Map([[1, { a: [1, 2] }]])]); console.log(new Map([[1,2]]).entries(), new Set([5]).values());` },
  { name: "log-classes", code: js`class Foo { constructor() { this.x = 1; } } class Bar extends Foo { #p = 2; get g() { return 1; } } console.log(new Foo(), new Bar(), [new Foo()]); console.log(Foo, Bar, function named() {}, () => {}, async function af() {}, function* g() {}, class {}); console.log(Object.create(Foo.prototype));` },
  { name: "log-null-proto", code: js`console.log(Object.create(null)); console.log(Object.assign(Object.create(null), { x: 1, y: [2] })); console.log({ __proto__: null, a: 1 }); console.log({ get a() { return 1; }, set b(v) {}, get c() { return 1; }, set c(v) {} });` },
  { name: "log-errors", code: js`const e = new Error('msg'); console.log(String(e), e.message, e.name); const t = new TypeError('bad type'); t.code = 'E_X'; console.log(Object.keys(t)); console.log(t); console.log({ nested: new RangeError('r') }); class MyErr extends Error { constructor(m) { super(m); this.name = 'MyErr'; } } console.log(new MyErr('mine').stack.split('\n')[0]);` },
  { name: "log-error-cause", code: js`const e = new Error('outer', { cause: new Error('inner') }); console.log(e); console.log(new AggregateError([new Error('a'), new Error('b')], 'agg'));` },
  { name: "log-buffers-typed", code: js`console.log(Buffer.from('hello'), new Uint8Array([1, 2, 3]), new Float64Array(2), new Int16Array([-1, 2])); console.log(new ArrayBuffer(4), new DataView(new ArrayBuffer(2)), Buffer.alloc(60)); console.log(new BigInt64Array([1n, -2n]), new Uint8ClampedArray([300]));` },
  { name: "log-dates", code: js`console.log(new Date(0).toISOString(), JSON.stringify({ d: new Date(86400000) })); console.log(new Date(0), [new Date(1e12)], new Date(NaN)); console.log(new Date(Date.UTC(2020, 1, 29, 12)).toISOString(), new Date('2024-03-01T00:00:00Z').getTime());` },
  { name: "log-symbols", code: js`console.log(Symbol('s'), Symbol(), Symbol.iterator, { [Symbol('k')]: 1, s: Symbol.for('f') }, Symbol.for('f').description); console.log([Symbol('in array')]); console.log(String(Symbol('x')));` },
  { name: "log-strings", code: js`console.log(['it\'s', 'a"b', 'new\nline', 'back' + String.fromCharCode(96) + 'tick', 'both\'"', '\t\u0001']); console.log('plain', 'multi\nline'); console.log({ s: 'x'.repeat(20) }); console.log(['\u00e9', '\ud83d\ude00']);` },
  { name: "log-circular", code: js`const a = { n: 1 }; a.self = a; a.list = [a]; console.log(a); const arr = [1]; arr.push(arr); console.log(arr); const m = new Map(); m.set('m', m); console.log(m);` },
  { name: "log-boxed-regex-sparse", code: js`console.log(new String('s'), new Number(1), new Boolean(false), Object(1n), Object(Symbol('b'))); console.log(/re/gi, new RegExp('a/b', 'm'), [undefined, , null, , , 5]); console.log([1, 2, 3].keys(), Object.entries({ a: 1 }));` },
  { name: "log-promise-proxy", code: js`console.log(Promise.resolve(4), new Promise(() => {}), new Proxy({ a: 1 }, {}), new Proxy(function f() {}, {})); const p = Promise.reject(new Error('r')); p.catch(() => {}); console.log(typeof p);` },
  { name: "log-functions-props", code: js`function f() {} f.prop = 1; console.log(f, [f], { f }); const bound = f.bind(null); console.log(bound, Math.max, Array.prototype.map); console.log(Object.assign(() => {}, { a: 1 }));` },
  { name: "log-globals", code: js`console.log(Math, JSON, Reflect, globalThis === global, typeof globalThis.process); console.log(Object.keys(globalThis).filter((k) => !k.startsWith('_')).sort().slice(0, 5));` },
  { name: "log-array-extra-props", code: js`const a = [1, 2]; a.extra = 'x'; console.log(a); console.log(Object.assign(new Map([[1, 1]]), { p: 2 })); const big = new Array(5); console.log(big, new Array(3).fill(0));` },
  { name: "console-methods", code: js`console.info('info'); console.warn('warn'); console.error('error', { a: 1 }); console.debug('debug'); console.log(); console.log('%s is %d years', 'Al', 42.5, 'extra'); console.assert(1 === 1, 'nope'); console.assert(false, 'assertion %s', 'msg'); console.count(); console.count('x'); console.count(); console.countReset(); console.count(); console.dir({ a: { b: { c: { d: 1 } } } }, { depth: 0 }); console.trace === undefined;` },
  { name: "console-group-table", code: js`console.group('G1'); console.log('in 1'); console.group(); console.log({ a: 1, b: [1, 2] }); console.groupEnd(); console.error('err in 1'); console.groupEnd(); console.log('out'); console.table([{ a: 1, b: 'two' }, { a: 3, c: true }]); console.table([[1, 2], [3, 4]]); console.table({ x: { v: 1 }, y: { v: 2 } }, ['v']);` },
  { name: "util-format", code: js`const util = require('util'); console.log(util.format('%s %d %i %f %j %o %O %%', 'str', 42.9, 42.9, '3.5', { a: [1] }, { b: 2 }, { c: 3 })); console.log(util.format('%s', null, undefined, 5n), util.format(1, 2, '3'), util.format('%d', '0x10'), util.format('%s', Symbol('q'))); console.log(util.format('%c styled', 'color:red'), util.format('no args %s'), util.format('%s', { toString() { return 'custom'; } }), util.format('%s', [1, [2]]), util.format('%s', new Error('em').message));` },
  { name: "util-inspect-options", code: js`const util = require('util'); const o = { a: { b: { c: { d: { e: 1 } } } }, arr: Array.from({ length: 8 }, (_, i) => i), s: 'long string here' }; console.log(util.inspect(o, { depth: 0 })); console.log(util.inspect(o, { depth: Infinity, breakLength: Infinity })); console.log(util.inspect(o, { compact: false })); console.log(util.inspect(o, { maxArrayLength: 3, maxStringLength: 4 })); console.log(util.inspect({ b: 1, a: 2, c: { z: 1, y: 2 } }, { sorted: true })); console.log(util.inspect([1, 2], { showHidden: true })); console.log(util.inspect('str'), util.inspect(5, { colors: true }), util.inspect({ a: 'x' }, { colors: true })); console.log(util.inspect(new Map([[1, 2]]), { showHidden: true }));` },
  { name: "util-inspect-custom", code: js`const util = require('util'); class P { constructor() { this.secret = 1; } [util.inspect.custom](depth, opts, inspect) { return 'P<' + inspect({ d: depth }, opts) + '>'; } } console.log(new P(), [new P()], { p: new P() }); console.log(util.inspect(new P(), { depth: 5 })); class Q { toString() { return 'Q!'; } } console.log(String(new Q()), '' + new Q(), new Q());` },
  { name: "util-misc", code: js`const util = require('util'); console.log(util.isDeepStrictEqual({ a: [1] }, { a: [1] }), util.isDeepStrictEqual([1], ['1']), util.types.isPromise(Promise.resolve()), util.types.isRegExp(/a/), util.types.isDate(new Date()), util.isArray([])); const p = util.promisify((x, cb) => cb(null, x * 2)); p(21).then((v) => console.log('promisified', v)); const cbf = util.callbackify(async (x) => x + 1); cbf(1, (e, v) => console.log('callbackified', e, v)); function A() {} function B() {} util.inherits(B, A); console.log(new B() instanceof A, B.super_ === A); console.log(util.inspect.defaultOptions.depth, typeof util.TextEncoder, util.stripVTControlCharacters('\u001b[31mred\u001b[39m'), util.toUSVString('a\ud800b'));` },
  { name: "text-encoding-web-globals", code: js`console.log(new TextEncoder().encode('hé'), new TextDecoder().decode(new Uint8Array([104, 195, 169]))); console.log([typeof fetch, typeof structuredClone, typeof queueMicrotask, typeof setImmediate, typeof AbortController, typeof Blob, typeof URL, typeof WebAssembly, typeof atob, typeof performance.now, typeof crypto.getRandomValues, typeof BroadcastChannel, typeof MessageChannel, typeof Headers, typeof Response, typeof EventTarget].join()); console.log(btoa('hi'), atob('aGk='), structuredClone({ a: new Map([[1, new Set([2])]]), d: new Date(0) }));` },
  { name: "crypto-subtle-typeof", code: js`console.log(typeof crypto.subtle, typeof require('crypto').webcrypto.subtle);` },
  { name: "custom-event-global", code: js`const t = new EventTarget(); t.addEventListener('ping', (ev) => console.log('ping', ev.detail)); t.dispatchEvent(new CustomEvent('ping', { detail: 1 }));` },
  { name: "json", code: js`console.log(JSON.stringify({ a: [1, { b: 2 }], u: undefined, f() {}, n: null, d: new Date(0), s: 'é\u2028' }, null, 2)); console.log(JSON.stringify({ a: 1, b: 2, c: 3 }, ['a', 'c']), JSON.stringify({ a: 5 }, (k, v) => (typeof v === 'number' ? v * 2 : v)), JSON.stringify({ toJSON() { return 'tj'; } }), JSON.stringify('\ud800'), JSON.stringify([NaN, Infinity])); try { JSON.stringify({ x: 1n }); } catch (e) { console.log(e.name, e.message); } const c = {}; c.c = c; try { JSON.stringify(c); } catch (e) { console.log(e.name, e.message.split('\n')[0]); } for (const bad of ['{', '{"a":}', '', 'tru', '[1,]']) { try { JSON.parse(bad); } catch (e) { console.log(e.name + ': ' + e.message); } } console.log(JSON.parse('{"a":[1,2,{"b":null}]}', (k, v) => (k === 'b' ? 'B' : v)));` },
  { name: "structured-clone-errors", code: js`try { structuredClone(() => {}); } catch (e) { console.log(e.name, e.message, e instanceof Error); } try { structuredClone({ s: Symbol() }); } catch (e) { console.log(e.name, e.message); } const e2 = structuredClone(new RangeError('r')); console.log(e2 instanceof RangeError, e2.message);` },
  { name: "vm-module", code: js`const vm = require('vm'); console.log(vm.runInNewContext('a + 1', { a: 41 })); const ctx = vm.createContext({ x: 2 }); vm.runInContext('var y = x * 3', ctx); console.log(ctx.y); console.log(new vm.Script('6 * 7').runInThisContext()); try { vm.runInNewContext('throw new TypeError("in ctx")'); } catch (e) { console.log(e.name, e.message); }` },

  // ---------------------------------------------------------------- process
  { name: "process-argv", code: js`console.log(process.argv.slice(2), process.argv.length, process.argv[1], process.argv[0] === process.execPath, require('path').isAbsolute(process.execPath));`, args: ["case.js", "a", "b c", "--flag", "-x", ""] },
  { name: "process-env", code: js`console.log(process.env.FOO, 'FOO' in process.env, process.env.NOPE, 'NOPE' in process.env, typeof process.env.PATH, process.env.HOME); process.env.NEW = 5; console.log(typeof process.env.NEW, process.env.NEW); delete process.env.FOO; console.log(process.env.FOO, Object.keys(process.env).includes('NEW'));`, env: { FOO: "bar=baz" } },
  { name: "process-exitcode", code: js`console.log('before'); process.exitCode = 5; setTimeout(() => console.log('timer still runs'), 10);` },
  { name: "process-exit-now", code: js`setTimeout(() => console.log('never'), 10); process.on('exit', (c) => console.log('exit event', c, process.exitCode)); console.log('a'); process.exit(7); console.log('never 2');` },
  { name: "process-exit-in-exit-handler", code: js`process.on('exit', (c) => { console.log('exit 1', c); process.exitCode = 9; }); process.on('exit', (c) => console.log('exit 2', c, process.exitCode)); process.exitCode = 2;` },
  { name: "process-exit-in-handler-call", code: js`process.on('exit', (c) => { console.log('exit', c); process.exit(11); console.log('after exit in exit'); }); console.log('main');` },
  { name: "process-before-exit", code: js`let n = 0; process.on('beforeExit', (c) => { console.log('beforeExit', c, n); if (n++ < 2) setTimeout(() => console.log('scheduled', n), 1); }); process.on('exit', (c) => console.log('exit', c)); console.log('main');` },
  { name: "process-before-exit-not-on-exit", code: js`process.on('beforeExit', () => console.log('beforeExit')); process.on('exit', () => console.log('exit')); setTimeout(() => process.exit(0), 1);` },
  { name: "order-tick-promise-timer-immediate", code: js`setImmediate(() => console.log('immediate')); Promise.resolve().then(() => console.log('promise')); process.nextTick(() => console.log('tick')); queueMicrotask(() => console.log('microtask')); console.log('sync'); require('fs').readFile(__filename, () => { setTimeout(() => console.log('io timeout'), 0); setImmediate(() => console.log('io immediate')); process.nextTick(() => console.log('io tick')); });` },
  { name: "order-nested-ticks", code: js`Promise.resolve().then(() => { console.log('p1'); process.nextTick(() => console.log('tick in p1')); Promise.resolve().then(() => console.log('p1.1')); }); process.nextTick(() => { console.log('t1'); Promise.resolve().then(() => console.log('p in t1')); process.nextTick(() => console.log('t1.1')); }); process.nextTick(() => console.log('t2')); setImmediate(() => { console.log('i1'); process.nextTick(() => console.log('tick in i1')); }); setImmediate(() => console.log('i2'));` },
  { name: "order-async-await", code: js`async function a() { console.log('a1'); await null; console.log('a2'); await new Promise((r) => setTimeout(r, 5)); console.log('a3'); } a().then(() => console.log('a done')); console.log('after call'); (async () => { for await (const x of [1, 2]) console.log('fa', x); })();` },
  { name: "process-uncaught-handler", code: js`process.on('uncaughtException', (e, origin) => { console.log('caught', e.message, origin); }); setTimeout(() => { throw new Error('late'); }, 1); setTimeout(() => console.log('still alive'), 5); throw new Error('early');` },
  { name: "process-unhandled-handler", code: js`process.on('unhandledRejection', (r, p) => console.log('unhandled', r instanceof Error ? r.message : r, p instanceof Promise)); Promise.reject(new Error('nope')); Promise.reject(42); const p = Promise.reject(1); setTimeout(() => p.catch(() => {}), 1); setTimeout(() => console.log('end'), 5);` },
  { name: "process-misc", code: js`console.log(process.platform, process.arch === require('os').arch(), process.version === 'v' + process.versions.node, typeof process.pid, typeof process.ppid, typeof process.hrtime.bigint(), Array.isArray(process.hrtime()), typeof process.uptime(), Object.keys(process.memoryUsage()).sort().join(), typeof process.cpuUsage().user, process.execArgv, process.release.name, typeof process.umask(), typeof process.getuid(), process.exitCode, process.config === undefined, typeof process.emitWarning, process.argv0.length > 0, process.features !== undefined);` },
  { name: "process-stdio-istty", code: js`console.log(process.stdout.isTTY, process.stderr.isTTY, process.stdin.isTTY);` },
  { name: "process-stdout-write", code: js`const r = process.stdout.write('no newline', () => console.log('\nwrite cb')); console.log('\nreturned', r); process.stderr.write('err line\n'); process.stdout.write(Buffer.from('buf\n')); process.stdout.write(new Uint8Array([65, 10])); console.log(typeof process.stdout.fd, process.stdout.fd, process.stderr.fd, typeof process.stdout.on, process.stdout.writable);` },
  { name: "process-signal-handler", code: js`process.on('SIGTERM', (s) => { console.log('got', s); setTimeout(() => { console.log('exiting myself'); process.exit(3); }, 10); }); setTimeout(() => console.log('not reached'), 5000); process.kill(process.pid, 'SIGTERM'); console.log('sent');` },
  { name: "process-kill-self", code: js`console.log('before'); process.kill(process.pid, 'SIGTERM'); setTimeout(() => console.log('not reached'), 100);` },
  { name: "process-chdir", files: { "case.js": js`const fs = require('fs'); process.chdir('sub'); console.log(process.cwd().endsWith('/sub'), fs.readFileSync('f.txt', 'utf8')); try { process.chdir('nope'); } catch (e) { console.log(e.code, e.syscall, e.message.split(' -> ')[0]); }`, "sub/f.txt": "in sub\n" } },

  // ---------------------------------------------------------------- timers
  { name: "timers-interval", code: js`let n = 0; const t = setInterval(() => { console.log('tick', ++n); if (n === 3) clearInterval(t); }, 2); console.log(typeof t.ref, typeof t.unref, t.hasRef());` },
  { name: "timers-unref", code: js`const t = setTimeout(() => console.log('never'), 1000); t.unref(); console.log(t.hasRef()); const i = setInterval(() => {}, 1000); i.unref(); setImmediate(() => console.log('imm')); const t2 = setTimeout(() => console.log('ref again'), 50); t2.unref(); t2.ref();` },
  { name: "timers-order-delays", code: js`for (const d of [20, 5, 0, 1, 10, 5]) setTimeout(() => console.log('d', d), d); const c = setTimeout(() => console.log('cancelled'), 2); clearTimeout(c); clearTimeout(undefined); clearTimeout(12345); const args = setTimeout((a, b) => console.log('args', a, b), 1, 'x', 'y');` },
  { name: "timers-promises", files: { "case.mjs": js`import { setTimeout as sleep, setImmediate as imm, setInterval as every } from 'node:timers/promises'; console.log(await sleep(5, 'value')); console.log(await imm('imm')); let n = 0; for await (const v of every(2, 'iv')) { console.log(v, ++n); if (n === 3) break; } const ac = new AbortController(); const p = sleep(1000, null, { signal: ac.signal }); ac.abort(); try { await p; } catch (e) { console.log(e.name, e.code, e.message); } import timers from 'node:timers'; console.log(typeof timers.setTimeout, typeof (await import('timers/promises')).scheduler);` }, args: ["case.mjs"] },
  { name: "timers-refresh-and-ids", code: js`let fired = 0; const t = setTimeout(() => { fired++; console.log('fired', fired); }, 10); setTimeout(() => t.refresh(), 5); const id = +setTimeout(() => {}, 0); console.log(typeof id, Number.isInteger(id)); const imm = setImmediate(() => console.log('no')); clearImmediate(imm); console.log(typeof imm.hasRef);` },
  { name: "abort-signal", code: js`const ac = new AbortController(); ac.signal.addEventListener('abort', (e) => console.log('abort event', e.type, ac.signal.reason.name)); ac.abort(); console.log(ac.signal.aborted); const s = AbortSignal.abort('why'); console.log(s.reason); try { s.throwIfAborted(); } catch (e) { console.log('thrown', e); } const t = AbortSignal.timeout(5); t.onabort = () => console.log('timeout', t.reason.name, t.reason.message); setTimeout(() => {}, 50);` },

  // ---------------------------------------------------------------- fs
  { name: "fs-sync-basic", code: js`const fs = require('fs'); fs.writeFileSync('a.txt', 'hello\n'); fs.appendFileSync('a.txt', 'world\n'); console.log(JSON.stringify(fs.readFileSync('a.txt', 'utf8')), fs.readFileSync('a.txt').length, fs.existsSync('a.txt'), fs.existsSync('nope')); fs.writeFileSync('b.txt', Buffer.from([0, 255])); console.log(fs.readFileSync('b.txt')); fs.writeFileSync('a.txt', 'X', { flag: 'a' }); console.log(fs.readFileSync('a.txt', { encoding: 'utf8' }).slice(-3)); fs.writeFileSync('c.txt', new Uint8Array([104, 105])); console.log(fs.readFileSync('c.txt', 'latin1'));` },
  { name: "fs-readdir", files: { "case.js": js`const fs = require('fs'); console.log(fs.readdirSync('d').sort()); console.log(fs.readdirSync('d', { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1)).map((e) => [e.name, e.isFile(), e.isDirectory(), e.isSymbolicLink()])); fs.symlinkSync('f1.txt', 'd/link'); const l = fs.readdirSync('d', { withFileTypes: true }).find((e) => e.name === 'link'); console.log(l.isSymbolicLink(), l.isFile()); console.log(fs.readdirSync('d', { recursive: true }).sort()); console.log(fs.readdirSync('d', { encoding: 'buffer' }).length);`, "d/f1.txt": "1", "d/f2.txt": "22", "d/sub/f3.txt": "333" } },
  { name: "fs-mkdir-rm", code: js`const fs = require('fs'); const path = require('path'); const first = fs.mkdirSync('x/y/z', { recursive: true }); console.log(path.relative(process.cwd(), first)); console.log(fs.mkdirSync('x/y/z', { recursive: true })); fs.writeFileSync('x/y/z/f', '1'); try { fs.rmdirSync('x'); } catch (e) { console.log(e.code, e.syscall); } try { fs.mkdirSync('x'); } catch (e) { console.log(e.code, e.message.replace(process.cwd(), '.')); } fs.rmSync('x', { recursive: true }); console.log(fs.existsSync('x')); fs.rmSync('nope', { force: true }); try { fs.rmSync('nope'); } catch (e) { console.log(e.code, e.message.replace(process.cwd(), '.')); } fs.mkdirSync('e'); try { fs.rmSync('e'); } catch (e) { console.log(e.code, e.message.replace(process.cwd(), '.')); } fs.rmdirSync('e'); console.log(fs.existsSync('e'));` },
  { name: "fs-stat", files: { "case.js": js`const fs = require('fs'); const s = fs.statSync('f.txt'); console.log(s.size, s.isFile(), s.isDirectory(), s.isSymbolicLink(), s.nlink, typeof s.mtimeMs, s.mtime instanceof Date, typeof s.ino, typeof s.dev, s.blksize > 0, Object.keys(s).sort().join()); const d = fs.statSync('.'); console.log(d.isDirectory(), d.isFile()); fs.symlinkSync('f.txt', 'ln'); console.log(fs.lstatSync('ln').isSymbolicLink(), fs.statSync('ln').isFile(), fs.statSync('ln').size); console.log(fs.statSync('nope', { throwIfNoEntry: false })); fs.utimesSync('f.txt', new Date(1e12), new Date(1.5e12)); console.log(fs.statSync('f.txt').mtime.toISOString(), fs.statSync('f.txt').atime.toISOString()); fs.chmodSync('f.txt', 0o640); console.log((fs.statSync('f.txt').mode & 0o777).toString(8), (fs.statSync('f.txt').mode & 0o170000).toString(8));`, "f.txt": "twelve bytes" } },
  { name: "fs-stat-bigint", files: { "case.js": js`const s = require('fs').statSync('f.txt', { bigint: true }); console.log(typeof s.size, s.size, s.isFile());`, "f.txt": "twelve bytes" } },
  { name: "fs-errors", code: js`const fs = require('fs'); const tries = [() => fs.readFileSync('missing.txt'), () => fs.openSync('.', 'w'), () => fs.readdirSync('case.js'), () => fs.unlinkSync('.'), () => fs.writeFileSync('no/dir/f', 'x'), () => fs.readFileSync('.'), () => fs.renameSync('missing', 'x'), () => fs.symlinkSync('a', 'case.js'), () => fs.linkSync('missing', 'y'), () => fs.openSync('missing', 'r'), () => fs.readlinkSync('case.js'), () => fs.accessSync('missing'), () => fs.copyFileSync('missing', 'z'), () => fs.mkdirSync('case.js/sub')]; for (const t of tries) { try { t(); console.log('no error'); } catch (e) { console.log(e.code, e.errno, e.syscall, e.message.split(process.cwd()).join('.'), e instanceof Error); } } try { fs.readFileSync('missing'); } catch (e) { console.log(Object.keys(e).sort().join()); }` },
  { name: "fs-callbacks", code: js`const fs = require('fs'); fs.writeFile('a.txt', 'cb data', (err) => { console.log('written', err); fs.readFile('a.txt', 'utf8', (err, d) => { console.log('read', err, d); fs.stat('a.txt', (err, s) => { console.log('stat', err, s.size); fs.readFile('missing', (err, d) => { console.log('missing', err.code, d); fs.readdir('.', (err, l) => { console.log('readdir', err, l.sort()); fs.unlink('a.txt', (err) => console.log('unlinked', err, fs.existsSync('a.txt'))); }); }); }); }); }); console.log('sync first');` },
  { name: "fs-promises", files: { "case.mjs": js`import fsp from 'node:fs/promises'; import { promises } from 'node:fs'; console.log(fsp === promises); await fsp.writeFile('p.txt', 'promised'); console.log(await fsp.readFile('p.txt', 'utf8')); await fsp.appendFile('p.txt', '!'); console.log((await fsp.stat('p.txt')).size); await fsp.mkdir('a/b', { recursive: true }); console.log((await fsp.readdir('.')).sort()); try { await fsp.readFile('missing'); } catch (e) { console.log(e.code, e.message); } try { await fsp.access('missing'); } catch (e) { console.log(e.code); } const t = await fsp.mkdtemp('tmp-'); console.log(t.length, t.startsWith('tmp-')); await fsp.rm('a', { recursive: true }); await fsp.rename('p.txt', 'q.txt'); console.log(await fsp.readFile('q.txt', 'utf8')); await fsp.copyFile('q.txt', 'r.txt'); console.log((await fsp.readdir('.')).filter((n) => !n.startsWith('tmp-')).sort()); console.log(await fsp.realpath('.') === process.cwd());` }, args: ["case.mjs"] },
  { name: "fs-filehandle", files: { "case.mjs": js`import { open } from 'node:fs/promises'; const fh = await open('f.txt', 'w+'); console.log(typeof fh.fd); const w = await fh.write('hello world'); console.log(w.bytesWritten); const buf = Buffer.alloc(5); const r = await fh.read(buf, 0, 5, 6); console.log(r.bytesRead, buf.toString()); console.log((await fh.stat()).size); await fh.truncate(5); console.log(await fh.readFile('utf8')); await fh.close(); const fh2 = await open('f.txt'); console.log(await fh2.readFile({ encoding: 'utf8' })); await fh2.close(); try { await open('missing'); } catch (e) { console.log(e.code); } for await (const line of (await open('l.txt')).readLines()) console.log('line', line);`, "l.txt": "one\ntwo\n" }, args: ["case.mjs"] },
  { name: "fs-fd-sync", code: js`const fs = require('fs'); const fd = fs.openSync('f.bin', 'w+'); console.log(fs.writeSync(fd, 'abcdef'), fs.writeSync(fd, Buffer.from('XY'), 0, 2, 1)); const b = Buffer.alloc(10); console.log(fs.readSync(fd, b, 0, 10, 0), b.toString('utf8', 0, 6)); fs.ftruncateSync(fd, 3); console.log(fs.fstatSync(fd).size); fs.fsyncSync(fd); fs.closeSync(fd); console.log(fs.readFileSync('f.bin', 'utf8')); try { fs.closeSync(fd); } catch (e) { console.log(e.code, e.syscall); } const fd2 = fs.openSync('f.bin', 'a'); fs.writeSync(fd2, 'Z'); fs.closeSync(fd2); console.log(fs.readFileSync('f.bin', 'utf8')); try { fs.openSync('f.bin', 'wx'); } catch (e) { console.log(e.code, e.message.replace(process.cwd(), '.')); }` },
  { name: "fs-streams", code: js`const fs = require('fs'); fs.writeFileSync('big.txt', 'x'.repeat(100000)); const chunks = []; fs.createReadStream('big.txt', { highWaterMark: 16384 }).on('data', (c) => chunks.push(c.length)).on('end', () => { console.log(chunks); const ws = fs.createWriteStream('out.txt'); ws.write('a'); ws.write('b'); ws.end('c', () => { console.log('ended', fs.readFileSync('out.txt', 'utf8'), ws.bytesWritten); fs.createReadStream('out.txt', { encoding: 'utf8', start: 1, end: 2 }).on('data', (d) => console.log('range', d)).on('close', () => console.log('close')); }); ws.on('finish', () => console.log('finish')); }); fs.createReadStream('missing').on('error', (e) => console.log('error', e.code));` },
  { name: "fs-stream-pipe", code: js`const fs = require('fs'); fs.writeFileSync('src.txt', 'line1\nline2\n'); fs.createReadStream('src.txt').pipe(fs.createWriteStream('dst.txt')).on('finish', () => { console.log(fs.readFileSync('dst.txt', 'utf8')); fs.createReadStream('dst.txt').pipe(process.stdout); });` },
  { name: "fs-rename-copy-links", code: js`const fs = require('fs'); fs.writeFileSync('a', 'A'); fs.renameSync('a', 'b'); console.log(fs.existsSync('a'), fs.readFileSync('b', 'utf8')); fs.copyFileSync('b', 'c'); fs.symlinkSync('c', 'lc'); console.log(fs.readlinkSync('lc'), fs.realpathSync('lc') === fs.realpathSync('c'), require('path').basename(fs.realpathSync('lc'))); fs.linkSync('c', 'hc'); console.log(fs.statSync('c').nlink); fs.mkdirSync('dir/sub', { recursive: true }); fs.writeFileSync('dir/sub/f', 'F'); fs.cpSync('dir', 'dir2', { recursive: true }); console.log(fs.readFileSync('dir2/sub/f', 'utf8')); fs.unlinkSync('lc'); console.log(fs.existsSync('lc'), fs.existsSync('c')); try { fs.copyFileSync('b', 'c', fs.constants.COPYFILE_EXCL); } catch (e) { console.log(e.code); } const d = fs.opendirSync('dir2'); let e; const names = []; while ((e = d.readSync())) names.push(e.name); d.closeSync(); console.log(names);` },
  { name: "fs-encodings-constants", code: js`const fs = require('fs'); fs.writeFileSync('e.txt', 'héllo'); for (const enc of ['utf8', 'base64', 'hex', 'latin1', 'ascii', 'utf16le', 'base64url']) console.log(enc, JSON.stringify(fs.readFileSync('e.txt', enc))); fs.writeFileSync('h.txt', '68656c6c6f', 'hex'); console.log(fs.readFileSync('h.txt', 'utf8')); console.log(fs.constants.O_RDONLY, fs.constants.O_CREAT, fs.constants.O_TRUNC, fs.constants.O_APPEND, fs.constants.S_IFMT, fs.constants.F_OK, fs.constants.R_OK, fs.constants.W_OK, fs.constants.X_OK); fs.accessSync('e.txt', fs.constants.R_OK | fs.constants.W_OK); console.log('access ok');` },
  { name: "fs-write-stream-errors", code: js`const fs = require('fs'); const ws = fs.createWriteStream('nodir/f.txt'); ws.on('error', (e) => console.log('ws error', e.code, e.syscall)); ws.on('close', () => { console.log('ws close'); fs.promises.readFile('missing').catch((e) => console.log('promise', e.code, e.errno)); });` },

  // ---------------------------------------------------------------- path, url, querystring
  { name: "path", code: js`const path = require('path'); console.log(path.join('/a/b', '../c', './d.txt'), path.join('a', '', 'b/'), path.join(), path.normalize('/a//b/../c/.'), path.normalize('')); console.log(path.resolve('/x', 'y', '..', 'z'), path.resolve('rel') === process.cwd() + '/rel', path.relative('/a/b/c', '/a/d'), path.relative('/a', '/a')); console.log(path.parse('/home/u/file.tar.gz'), path.format({ dir: '/x', name: 'n', ext: '.e' })); console.log(path.extname('a.b.c'), path.extname('.bashrc'), path.basename('/a/b.js', '.js'), path.dirname('/a/b/'), path.dirname('a'), path.isAbsolute('./x'), path.sep, path.delimiter, path.posix === path, path.win32.join('a', 'b'), path.toNamespacedPath('/x'), path.posix.sep);` },
  { name: "url-whatwg", code: js`const u = new URL('https://user:pw@example.com:8080/p/a/t/h?query=string&a=1#hash'); console.log(u.href, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash, u.origin); u.searchParams.append('b', 'x y'); u.pathname = '/new path'; console.log(u.toString(), JSON.stringify(u)); console.log(new URL('../x?y#z', 'http://h/a/b/c').href, new URL('HTTP://EXAMPLE.com:80/%7Efoo').href, new URL('file:///tmp/a b').pathname); try { new URL('not a url'); } catch (e) { console.log(e.name, e.code, e.message, e.input); } console.log(URL.canParse('http://x'), URL.canParse('x')); console.log(u); console.log(new URL('http://[::1]:3000/').hostname, new URL('http://münchen.de/').hostname);` },
  { name: "url-search-params", code: js`const p = new URLSearchParams('a=1&b=2&a=3&c=%20x+y'); console.log(p.get('a'), p.getAll('a'), p.has('b'), p.get('c'), p.get('z')); p.set('a', 'only'); p.delete('b'); p.append('d', 'é&='); p.sort(); console.log(p.toString(), [...p], [...p.keys()], p.size); console.log(new URLSearchParams({ x: '1', y: 'two words' }).toString(), new URLSearchParams([['k', 'v']]).toString()); console.log(p); for (const [k, v] of new URLSearchParams('q=1&r=2')) console.log(k, v);` },
  { name: "url-file-and-legacy", code: js`const url = require('url'); console.log(url.fileURLToPath('file:///tmp/a%20b/c.js'), url.pathToFileURL('/tmp/a b/#c.js').href, url.pathToFileURL('/x').href); try { url.fileURLToPath('http://x/y'); } catch (e) { console.log(e.code, e.message); } const parsed = url.parse('http://u@host.com:81/p?x=1&y=2#h', true); console.log(parsed.host, parsed.port, parsed.pathname, parsed.query, parsed.hash, parsed.auth, parsed.href); console.log(url.format({ protocol: 'https', hostname: 'ex.com', pathname: '/a', query: { b: 1 } })); console.log(url.resolve('http://a/b/c', '../d'), url.URL === URL, url.domainToASCII('münchen.de'), url.format(new URL('http://a:b@c/d?e#f'), { auth: false, search: false, fragment: false }));` },
  { name: "querystring", code: js`const qs = require('querystring'); console.log(qs.parse('a=1&b=2&a=3&c=%20x+y&d'), qs.stringify({ a: [1, 2], b: 'x y', c: '', d: null, e: 'é' }), qs.escape('a b&c'), qs.unescape('%41+b'), qs.parse('a:1;b:2', ';', ':'), qs.encode === qs.stringify, qs.stringify({ w: 'a' }, ';', ':'));` },

  // ---------------------------------------------------------------- events
  { name: "events-basics", code: js`const EventEmitter = require('events'); const e = new EventEmitter(); e.on('x', (a, b) => console.log('on', a, b)); e.prependListener('x', () => console.log('prepended')); e.once('x', () => console.log('once')); console.log(e.emit('x', 1, 2), e.emit('x', 3), e.emit('nobody'), e.listenerCount('x'), e.eventNames()); const f = () => console.log('removed?'); e.on('y', f); e.off('y', f); e.emit('y'); e.on('newListener', (n) => console.log('newListener', n)); e.on('z', () => {}); console.log(e.getMaxListeners(), EventEmitter.defaultMaxListeners, e.rawListeners('x').length, EventEmitter.EventEmitter === EventEmitter, typeof require('node:events').once); e.removeAllListeners(); console.log(e.eventNames());` },
  { name: "events-once-promise", files: { "case.mjs": js`import { EventEmitter, once } from 'node:events'; const e = new EventEmitter(); setTimeout(() => e.emit('go', 1, 2), 1); console.log(await once(e, 'go')); setTimeout(() => e.emit('error', new Error('boom')), 1); try { await once(e, 'never'); } catch (err) { console.log('rejected', err.message); }` }, args: ["case.mjs"] },
  { name: "events-on-async-iterator", code: js`const { EventEmitter, on } = require('events'); const e = new EventEmitter(); setTimeout(() => { e.emit('tick', 'a'); e.emit('tick', 'b'); e.emit('end'); }, 1); const ac = new AbortController(); e.once('end', () => ac.abort()); (async () => { try { for await (const [v] of on(e, 'tick', { signal: ac.signal })) console.log('tick', v); } catch (err) { console.log(err.name); } })();` },
  { name: "events-error-no-listener", code: js`const EventEmitter = require('events'); const e = new EventEmitter(); console.log('before'); e.emit('error', new Error('unhandled boom'));` },
  { name: "events-error-non-error", code: js`const EventEmitter = require('events'); new EventEmitter().emit('error', 'just a string');` },
  { name: "events-class-and-target", code: js`const EventEmitter = require('events'); class My extends EventEmitter { go() { this.emit('go', this instanceof My); } } const m = new My(); m.on('go', function (x) { console.log('go', x, this === m); }); m.go(); const t = new EventTarget(); t.addEventListener('ping', (ev) => console.log('ping', ev.type, ev instanceof Event, ev.detail), { once: true }); t.dispatchEvent(new Event('ping')); t.dispatchEvent(new Event('ping')); const m2 = new EventEmitter({ captureRejections: true }); m2.on('x', async () => { throw new Error('async fail'); }); m2.on('error', (err) => console.log('captured', err.message)); m2.emit('x');` },

  // ---------------------------------------------------------------- stream
  { name: "stream-readable-from", files: { "case.mjs": js`import { Readable } from 'node:stream'; for await (const c of Readable.from(['a', 'b', 'c'])) console.log('chunk', c); const r = Readable.from((function* () { yield 1; yield 2; })()); r.on('data', (d) => console.log('data', d)); r.on('end', () => console.log('end')); await new Promise((res) => r.on('close', res)); const arr = await Readable.from([1, 2, 3, 4]).filter((x) => x % 2 === 0).map((x) => x * 10).toArray(); console.log(arr);` }, args: ["case.mjs"] },
  { name: "stream-pipeline-transform", code: js`const { pipeline, Transform, Readable, Writable } = require('stream'); const out = []; pipeline(Readable.from(['hello ', 'world']), new Transform({ transform(chunk, enc, cb) { cb(null, chunk.toString().toUpperCase()); }, flush(cb) { this.push('!'); cb(); } }), new Writable({ write(chunk, enc, cb) { out.push(chunk.toString()); cb(); } }), (err) => console.log('done', err, out));` },
  { name: "stream-promises-pipeline", files: { "case.mjs": js`import { pipeline } from 'node:stream/promises'; import { Readable, Transform, PassThrough } from 'node:stream'; import fs from 'node:fs'; await pipeline(Readable.from(['x', 'y', 'z']), new Transform({ transform(c, e, cb) { cb(null, c + '\n'); } }), fs.createWriteStream('o.txt')); console.log(fs.readFileSync('o.txt', 'utf8')); try { await pipeline(Readable.from(['a']), new Transform({ transform(c, e, cb) { cb(new Error('transform failed')); } }), new PassThrough()); } catch (e) { console.log('caught', e.message); } await pipeline(Readable.from(['to stdout\n']), process.stdout.constructor === undefined ? null : new PassThrough(), async function* (src) { for await (const c of src) yield c.toString().trim() + '!'; }, async (src) => { for await (const c of src) console.log('sink', c); });` }, args: ["case.mjs"] },
  { name: "stream-object-mode-backpressure", code: js`const { Writable, Readable, Duplex, PassThrough, finished } = require('stream'); const w = new Writable({ highWaterMark: 2, objectMode: true, write(o, e, cb) { setTimeout(cb, 1); } }); const results = []; for (let i = 0; i < 4; i++) results.push(w.write({ i })); console.log(results, w.writableLength, w.writableHighWaterMark); w.once('drain', () => console.log('drain')); w.end(); finished(w, (err) => console.log('finished', err)); const r = new Readable({ read() {} }); r.push('a'); r.push('b'); r.push(null); r.setEncoding('utf8'); let s = ''; r.on('data', (d) => (s += d)).on('end', () => console.log('read', s, r.readableEnded)); const pt = new PassThrough(); pt.end('pt'); pt.on('data', (d) => console.log('pt', d.toString())); const d = new Duplex({ read() { this.push('dup'); this.push(null); }, write(c, e, cb) { console.log('dup got', c.toString()); cb(); } }); d.on('data', (c) => console.log('dup read', c.toString())); d.end('in');` },
  { name: "stream-events-order", code: js`const { Writable, Readable } = require('stream'); const w = new Writable({ write(c, e, cb) { console.log('write', c.toString()); cb(); }, final(cb) { console.log('final'); cb(); } }); for (const ev of ['finish', 'close', 'prefinish']) w.on(ev, () => console.log(ev)); w.write('1'); w.end('2'); const r = new Readable({ read() { this.push('r'); this.push(null); } }); for (const ev of ['end', 'close']) r.on(ev, () => console.log('r ' + ev)); r.on('data', (d) => console.log('r data', d.toString())); const bad = new Writable({ write(c, e, cb) { cb(new Error('write failed')); } }); bad.on('error', (e) => console.log('error', e.message, bad.destroyed)); bad.on('close', () => console.log('bad close')); bad.write('x'); const rr = new Readable({ read() {} }); rr.on('error', (e) => console.log('rr error', e.message)); rr.on('close', () => console.log('rr close')); rr.destroy(new Error('destroyed'));` },
  { name: "stream-pause-resume-readable", code: js`const { Readable } = require('stream'); const r = new Readable({ read() {} }); ['a', 'b', 'c'].forEach((x) => r.push(x)); r.push(null); r.once('readable', () => { let c; const got = []; while ((c = r.read(1)) !== null) got.push(c.toString()); console.log('read(1)', got); }); r.on('end', () => console.log('end')); const r2 = Readable.from(['x', 'y']); r2.pause(); console.log(r2.isPaused()); r2.on('data', (d) => console.log('r2', d)); r2.resume(); console.log(typeof Readable.prototype[Symbol.asyncIterator], typeof require('stream').Stream, require('stream').Readable === require('stream/promises').Readable);` },

  // ---------------------------------------------------------------- buffer, string_decoder
  { name: "buffer-encodings", code: js`const b = Buffer.from('héllo wörld €'); for (const enc of ['base64', 'hex', 'latin1', 'utf16le', 'ascii', 'binary', 'ucs2']) console.log(enc, b.toString(enc)); console.log(Buffer.from('aGVsbG8', 'base64').toString(), Buffer.from('68656c6c6f', 'hex').toString(), Buffer.from('ff', 'latin1'), Buffer.from('zz', 'hex'), Buffer.from('ÿ', 'ascii')); console.log(Buffer.byteLength('€'), Buffer.byteLength('aGk=', 'base64'), Buffer.isEncoding('utf8'), Buffer.isEncoding('nope'), Buffer.from('\u00e9').toString('latin1'));` },
  { name: "buffer-base64url", code: js`console.log(Buffer.from('héllo wörld €').toString('base64url'), Buffer.from('a-_b', 'base64url'), Buffer.isEncoding('base64url'));` },
  { name: "buffer-read-write-ints", code: js`const b = Buffer.from([1, 2, 3, 4, 5, 6, 7, 8, 0xff, 0x80]); console.log(b.readUInt8(0), b.readUInt16LE(0), b.readUInt16BE(0), b.readUInt32LE(0), b.readUInt32BE(0), b.readInt8(8), b.readInt16BE(8), b.readBigUInt64LE(0), b.readBigInt64BE(2), b.readUIntBE(0, 3), b.readIntLE(8, 2), b.readFloatLE(0), b.readDoubleBE(0)); const w = Buffer.alloc(8); console.log(w.writeUInt32BE(0xdeadbeef, 0), w.writeInt16LE(-2, 4), w.writeUInt8(255, 6), w); w.writeDoubleLE(1.5); console.log(w); try { b.readUInt8(10); } catch (e) { console.log(e.name, e.code, e.message); } try { w.writeUInt8(256, 0); } catch (e) { console.log(e.code, e.message); }` },
  { name: "buffer-ops", code: js`const a = Buffer.from('abc'), b = Buffer.from('abd'); console.log(Buffer.concat([a, b]), Buffer.concat([a, b], 4).toString(), Buffer.compare(a, b), a.compare(b), a.equals(Buffer.from('abc')), [b, a].sort(Buffer.compare).map(String)); const c = Buffer.from('hello world'); console.log(c.indexOf('o'), c.lastIndexOf('o'), c.includes('wor'), c.indexOf(Buffer.from('z'))); const s = c.subarray(0, 5); s[0] = 72; console.log(c.toString(), c.slice(-5).toString()); console.log(Buffer.alloc(3, 'ab'), Buffer.alloc(2).fill(7), Buffer.allocUnsafe(5).length, Buffer.from([256, -1, 1.9]), Buffer.from(Buffer.from('x')), Buffer.from(new Uint16Array([1, 2]).buffer)); console.log(JSON.stringify(Buffer.from('hi')), a.toJSON(), Buffer.isBuffer(a), Buffer.isBuffer(new Uint8Array(1)), a instanceof Uint8Array); const t = Buffer.alloc(6); t.write('xyz', 2); console.log(t, Buffer.from([1, 2, 3, 4]).swap16(), a.copy(t, 0, 1), t.toString('latin1')); console.log(Buffer.poolSize, require('buffer').kMaxLength > 0); console.log([...Buffer.from('hi').entries()], Buffer.from('€').length, Buffer.from('abc').reverse().toString());` },
  { name: "buffer-module-constants", code: js`const b = require('buffer'); console.log(typeof b.constants, b.constants && b.constants.MAX_LENGTH === b.kMaxLength, typeof b.Blob, typeof b.atob, typeof b.isUtf8, b.INSPECT_MAX_BYTES);` },
  { name: "buffer-blob-base64-globals", files: { "case.mjs": js`const blob = new Blob(['ab', 'cd'], { type: 'text/plain' }); console.log(blob.size, blob.type, await blob.text(), Buffer.from(await blob.arrayBuffer()).toString('hex'), await blob.slice(1, 3).text()); console.log(btoa('hello'), atob('aGVsbG8='), Buffer.from('hello').toString('base64') === btoa('hello')); try { atob('%'); } catch (e) { console.log(e.name); }` }, args: ["case.mjs"] },
  { name: "string-decoder", code: js`const { StringDecoder } = require('string_decoder'); const d = new StringDecoder('utf8'); const euro = Buffer.from('€'); console.log(JSON.stringify(d.write(euro.subarray(0, 1))), JSON.stringify(d.write(euro.subarray(1))), JSON.stringify(d.end())); console.log(JSON.stringify(d.write(Buffer.from([0xe2, 0x82]))), JSON.stringify(d.end())); const h = new StringDecoder('hex'); console.log(h.write(Buffer.from('ab')), h.end(Buffer.from('c'))); const b = new StringDecoder('base64'); console.log(b.write(Buffer.from('a')), b.write(Buffer.from('bc')), b.end()); const u = new StringDecoder('utf16le'); console.log(u.write(Buffer.from([0x61])), u.write(Buffer.from([0x00, 0x62])), u.end(Buffer.from([0]))); console.log(d.encoding, new StringDecoder().encoding, new StringDecoder('latin1').write(Buffer.from([0xe9])));` },

  // ---------------------------------------------------------------- crypto
  { name: "crypto-hashes", code: js`const crypto = require('crypto'); for (const alg of ['md5', 'sha1', 'sha256', 'sha512', 'sha384', 'sha224']) console.log(alg, crypto.createHash(alg).update('hello').digest('hex')); console.log(crypto.createHash('sha256').update('a').update(Buffer.from('b')).digest('base64'), crypto.createHash('sha256').update('héllo', 'utf8').digest().length, crypto.createHash('SHA256').update('x').digest('latin1').length); const h = crypto.createHash('sha1'); h.update('x'); const copy = h.copy(); console.log(h.digest('hex') === copy.digest('hex')); try { crypto.createHash('nope'); } catch (e) { console.log(e.message, e.code); } try { h.digest(); } catch (e) { console.log(e.code, e.message); } console.log(crypto.getHashes().includes('sha256'), typeof crypto.hash);` },
  { name: "crypto-hmac-cipher", code: js`const crypto = require('crypto'); console.log(crypto.createHmac('sha256', 'key').update('data').digest('hex'), crypto.createHmac('md5', Buffer.from('k')).update('d').digest('base64')); const key = Buffer.alloc(32, 1), iv = Buffer.alloc(16, 2); const c = crypto.createCipheriv('aes-256-cbc', key, iv); const enc = Buffer.concat([c.update('secret message'), c.final()]); console.log(enc.toString('hex')); const d = crypto.createDecipheriv('aes-256-cbc', key, iv); console.log(Buffer.concat([d.update(enc), d.final()]).toString()); console.log(crypto.timingSafeEqual(Buffer.from('a'), Buffer.from('a')));` },
  { name: "crypto-kdf", code: js`const crypto = require('crypto'); console.log(crypto.scryptSync('pw', 'salt', 16).toString('hex')); console.log(crypto.pbkdf2Sync('pw', 'salt', 1000, 32, 'sha256').toString('hex')); crypto.pbkdf2('pw', 'salt', 1, 8, 'sha1', (e, k) => console.log('async kdf', e, k.toString('hex')));` },
  { name: "crypto-digest-base64url", code: js`console.log(require('crypto').createHash('sha256').update('x').digest('base64url'));` },
  { name: "crypto-random", code: js`const crypto = require('crypto'); console.log(crypto.randomBytes(16).length, Buffer.isBuffer(crypto.randomBytes(4)), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(crypto.randomUUID()), /^[0-9a-f-]{36}$/.test(globalThis.crypto.randomUUID())); const n = crypto.randomInt(10); console.log(n >= 0 && n < 10, Number.isInteger(crypto.randomInt(5, 6))); const a = new Uint32Array(4); console.log(globalThis.crypto.getRandomValues(a) === a, crypto.webcrypto === globalThis.crypto); crypto.randomBytes(8, (e, b) => console.log('async', e, b.length)); crypto.randomFill(Buffer.alloc(3), (e, b) => console.log('fill', e, b.length)); console.log(typeof crypto.randomUUID(), Math.random() < 1);` },
  { name: "crypto-subtle", files: { "case.mjs": js`const d = await crypto.subtle.digest('SHA-256', new TextEncoder().encode('hello')); console.log(Buffer.from(d).toString('hex')); const key = await crypto.subtle.importKey('raw', new TextEncoder().encode('k'), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']); console.log(Buffer.from(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode('data'))).toString('hex'));` }, args: ["case.mjs"] },

  // ---------------------------------------------------------------- zlib
  { name: "zlib-roundtrip", code: js`const zlib = require('zlib'); const input = 'hello '.repeat(100); const gz = zlib.gzipSync(input); console.log(gz[0], gz[1], zlib.gunzipSync(gz).toString() === input, zlib.inflateSync(zlib.deflateSync(input)).toString().length, zlib.inflateRawSync(zlib.deflateRawSync('raw')).toString(), zlib.unzipSync(zlib.deflateSync('u')).toString(), zlib.brotliDecompressSync(zlib.brotliCompressSync(input)).toString() === input); console.log(zlib.deflateSync('abc').toString('base64'), zlib.deflateRawSync('aaaaaaaaaa').toString('hex'), zlib.gzipSync('x').length); console.log(zlib.gunzipSync(Buffer.from('H4sIAAAAAAAAA8tIzcnJBwCGphA2BQAAAA==', 'base64')).toString()); try { zlib.gunzipSync(Buffer.from('not gzip')); } catch (e) { console.log(e.code, e.errno, e.message); } console.log(typeof zlib.constants.Z_BEST_COMPRESSION, zlib.constants.Z_BEST_COMPRESSION);` },
  { name: "zlib-async-streams", code: js`const zlib = require('zlib'); const { pipeline, Readable, Writable } = require('stream'); zlib.gzip('async data', (e, buf) => zlib.gunzip(buf, (e2, out) => { console.log('cb', e, e2, out.toString()); next(); })); const next = () => { const parts = []; pipeline(Readable.from(['a'.repeat(1000), 'b'.repeat(1000)]), zlib.createGzip(), zlib.createGunzip(), new Writable({ write(c, e, cb) { parts.push(c); cb(); } }), (err) => { console.log('pipeline', err, Buffer.concat(parts).length); next2(); }); }; const next2 = () => require('util').promisify(zlib.deflate)('p').then((b) => console.log('promisified', zlib.inflateSync(b).toString()));` },

  // ---------------------------------------------------------------- child_process
  { name: "cp-execsync", code: js`const cp = require('child_process'); console.log(JSON.stringify(cp.execSync('echo hi').toString()), JSON.stringify(cp.execSync('echo a; echo b', { encoding: 'utf8' }))); console.log(cp.execSync('cat', { input: 'from input' }).toString()); console.log(cp.execSync('echo "$FOO"', { env: { FOO: 'env-x', PATH: process.env.PATH } }).toString().trim()); console.log(cp.execSync('pwd', { cwd: 'sub', encoding: 'utf8' }).trim() === require('path').join(process.cwd(), 'sub')); try { cp.execSync('echo out; echo err >&2; exit 3', { stdio: 'pipe' }); } catch (e) { console.log(e.status, e.signal, JSON.stringify(e.stdout.toString()), JSON.stringify(e.stderr.toString()), e.message.split('\n')[0], e.pid > 0); }`, files: { "sub/.keep": "" } },
  { name: "cp-spawnsync", code: js`const cp = require('child_process'); const r = cp.spawnSync('sh', ['-c', 'echo out; echo err >&2; exit 2']); console.log(r.status, r.signal, r.stdout.toString(), r.stderr.toString(), r.output.length, r.error); const r2 = cp.spawnSync('cat', { input: 'in', encoding: 'utf8' }); console.log(r2.stdout, r2.status); const r3 = cp.spawnSync('nonexistent-cmd-xyz'); console.log(r3.error && r3.error.code, r3.error && r3.error.syscall, r3.error && r3.error.path, r3.status, r3.error && r3.error.message); const r4 = cp.spawnSync('sh', ['-c', 'kill -TERM $$']); console.log(r4.status, r4.signal); console.log(cp.execFileSync('sh', ['-c', 'echo $0 $1', 'x', 'y'], { encoding: 'utf8' }));` },
  { name: "cp-spawn-pipes", code: js`const { spawn } = require('child_process'); const c = spawn('cat'); let out = ''; c.stdout.on('data', (d) => (out += d)); c.on('exit', (code, sig) => console.log('exit', code, sig)); c.on('close', (code) => { console.log('close', code, JSON.stringify(out)); const s = spawn('sh', ['-c', 'echo o; echo e >&2; exit 4']); let so = '', se = ''; s.stdout.setEncoding('utf8').on('data', (d) => (so += d)); s.stderr.setEncoding('utf8').on('data', (d) => (se += d)); s.on('close', (code) => console.log('sh close', code, JSON.stringify(so), JSON.stringify(se))); }); c.stdin.write('abc'); c.stdin.end('def'); console.log(typeof c.pid, c.exitCode, c.killed);` },
  { name: "cp-exec-errors", code: js`const cp = require('child_process'); cp.exec('nonexistent-cmd-xyz', (e, so, se) => { console.log('exec', e.code, e.killed, e.signal, JSON.stringify(so), e.cmd); cp.exec('exit 5', (e) => { console.log('exit', e.code, e instanceof Error, e.message.split('\n')[0]); cp.exec('echo fine', (e, so) => console.log('fine', e, so)); }); }); const s = cp.spawn('nonexistent-cmd-xyz'); s.on('error', (e) => console.log('spawn error', e.code, e.errno, e.syscall, e.path, e.spawnargs, e.message)); s.on('close', (c) => console.log('spawn close', c));` },
  { name: "cp-kill-child", code: js`const { spawn } = require('child_process'); const c = spawn('sleep', ['10']); c.on('exit', (code, sig) => console.log('exit', code, sig, c.killed, c.signalCode)); setTimeout(() => console.log('kill returned', c.kill()), 20);` },
  { name: "cp-node-spawns-node", files: { "case.js": js`const cp = require('child_process'); const r = cp.spawnSync(process.execPath, ['-e', 'console.log(process.argv.slice(1)); process.exitCode = 6', 'x'], { encoding: 'utf8' }); console.log(r.status, r.stdout); console.log(cp.execFileSync(process.execPath, ['child.js', 'arg'], { input: 'stdin text', encoding: 'utf8' })); const c = cp.spawn(process.execPath, ['child.js', 'async'], { stdio: ['pipe', 'pipe', 'inherit'] }); let o = ''; c.stdout.on('data', (d) => (o += d)); c.on('close', (code) => console.log('async child', code, JSON.stringify(o))); c.stdin.end('piped');`, "child.js": js`let s = ''; process.stdin.on('data', (d) => (s += d)); process.stdin.on('end', () => { console.log('child got', JSON.stringify(s), process.argv.slice(2)); console.error('child stderr'); });` } },
  { name: "cp-inherit", code: js`const cp = require('child_process'); console.log('parent 1'); cp.execSync('echo child sync', { stdio: 'inherit' }); console.log('parent 2'); const c = cp.spawn('sh', ['-c', 'echo child async; echo to err >&2; exit 1'], { stdio: 'inherit' }); c.on('close', (code) => { console.log('parent 3', code); process.exitCode = code; });` },
  { name: "cp-fork", files: { "case.js": js`const { fork } = require('child_process'); const c = fork('child.js'); c.on('message', (m) => { console.log('parent got', m); c.send({ bye: true }); }); c.on('exit', (code) => console.log('child exit', code));`, "child.js": js`process.on('message', (m) => { console.log('child got', m); process.disconnect(); }); process.send({ hello: 'world' });` } },

  // ---------------------------------------------------------------- modules: CommonJS
  { name: "cjs-relative", files: { "case.js": js`console.log(require('./lib').name, require('./lib.js') === require('./lib'), require('./dir').name, require('./pkgdir').name, require('./data.json'), require('./data').n, require('./sub/../lib').name); console.log(module.id, require.main === module, require('./lib').isMain, typeof require.resolve, require.resolve('./lib').replace(__dirname, '.'), require.resolve('./dir').replace(__dirname, '.'), __filename.replace(__dirname, '.'), require('path').basename(__dirname) === require('path').basename(process.cwd()));`, "lib.js": js`exports.name = 'lib'; exports.isMain = require.main === module;`, "dir/index.js": js`module.exports = { name: 'dir index' };`, "pkgdir/package.json": js`{ "main": "./main-file.js" }`, "pkgdir/main-file.js": js`module.exports.name = 'pkgdir main';`, "data.json": js`{ "n": 42, "list": [1, 2] }` } },
  { name: "cjs-node-modules", files: { "case.js": js`console.log(require('plain').v, require('withmain').v, require('cond').v, require('cond/feature').v, require('@scope/pkg').v, require('nested-user').v, require('plain/package.json').version); try { require('cond/private.js'); } catch (e) { console.log(e.code, e.message.replace(__dirname, '<DIR>')); } console.log(require.resolve('cond').replace(__dirname, '.'), require.resolve('withmain').replace(__dirname, '.'));`, "node_modules/plain/index.js": js`exports.v = 'plain';`, "node_modules/plain/package.json": js`{ "name": "plain", "version": "1.2.3" }`, "node_modules/withmain/package.json": js`{ "name": "withmain", "main": "lib/entry" }`, "node_modules/withmain/lib/entry.js": js`exports.v = 'withmain';`, "node_modules/cond/package.json": js`{ "name": "cond", "exports": { ".": { "import": "./e.mjs", "require": "./c.js" }, "./feature": { "node": "./feat-node.js", "default": "./feat.js" }, "./package.json": "./package.json" } }`, "node_modules/cond/c.js": js`exports.v = 'cond cjs';`, "node_modules/cond/e.mjs": js`export const v = 'cond esm';`, "node_modules/cond/feat-node.js": js`exports.v = 'feature node';`, "node_modules/cond/feat.js": js`exports.v = 'feature default';`, "node_modules/cond/private.js": js`exports.v = 'private';`, "node_modules/@scope/pkg/package.json": js`{ "name": "@scope/pkg", "exports": "./dist/index.js" }`, "node_modules/@scope/pkg/dist/index.js": js`exports.v = 'scoped';`, "node_modules/nested-user/index.js": js`exports.v = 'nested uses ' + require('dep').v;`, "node_modules/nested-user/node_modules/dep/index.js": js`exports.v = 'inner dep';`, "node_modules/dep/index.js": js`exports.v = 'outer dep';` } },
  { name: "cjs-cycles-and-cache", files: { "case.js": js`const a = require('./a'); console.log('main sees', a.done, a.bSawA); const key = require.resolve('./counter'); console.log(require('./counter').n, require('./counter').n, key in require.cache, require.cache[key].loaded, require.cache[key].exports === require('./counter')); delete require.cache[key]; console.log(require('./counter').n, module.children.length, module.loaded, typeof module.paths, module.filename === __filename, typeof module.require);`, "a.js": js`exports.done = false; const b = require('./b'); exports.bSawA = b.sawA; exports.done = true;`, "b.js": js`const a = require('./a'); exports.sawA = JSON.stringify(a); console.log('b sees partial a', a.done);`, "counter.js": js`globalThis.loads = (globalThis.loads || 0) + 1; exports.n = globalThis.loads;` } },
  { name: "cjs-module-exports-shapes", files: { "case.js": js`console.log(require('./fn')(2), require('./cls').name, new (require('./cls'))().v, require('./mixed'), require('./this'), typeof require('./empty'), require('./empty'));`, "fn.js": js`module.exports = (x) => x * 21;`, "cls.js": js`module.exports = class Klass { v = 'inst'; };`, "mixed.js": js`exports.a = 1; module.exports.b = 2;`, "this.js": js`this.viaThis = true; console.log(this === module.exports, typeof arguments, arguments.length);`, "empty.js": "" } },
  { name: "cjs-missing-module", code: js`try { require('nope'); } catch (e) { console.log(e.code, e.message.replace(process.cwd(), '<DIR>'), e.requireStack.map((p) => p.replace(process.cwd(), '<DIR>'))); } try { require('./nope'); } catch (e) { console.log(e.code, e.message.split('\n')[0].replace(process.cwd(), '<DIR>')); } try { require.resolve('nope'); } catch (e) { console.log(e.code); } console.log(require('module').builtinModules.includes('fs'), require('node:fs') === require('fs'), require('fs/promises') === require('fs').promises, require('module').isBuiltin('node:path'), require('module').isBuiltin('nope'));` },
  { name: "cjs-uncaught-missing", code: js`require('./does-not-exist');` },
  { name: "cjs-bad-json", files: { "case.js": js`try { require('./bad.json'); } catch (e) { console.log(e.name, e.message.replace(process.cwd(), '<DIR>')); }`, "bad.json": "{ nope }" } },
  { name: "cjs-require-builtins-list", code: js`for (const m of ['assert', 'assert/strict', 'async_hooks', 'buffer', 'child_process', 'console', 'constants', 'crypto', 'diagnostics_channel', 'events', 'fs', 'fs/promises', 'module', 'os', 'path', 'path/posix', 'perf_hooks', 'process', 'punycode', 'querystring', 'readline', 'readline/promises', 'stream', 'stream/promises', 'stream/web', 'string_decoder', 'timers', 'timers/promises', 'tty', 'url', 'util', 'util/types', 'v8', 'vm', 'worker_threads', 'zlib']) { let r; try { r = typeof require(m); } catch (e) { r = 'ERR ' + e.code; } console.log(m, r); } console.log(require('process') === process, require('buffer').Buffer === Buffer, require('console').log === undefined ? 'no' : 'yes', require('util/types').isDate(new Date()));` },
  { name: "cjs-dynamic-import", files: { "case.js": js`import('./esm.mjs').then((m) => { console.log(m.default, m.named, Object.keys(m)); return import('node:path'); }).then((p) => console.log(typeof p.join, typeof p.default.join)).then(() => import('./missing.mjs')).catch((e) => console.log(e.code, e.message.replace(process.cwd(), '<DIR>')));`, "esm.mjs": js`export default 'def'; export const named = 'nm';` } },
  { name: "cjs-shebang-strict", files: { "case.js": "#!/usr/bin/env node\n'use strict';\ntry { undeclared = 1; } catch (e) { console.log(e.name, e.message); }\nconsole.log((function () { return this; })());\n" } },
  { name: "cjs-createrequire", files: { "case.mjs": js`import { createRequire } from 'node:module'; const require = createRequire(import.meta.url); console.log(require('./lib.cjs').v, require('./d.json').x, require.resolve('./lib.cjs').replace(process.cwd(), '.')); const r2 = createRequire(process.cwd() + '/sub/'); console.log(r2('./s.js')); import module from 'node:module'; console.log(typeof module.createRequire, typeof module.builtinModules);`, "lib.cjs": js`exports.v = 'cjs via createRequire';`, "d.json": js`{ "x": 1 }`, "sub/s.js": js`module.exports = 'sub s';` }, args: ["case.mjs"] },

  // ---------------------------------------------------------------- modules: ESM
  { name: "esm-import-cjs", files: { "case.mjs": js`import def, { named, other } from './c.cjs'; import * as ns from './c.cjs'; import fn from './fn.cjs'; console.log(def, named, other, Object.keys(ns).sort(), fn(1)); import json from './d.json' with { type: 'json' }; console.log(json); const dyn = await import('./d.json', { with: { type: 'json' } }); console.log(dyn.default === json);`, "c.cjs": js`exports.named = 'N'; exports.other = 'O'; module.exports.third = 3;`, "fn.cjs": js`module.exports = (x) => x + 1;`, "d.json": js`{ "j": [1] }` }, args: ["case.mjs"] },
  { name: "esm-import-meta", files: { "case.mjs": js`console.log(import.meta.url.replace(process.cwd(), '<DIR>'), import.meta.filename.replace(process.cwd(), '<DIR>'), import.meta.dirname === process.cwd(), typeof import.meta.resolve, import.meta.resolve('./case.mjs').replace(process.cwd(), '<DIR>'), typeof require, typeof __dirname, typeof module, this); console.log(process.argv[1].replace(process.cwd(), '<DIR>'));` }, args: ["case.mjs"] },
  { name: "esm-import-meta-resolve-missing", files: { "case.mjs": js`console.log(import.meta.resolve('./not-there.js').replace(process.cwd(), '<DIR>'));` }, args: ["case.mjs"] },
  { name: "esm-tla-live-binding-cycle", files: { "case.mjs": js`console.log('main start'); import { counter, inc } from './counter.mjs'; import { late } from './tla.mjs'; import { fromA } from './a.mjs'; inc(); inc(); console.log(counter, late, fromA);`, "counter.mjs": js`export let counter = 0; export function inc() { counter++; }`, "tla.mjs": js`console.log('tla start'); await new Promise((r) => setTimeout(r, 5)); export const late = 'after tla'; console.log('tla end');`, "a.mjs": js`import { fromB } from './b.mjs'; export const fromA = 'A+' + fromB; console.log('a eval');`, "b.mjs": js`import * as a from './a.mjs'; export const fromB = 'B'; console.log('b eval', typeof a);` }, args: ["case.mjs"] },
  { name: "esm-type-module-package", files: { "package.json": js`{ "type": "module" }`, "case.js": js`import { x } from './lib.js'; import c from './legacy.cjs'; import cond from 'cond'; console.log(x, c, cond, typeof require);`, "lib.js": js`export const x = 'esm .js';`, "legacy.cjs": js`module.exports = 'cjs in type module';`, "node_modules/cond/package.json": js`{ "exports": { ".": { "import": "./e.mjs", "require": "./c.js" } } }`, "node_modules/cond/e.mjs": js`export default 'esm';`, "node_modules/cond/c.js": js`module.exports = 'cjs';` } },
  { name: "esm-missing-export", files: { "case.mjs": js`import { nope } from './lib.mjs'; console.log(nope);`, "lib.mjs": js`export const yes = 1;` }, args: ["case.mjs"] },
  { name: "esm-missing-module", files: { "case.mjs": js`import './missing.mjs';` }, args: ["case.mjs"] },
  { name: "esm-missing-package", files: { "case.mjs": js`try { await import('nopkg'); } catch (e) { console.log(e.code, e.message.replace(process.cwd(), '<DIR>')); } try { await import('./nofile.js'); } catch (e) { console.log(e.code, e.message.replace(process.cwd(), '<DIR>')); } try { await import('./d.json'); } catch (e) { console.log(e.code, e.message.replace(process.cwd(), '<DIR>')); }`, "d.json": "{}" }, args: ["case.mjs"] },
  { name: "esm-import-crypto", files: { "case.mjs": js`import { createHash, randomUUID } from 'node:crypto'; import crypto from 'crypto'; console.log(typeof createHash, typeof randomUUID, crypto.createHash === createHash);` }, args: ["case.mjs"] },
  { name: "esm-builtins-named", files: { "case.mjs": js`import { readFileSync, promises } from 'fs'; import fs from 'node:fs'; import * as pathNs from 'node:path'; import { EventEmitter } from 'events'; import EE from 'events'; import { Buffer as B } from 'buffer'; import { inspect, format } from 'util'; import process2 from 'process'; import { argv } from 'node:process'; console.log(fs.readFileSync === readFileSync, typeof promises.readFile, typeof pathNs.join, pathNs.default === pathNs.default.posix, EventEmitter === EE, B === Buffer, typeof inspect, format('%d', 1), process2 === process, argv === process.argv);` }, args: ["case.mjs"] },

  // ---------------------------------------------------------------- command-line forms
  { name: "cli-eval", args: ["-e", "console.log(1 + 1, typeof require, typeof module, __filename, process.argv.length)"] },
  { name: "cli-eval-argv", args: ["-e", "console.log(process.argv.slice(1))", "a", "b"] },
  { name: "cli-eval-require-cwd", files: { "lib.js": "module.exports = 'from cwd';" }, args: ["-e", "console.log(require('./lib'), require('path').basename(process.cwd()))"] },
  { name: "cli-print", args: ["-p", "[1, 2].map((x) => x * 2)"] },
  { name: "cli-print-values", args: ["-p", "({ a: 1, s: 'str', n: null, u: undefined })"] },
  { name: "cli-print-undefined", args: ["-p", "undefined"] },
  { name: "cli-print-string", args: ["-p", "'a\\nb'"] },
  { name: "cli-print-promise", args: ["-p", "Promise.resolve(5)"] },
  { name: "cli-input-type-module", args: ["--input-type=module", "-e", "import { sep } from 'node:path'; console.log(sep, typeof import.meta, await Promise.resolve('tla'))"] },
  { name: "cli-stdin-script", stdin: "console.log('from stdin', typeof require, process.argv.length)\n", args: [] },
  { name: "cli-stdin-dash", stdin: "console.log(process.argv.slice(2))\n", args: ["-", "x", "y"] },
  { name: "cli-version", args: ["--version"] },
  { name: "cli-missing-script", args: ["nope.js"] },
  { name: "cli-eval-throw", args: ["-e", "throw new Error('x')"] },
  { name: "cli-eval-syntax", args: ["-e", "let = ;"] },
  { name: "cli-cjs-ext", files: { "case.cjs": "console.log('cjs', typeof require)" }, args: ["case.cjs"] },
  { name: "cli-script-no-ext", files: { "script": "console.log('no extension', typeof module)" }, args: ["script"] },
  { name: "cli-dir-main", files: { "app/index.js": "console.log('dir index')" }, args: ["app"] },

  // ---------------------------------------------------------------- readline / stdin
  { name: "readline-lines", code: js`const readline = require('readline'); const rl = readline.createInterface({ input: process.stdin }); const lines = []; rl.on('line', (l) => lines.push(l)); rl.on('close', () => console.log(lines));`, stdin: "a\nb\r\n\nc" },
  { name: "readline-async-iter", files: { "case.mjs": js`import readline from 'node:readline'; let n = 0; for await (const line of readline.createInterface({ input: process.stdin, crlfDelay: Infinity })) console.log(++n, line); console.log('done', n);` }, args: ["case.mjs"], stdin: "one\ntwo\nthree\n" },
  { name: "readline-question", files: { "case.mjs": js`import readline from 'node:readline/promises'; const rl = readline.createInterface({ input: process.stdin, output: process.stdout }); const a = await rl.question('name? '); console.log('answer', a); rl.close();` }, args: ["case.mjs"], stdin: "Ann\n" },
  { name: "stdin-read-all", code: js`let chunks = []; process.stdin.on('data', (d) => chunks.push(d)); process.stdin.on('end', () => { const s = Buffer.concat(chunks).toString(); console.log(s.length, JSON.stringify(s.slice(0, 10))); });`, stdin: "x".repeat(200000) + "end" },
  { name: "stdin-sync-read", code: js`const fs = require('fs'); console.log(JSON.stringify(fs.readFileSync(0, 'utf8'))); console.log(JSON.stringify(fs.readFileSync(0, 'utf8')));`, stdin: "sync stdin\n" },
  { name: "stdin-empty", code: js`let got = 0; process.stdin.on('data', () => got++); process.stdin.on('end', () => console.log('end', got)); process.stdin.setEncoding('utf8'); console.log(process.stdin.readable);` },

  // ---------------------------------------------------------------- os, misc
  { name: "os-basics", code: js`const os = require('os'); console.log(JSON.stringify(os.EOL), os.platform(), os.type(), os.endianness(), os.constants.signals.SIGTERM, os.constants.signals.SIGKILL, os.constants.errno.ENOENT, os.tmpdir(), os.homedir(), os.devNull, typeof os.hostname(), Array.isArray(os.cpus()), typeof os.totalmem(), typeof os.freemem(), typeof os.uptime(), typeof os.release(), Array.isArray(os.loadavg()), typeof os.networkInterfaces(), typeof os.userInfo().username, typeof os.availableParallelism());` },
  { name: "async-local-storage", code: js`const { AsyncLocalStorage } = require('async_hooks'); const als = new AsyncLocalStorage(); als.run({ id: 7 }, () => { console.log('sync', als.getStore()); setTimeout(() => console.log('timer', als.getStore()), 1); Promise.resolve().then(() => console.log('promise', als.getStore())); }); console.log('outside', als.getStore());` },
  { name: "perf-hooks-misc", code: js`const { performance } = require('perf_hooks'); const t = performance.now(); console.log(typeof t, t >= 0, performance === globalThis.performance, typeof performance.timeOrigin, typeof performance.mark); const { isMainThread, threadId } = require('worker_threads'); console.log(isMainThread, threadId); console.log(require('v8').getHeapStatistics().total_heap_size > 0, typeof require('tty').isatty, require('tty').isatty(1));` },

  // ---------------------------------------------------------------- uncaught errors, rejections, syntax errors, assert
  { name: "uncaught-source-context", code: js`const x = 1;\nthrow new Error('with context');`, keepHeader: true },
  { name: "uncaught-error", code: js`console.log('before'); throw new TypeError('bad thing');` },
  { name: "uncaught-error-props", code: js`const e = new Error('with props'); e.code = 'E_CODE'; e.extra = { n: 1 }; throw e;` },
  { name: "uncaught-non-error", code: js`throw 'a string';` },
  { name: "uncaught-object", code: js`throw { some: 'object' };` },
  { name: "uncaught-in-timer", code: js`setTimeout(() => { throw new RangeError('in timer'); }, 1); setTimeout(() => console.log('not reached'), 50);` },
  { name: "uncaught-with-exitcode", code: js`process.exitCode = 3; process.on('exit', (c) => console.log('exit', c)); throw new Error('code wins?');` },
  { name: "unhandled-rejection", code: js`Promise.reject(new Error('rejected')); setTimeout(() => console.log('not reached'), 50);` },
  { name: "unhandled-rejection-non-error", code: js`Promise.reject('plain reason');` },
  { name: "unhandled-rejection-async-fn", files: { "case.mjs": js`async function f() { await null; throw new Error('from async'); } f(); console.log('sync done');` }, args: ["case.mjs"] },
  { name: "esm-uncaught-tla", files: { "case.mjs": js`console.log('start'); await Promise.reject(new Error('tla reject'));` }, args: ["case.mjs"] },
  { name: "syntax-error-file", files: { "case.js": "console.log('x');\nfunction (\n" } },
  { name: "syntax-error-required", files: { "case.js": "console.log('main'); require('./bad');", "bad.js": "const a = ;\n" } },
  { name: "syntax-error-esm", files: { "case.mjs": "import x from;\n" }, args: ["case.mjs"] },
  { name: "syntax-error-caught", files: { "case.js": "try { require('./bad'); } catch (e) { console.log(e.name, e.message); }\ntry { new Function('return ]'); } catch (e) { console.log(e.name, e.message); }\ntry { eval('1 +'); } catch (e) { console.log(e.name, e.message); }", "bad.js": "let let = 1;" } },
  { name: "assert-strict-equal", code: js`const assert = require('assert'); try { assert.strictEqual(1, 2); } catch (e) { console.log(e.name, e.code, e.actual, e.expected, e.operator, e.generatedMessage); console.log(e.message); } try { assert.deepStrictEqual({ a: 1, b: [1, 2] }, { a: 1, b: [1, 3] }); } catch (e) { console.log(e.message); } try { assert.equal(1, 2, 'custom msg'); } catch (e) { console.log(e.message, e.generatedMessage); } assert.throws(() => { throw new TypeError('t'); }, TypeError); assert.throws(() => { throw new Error('m'); }, /m/); try { assert.throws(() => {}); } catch (e) { console.log(e.message); } assert.deepEqual({ a: 1 }, { a: '1' }); try { assert.notStrictEqual(1, 1); } catch (e) { console.log(e.message); } assert.rejects(Promise.reject(new Error('r'))).then(() => console.log('rejects ok'));` },
  { name: "assert-ok-message", code: js`const assert = require('assert'); try { assert.ok(false); } catch (e) { console.log(JSON.stringify(e.message)); } try { assert(0 > 1); } catch (e) { console.log(JSON.stringify(e.message)); } try { assert.match('abc', /x/); } catch (e) { console.log(e.message); } try { assert.fail('boom'); } catch (e) { console.log(e.name, e.message, e.code); }` },
  { name: "assert-uncaught", code: js`const assert = require('assert/strict'); assert.equal([1, 2].length, 3);` },
];

/** A temp dir on the host holding each case's files, one directory per case. */
let hostRoot = "";
let vm: AgentOs | undefined;
const vmResults = new Map<string, ExecResult>();
const hostResults = new Map<string, ExecResult>();

function filesOf(c: Case): Record<string, string> {
  return { ...(c.code === undefined ? {} : { "case.js": c.code }), ...(c.files ?? {}) };
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The case's directory → <DIR>; stack frames → one placeholder line; optionally the uncaught-error header. */
function normalise(text: string, dir: string, keepHeader: boolean): string {
  let s = text.split(dir).join("<DIR>").replace(/\(node:\d+\)/g, "(node:<PID>)");
  s = s.replace(/\.\.\. \d+ lines matching cause stack trace \.\.\./g, "... <N> lines matching cause stack trace ...");
  s = s.replace(/(?:\n[ \t]+at [^\n]*?)+( \{)?(?=\n|$)/g, "\n    at <frames>$1");
  if (!keepHeader) {
    // `file:line` (or node:internal/…:line, [eval]:line, file://…:line), the source line, the caret line, a blank line.
    s = s.replace(/(^|\n)[^\n]*:\d+\n[^\n]*\n *\^+[^\n]*\n(?:\n)?/g, "$1");
  }
  return s;
}

function runOnHost(c: Case, dir: string): Promise<ExecResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, c.args ?? ["case.js"], {
      cwd: dir,
      env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: "/home/user", LANG: "C.UTF-8", ...(c.env ?? {}) },
      stdio: [c.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ exitCode: code ?? (signal ? 128 + (signal === "SIGTERM" ? 15 : 9) : -1), stdout, stderr });
    });
    if (c.stdin !== undefined) child.stdin?.end(c.stdin);
  });
}

async function runInVm(c: Case): Promise<ExecResult> {
  const cmd = ["node", ...(c.args ?? ["case.js"]).map(shellQuote)].join(" ");
  return vm!.exec(cmd, {
    timeout: 10_000,
    cwd: `/w/${c.name}`,
    ...(c.env ? { env: c.env } : {}),
    ...(c.stdin !== undefined ? { stdin: c.stdin } : {}),
  });
}

async function inParallel<T>(items: T[], limit: number, f: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await f(items[next++]!);
    }),
  );
}

beforeAll(async () => {
  hostRoot = realpathSync(mkdtempSync(join(tmpdir(), "agentos-node-diff-")));
  vm = await AgentOs.create();
  const entries: { path: string; content: string }[] = [];
  for (const c of CASES) {
    const dir = join(hostRoot, c.name);
    mkdirSync(dir, { recursive: true });
    await vm.mkdir(`/w/${c.name}`, { recursive: true });
    for (const [path, content] of Object.entries(filesOf(c))) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
      await vm.mkdir(dirname(`/w/${c.name}/${path}`), { recursive: true });
      entries.push({ path: `/w/${c.name}/${path}`, content });
    }
  }
  for (const r of await vm.writeFiles(entries)) if (!r.success) throw new Error(`${r.path}: ${r.error}`);
  await Promise.all([
    inParallel(CASES, 4, async (c) => void vmResults.set(c.name, await runInVm(c))),
    inParallel(CASES, 8, async (c) => void hostResults.set(c.name, await runOnHost(c, join(hostRoot, c.name)))),
  ]);
}, 120_000);

afterAll(async () => {
  await vm?.dispose();
  if (hostRoot) rmSync(hostRoot, { recursive: true, force: true });
});

describe("guest node matches the host's node", () => {
  it("has unique case names and every known difference names a case", () => {
    const names = CASES.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of Object.keys(KNOWN_DIFFERENCES)) expect(names).toContain(name);
    for (const known of Object.values(KNOWN_FROM_MAJOR)) for (const name of Object.keys(known)) expect(names).toContain(name);
  });

  for (const c of CASES) {
    const known = KNOWN_DIFFERENCES[c.name];
    it(`${c.name}${known ? ` (known difference: ${known})` : ""}`, () => {
      const keep = c.keepHeader ?? false;
      const norm = (r: ExecResult, dir: string): ExecResult => ({
        exitCode: r.exitCode,
        stdout: normalise(r.stdout, dir, keep),
        stderr: normalise(r.stderr, dir, keep),
      });
      const inVm = norm(vmResults.get(c.name)!, `/w/${c.name}`);
      const onHost = norm(hostResults.get(c.name)!, join(hostRoot, c.name));
      if (known) expect(inVm, "listed in KNOWN_DIFFERENCES but now matches the host: remove it").not.toEqual(onHost);
      else expect(inVm).toEqual(onHost);
    });
  }
});
