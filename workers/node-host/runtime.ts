import { tlsOps } from "./tls-ops.js";
import { AsyncLocalStorage } from "node:async_hooks";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { types } from "node:util";
import { getHeapStatistics, promiseHooks } from "node:v8";
import { MessageChannel, MessagePort as HostMessagePort, type MessagePort, moveMessagePortToContext, parentPort, receiveMessageOnPort, workerData } from "node:worker_threads";
import { WASM_PAGE_BYTES, type NodeTask } from "../../src/abi/process-task.js";
import { System } from "../system.js";
import { setImportCallback } from "./import-callback.js";
import { inspectOps } from "./inspect-ops.js";
import { pathOps } from "./path-ops.js";
import { v8Ops } from "./v8-ops.js";
import { nodeTablesOps } from "./node-tables-ops.js";
import { inspectPatched as patchInspect } from "./inspect-patches.js";
import { polyfillPatched } from "./polyfill-patches.js";
import { listRuntimeFiles, PolyfillFiles, type PolyfillSnapshot } from "./runtime-sources.js";
import { compileCachedFunction, compileInContext, createGuestContext, runScriptInContext, syncLinking } from "./compile.js";
import { EsmLoader } from "./esm-loader.js";
import { callOp, hostOps, killed, type HostOp, type HostState } from "./host-ops.js";
import { WakeWaiter } from "./wake-waiter.js";
import { vmContextOps } from "./vm-contexts.js";

/**
 * A worker that runs one guest `node` process (src/kernel/node-process.ts). It boots before any process
 * asks for it: the guest's context, its bootstrap and builtins (workers/node-guest/); then it gets its
 * process (argv, env, cwd, the system-call channel and the wake ring) and runs the guest's main module.
 *
 * The worker's realm is trusted and the guest never reaches it: the guest's context gets two functions of
 * it, captured by the bootstrap in a closure (the host operations and the runtime's loader), and everything
 * crossing is a primitive (host-ops.ts).
 * The worker's event loop is the guest's: its timers are the worker's timers, readiness events come from
 * the wake ring, and when nothing is left the worker ends with the guest's exit code.
 */
/** The runtime's own guest-side files (workers/node-guest/ of the package), as the pool gives it. */
const guestDir = new URL((workerData as { guestDir: string }).guestDir);
const requireHere = createRequire(import.meta.url);

/**
 * The polyfills taken from npm packages, by builtin name (their own `require`s resolve beside them).
 *
 * They are npm code as published: they call methods on their values (`list.push`, `s.toLowerCase()`,
 * `fn.call`, for…of), which a guest can replace, so a guest's hook runs inside them. What keeps that from
 * being an escape is what they hold, not how they call, and it is checked rather than assumed:
 * - compiled strict whatever their source says (compile.ts): a hook sees `caller === null`, no frame's
 *   arguments;
 * - no capability given: no `internal`, and a `require` that reaches builtins and their own package's files
 *   only (bootstrap.js);
 * - no capability passed in: the runtime hands them data the guest gave or asked for (bytes, strings,
 *   chunks, listeners, the values util.inspect is asked to show), never `internal`, `host`, the loader, the
 *   scratch buffer or a privileged module's exports (the runtime's sources are scanned for a capability
 *   assigned anywhere: test/node/primordials-scan.ts);
 * - checked per package by test/node/escape-capabilities.test.ts, whose workloads load and drive each one
 *   (buffer, fs: npm buffer with base64-js and ieee754; events, process, net: events; stream, fs,
 *   child_process: readable-stream; string_decoder; path, other: path-browserify; module, esm:
 *   cjs-module-lexer; util, console: node-inspect-extracted; webstreams, fetch: web-streams-polyfill) with
 *   hooks on every property name their sources use, on the intrinsics, on the iteration protocol and on
 *   globals, against an oracle of every privileged object.
 * readable-stream's stand-in for primordials is replaced by the runtime's (bootstrap.js). Converting vendored
 * copies of the rest to primordials would close the differences a replaced method makes to their results
 * (test/node/primordials.test.ts lists them), not a way to a capability.
 */
const NPM_BUILTINS: Record<string, string> = {
  "npm-buffer": "buffer/index.js",
  "npm-events": "events/events.js",
  "npm-stream": "readable-stream/lib/ours/index.js",
  "npm-string-decoder": "string_decoder/lib/string_decoder.js",
  "npm-path": "path-browserify/index.js",
  "npm-cjs-lexer": "cjs-module-lexer",
  "node-inspect-extracted": "node-inspect-extracted",
  "npm-web-streams": "web-streams-polyfill/dist/ponyfill.js",
};

