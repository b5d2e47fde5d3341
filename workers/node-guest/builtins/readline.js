// `readline`: lines of an input stream (`line` events, `question`, async iteration), and readline/promises.
'use strict';

const {
  Error,
  Promise,
  PromiseResolve,
  SymbolAsyncIterator,
  ArrayPrototypePush, ArrayPrototypeShift, ArrayPrototypeSplice,
  SafeArrayIterator,
  RegExpPrototypeExec, StringPrototypeSlice,
} = require('internal/primordials');

const EventEmitter = require('events');
const { StringDecoder } = require('string_decoder');

/** Where the first line ending of `s` is, or -1. */
const lineEnd = (s) => {
  const m = RegExpPrototypeExec(/\r\n|\n|\r/, s);
  return m === null ? -1 : m.index;
};

class Interface extends EventEmitter {
  constructor(input, output, completer, terminal) {
    super();
    const options = input && typeof input.on === 'function' && output === undefined && !input.input ? { input } : input && input.input ? input : { input, output };
    this.input = options.input;
    this.output = options.output;
    this.terminal = !!options.terminal;
    this.line = '';
    this.closed = false;
    this._prompt = options.prompt === undefined ? '> ' : options.prompt;
    this._questions = [];
    this._buffer = '';
    this._paused = false;
    this._decoder = new StringDecoder('utf8');
    this._crlfDelay = options.crlfDelay === undefined ? 100 : options.crlfDelay;
    this._onData = (chunk) => this._write(typeof chunk === 'string' ? chunk : this._decoder.write(chunk));
    this._onEnd = () => {
      const rest = this._buffer + this._decoder.end();
      this._buffer = '';
      if (rest.length > 0) this._line(rest);
      this.close();
    };
    if (this.input) {
      this.input.on('data', this._onData);
      this.input.on('end', this._onEnd);
      if (typeof this.input.resume === 'function') this.input.resume();
    }
  }
  _write(text) {
    this._buffer += text;
    let i;
    while ((i = lineEnd(this._buffer)) >= 0) {
      const line = StringPrototypeSlice(this._buffer, 0, i);
      const sep = this._buffer[i] === '\r' && this._buffer[i + 1] === '\n' ? 2 : 1;
      if (this._buffer[i] === '\r' && i + 1 === this._buffer.length) break; // a \n may follow
      this._buffer = StringPrototypeSlice(this._buffer, i + sep);
      this._line(line);
    }
  }
  _line(line) {
    const q = ArrayPrototypeShift(this._questions);
    if (q) q(line);
    else this.emit('line', line);
  }
  setPrompt(prompt) {
    this._prompt = prompt;
  }
  getPrompt() {
    return this._prompt;
  }
  prompt() {
    if (this.output) this.output.write(this._prompt);
  }
  question(query, options, callback) {
    if (typeof options === 'function') callback = options;
    if (this.closed) {
      const e = new Error('readline was closed');
      e.code = 'ERR_USE_AFTER_CLOSE';
      throw e;
    }
    if (this.output) this.output.write(query);
    ArrayPrototypePush(this._questions, callback);
  }
  write(data) {
    if (typeof data === 'string') this._write(data);
  }
  pause() {
    if (this.input && this.input.pause) this.input.pause();
    this._paused = true;
    this.emit('pause');
    return this;
  }
  resume() {
    if (this.input && this.input.resume) this.input.resume();
    this._paused = false;
    this.emit('resume');
    return this;
  }
  close() {
    if (this.closed) return;
    this.closed = true;
    if (this.input) {
      this.input.removeListener('data', this._onData);
      this.input.removeListener('end', this._onEnd);
      if (typeof this.input.pause === 'function') this.input.pause();
    }
    this.emit('close');
  }
  getCursorPos() {
    return { rows: 0, cols: 0 };
  }
  [SymbolAsyncIterator]() {
    const lines = [];
    const waiting = [];
    let done = false;
    this.on('line', (line) => (waiting.length ? ArrayPrototypeShift(waiting)({ value: line, done: false }) : ArrayPrototypePush(lines, line)));
    this.on('close', () => {
      done = true;
      for (const w of new SafeArrayIterator(ArrayPrototypeSplice(waiting, 0))) w({ value: undefined, done: true });
    });
    return {
      next: () => (lines.length ? PromiseResolve({ value: ArrayPrototypeShift(lines), done: false }) : done ? PromiseResolve({ value: undefined, done: true }) : new Promise((r) => ArrayPrototypePush(waiting, r))),
      return: () => {
        this.close();
        return PromiseResolve({ value: undefined, done: true });
      },
      [SymbolAsyncIterator]() {
        return this;
      },
    };
  }
}

const createInterface = (input, output, completer, terminal) => new Interface(input, output, completer, terminal);
const noop = (stream, a, b, cb) => {
  if (typeof cb === 'function') cb();
  return true;
};

class PromisesInterface extends Interface {
  question(query, options) {
    return new Promise((resolve) => super.question(query, options, resolve));
  }
}

module.exports = {
  Interface,
  createInterface,
  clearLine: noop,
  clearScreenDown: (stream, cb) => noop(stream, 0, 0, cb),
  cursorTo: noop,
  moveCursor: noop,
  emitKeypressEvents: () => {},
  promises: { Interface: PromisesInterface, createInterface: (input, output) => new PromisesInterface(input, output) },
};
