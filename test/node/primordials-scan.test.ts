// The runtime's sources (workers/node-guest) call no method a guest can replace, run no iteration a guest can
// hook, and hand no capability to a setter: the scanner of primordials-scan.ts, its allow-list, and the count of
// what is not yet converted, which may only go down.
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createContext, runInContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { type Finding, scan, scanAll } from "./primordials-scan.js";

/**
 * Findings not yet converted, by file: each is a method a guest can replace that the runtime still calls on a
 * value, or an iteration it can hook. The count may only go down (none is left: a new finding is converted, or
 * allowed in primordials-scan.ts with its reason).
 */
const UNCONVERTED: Record<string, number> = {};

describe("the runtime's sources call no method a guest can replace", () => {
  it("has a scanner that finds each kind of finding (and not the safe forms)", () => {
    const code = `'use strict';
      const { SafeMap, SafeArrayIterator, ArrayPrototypePush } = require('internal/primordials');
      const m = new SafeMap();
      m.get(1); for (const [k] of m) k;
      for (const v of new SafeArrayIterator(list)) ArrayPrototypePush(out, v);
      for (const v of new SafeSetIterator(set)) v; for (const e of new SafeMapIterator(map)) e;
      list.push(1); s.slice(2); fn.call(null); p.then(f);
      for (const v of list) v; f(...list); const [a, b] = pair; o.x = internal.sys;
      new Int8Array([1, 2]); new Map(list); new Uint8Array(16); new Uint8Array(list.length); new SafeMap([[1, 2]]);
      const bytes = Buffer.alloc(4); bytes.length; list.length; v.byteLength; v.buffer = 1; GetByteLength(v); m.byteOffset;
      TypedArrayPrototypeMap(bytes, f); TypedArrayPrototypeSubarray(bytes, 1);
      const RE = /a/g; StringPrototypeReplace(s, /x/g, ''); StringPrototypeSplit(s, RE); RegExpPrototypeTest(/y/, s);
      StringPrototypeReplace(s, hardenRegExp(/x/g), ''); StringPrototypeSplit(s, ','); RegExpPrototypeExec(/y/, s);`;
    expect(scan("t.js", code).map((f) => f.what)).toEqual([
      "destructure [k]",
      "list.push", "s.slice", "fn.call", "p.then", "for-of list", "spread list", "destructure [a, b]", "capability o.x = internal.sys",
      "new Int8Array([1, 2])", "new Map(list)",
      "accessor bytes.length", "accessor v.byteLength", "species TypedArrayPrototypeMap",
      "regexp StringPrototypeReplace(/x/g)", "regexp StringPrototypeSplit(RE)", "regexp RegExpPrototypeTest",
    ]);
  });

  it("has no finding beyond those allowed and those counted as not yet converted", () => {
    const byFile = new Map<string, Finding[]>();
    for (const f of scanAll()) byFile.set(f.file, [...(byFile.get(f.file) ?? []), f]);
    const counts = Object.fromEntries([...byFile].map(([file, list]) => [file, list.length]));
    // On a failure, the findings of the files whose count changed.
    const changed = [...byFile].filter(([file, list]) => list.length !== (UNCONVERTED[file] ?? 0)).flatMap(([, list]) => list.map((f) => `${f.file}:${f.line} ${f.what}`));
    expect(counts, changed.slice(0, 200).join("\n")).toEqual(UNCONVERTED);
  });
});

describe("the runtime's hardened regular expressions reach nothing of RegExp.prototype", () => {
  it("replace, split, match, matchAll and search with RegExp.prototype's methods, flags and species hooked", () => {
    const source = readFileSync(join(resolve(dirname(fileURLToPath(import.meta.url)), "../.."), "workers/node-guest/internal/primordials.js"), "utf8");
    const script = `
      const module = { exports: {} };
      (function (module) { ${source}\n })(module);
      const P = module.exports;
      const seen = [];
      const R = RegExp.prototype;
      for (const key of Reflect.ownKeys(R)) {
        const d = Object.getOwnPropertyDescriptor(R, key);
        const label = String(key);
        if (typeof d.value === 'function') Object.defineProperty(R, key, { configurable: true, value: function (...a) { seen.push(label); return Reflect.apply(d.value, this, a); } });
        else if (d.get) Object.defineProperty(R, key, { configurable: true, get() { seen.push('get ' + label); return Reflect.apply(d.get, this, []); } });
      }
      Object.defineProperty(RegExp, Symbol.species, { configurable: true, get() { seen.push('species'); return RegExp; } });
      const h = P.hardenRegExp;
      const results = [
        P.StringPrototypeReplace('a+b+c', h(/\\+/g), '-'), P.StringPrototypeReplace('x1y22', h(/(\\d+)/), '<$1>'),
        P.StringPrototypeReplaceAll('aXbX', h(/X/g), (m) => m.toLowerCase()),
        P.StringPrototypeSplit('a, b,c', h(/\\s*,\\s*/)), P.StringPrototypeMatch('k=v; k2=v2', h(/(\\w+)=(\\w+)/)).slice(0, 3),
        Array.from(P.StringPrototypeMatchAll('a1b2', h(/[a-z](\\d)/g)), (m) => m[1]), P.StringPrototypeSearch('abc', h(/c/)),
        P.RegExpPrototypeSymbolReplace(h(/\\./g), 'a.b', '_'), P.RegExpPrototypeExec(/b/, 'abc').index, h(/x/gimsuy).flags,
      ];
      ({ results, seen });`;
    const out = runInContext(script, createContext({})) as { results: unknown[]; seen: string[] };
    expect(JSON.parse(JSON.stringify(out.results))).toEqual(["a-b-c", "x<1>y22", "axbx", ["a", "b", "c"], ["k=v", "k", "v"], ["1", "2"], 2, "a_b", 1, "gimsuy"]);
    expect(out.seen).toEqual([]);
  });
});