/**
 * The files the runtime compiles into the guest's context, and nothing else: the runtime's own (ids
 * `internal/…` and `builtins/…`, listed from the guest folder at boot) and the polyfills' (`npm:` + a real path
 * inside one of the polyfill packages or their dependencies; runtime-sources.ts). The guest's realm names a file
 * by id only; the worker reads and compiles it. No host file outside these is ever read for the guest: the
 * guest's own files come from the kernel.
 */
const runtimeFiles = listRuntimeFiles(guestDir);
const polyfills = new PolyfillFiles(Object.values(NPM_BUILTINS), requireHere, (workerData as BootData).polyfills);

/** The source of an allowed file (inspect-patches.ts rewrites the one variant that has patches; polyfill-patches.ts the polyfills). */
function internalSource(id: string, variant?: string): string {
  if (runtimeFiles.has(id) && id !== "internal/bootstrap") return readFileSync(new URL(`${id}.js`, guestDir), "utf8");
  const file = id.startsWith("npm:") ? polyfills.allowed(id.slice(4)) : undefined;
  if (file === undefined) throw new Error(`not a file of the runtime: ${id}`);
  const source = readFileSync(file, "utf8");
  return variant === "inspect-patched" ? patchInspect(source) : polyfillPatched(file, source);
}

/** Where `request` of the polyfill file `from` (or, without `from`, the polyfill builtin named `request`) is. */
function npmResolve(request: string, from: string | undefined): string {
  if (from === undefined) {
    const entry = NPM_BUILTINS[request];
    return entry === undefined ? "" : `npm:${polyfills.resolve(entry, undefined)}`;
  }
  const file = from.startsWith("npm:") ? polyfills.allowed(from.slice(4)) : undefined;
  if (file === undefined) return "";
  const resolved = polyfills.resolve(request, file);
  return resolved === undefined ? "" : `npm:${resolved}`;
}

/**
 * What a compiled file is given, by kind: the runtime's own files get `internal`; a polyfill gets neither
 * `internal` nor any other capability (its `require` reaches builtins and its own package's files only).
 */
const RUNTIME_PARAMS = ["exports", "require", "module", "internal", "__filename", "__dirname"];
/**
 * A polyfill's Object, Math, Reflect and JSON are the boot-time ones (workers/node-guest/internal/polyfill-globals.js),
 * `primordials` the runtime's (what polyfill-patches.ts rewrites their calls into), and the built-in constructors
 * it names (`new Array(n)`, `new TypeError(…)`, `x instanceof Uint8Array`, `Symbol.for(…)`) the boot-time ones
 * too (POLYFILL_CONSTRUCTORS, in polyfill-globals.js's order), not what a guest put on the global since.
 */
const POLYFILL_CONSTRUCTORS = [
  "AggregateError", "Array", "ArrayBuffer", "BigInt", "BigInt64Array", "BigUint64Array", "Boolean", "DataView", "Date", "Error", "EvalError",
  "FinalizationRegistry", "Float32Array", "Float64Array", "Int16Array", "Int32Array", "Int8Array", "Map", "Number", "Promise", "RangeError",
  "ReferenceError", "RegExp", "Set", "SharedArrayBuffer", "String", "Symbol", "SyntaxError", "TypeError", "URIError", "Uint16Array",
  "Uint32Array", "Uint8Array", "Uint8ClampedArray", "WeakMap", "WeakRef", "WeakSet",
];
const POLYFILL_PARAMS = ["exports", "require", "module", "__filename", "__dirname", "Object", "Math", "Reflect", "JSON", "primordials", ...POLYFILL_CONSTRUCTORS];
const INSPECT_PARAMS = ["exports", "require", "module", "__h"];
/** A guest's CommonJS module (workers/node-guest/internal/modules.js). */
const CJS_PARAMS = ["exports", "require", "module", "__filename", "__dirname"];

/** The name a file is compiled as: Node names its own dependencies node:internal/deps/<package>/<file>. */
function internalName(id: string, variant: string | undefined): string {
  if (!id.startsWith("npm:")) return `node:${id}`;
  const name = `node:internal/deps/${id.slice(id.lastIndexOf("node_modules/") + 13)}`;
  return variant === "inspect-patched" ? name.replace(/\.js$/, "-guest.js") : name;
}

const ops = new Map<string, HostOp>();
/**
 * Set by the host process for the escape battery (test/node/escape*.test.ts) only: the guest then gets the
 * runtime's host function and an oracle of its privileged objects (bootstrap.js), so that the battery can call
 * every host operation with hostile arguments and tell what its hooks reached. A guest cannot set it: it is
 * the worker's environment, which is the host process's.
 */
const EXPOSE_FOR_TESTS = process.env.AGENTOS_TEST_EXPOSE_RUNTIME === "1";
let dispatch: (...args: unknown[]) => unknown = () => undefined;

