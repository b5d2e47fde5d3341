// `inspector` (and `inspector/promises`): the VM has no inspector. The module loads with Node's shape; a session
// cannot connect and the inspector cannot be opened (ERR_ACCESS_DENIED); it is never active, as in a Node
// started without --inspect (url() is undefined, waitForDebugger() throws ERR_INSPECTOR_NOT_ACTIVE).
'use strict';

const {
  Error,
  NumberParseInt,
} = require('internal/primordials');

const EventEmitter = require('events');
const process = require('process');
const { deniedError, deniedFunction } = require('internal/denied');
const { codeError } = require('internal/errors');

const NODE_MAJOR = NumberParseInt(process.versions.node, 10);

class Session extends EventEmitter {
  connect() {
    throw deniedError('inspector.Session.connect()');
  }

  connectToMainThread() {
    throw deniedError('inspector.Session.connectToMainThread()');
  }

  post() {
    throw codeError(Error, 'ERR_INSPECTOR_NOT_CONNECTED', 'Session is not connected');
  }

  disconnect() {}
}

const noop = () => {};
/** The inspector's console: what it would send to a debugger, of which there is none. */
const inspectorConsole = {};
const CONSOLE_METHODS = ['debug', 'error', 'info', 'log', 'warn', 'dir', 'dirxml', 'table', 'trace', 'group', 'groupCollapsed', 'groupEnd', 'clear', 'count', 'countReset', 'assert', 'profile', 'profileEnd', 'time', 'timeLog', 'timeEnd', 'timeStamp', 'context'];
for (let i = 0; i < CONSOLE_METHODS.length; i++) inspectorConsole[CONSOLE_METHODS[i]] = noop;

/** Events a program reports to an attached debugger: with none attached, they go nowhere (as Node's without --inspect). */
function reporters(names) {
  const out = {};
  for (let i = 0; i < names.length; i++) out[names[i]] = noop;
  return out;
}

const inspector = {
  Session,
  close: noop,
  console: inspectorConsole,
  open: deniedFunction('open', 'inspector.open()'),
  url: () => undefined,
  waitForDebugger() {
    throw codeError(Error, 'ERR_INSPECTOR_NOT_ACTIVE', 'Inspector is not active');
  },
};
if (NODE_MAJOR < 24) {
  inspector.Network = reporters(['requestWillBeSent', 'responseReceived', 'loadingFinished', 'loadingFailed']);
} else {
  inspector.Network = reporters(['requestWillBeSent', 'responseReceived', 'loadingFinished', 'loadingFailed', 'dataSent', 'dataReceived', 'webSocketCreated', 'webSocketClosed', 'webSocketHandshakeResponseReceived']);
  inspector.DOMStorage = reporters(['domStorageItemAdded', 'domStorageItemRemoved', 'domStorageItemUpdated', 'domStorageItemsCleared', 'registerStorage']);
  inspector.NetworkResources = reporters(['put']);
}

module.exports = inspector;
