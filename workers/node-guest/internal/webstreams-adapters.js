// Node's streams ↔ WHATWG streams (Readable.fromWeb/toWeb, Writable.fromWeb/toWeb, Duplex.fromWeb/toWeb), as
// Node's lib/internal/webstreams/adapters.js does them: the npm port of Node's streams leaves them empty.
'use strict';

const {
  PromisePrototypeThen,
  ArrayIsArray,
  Error,
  ObjectDefineProperty,
  Promise,
  PromiseAll,
  PromiseResolve,
  Uint8Array,
  ArrayPrototypePush,
  ArrayPrototypeMap,
  ArrayPrototypeFilter, PromisePrototypeFinally,
  GetBuffer,
  GetByteOffset,
  GetByteLength,
} = require('internal/primordials');

const { codeError, invalidArgType } = require('internal/errors');
const process = require('process');
const { Buffer } = require('buffer');

const PromiseThen = (p, ok, fail) => PromisePrototypeThen(p, ok, fail);
const deferred = () => {
  let resolve;
  let reject;
  const promise = new Promise((a, b) => {
    resolve = a;
    reject = b;
  });
  return { promise, resolve, reject };
};

function web() {
  return require('stream/web');
}

function validateObject(value, name) {
  if (value === null || typeof value !== 'object') throw invalidArgType(name, 'of type object', value);
}

function abortError(cause) {
  const e = new Error('The operation was aborted', cause === undefined ? undefined : { cause });
  e.name = 'AbortError';
  e.code = 'ABORT_ERR';
  return e;
}

function newStreamReadableFromReadableStream(Stream, readableStream, options = {}) {
  if (!(readableStream instanceof web().ReadableStream)) throw invalidArgType('readableStream', 'an instance of ReadableStream', readableStream);
  validateObject(options, 'options');
  const { highWaterMark, encoding, objectMode = false, signal } = options;
  if (typeof objectMode !== 'boolean') throw invalidArgType('options.objectMode', 'of type boolean', objectMode);
  const reader = readableStream.getReader();
  let closed = false;
  const readable = new Stream.Readable({
    objectMode,
    highWaterMark,
    encoding,
    signal,
    read() {
      PromiseThen(
        reader.read(),
        (chunk) => {
          if (chunk.done) readable.push(null);
          else readable.push(chunk.value);
        },
        (error) => readable.destroy(error),
      );
    },
    destroy(error, callback) {
      const done = () => {
        try {
          callback(error);
        } catch (e) {
          process.nextTick(() => {
            throw e;
          });
        }
      };
      if (!closed) return void PromiseThen(reader.cancel(error), done, done);
      done();
    },
  });
  PromiseThen(
    reader.closed,
    () => {
      closed = true;
    },
    (error) => {
      closed = true;
      readable.destroy(error);
    },
  );
  return readable;
}

function newReadableStreamFromStreamReadable(Stream, streamReadable, options = {}) {
  if (typeof streamReadable?._readableState !== 'object') throw invalidArgType('streamReadable', 'an instance of Readable', streamReadable);
  const { ReadableStream, CountQueuingStrategy } = web();
  if (streamReadable.destroyed || streamReadable.readable === false) {
    const readable = new ReadableStream();
    readable.cancel();
    return readable;
  }
  const objectMode = streamReadable.readableObjectMode;
  const highWaterMark = streamReadable.readableHighWaterMark;
  const strategy = options?.strategy ?? (objectMode ? new CountQueuingStrategy({ highWaterMark }) : { highWaterMark });
  let controller;
  function onData(chunk) {
    if (Buffer.isBuffer(chunk) && !objectMode) chunk = new Uint8Array(chunk);
    controller.enqueue(chunk);
    if (controller.desiredSize <= 0) streamReadable.pause();
  }
  function onFinished(error) {
    cleanup();
    // The readable side may have been cancelled (and so closed) already.
    if (error && error.code !== 'ERR_STREAM_PREMATURE_CLOSE') {
      try {
        controller.error(error);
      } catch {
        // already closed
      }
      return;
    }
    try {
      controller.close();
    } catch {
      // already closed
    }
  }
  streamReadable.pause();
  const cleanup = Stream.finished(streamReadable, onFinished);
  streamReadable.on('data', onData);
  return new ReadableStream(
    {
      start(c) {
        controller = c;
      },
      pull() {
        streamReadable.resume();
      },
      cancel(reason) {
        streamReadable.destroy(reason);
      },
    },
    strategy,
  );
}

