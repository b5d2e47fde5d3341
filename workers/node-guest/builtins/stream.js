// Node's streams: the `readable-stream` port of Node's own implementation (npm), as Node's `stream` module,
// with the adapters to and from WHATWG streams that the port leaves empty.
'use strict';

const Stream = internal.require('npm-stream');
require('internal/webstreams-adapters')(Stream);
module.exports = Stream;
