import { internalBinding } from "./node-internals.js";

/**
 * Makes `onImport`, a function of the guest's realm (workers/node-guest/internal/bootstrap.js), what V8 calls
 * for every `import()` in this worker. Node's own callback is a function of the worker's realm: an `import()`
 * made with the stack all but exhausted overflowed in its frames, and the guest got that RangeError, an
 * object of the worker's realm, thrown or as the rejection. With the guest's callback the first frame V8
 * enters is the guest's, and so is every error. The setter is internal to Node (`module_wrap`, unchanged
 * since Node 12). Set once booted, when nothing of the worker imports anything any more.
 */
export function setImportCallback(onImport: unknown): void {
  if (typeof onImport !== "function") throw new Error("the guest has no import() callback");
  const set = internalBinding<{ setImportModuleDynamicallyCallback?: unknown }>("module_wrap").setImportModuleDynamicallyCallback;
  if (typeof set !== "function") throw new Error(`Node ${process.version} has no setImportModuleDynamicallyCallback`);
  set(onImport);
}
