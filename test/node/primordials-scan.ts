// Reads the runtime's sources (workers/node-guest, all evaluated in the guest's realm) with the TypeScript
// parser and finds what a guest could hook there:
// - a method of an intrinsic prototype called on a value (`list.push(v)`, `s.slice(1)`, `map.get(k)`,
//   `fn.call(x)`, `p.then(f)`): the lookup reaches the prototype, which the guest can replace, and the
//   replacement gets the runtime's value as `this`;
// - the iteration protocol run on a value (`for (const x of list)`, `[...list]`, `f(...list)`,
//   `const [a, b] = pair`): it calls Array.prototype[Symbol.iterator] and %ArrayIteratorPrototype%.next, which
//   the guest can replace too;
// - a capability (`internal`, a member of it, the runtime's `require`) assigned to a property: an assignment to
//   an object without that property runs a guest's setter on Object.prototype with the value;
// - an accessor of a typed array, DataView or ArrayBuffer read on a value (`v.byteLength`, `u8.buffer`, and
//   `bytes.length` where the file made `bytes` a typed array): %TypedArray%.prototype's getters can be
//   redefined, and the guest's getter gets the runtime's buffer as `this` (primordials' GetByteLength and
//   the like read them through the realm's own getters);
// - a primordial that makes its result with the receiver's `constructor[Symbol.species]` and that
//   internal/primordials.js does not make species-free (its species-free ones are checked by
//   primordials-scan.test.ts with the species lookups replaced).
// - a regular expression given to a string method or to RegExp.prototype's symbol methods
//   (`StringPrototypeReplace(s, /x/g, y)`, `RegExpPrototypeSymbolReplace(/x/g, s, y)`) that is not hardened
//   (primordials' hardenRegExp): they read `exec`, `flags` and `constructor` from RegExp.prototype, which the
//   guest can replace; and RegExpPrototypeTest, which reads `exec` so too (RegExpPrototypeExec calls the
//   realm's own).
// What is safe is said below, case by case (ALLOWED); what is not yet converted is counted per file
// (UNCONVERTED) so that the count can only go down: a file that gains a finding fails, and one that loses one
// fails until its count is lowered.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const guestDir = join(repoRoot, "workers/node-guest");

/** The names of the methods of the intrinsic prototypes the guest can replace (this host's, as the guest's realm is this V8's). */
const INTRINSIC_METHODS: ReadonlySet<string> = (() => {
  const protos: object[] = [
    Array.prototype, String.prototype, Map.prototype, Set.prototype, WeakMap.prototype, WeakSet.prototype, Promise.prototype,
    RegExp.prototype, Object.getPrototypeOf(Uint8Array.prototype) as object, Function.prototype, Number.prototype, Object.prototype,
    ArrayBuffer.prototype, DataView.prototype, Date.prototype, Symbol.prototype, BigInt.prototype, Boolean.prototype,
  ];
  const names = new Set<string>();
  for (const p of protos) {
    for (const k of Object.getOwnPropertyNames(p)) {
      if (k !== "constructor" && typeof Object.getOwnPropertyDescriptor(p, k)!.value === "function") names.add(k);
    }
  }
  return names;
})();

/** Constructors whose instances have their own methods and iterators on a frozen prototype (internal/primordials.js). */
const SAFE_CONSTRUCTORS = new Set(["SafeMap", "SafeSet", "SafeWeakMap", "SafeWeakSet", "SafeWeakRef", "SafeFinalizationRegistry", "SafeArrayIterator", "SafeStringIterator", "SafeSetIterator", "SafeMapIterator"]);

/**
 * Findings that are safe, by file and by what the finding reads (`receiver.method`, `for-of receiver`,
 * `spread receiver`, `destructure receiver`), each with why. `*` as a file: any file.
 */
