'use strict';

module.exports = require('internal/modules').Module;
