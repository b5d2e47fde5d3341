import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { inspect } from "node:util";
import { MessageChannel } from "node:worker_threads";
import { afterAll, describe, expect, it } from "vitest";
import type { AgentOsOptions, ExecResult } from "../../src/index.js";
import { createVm, result, writeTree } from "../helpers.js";
import { runHostNode } from "./host-node.js";
import { RUN_DEADLINE_MS } from "../deadlines.js";

/**
 * What this machine's Node says to a MessagePort posted without its transfer list (Node 20: TypeError
 * ERR_MISSING_TRANSFERABLE_IN_TRANSFER_LIST; Node 24: DataCloneError 25), which the guest says as its host does.
 */
function hostRefusal(): string {
  const a = new MessageChannel();
  const b = new MessageChannel();
  try {
    a.port1.postMessage({ port1: b.port1 });
    return "sent";
  } catch (e) {
    const err = e as Error & { code?: unknown };
    return `${err.name} ${String(err.code)} ${err.message}`;
  } finally {
    for (const p of [a.port1, a.port2, b.port1, b.port2]) p.close();
  }
}

// worker_threads.Worker in the guest (workers/node-guest/builtins/worker_threads.js): each case runs `node
// case.js` in the VM and with the host's `node` in a directory of the same files; both must print `expected`.
// The cases only the VM can show (its limits, what it does not carry) check the VM alone.

const T = { timeout: RUN_DEADLINE_MS };
const js = String.raw;

const hostRoot = realpathSync(mkdtempSync(join(tmpdir(), "agentos-workers-")));
afterAll(() => rmSync(hostRoot, { recursive: true, force: true }));

async function inVm(name: string, files: Record<string, string>, command = "node case.js", options?: AgentOsOptions): Promise<ExecResult> {
  const vm = await createVm(options);
  await vm.mkdir(`/w/${name}`, { recursive: true });
  await writeTree(vm, Object.fromEntries(Object.entries(files).map(([path, text]) => [`/w/${name}/${path}`, text])));
  return vm.exec(`cd /w/${name} && ${command}`, T);
}

