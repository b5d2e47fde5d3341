// Escape battery for the contexts a guest makes with `vm` (workers/node-host/vm-contexts.ts), driven through the
// public API: each technique tries, from inside a new context or with the values vm hands back, to reach the
// worker's realm (its Function, its `process`, anything of its runtime) or the host (its files, environment,
// process.binding), and prints `[tag] blocked` or `[tag] ESCAPED: …`.
//
// How a value is judged: its realm is where its prototype chain ends. The guest's own realm and the realms of
// its new contexts are allowed (they are the guest's: a new context reaches nothing the guest has not), so a
// realm is accepted when its Function makes code whose global has no `process`, or the guest's own `process`.
// The worker's realm has code generation disabled (its Function throws "code generation is disabled in this
// realm"): a value of it, or one the runtime's oracle knows as privileged, is an escape.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentOs } from "../../src/index.js";
import { RUN_DEADLINE_MS, SETUP_DEADLINE_MS } from "../deadlines.js";

const CANARY = `vm-escape-canary-${process.pid}-${Date.now()}`;

const PRELUDE = String.raw`
var vm = require('vm');
var __gp = process, __OP = Object.prototype, __gpOf = Object.getPrototypeOf;
var __isPrivileged = globalThis.__agentosRuntime.isPrivileged; delete globalThis.__agentosRuntime;
var __seen = Object.create(null), __pending = 0;
function __root(v) {
  var o = v, last = null;
  for (var i = 0; i < 1000; i++) { var p; try { p = __gpOf(o); } catch (e) { return null; } if (p === null) return last; last = p; o = p; }
  return last;
}
/** Why a value is not the guest's (or one of its contexts'), or null. */
function __why(v) {
  if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return null;
  if (__isPrivileged(v)) return 'a privileged object of the runtime';
  var r = __root(v);
  if (r === null || r === __OP) return null;
  var F;
  try { F = r.constructor.constructor; } catch (e) { return null; }
  if (typeof F !== 'function') return null;
  var g;
  try { g = F('return this')(); } catch (e) {
    var m = String(e && e.message);
    if (m.indexOf('code generation is disabled in this realm') >= 0) return 'an object of the worker realm';
    if (m.indexOf('Code generation from strings disallowed') >= 0) return null;
    return 'a realm whose Function throws ' + m;
  }
  var p;
  try { p = g.process; } catch (e) { return null; }
  if (p !== undefined && p !== __gp) return 'a realm with another process (' + typeof p + ')';
  try { if (g.require !== undefined && g.require !== require) return 'a realm with a require'; } catch (e) {}
  return null;
}
function __flat(vs, out, depth) {
  for (var i = 0; i < vs.length; i++) { var v = vs[i]; if (Array.isArray(v) && depth < 3) __flat(v, out, depth + 1); out.push(v); }
  return out;
}
function probe(tag) {
  var values = __flat(Array.prototype.slice.call(arguments, 1), [], 0);
  for (var i = 0; i < values.length; i++) {
    var why = __why(values[i]);
    if (why) { var what = '?'; try { what = Object.prototype.toString.call(values[i]) + ' ' + JSON.stringify(String(values[i]).slice(0, 120)); } catch (e) {} return report(tag, 'ESCAPED: value #' + i + ' (' + what + ') is ' + why); }
  }
  report(tag, 'blocked');
}
function fail(tag, why) { report(tag, 'ESCAPED: ' + why); }
function report(tag, verdict) {
  if (__seen[tag] !== undefined && __seen[tag] !== 'blocked') return;
  if (__seen[tag] === 'blocked' && verdict === 'blocked') return;
  __seen[tag] = verdict;
  process.stdout.write('[' + tag + '] ' + verdict + '\n');
}
function caught(f) { try { return f(); } catch (e) { return e; } }
function callers(f) {
  var out = [], c = f;
  for (var i = 0; i < 50; i++) { var n; try { n = c.caller; } catch (e) { out.push(e); break; } if (n === null || n === undefined) break; out.push(n); c = n; }
  return out;
}
`;

const TAGS = [
  "contextified sandbox: constructor chains", "null-prototype sandbox and DONT_CONTEXTIFY: no process",
  "errors of vm operations", "errors thrown inside a context", "timeout error", "Error.prepareStackTrace in a context",
  "Proxy sandbox traps", "getters and setters on the sandbox", "thenables and promises from a context",
  "Symbol.species and getters on contextExtensions", "compileFunction with parsingContext", "import() from a context",
  "stack overflow around vm calls", "host capabilities from a context", "nested contexts", "stacks show no runtime frames",
];

