'use strict';

module.exports = {
  performance: globalThis.performance,
  PerformanceObserver: class PerformanceObserver {
    observe() {}
    disconnect() {}
  },
  monitorEventLoopDelay: () => ({ enable() {}, disable() {}, percentile: () => 0, min: 0, max: 0, mean: 0, stddev: 0 }),
  constants: {},
};
