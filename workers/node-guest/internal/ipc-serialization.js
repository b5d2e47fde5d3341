// The IPC channel's two message formats (child_process `serialization`), one message per line. 'json' is
// Node's: JSON text. 'advanced' is Node's too: V8's serialization format (internal/v8-serializer.js), which
// carries what the structured clone algorithm carries; both ends are guests of this VM, so the bytes travel
// as base64 text on the line rather than behind Node's length prefix.
'use strict';

const {
  JSONParse,
  JSONStringify,
} = require('internal/primordials');
const { BufferPrototypeToString } = require('internal/buffer-primordials');

const { Buffer } = require('buffer');

module.exports = {
  json: { encode: (message) => JSONStringify(message), decode: (line) => JSONParse(line) },
  advanced: {
    encode: (message) => BufferPrototypeToString(require('internal/v8-serializer').serialize(message), 'base64'),
    decode: (line) => require('internal/v8-serializer').deserialize(Buffer.from(line, 'base64')),
  },
};
