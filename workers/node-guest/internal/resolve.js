// Node's module resolution (CommonJS `require.resolve` and ESM `import`), as in Node 20/24's
// lib/internal/modules/cjs/loader.js and lib/internal/modules/esm/resolve.js, over an injected
// file-system interface. POSIX paths only. No URL global exists in the guest context, so file URLs are
// handled by the small WHATWG-compatible helpers below (file: scheme only).
//
// Intrinsics come from internal/primordials (as they were before any guest code ran). Strings and
// arrays are otherwise handled with indexing and loops, which no guest patch can reach.
'use strict';

const {
  StringPrototypeSlice,
  StringPrototypeIndexOf,
  StringPrototypeLastIndexOf,
  StringPrototypeStartsWith,
  StringPrototypeEndsWith,
  StringPrototypeCharCodeAt,
  StringPrototypeCodePointAt,
  StringPrototypeToLowerCase,
  StringPrototypeToUpperCase,
  ObjectPrototypeHasOwnProperty,
  ObjectGetOwnPropertyNames,
  ArrayIsArray,
  JSONParse,
  JSONStringify,
  Error,
  TypeError,
  decodeURIComponent,
  encodeURIComponent,
} = require('internal/primordials');

const decodeURIComponentFn = decodeURIComponent;
const encodeURIComponentFn = encodeURIComponent;
const ErrorCtor = Error;
const TypeErrorCtor = TypeError;

// ---------------------------------------------------------------------------------------------------
// Small string and POSIX path helpers

function push(arr, v) { arr[arr.length] = v; }

function join(arr, sep) {
  let out = '';
  for (let i = 0; i < arr.length; i++) out += (i === 0 ? '' : sep) + arr[i];
  return out;
}

function split(s, sep) {
  const out = [];
  let start = 0;
  for (;;) {
    const i = StringPrototypeIndexOf(s, sep, start);
    if (i === -1) { push(out, StringPrototypeSlice(s, start)); return out; }
    push(out, StringPrototypeSlice(s, start, i));
    start = i + sep.length;
  }
}

function replaceAll(s, find, rep) { return join(split(s, find), rep); }

// path.posix.resolve(base, p) for an absolute base (or '' with an absolute p): normalized, no trailing '/'.
function pathResolve(base, p) {
  const full = p[0] === '/' ? p : base + '/' + p;
  const parts = split(full, '/');
  const out = [];
  for (let i = 0; i < parts.length; i++) {
    const seg = parts[i];
    if (seg === '' || seg === '.') continue;
    if (seg === '..') { if (out.length > 0) out.length--; continue; }
    push(out, seg);
  }
  return '/' + join(out, '/');
}

function dirname(p) {
  const i = StringPrototypeLastIndexOf(p, '/');
  if (i <= 0) return '/';
  return StringPrototypeSlice(p, 0, i);
}

// path.posix.extname
function extname(p) {
  const base = StringPrototypeSlice(p, StringPrototypeLastIndexOf(p, '/') + 1);
  const dot = StringPrototypeLastIndexOf(base, '.');
  return dot <= 0 ? '' : StringPrototypeSlice(base, dot);
}

// path.posix.relative for two absolute, normalized paths.
function relativePath(from, to) {
  const f = from === '/' ? [] : split(StringPrototypeSlice(from, 1), '/');
  const t = to === '/' ? [] : split(StringPrototypeSlice(to, 1), '/');
  let i = 0;
  while (i < f.length && i < t.length && f[i] === t[i]) i++;
  const out = [];
  for (let j = i; j < f.length; j++) push(out, '..');
  for (let j = i; j < t.length; j++) push(out, t[j]);
  return join(out, '/');
}

// './x', '../x', '.', '..'
function isRelativeSpecifier(s) {
  if (s[0] === '.') {
    if (s.length === 1 || s[1] === '/') return true;
    if (s[1] === '.' && (s.length === 2 || s[2] === '/')) return true;
  }
  return false;
}

function shouldBeTreatedAsRelativeOrAbsolutePath(s) {
  if (s === '') return false;
  if (s[0] === '/') return true;
  return isRelativeSpecifier(s);
}

// ---------------------------------------------------------------------------------------------------
// File URLs (the WHATWG URL parser's behaviour for the `file:` scheme, as far as resolution needs it)

const HEX = '0123456789ABCDEF';
function hexByte(b) { return '%' + HEX[b >> 4] + HEX[b & 15]; }

// UTF-8 percent-encoding of one code point (lone surrogates become U+FFFD, as the URL parser does).
function percentEncodeCodePoint(cp) {
  if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD;
  if (cp < 0x80) return hexByte(cp);
  if (cp < 0x800) return hexByte(0xC0 | (cp >> 6)) + hexByte(0x80 | (cp & 63));
  if (cp < 0x10000) {
    return hexByte(0xE0 | (cp >> 12)) + hexByte(0x80 | ((cp >> 6) & 63)) + hexByte(0x80 | (cp & 63));
  }
  return hexByte(0xF0 | (cp >> 18)) + hexByte(0x80 | ((cp >> 12) & 63)) +
    hexByte(0x80 | ((cp >> 6) & 63)) + hexByte(0x80 | (cp & 63));
}

// The URL standard's percent-encode sets, beyond C0 controls and non-ASCII (always encoded).
const PATH_SET = ' "#<>?`{}';
const QUERY_SET = ' "#<>\'';
const FRAGMENT_SET = ' "<>`';

function percentEncode(s, set) {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const cp = StringPrototypeCodePointAt(s, i);
    if (cp > 0xFFFF) i++;
    if (cp < 0x20 || cp > 0x7E || StringPrototypeIndexOf(set, s[i]) !== -1) out += percentEncodeCodePoint(cp);
    else out += s[i];
  }
  return out;
}

function isSingleDot(seg) {
  return seg === '.' || StringPrototypeToLowerCase(seg) === '%2e';
}

function isDoubleDot(seg) {
  const l = StringPrototypeToLowerCase(seg);
  return l === '..' || l === '.%2e' || l === '%2e.' || l === '%2e%2e';
}

