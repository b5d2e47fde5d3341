// Differential tests of the guest's util/console/assert builtins (workers/node-guest/builtins): each value is
// built inside a DONT_CONTEXTIFY context like the guest's, printed by the guest modules, and compared with
// the host's own Node printing the same expression.
import { describe, expect, it } from 'vitest';
import vm from 'node:vm';
import fs from 'node:fs';
import path from 'node:path';
import util from 'node:util';
import hostAssert from 'node:assert';
import { Console as HostConsole } from 'node:console';
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const major = Number(process.versions.node.split('.')[0]);
const bufferReq = createRequire(fs.realpathSync(path.join(root, 'node_modules/buffer/index.js')));
const files: Record<string, string> = {
  'node-inspect-extracted': path.join(root, 'node_modules/node-inspect-extracted/dist/inspect.js'),
  buffer: path.join(root, 'node_modules/buffer/index.js'),
  'base64-js': bufferReq.resolve('base64-js'),
  ieee754: bufferReq.resolve('ieee754'),
};

type Guest = { ctx: vm.Context; require: (name: string) => any; run: (src: string) => any };

/** A guest-like context: builtins compiled as `(exports, require, module, internal)` bodies in it. */
function makeGuest(): Guest {
  const ctx = vm.createContext(vm.constants.DONT_CONTEXTIFY as unknown as vm.Context);
  const cache = new Map<string, { exports: any }>();
  const internal = vm.runInContext('({})', ctx);
  // What util.types.isProxy asks of the runtime: whether a value is one of its wrappers, and V8 (the host).
  internal.isIntrinsicWrapper = () => false;
  internal.isFailure = () => false;
  internal.host = (op: string, v: unknown) => (op === 'proxyPart' && util.types.isProxy(v) ? null : '\0');
  const requireIn = (name: string): any => {
    const cached = cache.get(name);
    if (cached) return cached.exports;
    // The guest's process reports the host's Node version (internal/main.js sets process.versions at start).
    if (name === 'process') return { versions: { node: process.versions.node } };
    const file = files[name] ?? path.join(root, 'workers/node-guest', name.startsWith('internal/') ? `${name}.js` : `builtins/${name}.js`);
    const fn = vm.compileFunction(fs.readFileSync(file, 'utf8'), ['exports', 'require', 'module', 'internal'], {
      parsingContext: ctx,
      filename: file,
    });
    const module = vm.runInContext('({ exports: {} })', ctx) as { exports: any };
    cache.set(name, module);
    fn.call(undefined, module.exports, requireIn, module, internal);
    return module.exports;
  };
  // The runtime installs these before builtins load.
  vm.runInContext('globalThis.URL = class URL { constructor(h) { this.href = h; } }', ctx);
  return { ctx, require: requireIn, run: (src) => vm.runInContext(`(${src})`, ctx) };
}

const hostEval = (src: string): unknown => new Function(`return (${src});`)();

const g = makeGuest();
const gutil = g.require('util');
const gassert = g.require('assert');
const { Console: GConsole } = g.require('console');
// Buffer of the npm `buffer` package, evaluated in the context, as the guest's Buffer global.
(g.ctx as any).Buffer = g.require('buffer').Buffer;

// Deterministic stacks: host and guest stacks name different frames.
const err = (ctor: string, msg: string, extra = '') =>
  `(() => { const e = new ${ctor}(${JSON.stringify(msg)}${extra}); e.stack = ${JSON.stringify(`${ctor}: ${msg}`)} + "\\n    at f (/app/x.js:1:2)\\n    at g (/app/x.js:3:4)"; return e; })()`;