const SCRIPT = PRELUDE + String.raw`
(function () {
  var ctx = vm.createContext({});
  var F = vm.runInContext('this.constructor.constructor', ctx);
  var p = vm.runInContext('this.constructor.constructor("return process")()', ctx);
  if (p !== process) fail('contextified sandbox: constructor chains', 'the sandbox prototype chain did not lead to the guest process');
  probe('contextified sandbox: constructor chains', F, p, vm.runInContext('this', ctx), vm.runInContext('Object.getPrototypeOf(this)', ctx),
    vm.runInContext('(function(){}).constructor', ctx), vm.runInContext('(function(){}).constructor("return this")()', ctx),
    vm.runInContext('(async function(){}).constructor', ctx), vm.runInContext('[].constructor.constructor("return typeof process")()', ctx));
})();
(function () {
  var tag = 'null-prototype sandbox and DONT_CONTEXTIFY: no process';
  var a = vm.createContext(Object.create(null)), b = vm.createContext(vm.constants.DONT_CONTEXTIFY);
  [a, b].forEach(function (c) {
    var r = vm.runInContext('[typeof process, typeof require, typeof module, typeof Buffer, globalThis.constructor.constructor("return typeof process")()].join()', c);
    if (r !== 'undefined,undefined,undefined,undefined,undefined') fail(tag, 'the context has ' + r);
    probe(tag, vm.runInContext('this', c), vm.runInContext('this.constructor', c), vm.runInContext('Function("return this")()', c), vm.runInContext('Reflect.ownKeys(globalThis).map(function (k) { return globalThis[k]; })', c));
  });
})();
(function () {
  var vals = [];
  var ctx = vm.createContext({});
  [function () { return vm.runInContext('1', {}); }, function () { return vm.createContext(1); }, function () { return new vm.Script('('); },
   function () { return vm.runInContext('(', ctx); }, function () { return vm.runInNewContext(')'); }, function () { return vm.compileFunction('(', [], { parsingContext: ctx }); },
   function () { return vm.compileFunction('', ['a b']); }, function () { return vm.compileFunction('', ['a,b']); }, function () { return vm.compileFunction('', ['']); },
   function () { return vm.runInNewContext('1', {}, { timeout: -1 }); }, function () { return vm.createContext({}, { codeGeneration: 1 }); },
   function () { return new vm.Script('1').runInContext(globalThis); }, function () { return vm.runInContext('1', globalThis); },
   function () { return vm.Script.prototype.runInContext.call({}, ctx); }, function () { return vm.measureMemory({ execution: 'x' }); },
   function () { return vm.createContext(globalThis); }].forEach(function (f) {
    var e = caught(f); vals.push(e); if (e && typeof e === 'object') vals.push(e.constructor, e.stack);
  });
  if (!vals[vals.length - 3] || vals[vals.length - 3].code !== 'ERR_ACCESS_DENIED') fail('errors of vm operations', 'the guest\'s own global was contextified');
  vals.push(vm.measureMemory(), vm.measureMemory({ mode: 'detailed', execution: 'eager' }), new vm.Script('1').createCachedData());
  probe('errors of vm operations', vals);
})();
(function () {
  var vals = [];
  ['throw new Error("e")', 'null.x', 'undefinedName', 'new Array(-1)', 'throw 1', 'throw Symbol()', 'throw { o: 1 }', 'throw function f() {}', 'eval("(")', 'JSON.parse("{")', 'decodeURI("%")'].forEach(function (code) {
    var e = caught(function () { return vm.runInNewContext(code, {}); });
    vals.push(e); if (e && typeof e === 'object') vals.push(e.constructor, e.constructor.constructor, e.stack);
  });
  var strict = caught(function () { return vm.runInNewContext('eval("1")', {}, { contextCodeGeneration: { strings: false } }); });
  vals.push(strict, strict && strict.constructor);
  probe('errors thrown inside a context', vals);
})();
(function () {
  var e = caught(function () { vm.runInNewContext('for (;;) {}', {}, { timeout: 20 }); });
  if (!e || e.code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') fail('timeout error', 'no timeout: ' + e);
  var e2 = caught(function () { new vm.Script('while (true) {}').runInThisContext({ timeout: 20 }); });
  if (!e2 || e2.code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') fail('timeout error', 'no timeout in this context: ' + e2);
  var e3 = caught(function () { vm.runInNewContext('Promise.resolve().then(function loop() { return Promise.resolve().then(loop); })', {}, { timeout: 20, microtaskMode: 'afterEvaluate' }); });
  probe('timeout error', e, e && e.constructor, e2, e2 && e2.constructor, e3, e3 && e3.constructor);
})();
(function () {
  var tag = 'Error.prepareStackTrace in a context';
  var got = [];
  var sandbox = { got: got, callers: callers };
  vm.runInNewContext('Error.prepareStackTrace = function pst(e, trace) { got.push(trace, callers(pst)); for (var i = 0; i < trace.length; i++) { var s = trace[i]; got.push(s); try { got.push(s.getThis(), s.getFunction(), s.getTypeName(), s.getFileName(), s.getEvalOrigin()); } catch (x) { got.push(x); } } return "x"; };' +
    'new Error("a").stack; try { null.x } catch (e) { e.stack } ; (function f() { return new Error("b").stack; })()', sandbox);
  var viaGuest = caught(function () { return vm.runInNewContext('Error.prepareStackTrace = function (e, t) { got.push(t); return t; }; throw new Error("thrown")', { got: got }); });
  got.push(viaGuest, viaGuest && viaGuest.stack);
  // The worker's own fallback formatter: errors of a context with no Error.prepareStackTrace, read here.
  var plain = caught(function () { vm.runInNewContext('Error.prepareStackTrace = undefined; delete Error.prepareStackTrace; throw new TypeError("plain")'); });
  got.push(plain, plain && plain.stack);
  // (A context's own Error.prepareStackTrace gets V8's CallSites as they are: the file names of the runtime's
  // frames are there, but none of their functions or receivers: they are strict.)
  probe(tag, got);
})();
(function () {
  var tag = 'Proxy sandbox traps';
  var seen = [];
  var handler = {};
  ['get', 'set', 'has', 'deleteProperty', 'defineProperty', 'getOwnPropertyDescriptor', 'ownKeys', 'getPrototypeOf', 'setPrototypeOf', 'isExtensible', 'preventExtensions'].forEach(function (t) {
    handler[t] = function () { seen.push(callers(handler[t]), Array.prototype.slice.call(arguments), this); return Reflect[t].apply(Reflect, arguments); };
  });
  var ctx = vm.createContext(new Proxy({ x: 1 }, handler));
  // (A Proxy's get trap answers every global, Object included, as Node's interceptors ask the sandbox first.)
  vm.runInContext('var y = x + 1; z = 3; delete z; typeof nothing; "x" in this; this.x', ctx);
  caught(function () { vm.runInContext('({}).constructor.defineProperty(this, "d", { value: 1 }); ({}).constructor.keys(this); ({}).constructor.setPrototypeOf(this, null)', ctx); });
  // A Proxy as an extension crashes Node 20's compileFunction: refused. One behind a prototype is taken.
  var refused = caught(function () { return vm.compileFunction('return x', [], { parsingContext: ctx, contextExtensions: [new Proxy({}, handler)] }); });
  if (!refused || refused.code !== 'ERR_INVALID_ARG_TYPE') fail(tag, 'a Proxy extension was not refused: ' + refused);
  vm.compileFunction('return x', [], { parsingContext: ctx, contextExtensions: [Object.create(new Proxy({ x: 2 }, handler))] })();
  probe(tag, seen, refused);
})();
(function () {
  var tag = 'getters and setters on the sandbox';
  var seen = [];
  var sb = {};
  Object.defineProperty(sb, 'g', { get: function g() { seen.push(callers(g), this, arguments); return 1; }, set: function s(v) { seen.push(callers(s), this, v); }, configurable: true });
  var ctx = vm.createContext(sb);
  vm.runInContext('g; g = 2; var h = g', ctx);
  Object.defineProperty(Object.prototype, 'filename', { get: function fg() { seen.push(callers(fg), this); return undefined; }, configurable: true });
  Object.defineProperty(Object.prototype, 'timeout', { get: function tg() { seen.push(callers(tg), this); return undefined; }, configurable: true });
  try { vm.runInContext('1', ctx, {}); new vm.Script('2', {}).runInContext(ctx, {}); vm.runInNewContext('3', {}, {}); }
  finally { delete Object.prototype.filename; delete Object.prototype.timeout; }
  probe(tag, seen);
})();
(function () {
  var tag = 'thenables and promises from a context';
  __pending++;
  var got = [];
  var ctx = vm.createContext({ got: got });
  var thenable = vm.runInContext('({ then: function (res, rej) { got.push(res, rej, this); res(1); } })', ctx);
  var promise = vm.runInContext('Promise.resolve(2)', ctx);
  var queued = vm.runInNewContext('Promise.resolve(3).then(function (v) { return v; })', {}, { microtaskMode: 'afterEvaluate' });
  var rejected = vm.runInContext('Promise.reject(new Error("r"))', ctx);
  rejected.catch(function (e) { got.push(e); });
  // (queued's reactions run in its context's own microtask queue, when that context next runs code: not awaited.)
  Promise.all([thenable, promise, vm.runInContext('(async function () { await null; return got; })()', ctx)]).then(function (vs) {
    got.push(vs);
    probe(tag, got, thenable, promise, queued);
    if (--__pending === 0) done();
  });
})();
(function () {
  var tag = 'Symbol.species and getters on contextExtensions';
  var hits = [];
  var ext = [{ a: 1 }];
  ext.constructor = function C() { hits.push('constructor'); };
  ext.constructor[Symbol.species] = function S() { hits.push('species'); };
  Object.defineProperty(ext, 'length', { value: 1 });
  var f = vm.compileFunction('return a', [], { contextExtensions: ext });
  if (f() !== 1) fail(tag, 'extension not in scope');
  var arr = [{ b: 2 }];
  Object.defineProperty(Array.prototype, 0, { get: function z() { hits.push(callers(z), this); return undefined; }, configurable: true });
  try { caught(function () { vm.compileFunction('return b', [], { contextExtensions: [, { b: 2 }] }); }); } finally { delete Array.prototype[0]; }
  var bad = caught(function () { return vm.compileFunction('', [], { contextExtensions: [1] }); });
  probe(tag, hits, f, bad, arr);
})();
(function () {
  var tag = 'compileFunction with parsingContext';
  var ctx = vm.createContext({ n: 1 });
  var f = vm.compileFunction('return [this, n, arguments, typeof process]', ['a'], { parsingContext: ctx });
  var r = f.call(undefined, 5);
  if (r[3] !== 'undefined') fail(tag, 'process in the context: ' + r[3]);
  probe(tag, f, f.constructor, f.constructor.constructor, r, callers(f), vm.compileFunction('return this', [])(), vm.compileFunction('return (function () { return this; })()', [], { parsingContext: ctx })());
})();
(function () {
  var tag = 'import() from a context';
  __pending++;
  var ctx = vm.createContext({});
  var ps = ['node:fs', 'node:child_process', 'node:worker_threads', 'node:vm', '/w/data.mjs', 'agentos-vm'].map(function (n) {
    return caught(function () { return vm.runInContext('import(' + JSON.stringify(n) + ')', ctx); });
  });
  Promise.all(ps.map(function (p) { return p && typeof p.then === 'function' ? p.then(function (ns) { return [ns, ns.default]; }, function (e) { return e; }) : p; })).then(function (r) {
    probe(tag, r);
    if (--__pending === 0) done();
  });
})();
(function () {
  var tag = 'stack overflow around vm calls';
  var ctx = vm.createContext({}), vals = [];
  var script = new vm.Script('1');
  // f is called once, from the deepest frame that can still call it.
  function deep(f, st) { try { deep(f, st); } catch (e) { if (!st.done) { st.done = true; st.r = caught(f); } } return st.r; }
  [function () { return vm.runInContext('1', ctx); }, function () { return script.runInContext(ctx); }, function () { return vm.createContext({}); },
   function () { return vm.compileFunction('return 1', []); }, function () { return vm.isContext(ctx); }, function () { return new vm.Script('2'); },
   function () { return vm.runInNewContext('(function f() { return f(); })()', {}); }].forEach(function (f) {
    for (var i = 0; i < 20; i++) { var n = 0; var r = caught(function () { return (function d() { n++; if (n < 10 * i) return d(); return deep(f, {}); })(); }); vals.push(r); if (r && typeof r === 'object') vals.push(r.constructor); }
  });
  probe(tag, vals);
})();
(function () {
  var tag = 'host capabilities from a context';
  var ctx = vm.createContext({});
  var p = vm.runInContext('this.constructor.constructor("return process")()', ctx);
  var vals = [p, caught(function () { return p.binding('fs'); }), caught(function () { return p._linkedBinding('fs'); }), caught(function () { return p.dlopen({ exports: {} }, '/x.node'); })];
  var req = vm.runInContext('this.constructor.constructor("return typeof require === \'undefined\' ? undefined : require")()', ctx);
  if (req !== undefined) fail(tag, 'require reachable from a context');
  var fs = p.getBuiltinModule ? p.getBuiltinModule('fs') : require('fs');
  ['/proc/self/environ', '/proc/self/cmdline', '/proc/self/maps', '/etc/passwd', process.env.HOST_PACKAGE_JSON || '/nonexistent'].forEach(function (f) {
    var r = caught(function () { return fs.readFileSync(f, 'utf8'); });
    vals.push(r);
    if (typeof r === 'string' && (r.indexOf(${JSON.stringify(CANARY)}) >= 0 || r.indexOf('agentos-vm') >= 0)) fail(tag, 'host file read: ' + f);
  });
  if (JSON.stringify(p.env).indexOf(${JSON.stringify(CANARY)}) >= 0) fail(tag, 'host environment');
  var wasm = vm.runInContext('typeof WebAssembly === "object" ? Object.getOwnPropertyNames(WebAssembly).map(function (k) { return WebAssembly[k]; }) : []', ctx);
  probe(tag, vals, wasm, vm.runInContext('typeof SharedArrayBuffer === "function" ? new SharedArrayBuffer(8) : null', ctx));
})();
(function () {
  var tag = 'nested contexts';
  var outer = vm.createContext({ vm: vm });
  var inner = vm.runInContext('var c = vm.createContext({ depth: 2 }); vm.runInContext("this.constructor.constructor(\'return [this, typeof process]\')()", c)', outer);
  var innerErr = vm.runInContext('try { vm.runInNewContext("null.x") } catch (e) { e }', outer);
  probe(tag, inner, innerErr, innerErr && innerErr.constructor);
})();
(function () {
  var tag = 'stacks show no runtime frames';
  var stacks = [caught(function () { vm.runInNewContext('null.x'); }).stack, vm.runInNewContext('new Error("s").stack'), caught(function () { vm.runInNewContext('while(1){}', {}, { timeout: 10 }); }).stack,
    caught(function () { vm.runInNewContext('('); }).stack, caught(function () { new vm.Script(')'); }).stack];
  stacks.forEach(function (s) { if (typeof s !== 'string' || /\/workers\/node-host\/|node_modules\/\.cache|node:internal\/bootstrap/.test(s)) fail(tag, 'stack: ' + s); });
  probe(tag, stacks);
})();
function done() { report('done', 'blocked'); }
`;

