// `cluster`: the guest is always the primary, and forking workers (processes sharing a listening socket) is not
// available in the VM: `fork()` fails with ERR_ACCESS_DENIED (internal/denied.js). The module is an
// EventEmitter with Node's members, as Node's primary's is.
'use strict';

const {
  ObjectAssign,
} = require('internal/primordials');

const EventEmitter = require('events');
const process = require('process');
const { deniedError, deniedFunction } = require('internal/denied');

class Worker extends EventEmitter {
  constructor() {
    super();
    throw deniedError('cluster.Worker');
  }
}

const cluster = new EventEmitter();
const setupPrimary = (settings) => {
  cluster.settings = ObjectAssign({}, cluster.settings, settings);
};
ObjectAssign(cluster, {
  isWorker: false,
  isMaster: true,
  isPrimary: true,
  Worker,
  workers: {},
  settings: {},
  SCHED_NONE: 1,
  SCHED_RR: 2,
  schedulingPolicy: 2,
  setupPrimary,
  setupMaster: setupPrimary,
  fork: deniedFunction('fork', 'cluster.fork()'),
  disconnect(cb) {
    if (typeof cb === 'function') process.nextTick(cb);
  },
});
module.exports = cluster;
