/**
 * The npm polyfills the guest's builtins are made of (buffer, base64-js, events, readable-stream,
 * path-browserify, web-streams-polyfill), as the worker compiles them into the guest's realm: textual rewrites
 * of their calls of methods a guest can replace into calls of the runtime's primordials
 * (workers/node-guest/internal/primordials.js, given to every polyfill as `primordials`). The polyfills load
 * lazily, often after guest code, and npm code calls what it finds on its values (`bytes.push(b)`,
 * `str.charCodeAt(i)`, `fn.call(self)`); rewritten, a guest that replaced Array.prototype.push or
 * Function.prototype.call gets the same Buffer, stream and path as Node's own builtins give it. Each rule names
 * receivers whose type the package's code fixes (a string, an array, a function), file by file; a rule that
 * finds nothing changes nothing (another version of a package is used as is, and test/node/primordials.test.ts
 * shows what it still reaches).
 */

type Rule = readonly [RegExp, string | ((...groups: string[]) => string)];

const cap = (s: string): string => s[0]!.toUpperCase() + s.slice(1);

/** `fn.call(a, …)`, `fn.apply(a, args)`, `fn.bind(a)` on a named function (`x`, `a.b.c`): Function.prototype's methods, uncurried. */
const FUNCTION_METHODS: Rule = [
  /(?<![\w$.])((?:this|[A-Za-z_$][\w$]*)(?:\.[A-Za-z_$][\w$]*)*)\.(call|apply|bind)\(/g,
  (_m, fn: string, method: string) => `primordials.FunctionPrototype${cap(method)}(${fn}, `,
];

/** `recv.method(` → `primordials.<Proto><Method>(recv, ` for the listed receivers and methods. */
function methodsOf(proto: string, receivers: readonly string[], methods: readonly string[]): Rule {
  const recv = receivers.map((r) => r.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
  return [
    new RegExp(`(?<![\\w$.])(${recv})\\.(${methods.join("|")})\\(`, "g"),
    (_m, r: string, method: string) => `primordials.${proto}${cap(method)}(${r}, `,
  ];
}

/**
 * Reads of a typed array's, DataView's or ArrayBuffer's accessors (`x.byteLength`, `x.byteOffset`, `x.buffer`,
 * and `x.length` on the receivers named) → `primordials.GetByteLength(x)`, …: the realm's own getter for a
 * view or buffer, the property as it is on anything else (internal/primordials.js). Assignments, calls and
 * updates are left alone.
 */
function viewReads(lengthReceivers: readonly string[]): Rule {
  const recv = `(?:this|[A-Za-z_$][\\w$]*)(?:\\.[A-Za-z_$][\\w$]*)*`;
  const lengthOf = lengthReceivers.map((r) => r.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
  return [
    new RegExp(`(?<![\\w$.])(?:(${recv})\\.(byteLength|byteOffset|buffer)|(${lengthOf})\\.(length))\\b(?!\\s*(?:[-+*/%&|^]?=(?!=)|\\+\\+|--|\\())`, "g"),
    (_m, r1: string | undefined, name1: string | undefined, r2: string | undefined, name2: string | undefined) => `primordials.Get${cap(name1 ?? name2!)}(${r1 ?? r2})`,
  ];
}

const BASE64_CLEAN = [
  "str = primordials.StringPrototypeTrim(str)",
  "if (primordials.RegExpPrototypeExec(/[^+/0-9A-Za-z-_]/, str) !== null) {",
  "    let kept = ''",
  "    for (let i = 0; i < str.length; i++) {",
  "      const c = primordials.StringPrototypeCharCodeAt(str, i)",
  "      if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 43 || c === 47 || c === 45 || c === 95) kept += str[i]",
  "    }",
  "    str = kept",
  "  }",
].join("\n");

/** Rules by the polyfill file they apply to (its path inside node_modules, package first). */
const RULES: Record<string, readonly Rule[]> = {
  "buffer/index.js": [
    FUNCTION_METHODS,
    [/\bString\(encoding\)\.toLowerCase\(\)/g, "primordials.StringPrototypeToLowerCase(String(encoding))"],
    [/\(('' \+ encoding|encoding \+ '')\)\.toLowerCase\(\)/g, "primordials.StringPrototypeToLowerCase($1)"],
    // After FUNCTION_METHODS: `Uint8Array.prototype.set.call(` is now `primordials.FunctionPrototypeCall(Uint8Array.prototype.set, `.
    [/primordials\.FunctionPrototypeCall\(Uint8Array\.prototype\.(set|indexOf|lastIndexOf), /g, (_m, method: string) => `primordials.TypedArrayPrototype${cap(method)}(`],
    [/\bthis\.subarray\(/g, "primordials.TypedArrayPrototypeSubarray(this, "],
    methodsOf("ArrayPrototype", ["bytes", "byteArray", "res"], ["push"]),
    methodsOf("StringPrototype", ["string", "str", "val"], ["charCodeAt", "substr"]),
    methodsOf("ArrayPrototype", ["codePoints"], ["slice"]),
    [/\$\{val\.slice\(/g, "${primordials.StringPrototypeSlice(val, "],
    [/\bstr = str\.split\('='\)\[0\]/g, "str = primordials.StringPrototypeSplit(str, '=')[0]"],
    // base64clean without String.prototype.replace, whose regular expression runs RegExp.prototype.exec as the
    // guest left it: a clean string is kept as it is (found by the intrinsic exec), another filtered by code.
    [/\bstr = str\.trim\(\)\.replace\(INVALID_BASE64_RE, ''\)/g, BASE64_CLEAN],
    viewReads(["this", "buf", "target", "buffer", "val", "obj", "a", "b", "dst", "src", "array", "arr", "bytes", "list[i]"]),
    [/\bbase64ToBytes\(string\)\.length\b/g, "primordials.GetLength(base64ToBytes(string))"],
  ],
  "base64-js/index.js": [
    methodsOf("StringPrototype", ["code", "b64"], ["charCodeAt", "indexOf"]),
    methodsOf("ArrayPrototype", ["output", "parts"], ["push", "join"]),
    viewReads(["uint8"]),
  ],
  "events/events.js": [
    FUNCTION_METHODS,
    methodsOf("ArrayPrototype", ["args", "existing"], ["push"]),
    methodsOf("ArrayPrototype", ["existing"], ["unshift"]),
    methodsOf("ArrayPrototype", ["list"], ["shift", "pop"]),
  ],
  "path-browserify/index.js": [
    methodsOf("StringPrototype", ["ext", "from", "path", "res", "to"], ["charCodeAt", "slice", "lastIndexOf"]),
  ],
  // `state.buffer` is a BufferList, with its own push and unshift; the receivers named here are arrays.
  "readable-stream/lib/": [
    FUNCTION_METHODS,
    methodsOf("ArrayPrototype", ["types", "buffered", "state.pipes", "state[kOnFinished]"], ["splice"]),
    methodsOf("ArrayPrototype", ["state.buffered", "state[kOnFinished]", "state.pipes", "queue", "types", "instances", "other", "outerError.errors"], ["push"]),
    methodsOf("ArrayPrototype", ["queue", "args"], ["shift"]),
    methodsOf("ArrayPrototype", ["emitter._events[event]"], ["unshift"]),
    methodsOf("ArrayPrototype", ["state.pipes", "kTypes"], ["includes"]),
    methodsOf("ArrayPrototype", ["types"], ["indexOf"]),
    methodsOf("ArrayPrototype", ["types", "instances", "other", "args"], ["pop", "join"]),
    methodsOf("StringPrototype", ["value", "name"], ["includes", "toLowerCase"]),
    [
      /\(Array\.isArray\(args\) \? args : \[args\]\)\.map\(\(a\) => `"\$\{a\}"`\)\.join\(' or '\)/g,
      "primordials.ArrayPrototypeJoin(primordials.ArrayPrototypeMap(primordials.ArrayIsArray(args) ? args : [args], (a) => `\"${a}\"`), ' or ')",
    ],
  ],
  // npm's port of Node's decoder: the strings it reads are its encoding's name and what it decoded.
  "string_decoder/lib/string_decoder.js": [
    [/\bencoding && encoding\.toLowerCase\(\)/g, "encoding && primordials.StringPrototypeToLowerCase(encoding)"],
    [/\('' \+ enc\)\.toLowerCase\(\)/g, "primordials.StringPrototypeToLowerCase('' + enc)"],
    methodsOf("StringPrototype", ["r"], ["charCodeAt", "slice"]),
  ],
  // The lexer Node's module loader uses to find a CommonJS module's exports (its wasm build, in JavaScript):
  // it reads the module's source, a string, and collects names in sets.
  "cjs-module-lexer/lexer.js": [
    FUNCTION_METHODS,
    methodsOf("StringPrototype", ["source", "decoded"], ["startsWith", "charCodeAt", "codePointAt", "slice", "lastIndexOf"]),
    [/primordials\.StringPrototypeSlice\(source, 0, pos\)\.split\('\\n'\)/g, "primordials.StringPrototypeSplit(primordials.StringPrototypeSlice(source, 0, pos), '\\n')"],
    [/\bnew Set\(\)/g, "new primordials.SafeSet()"],
    [/\bnew Array\(/g, "new primordials.Array("],
    [/\[\.\.\.(_exports|reexports)\]\.filter\(/g, "primordials.ArrayPrototypeFilter([...$1], "],
    [/\b(nonASCIIidentifierStart|nonASCIIidentifier)\.test\(String\.fromCharCode\(code\)\)/g, "primordials.RegExpPrototypeExec($1, primordials.StringFromCharCode(code)) !== null"],
  ],
  "web-streams-polyfill/dist/ponyfill.js": [FUNCTION_METHODS],
};

/** The rules for `file` (a real path), if its package has any. */
function rulesFor(file: string): readonly Rule[] | undefined {
  const at = file.lastIndexOf("/node_modules/");
  if (at === -1) return undefined;
  const inPackage = file.slice(at + "/node_modules/".length);
  for (const key of Object.keys(RULES)) {
    if (key.endsWith("/") ? inPackage.startsWith(key) : inPackage === key) return RULES[key];
  }
  return undefined;
}

/** `source` of the polyfill file `file` with its package's rules applied. */
export function polyfillPatched(file: string, source: string): string {
  const rules = rulesFor(file);
  if (rules === undefined) return source;
  for (const [re, to] of rules) source = source.replace(re, to as string);
  return source;
}

/**
 * For each package key of the rules ("buffer/index.js", "readable-stream/lib/"), how many times each of its
 * rules matched in `sources` (the key's files, by real path): a rule that matches nothing in the installed
 * version protects nothing (test/node/polyfill-patches.test.ts).
 */
export function ruleMatches(sources: ReadonlyMap<string, string>): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const [file, source] of sources) {
    const rules = rulesFor(file);
    if (rules === undefined) continue;
    const key = Object.keys(RULES).find((k) => RULES[k] === rules)!;
    const counts = (out[key] ??= rules.map(() => 0));
    let text = source;
    rules.forEach(([re, to], i) => {
      counts[i]! += text.match(re)?.length ?? 0;
      text = text.replace(re, to as string);
    });
  }
  return out;
}
