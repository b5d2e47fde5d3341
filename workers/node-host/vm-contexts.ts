import { types } from "node:util";
import { compileFunctionIn, compileScript, createSubcontext, isSubcontext, runScriptIn, type ScriptOrigin } from "./compile.js";
import type { HostOp } from "./host-ops.js";

/**
 * The contexts a guest makes with its `vm` (workers/node-guest/builtins/vm.js): `vm.createContext`,
 * `runInContext`, `runInNewContext`, `vm.Script`, `compileFunction` with `parsingContext`.
 *
 * Each is a context of this worker's isolate made by Node's own vm, so it is exactly as contained as the guest:
 * - the contextified object is the guest's own (Node's interceptors then read and write the guest's object);
 *   without one (DONT_CONTEXTIFY) the global is the new context's. Either way nothing of the worker's realm is
 *   in it: Node gives a new context only V8's intrinsics and its own per-context scripts (of that context).
 * - only primitives and values of the guest's realm or of its contexts cross: a result or a thrown value that
 *   is an object of the worker's realm (a SyntaxError made while compiling, the timeout's error, a RangeError
 *   of a stack overflow in Node's frames) is rebuilt as an Error of the guest's realm with the same class,
 *   message and code, as Node's own errors are of the caller's realm.
 * - the guest's `process`, `require` and internals are not in a new context; one contextified from a guest
 *   object reaches the guest's realm through that object's prototype (`this.constructor.constructor`), as
 *   on Node, and so nothing beyond what the guest already has.
 * - a thrown error's stack is first read by the guest (Node's displayErrors would read it here, and V8 would
 *   make its CallSites in this realm): it lacks the source line Node puts above it.
 * - `timeout` is Node's watchdog (it terminates the script, not the worker); `breakOnSigint` is accepted and
 *   not passed on: Node's SIGINT watchdog is the host process's signal handler. A SIGINT to the guest while
 *   its script runs is delivered as the VM delivers signals.
 * - memory: contexts live in the worker's isolate, under its heap limit (the process's memory limit), and
 *   are counted with the guest's heap in every system call (runtime.ts HeapMeter).
 *
 * Results come back as runScript's do: an op answers "ok" or "threw" and `vmResult` gives the value, so that
 * a guest value that looks like a failure string ("\0E…") is never mistaken for one.
 */
