// The runtime's sources (workers/node-guest) call no method a guest can replace, run no iteration a guest can
// hook, and hand no capability to a setter: the scanner of primordials-scan.ts, its allow-list, and the count of
// what is not yet converted, which may only go down.
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
      new Int8Array([1, 2]); new Map(list); new Uint8Array(16); new Uint8Array(list.length); new SafeMap([[1, 2]]);`;
    expect(scan("t.js", code).map((f) => f.what)).toEqual([
      "destructure [k]",
      "list.push", "s.slice", "fn.call", "p.then", "for-of list", "spread list", "destructure [a, b]", "capability o.x = internal.sys",
      "new Int8Array([1, 2])", "new Map(list)",
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