const ALLOWED: Record<string, Record<string, string>> = {
  // The three files the worker runs as it boots, before any guest code: what their top level reads is the
  // realm's own.
  "internal/primordials.js": {
    "Function.prototype.bind.bind": "boot: makes uncurryThis",
    "for-of ['decodeURI', 'decodeURIComponent', 'encodeURI', 'encodeURIComponent', 'escape', 'unescape', 'isFinite', 'isNaN', 'parseFloat', 'parseInt', 'globalThis']": "boot",
    "for-of ['JSON', 'Math', 'Proxy', 'Reflect', 'Atomics']": "boot",
  },
  "internal/bootstrap.js": { "Promise.resolve.bind": "boot" },
  "internal/memory-limit.js": {
    "Promise.reject.bind": "boot",
    "for-of ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array', 'Float16Array']": "boot",
    "for-of ['map', 'toReversed', 'toSorted', 'with']": "boot",
    "for-of ['transfer', 'transferToFixedLength']": "boot",
    "for-of [['fromBase64', 0.75], ['fromHex', 0.5]]": "boot",
    "destructure [name, ratio]": "boot (an entry of the list above)",
  },
  "internal/webcrypto.js": {
    "keys.keyHolders.set": "internal/key-object's keyHolders, a SafeWeakMap",
    "keys.lockedKeys.add": "internal/key-object's lockedKeys, a SafeWeakSet",
  },
  "builtins/fs.js": {
    "opts.filter": "cp's `filter` option: the guest's own function, called as Node calls it",
  },
  "builtins/stream-consumers.js": {
    "for-of stream": "the guest's own stream, read through its own async iterator, as Node's stream/consumers reads it",
  },
  "internal/modules.js": {
    "seen.has": "`seen` is a SafeSet (cjsExportNames is only called with one)",
    "seen.add": "`seen` is a SafeSet (cjsExportNames is only called with one)",
  },
  // The guest's own iterables, iterated as the standards say (WebIDL's sequence and record conversions run the
  // value's own iterator, on Node too): a guest that replaced Array.prototype[Symbol.iterator] sees its own
  // arrays go through it, and nothing of the runtime's.
  "internal/fetch.js": {
    "for-of init": "Headers' init, the guest's sequence of pairs (WebIDL)",
    "spread pair": "one pair of the guest's Headers init (WebIDL)",
    "body.toString": "URLSearchParams' own toString (the runtime's class), called as undici's extractBody calls it",
  },
  "internal/url.js": {
    "for-of init": "URLSearchParams' init, the guest's sequence of pairs, iterated as Node's constructor does",
    "destructure [k, v]": "one pair of the guest's URLSearchParams init (Node iterates each pair too)",
  },
  "internal/worker-channel.js": {
    "spread transferList": "the guest's transfer list (postMessage's, a WebIDL sequence)",
  },
  "internal/message-port.js": {
    "spread transfer": "the guest's transfer list (WebIDL sequence)",
    "spread options.ports": "MessageEvent's ports, the guest's sequence (WebIDL)",
    "this._listeners.get": "EventTarget's _listeners, a SafeMap (internal/event-target.js)",
    "this._listeners.keys": "EventTarget's _listeners, a SafeMap (internal/event-target.js)",
    "target._listeners.get": "EventTarget's _listeners, a SafeMap (internal/event-target.js)",
  },
  "internal/http-outgoing.js": {
    "headers.entries": "setHeaders' argument, the guest's own Headers or Map, read through its entries() as Node reads it",
    "for-of headers.entries()": "setHeaders' argument, the guest's own Headers or Map, read through its entries() as Node reads it",
  },
  "builtins/buffer.js": {
    "for-of sources": "Blob's sources, the guest's sequence (WebIDL)",
  },
  "builtins/console.js": {
    "for-of source": "a Set's or an array's safe iterator, or the guest's own Set iterator when it could not be read",
  },
  // A class's own method on the runtime's object, called as Node's own code calls it.
  "internal/x509.js": { "this.toString": "X509Certificate's toJSON calls its own toString, as Node's does" },
  "builtins/async_hooks.js": {
    "new AsyncResource(type || 'bound-anonymous-fn').bind": "AsyncResource's own bind, as Node's static bind calls it",
    "AsyncResource.bind": "AsyncResource's own static bind, as Node's AsyncLocalStorage.bind calls it",
  },
  "builtins/perf_hooks.js": { "super.toJSON": "PerformanceEntry's own toJSON (the parent class)" },
  "internal/v8-serializer.js": { "accessor this.buffer": "the Deserializer's own `buffer` property (a Buffer, as Node's), not a view's accessor" },
};