describe("the runtime's primordials make no species lookup a guest can see", () => {
  it("slice, splice, map, filter, concat, flat, flatMap, then, catch, finally, subarray and the view accessors, with the species and accessors replaced", () => {
    const source = readFileSync(join(resolve(dirname(fileURLToPath(import.meta.url)), "../.."), "workers/node-guest/internal/primordials.js"), "utf8");
    // A realm of its own: the runtime's primordials captured first, then a guest's getters on every
    // `constructor` and Symbol.species a species lookup reads, and on the view accessors; each counts its calls.
    const script = `
      const module = { exports: {} };
      (function (module) { ${source}\n })(module);
      const P = module.exports;
      const seen = [];
      const a = [1, 2, 3, [4]];
      const u8 = new Uint8Array([1, 2, 3, 4, 5]);
      const dv = new DataView(u8.buffer, 1, 2);
      const TA = Object.getPrototypeOf(Uint8Array);
      const hook = (owner, key, original) => Object.defineProperty(owner, key, { configurable: true, get() { seen.push(String(key)); return original; } });
      hook(Array.prototype, 'constructor', Array); hook(Array, Symbol.species, Array);
      hook(Promise.prototype, 'constructor', Promise); hook(Promise, Symbol.species, Promise);
      hook(TA.prototype, 'constructor', TA); hook(TA, Symbol.species, Uint8Array); hook(Uint8Array.prototype, 'constructor', Uint8Array);
      hook(ArrayBuffer.prototype, 'constructor', ArrayBuffer); hook(ArrayBuffer, Symbol.species, ArrayBuffer);
      for (const name of ['length', 'byteLength', 'byteOffset', 'buffer']) Object.defineProperty(TA.prototype, name, { configurable: true, get() { seen.push(name); return 0; } });
      Object.defineProperty(ArrayBuffer.prototype, 'byteLength', { configurable: true, get() { seen.push('ArrayBuffer byteLength'); return 0; } });
      Object.defineProperty(DataView.prototype, 'byteLength', { configurable: true, get() { seen.push('DataView byteLength'); return 0; } });
      const results = [
        P.ArrayPrototypeSlice(a, 1, 3), P.ArrayPrototypeMap(a, (x) => typeof x), P.ArrayPrototypeFilter(a, (x) => x !== 2),
        P.ArrayPrototypeConcat(a, [5], 6), P.ArrayPrototypeFlat(a), P.ArrayPrototypeFlatMap(a, (x) => [x, x]), P.ArrayPrototypeSplice(a, 0, 1), a,
        Array.from(P.TypedArrayPrototypeSubarray(u8, 1, -1)), Array.from(P.TypedArrayPrototypeSlice(u8, -2)),
        Array.from(new Uint8Array(P.ArrayBufferPrototypeSlice(P.GetBuffer(u8), 3))),
        [P.GetLength(u8), P.GetByteLength(u8), P.GetByteOffset(P.TypedArrayPrototypeSubarray(u8, 2)), P.GetByteLength(dv), P.GetByteLength(P.GetBuffer(u8))],
        Object.hasOwn(a, 'constructor'),
      ];
      const p = P.PromisePrototypeFinally(P.PromisePrototypeCatch(P.PromisePrototypeThen(Promise.reject(1), undefined, (e) => { throw e + 1; }), (e) => e + 1), () => {});
      ({ results, seen, p });`;
    const ctx = createContext({});
    const out = runInContext(script, ctx) as { results: unknown[]; seen: string[] };
    expect(JSON.parse(JSON.stringify(out.results))).toEqual([
      [2, 3], ["number", "number", "number", "object"], [1, 3, [4]], [1, 2, 3, [4], 5, 6], [1, 2, 3, 4], [1, 1, 2, 2, 3, 3, [4], [4]], [1], [2, 3, [4]],
      [2, 3, 4], [4, 5], [4, 5], [5, 5, 2, 2, 5], false,
    ]);
    expect(out.seen).toEqual([]);
  });
});
