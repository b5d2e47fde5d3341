// dns through the VM's kernel resolver: `lookup`, `resolve4` and `resolve6` answer IP literals and localhost
// here and other names from the VM's /etc/hosts, then the host's resolver for the names the network policy
// allows (ENOTFOUND for the others, with no query made). The other `resolve*` queries find no DNS server to
// ask, and fail as Node's do when its servers refuse (ECONNREFUSED).
'use strict';

const {
  ArrayIsArray,
  ArrayPrototypeFilter,
  NumberParseInt,
  ObjectAssign,
  ObjectKeys,
  Promise,
  String,
  TypeError,
  SafeArrayIterator,
  ArrayPrototypeSlice,
  ArrayPrototypeConcat, ArrayPrototypeMap, FunctionPrototypeBind,
} = require('internal/primordials');

const { codeError, invalidArgType } = require('internal/errors');
const { isIP, lookupAddresses, dnsException } = require('internal/net-sys');
const process = require('process');

let defaultOrder = 'verbatim';

function validateFamily(family) {
  if (family === 'IPv4') return 4;
  if (family === 'IPv6') return 6;
  if (family !== 0 && family !== 4 && family !== 6) {
    throw codeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The property 'options.family' must be one of: 0, 4, 6. Received ${typeof family === 'string' ? `'${family}'` : family}`);
  }
  return family;
}

function lookupSync(hostname, options) {
  let family = 0;
  let all = false;
  let order = defaultOrder;
  if (typeof options === 'number') family = validateFamily(options);
  else if (options !== undefined && options !== null) {
    if (typeof options !== 'object') throw invalidArgType('options', 'of type object', options);
    if (options.family != null) family = validateFamily(options.family);
    all = options.all === true;
    if (options.order) order = options.order;
    else if (options.verbatim === false) order = 'ipv4first';
  }
  if (hostname && typeof hostname !== 'string') throw invalidArgType('hostname', 'of type string', hostname);
  if (!hostname) return { all, list: [], empty: true, family };
  const found = lookupAddresses(hostname, family, order);
  return { all, list: found.list, code: found.code, family };
}

function lookup(hostname, options, callback) {
  if (typeof options === 'function') {
    callback = options;
    options = undefined;
  }
  if (typeof callback !== 'function') throw invalidArgType('callback', 'of type function', callback);
  const r = lookupSync(hostname, options);
  if (r.empty) {
    if (r.all) process.nextTick(callback, null, []);
    else process.nextTick(callback, null, null, r.family === 6 ? 6 : 4);
    return {};
  }
  if (r.list.length === 0) process.nextTick(callback, dnsException(r.code || 'ENOTFOUND', 'getaddrinfo', hostname));
  else if (r.all) process.nextTick(callback, null, r.list);
  else process.nextTick(callback, null, r.list[0].address, r.list[0].family);
  return {};
}

function lookupService(address, port, callback) {
  if (!isIP(address)) throw codeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The argument 'address' is invalid. Received '${address}'`);
  if (typeof callback !== 'function') throw invalidArgType('callback', 'of type function', callback);
  const loop = address === '127.0.0.1' || address === '::1';
  if (loop) process.nextTick(callback, null, 'localhost', String(port));
  else process.nextTick(callback, dnsException('ENOTFOUND', 'getnameinfo', address));
}

const QUERIES = {
  resolve4: 'queryA', resolve6: 'queryAaaa', resolveAny: 'queryAny', resolveCaa: 'queryCaa', resolveCname: 'queryCname',
  resolveMx: 'queryMx', resolveNaptr: 'queryNaptr', resolveNs: 'queryNs', resolvePtr: 'queryPtr', resolveSoa: 'querySoa',
  resolveSrv: 'querySrv', resolveTxt: 'queryTxt', reverse: 'getHostByAddr',
};
const RRTYPES = { A: 'resolve4', AAAA: 'resolve6', ANY: 'resolveAny', CAA: 'resolveCaa', CNAME: 'resolveCname', MX: 'resolveMx', NAPTR: 'resolveNaptr', NS: 'resolveNs', PTR: 'resolvePtr', SOA: 'resolveSoa', SRV: 'resolveSrv', TXT: 'resolveTxt' };
// Node 24 resolves TLSA records too.
if (NumberParseInt(process.versions.node, 10) >= 24) {
  QUERIES.resolveTlsa = 'queryTlsa';
  RRTYPES.TLSA = 'resolveTlsa';
}

function queryFailure(method, hostname) {
  if (typeof hostname !== 'string') throw invalidArgType('name', 'of type string', hostname);
  return dnsException('ECONNREFUSED', QUERIES[method], hostname);
}