/** Forms allowed in every file, by what the finding reads: each a pattern and why it is safe. */
const ALLOWED_FORMS: [RegExp, string][] = [
  // The runtime's module records have no prototype (bootstrap.js makes them with ObjectCreate(null)): no setter runs.
  [/^capability module\.exports = /, "a module record has no prototype"],
  // A stream's own push (readable-stream's Readable.prototype.push, on the runtime's streams), not
  // Array.prototype.push: what a guest may replace of the stream classes it holds, it may replace on Node too.
  [/^(this|stream|req|res|readable|duplex|otherSide|this\.#otherSide)\.push$/, "a stream's push"],
  // Buffer's own methods (the npm buffer's, on Buffer.prototype and Buffer) on a Buffer the runtime just made
  // of data the guest asked for: a guest that replaced them sees nothing it could not read itself.
  [/^Buffer\.(from|concat|alloc|allocUnsafe)\(.*\)\.toString$/, "a Buffer's own toString"],
  [/^Buffer\.concat$/, "Buffer's own concat"],
];

export interface Finding {
  file: string;
  line: number;
  what: string;
}

/** The text of `node` with whitespace squeezed (the key of ALLOWED). */
function textOf(node: ts.Node, sf: ts.SourceFile): string {
  return node.getText(sf).replace(/\s+/g, " ");
}

/** `internal`, or a member of it: `internal.sys`, `internal.host`. */
function isInternal(e: ts.Expression): boolean {
  while (ts.isPropertyAccessExpression(e)) e = e.expression;
  return ts.isIdentifier(e) && e.text === "internal";
}

/** The modules whose exports are capabilities (bootstrap.js's PRIVILEGED_EXPORTS). */
const PRIVILEGED_MODULES = new Set(["internal/sys", "internal/host-assist", "internal/net-sys", "internal/event-loop"]);

/** What a file binds: names of safe receivers, and names of capabilities. */
interface Bindings {
  /** Safe receivers: a safe collection (`m = new SafeMap()`, `#m = new SafeMap()`, also under an alias the file gave the constructor), a module's exports (`const sys = require('internal/sys')`, `const sys = internal.sys`: their methods are their own properties, looked up on nothing a guest changed). */
  safe: Set<string>;
  /** Capabilities: `internal`, the runtime's `require`, and what the file binds to a member of `internal` or to a privileged module's exports. */
  capabilities: Set<string>;
}

/** `=`, and the logical assignments that give a value only when there is none (`m ??= new SafeMap()`). */
const ASSIGNMENTS = new Set([ts.SyntaxKind.EqualsToken, ts.SyntaxKind.QuestionQuestionEqualsToken, ts.SyntaxKind.BarBarEqualsToken]);

export function bindingsOf(sf: ts.SourceFile): Bindings {
  const safe = new Set<string>();
  const capabilities = new Set<string>(["internal", "require"]);
  const safeConstructors = new Set(SAFE_CONSTRUCTORS);
  const isRequire = (e: ts.Expression | undefined): e is ts.CallExpression => e !== undefined && ts.isCallExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === "require";
  // Aliases: `const { SafeMap: PrimordialSafeMap } = require('internal/primordials')`.
  const aliases = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isObjectBindingPattern(node.name) && isRequire(node.initializer)) {
      for (const el of node.name.elements) {
        const prop = el.propertyName !== undefined && ts.isIdentifier(el.propertyName) ? el.propertyName.text : undefined;
        if (prop !== undefined && SAFE_CONSTRUCTORS.has(prop) && ts.isIdentifier(el.name)) safeConstructors.add(el.name.text);
      }
    }
    ts.forEachChild(node, aliases);
  };
  aliases(sf);
  const isSafeValue = (e: ts.Expression | undefined): boolean =>
    e !== undefined &&
    ((ts.isNewExpression(e) && ts.isIdentifier(e.expression) && safeConstructors.has(e.expression.text)) || isRequire(e) || isInternal(e));
  const nameOf = (n: ts.Node): string | undefined =>
    ts.isIdentifier(n) || ts.isPrivateIdentifier(n) ? n.text : ts.isPropertyAccessExpression(n) ? n.name.text : undefined;
  const visit = (node: ts.Node): void => {
    let name: string | undefined;
    let value: ts.Expression | undefined;
    if (ts.isVariableDeclaration(node) || ts.isPropertyDeclaration(node) || ts.isPropertyAssignment(node)) [name, value] = [nameOf(node.name), node.initializer];
    if (ts.isBinaryExpression(node) && ASSIGNMENTS.has(node.operatorToken.kind)) [name, value] = [nameOf(node.left), node.right];
    // ObjectDefineProperty(this, '_listeners', { value: new SafeMap() }), also under a symbol (`this[kWrappers]`).
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "ObjectDefineProperty" && node.arguments.length === 3) {
      const key = node.arguments[1]!;
      const desc = node.arguments[2]!;
      const keyName = ts.isStringLiteral(key) || ts.isIdentifier(key) ? key.text : undefined;
      if (keyName !== undefined && ts.isObjectLiteralExpression(desc)) {
        for (const p of desc.properties) if (ts.isPropertyAssignment(p) && nameOf(p.name) === "value" && isSafeValue(p.initializer)) [name, value] = [keyName, p.initializer];
      }
    }
    if (name !== undefined && isSafeValue(value)) safe.add(name);
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer !== undefined) {
      const init = node.initializer;
      if (isInternal(init) || (isRequire(init) && ts.isStringLiteral(init.arguments[0]!) && PRIVILEGED_MODULES.has(init.arguments[0].text))) capabilities.add(node.name.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return { safe, capabilities };
}

/** Whether `e` is a safe collection, a safe iterator, or one of a safe collection's iterators. */
export function isSafe(e: ts.Expression, safe: Set<string>): boolean {
  while (ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e)) e = e.expression;
  if (ts.isNewExpression(e) && ts.isIdentifier(e.expression) && SAFE_CONSTRUCTORS.has(e.expression.text)) return true;
  if (ts.isBinaryExpression(e) && ASSIGNMENTS.has(e.operatorToken.kind)) return isSafe(e.left, safe) && isSafe(e.right, safe);
  if (ts.isIdentifier(e) || ts.isPrivateIdentifier(e)) return safe.has(e.text);
  if (ts.isPropertyAccessExpression(e)) return safe.has(e.name.text);
  if (ts.isElementAccessExpression(e) && ts.isIdentifier(e.argumentExpression)) return safe.has(e.argumentExpression.text);
  if (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && ["keys", "values", "entries"].includes(e.expression.name.text)) {
    return isSafe(e.expression.expression, safe);
  }
  return false;
}

