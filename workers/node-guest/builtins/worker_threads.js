// `worker_threads`: the guest is its process's only thread; creating a Worker is not available yet.
'use strict';

const { codeError } = require('internal/errors');
const EventEmitter = require('events');

class Worker extends EventEmitter {
  constructor() {
    super();
    throw codeError(Error, 'ERR_ACCESS_DENIED', 'worker_threads.Worker is not available in this VM');
  }
}

module.exports = {
  isMainThread: true,
  parentPort: null,
  workerData: null,
  threadId: 0,
  resourceLimits: {},
  Worker,
  MessageChannel: globalThis.MessageChannel,
  SHARE_ENV: Symbol.for('nodejs.worker_threads.SHARE_ENV'),
  markAsUntransferable() {},
  getEnvironmentData() {},
  setEnvironmentData() {},
};