class Resolver {
  constructor() {
    this._servers = [];
  }
  cancel() {}
  getServers() {
    return ArrayPrototypeSlice(this._servers);
  }
  setServers(servers) {
    if (!ArrayIsArray(servers)) throw invalidArgType('servers', 'an instance of Array', servers);
    this._servers = ArrayPrototypeMap(servers, String);
  }
  setLocalAddress() {}
  resolve(hostname, rrtype, callback) {
    if (typeof rrtype === 'function') {
      callback = rrtype;
      rrtype = 'A';
    }
    const method = RRTYPES[rrtype === undefined ? 'A' : rrtype];
    if (!method) throw codeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The argument 'rrtype' is invalid. Received '${rrtype}'`);
    return this[method](hostname, callback);
  }
}
/**
 * resolve4/resolve6: the kernel's resolver answers A and AAAA for the names the network policy allows (a
 * name not allowed is ENOTFOUND, with no query made). It gives no TTL: `ttl: true` reports 0.
 */
function resolveAddresses(method, hostname, options, callback) {
  if (typeof hostname !== 'string') throw invalidArgType('name', 'of type string', hostname);
  const family = method === 'resolve6' ? 6 : 4;
  // One lookup of both families: a name with addresses of the other family only has no record of this type
  // (ENODATA, as c-ares says); one with none is ENOTFOUND.
  const all = isIP(hostname) ? { list: [], code: 'ENOTFOUND' } : lookupAddresses(hostname, 0, 'verbatim');
  const list = ArrayPrototypeFilter(all.list, (a) => a.family === family);
  if (list.length === 0) {
    const code = all.list.length > 0 ? 'ENODATA' : all.code === 'EAI_AGAIN' ? 'ETIMEOUT' : 'ENOTFOUND';
    process.nextTick(callback, dnsException(code, QUERIES[method], hostname));
    return;
  }
  const ttl = options !== null && typeof options === 'object' && options.ttl === true;
  const out = [];
  for (let i = 0; i < list.length; i++) out[i] = ttl ? { address: list[i].address, ttl: 0 } : list[i].address;
  process.nextTick(callback, null, out);
}

for (const method of new SafeArrayIterator(ObjectKeys(QUERIES))) {
  Resolver.prototype[method] = function (hostname, options, callback) {
    if (typeof options === 'function') callback = options;
    if (typeof callback !== 'function') throw invalidArgType('callback', 'of type function', callback);
    if (method === 'resolve4' || method === 'resolve6') {
      resolveAddresses(method, hostname, options, callback);
      return {};
    }
    const e = queryFailure(method, hostname);
    process.nextTick(callback, e);
    return {};
  };
}

const defaultResolver = new Resolver();
const bound = {};
for (const method of new SafeArrayIterator(ArrayPrototypeConcat(['getServers', 'setServers', 'resolve'], ObjectKeys(QUERIES)))) bound[method] = FunctionPrototypeBind(defaultResolver[method], defaultResolver);

// dns/promises
class PromisesResolver extends Resolver {}
const promises = {
  lookup: (hostname, options) =>
    new Promise((resolve, reject) => {
      const r = lookupSync(hostname, options);
      if (r.empty) return resolve(r.all ? [] : { address: null, family: r.family === 6 ? 6 : 4 });
      if (r.list.length === 0) return reject(dnsException(r.code || 'ENOTFOUND', 'getaddrinfo', hostname));
      resolve(r.all ? r.list : r.list[0]);
    }),
  lookupService: (address, port) => new Promise((resolve, reject) => lookupService(address, port, (e, hostname, service) => (e ? reject(e) : resolve({ hostname, service })))),
  Resolver: PromisesResolver,
  getServers: () => defaultResolver.getServers(),
  setServers: (s) => defaultResolver.setServers(s),
  setDefaultResultOrder: (order) => setDefaultResultOrder(order),
  getDefaultResultOrder: () => defaultOrder,
  resolve(hostname, rrtype) {
    return new Promise((resolve, reject) => defaultResolver.resolve(hostname, rrtype === undefined ? 'A' : rrtype, (e, r) => (e ? reject(e) : resolve(r))));
  },
};
for (const method of new SafeArrayIterator(ObjectKeys(QUERIES))) {
  const run = (hostname, options) => new Promise((resolve, reject) => defaultResolver[method](hostname, options, (e, r) => (e ? reject(e) : resolve(r))));
  promises[method] = run;
  PromisesResolver.prototype[method] = run;
}
PromisesResolver.prototype.resolve = promises.resolve;

function setDefaultResultOrder(order) {
  if (order !== 'verbatim' && order !== 'ipv4first' && order !== 'ipv6first') {
    throw codeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The argument 'dnsOrder' must be one of: 'verbatim', 'ipv4first'. Received '${order}'`);
  }
  defaultOrder = order;
}

const codes = {
  NODATA: 'ENODATA', FORMERR: 'EFORMERR', SERVFAIL: 'ESERVFAIL', NOTFOUND: 'ENOTFOUND', NOTIMP: 'ENOTIMP', REFUSED: 'EREFUSED',
  BADQUERY: 'EBADQUERY', BADNAME: 'EBADNAME', BADFAMILY: 'EBADFAMILY', BADRESP: 'EBADRESP', CONNREFUSED: 'ECONNREFUSED',
  TIMEOUT: 'ETIMEOUT', EOF: 'EOF', FILE: 'EFILE', NOMEM: 'ENOMEM', DESTRUCTION: 'EDESTRUCTION', BADSTR: 'EBADSTR',
  BADFLAGS: 'EBADFLAGS', NONAME: 'ENONAME', BADHINTS: 'EBADHINTS', NOTINITIALIZED: 'ENOTINITIALIZED',
  LOADIPHLPAPI: 'ELOADIPHLPAPI', ADDRGETNETWORKPARAMS: 'EADDRGETNETWORKPARAMS', CANCELLED: 'ECANCELLED',
};
ObjectAssign(promises, codes);

module.exports = {
  lookup,
  lookupService,
  Resolver,
  setDefaultResultOrder,
  getDefaultResultOrder: () => defaultOrder,
  ADDRCONFIG: 1024,
  ALL: 256,
  V4MAPPED: 2048,
  ...codes,
  ...bound,
  promises,
};
