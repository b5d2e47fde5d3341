// Node's streams: the `readable-stream` port of Node's own implementation (npm), as Node's `stream` module.
'use strict';

const Stream = internal.require('npm-stream');
module.exports = Stream;
