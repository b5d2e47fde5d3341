// Node's `path`. POSIX: the `path-browserify` port of Node's own (npm). `path.win32`: Node's own, computed by
// the host (pure string functions: strings in, a string out), relative paths resolved against the guest's
// working directory. Both validate their arguments as Node does, with its errors.
'use strict';

const { invalidArgType } = require('internal/errors');
const { apply: ReflectApply } = Reflect;
const JSONStringify = JSON.stringify;
const JSONParse = JSON.parse;
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

const posix = {
  resolve: (...paths) => (validatePaths(paths, 'paths'), ReflectApply(npmPath.resolve, npmPath, paths)),
  normalize: (path) => (validateString(path, 'path'), npmPath.normalize(path)),
  isAbsolute: (path) => (validateString(path, 'path'), npmPath.isAbsolute(path)),
  join: (...paths) => (validatePaths(paths, 'path'), ReflectApply(npmPath.join, npmPath, paths)),
  relative: (from, to) => (validateString(from, 'from'), validateString(to, 'to'), npmPath.relative(from, to)),
  toNamespacedPath: (path) => path,
  dirname: (path) => (validateString(path, 'path'), npmPath.dirname(path)),
  basename: (path, suffix) => {
    if (suffix !== undefined) validateString(suffix, 'suffix');
    validateString(path, 'path');
    return npmPath.basename(path, suffix);
  },
  extname: (path) => (validateString(path, 'path'), npmPath.extname(path)),
  format: formatter('/'),
  parse: (path) => (validateString(path, 'path'), npmPath.parse(path)),
  matchesGlob: undefined,
  sep: '/',
  delimiter: ':',
  win32: null,
  posix: null,
  _makeLong: (path) => path,
};

/** Node's path.win32[fn] of validated strings, on the host; relative paths start at the guest's directory. */
function win32Call(fn, args) {
  const r = internal.host('pathWin32', fn, require('process').cwd(), JSONStringify(args));
  if (typeof r !== 'string' || internal.isFailure(r)) throw new Error(`path.win32.${fn} failed`);
  return r;
}
const win32 = {
  resolve: (...paths) => (validatePaths(paths, 'paths'), win32Call('resolve', paths)),
  normalize: (path) => (validateString(path, 'path'), win32Call('normalize', [path])),
  isAbsolute: (path) => (validateString(path, 'path'), win32Call('isAbsolute', [path]) === 'true'),
  join: (...paths) => (validatePaths(paths, 'path'), win32Call('join', paths)),
  relative: (from, to) => (validateString(from, 'from'), validateString(to, 'to'), win32Call('relative', [from, to])),
  toNamespacedPath: (path) => (typeof path !== 'string' || path === '' ? path : win32Call('toNamespacedPath', [path])),
  dirname: (path) => (validateString(path, 'path'), win32Call('dirname', [path])),
  basename: (path, suffix) => {
    if (suffix !== undefined) validateString(suffix, 'suffix');
    validateString(path, 'path');
    return win32Call('basename', suffix === undefined ? [path] : [path, suffix]);
  },
  extname: (path) => (validateString(path, 'path'), win32Call('extname', [path])),
  format: formatter('\\'),
  parse: (path) => {
    validateString(path, 'path');
    const { root, dir, base, ext, name } = JSONParse(win32Call('parse', [path]));
    return { root, dir, base, ext, name };
  },
  matchesGlob: undefined,
  sep: '\\',
  delimiter: ';',
  win32: null,
  posix: null,
  _makeLong: (path) => win32.toNamespacedPath(path),
};

posix.win32 = win32.win32 = win32;
posix.posix = win32.posix = posix;
module.exports = posix;
