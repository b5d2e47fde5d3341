// Cases of test/node/node.differential.test.ts: module's internals that tools call (_findPath,
// _resolveLookupPaths, _preloadModules, wrap), vm.createScript and v8's snapshot and coverage functions.
import type { Case } from "./case.js";

const js = String.raw;
export const CASES: Case[] = [
  { name: "module-internals", files: { "case.js": js`const Module = require('module'); const path = require('path');
console.log(Object.keys(Module).includes('wrap'), typeof Module.wrap, Module.wrap('x'), Module.wrapper.length);
console.log(path.relative(__dirname, Module._findPath('./lib', [__dirname])), path.relative(__dirname, Module._findPath('pkg', [__dirname + '/node_modules'])), Module._findPath('./nope', [__dirname]), path.relative(__dirname, Module._findPath(__dirname + '/lib.js', [])));
console.log(Module._resolveLookupPaths('fs', module), Module._resolveLookupPaths('./a', module).map((p) => path.relative(__dirname, p)), Module._resolveLookupPaths('./a', null), Module._resolveLookupPaths('x', module)[0] === module.paths[0]);
console.log(Module.findSourceMap(__filename), typeof Module.runMain, typeof Module._preloadModules, typeof Module._initPaths);
Module._preloadModules(['./lib']); console.log(require('./lib').loaded);`, "lib.js": js`console.log('lib loaded'); exports.loaded = true;`, "node_modules/pkg/package.json": `{"main":"main.js"}`, "node_modules/pkg/main.js": "" } },
  { name: "vm-v8-extras", files: { "case.js": js`const vm = require('vm'); const v8 = require('v8'); console.log(vm.createScript('6 * 7').runInThisContext(), vm.createScript('1', 'f.js') instanceof vm.Script); console.log(Object.keys(v8.startupSnapshot), !v8.startupSnapshot.isBuildingSnapshot(), v8.setHeapSnapshotNearHeapLimit(1), v8.takeCoverage(), v8.stopCoverage());` } },
];
