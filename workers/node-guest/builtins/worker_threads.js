// `worker_threads`: the guest is its process's only thread; creating a Worker is not available yet. Its
// MessageChannel, MessagePort and BroadcastChannel are the globals' (internal/message-port.js).
'use strict';

const {
  Error,
  SymbolFor,
} = require('internal/primordials');

const { codeError } = require('internal/errors');
const EventEmitter = require('events');
const { MessageChannel, MessagePort, BroadcastChannel, receiveMessageOnPort } = require('internal/message-port');

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
  MessageChannel,
  MessagePort,
  BroadcastChannel,
  receiveMessageOnPort,
  SHARE_ENV: SymbolFor('nodejs.worker_threads.SHARE_ENV'),
  markAsUntransferable() {},
  getEnvironmentData() {},
  setEnvironmentData() {},
};
