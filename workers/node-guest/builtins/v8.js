// `v8`: the heap statistics of the guest's own isolate (a worker of its own), asked of the host.
'use strict';

const JSONParse = JSON.parse;
function statistics(kind) {
  const r = internal.host('heapStatistics', kind);
  if (typeof r !== 'string' || internal.isFailure(r)) throw new Error('heap statistics are not available');
  return JSONParse(r);
}
module.exports = {
  getHeapStatistics: () => statistics('heap'),
  getHeapSpaceStatistics: () => statistics('spaces'),
  getHeapCodeStatistics: () => statistics('code'),
  setFlagsFromString: () => {},
  cachedDataVersionTag: () => 0,
  serialize: (value) => require('buffer').Buffer.from(JSON.stringify(value)),
  deserialize: (buffer) => JSON.parse(buffer.toString()),
};