const inspectCases: string[] = [
  // primitives
  '1', '-0', '0', '1.5', 'NaN', 'Infinity', '-Infinity', '10n', 'true', 'null', 'undefined',
  '"abc"', '"a\'b"', '`a"b\'c`', '"a\'b\\"c`d"', '"line\\nbreak\\ttab"', '"\\u0001\\u007f"', '""', '"x".repeat(120)',
  'Symbol("s")', 'Symbol()', 'Symbol.iterator', 'Symbol.for("reg")',
  // arrays
  '[]', '[1, 2, 3]', '["a", "b"]', '[1, [2, [3, [4, [5]]]]]', 'Array.from({ length: 7 }, (_, i) => i)',
  'Array.from({ length: 30 }, (_, i) => i * 1000)', 'Array.from({ length: 120 }, (_, i) => i)',
  'Array.from({ length: 27 }, (_, i) => "item" + i)', '[ , 1, , ]', 'new Array(5)', '[undefined, null, NaN]',
  'Object.assign([1, 2], { extra: true })', '[{ a: 1, b: { c: { d: { e: 1 } } } }]',
  'Array.from({ length: 8 }, (_, i) => ({ id: i, name: "n" + i }))',
  // objects
  '({})', '({ a: 1, b: "two", c: [3] })', '({ a: { b: { c: { d: 1 } } } })', '({ "a-b": 1, "c d": 2, _ok: 3 })',
  '({ a: "x".repeat(80) })', '({ longPropertyName1: 1, longPropertyName2: 2, longPropertyName3: 3, longPropertyName4: 4 })',
  'Object.create(null)', 'Object.assign(Object.create(null), { a: 1 })', 'new (class Foo {})()',
  'new (class Foo { constructor() { this.x = 1; } })()', 'new (class Bar extends (class Foo {}) {})()',
  '({ get a() { return 1; }, set b(v) {}, get c() { return 1; }, set c(v) {} })',
  '(() => { const o = { a: 1 }; o.self = o; return o; })()',
  '(() => { const a = [1]; const o = { a, b: a }; a.push(o); return o; })()',
  '({ f() {}, g: function () {}, h: () => {} })', '({ __proto__: { inherited: 1 }, own: 2 })',
  '(() => { const o = {}; Object.defineProperty(o, "hidden", { value: 1 }); o.shown = 2; return o; })()',
  // collections
  'new Map()', 'new Map([[1, 2], ["a", { b: 1 }]])', 'new Set()', 'new Set([1, "x", [2]])',
  'new Map([[{ a: 1 }, new Set([1])]])', 'new WeakMap()', 'new WeakSet()',
  'Object.assign(new Map([[1, 2]]), { extra: 1 })',
  // dates, regexps
  'new Date(0)', 'new Date(1e12)', 'new Date(NaN)', '/ab+c/gi', 'new RegExp("a/b")', 'Object.assign(/x/, { a: 1 })',
  // errors
  err('Error', 'boom'), err('TypeError', 'bad type'), err('RangeError', 'out of range'),
  `Object.assign(${err('Error', 'with code')}, { code: "ENOENT", errno: -2 })`,
  `(() => { const e = ${err('Error', 'outer')}; e.cause = ${err('Error', 'inner')}; return e; })()`,
  `({ error: ${err('Error', 'nested')} })`,
  `(() => { const e = ${err('Error', 'no stack')}; e.stack = undefined; return e; })()`,
  `(() => { class MyError extends Error {} const e = new MyError("mine"); e.stack = "MyError: mine\\n    at x (/a.js:1:1)"; return e; })()`,
  // functions and classes
  'function f() {}', 'function () {}', '(() => {})', 'async function af() {}', 'function* gen() {}', 'async function* ag() {}',
  'class A {}', 'class B extends Array {}', '(class {})', 'Object.assign(function withProps() {}, { a: 1 })', 'Math.max',
  '[function named() {}, class K {}]',
  // boxed primitives, typed arrays
  'new Number(3)', 'new String("ab")', 'new Boolean(false)', 'Object(1n)', 'Object(Symbol("q"))',
  'new Uint8Array([1, 2, 3])', 'new Float64Array(2)', 'new Int16Array([-1, 2])', 'new Uint8Array(150)', 'new BigInt64Array([1n])',
  // promise (pending is the only state a guest can print), proxy
  'new Promise(() => {})', 'new Proxy({ a: 1 }, {})', 'new Proxy([1, 2], {})',
  // custom inspect
  '({ [Symbol.for("nodejs.util.inspect.custom")]() { return "CUSTOM"; } })',
  '({ inner: { [Symbol.for("nodejs.util.inspect.custom")](depth) { return { d: depth }; } } })',
  // misc
  '(function () { return arguments; })(1, 2)', 'Math', 'JSON', 'globalThis.Reflect === Reflect ? [Reflect.apply] : 0',
  '{ a: [new Map([["k", [1, { deep: { deeper: 1 } }]]])] }',
];