/** The methods (and accessors) of the classes around `node`, by name. */
function classMethods(node: ts.Node): Set<string> {
  const names = new Set<string>();
  for (let n: ts.Node | undefined = node.parent; n !== undefined; n = n.parent) {
    if (!ts.isClassLike(n)) continue;
    for (const m of n.members) if (m.name !== undefined && (ts.isIdentifier(m.name) || ts.isPrivateIdentifier(m.name))) names.add(m.name.text);
  }
  return names;
}

/** Built-in constructors that iterate an iterable argument. */
const ITERATING_CONSTRUCTORS = new Set([
  "Map", "Set", "WeakMap", "WeakSet",
  "Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array",
  "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array",
]);

/**
 * The accessors of %TypedArray%.prototype, ArrayBuffer.prototype and DataView.prototype a read runs (a guest
 * can redefine them, and its getter gets the runtime's buffer as `this`): any read of these names, which
 * nothing else of the runtime's has. A read of `length` is one only on a value the file made as a typed array
 * (typedArrayNames); arrays and strings have their own.
 */
const VIEW_ACCESSORS = new Set(["byteLength", "byteOffset", "buffer"]);

/** Calls that make a typed array (a Buffer is one). */
function makesTypedArray(e: ts.Expression | undefined): boolean {
  if (e === undefined) return false;
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isNonNullExpression(e)) e = e.expression;
  if (ts.isNewExpression(e) && ts.isIdentifier(e.expression)) return /^(Big)?(Int|Uint|Float)(8|16|32|64)(Clamped)?Array$|^FastBuffer$/.test(e.expression.text);
  if (!ts.isCallExpression(e)) return false;
  const callee = e.expression;
  if (ts.isIdentifier(callee)) return /^TypedArrayPrototype(Subarray|Slice)$|^BufferFrom$|^BufferAlloc/.test(callee.text);
  return ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === "Buffer" && /^(alloc|allocUnsafe|allocUnsafeSlow|from|concat)$/.test(callee.name.text);
}