export function vmContextOps(
  guestGlobal: object,
  isHostValue: (v: unknown) => boolean,
  makeError: (ctor: string, code: string | undefined, message: string, stack: string | undefined) => unknown,
): Record<string, HostOp> {
  let result: unknown;
  const isObject = (v: unknown): v is object => (typeof v === "object" && v !== null) || typeof v === "function";
  /** A context the guest made: an object of its own (or of one of its contexts) that Node knows as a context. */
  const contextOf = (v: unknown): object => {
    if (v === undefined) return guestGlobal;
    if (!isObject(v) || isHostValue(v) || v === guestGlobal || !isSubcontext(v)) throw new Error("bad context");
    return v;
  };
  const origin = (filename: unknown, lineOffset: unknown, columnOffset: unknown): ScriptOrigin => {
    if (typeof filename !== "string" || !Number.isInteger(lineOffset) || !Number.isInteger(columnOffset)) throw new Error("bad origin");
    return { filename, lineOffset: lineOffset as number, columnOffset: columnOffset as number };
  };
  /** Each new context's error maker (errorMaker below), made when the context is. */
  const errorMakers = new WeakMap<object, ErrorMaker>();
  /**
   * What the guest gets for a thrown value: its own or its contexts' as it is; the worker's rebuilt in the
   * realm Node makes it in: the guest's, or (`context`) the context's where Node makes it there (the timeout's
   * error, a syntax error of runInContext's code).
   */
  const thrown = (e: unknown, context?: object): string => {
    if (!isHostValue(e)) result = e;
    else {
      const { name, message, code, stack } = e as Error & { code?: unknown };
      const ctor = ["SyntaxError", "RangeError", "TypeError", "ReferenceError", "EvalError"].includes(name) ? name : "Error";
      // A SyntaxError's stack starts with where it is (Node's "file:line", the line and a caret); the frames
      // below are the worker's, not the guest's to see.
      const header = ctor === "SyntaxError" && typeof stack === "string" ? stack.slice(0, stack.search(/\n {4}at |$/)) : undefined;
      const maker = context === undefined ? undefined : errorMakers.get(context);
      const kode = typeof code === "string" ? code : undefined;
      result = maker ? maker(ctor, String(message), kode, header ?? `${ctor}: ${String(message)}`) : makeError(ctor, kode, String(message), header);
    }
    return "threw";
  };
  const answer = (value: unknown): string => {
    if (isHostValue(value)) return thrown(new Error("a value of the worker's realm"));
    result = value;
    return "ok";
  };
  return {
    /** A new context: `sandbox` is the guest's object, or undefined for DONT_CONTEXTIFY; answers it or the new global. */
    vmCreateContext: (sandbox, name, originUrl, strings, wasm, afterEvaluate) => {
      if ((sandbox !== undefined && (!isObject(sandbox) || isHostValue(sandbox))) || typeof name !== "string") throw new Error("bad context");
      // The guest's global is already a context's (its own): Node would contextify the main global.
      if (sandbox === guestGlobal) return thrown(Object.assign(new Error("vm.createContext of the process's own global is not available in this VM"), { code: "ERR_ACCESS_DENIED" }));
      if ((originUrl !== undefined && typeof originUrl !== "string") || typeof strings !== "boolean" || typeof wasm !== "boolean" || typeof afterEvaluate !== "boolean") throw new Error("bad options");
      try {
        const created = createSubcontext(sandbox as object | undefined, { name, origin: originUrl as string | undefined, strings, wasm, afterEvaluate });
        errorMakers.set(created, compileFunctionIn(created, ERROR_MAKER, [], { filename: "node:internal/vm/errors", lineOffset: 0, columnOffset: 0 }, [])() as ErrorMaker);
        return answer(created);
      } catch (e) {
        return thrown(e);
      }
    },
    vmIsContext: (v) => isObject(v) && !isHostValue(v) && v !== guestGlobal && isSubcontext(v),
    /** Compiles a script without running it (vm.Script's constructor reports a syntax error at once). */
    vmCheck: (source, filename, lineOffset, columnOffset) => {
      if (typeof source !== "string") throw new Error("bad script");
      const where = origin(filename, lineOffset, columnOffset);
      try {
        compileScript(source, where);
        return answer(undefined);
      } catch (e) {
        return thrown(e);
      }
    },
    /** Runs a script in a context of the guest (without one, in the guest's own); timeout in ms, 0 for none. */
    vmRun: (source, filename, lineOffset, columnOffset, target, timeout) => {
      if (typeof source !== "string" || typeof timeout !== "number" || !Number.isInteger(timeout) || timeout < 0 || timeout > 0xffffffff) throw new Error("bad script");
      const where = origin(filename, lineOffset, columnOffset);
      const context = contextOf(target);
      try {
        const script = compileScript(source, where);
        return answer(runScriptIn(script, context, timeout));
      } catch (e) {
        return thrown(e, target === undefined ? undefined : context);
      }
    },
    /**
     * vm.compileFunction: `params` as "\0"-joined identifiers (Node 20's compileFunction crashes the process on
     * a parameter that is not one), `extensions` a dense array the guest made of its objects.
     */
    vmCompileFunction: (source, params, filename, lineOffset, columnOffset, target, extensions) => {
      if (typeof source !== "string" || typeof params !== "string") throw new Error("bad function");
      const names = params === "" ? [] : params.split("\0");
      if (!names.every((n) => IDENTIFIER.test(n))) throw new Error("bad parameter");
      const where = origin(filename, lineOffset, columnOffset);
      const context = contextOf(target);
      const scope: object[] = [];
      if (extensions !== undefined) {
        if (!Array.isArray(extensions) || types.isProxy(extensions) || isHostValue(extensions)) throw new Error("bad extensions");
        // Own data properties only: nothing of the guest's (getters, Array.prototype) runs here.
        const length = Object.getOwnPropertyDescriptor(extensions, "length")!.value as number;
        for (let i = 0; i < length; i++) {
          const d = Object.getOwnPropertyDescriptor(extensions, i);
          if (!d || !("value" in d) || !isObject(d.value) || isHostValue(d.value)) throw new Error("bad extension");
          // Node's compileFunction crashes the process on a Proxy extension (Node 20.20).
          if (types.isProxy(d.value)) return thrown(Object.assign(new TypeError(`The "options.contextExtensions[${i}]" property must be an object that is not a Proxy`), { code: "ERR_INVALID_ARG_TYPE" }));
          scope.push(d.value as object);
        }
      }
      try {
        return answer(compileFunctionIn(context, source, names, where, scope));
      } catch (e) {
        return thrown(e);
      }
    },
    vmResult: () => {
      const r = result;
      result = undefined;
      return r;
    },
  };
}

/** Makes an Error of a new context's realm: (class name, message, code, its stack's text). */
type ErrorMaker = (ctor: string, message: string, code: string | undefined, stack: string) => unknown;

/**
 * The body of a function compiled in each new context before any of the guest's code runs there: it takes
 * that realm's error classes from its intrinsics (no global is read: a contextified global is the guest's
 * object), and makes errors as Node's C++ does there (the code an own property, the stack without the
 * worker's frames).
 */
const ERROR_MAKER = `'use strict';
const typeError = (() => { try { null.x; } catch (e) { return e; } })();
const TypeError = typeError.constructor, Error = TypeError.__proto__, Object = ({}).constructor;
const RegExp = /a/.constructor, SyntaxError = (() => { try { new RegExp('('); } catch (e) { return e.constructor; } })();
const RangeError = (() => { try { [].constructor(-1); } catch (e) { return e.constructor; } })();
const classes = { __proto__: null, Error, TypeError, SyntaxError, RangeError };
const defineProperty = Object.defineProperty;
return (ctor, message, code, stack) => {
  const e = new (classes[ctor] || Error)(message);
  if (code !== undefined) defineProperty(e, 'code', { value: code, writable: true, enumerable: true, configurable: true });
  defineProperty(e, 'stack', { value: stack, writable: true, enumerable: false, configurable: true });
  return e;
};`;

/** A parameter name: an identifier without escapes (V8 takes reserved words; it is the parser that checks them). */
const IDENTIFIER = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u;
