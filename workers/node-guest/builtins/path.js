// Node's `path` for POSIX: the `path-browserify` port of Node's own (npm); `path.posix` is itself.
'use strict';

const path = internal.require('npm-path');
path.posix = path;
path.win32 = path.win32 || null;
path.toNamespacedPath = (p) => p;
path.matchesGlob = undefined;
module.exports = path;