/** Names (variables, properties, private fields) the file assigns a new typed array to, or uses as a view. */
export function typedArrayNames(sf: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  const nameOf = (n: ts.Node): string | undefined =>
    ts.isIdentifier(n) || ts.isPrivateIdentifier(n) ? n.text : ts.isPropertyAccessExpression(n) ? n.name.text : undefined;
  const visit = (node: ts.Node): void => {
    let name: string | undefined;
    let value: ts.Expression | undefined;
    if (ts.isVariableDeclaration(node) || ts.isPropertyDeclaration(node)) [name, value] = [nameOf(node.name), node.initializer];
    if (ts.isBinaryExpression(node) && ASSIGNMENTS.has(node.operatorToken.kind)) [name, value] = [nameOf(node.left), node.right];
    if (name !== undefined && makesTypedArray(value)) names.add(name);
    // A value the file reads a view's accessor of, or gives to a typed array's primordial, is a view too.
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && /^(Get(Buffer|ByteOffset|ByteLength)|TypedArrayPrototype\w+)$/.test(node.expression.text)) {
      const arg = node.arguments[0];
      const argName = arg === undefined ? undefined : nameOf(arg);
      if (argName !== undefined) names.add(argName);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return names;
}

/**
 * Primordials whose result is made by the receiver's `constructor[Symbol.species]` and that internal/primordials.js
 * does not make species-free (it does for arrays' slice/splice/map/filter/concat/flat/flatMap, promises'
 * then/catch/finally, typed arrays' and ArrayBuffers' slice and subarray: primordials-scan.test.ts checks them).
 */
const SPECIES_PRIMORDIALS = new Set(["TypedArrayPrototypeMap", "TypedArrayPrototypeFilter", "SharedArrayBufferPrototypeSlice", "RegExpPrototypeSymbolSplit"]);

/** Whether `node` (a property access) is read: not called as a method, assigned, deleted, or a declaration's name. */
export function isRead(node: ts.PropertyAccessExpression): boolean {
  const p = node.parent;
  if (ts.isCallExpression(p) && p.expression === node) return false;
  if (ts.isBinaryExpression(p) && p.left === node && p.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && p.operatorToken.kind <= ts.SyntaxKind.LastAssignment) return false;
  if ((ts.isPrefixUnaryExpression(p) || ts.isPostfixUnaryExpression(p)) && (p.operator === ts.SyntaxKind.PlusPlusToken || p.operator === ts.SyntaxKind.MinusMinusToken)) return false;
  if (ts.isDeleteExpression(p)) return false;
  return true;
}

/** Whether `node` reads a typed array's, ArrayBuffer's or DataView's accessor (see VIEW_ACCESSORS): the name it reads. */
export function viewAccessorRead(node: ts.Node, safe: Set<string>, typedArrays: Set<string>): string | undefined {
  if (!ts.isPropertyAccessExpression(node) || !isRead(node) || isSafe(node.expression, safe)) return undefined;
  const name = node.name.text;
  const recv = node.expression;
  if (ts.isIdentifier(recv) && recv.text === "Buffer") return undefined;
  const recvName = ts.isIdentifier(recv) || ts.isPrivateIdentifier(recv) ? recv.text : ts.isPropertyAccessExpression(recv) ? recv.name.text : undefined;
  return VIEW_ACCESSORS.has(name) || (name === "length" && recvName !== undefined && typedArrays.has(recvName)) ? name : undefined;
}

/** String methods that call their regex argument's Symbol method, and RegExp.prototype's symbol methods. */
const REGEXP_TAKERS = /^(StringPrototype(Replace|ReplaceAll|Match|MatchAll|Split|Search)|RegExpPrototypeSymbol(Replace|Match|MatchAll|Split|Search))$/;

/** Names the file binds to a regular expression literal (not hardened). */
export function regexpNames(sf: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer !== undefined && ts.isRegularExpressionLiteral(node.initializer)) names.add(node.name.text);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return names;
}

/** A regex a string method or a symbol method is given that is not hardened: its text. */
export function unhardenedRegExp(node: ts.Node, sf: ts.SourceFile, regexps: Set<string>): string | undefined {
  if (!ts.isCallExpression(node) || !ts.isIdentifier(node.expression)) return undefined;
  const callee = node.expression.text;
  if (callee === "RegExpPrototypeTest") return "RegExpPrototypeTest";
  if (!REGEXP_TAKERS.test(callee)) return undefined;
  const arg = node.arguments[callee.startsWith("RegExp") ? 0 : 1];
  if (arg === undefined) return undefined;
  if (ts.isRegularExpressionLiteral(arg) || (ts.isIdentifier(arg) && regexps.has(arg.text))) return `${callee}(${textOf(arg, sf)})`;
  return undefined;
}