let esm: EsmLoader | undefined;
const context = createGuestContext();

/**
 * What the guest holds: its heap and the memory outside it (ArrayBuffers, which the heap limit does not
 * cover), in 64 KiB pages, reported with every system call so that the kernel counts it against the VM
 * (src/kernel/guest-memory-account.ts). Measured at most once a millisecond (~3 µs each).
 */
class HeapMeter {
  private measuredAt = -Infinity;
  private value = 0;
  get pages(): number {
    const now = performance.now();
    if (now - this.measuredAt >= 1) {
      const s = getHeapStatistics();
      this.value = Math.ceil((s.used_heap_size + (s as { external_memory?: number }).external_memory!) / WASM_PAGE_BYTES);
      this.measuredAt = now;
    }
    return this.value;
  }
}

/**
 * The memory links of this process's threads (Sys.THREADOF, src/kernel/syscalls/process.ts): by link (0: the
 * parent; else the Worker's pid), the port this runtime posts SharedArrayBuffers on, the one it reads those of
 * the other thread from, and how many went each way. They come from the kernel as messages beside the task,
 * read when first needed. Neither holds the worker's loop: the guest's own handles do.
 */
const memoryLinks = new Map<number, { out: MessagePort; in: MessagePort; sent: number; taken: number }>();
function memoryLink(link: number): { out: MessagePort; in: MessagePort; sent: number; taken: number } {
  for (let m = receiveMessageOnPort(parentPort!); m !== undefined; m = receiveMessageOnPort(parentPort!)) {
    const d = m.message as { memoryLink?: unknown; out?: MessagePort; in?: MessagePort };
    if (typeof d.memoryLink !== "number" || !d.out || !d.in) continue;
    d.out.unref();
    d.in.unref();
    memoryLinks.set(d.memoryLink, { out: d.out, in: d.in, sent: 0, taken: 0 });
  }
  const l = memoryLinks.get(link);
  if (!l) throw new Error("no such thread");
  return l;
}

/**
 * How shared memory that came in this realm becomes the guest's: posted to a port that lives in the guest's
 * context, whose reads make their values there (V8 shares the backing store). The port is moved there while
 * booting: moving one runs Node's per-context code in that context, which after the guest's first line could
 * be the guest's hooks.
 */
let toGuest: { out: MessagePort; in: MessagePort } | undefined;
function guestMemoryPort(): void {
  const { port1, port2 } = new MessageChannel();
  port1.unref();
  const moved = moveMessagePortToContext(port2, context as never) as unknown as MessagePort;
  Reflect.apply(HostMessagePort.prototype.unref, moved, []);
  toGuest = { out: port1, in: moved };
}

/** What the last runScript gave, until taken. */
let scriptResult: unknown;
/** The timers of the guest, by its ids. */
const timers = new Map<number, NodeJS.Timeout | NodeJS.Immediate>();
/**
 * I/O completions of the guest's asynchronous fs calls: delivered as messages, i.e. in the poll phase of
 * the loop, as Node delivers its thread pool's (so an immediate set in one runs before a timer).
 */
const { port1: ioIn, port2: ioOut } = new MessageChannel();
let ioPending = 0;
ioIn.on("message", (id: number) => {
  if (--ioPending === 0) ioIn.unref();
  dispatch("io", id);
});
ioIn.unref();
/** Holds the worker's loop while the guest waits for an fd (a pending Atomics.waitAsync does not). */
const { port1: hold } = new MessageChannel();
hold.unref();

/** The ops of the guest's AsyncLocalStorage frame, and how a handler of one of its promises is run. */
interface GuestFrames {
  ops: Record<string, HostOp>;
  /** Runs `fn` in the frame of `promise` (as Node emits 'unhandledRejection'). */
  inFrameOf(promise: unknown, fn: () => void): void;
}

/**
 * The guest's AsyncLocalStorage frame (workers/node-guest/internal/async-context.js): a guest object, stored
 * and given back unread, that promise reactions of the guest carry from where they were made. Where Node
 * keeps its own stores in V8's continuation-preserved data (AsyncContextFrame, Node >= 24), it is this realm's
 * store there: that data is per isolate, so V8 captures and restores it for the guest's promises too, and
 * Node itself restores a rejected promise's.
 */
function continuationFrames(): GuestFrames {
  const guestFrames = new AsyncLocalStorage<object | undefined>();
  return {
    ops: {
      alsFrame: () => guestFrames.getStore(),
      alsEnter: (frame) => guestFrames.enterWith(checkedFrame(frame)),
    },
    inFrameOf: (_promise, fn) => fn(),
  };
}