// Differ between Node majors or need V8 internals; kept out of the comparison (see util.js).
const knownDifferent = [
  '({ [Symbol("k")]: 2 })', // Node 20: `[Symbol(k)]: 2`, Node 22+: `Symbol(k): 2` (the bundle's)
  'new ArrayBuffer(4)', // Node 20: `byteLength: 4`, bundle: `[byteLength]: 4`
  'Promise.resolve(1)', // a guest cannot read a promise's state
  'new Map([[1, 2]]).entries()', // iterator preview needs V8
  '({ [Symbol.toStringTag]: "Tagged", a: 1 })', // a symbol key again
  'new (class MyMap extends Map {})([[1, 2]])', // Node: `MyMap(1) [Map] { 1 => 2 }`, bundle omits ` [Map]`
];

describe('util.inspect matches the host', () => {
  for (const src of inspectCases) {
    it(src, () => {
      expect(gutil.inspect(g.run(src))).toBe(util.inspect(hostEval(src)));
    });
  }
  const optionCases: [string, util.InspectOptions][] = [
    ['({ a: { b: { c: { d: { e: 1 } } } } })', { depth: 0 }],
    ['({ a: { b: { c: { d: { e: 1 } } } } })', { depth: Infinity }],
    ['({ a: { b: { c: { d: { e: 1 } } } } })', { depth: null as unknown as number }],
    ['({ b: 1, a: 2 })', { sorted: true }],
    ['({ a: [1, 2, 3], b: "x" })', { compact: false }],
    ['({ a: [1, 2, 3], b: "x" })', { breakLength: 10 }],
    ['Array.from({ length: 10 }, (_, i) => i)', { maxArrayLength: 3 }],
    ['"x".repeat(50)', { maxStringLength: 10 }],
    ['({ a: 1, s: "x", n: null, u: undefined })', { colors: true }],
    ['Object.defineProperty({}, "h", { value: 1 })', { showHidden: true }],
    ['({ get g() { return 42; } })', { getters: true }],
    ['1234567.891', { numericSeparator: true }],
  ];
  for (const [src, opts] of optionCases) {
    it(`${src} ${JSON.stringify(opts)}`, () => {
      const gopts = g.run(JSON.stringify(opts));
      if ((opts as { depth?: unknown }).depth === null) gopts.depth = null;
      if (opts.depth === Infinity) gopts.depth = Infinity;
      expect(gutil.inspect(g.run(src), gopts)).toBe(util.inspect(hostEval(src), opts));
    });
  }
  it('Buffer uses its own inspect.custom', () => {
    expect(gutil.inspect(g.run('Buffer.from("ab")'))).toBe('<Buffer 61 62>');
    expect(gutil.inspect(g.run('{ b: Buffer.from([1, 2, 255]) }'))).toBe('{ b: <Buffer 01 02 ff> }');
  });
  it('documented differences stay as documented', () => {
    expect(gutil.inspect(g.run('Promise.resolve(1)'))).toBe('Promise { <pending> }');
    for (const src of knownDifferent) expect(typeof gutil.inspect(g.run(src))).toBe('string');
  });
  it('inspect.custom and defaultOptions', () => {
    expect(gutil.inspect.custom).toBe(Symbol.for('nodejs.util.inspect.custom'));
    expect(gutil.inspect.defaultOptions.depth).toBe(2);
  });
});

const formatCases: string[] = [
  '"plain"', '"%s", "str"', '"%s", 42', '"%s", 42n', '"%s", { a: 1 }', '"%s", [1, [2]]', '"%s", null', '"%s", undefined',
  '"%s", Symbol("x")', '"%s", -0', '"%s", new (class Foo { toString() { return "FOO"; } })()',
  '"%d", 42', '"%d", "42"', '"%d", 1.5', '"%d", 10n', '"%d", {}', '"%i", 42.9', '"%i", "7.5x"', '"%f", "1.25"', '"%f", "x"',
  '"%j", { a: [1, "b"] }', '"%j", (() => { const o = {}; o.o = o; return o; })()', '"%o", { a: [1, 2] }',
  '"%O", { a: { b: { c: { d: 1 } } } }', '"%c styled", "color: red"', '"100%%", 1', '"%s and %s", "a"', '"%x %s", 1',
  '"a", "b", 3, { c: 4 }', '1, 2, "three"', '{ a: 1 }, "x"', '"%s:%s", "a", "b", "extra", 5', '"%%s", "x"', '"%", 1',
  '"%s", "a\\nb"', '"%o", function foo() {}',
];