export function scan(file: string, text: string): Finding[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const { safe, capabilities } = bindingsOf(sf);
  const typedArrays = typedArrayNames(sf);
  const regexps = regexpNames(sf);
  const found: Finding[] = [];
  const add = (node: ts.Node, what: string): void => {
    const allowed = ALLOWED[file]?.[what] ?? ALLOWED["*"]?.[what] ?? ALLOWED_FORMS.find(([re]) => re.test(what))?.[1];
    if (allowed === undefined) found.push({ file, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, what });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && INTRINSIC_METHODS.has(node.expression.name.text)) {
      const recv = node.expression.expression;
      const method = node.expression.name.text;
      // `this.get(k)` in a class of the runtime that has its own `get`: the runtime's method, not the intrinsic.
      const ownMethod = recv.kind === ts.SyntaxKind.ThisKeyword && classMethods(node).has(method);
      if (!ownMethod && !isSafe(recv, safe)) add(node, `${textOf(recv, sf)}.${method}`);
    }
    // A typed array's, ArrayBuffer's or DataView's accessor read on a value: the guest's getter would get it.
    if (viewAccessorRead(node, safe, typedArrays) !== undefined) add(node, `accessor ${textOf(node, sf)}`);
    // A primordial that makes its result with the receiver's species.
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && SPECIES_PRIMORDIALS.has(node.expression.text)) add(node, `species ${node.expression.text}`);
    const regexp = unhardenedRegExp(node, sf, regexps);
    if (regexp !== undefined) add(node, `regexp ${regexp}`);
    if (ts.isForOfStatement(node) && !isSafe(node.expression, safe)) add(node, `for-of ${textOf(node.expression, sf)}`);
    if (ts.isSpreadElement(node) && !isSafe(node.expression, safe)) add(node, `spread ${textOf(node.expression, sf)}`);
    if (ts.isArrayBindingPattern(node)) add(node, `destructure ${textOf(node, sf)}`);
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isArrayLiteralExpression(node.left)) {
      add(node, `destructure ${textOf(node.left, sf)}`);
    }
    // A built-in constructor given an iterable (`new Int8Array([...])`, `new Map(list)`) iterates it with the
    // replaceable Array.prototype[Symbol.iterator]. The Safe* collections read an array by index (primordials.js).
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && ITERATING_CONSTRUCTORS.has(node.expression.text) && node.arguments?.length) {
      const arg = node.arguments[0]!;
      const sized = ts.isNumericLiteral(arg) || (ts.isPropertyAccessExpression(arg) && arg.name.text === "length");
      if (ts.isArrayLiteralExpression(arg) || (!sized && ts.isIdentifier(arg) && !safe.has(arg.text) && /^(Map|Set|WeakMap|WeakSet)$/.test(node.expression.text)))
        add(node, `new ${node.expression.text}(${textOf(arg, sf)})`);
    }
    if (ts.isYieldExpression(node) && node.asteriskToken !== undefined && node.expression && !isSafe(node.expression, safe)) add(node, `yield* ${textOf(node.expression, sf)}`);
    // A capability assigned to a property: a setter on Object.prototype would receive it.
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && !ts.isIdentifier(node.left)) {
      const v = node.right;
      const root = (e: ts.Expression): ts.Expression => (ts.isPropertyAccessExpression(e) ? root(e.expression) : e);
      if (ts.isIdentifier(root(v)) && capabilities.has((root(v) as ts.Identifier).text)) {
        add(node, `capability ${textOf(node.left, sf)} = ${textOf(v, sf)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

export function scanAll(): Finding[] {
  const found: Finding[] = [];
  for (const dir of ["internal", "builtins"]) {
    for (const name of readdirSync(join(guestDir, dir)).sort()) {
      if (name.endsWith(".js")) found.push(...scan(`${dir}/${name}`, readFileSync(join(guestDir, dir, name), "utf8")));
    }
  }
  return found;
}