/**
 * Before Node 24, Node keeps stores with async_hooks, whose promise hook writes its ids onto every promise
 * (the guest's too): the frame is a variable here instead, carried by V8's promise hooks (`v8.promiseHooks`,
 * which Node sets in every context of the isolate, the guest's included). A promise gets the frame current
 * when it is made (a reaction's when `then` is called, an await's when it awaits) and its reactions run with
 * it. Promises are only keys of a WeakMap, never read or written. The hooks are set at the first alsEnter
 * (the guest's first store): until then every frame is empty, and a program without AsyncLocalStorage pays
 * nothing; after it, each promise made costs a WeakMap entry while a store is current.
 */
function promiseHookFrames(): GuestFrames {
  let current: object | undefined;
  const frames = new WeakMap<object, object>();
  const outer: (object | undefined)[] = [];
  let hooked = false;
  const enter = (frame: object | undefined): void => {
    outer.push(current);
    current = frame;
  };
  const exit = (): void => {
    current = outer.pop();
  };
  return {
    ops: {
      alsFrame: () => current,
      alsEnter: (frame) => {
        current = checkedFrame(frame);
        if (hooked) return;
        hooked = true;
        promiseHooks.createHook({
          init: (promise) => {
            if (current !== undefined) frames.set(promise, current);
          },
          before: (promise) => enter(frames.get(promise)),
          after: exit,
        });
      },
    },
    inFrameOf: (promise, fn) => {
      enter(typeof promise === "object" && promise !== null ? frames.get(promise) : undefined);
      try {
        fn();
      } finally {
        exit();
      }
    },
  };
}

function checkedFrame(frame: unknown): object | undefined {
  if (frame !== undefined && (typeof frame !== "object" || frame === null || isHostValue(frame))) throw new Error("bad frame");
  return frame;
}

const framesInV8 = typeof (AsyncLocalStorage.prototype as { _propagate?: unknown })._propagate !== "function";
const guestFrames = framesInV8 ? continuationFrames() : promiseHookFrames();

