// Cases of test/node/node.differential.test.ts: contexts the guest makes with `vm` (workers/node-host/vm-contexts.ts):
// globals and their realm, errors thrown inside (their class is the context's), syntax errors (the caller's realm
// for vm.Script, the context's for runInContext), timeouts, compileFunction, DONT_CONTEXTIFY, argument checks.
// (The stack of an error thrown by a script's code lacks the source line Node puts above it: see
// workers/node-host/vm-contexts.ts; only its message line is compared.)
import type { Case } from "./case.js";

const js = String.raw;
export const CASES: Case[] = [
  { name: "vm-context-globals", code: js`const vm = require('vm');
const sandbox = { n: 2, list: [1, 2] };
const ctx = vm.createContext(sandbox);
console.log(ctx === sandbox, vm.isContext(ctx), vm.isContext({}), vm.isContext(globalThis));
vm.runInContext('var y = n * 21; globalThis.z = list.length; function f() { return y; }', ctx);
console.log(sandbox.y, sandbox.z, typeof sandbox.f, sandbox.f());
console.log(vm.runInContext('typeof process + " " + typeof require + " " + typeof module + " " + typeof Buffer + " " + typeof setTimeout', ctx));
console.log(vm.runInContext('[Object.getPrototypeOf(list) === Array.prototype, list instanceof Array, Array.isArray(list)]', ctx));
const arr = vm.runInNewContext('[1, 2, 3]');
console.log(arr instanceof Array, Array.isArray(arr), arr.map((x) => x * 2), JSON.stringify(vm.runInNewContext('({ a: 1, b: [true, null] })')));
console.log(vm.runInNewContext('this.constructor.name + " " + Object.keys(this).join()', { a: 1, b: 2 }));
console.log(vm.runInNewContext('x + y', { x: 'con', y: 'text' }), vm.runInNewContext('typeof x', {}), vm.runInNewContext('eval("1 + 1")'));
const g = vm.createContext(vm.constants.DONT_CONTEXTIFY);
console.log(vm.runInContext('globalThis.q = 5; var r = 6; typeof q + typeof Array', g), g.q, g.r, vm.isContext(g));
const s = new vm.Script('count = (typeof count === "number" ? count : 0) + 1', { filename: 'counter.js' });
const c1 = vm.createContext({}), c2 = vm.createContext({ count: 10 });
s.runInContext(c1); s.runInContext(c1); s.runInContext(c2);
console.log(c1.count, c2.count, s.runInNewContext({ count: 41 }), Object.keys(s), s.runInThisContext() === 1);
console.log(typeof vm.runInNewContext('Promise.resolve(1)', {}, { microtaskMode: 'afterEvaluate' }).then);
` },
  { name: "vm-context-errors", code: js`const vm = require('vm');
const show = (e) => console.log(e.name, JSON.stringify(e.message), e.code, e instanceof Error, e.constructor.name, Object.keys(e));
try { vm.runInNewContext('throw new TypeError("in ctx")'); } catch (e) { show(e); }
try { vm.runInNewContext('null.x', {}, 'file.js'); } catch (e) { show(e); console.log(e.stack.split('\n').filter((l) => !l.startsWith('    at ')).pop()); }
try { vm.runInNewContext('('); } catch (e) { show(e); console.log(e.stack.split('\n').slice(0, 5).join('|')); }
try { new vm.Script('let let = 1', { filename: 'bad.js' }); } catch (e) { show(e); console.log(e.stack.split('\n').slice(0, 5).join('|')); }
try { vm.runInContext('x = ', vm.createContext()); } catch (e) { show(e); }
try { vm.runInNewContext('while (true) {}', {}, { timeout: 50 }); } catch (e) { show(e); console.log(e.stack.split('\n')[0]); }
try { vm.runInNewContext('throw 42'); } catch (e) { console.log(e); }
try { vm.runInNewContext('throw obj', { obj: { mine: true } }); } catch (e) { console.log(e); }
try { vm.runInNewContext('eval("1")', {}, { contextCodeGeneration: { strings: false } }); } catch (e) { show(e); }
try { vm.runInNewContext('new Function("return 1")()', {}, { contextCodeGeneration: { strings: false } }); } catch (e) { show(e); }
console.log(vm.runInNewContext('new Error("x").stack.split("\\n")[0]'));
const e = vm.runInNewContext('new RangeError("inspected")', {}, 'ctx.js');
console.log(require('util').inspect(e).split('\n')[0], require('util').types.isNativeError(e));
` },
  { name: "vm-context-arguments", code: js`const vm = require('vm');
const tries = [
  () => vm.runInContext('1', {}),
  () => vm.createContext(1),
  () => vm.createContext({}, { microtaskMode: 'x' }),
  () => vm.createContext({}, { name: 1 }),
  () => vm.createContext({}, { codeGeneration: { strings: 1 } }),
  () => vm.runInNewContext('1', {}, { timeout: 0 }),
  () => vm.runInNewContext('1', {}, { timeout: 1.5 }),
  () => vm.runInNewContext('1', {}, { breakOnSigint: 'yes' }),
  () => new vm.Script('1', { lineOffset: 1.5 }),
  () => new vm.Script('1', { filename: 3 }),
  () => vm.compileFunction('', [1]),
  () => vm.compileFunction('', 'a'),
  () => vm.compileFunction('', [], { parsingContext: {} }),
  () => vm.compileFunction('', [], { contextExtensions: [1] }),
  () => vm.measureMemory({ mode: 'x' }),
  () => vm.isContext(null),
  () => new vm.Script('1').runInContext({}),
];
for (const t of tries) { try { console.log('ok', t()); } catch (e) { console.log(e.name, e.code, e.message); } }
console.log(Object.keys(vm).sort().join(), Object.keys(vm.constants).join(), typeof vm.constants.DONT_CONTEXTIFY);
const s = new vm.Script('1', { produceCachedData: true });
console.log(Object.keys(s).sort(), s.cachedDataProduced === true || s.cachedDataProduced === false, Buffer.isBuffer(s.createCachedData()));
console.log(Object.keys(new vm.Script('1', { cachedData: Buffer.alloc(0) })).sort(), new vm.Script('1', { cachedData: Buffer.alloc(0) }).cachedDataRejected);
` },
  { name: "vm-compile-function", code: js`const vm = require('vm');
const f = vm.compileFunction('return a + b', ['a', 'b']);
console.log(f(1, 2), f.length, f.name, f instanceof Function);
const ctx = vm.createContext({ base: 100 });
const g = vm.compileFunction('return base + x + extra', ['x'], { parsingContext: ctx, contextExtensions: [{ extra: 1000 }] });
console.log(g(1), g instanceof Function, vm.runInContext('typeof g', ctx));
const h = vm.compileFunction('return this === undefined ? "strict" : typeof this', [], { parsingContext: ctx });
console.log(h(), h.call(5));
try { vm.compileFunction('return (', [], { filename: 'fn.js' }); } catch (e) { console.log(e.name, e.message, e instanceof SyntaxError); }
try { vm.compileFunction('return (', [], { parsingContext: ctx }); } catch (e) { console.log(e.name, e.message); }
try { vm.compileFunction('throw new TypeError("from fn")', [], { parsingContext: ctx })(); } catch (e) { console.log(e.name, e.message, e instanceof TypeError); }
const k = vm.compileFunction('return arguments.length', [], { filename: 'k.js', lineOffset: 3 });
console.log(k(1, 2, 3));
try { vm.compileFunction('throw new Error("where")', [], { filename: 'where.js', lineOffset: 4, columnOffset: 2 })(); } catch (e) { console.log(e.stack.split('\n')[1].trim()); }
` },
];
