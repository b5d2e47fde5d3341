import { types } from "node:util";
import type { HostOp } from "./host-ops.js";
import { internalBinding } from "./node-internals.js";

interface UtilBinding {
  getPromiseDetails(p: unknown): [number, unknown?] | undefined;
  getProxyDetails(p: unknown, withHandler?: boolean): [unknown, unknown] | undefined;
  previewEntries(o: unknown, pairs?: true): [unknown[], boolean] | undefined;
}

/**
 * What the guest's `util.inspect` cannot see from its realm (workers/node-guest/builtins/util.js): a promise's
 * state and result, a proxy's target and handler, the entries of a Map or Set iterator. V8's introspection
 * (Node's `util` binding, what Node's own inspect calls) reads them from internal slots: no guest code runs,
 * no trap, no getter. The objects are tested with `util.types`, which reads no property either. What goes
 * back is the guest's own values; a value of the worker's realm never does.
 */
export function inspectOps(isHostValue: (v: unknown) => boolean): Record<string, HostOp> {
  const util = internalBinding<UtilBinding>("util");
  const guestOnly = (v: unknown): unknown => (isHostValue(v) ? undefined : v);
  return {
    /** 0 pending, 1 fulfilled, 2 rejected; -1 for anything else. */
    promiseState: (p) => (types.isPromise(p) ? util.getPromiseDetails(p)![0] : -1),
    promiseResult: (p) => (types.isPromise(p) ? guestOnly(util.getPromiseDetails(p)![1]) : undefined),
    /** A proxy's target (part 0) or handler (part 1), null once revoked; "\0" for a value that is no proxy. */
    proxyPart: (p, part) => (types.isProxy(p) ? guestOnly(util.getProxyDetails(p, true)![part === 1 ? 1 : 0]) : "\0"),
    /**
     * The entries of a Map or Set iterator, or of a WeakMap (key, value, …) or WeakSet, defined on `out` (a
     * fresh array of the guest: defining runs no setter); answers whether they are key/value pairs.
     */
    previewEntries: (o, out) => {
      const iterator = types.isMapIterator(o) || types.isSetIterator(o);
      if (!(iterator || types.isWeakMap(o) || types.isWeakSet(o)) || !Array.isArray(out) || types.isProxy(out) || isHostValue(out) || out.length !== 0) return undefined;
      const [entries, pairs] = iterator ? util.previewEntries(o, true)! : [util.previewEntries(o) as unknown as unknown[], types.isWeakMap(o)];
      entries.forEach((v, i) => Object.defineProperty(out, i, { value: guestOnly(v), writable: true, enumerable: true, configurable: true }));
      return pairs;
    },
  };
}