const runtimeOps: Record<string, HostOp> = {
  ...guestFrames.ops,
  /**
   * A CommonJS module's function compiled in the guest's context (a value of its realm), or its SyntaxError.
   * The parameters are the wrapper's, never the guest's: Node 20's compileFunction crashes the process on a
   * parameter that is not an identifier.
   */
  compile: (source, filename) => {
    if (typeof source !== "string" || typeof filename !== "string") throw new Error("bad compile");
    try {
      return compileInContext(context, source, CJS_PARAMS, filename);
    } catch (e) {
      // V8 made the SyntaxError in the guest's context; anything else (a host failure) is not passed on.
      if (isGuestError(e)) return e;
      throw e;
    }
  },
  /**
   * Runs a script in the guest's global scope; answers "ok" or "threw", and `scriptResult` then gives the
   * completion value or what was thrown (a value of the guest's realm: a failure of the worker's is
   * turned into an Error of the guest's).
   */
  runScript: (source, filename) => {
    if (typeof source !== "string" || typeof filename !== "string") throw new Error("bad script");
    try {
      scriptResult = runScriptInContext(context, source, filename);
      return "ok";
    } catch (e) {
      // A syntax error is made while compiling, in the worker's realm: the guest gets its own, same text.
      if (isHostValue(e)) {
        const { name, message, stack } = e as Error;
        scriptResult = dispatch("makeError", name === "SyntaxError" ? "SyntaxError" : "Error", undefined, String(message), typeof stack === "string" ? stack : undefined);
      } else scriptResult = e;
      return "threw";
    }
  },
  /**
   * Detaches a guest ArrayBuffer that a message transferred (postMessage's transfer list), as Node does, where
   * the engine has no ArrayBuffer.prototype.transfer (Node 20): V8's own transfer, whose copy is dropped. No
   * guest code runs: an ArrayBuffer has nothing to read but its bytes.
   */
  detachArrayBuffer: (buffer) => {
    if (!types.isArrayBuffer(buffer) || isHostValue(buffer)) throw new Error("bad buffer");
    structuredClone(buffer, { transfer: [buffer] });
  },
  /**
   * Shares a guest SharedArrayBuffer with the thread at the other end of `link` (0: this process's parent; else
   * a Worker's pid): its memory is posted on the link (the bytes only: V8 shares the backing store), before
   * the message that names it by the id answered here (memoryNext told it before). Only the memory crosses,
   * never an object. The guest shares only for a message it then sends, so what waits on a link is bounded
   * by what the other side has still to read.
   */
  shareMemory: (sab, link) => {
    if (!types.isSharedArrayBuffer(sab) || isHostValue(sab) || typeof link !== "number") throw new Error("bad memory");
    const l = memoryLink(link);
    l.out.postMessage(sab);
    return l.sent++;
  },
  /**
   * The guest-realm SharedArrayBuffer the other end of `link` shared as `id`: read from the link's port, then
   * made the guest's through the port in its context (guestMemoryPort).
   */
  /** The id the next SharedArrayBuffer shared on `link` will have. */
  memoryNext: (link) => {
    if (typeof link !== "number") throw new Error("bad memory");
    return memoryLink(link).sent;
  },
  takeMemory: (link, id) => {
    if (typeof link !== "number" || typeof id !== "number") throw new Error("bad memory");
    const l = memoryLink(link);
    for (;;) {
      if (id < l.taken) throw new Error("memory taken already");
      const got = receiveMessageOnPort(l.in);
      if (got === undefined || !toGuest) throw new Error("no memory shared");
      if (l.taken++ !== id) continue;
      toGuest.out.postMessage((got as { message: unknown }).message);
      const sab: unknown = (receiveMessageOnPort(toGuest.in) as { message: unknown } | undefined)?.message;
      if (!types.isSharedArrayBuffer(sab) || isHostValue(sab)) throw new Error("bad memory");
      return sab;
    }
  },
  scriptResult: () => {
    const r = scriptResult;
    scriptResult = undefined;
    return r;
  },
  timerStart: (id, ms, repeat) => {
    if (typeof id !== "number" || typeof ms !== "number") throw new Error("bad timer");
    const fire = (): void => {
      if (repeat !== true) timers.delete(id);
      dispatch("timer", id);
    };
    timers.set(id, repeat === true ? setInterval(fire, ms) : setTimeout(fire, ms));
  },
  immediate: (id) => {
    if (typeof id !== "number") throw new Error("bad immediate");
    timers.set(id, setImmediate(() => (timers.delete(id), dispatch("timer", id))));
  },
  timerClear: (id) => {
    const t = typeof id === "number" ? timers.get(id) : undefined;
    if (!t) return;
    timers.delete(id as number);
    if ("_onImmediate" in t) clearImmediate(t as NodeJS.Immediate);
    else clearTimeout(t as NodeJS.Timeout);
  },
  timerRef: (id, on) => {
    const t = typeof id === "number" ? timers.get(id) : undefined;
    if (t) void (on === true ? t.ref() : t.unref());
  },
  ioDone: (id) => {
    if (typeof id !== "number") throw new Error("bad io");
    if (ioPending++ === 0) ioIn.ref();
    ioOut.postMessage(id);
  },
  /**
   * The guest's process.nextTick queue, from a promise job: it runs when the job queue is drained, from this
   * worker's own tick queue, which Node runs then (as it runs a process's).
   */
  tick: () => process.nextTick(() => void dispatch("ticks")),
  /** Whether the guest waits for fds with ref'd handles: the worker's loop must then stay alive. */
  hold: (on) => void (on === true ? hold.ref() : hold.unref()),
  exit: (code) => process.exit(typeof code === "number" ? code : 1),
  importMain: (url) => {
    if (typeof url !== "string" || !esm) throw new Error("bad import");
    esm.runMain(url);
  },
  /**
   * `import()` in the guest's code (bootstrap.js onImport): `name` is what the importing code was compiled
   * as, a file or URL, else the working directory is the base; `attributes` are the import attributes as
   * "key\0value" pairs. Answers true, then settles the guest's promise through `resolve`/`reject`, from a job
   * of its own: the guest may call this with no stack left.
   */
  import: (specifier, name, attributes, resolve, reject) => {
    const loader = esm;
    if (typeof specifier !== "string" || typeof attributes !== "string" || typeof resolve !== "function" || typeof reject !== "function" || isHostValue(resolve) || isHostValue(reject) || !loader) throw new Error("bad import");
    const parent = typeof name === "string" && (name.startsWith("/") || name.startsWith("file:")) ? name : undefined;
    queueMicrotask(() => loader.importDynamic(specifier, parent, attributes, resolve, reject));
    return true;
  },
  /** `require()` of an ES module (EsmLoader.requireModule); without a URL, whether this Node can. */
  requireModule: (url) => (url === undefined ? syncLinking : typeof url === "string" && esm ? esm.requireModule(url) : "\0UNSUPPORTED"),
  /** `--input-type=module` code: an ES module named `url` whose source is given. */
  evalModule: (source, url) => {
    if (typeof source !== "string" || typeof url !== "string" || !esm) throw new Error("bad eval");
    esm.runMain(url, source);
  },
};

let isGuestError: (e: unknown) => boolean = () => false;

/** The worker realm's own intrinsics, which no guest value has on its prototype chain. */
const HOST_PROTOS = new Set<object>([Object.prototype, Function.prototype]);
/** Whether `v` is an object of the worker's realm (a guest Proxy is the guest's: its traps are not run). */
function isHostValue(v: unknown): boolean {
  if ((typeof v !== "object" && typeof v !== "function") || v === null || types.isProxy(v)) return false;
  for (let proto = Object.getPrototypeOf(v); proto !== null; proto = types.isProxy(proto) ? null : Object.getPrototypeOf(proto)) if (HOST_PROTOS.has(proto)) return true;
  return false;
}