// Applies the path `rel` (raw, not yet encoded) to the base pathname, as the URL parser's path state does.
function resolveURLPath(basePathname, rel) {
  let segs;
  if (rel[0] === '/') {
    segs = [];
    rel = StringPrototypeSlice(rel, 1);
  } else {
    segs = split(StringPrototypeSlice(basePathname, 1), '/');
    segs.length--;
  }
  const parts = split(rel, '/');
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    const last = i === parts.length - 1;
    if (isDoubleDot(p)) {
      if (segs.length > 0) segs.length--;
      if (last) push(segs, '');
    } else if (isSingleDot(p)) {
      if (last) push(segs, '');
    } else {
      push(segs, percentEncode(p, PATH_SET));
    }
  }
  return '/' + join(segs, '/');
}

function isAlpha(c) { return (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A); }

// The scheme of an absolute URL string ('file', 'node', …, lowercased), or undefined.
function urlScheme(s) {
  if (s.length === 0 || !isAlpha(StringPrototypeCharCodeAt(s, 0))) return undefined;
  for (let i = 1; i < s.length; i++) {
    const c = StringPrototypeCharCodeAt(s, i);
    if (c === 0x3A) return StringPrototypeToLowerCase(StringPrototypeSlice(s, 0, i));
    if (!(isAlpha(c) || (c >= 0x30 && c <= 0x39) || c === 0x2B || c === 0x2D || c === 0x2E)) return undefined;
  }
  return undefined;
}

// URL preprocessing: trim C0 controls and spaces, drop tabs and newlines.
function cleanURLInput(s) {
  let a = 0;
  let b = s.length;
  while (a < b && StringPrototypeCharCodeAt(s, a) <= 0x20) a++;
  while (b > a && StringPrototypeCharCodeAt(s, b - 1) <= 0x20) b--;
  let out = '';
  for (let i = a; i < b; i++) {
    const c = s[i];
    if (c !== '\t' && c !== '\n' && c !== '\r') out += c;
  }
  return out;
}

// A parsed file URL: { host, pathname, search, hash, href }.
function makeFileURL(host, pathname, search, hash) {
  return { protocol: 'file:', host, pathname, search, hash, href: 'file://' + host + pathname + search + hash };
}

// new URL(input, base) for file URLs. `base` is a parsed file URL (or undefined if input is absolute).
// Returns a parsed file URL, or { protocol, href } for another scheme.
function parseURL(input, base) {
  input = cleanURLInput(input);
  const scheme = urlScheme(input);
  let rest;
  if (scheme !== undefined) {
    if (scheme !== 'file') return { protocol: scheme + ':', href: input };
    rest = StringPrototypeSlice(input, 5);
    base = undefined;
  } else {
    if (base === undefined) return undefined;
    rest = input;
  }
  // Split off fragment and query; backslashes count as '/' before them (special scheme).
  let hash = '';
  let search = '';
  const h = StringPrototypeIndexOf(rest, '#');
  if (h !== -1) { hash = '#' + percentEncode(StringPrototypeSlice(rest, h + 1), FRAGMENT_SET); rest = StringPrototypeSlice(rest, 0, h); }
  const q = StringPrototypeIndexOf(rest, '?');
  let hasQuery = false;
  if (q !== -1) { hasQuery = true; search = '?' + percentEncode(StringPrototypeSlice(rest, q + 1), QUERY_SET); rest = StringPrototypeSlice(rest, 0, q); }
  if (search === '?') search = '';
  if (hash === '#') hash = '';
  rest = replaceAll(rest, '\\', '/');
  let host = '';
  if (StringPrototypeStartsWith(rest, '//')) {
    const end = StringPrototypeIndexOf(rest, '/', 2);
    host = StringPrototypeToLowerCase(StringPrototypeSlice(rest, 2, end === -1 ? rest.length : end));
    if (host === 'localhost') host = '';
    rest = end === -1 ? '/' : StringPrototypeSlice(rest, end);
    base = undefined;
  }
  if (base !== undefined) {
    if (rest === '') {
      // '?x' / '#x' (or ''): the base path, with the base query unless a new one is given.
      return makeFileURL(base.host, base.pathname, hasQuery ? search : base.search, hash);
    }
    return makeFileURL(base.host, resolveURLPath(base.pathname, rest), search, hash);
  }
  return makeFileURL(host, resolveURLPath('/', rest[0] === '/' ? rest : '/' + rest), search, hash);
}

// url.pathToFileURL for an absolute POSIX path, a trailing '/' kept.
function pathToFileURL(path) {
  let resolved = pathResolve('', path);
  if (path[path.length - 1] === '/' && resolved !== '/') resolved += '/';
  let enc = '';
  for (let i = 0; i < resolved.length; i++) {
    const c = resolved[i];
    // Node encodes these before the URL parser could read them as syntax (or drop them).
    if (c === '%') enc += '%25';
    else if (c === '\\') enc += '%5C';
    else enc += c;
  }
  return makeFileURL('', percentEncode(enc, PATH_SET), '', '');
}

// ---------------------------------------------------------------------------------------------------

/** The major version of Node the guest reports (process.versions.node, set when the process starts): read at call time. */
function nodeMajor() {
  const version = '' + require('process').versions.node;
  return +StringPrototypeSlice(version, 0, StringPrototypeIndexOf(version, '.'));
}