describe('util.format matches the host', () => {
  for (const src of formatCases) {
    it(src, () => {
      const gargs = g.run(`[${src}]`) as unknown[];
      const hargs = hostEval(`[${src}]`) as unknown[];
      expect(gutil.format(...gargs)).toBe(util.format(...(hargs as [unknown])));
    });
  }
  it('formatWithOptions', () => {
    expect(gutil.formatWithOptions(g.run('({ colors: true })'), '%s %o', 'a', 1)).toBe(
      util.formatWithOptions({ colors: true }, '%s %o', 'a', 1),
    );
  });
});

/** A guest and a host Console writing into strings. */
function consoles() {
  const out = { gout: '', gerr: '', hout: '', herr: '' };
  const gc = new GConsole({ write: (s: string) => void (out.gout += s) }, { write: (s: string) => void (out.gerr += s) });
  // The host's Console listens for stream errors, so its streams need emitter methods.
  const stub = (write: (s: string) => void) => Object.assign(new EventEmitter(), { write }) as unknown as NodeJS.WritableStream;
  const hc = new HostConsole({ stdout: stub((s) => void (out.hout += s)), stderr: stub((s) => void (out.herr += s)) });
  return { out, gc, hc };
}

// Node 20 centres table cells, Node 22+ left-aligns them (the guest's choice); compare cell text then.
const normalizeTable = (s: string) => (major >= 22 ? s : s.replace(/ +│/g, ' │').replace(/│ +/g, '│ ').replace(/ +\n/g, '\n'));

describe('console matches the host', () => {
  const script = [
    'c.log("hello", 1, { a: [1, 2] })',
    'c.info("info %s", "x")',
    'c.debug("dbg")',
    'c.error("err", new Map([[1, 2]]))',
    'c.warn("warn %d", 5)',
    'c.log()',
    'c.log("%o", [1, { a: 2 }])',
    'c.dir({ a: { b: { c: { d: 1 } } } }, { depth: 0 })',
    'c.dir(new (class X { constructor() { this.x = 1; } [Symbol.for("nodejs.util.inspect.custom")]() { return "custom"; } })())',
    'c.log(new (class X { [Symbol.for("nodejs.util.inspect.custom")]() { return "custom"; } })())',
    'c.dirxml({ a: 1 }, [2])',
    'c.assert(true, "never")',
    'c.assert(false, "failed %s", "here")',
    'c.assert(false)',
    'c.count()', 'c.count()', 'c.count("x")', 'c.countReset()', 'c.count()',
    'c.group("Group A")', 'c.log("inside\\nmultiline")', 'c.group()', 'c.error("deeper")', 'c.groupEnd()',
    'c.groupCollapsed("collapsed")', 'c.log({ a: { b: 1 } })', 'c.groupEnd()', 'c.groupEnd()', 'c.groupEnd()', 'c.log("after")',
  ];
  it('log/info/debug/error/warn/dir/dirxml/assert/count/group', () => {
    const { out, gc, hc } = consoles();
    for (const line of script) {
      new Function('c', line)(hc);
      vm.runInContext(`(c) => { ${line}; }`, g.ctx)(gc);
    }
    expect(out.gout).toBe(out.hout);
    expect(out.gerr).toBe(out.herr);
  });

  const tableCases = [
    '[1, 2, 3]', '[{ a: 1, b: "y" }, { a: "Z", c: [1, 2] }]', '{ r1: { c: 1 }, r2: { c: 22, d: true } }',
    '[[1, 2], [3, 4, 5]]', 'new Map([["k", 1], ["long key", { v: 2 }]])', 'new Set(["a", "bb"])',
    '[{ a: 1, b: 2 }, { a: 3, b: 4 }], ["a"]', '"not tabular"', '[{ name: "中文", v: 1 }]', '[]', '[{ x: null, y: undefined }]',
  ];
  for (const src of tableCases) {
    it(`table(${src})`, () => {
      const { out, gc, hc } = consoles();
      new Function('c', `c.table(${src})`)(hc);
      vm.runInContext(`(c) => c.table(${src})`, g.ctx)(gc);
      expect(normalizeTable(out.gout)).toBe(normalizeTable(out.hout));
    });
  }

  it('time/timeLog/timeEnd print Node-formatted durations', () => {
    const { out, gc } = consoles();
    gc.time();
    gc.timeLog('default', 'extra', 1);
    gc.timeEnd();
    gc.time('lbl');
    gc.timeEnd('lbl');
    expect(out.gout).toMatch(/^default: \d+(\.\d+)?ms extra 1\ndefault: \d+(\.\d+)?ms\nlbl: \d+(\.\d+)?ms\n$/);
  });

  it('trace prints `Trace: msg` and a stack to stderr', () => {
    const { out, gc } = consoles();
    vm.runInContext('(c) => (function where() { c.trace("here %d", 1); })()', g.ctx)(gc);
    expect(out.gerr).toMatch(/^Trace: here 1\n {4}at where /);
    expect(out.gout).toBe('');
  });

  it('methods are bound, toStringTag, options form, groupIndentation, global console', () => {
    let s = '';
    const stream = { write: (x: string) => void (s += x) };
    const c = new GConsole({ stdout: stream, stderr: stream, groupIndentation: 4, inspectOptions: g.run('({ depth: 0 })') });
    const { log, group } = c;
    group('g');
    log({ a: { b: 1 } });
    expect(s).toBe('g\n    { a: [Object] }\n');
    expect(Object.prototype.toString.call(c)).toBe('[object console]');
    const gl = g.require('console').createGlobalConsole(stream, stream);
    s = '';
    gl.log('x');
    expect(s).toBe('x\n');
    expect(() => new GConsole({})).toThrow(/writable stream/);
  });
});