/**
 * Defence in depth against a value of the worker's realm reaching the guest: from such a
 * value the guest must neither make code in the worker's realm (its function constructors are disabled)
 * nor change how the worker's code behaves (the realm's intrinsic prototypes are frozen, and stack traces
 * cannot be customised). Done once booted: nothing of the worker compiles from strings after that.
 */
function hardenRealm(): void {
  const denied = function constructor(): never {
    throw new EvalError("code generation is disabled in this realm");
  };
  const kinds = [function () {}, async function () {}, function* () {}, async function* () {}];
  for (const f of kinds) Object.defineProperty(Object.getPrototypeOf(f), "constructor", { value: denied, writable: false, configurable: false });
  Object.defineProperty(globalThis, "eval", { value: denied, writable: false, configurable: false });
  Object.defineProperty(Error, "prepareStackTrace", { value: contextStackFormatter(), writable: false, configurable: false });
  const iterator = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]()));
  const typedArray = Object.getPrototypeOf(Uint8Array);
  const intrinsics = [Object, Function, Array, String, Number, Boolean, Symbol, BigInt, Date, RegExp, Promise, Map, Set, WeakMap, WeakSet, ArrayBuffer, SharedArrayBuffer, DataView, typedArray, Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError, AggregateError];
  for (const proto of [...intrinsics.map((C) => C.prototype as object), iterator, ...kinds.map((f) => Object.getPrototypeOf(f) as object)]) {
    for (const name of OVERRIDDEN) keepAssignable(proto, name);
    Object.freeze(proto);
  }
  // The constructors' own functions too (Object.keys, Array.from, …); Error keeps stackTraceLimit, which Node sets.
  for (const C of intrinsics) if (C !== Error) Object.freeze(C);
  Object.defineProperty(Error, "captureStackTrace", { writable: false, configurable: false });
  Object.preventExtensions(Error);
}

/**
 * The stack text of errors of the guest's new contexts (workers/node-host/vm-contexts.ts), which have no
 * Error.prepareStackTrace of their own: Node then formats them with this realm's (its "main context" Error's).
 * As V8's own format, without the frames of the worker's code that runs the guest's scripts (the guest's
 * realm leaves them out of its own errors the same way: workers/node-guest/internal/globals.js). The
 * CallSite methods are this realm's, taken now (a context's CallSite prototype is the guest's to change).
 */
function contextStackFormatter(): (error: unknown, trace: unknown) => string {
  let sites: unknown;
  Error.prepareStackTrace = (_e, trace) => trace;
  try {
    sites = new Error().stack;
  } finally {
    (Error as { prepareStackTrace?: unknown }).prepareStackTrace = undefined;
  }
  const proto = Object.getPrototypeOf((sites as object[])[0]) as { getFileName(): unknown; toString(): string };
  const { getFileName, toString: siteText } = proto;
  const errorText = Error.prototype.toString;
  // Node's own format of its coded errors (this realm's: `TypeError [ERR_X]: message`), which this replaces.
  const kIsNodeError = (requireHere("internal/errors") as { kIsNodeError?: symbol }).kIsNodeError;
  return (error, trace) => {
    let text: string;
    try {
      const e = error as { name: string; code: string; message: string };
      text = kIsNodeError !== undefined && isHostValue(error) && kIsNodeError in e ? `${e.name} [${e.code}]: ${e.message}` : (Reflect.apply(errorText, error, []) as string);
    } catch {
      text = "<error>";
    }
    if (!Array.isArray(trace)) return text;
    const foreign = !isHostValue(error);
    for (const site of trace) {
      const file: unknown = Reflect.apply(getFileName, site, []);
      if (foreign && typeof file === "string" && RUNTIME_FRAME.test(file)) continue;
      text += `\n    at ${Reflect.apply(siteText, site, []) as string}`;
    }
    return text;
  };
}
/** Frames of the worker's code (and the guest runtime's own), as workers/node-guest/internal/globals.js names them. */
const RUNTIME_FRAME = /\/workers\/node-host\/|^node:internal\/(event_target|per_context|bootstrap|memory-limit)/;

/** Properties code assigns on instances (`err.name = …`), which a frozen prototype would forbid. */
const OVERRIDDEN = ["constructor", "name", "message", "toString", "valueOf", "toLocaleString", "toJSON", "hasOwnProperty", "then", "catch", "finally"];

