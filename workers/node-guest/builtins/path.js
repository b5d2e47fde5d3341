// Node's `path`. POSIX: the `path-browserify` port of Node's own (npm). `path.win32`: Node's own, computed by
// the host (pure string functions: strings in, a string out), relative paths resolved against the guest's
// working directory. Both validate their arguments as Node does, with its errors.
'use strict';

const {
  ReflectApply,
  JSONStringify,
  JSONParse,
  Error,
  StringPrototypeIndexOf, StringPrototypeSlice,
} = require('internal/primordials');

const { invalidArgType } = require('internal/errors');
const npmPath = internal.require('npm-path');

function validateString(value, name) {
  if (typeof value !== 'string') throw invalidArgType(name, 'of type string', value);
}
function validatePaths(paths, name) {
  for (let i = 0; i < paths.length; i++) validateString(paths[i], name === 'paths' ? `paths[${i}]` : name);
}

/** Node's `path.format` for a separator (the same algorithm on both platforms). */
function formatter(sep) {
  return function format(pathObject) {
    if (pathObject === null || typeof pathObject !== 'object') throw invalidArgType('pathObject', 'of type object', pathObject);
    const dir = pathObject.dir || pathObject.root;
    const ext = pathObject.ext || '';
    const base = pathObject.base || `${pathObject.name || ''}${ext && ext[0] !== '.' ? `.${ext}` : ext}`;
    if (!dir) return base;
    return dir === pathObject.root ? `${dir}${base}` : `${dir}${sep}${base}`;
  };
}

// Node 20 marks glob matching experimental and says so once, on first use (before checking the arguments).
let globWarned = false;
function matchesGlobOf(windows) {
  return function matchesGlob(path, pattern) {
    if (!globWarned) {
      globWarned = true;
      const process = require('process');
      const version = `${process.versions.node}`;
      if (+StringPrototypeSlice(version, 0, StringPrototypeIndexOf(version, '.')) < 22) process.emitWarning('glob is an experimental feature and might change at any time', 'ExperimentalWarning');
    }
    validateString(path, 'path');
    validateString(pattern, 'pattern');
    // Node's own matcher, on the host: two strings in, a boolean out.
    const r = internal.host('pathMatchesGlob', windows, path, pattern);
    if (typeof r !== 'boolean') throw new Error('path.matchesGlob failed');
    return r;
  };
}

/**
 * One platform's `path`: arguments validated as Node does, then `call(fn, args)` gives Node's answer for
 * function `fn` of the platform.
 */
function pathModule(call, sep, delimiter, windows) {
  const path = {
    resolve: (...paths) => (validatePaths(paths, 'paths'), call('resolve', paths)),
    normalize: (p) => (validateString(p, 'path'), call('normalize', [p])),
    isAbsolute: (p) => (validateString(p, 'path'), call('isAbsolute', [p])),
    join: (...paths) => (validatePaths(paths, 'path'), call('join', paths)),
    relative: (from, to) => (validateString(from, 'from'), validateString(to, 'to'), call('relative', [from, to])),
    toNamespacedPath: (p) => (typeof p !== 'string' || p === '' ? p : call('toNamespacedPath', [p])),
    dirname: (p) => (validateString(p, 'path'), call('dirname', [p])),
    basename: (p, suffix) => {
      if (suffix !== undefined) validateString(suffix, 'suffix');
      validateString(p, 'path');
      return call('basename', suffix === undefined ? [p] : [p, suffix]);
    },
    extname: (p) => (validateString(p, 'path'), call('extname', [p])),
    format: formatter(sep),
    parse: (p) => (validateString(p, 'path'), call('parse', [p])),
    matchesGlob: matchesGlobOf(windows),
    sep,
    delimiter,
    win32: null,
    posix: null,
    _makeLong: (p) => path.toNamespacedPath(p),
  };
  return path;
}

const posix = pathModule((fn, args) => (fn === 'toNamespacedPath' ? args[0] : ReflectApply(npmPath[fn], npmPath, args)), '/', ':', false);

/** Node's path.win32[fn] of validated strings, on the host; relative paths start at the guest's directory. */
const win32 = pathModule((fn, args) => {
  const r = internal.host('pathWin32', fn, require('process').cwd(), JSONStringify(args));
  if (typeof r !== 'string' || internal.isFailure(r)) throw new Error(`path.win32.${fn} failed`);
  if (fn === 'isAbsolute') return r === 'true';
  if (fn !== 'parse') return r;
  const { root, dir, base, ext, name } = JSONParse(r);
  return { root, dir, base, ext, name };
}, '\\', ';', true);

posix.win32 = win32.win32 = win32;
posix.posix = win32.posix = posix;
module.exports = posix;