function newStreamWritableFromWritableStream(Stream, writableStream, options = {}) {
  if (!(writableStream instanceof web().WritableStream)) throw invalidArgType('writableStream', 'an instance of WritableStream', writableStream);
  validateObject(options, 'options');
  const { highWaterMark, decodeStrings = true, objectMode = false, signal } = options;
  const writer = writableStream.getWriter();
  let closed = false;
  const writable = new Stream.Writable({
    highWaterMark,
    objectMode,
    decodeStrings,
    signal,
    writev(chunks, callback) {
      const done = (error) => {
        error = ArrayIsArray(error) ? ArrayPrototypeFilter(error, (e) => e) : error ? [error] : [];
        try {
          callback(error.length === 0 ? undefined : error[0]);
        } catch (e) {
          process.nextTick(() => writable.destroy(e));
        }
      };
      PromiseThen(writer.ready, () => PromiseThen(PromiseAll(ArrayPrototypeMap(chunks, (data) => writer.write(data.chunk))), done, done), done);
    },
    write(chunk, encoding, callback) {
      if (typeof chunk === 'string' && decodeStrings && !objectMode) {
        const b = Buffer.from(chunk, encoding);
        chunk = new Uint8Array(GetBuffer(b), GetByteOffset(b), GetByteLength(b));
      }
      const done = (error) => {
        try {
          callback(error);
        } catch (e) {
          writable.destroy(e);
        }
      };
      PromiseThen(writer.ready, () => PromiseThen(writer.write(chunk), () => done(), done), done);
    },
    destroy(error, callback) {
      const done = () => {
        try {
          callback(error);
        } catch (e) {
          process.nextTick(() => {
            throw e;
          });
        }
      };
      if (!closed) {
        if (error != null) PromiseThen(writer.abort(error), done, done);
        else PromiseThen(writer.close(), done, done);
        return;
      }
      done();
    },
    final(callback) {
      const done = (error) => {
        try {
          callback(error);
        } catch (e) {
          process.nextTick(() => writable.destroy(e));
        }
      };
      if (!closed) PromiseThen(writer.close(), () => done(), done);
    },
  });
  PromiseThen(
    writer.closed,
    () => {
      closed = true;
      if (!writable.writableEnded) writable.destroy(codeError(Error, 'ERR_STREAM_PREMATURE_CLOSE', 'Premature close'));
    },
    (error) => {
      closed = true;
      writable.destroy(error);
    },
  );
  return writable;
}

function newWritableStreamFromStreamWritable(Stream, streamWritable) {
  if (typeof streamWritable?._writableState !== 'object') throw invalidArgType('streamWritable', 'an instance of Writable', streamWritable);
  const { WritableStream, CountQueuingStrategy } = web();
  if (streamWritable.destroyed || streamWritable.writable === false) {
    const writable = new WritableStream();
    writable.close();
    return writable;
  }
  const highWaterMark = streamWritable.writableHighWaterMark;
  const strategy = streamWritable.writableObjectMode ? new CountQueuingStrategy({ highWaterMark }) : { highWaterMark };
  let controller;
  let backpressure;
  let closed;
  const onDrain = () => {
    if (backpressure !== undefined) backpressure.resolve();
  };
  const cleanup = Stream.finished(streamWritable, (error) => {
    if (error?.code === 'ERR_STREAM_PREMATURE_CLOSE') error = abortError(error);
    cleanup();
    // The stream is done: errors after this are not the guest's to see.
    streamWritable.on('error', () => {});
    if (error != null) {
      if (backpressure !== undefined) backpressure.reject(error);
      if (closed !== undefined) {
        closed.reject(error);
        closed = undefined;
      }
      controller?.error(error);
      controller = undefined;
      return;
    }
    if (closed !== undefined) {
      closed.resolve();
      closed = undefined;
      return;
    }
    controller?.error(abortError());
    controller = undefined;
  });
  streamWritable.on('drain', onDrain);
  return new WritableStream(
    {
      start(c) {
        controller = c;
      },
      write(chunk) {
        if (streamWritable.writableNeedDrain || !streamWritable.write(chunk)) {
          backpressure = deferred();
          return PromisePrototypeFinally(backpressure.promise, () => {
            backpressure = undefined;
          });
        }
      },
      abort(reason) {
        streamWritable.destroy(reason);
      },
      close() {
        if (closed === undefined && !streamWritable.writableEnded) {
          closed = deferred();
          streamWritable.end();
          return closed.promise;
        }
        controller = undefined;
        return PromiseResolve();
      },
    },
    strategy,
  );
}

