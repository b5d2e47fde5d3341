'use strict';

module.exports = { ...require('os').constants.errno, ...require('os').constants.signals, ...require('fs').constants };