/** A frozen prototype's data property as an accessor whose setter defines the property on the instance (as Node's --frozen-intrinsics does). */
function keepAssignable(proto: object, name: string): void {
  const d = Object.getOwnPropertyDescriptor(proto, name);
  if (!d || !("value" in d) || !d.configurable) return;
  const value: unknown = d.value;
  Object.defineProperty(proto, name, {
    get: () => value,
    set(this: object, v: unknown) {
      if (this === proto) throw new TypeError(`Cannot assign to read only property '${name}' of a frozen prototype`);
      Object.defineProperty(this, name, { value: v, writable: true, enumerable: true, configurable: true });
    },
    enumerable: d.enumerable,
    configurable: false,
  });
}

/** What the pool gives a booting worker (src/pool/node-workers.ts). */
interface BootData {
  /** The URL of the package's workers/node-guest/ directory. */
  guestDir: string;
  /** Code caches of the runtime's own modules, made by the first worker of this host process. */
  codeCache?: Record<string, Uint8Array>;
  /** The polyfill packages and resolutions found by the first worker's boot. */
  polyfills?: PolyfillSnapshot;
  /** The system-call channel and the wake ring of the process this worker will run. */
  channel: SharedArrayBuffer;
  wake: SharedArrayBuffer;
  /** Set to 1 (and notified) when the process is given. */
  started: SharedArrayBuffer;
}
const bootData = workerData as BootData;
const codeCache = bootData.codeCache ?? {};
const internalScripts = new Map<string, { createCachedData(): Buffer }>();

/** The runtime's own modules (bootstrap.js's internalLoad): compiled with their code cache. */
function compileInternal(source: string, params: readonly string[], filename: string): Function {
  const { fn, script } = compileCachedFunction(context, source, params, filename, codeCache[filename]);
  internalScripts.set(filename, script);
  return fn;
}

/**
 * A polyfill with POLYFILL_PARAMS, but for the constructors it declares itself (readable-stream's own
 * AggregateError class): those parameters get a name nothing reads, so that its declaration is the one it uses
 * and the arguments keep their places.
 */
function compilePolyfill(source: string, filename: string): Function {
  const params = [...POLYFILL_PARAMS];
  for (;;) {
    try {
      return compileInternal(source, params, filename);
    } catch (e) {
      const name = /^Identifier '(\w+)' has already been declared$/.exec((e as Error).message)?.[1];
      const at = name === undefined ? -1 : params.indexOf(name);
      if (at < POLYFILL_PARAMS.length - POLYFILL_CONSTRUCTORS.length) throw e;
      params[at] = `__declared_${name}`;
    }
  }
}

/**
 * The runtime's loader: the bootstrap's second capability, which only its module system holds (never `host`,
 * never `internal.host`): resolving a polyfill's require (`resolve`: the id of a polyfill file, or "" when
 * `request` names none) and compiling a file of the runtime by id (`compile`: a strict function of the guest's
 * context). Builtins load lazily, so it serves after boot too; but none of it is a host operation, so a guest
 * that got hold of `host` cannot reach it, and whatever it is given, it reads only the runtime's own files
 * (internalSource). Answers as host operations do: a failure is "\0E" + code, never a throw.
 */
const loaderOps: Record<string, HostOp> = {
  resolve: (request, from) => {
    if (typeof request !== "string" || (from !== undefined && typeof from !== "string")) throw new Error("bad request");
    return npmResolve(request, from);
  },
  compile: (id, variant) => {
    if (typeof id !== "string" || (variant !== undefined && variant !== "inspect-patched")) throw new Error("bad compile");
    const source = internalSource(id, variant);
    if (variant !== "inspect-patched" && id.startsWith("npm:")) return compilePolyfill(source, internalName(id, variant));
    return compileInternal(source, variant === "inspect-patched" ? INSPECT_PARAMS : RUNTIME_PARAMS, internalName(id, variant));
  },
};

function loaderFunction(op: unknown, a?: unknown, b?: unknown): unknown {
  return callOp(typeof op === "string" && Object.hasOwn(loaderOps, op) ? loaderOps[op] : undefined, [a, b]);
}

function hostFunction(op: unknown, a?: unknown, b?: unknown, c?: unknown, d?: unknown, e?: unknown, f?: unknown, g?: unknown): unknown {
  if (typeof op !== "string") return "\0EEINVAL";
  return callOp(ops.get(op), [a, b, c, d, e, f, g]);
}

/** Operations the bootstrap calls once, before any guest code runs. */
const BOOT_ONLY = ["scratch"];

/** A view of the guest's scratch buffer, an ArrayBuffer its bootstrap makes (before any guest code runs). */
let scratch = Buffer.alloc(0);

