// `stream/consumers`: a whole stream (Node stream, web stream or async iterable) read into one value, as Node's.
'use strict';

const {
  ArrayBufferPrototypeSlice,
  ArrayPrototypePush,
  JSONParse,
  NumberParseInt,
  Uint8Array,
  GetBuffer,
  GetByteOffset,
  GetByteLength,
} = require('internal/primordials');

const { Buffer } = require('buffer');
const process = require('process');

async function chunksOf(stream) {
  const chunks = [];
  for await (const chunk of stream) ArrayPrototypePush(chunks, typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return chunks;
}

async function buffer(stream) {
  const chunks = await chunksOf(stream);
  const parts = [];
  for (let i = 0; i < chunks.length; i++) ArrayPrototypePush(parts, Buffer.from(GetBuffer(chunks[i]), GetByteOffset(chunks[i]), GetByteLength(chunks[i])));
  return Buffer.concat(parts);
}

async function bytes(stream) {
  const b = await buffer(stream);
  return new Uint8Array(GetBuffer(b), GetByteOffset(b), GetByteLength(b));
}

async function arrayBuffer(stream) {
  const b = await buffer(stream);
  return ArrayBufferPrototypeSlice(GetBuffer(b), GetByteOffset(b), GetByteOffset(b) + GetByteLength(b));
}

async function blob(stream) {
  const { Blob } = require('buffer');
  return new Blob(await chunksOf(stream));
}

async function text(stream) {
  const decoder = new (require('util').TextDecoder)();
  const chunks = await chunksOf(stream);
  let out = '';
  for (let i = 0; i < chunks.length; i++) out += decoder.decode(chunks[i], { stream: true });
  return out + decoder.decode();
}

async function json(stream) {
  return JSONParse(await text(stream));
}

module.exports = { arrayBuffer, blob, buffer, json, text };
if (NumberParseInt(process.versions.node, 10) >= 24) module.exports.bytes = bytes;
