import { createRequire } from "node:module";

/**
 * Node's internal bindings, which the worker reaches with `--expose-internals` (src/pool/node-workers.ts): the
 * functions Node's own `import()` and `util.inspect` are made of. Only worker code uses them; none is given
 * to the guest.
 */
export function internalBinding<T>(name: string): T {
  const binding = (createRequire(import.meta.url)("internal/test/binding") as { internalBinding: (name: string) => T }).internalBinding;
  return binding(name);
}