function onHost(name: string, files: Record<string, string>): Promise<ExecResult> {
  const dir = join(hostRoot, name);
  mkdirSync(dir, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return runHostNode(["case.js"], dir);
}

/** piscina as published (a dependency of this project), as node_modules/piscina: its package.json and dist. */
function piscinaFiles(): Record<string, string> {
  const dir = realpathSync(fileURLToPath(new URL("../../node_modules/piscina", import.meta.url)));
  const files: Record<string, string> = { "node_modules/piscina/package.json": readFileSync(join(dir, "package.json"), "utf8") };
  for (const name of readdirSync(join(dir, "dist"), { recursive: true }) as string[]) {
    if (name.endsWith(".js") || name.endsWith(".mjs")) files[`node_modules/piscina/dist/${name}`] = readFileSync(join(dir, "dist", name), "utf8");
  }
  return files;
}

/**
 * `case.js` (with `files`) gives the same exit code, stdout and stderr in the VM as on the host, whose run
 * must show `expected` (each line of it, in order) so that the case did what it is about.
 */
async function both(name: string, code: string, expected: string, files: Record<string, string> = {}): Promise<void> {
  const all = { "case.js": code, ...files };
  const [vm, host] = await Promise.all([inVm(name, all), onHost(name, all)]);
  expect(host.stdout).toContain(expected);
  expect(vm).toEqual(host);
}

describe("worker_threads.Worker", () => {
  it("workerData and messages both ways carry structured data (Map, Set, Date, typed arrays, BigInt, nested, cycles)", T, async () => {
    await both(
      "structured",
      js`const { Worker, isMainThread, parentPort, workerData, threadId } = require('worker_threads');
const { inspect } = require('util');
if (isMainThread) {
  const data = { n: 1, s: 'é', big: 2n ** 70n, m: new Map([[1, { deep: [1, [2, [3]]] }]]), set: new Set(['a']), d: new Date(86400000),
    re: /x+/gi, u16: new Uint16Array([1, 65535]), f64: new Float64Array([0.5]), ab: new Uint8Array([7, 8]).buffer, nil: null, undef: undefined };
  data.self = data;
  console.log('main', isMainThread, threadId, parentPort);
  const w = new Worker(__filename, { workerData: data });
  console.log('thread', w.threadId);
  // Everything is printed here: a worker's own output reaches Node's stdout through its parent, in no set order with this.
  w.on('message', (m) => {
    console.log('parent got', inspect(m, { depth: 9 }));
    if (m.round) w.postMessage({ buf: Buffer.from('hey'), when: new Date(0), list: [new Map([['k', new Set([1n])]])] });
  });
  w.on('exit', (code) => console.log('exit', code, w.threadId));
} else {
  parentPort.postMessage({ isMainThread, threadId, workerData: inspect(workerData, { depth: 9 }), self: workerData.self === workerData });
  parentPort.postMessage({ round: workerData });
  parentPort.once('message', (m) => parentPort.postMessage('worker got ' + inspect(m, { depth: 9 })));
}
`,
      "exit 0 -1\n",
    );
  });

  it("eval: true code, argv, process.argv, execArgv, and the worker's pid is its process's", T, async () => {
    await both(
      "eval",
      js`const { Worker } = require('worker_threads');
const code = "const { parentPort, workerData, isMainThread } = require('worker_threads'); parentPort.postMessage([isMainThread, process.argv.slice(1), workerData.pid === process.pid, typeof require, __filename]);";
const w = new Worker(code, { eval: true, argv: ['a', 2], workerData: { pid: process.pid } });
w.on('message', (m) => console.log(JSON.stringify(m)));
w.on('exit', (c) => console.log('exit', c));
`,
      `[false,["[worker eval]","a","2"],true,"function","[worker eval]"]\nexit 0\n`,
    );
  });

  it("a relative ./ path, a file: URL, and the errors of a bad filename or options", T, async () => {
    await both(
      "paths",
      js`const { Worker } = require('worker_threads');
const { pathToFileURL } = require('url');
for (const args of [['w.js'], [5], [5, { eval: true }], ['1', { eval: true, workerData: () => 1 }], ['1', { eval: true, env: 5 }], ['./w.js', 5]]) {
  try { new Worker(...args); console.log('made'); } catch (e) { console.log(e.name, e.code, e.message); }
}
const got = [];
for (const [f, n] of [['./w.js', 1], [pathToFileURL(__dirname + '/w.js'), 2]]) {
  new Worker(f, { workerData: n }).on('message', (m) => {
    got.push(m);
    if (got.length === 2) console.log('from', got.sort());
  });
}
`,
      "from [ 1, 2 ]\n",
      { "w.js": js`require('worker_threads').parentPort.postMessage(require('worker_threads').workerData);` },
    );
  });

  it("exit codes: the end of the script, process.exitCode, process.exit in the worker (the parent lives on), 'exit' after every message", T, async () => {
    await both(
      "exit-codes",
      js`const { Worker } = require('worker_threads');
const codes = ['0', 'process.exitCode = 4', 'require("worker_threads").parentPort.postMessage("last"); process.exit(7)', 'process.on("exit", (c) => require("worker_threads").parentPort.postMessage("exiting " + c)); process.exit(9); console.log("not reached")'];
(async () => {
  for (const code of codes) {
    await new Promise((resolve) => {
      const w = new Worker(code, { eval: true });
      w.on('message', (m) => console.log('message', m));
      w.on('exit', (c) => { console.log('exit', c); resolve(); });
    });
  }
  console.log('parent still here');
})();
`,
      "exit 0\nexit 4\nmessage last\nexit 7\nmessage exiting 9\nexit 9\nparent still here\n",
    );
  });

  it("an uncaught error in the worker is the parent's 'error' event, rebuilt: class, name, message, own properties, cause; then exit 1", T, async () => {
    await both(
      "errors",
      js`const { Worker } = require('worker_threads');
const cases = [
  "throw Object.assign(new TypeError('bad'), { code: 'X', extra: { a: [1] } })",
  "class MyErr extends Error { constructor(m) { super(m); this.name = 'MyErr'; } }; throw new MyErr('mine')",
  "class E2 extends RangeError {}; throw new E2('e2')",
  "throw 42",
  "throw { a: 1 }",
  "Promise.reject(new SyntaxError('rejected'))",
  "throw new Error('outer', { cause: new Error('inner') })",
  "setTimeout(() => { null.x; }, 1)",
];
(async () => {
  for (const c of cases) {
    await new Promise((resolve) => {
      const w = new Worker(c, { eval: true });
      w.on('error', (e) => console.log(typeof e, e instanceof Error, e?.constructor?.name, e?.name, e?.message, e && Object.keys(e), e?.code, JSON.stringify(e?.extra), e?.cause?.message));
      w.on('exit', (code) => { console.log('exit', code); resolve(); });
    });
  }
})();
`,
      "object true TypeError TypeError Cannot read properties of null (reading 'x') [] undefined undefined undefined\nexit 1\n",
    );
  });

  it("terminate(): the worker stops at once (even computing), 'exit' and the promise give 1, no message after; terminate again gives undefined", T, async () => {
    await both(
      "terminate",
      js`const { Worker } = require('worker_threads');
const w = new Worker("const { parentPort } = require('worker_threads'); parentPort.postMessage('up'); parentPort.on('message', () => { for (;;); });", { eval: true });
w.on('message', async (m) => {
  console.log('message', m);
  w.postMessage('spin');
  const code = await w.terminate();
  console.log('terminated', code, w.threadId);
  console.log('again', await w.terminate());
});
w.on('exit', (c) => console.log('exit', c));
`,
      "message up\nexit 1\nterminated 1 -1\nagain undefined\n",
    );
  });

  it("many workers at once, each with its own data; an unref'd worker does not keep the parent alive, ref() does again", T, async () => {
    await both(
      "many",
      js`const { Worker } = require('worker_threads');
const N = 12;
const sums = [];
let exited = 0;
for (let i = 0; i < N; i++) {
  const w = new Worker("const { parentPort, workerData } = require('worker_threads'); let s = 0; for (let k = 0; k <= workerData; k++) s += k; parentPort.postMessage(s);", { eval: true, workerData: i * 1000 });
  w.on('message', (m) => (sums[i] = m));
  w.on('exit', (c) => {
    if (++exited < N) return;
    console.log(sums.join(','), c);
    later.postMessage('go');
  });
}
const idle = new Worker('setInterval(() => {}, 1000)', { eval: true });
idle.unref();
// Unref'd then ref'd: it holds the parent until it has answered, 50 ms after it was asked.
const later = new Worker("const { parentPort } = require('worker_threads'); parentPort.once('message', () => setTimeout(() => parentPort.postMessage('late'), 50))", { eval: true });
later.unref();
later.ref();
later.on('message', (m) => {
  console.log(m);
  later.unref();
});
process.on('exit', () => console.log('parent exits'));
`,
      "0,500500,2001000,4501500,8002000,12502500,18003000,24503500,32004000,40504500,50005000,60505500 0\nlate\nparent exits\n",
    );
  });

  it("a worker allocating past its resourceLimits dies with ERR_WORKER_OUT_OF_MEMORY, exit 1; the parent goes on", T, async () => {
    await both(
      "oom",
      js`const { Worker } = require('worker_threads');
const w = new Worker('const a = []; for (;;) a.push(new Array(1e5).fill(1));', { eval: true, resourceLimits: { maxOldGenerationSizeMb: 24 } });
console.log(w.resourceLimits.maxOldGenerationSizeMb);
w.on('error', (e) => console.log('error', e.name, e.code, e.message));
w.on('exit', (c) => console.log('exit', c, JSON.stringify(w.resourceLimits)));
`,
      "24\nerror Error ERR_WORKER_OUT_OF_MEMORY Worker terminated due to reaching memory limit: JS heap out of memory\nexit 1 {}\n",
    );
  });

  it("a worker within a worker", T, async () => {
    await both(
      "nested",
      js`const { Worker, isMainThread, parentPort, workerData } = require('worker_threads');
if (isMainThread) {
  new Worker(__filename, { workerData: 1 }).on('message', (m) => console.log('top got', m));
} else if (workerData === 1) {
  new Worker(__filename, { workerData: 2 }).on('message', (m) => parentPort.postMessage('via middle: ' + m));
} else {
  parentPort.postMessage('from the inner one');
}
`,
      "top got via middle: from the inner one\n",
    );
  });

  it("MessagePorts in a transfer list: messages both ways, a port sent over a port, workerData's transferList, close seen on the other side", T, async () => {
    await both(
      "ports",
      js`const { Worker, MessageChannel, isMainThread, parentPort, workerData } = require('worker_threads');
if (isMainThread) {
  const init = new MessageChannel();
  const w = new Worker(__filename, { workerData: { port: init.port2 }, transferList: [init.port2] });
  // The exchange on port1 begins once the init port has spoken: one order on the host too.
  init.port1.once('message', (m) => {
    console.log('init port:', m);
    port1.postMessage({ n: 0 });
  });
  const { port1, port2 } = new MessageChannel();
  port1.on('message', (m) => {
    console.log('main got', m);
    if (m.n < 3) port1.postMessage({ n: m.n + 1 });
    else {
      const inner = new MessageChannel();
      inner.port1.on('message', (x) => {
        console.log('inner got', x);
        inner.port1.close();
      });
      port1.postMessage({ inner: inner.port2 }, [inner.port2]);
    }
  });
  port1.on('close', () => {
    console.log('port1 closed');
    init.port1.close();
    w.terminate();
  });
  w.postMessage({ port: port2 }, [port2]);
  w.on('exit', (c) => console.log('exit', c));
} else {
  workerData.port.postMessage('hello over the init port');
  workerData.port.close();
  // Held by its parentPort listener until the parent terminates it.
  parentPort.on('message', ({ port }) => {
    port.on('message', (m) => {
      if (m.inner) {
        m.inner.postMessage('through the inner port');
        m.inner.on('close', () => port.close());
        return;
      }
      port.postMessage({ n: m.n + 1, from: 'worker' });
    });
  });
}
`,
      "init port: hello over the init port\nmain got { n: 1, from: 'worker' }\nmain got { n: 3, from: 'worker' }\ninner got through the inner port\nport1 closed\nexit 1\n",
    );
  });

  it("a SharedArrayBuffer is shared both ways: writes seen at once, Atomics.wait in the worker woken by the parent's notify", T, async () => {
    await both(
      "shared-memory",
      js`const { Worker, isMainThread, parentPort, workerData } = require('worker_threads');
if (isMainThread) {
  const sab = new SharedArrayBuffer(16);
  const i32 = new Int32Array(sab);
  const w = new Worker(__filename, { workerData: { i32 } });
  w.on('message', (m) => {
    if (m.woke) return console.log('worker woke', m.woke);
    console.log('main sees', Atomics.load(i32, 0), m.back instanceof SharedArrayBuffer, m.back.byteLength);
    new Int32Array(m.back)[0] = 99;
    Atomics.store(i32, 1, 1);
    Atomics.notify(i32, 1);
  });
  w.on('exit', (c) => console.log('exit', c, Atomics.load(i32, 2)));
} else {
  const { i32 } = workerData;
  Atomics.store(i32, 0, 42);
  const back = new SharedArrayBuffer(4);
  parentPort.postMessage({ back });
  Atomics.wait(i32, 1, 0);
  Atomics.add(i32, 2, 7);
  parentPort.postMessage({ woke: [Atomics.load(i32, 1), new Int32Array(back)[0]] });
}
`,
      "main sees 42 true 4\nworker woke [ 1, 99 ]\nexit 0 7\n",
    );
  });

  it("piscina runs tasks in guest workers (its Atomics.wait loop, and with atomics disabled)", T, async () => {
    const files = { ...piscinaFiles(), "task.js": "module.exports = ({ a, b }) => a + b;\n" };
    for (const atomics of ["sync", "disabled"]) {
      await both(
        `piscina-${atomics}`,
        js`const Piscina = require('piscina');
const pool = new Piscina({ filename: __dirname + '/task.js', atomics: '${atomics}' });
(async () => {
  console.log(await Promise.all([pool.run({ a: 1, b: 2 }), pool.run({ a: 3, b: 4 })]));
  // Idle workers wait in Atomics.wait (atomics 'sync') until the parent's notify.
  await new Promise((r) => setTimeout(r, 100));
  console.log(await pool.run({ a: 10, b: 20 }));
  const many = await Promise.all(Array.from({ length: 50 }, (_, i) => pool.run({ a: i, b: 1 })));
  console.log(many.reduce((x, y) => x + y, 0));
  await pool.destroy();
  console.log('destroyed');
})();
`,
        "[ 3, 7 ]\n30\n1275\ndestroyed\n",
        files,
      );
    }
  });
});

describe("worker_threads.Worker within the VM's limits", () => {
  it("a worker past the VM's process limit fails with ERR_WORKER_INIT_FAILED (EAGAIN); those within run; none outlives the parent", T, async () => {
    const code = js`const { Worker } = require('worker_threads');
// Worker 0 never ends and does not hold the parent; 1-3 run; 4 and 5 find no room.
for (let i = 0; i < 6; i++) {
  const w = new Worker(i === 0 ? 'setInterval(() => {}, 1000)' : "setTimeout(() => require('worker_threads').parentPort.postMessage('ran'), 100)", { eval: true });
  if (i === 0) w.unref();
  w.on('message', (m) => console.log(i, m));
  w.on('error', (e) => console.log(i, e.name, e.code, e.errno, e.message));
  w.on('exit', (c) => console.log(i, 'exit', c));
}
`;
    // The shell, the parent and four workers: the limit of six processes.
    // Then five at once: the shell waits for room (it retries a spawn that found none) until worker 0 has ended.
    const r = await inVm("process-limit", { "case.js": code }, "node case.js; for i in 1 2 3 4 5; do node -e 0 & done; wait; echo room", { limits: { maxProcesses: 6 } });
    const lines = r.stdout.split("\n");
    const failed = "Error ERR_WORKER_INIT_FAILED -11 Worker initialization failure: EAGAIN: the VM runs as many processes as it may";
    expect(lines.filter((l) => l.endsWith(failed)).map((l) => l.split(" ")[0]).sort()).toEqual(["4", "5"]);
    expect(lines.filter((l) => l.endsWith(" ran")).sort()).toEqual(["1 ran", "2 ran", "3 ran"]);
    expect(lines.filter((l) => / exit /.test(l)).sort()).toEqual(["1 exit 0", "2 exit 0", "3 exit 0", "4 exit 1", "5 exit 1"]);
    // Worker 0 ended with its parent (else the five would wait for room for ever).
    expect(lines.at(-2)).toBe("room");
    expect(r.stderr).toMatch(/^(sh: fork: retry: Resource temporarily unavailable\n)*$/);
  });

  it("a worker bomb (each worker starts two more) stops at the process limit, ends with its parent, and leaves nothing", T, async () => {
    const code = js`const { Worker, isMainThread } = require('worker_threads');
let failed = 0;
const spawnTwo = () => {
  for (let i = 0; i < 2; i++) {
    const w = new Worker(__filename);
    w.on('error', (e) => { if (e.code === 'ERR_WORKER_INIT_FAILED') failed++; });
  }
};
spawnTwo();
if (isMainThread) setTimeout(() => { console.log('main done'); process.exit(0); }, 500);
else setInterval(() => {}, 1000);
`;
    // Then seven at once: there is room for them only once every worker has ended with its parent.
    const r = await inVm("bomb", { "case.js": code }, "node case.js; for i in 1 2 3 4 5 6 7; do node -e 0 & done; wait; echo room", { limits: { maxProcesses: 8 } });
    expect(r.stdout).toBe("main done\nroom\n");
    // bash's words when a spawn finds no room and it waits for some.
    expect(r.stderr).toMatch(/^(sh: fork: retry: Resource temporarily unavailable\n)*$/);
  });

  it("a worker's heap is capped by the VM's process memory limit whatever resourceLimits asks", T, async () => {
    const code = js`const { Worker } = require('worker_threads');
const w = new Worker('const a = []; for (;;) a.push(new Array(1e5).fill(1));', { eval: true, resourceLimits: { maxOldGenerationSizeMb: 4096 } });
w.on('error', (e) => console.log('error', e.code));
w.on('exit', (c) => console.log('exit', c));
`;
    const r = await inVm("memory-limit", { "case.js": code }, "node case.js", { limits: { maxProcessMemoryBytes: 64 * 1024 * 1024 } });
    expect(r).toEqual(result("error ERR_WORKER_OUT_OF_MEMORY\nexit 1\n"));
  });

  it("what the VM does not do fails loudly: SHARE_ENV, stdout: true; what Node refuses is refused as Node does", T, async () => {
    const code = js`const { Worker, MessageChannel, SHARE_ENV } = require('worker_threads');
const w = new Worker('const { parentPort } = require("worker_threads"); parentPort.on("message", (m) => parentPort.postMessage(m))', { eval: true });
w.on('message', (m) => {
  console.log('got', m);
  w.terminate();
});
const tries = [
  () => new Worker('0', { eval: true, env: SHARE_ENV }),
  () => new Worker('0', { eval: true, stdout: true }),
  () => { const { port1 } = new MessageChannel(); w.postMessage({ port1 }); },
  () => w.postMessage(() => 1),
];
for (const t of tries) {
  try { t(); console.log('sent'); } catch (e) { console.log(e.name, e.code, e.message); }
}
const ab = new ArrayBuffer(4);
w.postMessage(ab, [ab]);
console.log('transferred', ab.byteLength);
`;
    const r = await inVm("not-done", { "case.js": code });
    expect(r).toEqual(
      result(`Error ERR_ACCESS_DENIED worker_threads.SHARE_ENV is not available in this VM: a Worker gets a copy of the environment
Error ERR_ACCESS_DENIED Worker option stdout: true is not available in this VM: a Worker writes to its parent's stdout and stderr
${hostRefusal()}
DataCloneError 25 () => 1 could not be cloned.
transferred 0
got ${inspect(new ArrayBuffer(4))}
`),
    );
  });
});
