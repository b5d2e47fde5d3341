// `node:sea`: a guest `node` is never a single executable application; the asset calls fail as Node's do
// outside one.
'use strict';

const {
  Error,
  NumberParseInt,
} = require('internal/primordials');

const process = require('process');
const { codeError } = require('internal/errors');

const notInSea = () => {
  throw codeError(Error, 'ERR_NOT_IN_SINGLE_EXECUTABLE_APPLICATION', 'Operation cannot be invoked when not in a single-executable application');
};

module.exports = {
  isSea: () => false,
  getAsset: notInSea,
  getRawAsset: notInSea,
  getAssetAsBlob: notInSea,
};
if (NumberParseInt(process.versions.node, 10) >= 24) module.exports.getAssetKeys = notInSea;
