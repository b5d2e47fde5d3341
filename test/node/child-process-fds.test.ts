import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ExecResult } from "../../src/index.js";
import { createVm, result, writeTree } from "../helpers.js";
import { runHostNode } from "./host-node.js";
import { RUN_DEADLINE_MS } from "../deadlines.js";

// child_process's `stdio` past the third entry (workers/node-guest/builtins/child_process.js): the child gets
// each at the same fd number, a new pipe (duplex, as Node's socket pairs), a parent's fd, or nothing. Each case
// runs in the VM and with the host's `node` in a directory of the same files; both must print `expected`.

const T = { timeout: RUN_DEADLINE_MS };
const js = String.raw;

const hostRoot = realpathSync(mkdtempSync(join(tmpdir(), "agentos-cp-fds-")));
afterAll(() => rmSync(hostRoot, { recursive: true, force: true }));

async function inVm(name: string, files: Record<string, string>): Promise<ExecResult> {
  const vm = await createVm();
  await vm.mkdir(`/w/${name}`, { recursive: true });
  await writeTree(vm, Object.fromEntries(Object.entries(files).map(([path, text]) => [`/w/${name}/${path}`, text])));
  return vm.exec(`cd /w/${name} && node case.js`, T);
}

function onHost(name: string, files: Record<string, string>): Promise<ExecResult> {
  const dir = join(hostRoot, name);
  mkdirSync(dir, { recursive: true });
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
  return runHostNode(["case.js"], dir);
}

/** `case.js` (with `files`) prints `expected` in the VM and on the host. */
async function both(name: string, code: string, expected: string, files: Record<string, string> = {}): Promise<void> {
  const all = { "case.js": code, ...files };
  const [vm, host] = await Promise.all([inVm(name, all), onHost(name, all)]);
  expect(vm).toEqual(result(expected));
  expect(host).toEqual(result(expected));
}

