// `os`: the VM as a machine: Linux, its user's home and /tmp, its environment's host name.
'use strict';

const {
  MathFloor,
  ObjectEntries,
  ObjectFromEntries,
  StringPrototypeEndsWith,
  SafeArrayIterator,
  ArrayPrototypeMap, ObjectKeys,
  StringPrototypeSlice,
} = require('internal/primordials');

const process = require('process');
const { SIGNALS } = require('internal/signals');
const { ERRNO } = require('internal/errors');

const errno = {};
const errnoNames = ObjectKeys(ERRNO);
for (let i = 0; i < errnoNames.length; i++) errno[errnoNames[i]] = ERRNO[errnoNames[i]][0];
const cpu = { model: 'agentos virtual CPU', speed: 0, times: { user: 0, nice: 0, sys: 0, idle: 0, irq: 0 } };

module.exports = {
  EOL: '\n',
  devNull: '/dev/null',
  arch: () => process.arch,
  platform: () => 'linux',
  type: () => 'Linux',
  release: () => '6.0.0-agentos',
  version: () => '#1 SMP agentos',
  machine: () => 'x86_64',
  hostname: () => process.env.HOSTNAME || 'agentos',
  homedir: () => process.env.HOME || '/root',
  tmpdir: () => {
    const t = process.env.TMPDIR || process.env.TMP || process.env.TEMP || '/tmp';
    return t.length > 1 && StringPrototypeEndsWith(t, '/') ? StringPrototypeSlice(t, 0, -1) : t;
  },
  endianness: () => 'LE',
  uptime: () => MathFloor(process.uptime()),
  loadavg: () => [0, 0, 0],
  totalmem: () => 2 * 1024 ** 3,
  freemem: () => 1024 ** 3,
  availableParallelism: () => 1,
  cpus: () => [{ ...cpu, times: { ...cpu.times } }],
  networkInterfaces: () => ({}),
  userInfo: (options) => {
    const info = { uid: 0, gid: 0, username: process.env.USER || 'user', homedir: process.env.HOME || '/root', shell: process.env.SHELL || '/bin/sh' };
    if (!options || options.encoding !== 'buffer') return info;
    const keys = ObjectKeys(info);
    for (let i = 0; i < keys.length; i++) if (typeof info[keys[i]] === 'string') info[keys[i]] = require('buffer').Buffer.from(info[keys[i]]);
    return info;
  },
  getPriority: () => 0,
  setPriority: () => {},
  constants: { signals: { ...SIGNALS }, errno, priority: { PRIORITY_LOW: 19, PRIORITY_BELOW_NORMAL: 10, PRIORITY_NORMAL: 0, PRIORITY_ABOVE_NORMAL: -7, PRIORITY_HIGH: -14, PRIORITY_HIGHEST: -20 }, dlopen: {}, UV_UDP_REUSEADDR: 4 },
};