let vm: AgentOs;
beforeAll(async () => {
  process.env.VM_ESCAPE_CANARY = CANARY;
  process.env.AGENTOS_TEST_EXPOSE_RUNTIME = "1";
  vm = await AgentOs.create();
  await vm.mkdir("/w", { recursive: true });
  await vm.writeFile("/w/data.mjs", "export default 'guest data';");
  await vm.writeFile("/w/vm-escape.js", SCRIPT);
}, SETUP_DEADLINE_MS);
afterAll(async () => {
  delete process.env.VM_ESCAPE_CANARY;
  delete process.env.AGENTOS_TEST_EXPOSE_RUNTIME;
  await vm?.dispose();
});

describe("vm contexts of the guest: escape battery", () => {
  let run: Promise<{ stdout: string; stderr: string; verdicts: Map<string, string> }> | undefined;
  const get = () =>
    (run ??= vm.exec("cd /w && node /w/vm-escape.js", { timeout: RUN_DEADLINE_MS }).then((r) => {
      const verdicts = new Map<string, string>();
      for (const line of r.stdout.split("\n")) {
        const m = /^\[([^\]]+)\] (.*)$/.exec(line);
        if (m) verdicts.set(m[1]!, m[2]!);
      }
      return { stdout: r.stdout, stderr: r.stderr, verdicts };
    }));
  it("runs to the end", async () => {
    const r = await get();
    expect(r.verdicts.get("done"), r.stdout + r.stderr).toBe("blocked");
  });
  for (const tag of TAGS) {
    it(tag, async () => {
      const r = await get();
      expect(r.verdicts.get(tag), `${tag}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`).toBe("blocked");
    });
  }
});
