// `tty`: the VM has no terminals yet (an interactive PTY would be one), so every fd answers false.
'use strict';

const {
  NumberIsInteger,
} = require('internal/primordials');

const { Readable, Writable } = require('stream');

class ReadStream extends Readable {
  constructor(fd) {
    super();
    this.fd = fd;
    this.isTTY = true;
    this.isRaw = false;
  }
  setRawMode(mode) {
    this.isRaw = !!mode;
    return this;
  }
}
class WriteStream extends Writable {
  constructor(fd) {
    super();
    this.fd = fd;
    this.isTTY = true;
    this.columns = 80;
    this.rows = 24;
  }
  getColorDepth() {
    return 1;
  }
  hasColors() {
    return false;
  }
  getWindowSize() {
    return [this.columns, this.rows];
  }
}

module.exports = { isatty: (fd) => NumberIsInteger(fd) && internal.sys.isatty(fd), ReadStream, WriteStream };
