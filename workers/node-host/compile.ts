import vm from "node:vm";

/**
 * The only user of `node:vm` in the runtime (test/node/escape.test.ts checks it). `import()` in code compiled
 * here is served by the guest's own callback (workers/node-host/import-callback.ts), not by `vm`'s
 * `importModuleDynamically`, which Node would call from a function of the worker's realm.
 */

/** The guest's global: a context of its own whose global object is not a wrapper of a host object. */
export function createGuestContext(): object {
  // DONT_CONTEXTIFY: an ordinary global (fast global access, no interceptor that could lead to the host's
  // Object.prototype). Node ≥ 20.18 / 22.8 have it; without it the sandbox object has a null prototype.
  const constant = (vm.constants as unknown as { DONT_CONTEXTIFY?: symbol } | undefined)?.DONT_CONTEXTIFY;
  const options = { name: "node", microtaskMode: undefined };
  return constant ? vm.createContext(constant as never, options) : vm.createContext(Object.create(null) as object, options);
}

/** A function compiled in the guest's context: a value of the guest's realm. Throws the context's SyntaxError. */
export function compileInContext(context: object, source: string, params: readonly string[], filename: string): Function {
  return vm.compileFunction(source, [...params], { parsingContext: context, filename });
}

/**
 * A function of the runtime compiled in the guest's context from a script `(function (params) { source })`, so
 * that the script's code cache, made after the function ran, includes what V8 compiled lazily (a spare worker
 * boots 2–4× faster with it). `cachedData` is a cache made so; a stale one is ignored by V8.
 *
 * It is strict whatever its source says (a polyfill's `'use strict'` after a comment is no directive): no
 * function of the runtime is then a sloppy one, whose `caller` and `arguments` a guest function it calls could
 * read; V8 answers `caller` null for a strict caller, and hides strict frames (and those below them) from the
 * CallSites of a guest's Error.prepareStackTrace. The directive is on the function's first line, so line
 * numbers stay the source's.
 */
export function compileCachedFunction(context: object, source: string, params: readonly string[], filename: string, cachedData: Uint8Array | undefined): { fn: Function; script: vm.Script } {
  const script = new vm.Script(`(function (${params.join(", ")}) {'use strict';${source}\n})`, { filename, cachedData });
  return { fn: script.runInContext(context as vm.Context) as Function, script };
}

/** Runs `source` as a script of the guest's global scope (as `node -e` does); answers its completion value. */
export function runScriptInContext(context: object, source: string, filename: string): unknown {
  return new vm.Script(source, { filename }).runInContext(context as vm.Context, { displayErrors: false });
}

/** `initMeta` fills `import.meta` (a fresh object of the guest's realm). */
export function sourceTextModule(context: object, source: string, url: string, initMeta: (meta: object, module: vm.SourceTextModule) => void): vm.SourceTextModule {
  return new vm.SourceTextModule(source, { context: context as vm.Context, identifier: url, initializeImportMeta: initMeta as never });
}

/** A module whose exports the runtime sets (builtins, CommonJS, JSON imported from ESM). */
export function syntheticModule(context: object, names: readonly string[], url: string, evaluate: (m: vm.SyntheticModule) => void): vm.SyntheticModule {
  const m: vm.SyntheticModule = new vm.SyntheticModule([...names], () => evaluate(m), { context: context as vm.Context, identifier: url });
  return m;
}

/**
 * Linking without waiting: a module's requests, given their modules at once, then its graph instantiated;
 * evaluating a graph without top-level await then completes before `evaluate()` returns. `require()` of an
 * ES module needs it. Newer Node's `vm.SourceTextModule` has it as such (Node 24); see syncLinkable.
 */
export interface SyncLinkable {
  readonly moduleRequests: readonly { readonly specifier: string }[];
  linkRequests(modules: readonly vm.Module[]): void;
  instantiate(): void;
  hasAsyncGraph(): boolean;
}

/** The internal object of Node 20's vm modules (src/module_wrap.cc), as its vm and require(esm) call it. */
interface ModuleWrap {
  getModuleRequests(): readonly { readonly specifier: string }[];
  link(specifiers: readonly string[], wraps: readonly ModuleWrap[]): void;
  instantiate(): void;
  isGraphAsync(): boolean;
}

/**
 * Node 20's vm (≥ 20.19) links a SourceTextModule only through the promises of `link()`, but under it the
 * module's ModuleWrap (vm's `kWrap` property) is linked synchronously: `wrap.link(specifiers, wraps)` once the
 * linker's promises settled, then `wrap.instantiate()`; Node's own require(esm) uses the same calls. This
 * makes them directly. Used only where vm has no `linkRequests` and its link step is seen to make exactly that
 * call (ModuleWrap checks its arguments with CHECK: a call of another shape would abort the worker). Modules
 * so linked are the same vm modules (their status, namespace and evaluate() read the wrap).
 */