/** Runs `fn` on host and guest assert; returns the two thrown errors (or undefined). */
function bothThrow(src: string): [any, any] {
  let h: any;
  let gg: any;
  try { new Function('assert', src)(hostAssert); } catch (e) { h = e; }
  try { vm.runInContext(`(assert) => { ${src}; }`, g.ctx)(gassert); } catch (e) { gg = e; }
  return [h, gg];
}

describe('assert matches the host', () => {
  const simple = [
    'assert.strictEqual(1, 2)', 'assert.strictEqual("a", "b")', 'assert.strictEqual(1, "1")', 'assert.strictEqual(NaN, 0)',
    'assert.strictEqual(0, -0)', 'assert.strictEqual({}, {})', 'assert.strictEqual([1], [1])',
    'assert.strictEqual("hello world foo", "hello world bar")', 'assert.notStrictEqual(1, 1)', 'assert.notStrictEqual("long string", "long string")',
    'assert.notStrictEqual(Math, Math)', 'assert.equal(1, 2)', 'assert.equal("a", "b")', 'assert.notEqual(1, "1")',
    'assert.deepEqual({ a: 1 }, { a: 2 })', 'assert.notDeepEqual({ a: 1 }, { a: 1 })', 'assert.notDeepEqual([1], ["1"])',
    'assert.notDeepStrictEqual({ a: 1 }, { a: 1 })', 'assert.deepStrictEqual(1, 2)',
    'assert.strictEqual(1, 2, "custom message")', 'assert.fail()', 'assert.fail("boom")', 'assert.fail(1, 2, undefined, ">")',
    'assert.ok(0, "zero")', 'assert(null, "nul")', 'assert.ok()', 'assert.ifError(new Error("bad"))', 'assert.ifError("str")',
    'assert.match("abc", /x/)', 'assert.doesNotMatch("abc", /b/)', 'assert.match(123, /x/)',
    'assert.throws(() => {})', 'assert.throws(() => {}, TypeError)', 'assert.throws(() => {}, "msg")',
    'assert.throws(() => { throw new Error("a"); }, TypeError)', 'assert.throws(() => { throw new Error("a"); }, /b/)',
    'assert.throws(() => { throw new TypeError("x"); }, { message: "y" })',
    'assert.doesNotThrow(() => { throw new Error("e"); })', 'assert.doesNotThrow(() => { throw new Error("e"); }, "why")',
    'assert.throws(() => { throw new Error("a"); }, (e) => e.message === "b")',
  ];
  for (const src of simple) {
    it(src, () => {
      const [h, gerr] = bothThrow(src);
      expect(h).toBeDefined();
      expect(gerr).toBeDefined();
      expect(gerr.name).toBe(h.name);
      expect(gerr.code).toBe(h.code);
      // With its source readable, Node quotes the expression of a falsy `assert.ok(value)`; a guest cannot.
      if (!/^assert(\.ok)?\(/.test(src) || /assert\.ok\(\)/.test(src) || /"/.test(src)) expect(gerr.message).toBe(h.message);
      expect(gerr.generatedMessage).toBe(h.generatedMessage);
      expect(gerr.operator).toBe(h.operator);
      // Errors: their stacks name different frames.
      const show = (v: unknown) => (v instanceof Error || (g.ctx as any).Error.prototype.isPrototypeOf(v) ? String(v) : util.inspect(v));
      expect(show(gerr.actual)).toBe(show(h.actual));
      expect(String(gerr)).toBe(String(h));
    });
  }

  const passing = [
    'assert.strictEqual(1, 1)', 'assert.deepStrictEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })',
    'assert.deepEqual({ a: 1 }, { a: "1" })', 'assert.deepStrictEqual(new Map([[1, { a: 1 }]]), new Map([[1, { a: 1 }]]))',
    'assert.deepStrictEqual(new Set([{ a: 1 }, 2]), new Set([2, { a: 1 }]))', 'assert.deepStrictEqual(new Date(5), new Date(5))',
    'assert.deepStrictEqual(/a/g, /a/g)', 'assert.deepStrictEqual(new Uint8Array([1]), new Uint8Array([1]))',
    'assert.deepStrictEqual(NaN, NaN)', '(() => { const a = { x: 1 }; a.a = a; const b = { x: 1 }; b.a = b; assert.deepStrictEqual(a, b); })()',
    'assert.notDeepStrictEqual({ a: 1 }, { a: "1" })', 'assert.notDeepStrictEqual([1, 2], [2, 1])', 'assert.notDeepStrictEqual(0, -0)',
    'assert.notDeepStrictEqual(Object.create(null), {})', 'assert.notDeepStrictEqual(new Number(1), new Number(2))',
    'assert.throws(() => { throw new TypeError("x"); }, TypeError)', 'assert.throws(() => { throw new Error("abc"); }, /b/)',
    'assert.throws(() => { throw new Error("abc"); }, { message: "abc", name: "Error" })', 'assert.doesNotThrow(() => 1)',
    'assert.match("abc", /b/)', 'assert.ifError(null)', 'assert.strict.equal(1, 1)', 'assert.ok(1)',
  ];
  for (const src of passing) {
    it(`passes: ${src}`, () => {
      const [h, gerr] = bothThrow(src);
      expect(h).toBeUndefined();
      expect(gerr).toBeUndefined();
    });
  }

  // Multi-line diffs: Node 20's line diff (Node 22+ has a Myers diff), so compare on Node 20 only.
  const diffs = [
    'assert.deepStrictEqual({ a: 1, b: [1, 2, 3] }, { a: 1, b: [1, 2, 4] })',
    'assert.deepStrictEqual([1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 4, 5, 6, 7, 9])',
    'assert.deepStrictEqual({ a: 1 }, { a: 1, b: 2 })', 'assert.strictEqual("a\\nb", "a\\nc")',
    'assert.deepEqual([1, 2], [1, 3])',
  ];
  for (const src of diffs) {
    it.runIf(major < 22)(`diff: ${src}`, () => {
      const [h, gerr] = bothThrow(src);
      expect(gerr.message).toBe(h.message);
    });
  }

  it('rejects / doesNotReject', async () => {
    await expect(gassert.rejects(g.run('Promise.reject(new Error("x"))'), g.run('/x/'))).resolves.toBeUndefined();
    const e1 = await gassert.rejects(g.run('Promise.resolve(1)')).catch((e: any) => e);
    const h1 = await hostAssert.rejects(Promise.resolve(1)).catch((e: any) => e);
    expect(e1.message).toBe(h1.message);
    const e2 = await gassert.doesNotReject(g.run('() => Promise.reject(new Error("no"))')).catch((e: any) => e);
    const h2 = await hostAssert.doesNotReject(() => Promise.reject(new Error('no'))).catch((e: any) => e);
    expect(e2.message).toBe(h2.message);
  });

  it('AssertionError shape', () => {
    const e = new gassert.AssertionError({ actual: 1, expected: 2, operator: 'strictEqual' });
    const h = new hostAssert.AssertionError({ actual: 1, expected: 2, operator: 'strictEqual' });
    expect(e.message).toBe(h.message);
    expect(e.message).toBe('Expected values to be strictly equal:\n\n1 !== 2\n');
    expect(e.name).toBe('AssertionError');
    expect(e.code).toBe('ERR_ASSERTION');
    expect(e.stack.split('\n')[0]).toBe('AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:');
    expect(e instanceof (g.ctx as any).Error).toBe(true);
    expect(gassert.strict.strict).toBe(gassert.strict);
    expect(() => gassert.strict.equal(1, '1')).toThrow(/strictly equal/);
  });
});

describe('util functions', () => {
  it('types', () => {
    const t = gutil.types;
    const cases: [string, string, boolean][] = [
      ['isPromise', 'Promise.resolve()', true], ['isPromise', '({ then() {} })', false], ['isRegExp', '/x/', true],
      ['isRegExp', '({ source: "x" })', false], ['isDate', 'new Date()', true], ['isMap', 'new Map()', true],
      ['isMap', 'new Set()', false], ['isSet', 'new Set()', true], ['isTypedArray', 'new Int8Array(1)', true],
      ['isTypedArray', '[1]', false], ['isUint8Array', 'new Uint8Array(1)', true], ['isUint8Array', 'new Int8Array(1)', false],
      ['isArrayBuffer', 'new ArrayBuffer(1)', true], ['isAnyArrayBuffer', 'new SharedArrayBuffer(1)', true],
      ['isAsyncFunction', 'async () => {}', true], ['isAsyncFunction', '() => {}', false],
      ['isGeneratorFunction', 'function* () {}', true], ['isNativeError', 'new TypeError()', true],
      ['isNativeError', '({ name: "Error", message: "" })', false], ['isBoxedPrimitive', 'new String("")', true],
      ['isBoxedPrimitive', '""', false], ['isProxy', 'new Proxy({}, {})', true], ['isProxy', '({})', false], ['isWeakMap', 'new WeakMap()', true],
      ['isDataView', 'new DataView(new ArrayBuffer(1))', true], ['isArgumentsObject', '(function () { return arguments; })()', true],
      ['isMapIterator', 'new Map().keys()', true], ['isSetIterator', 'new Set().values()', true],
      ['isGeneratorObject', '(function* () {})()', true], ['isNumberObject', 'new Number(1)', true],
    ];
    for (const [fn, src, want] of cases) expect(`${fn}(${src}) = ${t[fn](g.run(src))}`).toBe(`${fn}(${src}) = ${want}`);
  });

  it('inherits, promisify, callbackify', async () => {
    const A = g.run('function A() {}');
    const B = g.run('function B() {}');
    A.prototype.hi = () => 'hi';
    gutil.inherits(B, A);
    expect(B.super_).toBe(A);
    expect(new B().hi()).toBe('hi');
    const p = gutil.promisify(g.run('(a, cb) => cb(null, a * 2)'));
    await expect(p(21)).resolves.toBe(42);
    const pe = gutil.promisify(g.run('(cb) => cb(new Error("nope"))'));
    await expect(pe()).rejects.toThrow('nope');
    const custom = g.run('(() => { const f = () => {}; f[Symbol.for("nodejs.util.promisify.custom")] = () => "c"; return f; })()');
    expect(gutil.promisify(custom)()).toBe('c');
    expect(gutil.promisify.custom).toBe(Symbol.for('nodejs.util.promisify.custom'));
    const cbf = gutil.callbackify(g.run('async (x) => x + 1'));
    expect(cbf.name).toBe('Callbackified'.replace(/^/, ''));
    await new Promise<void>((resolve, reject) => cbf(1, (e: unknown, v: number) => (e ? reject(e) : (expect(v).toBe(2), resolve()))));
    const cbr = gutil.callbackify(g.run('async () => { throw null; }'));
    const e = await new Promise<any>((resolve) => cbr((err: unknown) => resolve(err)));
    expect(e.code).toBe('ERR_FALSY_VALUE_REJECTION');
    expect(() => gutil.promisify(1)).toThrow(/The "original" argument must be of type function/);
  });

  it('deprecate warns once through the runtime hook, debuglog honours NODE_DEBUG', () => {
    const warnings: unknown[][] = [];
    gutil._setWarningWriter((...a: unknown[]) => warnings.push(a));
    const f = gutil.deprecate(g.run('(x) => x * 2'), 'f is old', 'DEP0999');
    expect(f(2)).toBe(4);
    f(3);
    expect(warnings).toEqual([['f is old', 'DeprecationWarning', 'DEP0999']]);
    const lines: string[] = [];
    gutil._setEnv((k: string) => (k === 'NODE_DEBUG' ? 'foo,ba*' : undefined));
    gutil._setStderrWriter((s: string) => lines.push(s));
    gutil.debuglog('foo')('hello %d', 1);
    gutil.debuglog('bar')('star');
    gutil.debuglog('other')('nothing');
    expect(lines).toEqual(['FOO 1: hello 1\n', 'BAR 1: star\n']);
    expect(gutil.debuglog('foo').enabled).toBe(true);
    expect(gutil.debuglog('nope').enabled).toBe(false);
  });

  it('isDeepStrictEqual, stripVTControlCharacters, toUSVString, styleText, TextEncoder', () => {
    expect(gutil.isDeepStrictEqual(g.run('{ a: [1] }'), g.run('{ a: [1] }'))).toBe(true);
    expect(gutil.isDeepStrictEqual(g.run('{ a: [1] }'), g.run('{ a: ["1"] }'))).toBe(false);
    expect(gutil.stripVTControlCharacters('\u001b[31mred\u001b[39m')).toBe('red');
    expect(gutil.toUSVString('a\ud800b')).toBe('a\ufffdb');
    expect(gutil.styleText('red', 'x')).toBe('\u001b[31mx\u001b[39m');
    expect(gutil.styleText(g.run('["bold", "red"]'), 'x')).toBe('\u001b[1m\u001b[31mx\u001b[39m\u001b[22m');
    expect(() => gutil.styleText('nope', 'x')).toThrow(/format/);
    (g.ctx as any).TextEncoder = TextEncoder;
    expect(gutil.TextEncoder).toBe(TextEncoder);
    expect(gutil.isArray([])).toBe(true);
    expect(gutil.isPrimitive(1)).toBe(true);
    expect(gutil.isFunction(() => 1)).toBe(true);
  });

  it('parseArgs matches the host', () => {
    const cases: [string[], util.ParseArgsConfig][] = [
      [['-f', '--bar', 'b'], { options: { foo: { type: 'boolean', short: 'f' }, bar: { type: 'string' } } }],
      [['--bar=x', 'pos', '--', '-z'], { options: { bar: { type: 'string' } }, allowPositionals: true }],
      [['-abc'], { options: { a: { type: 'boolean' }, b: { type: 'boolean' }, c: { type: 'boolean' } } }],
      [['-ovalue'], { options: { o: { type: 'string' } } }],
      [['--m', '1', '--m', '2'], { options: { m: { type: 'string', multiple: true } } }],
      [[], { options: { d: { type: 'string', default: 'def' }, e: { type: 'boolean', default: false } } }],
      [['--unknown', 'x'], { strict: false }],
      [['--unknown'], { options: {} }],
      [['pos'], { options: {} }],
      [['--bar'], { options: { bar: { type: 'string' } } }],
      [['--flag=1'], { options: { flag: { type: 'boolean' } } }],
    ];
    for (const [args, config] of cases) {
      let h: unknown;
      let gr: unknown;
      try { h = util.parseArgs({ ...config, args }); } catch (e: any) { h = `${e.code}: ${e.message}`; }
      try {
        gr = gutil.parseArgs(g.run(JSON.stringify({ ...config, args })));
      } catch (e: any) { gr = `${e.code}: ${e.message}`; }
      expect(util.inspect(gr)).toBe(util.inspect(h));
    }
  });
});
