/**
 * node-inspect-extracted (Node's own inspect.js with its V8 bindings emulated in JS) as the guest's `util`
 * compiles it (workers/node-guest/builtins/util.js): textual patches that, when the guest reports a Node older
 * than 22, bring its output to Node 20's (symbol keys `[Symbol(k)]: v`, ArrayBuffer/DataView fields
 * `byteLength: 4`), that ask the hooks `__h` for what V8 alone knows, and that give its primordials the
 * runtime's. The version is asked at each use (`__h.node20()`): process.versions is set when the process
 * starts, after the module loads. Each patch
 * applies only when its text is found (another version of the package is used as is).
 */
const PATCHES: readonly (readonly [string, string])[] = [
  // formatProperty: a symbol key is `[Symbol(k)]`, and not bracketed again when non-enumerable.
  ['const e=jt(On,ae(r),Un);s=t.stylize(e,"symbol")', 'const e=jt(On,ae(r),Un);s=__h.node20()?`[${t.stylize(e,"symbol")}]`:t.stylize(e,"symbol")'],
  ["return!1===i.enumerable&&(s=`[${s}]`)", 'return!1===i.enumerable&&("symbol"!=typeof r||!__h.node20())&&(s=`[${s}]`)'],
  // The extra fields of an ArrayBuffer / DataView are plain `byteLength: 4` (a typed array's stay `[length]`).
  ['`${t.stylize(`[${r}]`,"string")}: ${i}`', '`${__h.plainField(e)?t.stylize(r,"name"):t.stylize(`[${r}]`,"string")}: ${i}`'],
  ["`{ [byteLength]: ${", '`{ ${__h.node20()?"byteLength":"[byteLength]"}: ${'],
  // What V8 alone knows (the bundle's stand-ins answer "pending", "no proxy", "no entries"): asked of the host.
  ["getPromiseDetails:()=>[g,void 0],getProxyDetails:y.getProxyDetails", "getPromiseDetails:t=>__h.promiseDetails(t,g,h),getProxyDetails:__h.proxyDetails"],
  ["previewEntries:t=>[[],!1]", "previewEntries:__h.previewEntries"],
  // The bundle's own primordials (Node's per_context/primordials.js, made when the bundle loads, which may be
  // after the guest replaced a prototype's methods) take the runtime's, made at boot, where it has them.
  [
    "e.StringPrototypeReplaceAll=e.StringPrototypeReplaceAll||e._stringPrototypeReplaceAll,x(e,null)",
    "e.StringPrototypeReplaceAll=e.StringPrototypeReplaceAll||e._stringPrototypeReplaceAll,__h.adoptPrimordials(e),x(e,null)",
  ],
  // Its stand-ins for util.types and for V8's property listing, which call methods on their values: the
  // runtime's primordials instead (`__h.primordials`).
  ["if(e.indexOf(x(t))>=0)return!0", "if(__h.primordials.ArrayPrototypeIndexOf(e,x(t))>=0)return!0"],
  [
    'isAsyncFunction:t=>"function"==typeof t&&a.toString.call(t).startsWith("async")',
    'isAsyncFunction:t=>"function"==typeof t&&__h.primordials.StringPrototypeStartsWith(__h.primordials.FunctionPrototypeToString(t),"async")',
  ],
  [
    'isGeneratorFunction:t=>"function"==typeof t&&a.toString.call(t).match(/^(async\\s+)?function *\\*/)',
    'isGeneratorFunction:t=>"function"==typeof t&&null!==__h.primordials.RegExpPrototypeExec(/^(async\\s+)?function *\\*/,__h.primordials.FunctionPrototypeToString(t))',
  ],
  [
    "getOwnNonIndexProperties:function(t,e=2){const n=a(t),r=[];for(const[t,o]of s(n))if(!/^(0|[1-9][0-9]*)$/.test(t)||l(t,10)>=2**32-1){if(2===e&&!o.enumerable)continue;r.push(t)}for(const n of u(t)){const o=c(t,n);(2!==e||o.enumerable)&&r.push(n)}return r}",
    "getOwnNonIndexProperties:function(t,e=2){const P=__h.primordials,n=P.ObjectGetOwnPropertyNames(t),r=[];for(let i=0;i<n.length;i++){const k=n[i];if(null!==P.RegExpPrototypeExec(/^(0|[1-9][0-9]*)$/,k)&&l(k,10)<2**32-1)continue;if(2===e&&!c(t,k).enumerable)continue;P.ArrayPrototypePush(r,k)}const q=u(t);for(let i=0;i<q.length;i++){const o=c(t,q[i]);(2!==e||o.enumerable)&&P.ArrayPrototypePush(r,q[i])}return r}",
  ],
  // getPrefix: where the constructor's name shows the tag.
  [
    'if(""!==e){const n=t.indexOf(e);if(-1===n)o+=`[${e}] `;else{const r=n+e.length;r!==t.length&&t[r]===t[r].toLowerCase()&&',
    'if(""!==e){const n=__h.primordials.StringPrototypeIndexOf(t,e);if(-1===n)o+=`[${e}] `;else{const r=n+e.length;r!==t.length&&t[r]===__h.primordials.StringPrototypeToLowerCase(t[r])&&',
  ],
  // An error of another context (a guest's vm context) is an error too, as V8 tells Node's own inspect.
  ["isError:t=>l?.(t)||s(i,t)", "isError:t=>l?.(t)||s(i,t)||__h.isNativeError(t)"],
  // A proxy prints as its target; only Node ≥ 25 marks it `Proxy(…)`.
  ["if(0!==s)for(let e=0;e<s;e++)u=", "if(0!==s&&__h.proxyMarks())for(let e=0;e<s;e++)u="],
];

export function inspectPatched(source: string): string {
  for (const [from, to] of PATCHES) {
    const at = source.indexOf(from);
    if (at !== -1) source = source.slice(0, at) + to + source.slice(at + from.length);
  }
  return source;
}