function moduleWrapLinking(): ((m: vm.Module) => SyncLinkable) | undefined {
  const proto = vm.SourceTextModule?.prototype as unknown as Record<symbol, unknown> | undefined;
  if (!proto) return undefined;
  const callsLink = (f: unknown): boolean => typeof f === "function" && Function.prototype.toString.call(f).includes("this[kWrap].link(specifiers, modules)");
  if (!Object.getOwnPropertySymbols(proto).some((s) => callsLink(proto[s]))) return undefined;
  let kWrap: symbol | undefined;
  const wrapOf = (m: vm.Module): ModuleWrap => {
    kWrap ??= Object.getOwnPropertySymbols(m).find((s) => s.description === "kWrap");
    const wrap = kWrap && (m as unknown as Record<symbol, ModuleWrap | undefined>)[kWrap];
    if (!wrap) throw new Error("vm module without its ModuleWrap");
    return wrap;
  };
  /** What each wrap was linked with: instantiating clears the root's links, failing or not. */
  const links = new WeakMap<ModuleWrap, [string[], ModuleWrap[]]>();
  return (m) => {
    const wrap = wrapOf(m);
    return {
      get moduleRequests() {
        return wrap.getModuleRequests();
      },
      linkRequests(modules) {
        const specifiers = wrap.getModuleRequests().map((r) => r.specifier);
        if (modules.length !== specifiers.length) throw new Error(`expected ${specifiers.length} modules, got ${modules.length}`);
        const wraps = modules.map(wrapOf);
        wrap.link(specifiers, wraps);
        links.set(wrap, [specifiers, wraps]);
      },
      instantiate() {
        try {
          wrap.instantiate();
        } catch (e) {
          // Linked again, so that instantiating it (or a graph it is part of) fails the same way again.
          const linked = links.get(wrap);
          if (linked) wrap.link(...linked);
          throw e;
        }
      },
      hasAsyncGraph: () => wrap.isGraphAsync(),
    };
  };
}

const nativeSyncLinking = typeof (vm.SourceTextModule?.prototype as Partial<SyncLinkable> | undefined)?.linkRequests === "function";
const wrapLinking = nativeSyncLinking ? undefined : moduleWrapLinking();

/** Whether this Node links modules synchronously (feature-detected: vm modules are experimental). */
export const syncLinking = nativeSyncLinking || wrapLinking !== undefined;

/** `m`'s synchronous linking (only where syncLinking). */
export function syncLinkable(m: vm.Module): SyncLinkable {
  return wrapLinking ? wrapLinking(m) : (m as unknown as SyncLinkable);
}

export type { SourceTextModule, SyntheticModule, Module } from "node:vm";

// ---- contexts the guest makes with its own `vm` (workers/node-host/vm-contexts.ts) ----

/** How a guest's context is made: primitives only, checked by the caller. */
export interface SubcontextOptions {
  name: string;
  origin: string | undefined;
  strings: boolean;
  wasm: boolean;
  afterEvaluate: boolean;
}

/**
 * A new context for the guest: `sandbox` (the guest's own object) contextified, or without it a context whose
 * global is an ordinary object (vm.constants.DONT_CONTEXTIFY). Node's vm reads nothing of `sandbox` (it checks
 * whether it already is a context, through a private symbol, which no Proxy trap sees) and answers it, or the
 * new global, which is the new context's. No importModuleDynamically option (`import()` is the guest's callback's).
 */
export function createSubcontext(sandbox: object | undefined, o: SubcontextOptions): object {
  const options = { name: o.name, origin: o.origin, codeGeneration: { strings: o.strings, wasm: o.wasm }, microtaskMode: o.afterEvaluate ? ("afterEvaluate" as const) : undefined };
  if (sandbox !== undefined) return vm.createContext(sandbox, options);
  const constant = (vm.constants as unknown as { DONT_CONTEXTIFY?: symbol } | undefined)?.DONT_CONTEXTIFY;
  return constant ? (vm.createContext(constant as never, options) as object) : vm.createContext(Object.create(null) as object, options);
}

/** Whether `o` is a context (the guest's own global is one, made with DONT_CONTEXTIFY: the caller tells them apart). */
export function isSubcontext(o: object): boolean {
  return vm.isContext(o);
}

/** Where a script's code is: its name and the offsets of its first line and column. */
export interface ScriptOrigin {
  filename: string;
  lineOffset: number;
  columnOffset: number;
}

/** Compiles a script (in the worker's context, as Node's vm.Script does): throws its SyntaxError. */
export function compileScript(source: string, origin: ScriptOrigin): vm.Script {
  return new vm.Script(source, { filename: origin.filename, lineOffset: origin.lineOffset, columnOffset: origin.columnOffset });
}

/**
 * Runs a compiled script in `context`; `timeout` (ms, 0 for none) ends it with ERR_SCRIPT_EXECUTION_TIMEOUT.
 * Never breakOnSigint: Node's watchdog for it takes the host process's SIGINT. Never displayErrors: to put the
 * source line above a thrown error's stack, Node reads the stack from this realm, and V8 then makes the trace
 * and its CallSites, which a guest's Error.prepareStackTrace is given, in this realm.
 */
export function runScriptIn(script: vm.Script, context: object, timeout: number): unknown {
  return script.runInContext(context as vm.Context, { timeout: timeout > 0 ? timeout : undefined, displayErrors: false });
}

/** A function compiled in `context` (vm.compileFunction's parsingContext), with `extensions` in its scope. */
export function compileFunctionIn(context: object, source: string, params: readonly string[], origin: ScriptOrigin, extensions: readonly object[]): Function {
  return vm.compileFunction(source, [...params], { parsingContext: context as vm.Context, filename: origin.filename, lineOffset: origin.lineOffset, columnOffset: origin.columnOffset, contextExtensions: [...extensions] });
}
