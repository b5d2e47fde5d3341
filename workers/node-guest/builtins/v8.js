// `v8`: heap statistics are not the guest's to see; the shapes exist for tools that print them.
'use strict';

const stats = () => ({ total_heap_size: 0, total_heap_size_executable: 0, total_physical_size: 0, total_available_size: 0, used_heap_size: 0, heap_size_limit: 0, malloced_memory: 0, peak_malloced_memory: 0, does_zap_garbage: 0, number_of_native_contexts: 1, number_of_detached_contexts: 0, total_global_handles_size: 0, used_global_handles_size: 0, external_memory: 0 });
module.exports = {
  getHeapStatistics: stats,
  getHeapSpaceStatistics: () => [],
  getHeapCodeStatistics: () => ({ code_and_metadata_size: 0, bytecode_and_metadata_size: 0, external_script_source_size: 0, cpu_profiler_metadata_size: 0 }),
  setFlagsFromString: () => {},
  cachedDataVersionTag: () => 0,
  serialize: (value) => require('buffer').Buffer.from(JSON.stringify(value)),
  deserialize: (buffer) => JSON.parse(buffer.toString()),
};
