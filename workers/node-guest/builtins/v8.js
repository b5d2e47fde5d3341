// `v8`: the heap statistics of the guest's own isolate (a worker of its own), asked of the host, and V8's
// serialization format (internal/v8-serializer.js).
'use strict';

const {
  JSONParse,
  Error,
} = require('internal/primordials');

function statistics(kind) {
  const r = internal.host('heapStatistics', kind);
  if (typeof r !== 'string' || internal.isFailure(r)) throw new Error('heap statistics are not available');
  return JSONParse(r);
}
const { Serializer, Deserializer, DefaultSerializer, DefaultDeserializer, serialize, deserialize } =
  require('internal/v8-serializer');
module.exports = {
  getHeapStatistics: () => statistics('heap'),
  getHeapSpaceStatistics: () => statistics('spaces'),
  getHeapCodeStatistics: () => statistics('code'),
  setFlagsFromString: () => {},
  cachedDataVersionTag: () => 0,
  Serializer, Deserializer, DefaultSerializer, DefaultDeserializer, serialize, deserialize,
  // No snapshot is ever being built in the VM, and there is no inspector: coverage and heap limits are no-ops.
  startupSnapshot: {
    addDeserializeCallback() {},
    addSerializeCallback() {},
    setDeserializeMainFunction() {},
    isBuildingSnapshot: () => false,
  },
  setHeapSnapshotNearHeapLimit() {},
  takeCoverage() {},
  stopCoverage() {},
};