function createResolver(fsi) {
  const fileType = fsi.fileType;
  const readText = fsi.readText;
  const realpath = fsi.realpath;
  const isBuiltin = fsi.isBuiltin;
  const makeError = fsi.makeError;
  // Extra user conditions (as --conditions), none by default.
  const userConditions = fsi.conditions || [];
  // Global folders (as $HOME/.node_modules, NODE_PATH) appended to CommonJS lookups.
  const globalPaths = fsi.globalPaths || [];
  // The process's working directory, optional: Node resolves the CommonJS hint of ESM not-found errors
  // for relative specifiers against it; without it the parent's folder is used.
  const cwd = fsi.cwd;

  function conditionSet(base) {
    const set = { __proto__: null, default: true };
    for (let i = 0; i < base.length; i++) set[base[i]] = true;
    for (let i = 0; i < userConditions.length; i++) set[userConditions[i]] = true;
    return set;
  }
  // 'module-sync' (Node ≥ 20.19 / 22.12): import always takes it, require only where it can load ES modules.
  const cjsConditions = conditionSet(fsi.requireEsm ? ['require', 'node', 'module-sync'] : ['require', 'node']);
  const esmConditions = conditionSet(['import', 'node', 'module-sync']);

  function err(Ctor, code, message, props) { return makeError(Ctor, code, message, props); }

  function fileURLToPath(url) {
    if (typeof url === 'string') url = parseURL(url, undefined);
    if (url === undefined || url.protocol !== 'file:') {
      throw err(TypeErrorCtor, 'ERR_INVALID_URL_SCHEME', 'The URL must be of scheme file');
    }
    if (url.host !== '') {
      throw err(TypeErrorCtor, 'ERR_INVALID_FILE_URL_HOST', 'File URL host must be "localhost" or empty on linux');
    }
    const p = url.pathname;
    for (let n = 0; n < p.length; n++) {
      if (p[n] === '%' && p[n + 1] === '2' && (StringPrototypeCharCodeAt(p, n + 2) | 0x20) === 0x66) {
        throw err(TypeErrorCtor, 'ERR_INVALID_FILE_URL_PATH', 'File URL path must not include encoded / characters');
      }
    }
    return decodeURIComponentFn(p);
  }

  // ---- package.json reading (cached per resolver)

  const packageCache = { __proto__: null };

  // The package.json at jsonPath: { exists, pjsonPath, name, main, exports, imports, type }. A parse error
  // is cached and thrown in the style of the caller: `esm` is { specifier, base } or true for ESM.
  function readPackage(jsonPath, esm) {
    let entry = packageCache[jsonPath];
    if (entry === undefined) {
      entry = loadPackage(jsonPath);
      packageCache[jsonPath] = entry;
    }
    if (entry.parseError !== undefined) {
      if (esm) {
        const where = typeof esm === 'object' && esm.specifier !== undefined
          ? ` while importing "${esm.specifier}" from ${esm.base}` : '';
        throw err(ErrorCtor, 'ERR_INVALID_PACKAGE_CONFIG', `Invalid package config ${jsonPath}${where}. ${entry.parseError}`);
      }
      throw err(ErrorCtor, undefined, `Error parsing ${jsonPath}: ${entry.parseError}`, { path: jsonPath });
    }
    return entry;
  }

  function loadPackage(jsonPath) {
    const text = fileType(jsonPath) === 1 ? readText(jsonPath) : undefined;
    if (text === undefined) return { exists: false, pjsonPath: jsonPath, type: 'none' };
    let parsed;
    try {
      parsed = JSONParse(text);
    } catch (e) {
      return { exists: true, pjsonPath: jsonPath, parseError: e && e.message };
    }
    const entry = { exists: true, pjsonPath: jsonPath, name: undefined, main: undefined,
      exports: undefined, imports: undefined, type: 'none' };
    if (parsed !== null && typeof parsed === 'object' && !ArrayIsArray(parsed)) {
      if (typeof parsed.name === 'string') entry.name = parsed.name;
      if (typeof parsed.main === 'string') entry.main = parsed.main;
      if (parsed.exports !== undefined) entry.exports = parsed.exports;
      if (parsed.imports !== null && typeof parsed.imports === 'object') entry.imports = parsed.imports;
      if (parsed.type === 'module' || parsed.type === 'commonjs') entry.type = parsed.type;
    }
    return entry;
  }

  // The nearest package.json above a file, not crossing a node_modules folder: { path (its folder), data }.
  function readPackageScope(checkPath, esm) {
    let sep;
    do {
      sep = StringPrototypeLastIndexOf(checkPath, '/');
      checkPath = StringPrototypeSlice(checkPath, 0, sep);
      if (StringPrototypeEndsWith(checkPath, '/node_modules')) return undefined;
      const pjson = readPackage(checkPath + '/package.json', esm);
      if (pjson.exists) return { path: checkPath, data: pjson };
    } while (sep > 0);
    return undefined;
  }

  function packageType(filename) {
    const scope = readPackageScope(filename);
    return scope !== undefined && scope.data.type === 'module' ? 'module' : 'commonjs';
  }

  // ---- package "exports" / "imports" (shared by both loaders, as in Node)

  const pkgDirOf = (pjsonPath) => dirname(pjsonPath) + '/';
  const basePathOf = (base) => (base === undefined ? undefined : fileURLToPath(base));

  function invalidPackageTarget(subpath, target, pjsonPath, internal, base) {
    target = typeof target === 'object' && target !== null ? JSONStringify(target, null, '') : `${target}`;
    const pkgPath = pkgDirOf(pjsonPath);
    const basePath = basePathOf(base);
    const related = typeof target === 'string' && !internal && target.length > 0 &&
      !StringPrototypeStartsWith(target, './');
    const tail = `${basePath ? ` imported from ${basePath}` : ''}${related ? '; targets must start with "./"' : ''}`;
    const message = subpath === '.'
      ? `Invalid "exports" main target ${JSONStringify(target)} defined in the package config ${pkgPath}package.json${tail}`
      : `Invalid "${internal ? 'imports' : 'exports'}" target ${JSONStringify(target)} defined for '${subpath}' in the package config ${pkgPath}package.json${tail}`;
    return err(ErrorCtor, 'ERR_INVALID_PACKAGE_TARGET', message);
  }

  function invalidModuleSpecifier(request, reason, basePath) {
    return err(TypeErrorCtor, 'ERR_INVALID_MODULE_SPECIFIER',
      `Invalid module "${request}" ${reason}${basePath ? ` imported from ${basePath}` : ''}`);
  }

  function invalidPackageConfig(pjsonPath, base, message) {
    return err(ErrorCtor, 'ERR_INVALID_PACKAGE_CONFIG',
      `Invalid package config ${pjsonPath}${base ? ` while importing ${base.href}` : ''}${message ? `. ${message}` : ''}`);
  }

  function exportsNotFound(subpath, pjsonPath, base) {
    const basePath = basePathOf(base);
    const from = basePath ? ` imported from ${basePath}` : '';
    const message = subpath === '.'
      ? `No "exports" main defined in ${pkgDirOf(pjsonPath)}package.json${from}`
      : `Package subpath '${subpath}' is not defined by "exports" in ${pkgDirOf(pjsonPath)}package.json${from}`;
    return err(ErrorCtor, 'ERR_PACKAGE_PATH_NOT_EXPORTED', message);
  }

  function importNotDefined(specifier, pjsonPath, base) {
    return err(TypeErrorCtor, 'ERR_PACKAGE_IMPORT_NOT_DEFINED',
      `Package import specifier "${specifier}" is not defined${pjsonPath ? ` in package ${pkgDirOf(pjsonPath)}package.json` : ''} imported from ${fileURLToPath(base)}`);
  }

  // Node's deprecatedInvalidSegmentRegEx: a '.', '..' or 'node_modules' segment (also percent-encoded, any
  // case). Empty segments ('./a//b') match only the wider invalidSegmentRegEx, which merely warns.
  function hasInvalidSegment(s) {
    const segs = split(replaceAll(s, '\\', '/'), '/');
    for (let i = 0; i < segs.length; i++) {
      const seg = segs[i];
      if (isSingleDot(seg) || isDoubleDot(seg)) return true;
      if (seg.length >= 12 && decodeSegment(seg) === 'node_modules') return true;
    }
    return false;
  }

  function decodeSegment(seg) {
    try { return StringPrototypeToLowerCase(decodeURIComponentFn(seg)); } catch { return seg; }
  }

  function resolvePackageTargetString(target, subpath, match, pjsonPath, base, pattern, internal, isPathMap, conditions) {
    if (subpath !== '' && !pattern && target[target.length - 1] !== '/') {
      throw invalidPackageTarget(match, target, pjsonPath, internal, base);
    }
    if (!StringPrototypeStartsWith(target, './')) {
      if (internal && !StringPrototypeStartsWith(target, '../') && !StringPrototypeStartsWith(target, '/')) {
        if (urlScheme(target) === undefined) {
          const exportTarget = pattern ? replaceAll(target, '*', subpath) : target + subpath;
          return packageResolve(exportTarget, pathToFileURL(pjsonPath), conditions);
        }
      }
      throw invalidPackageTarget(match, target, pjsonPath, internal, base);
    }
    if (hasInvalidSegment(StringPrototypeSlice(target, 2))) {
      throw invalidPackageTarget(match, target, pjsonPath, internal, base);
    }
    const pjsonURL = pathToFileURL(pjsonPath);
    const resolved = parseURL(target, pjsonURL);
    const packagePath = parseURL('.', pjsonURL).pathname;
    if (!StringPrototypeStartsWith(resolved.pathname, packagePath)) {
      throw invalidPackageTarget(match, target, pjsonPath, internal, base);
    }
    if (subpath === '') return resolved;
    if (hasInvalidSegment(subpath)) {
      const request = pattern ? replaceFirst(match, '*', subpath) : match + subpath;
      throw invalidModuleSpecifier(request,
        `request is not a valid match in pattern "${match}" for the "${internal ? 'imports' : 'exports'}" resolution of ${pjsonPath}`,
        basePathOf(base));
    }
    if (pattern) return parseURL(replaceAll(resolved.href, '*', subpath), undefined);
    return parseURL(subpath, resolved);
  }

  function replaceFirst(s, find, rep) {
    const i = StringPrototypeIndexOf(s, find);
    return i === -1 ? s : StringPrototypeSlice(s, 0, i) + rep + StringPrototypeSlice(s, i + find.length);
  }

  function isArrayIndex(key) {
    const n = +key;
    if (`${n}` !== key) return false;
    return n >= 0 && n < 0xFFFFFFFF;
  }

  // Returns a URL, null (explicitly excluded) or undefined (no condition matched).
  function resolvePackageTarget(pjsonPath, target, subpath, packageSubpath, base, pattern, internal, isPathMap, conditions) {
    if (typeof target === 'string') {
      return resolvePackageTargetString(target, subpath, packageSubpath, pjsonPath, base, pattern, internal, isPathMap, conditions);
    }
    if (ArrayIsArray(target)) {
      if (target.length === 0) return null;
      let lastException;
      for (let i = 0; i < target.length; i++) {
        let result;
        try {
          result = resolvePackageTarget(pjsonPath, target[i], subpath, packageSubpath, base, pattern, internal, isPathMap, conditions);
        } catch (e) {
          lastException = e;
          if (e && e.code === 'ERR_INVALID_PACKAGE_TARGET') continue;
          throw e;
        }
        if (result === undefined) continue;
        if (result === null) { lastException = null; continue; }
        return result;
      }
      if (lastException === undefined || lastException === null) return lastException;
      throw lastException;
    }
    if (typeof target === 'object' && target !== null) {
      const keys = ObjectGetOwnPropertyNames(target);
      for (let i = 0; i < keys.length; i++) {
        if (isArrayIndex(keys[i])) {
          throw invalidPackageConfig(pjsonPath, base, '"exports" cannot contain numeric property keys.');
        }
      }
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i];
        if (conditions[key] === true) {
          const result = resolvePackageTarget(pjsonPath, target[key], subpath, packageSubpath, base, pattern, internal, isPathMap, conditions);
          if (result === undefined) continue;
          return result;
        }
      }
      return undefined;
    }
    if (target === null) return null;
    throw invalidPackageTarget(packageSubpath, target, pjsonPath, internal, base);
  }

  function isConditionalExportsMainSugar(exports, pjsonPath, base) {
    if (typeof exports === 'string' || ArrayIsArray(exports)) return true;
    if (typeof exports !== 'object' || exports === null) return false;
    const keys = ObjectGetOwnPropertyNames(exports);
    let isSugar = false;
    for (let j = 0; j < keys.length; j++) {
      const key = keys[j];
      const cur = key === '' || key[0] !== '.';
      if (j === 0) isSugar = cur;
      else if (isSugar !== cur) {
        throw invalidPackageConfig(pjsonPath, base,
          '"exports" cannot contain some keys starting with \'.\' and some not.' +
          ' The exports object must either be an object of package subpath keys' +
          ' or an object of main entry condition name keys only.');
      }
    }
    return isSugar;
  }

  // Orders pattern keys: longer prefix first, then longer key.
  function patternKeyCompare(a, b) {
    const ai = StringPrototypeIndexOf(a, '*');
    const bi = StringPrototypeIndexOf(b, '*');
    const baseLenA = ai === -1 ? a.length : ai + 1;
    const baseLenB = bi === -1 ? b.length : bi + 1;
    if (baseLenA > baseLenB) return -1;
    if (baseLenB > baseLenA) return 1;
    if (ai === -1) return 1;
    if (bi === -1) return -1;
    if (a.length > b.length) return -1;
    if (b.length > a.length) return 1;
    return 0;
  }

  // The best "*" key of a map for `name`: [key, the part matched by '*'] or undefined.
  function bestPatternMatch(map, name) {
    let bestMatch = '';
    let bestMatchSubpath;
    const keys = ObjectGetOwnPropertyNames(map);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      const star = StringPrototypeIndexOf(key, '*');
      if (star !== -1 && StringPrototypeStartsWith(name, StringPrototypeSlice(key, 0, star))) {
        const trailer = StringPrototypeSlice(key, star + 1);
        if (name.length >= key.length && StringPrototypeEndsWith(name, trailer) &&
            patternKeyCompare(bestMatch, key) === 1 && StringPrototypeLastIndexOf(key, '*') === star) {
          bestMatch = key;
          bestMatchSubpath = StringPrototypeSlice(name, star, name.length - trailer.length);
        }
      }
    }
    return bestMatch ? [bestMatch, bestMatchSubpath] : undefined;
  }

  function packageExportsResolve(pjsonPath, packageSubpath, packageConfig, base, conditions) {
    let exports = packageConfig.exports;
    if (isConditionalExportsMainSugar(exports, pjsonPath, base)) exports = { '.': exports };
    const isObject = typeof exports === 'object' && exports !== null;
    if (isObject && ObjectPrototypeHasOwnProperty(exports, packageSubpath) &&
        StringPrototypeIndexOf(packageSubpath, '*') === -1 && !StringPrototypeEndsWith(packageSubpath, '/')) {
      const result = resolvePackageTarget(pjsonPath, exports[packageSubpath], '', packageSubpath, base, false, false, false, conditions);
      if (result == null) throw exportsNotFound(packageSubpath, pjsonPath, base);
      return result;
    }
    const best = isObject ? bestPatternMatch(exports, packageSubpath) : undefined;
    if (best !== undefined) {
      const result = resolvePackageTarget(pjsonPath, exports[best[0]], best[1], best[0], base, true, false,
        StringPrototypeEndsWith(packageSubpath, '/'), conditions);
      if (result == null) throw exportsNotFound(packageSubpath, pjsonPath, base);
      return result;
    }
    throw exportsNotFound(packageSubpath, pjsonPath, base);
  }

  function packageImportsResolve(name, base, conditions) {
    if (name === '#' || StringPrototypeStartsWith(name, '#/') || StringPrototypeEndsWith(name, '/')) {
      throw invalidModuleSpecifier(name, 'is not a valid internal imports specifier name', fileURLToPath(base));
    }
    let pjsonPath;
    const scope = readPackageScope(fileURLToPath(base), true);
    if (scope !== undefined) {
      pjsonPath = scope.data.pjsonPath;
      const imports = scope.data.imports;
      if (imports) {
        if (ObjectPrototypeHasOwnProperty(imports, name) && StringPrototypeIndexOf(name, '*') === -1) {
          const result = resolvePackageTarget(pjsonPath, imports[name], '', name, base, false, true, false, conditions);
          if (result != null) return result;
        } else {
          const best = bestPatternMatch(imports, name);
          if (best !== undefined) {
            const result = resolvePackageTarget(pjsonPath, imports[best[0]], best[1], best[0], base, true, true, false, conditions);
            if (result != null) return result;
          }
        }
      }
    }
    throw importNotDefined(name, pjsonPath, base);
  }

  function parsePackageName(specifier, base) {
    let separatorIndex = StringPrototypeIndexOf(specifier, '/');
    let valid = true;
    let isScoped = false;
    if (specifier[0] === '@') {
      isScoped = true;
      if (separatorIndex === -1 || specifier.length === 0) valid = false;
      else separatorIndex = StringPrototypeIndexOf(specifier, '/', separatorIndex + 1);
    }
    const packageName = separatorIndex === -1 ? specifier : StringPrototypeSlice(specifier, 0, separatorIndex);
    // No leading '.', no percent-encoding, no backslash.
    if (packageName[0] === '.' || StringPrototypeIndexOf(packageName, '%') !== -1 ||
        StringPrototypeIndexOf(packageName, '\\') !== -1) valid = false;
    if (!valid) throw invalidModuleSpecifier(specifier, 'is not a valid package name', fileURLToPath(base));
    const packageSubpath = '.' + (separatorIndex === -1 ? '' : StringPrototypeSlice(specifier, separatorIndex));
    return { packageName, packageSubpath, isScoped };
  }

  const LEGACY_MAIN_EXTENSIONS = ['', '.js', '.json', '.node', '/index.js', '/index.json', '/index.node'];
  const LEGACY_INDEX = ['./index.js', './index.json', './index.node'];

  // ESM's fallback for packages without "exports": "main" with a few guesses, then index files
  // (Node 20.20+/22+ do this in C++ on paths, not URLs).
  function legacyMainResolve(pjsonPath, packageConfig, base) {
    const pkgDir = dirname(pjsonPath);
    let initial;
    if (packageConfig.main !== undefined) {
      initial = pathResolve(pkgDir, packageConfig.main);
      for (let i = 0; i < LEGACY_MAIN_EXTENSIONS.length; i++) {
        const guess = initial + LEGACY_MAIN_EXTENSIONS[i];
        if (fileType(guess) === 1) return pathToFileURL(guess);
      }
    }
    for (let i = 0; i < LEGACY_INDEX.length; i++) {
      const guess = pathResolve(pkgDir, LEGACY_INDEX[i]);
      if (fileType(guess) === 1) return pathToFileURL(guess);
    }
    if (initial === undefined) initial = pathResolve(pkgDir, './index.js');
    throw err(ErrorCtor, 'ERR_MODULE_NOT_FOUND', `Cannot find package '${initial}' imported from ${fileURLToPath(base)}`);
  }

  function packageResolve(specifier, base, conditions) {
    if (isBuiltin(specifier) && !StringPrototypeStartsWith(specifier, 'node:')) {
      return { protocol: 'node:', href: 'node:' + specifier };
    }
    const { packageName, packageSubpath } = parsePackageName(specifier, base);
    const basePath = fileURLToPath(base);
    const esmCtx = { specifier, base: basePath };
    // Self-reference by the enclosing package's own name.
    const scope = readPackageScope(basePath, esmCtx);
    if (scope !== undefined && scope.data.exports != null && scope.data.name === packageName) {
      return packageExportsResolve(scope.data.pjsonPath, packageSubpath, scope.data, base, conditions);
    }
    // Walk up the node_modules folders (unlike CommonJS, 'node_modules/node_modules' is not skipped).
    let dir = dirname(resolveURLPath(base.pathname, '.') + 'x');
    dir = decodeURIComponentFn(dir);
    for (;;) {
      const pkgDir = (dir === '/' ? '' : dir) + '/node_modules/' + packageName;
      if (fileType(pkgDir) === 2) {
        const pjsonPath = pkgDir + '/package.json';
        const packageConfig = readPackage(pjsonPath, esmCtx);
        if (packageConfig.exports != null) {
          return packageExportsResolve(pjsonPath, packageSubpath, packageConfig, base, conditions);
        }
        if (packageSubpath === '.') return legacyMainResolve(pjsonPath, packageConfig, base);
        return parseURL(packageSubpath, pathToFileURL(pjsonPath));
      }
      if (dir === '/') break;
      dir = dirname(dir);
    }
    throw err(ErrorCtor, 'ERR_MODULE_NOT_FOUND', `Cannot find package '${packageName}' imported from ${basePath}`);
  }

  // ---- ESM

  function finalizeResolution(resolved, base) {
    const p = resolved.pathname;
    if (hasEncodedSeparator(p)) {
      throw invalidModuleSpecifier(p, 'must not include encoded "/" or "\\" characters', fileURLToPath(base));
    }
    const path = fileURLToPath(resolved);
    // A trailing '/' names a folder (Node stats '/' there).
    const type = StringPrototypeEndsWith(path, '/') ? fileType('/') : fileType(path);
    if (type === 2) {
      throw err(ErrorCtor, 'ERR_UNSUPPORTED_DIR_IMPORT',
        `Directory import '${path}' is not supported resolving ES modules imported from ${fileURLToPath(base)}`,
        { url: resolved.href });
    }
    if (type !== 1) {
      throw err(ErrorCtor, 'ERR_MODULE_NOT_FOUND', `Cannot find module '${path}' imported from ${fileURLToPath(base)}`,
        { url: resolved.href });
    }
    const real = realpath(path);
    const out = pathToFileURL(real);
    return makeFileURL('', out.pathname, resolved.search, resolved.hash);
  }

  function hasEncodedSeparator(s) {
    for (let i = 0; i + 2 < s.length; i++) {
      if (s[i] === '%') {
        const t = StringPrototypeToUpperCase(StringPrototypeSlice(s, i + 1, i + 3));
        if (t === '2F' || t === '5C') return true;
      }
    }
    return false;
  }

  function unsupportedScheme(protocol) {
    // Since Node 23 (network imports removed) the loader names file and data only; Node 20 names node too.
    const schemes = nodeMajor() >= 23 ? 'file and data' : 'file, data, and node';
    return err(ErrorCtor, 'ERR_UNSUPPORTED_ESM_URL_SCHEME',
      `Only URLs with a scheme in: ${schemes} are supported by the default ESM loader. Received protocol '${protocol}'`);
  }

  function moduleResolve(specifier, base) {
    let resolved;
    if (shouldBeTreatedAsRelativeOrAbsolutePath(specifier)) {
      resolved = parseURL(specifier, base);
    } else if (specifier[0] === '#') {
      resolved = packageImportsResolve(specifier, base, esmConditions);
    } else if (urlScheme(specifier) !== undefined) {
      resolved = parseURL(specifier, undefined);
    } else {
      resolved = packageResolve(specifier, base, esmConditions);
    }
    if (resolved.protocol === 'node:') return resolved;
    if (resolved.protocol !== 'file:') throw unsupportedScheme(resolved.protocol);
    return finalizeResolution(resolved, base);
  }

  function builtinURL(href) {
    const name = StringPrototypeSlice(href, 5);
    if (!isBuiltin(href) && !isBuiltin(name)) {
      throw err(ErrorCtor, 'ERR_UNKNOWN_BUILTIN_MODULE', `No such built-in module: ${href}`);
    }
    return { url: href, format: 'builtin' };
  }

  // What CommonJS would have found, as a hint in ESM's not-found errors.
  function resolveAsCommonJS(specifier, parentURL) {
    try {
      const parent = fileURLToPath(parentURL);
      // As Node: a module without a filename, so relative specifiers are taken against the working
      // directory (Node's behaviour, not the parent's folder), no "imports", no self-reference.
      const rel = isRelativeSpecifier(specifier);
      const dir = rel ? (cwd !== undefined ? cwd() : dirname(parent)) : parent;
      let found = resolveCjsIn(specifier, dir, undefined, []);
      if (StringPrototypeStartsWith(found, 'node:')) return false;
      if (isRelativeSpecifier(specifier)) {
        const foundURL = pathToFileURL(found).pathname;
        const parentHref = parentURL.href;
        found = relativePath(StringPrototypeSlice(parentHref, 7, StringPrototypeLastIndexOf(parentHref, '/')) || '/', foundURL);
        if (!StringPrototypeStartsWith(found, '../')) found = './' + found;
      } else if (specifier[0] && specifier[0] !== '/' && specifier[0] !== '.') {
        const i = StringPrototypeIndexOf(specifier, '/');
        const pkg = i === -1 ? specifier : StringPrototypeSlice(specifier, 0, i);
        const needle = '/node_modules/' + pkg + '/';
        const index = StringPrototypeLastIndexOf(found, needle);
        if (index !== -1) {
          const segs = split(StringPrototypeSlice(found, index + needle.length), '/');
          for (let j = 0; j < segs.length; j++) segs[j] = encodeURIComponentFn(segs[j]);
          found = pkg + '/' + join(segs, '/');
        } else {
          found = pathToFileURL(found).href;
        }
      }
      return found;
    } catch {
      return false;
    }
  }

  function formatOf(url) {
    const path = fileURLToPath(url);
    const ext = extname(url.pathname);
    if (ext === '.mjs') return 'module';
    if (ext === '.cjs') return 'commonjs';
    if (ext === '.json') return 'json';
    if (ext === '.js' || ext === '') return packageType(path);
    throw err(TypeErrorCtor, 'ERR_UNKNOWN_FILE_EXTENSION', `Unknown file extension "${ext}" for ${path}`);
  }

  function resolveEsm(specifier, parentURL) {
    const base = parseURL(parentURL, undefined);
    if (base === undefined || base.protocol !== 'file:') {
      throw err(TypeErrorCtor, 'ERR_INVALID_URL', 'Invalid URL', { input: parentURL });
    }
    if (StringPrototypeStartsWith(specifier, 'node:')) return builtinURL(specifier);
    let resolved;
    try {
      resolved = moduleResolve(specifier, base);
    } catch (e) {
      if (e && (e.code === 'ERR_MODULE_NOT_FOUND' || e.code === 'ERR_UNSUPPORTED_DIR_IMPORT')) {
        let spec = specifier;
        if (StringPrototypeStartsWith(spec, 'file://')) {
          try { spec = fileURLToPath(spec); } catch { /* keep it */ }
        }
        const found = resolveAsCommonJS(spec, base);
        if (found && found !== spec) {
          const hint = `Did you mean to import ${JSONStringify(found)}?`;
          e.message += `\n${hint}`;
          if (typeof e.stack === 'string') {
            const nl = StringPrototypeIndexOf(e.stack, '\n');
            e.stack = nl === -1 ? e.stack + '\n' + hint
              : StringPrototypeSlice(e.stack, 0, nl) + '\n' + hint + StringPrototypeSlice(e.stack, nl);
          }
        }
      }
      throw e;
    }
    if (resolved.protocol === 'node:') return builtinURL(resolved.href);
    return { url: resolved.href, format: formatOf(resolved) };
  }

  // ---- CommonJS

  const NM = 'node_modules';

  // Module._nodeModulePaths: every ancestor's node_modules, except inside a node_modules folder itself.
  function nodeModulePaths(from) {
    from = pathResolve('', from);
    if (from === '/') return ['/node_modules'];
    const paths = [];
    for (let i = from.length - 1, p = 0, last = from.length; i >= 0; --i) {
      const code = StringPrototypeCharCodeAt(from, i);
      if (code === 0x2F) {
        if (p !== NM.length) push(paths, StringPrototypeSlice(from, 0, last) + '/node_modules');
        last = i;
        p = 0;
      } else if (p !== -1) {
        if (StringPrototypeCharCodeAt(NM, NM.length - 1 - p) === code) ++p;
        else p = -1;
      }
    }
    push(paths, '/node_modules');
    return paths;
  }

  function tryFile(path) {
    return fileType(path) === 1 ? realpath(path) : false;
  }

  const CJS_EXTENSIONS = ['.js', '.json', '.node'];

  function tryExtensions(base) {
    for (let i = 0; i < CJS_EXTENSIONS.length; i++) {
      const f = tryFile(base + CJS_EXTENSIONS[i]);
      if (f) return f;
    }
    return false;
  }

  // A folder: its package.json "main" (with extensions, or as a folder with an index), else index.*.
  function tryPackage(requestPath, originalPath) {
    const main = readPackage(requestPath + '/package.json').main;
    if (!main) return tryExtensions(pathResolve(requestPath, 'index'));
    const filename = pathResolve(requestPath, main);
    let actual = tryFile(filename) || tryExtensions(filename) || tryExtensions(pathResolve(filename, 'index'));
    if (actual === false) {
      actual = tryExtensions(pathResolve(requestPath, 'index'));
      if (!actual) {
        throw err(ErrorCtor, 'MODULE_NOT_FOUND',
          `Cannot find module '${filename}'. Please verify that the package.json has a valid "main" entry`,
          { path: pathResolve(requestPath, 'package.json'), requestPath: originalPath });
      }
    }
    return actual;
  }

  function esmNotFound(request, path) {
    return err(ErrorCtor, 'MODULE_NOT_FOUND', `Cannot find module '${request}'`, path ? { path } : undefined);
  }

  // The result of an "exports"/"imports" lookup as a real file name (or a builtin).
  function finalizeEsmResolution(resolved, parentPath, pkgPath) {
    if (resolved.protocol === 'node:') return resolved.href;
    if (hasEncodedSeparator(resolved.href)) {
      const e = invalidModuleSpecifier(resolved.href, 'must not include encoded "/" or "\\" characters', parentPath);
      e.code = 'MODULE_NOT_FOUND';
      throw e;
    }
    const filename = fileURLToPath(resolved);
    const actual = tryFile(filename);
    if (actual) return actual;
    throw esmNotFound(filename, pathResolve(pkgPath, 'package.json'));
  }

  // Module's EXPORTS_PATTERN: /^((?:@[^/\\%]+\/)?[^./\\%][^/\\%]*)(\/.*)?$/
  function splitPackageRequest(request) {
    let i = 0;
    const bad = (c) => c === '/' || c === '\\' || c === '%';
    if (request[0] === '@') {
      i = 1;
      while (i < request.length && !bad(request[i])) i++;
      if (i === 1 || request[i] !== '/') return undefined;
      i++;
    }
    if (i >= request.length || bad(request[i]) || request[i] === '.') return undefined;
    while (i < request.length && !bad(request[i])) i++;
    if (i < request.length && request[i] !== '/') return undefined;
    return [StringPrototypeSlice(request, 0, i), StringPrototypeSlice(request, i)];
  }

  function resolveExports(nmPath, request) {
    const parts = splitPackageRequest(request);
    if (parts === undefined) return undefined;
    const pkgPath = pathResolve(nmPath, parts[0]);
    const pkg = readPackage(pkgPath + '/package.json');
    if (pkg.exists && pkg.exports != null) {
      try {
        return finalizeEsmResolution(packageExportsResolve(pkgPath + '/package.json', '.' + parts[1], pkg,
          undefined, cjsConditions), undefined, pkgPath);
      } catch (e) {
        if (e && e.code === 'ERR_MODULE_NOT_FOUND') throw esmNotFound(request, pkgPath + '/package.json');
        throw e;
      }
    }
    return undefined;
  }

  function findPath(request, paths) {
    const absolute = request[0] === '/';
    if (absolute) paths = [''];
    else if (paths.length === 0) return false;
    const n = request.length;
    const trailingSlash = n > 0 && (request[n - 1] === '/' || (request[n - 1] === '.' &&
      (n === 1 || request[n - 2] === '/' || (request[n - 2] === '.' && (n === 2 || request[n - 3] === '/')))));
    let insidePath = true;
    if (isRelativeSpecifier(request)) insidePath = !StringPrototypeStartsWith(normalizeRelative(request), '..');
    for (let i = 0; i < paths.length; i++) {
      const curPath = paths[i];
      if (insidePath && curPath && fileType(curPath) !== 2) continue;
      if (!absolute) {
        const exportsResolved = resolveExports(curPath, request);
        if (exportsResolved) return exportsResolved;
      }
      const basePath = pathResolve(curPath, request);
      const rc = fileType(basePath);
      let filename = false;
      if (!trailingSlash) {
        if (rc === 1) filename = realpath(basePath);
        if (!filename) filename = tryExtensions(basePath);
      }
      if (!filename && rc === 2) filename = tryPackage(basePath, request);
      if (filename) return filename;
    }
    return false;
  }

  // path.posix.normalize for a relative path.
  function normalizeRelative(p) {
    const parts = split(p, '/');
    const out = [];
    let ups = 0;
    for (let i = 0; i < parts.length; i++) {
      const seg = parts[i];
      if (seg === '' || seg === '.') continue;
      if (seg === '..') { if (out.length > 0) out.length--; else ups++; continue; }
      push(out, seg);
    }
    let prefix = '';
    for (let i = 0; i < ups; i++) prefix += i === 0 ? '..' : '/..';
    const rest = join(out, '/');
    return prefix && rest ? prefix + '/' + rest : prefix || rest || '.';
  }

  function resolveCjs(request, parentFilename, parentDir, requireStack) {
    if (parentFilename !== undefined) parentDir = dirname(parentFilename);
    const parentPath = parentFilename !== undefined ? parentFilename : parentDir + '/';
    return resolveCjsIn(request, parentDir, parentPath, requireStack);
  }

  // Module._resolveFilename. `parentPath` (the parent file, or the folder with a trailing '/') enables
  // "imports" and self-reference; Node's ESM hint resolves without them.
  function resolveCjsIn(request, parentDir, parentPath, requireStack) {
    if (StringPrototypeStartsWith(request, 'node:')) {
      if (isBuiltin(request)) return request;
    } else if (isBuiltin(request)) {
      return 'node:' + request;
    }
    // Module._resolveLookupPaths: node_modules folders unless './', '../', '.' or '..'.
    let paths;
    const c0 = request[0];
    const c1 = request[1];
    if (c0 !== '.' || (request.length > 1 && c1 !== '.' && c1 !== '/')) {
      paths = nodeModulePaths(parentDir);
      for (let i = 0; i < globalPaths.length; i++) push(paths, globalPaths[i]);
    } else {
      paths = [parentDir];
    }
    if (parentPath !== undefined) {
      const found = resolveCjsPackageScope(request, parentPath);
      if (found !== undefined) return found;
    }
    const filename = findPath(request, paths);
    if (filename) return filename;
    const stack = [];
    if (requireStack) for (let i = 0; i < requireStack.length; i++) push(stack, requireStack[i]);
    let message = `Cannot find module '${request}'`;
    if (stack.length > 0) message += '\nRequire stack:\n- ' + join(stack, '\n- ');
    throw err(ErrorCtor, 'MODULE_NOT_FOUND', message, { requireStack: stack });
  }

  // "imports" (#x) and self-reference through the enclosing package.json, or undefined.
  function resolveCjsPackageScope(request, parentPath) {
    const c0 = request[0];

    if (c0 === '#') {
      const scope = readPackageScope(parentPath);
      if (scope !== undefined && scope.data.imports != null) {
        try {
          return finalizeEsmResolution(packageImportsResolve(request, pathToFileURL(parentPath), cjsConditions),
            parentPath, scope.path);
        } catch (e) {
          if (e && e.code === 'ERR_MODULE_NOT_FOUND') throw esmNotFound(request);
          throw e;
        }
      }
    }

    // Self-reference: the enclosing package's own name, through its "exports".
    const scope = readPackageScope(parentPath);
    if (scope !== undefined && scope.data.exports != null && scope.data.name !== undefined) {
      const name = scope.data.name;
      let expansion;
      if (request === name) expansion = '.';
      else if (StringPrototypeStartsWith(request, name + '/')) expansion = '.' + StringPrototypeSlice(request, name.length);
      if (expansion !== undefined) {
        try {
          return finalizeEsmResolution(packageExportsResolve(scope.path + '/package.json', expansion, scope.data,
            pathToFileURL(parentPath), cjsConditions), parentPath, scope.path);
        } catch (e) {
          if (e && e.code === 'ERR_MODULE_NOT_FOUND') throw esmNotFound(request, scope.path + '/package.json');
          throw e;
        }
      }
    }

    return undefined;
  }

  function readPackageScopePublic(filename) {
    const scope = readPackageScope(filename);
    return scope === undefined ? undefined : { path: scope.path, data: scope.data };
  }

  return { resolveCjs, resolveEsm, packageType, nodeModulePaths, readPackageScope: readPackageScopePublic };
}

module.exports = { createResolver };