function newReadableWritablePairFromDuplex(Stream, duplex) {
  if (typeof duplex?._writableState !== 'object' || typeof duplex?._readableState !== 'object') throw invalidArgType('duplex', 'an instance of Duplex', duplex);
  return { readable: newReadableStreamFromStreamReadable(Stream, duplex), writable: newWritableStreamFromStreamWritable(Stream, duplex) };
}

function newStreamDuplexFromReadableWritablePair(Stream, pair = {}, options = {}) {
  validateObject(pair, 'pair');
  const { readable: readableStream, writable: writableStream } = pair;
  if (!(readableStream instanceof web().ReadableStream)) throw invalidArgType('pair.readable', 'an instance of ReadableStream', readableStream);
  if (!(writableStream instanceof web().WritableStream)) throw invalidArgType('pair.writable', 'an instance of WritableStream', writableStream);
  validateObject(options, 'options');
  const { allowHalfOpen = false, objectMode = false, encoding, decodeStrings = true, highWaterMark, signal } = options;
  const writer = writableStream.getWriter();
  const reader = readableStream.getReader();
  let writableClosed = false;
  let readableClosed = false;
  const duplex = new Stream.Duplex({
    allowHalfOpen,
    highWaterMark,
    objectMode,
    encoding,
    decodeStrings,
    signal,
    write(chunk, encoding, callback) {
      if (typeof chunk === 'string' && decodeStrings && !objectMode) {
        const b = Buffer.from(chunk, encoding);
        chunk = new Uint8Array(GetBuffer(b), GetByteOffset(b), GetByteLength(b));
      }
      const done = (error) => {
        try {
          callback(error);
        } catch (e) {
          duplex.destroy(e);
        }
      };
      PromiseThen(writer.ready, () => PromiseThen(writer.write(chunk), () => done(), done), done);
    },
    final(callback) {
      const done = (error) => {
        try {
          callback(error);
        } catch (e) {
          process.nextTick(() => duplex.destroy(e));
        }
      };
      if (!writableClosed) PromiseThen(writer.close(), () => done(), done);
    },
    read() {
      PromiseThen(
        reader.read(),
        (chunk) => {
          if (chunk.done) duplex.push(null);
          else duplex.push(chunk.value);
        },
        (error) => duplex.destroy(error),
      );
    },
    destroy(error, callback) {
      const done = () => {
        try {
          callback(error);
        } catch (e) {
          process.nextTick(() => {
            throw e;
          });
        }
      };
      const closeWriter = () => {
        if (writableClosed) return PromiseResolve();
        return error != null ? writer.abort(error) : writer.close();
      };
      const closeReader = () => (readableClosed ? PromiseResolve() : reader.cancel(error));
      PromiseThen(PromiseAll([closeWriter(), closeReader()]), done, done);
    },
  });
  PromiseThen(
    writer.closed,
    () => {
      writableClosed = true;
      if (!duplex.writableEnded) duplex.destroy(codeError(Error, 'ERR_STREAM_PREMATURE_CLOSE', 'Premature close'));
    },
    (error) => {
      writableClosed = true;
      readableClosed = true;
      duplex.destroy(error);
    },
  );
  PromiseThen(
    reader.closed,
    () => {
      readableClosed = true;
    },
    (error) => {
      writableClosed = true;
      readableClosed = true;
      duplex.destroy(error);
    },
  );
  return duplex;
}

/** Puts the adapters on the port's classes. */
module.exports = function install(Stream) {
  const define = (target, name, fn) => ObjectDefineProperty(target, name, { value: fn, writable: true, enumerable: true, configurable: true });
  define(Stream.Readable, 'fromWeb', (readableStream, options) => newStreamReadableFromReadableStream(Stream, readableStream, options));
  define(Stream.Readable, 'toWeb', (streamReadable, options) => newReadableStreamFromStreamReadable(Stream, streamReadable, options));
  define(Stream.Writable, 'fromWeb', (writableStream, options) => newStreamWritableFromWritableStream(Stream, writableStream, options));
  define(Stream.Writable, 'toWeb', (streamWritable) => newWritableStreamFromStreamWritable(Stream, streamWritable));
  define(Stream.Duplex, 'fromWeb', (pair, options) => newStreamDuplexFromReadableWritablePair(Stream, pair, options));
  define(Stream.Duplex, 'toWeb', (duplex) => newReadableWritablePairFromDuplex(Stream, duplex));
};