describe("child_process stdio past fd 2", () => {
  it("'pipe' at 3 and 4: a shell child writes `>&3`, `>&4`; child.stdio has every entry", T, async () => {
    await both(
      "shell-pipes",
      js`const { spawn } = require('child_process');
const c = spawn('sh', ['-c', 'echo three >&3; echo four >&4'], { stdio: ['ignore', 'inherit', 'inherit', 'pipe', 'pipe'] });
console.log(c.stdio.length, c.stdio.map((s) => s && [s.readable, s.writable]), c.stdin, c.stdout, c.stderr);
const got = { 3: '', 4: '' };
c.stdio[3].on('data', (d) => (got[3] += d));
c.stdio[4].on('data', (d) => (got[4] += d));
c.on('close', (code) => console.log('close', code, JSON.stringify(got)));`,
      `5 [ null, null, null, [ true, true ], [ true, true ] ] null null null\nclose 0 {"3":"three\\n","4":"four\\n"}\n`,
    );
  });

  it("a node child writes fd 3 and reads fd 4 to its end (the parent ends child.stdio[4])", T, async () => {
    await both(
      "node-child",
      js`const { spawn } = require('child_process');
const c = spawn(process.execPath, ['child.js'], { stdio: ['ignore', 'pipe', 'inherit', 'pipe', 'pipe'] });
let out = '';
let three = '';
c.stdout.on('data', (d) => (out += d));
c.stdio[3].on('data', (d) => (three += d));
c.stdio[4].end('to child\n');
c.on('close', (code) => console.log(code, JSON.stringify(out), JSON.stringify(three)));`,
      `0 "child read \\"to child\\\\n\\"\\n" "x from node\\n"\n`,
      {
        "child.js": js`const fs = require('fs');
fs.writeSync(3, 'x from node\n');
const buf = Buffer.alloc(100);
let s = '';
for (let n; (n = fs.readSync(4, buf, 0, buf.length, null)) > 0; ) s += buf.toString('utf8', 0, n);
console.log('child read', JSON.stringify(s));`,
      },
    );
  });

  it("a shell child reads fd 3 from the parent's child.stdio[3]", T, async () => {
    await both(
      "shell-reads",
      js`const { spawn } = require('child_process');
const c = spawn('sh', ['-c', 'read line <&3; echo "got $line"'], { stdio: ['ignore', 'pipe', 'inherit', 'pipe'] });
c.stdout.on('data', (d) => process.stdout.write(d));
c.stdio[3].end('hello\n');
c.on('close', (code) => console.log('close', code));`,
      "got hello\nclose 0\n",
    );
  });

  it("the parent's fds: an opened file at 3 (a number), its stdout at 4 (a stream with an fd), 'inherit'", T, async () => {
    await both(
      "parent-fds",
      js`const { spawn, spawnSync } = require('child_process');
const fs = require('fs');
const fd = fs.openSync('out.txt', 'w');
const r = spawnSync('sh', ['-c', 'echo to-file >&3; echo via-stdout >&4; echo inherited >&1'], { stdio: ['ignore', 'inherit', 'inherit', fd, process.stdout] });
console.log('sync', r.status, r.output);
const c = spawn(process.execPath, ['-e', 'require("fs").writeSync(3, "from node\\n")'], { stdio: ['ignore', 'inherit', 'inherit', fd] });
c.on('close', (code) => {
  fs.closeSync(fd);
  console.log('async', code, JSON.stringify(fs.readFileSync('out.txt', 'utf8')));
});`,
      `via-stdout\ninherited\nsync 0 [ null, null, null, null, null ]\nasync 0 "to-file\\nfrom node\\n"\n`,
    );
  });

  it("spawnSync: output has every entry, null but for the pipes the child writes; unset entries past 2 are 'ignore'", T, async () => {
    await both(
      "sync-output",
      js`const { spawnSync } = require('child_process');
const script = 'echo a >&3; echo b; echo c >&2; { echo x >&5; } 2>/dev/null || echo five-closed';
const r = spawnSync('sh', ['-c', script], { stdio: ['pipe', 'pipe', 'pipe', 'pipe', 'ignore', null], encoding: 'utf8' });
console.log(r.status, r.output, r.stdout === r.output[1], r.stderr === r.output[2]);
const b = spawnSync(process.execPath, ['-e', 'require("fs").writeSync(3, "bytes")'], { stdio: ['ignore', 'ignore', 'inherit', 'pipe'] });
console.log(b.status, b.output, b.stdout);`,
      `0 [ null, 'b\\nfive-closed\\n', 'c\\n', 'a\\n', null, null ] true true\n0 [ null, null, null, <Buffer 62 79 74 65 73> ] null\n`,
    );
  });

  it("execFile takes no stdio option (pipes, as Node's); execFileSync does", T, async () => {
    await both(
      "exec-file",
      js`const { execFile, execFileSync } = require('child_process');
const fs = require('fs');
const fd = fs.openSync('out.txt', 'w');
const out = execFileSync('sh', ['-c', 'echo out; echo three >&3'], { stdio: ['pipe', 'pipe', 'inherit', fd], encoding: 'utf8' });
console.log(JSON.stringify(out), JSON.stringify(fs.readFileSync('out.txt', 'utf8')));
const c = execFile('sh', ['-c', 'echo out; { echo three >&3; } 2>/dev/null || echo no-fd-3'], { stdio: ['pipe', 'pipe', 'pipe', fd] }, (err, stdout, stderr) => {
  console.log(err, JSON.stringify(stdout), JSON.stringify(stderr));
});
console.log(c.stdio.length);`,
      `"out\\n" "three\\n"\n3\nnull "out\\nno-fd-3\\n" ""\n`,
    );
  });

  it("invalid entries throw as Node's: an object without an fd, an unknown string, 'ipc' in the Sync forms", T, async () => {
    await both(
      "invalid",
      js`const { spawn, spawnSync } = require('child_process');
for (const f of [() => spawn('sh', [], { stdio: ['pipe', 'pipe', 'pipe', {}] }), () => spawn('sh', [], { stdio: 'bogus' }), () => spawnSync('sh', [], { stdio: ['pipe', 'pipe', 'pipe', 'ipc'] })]) {
  try {
    f();
  } catch (e) {
    console.log(e.name, e.code, e.message);
  }
}`,
      "TypeError ERR_INVALID_ARG_VALUE The argument 'stdio' is invalid. Received {}\n" +
        "TypeError ERR_INVALID_ARG_VALUE The argument 'stdio' is invalid. Received 'bogus'\n" +
        "Error ERR_IPC_SYNC_FORK IPC cannot be used with synchronous forks\n",
    );
  });

  it("'ipc' to a child that is not node: it finds the channel in NODE_CHANNEL_FD and speaks its JSON lines", T, async () => {
    await both(
      "ipc-shell",
      js`const { spawn } = require('child_process');
const c = spawn('sh', ['-c', 'read -r line <&3; echo "fd=$NODE_CHANNEL_FD mode=$NODE_CHANNEL_SERIALIZATION_MODE got $line"; printf "%s\\n" "{\\"from\\":\\"sh\\"}" 1 >&3'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
console.log(c.stdio.length, c.stdio[3], c.connected);
c.send({ to: 'sh' });
c.on('message', (m) => console.log('message', m));
c.on('close', (code) => console.log('close', code, c.connected));`,
      `4 null true\nfd=3 mode=json got {"to":"sh"}\nmessage { from: 'sh' }\nmessage 1\nclose 0 false\n`,
    );
  });
});