function boot(): void {
  const makeError = (ctor: string, code: string | undefined, message: string, stack: string | undefined): unknown => dispatch("makeError", ctor, code, message, stack);
  for (const [name, op] of Object.entries({ ...runtimeOps, ...inspectOps(isHostValue), ...pathOps(), ...v8Ops(), ...nodeTablesOps(), ...vmContextOps(context, isHostValue, makeError) })) ops.set(name, op);
  ops.set("scratch", (buffer) => {
    if (!types.isArrayBuffer(buffer) || scratch.length > 0) throw new Error("bad scratch");
    // A Buffer over the guest's ArrayBuffer, made now, before any guest code runs: Node's Buffer.from reads
    // the buffer's byteLength through its prototype, the guest's, whose getter a guest could replace later.
    // From here on the worker makes views with this Buffer's own (the worker realm's) methods only.
    scratch = Buffer.from(buffer);
  });
  const probe = compileInContext(context, "'use strict'; return [SyntaxError.prototype, Error.prototype]", [], "node:internal/probe")() as object[];
  const guestProtos = new Set(probe);
  isGuestError = (e) => {
    for (let proto = typeof e === "object" && e !== null ? Object.getPrototypeOf(e) : null; proto; proto = Object.getPrototypeOf(proto)) if (guestProtos.has(proto)) return true;
    return false;
  };
  const bootstrap = compileInternal(readFileSync(new URL("internal/bootstrap.js", guestDir), "utf8"), ["host", "load", "exposeForTests"], "node:internal/bootstrap");
  if (EXPOSE_FOR_TESTS) ops.set("opNames", () => [...ops.keys()].join("\0"));
  dispatch = bootstrap(hostFunction, loaderFunction, EXPOSE_FOR_TESTS) as typeof dispatch;
  // Booted: what only the boot needed is no longer an operation.
  for (const name of BOOT_ONLY) ops.delete(name);
}

/** The code caches this boot made, for the next workers, when it had none (the first boot of a host process). */
function madeCodeCache(): Record<string, Uint8Array> | undefined {
  if (Object.keys(codeCache).length > 0) return undefined;
  const made: Record<string, Uint8Array> = {};
  for (const [name, script] of internalScripts) made[name] = script.createCachedData();
  return made;
}

/**
 * What runs the process, made over its channel and wake ring while booting: the process's identity (argv,
 * environment, directory) is the guest's own, given with `start`.
 */
function prepare(): (task: NodeTask) => void {
  guestMemoryPort();
  const sys = new System(bootData.channel, [], [], "/", Number.MAX_SAFE_INTEGER, new HeapMeter());
  const state: HostState = { sys, scratch, scratchF64: new Float64Array(scratch.buffer, scratch.byteOffset, 16) };
  for (const [name, op] of Object.entries(hostOps(state))) ops.set(name, op);
  for (const [name, op] of Object.entries(tlsOps(state, (id) => dispatch("tls", id)))) ops.set(name, op);
  esm = new EsmLoader(context, sys, (...args) => dispatch(...args), isHostValue);
  const waiter = new WakeWaiter(bootData.wake, (fd, events) => dispatch("fd", fd, events), () => dispatch("rearm"));
  return (task) => {
    sys.cwd = task.cwd;
    run(task, waiter);
  };
}

function run(msg: NodeTask, waiter: WakeWaiter): void {
  waiter.start();
  process.on("beforeExit", () => dispatch("beforeExit"));
  process.on("exit", () => {
    if (killed) return;
    const code = dispatch("exit");
    process.exitCode = typeof code === "number" ? code : 1;
    // The kernel learns of the exit now; tearing the worker down takes a while longer.
    parentPort!.postMessage({ exit: process.exitCode });
  });
  // A guest value Node hands here goes straight back to the guest's own process object, unread.
  process.on("unhandledRejection", (reason, promise) => guestFrames.inFrameOf(promise, () => void dispatch("unhandledRejection", reason, promise)));
  process.on("rejectionHandled", (promise) => guestFrames.inFrameOf(promise, () => void dispatch("rejectionHandled", promise)));
  process.on("uncaughtException", (error) => dispatch("fatal", error));
  dispatch("start", msg.argv.join("\0"), msg.env.join("\0"), msg.cwd, msg.pid, msg.ppid, process.version, JSON.stringify(process.versions));
}

boot();
setImportCallback(dispatch("importCallback"));
hardenRealm();
const start = prepare();
parentPort!.postMessage({ codeCache: madeCodeCache(), polyfills: bootData.polyfills === undefined ? polyfills.snapshot() : undefined });
// Booted: the worker sleeps until its process is given (a futex wait wakes sooner than the event loop), then
// takes the task the pool posted just before waking it.
setImmediate(() => {
  const started = new Int32Array(bootData.started);
  Atomics.wait(started, 0, 0);
  start(receiveMessageOnPort(parentPort!)!.message as NodeTask);
});
