import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentOs } from "../../src/index.js";
import { CASE_DEADLINE_MS, RUN_DEADLINE_MS, runHostNode, SETUP_DEADLINE_MS } from "./host-node.js";

// Every builtin module loads in the guest as on the host: for each name of the host's
// `require('module').builtinModules`, the sorted names of its exports and the typeof of each, compared with
// the host's `node` (process.execPath). A module whose capability the VM does not give (tls, http2,
// inspector, cluster, …) loads with Node's shape; only a call that needs the capability fails, with
// ERR_ACCESS_DENIED (checked below).


/** Modules whose exports differ from the host's, each with what differs (a real difference, to fix). */
const KNOWN: Record<string, string> = {
  assert: "no assert.CallTracker",
  "assert/strict": "no assert.CallTracker",
  async_hooks: "no asyncWrapProviders",
  constants: "os.constants.errno is the guest's own table (EAI_* and others where Node has EBADMSG, EDEADLK, …), no crypto or priority constants",
  crypto: "no Certificate, Cipher, Decipher; pseudoRandomBytes is enumerable",
  dgram: "no _createSocketHandle",
  fs: "no _toUnixTimestamp",
  "fs/promises": "FileHandle is exported",
  http: "no _connectionListener",
  module: "no SourceMap",
  net: "no BlockList, SocketAddress, _createServerHandle, _normalizeArgs, _setSimultaneousAccepts",
  process: "no process.binding (the guest reaches no native binding)",
  "readline/promises": "no Readline",
  v8: "no GCProfiler, getHeapSnapshot, promiseHooks, queryObjects, writeHeapSnapshot",
  worker_threads: "no moveMessagePortToContext, postMessageToThread",
  _http_common: "no freeParser, parsers, prepareError (Node's parser internals)",
  _http_outgoing: "no parseUniqueHeadersOption",
  _http_server: "no _connectionListener, httpServerPreClose, setupConnectionsTracking, storeHTTPOptions",
  _stream_readable: "the guest's Readable (readable-stream's) carries the stream module's exports",
  _stream_wrap: "not available (ERR_UNKNOWN_BUILTIN_MODULE)",
  _tls_common: "no translatePeerCertificate",
};
/** Known differences by the host's version: the guest follows Node 20 in places. */
if (Number(process.versions.node.split(".")[0]) < 24) KNOWN["util/types"] = "isFloat16Array is exported (Node 24's)";
if (Number(process.versions.node.split(".")[0]) >= 24) {
  KNOWN["node:sqlite"] = "not available (ERR_ACCESS_DENIED)";
  KNOWN["node:test/reporters"] = "not available (ERR_UNKNOWN_BUILTIN_MODULE)";
  KNOWN["node:test"] = "no assert (register), snapshot, getTestContext, expectFailure";
  KNOWN["stream/web"] = "no ReadableStreamTee";
  KNOWN.sys = KNOWN.util = "Node 20's util: Node 24's removed isBoolean and the other type checks, and added convertProcessSignalToExitCode, diff, getCallSites, getSystemErrorMessage, setTraceSigInt";
  KNOWN.url = "no URLPattern, fileURLToPathBuffer";
  KNOWN.zlib = "no Zstd streams";
  KNOWN._http_incoming = "no kDetachAbortSignal";
}

// The public modules first: on Node 20, requiring _tls_common before tls leaves tls.createSecureContext undefined.
const SHAPE = String.raw`
const names = require('module').builtinModules.slice().sort((a, b) => (a[0] === '_') - (b[0] === '_') || (a < b ? -1 : 1));
const out = {};
for (const m of names) {
  try {
    const x = require(m);
    out[m] = Object.keys(x).sort().map((k) => { let t; try { t = typeof x[k]; } catch { t = 'throws'; } return k + ':' + t; }).join(' ');
  } catch (e) {
    out[m] = 'ERR ' + e.code + ' ' + e.message;
  }
}
console.log(JSON.stringify(out));
`;

let vm: AgentOs | undefined;
let hostDir = "";

beforeAll(async () => {
  vm = await AgentOs.create();
  await vm.mkdir("/w", { recursive: true });
  hostDir = realpathSync(mkdtempSync(join(tmpdir(), "agentos-builtins-")));
}, SETUP_DEADLINE_MS);

afterAll(async () => {
  await vm?.dispose();
  if (hostDir) rmSync(hostDir, { recursive: true, force: true });
});

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

async function both(code: string): Promise<[{ stdout: string; stderr: string; exitCode: number }, { stdout: string; stderr: string; exitCode: number }]> {
  return Promise.all([vm!.exec(`node -e ${quote(code)}`, { timeout: RUN_DEADLINE_MS, cwd: "/w" }), runHostNode(["-e", code], hostDir)]);
}

describe("builtin modules", { timeout: CASE_DEADLINE_MS }, () => {
  it("the same builtinModules, each loading with the host's exports (names and types)", async () => {
    const [inVm, onHost] = await both(SHAPE);
    expect(inVm.exitCode, inVm.stderr).toBe(0);
    expect(onHost.exitCode, onHost.stderr).toBe(0);
    const vmShapes = JSON.parse(inVm.stdout) as Record<string, string>;
    const hostShapes = JSON.parse(onHost.stdout) as Record<string, string>;
    expect(Object.keys(vmShapes)).toEqual(Object.keys(hostShapes));
    const differing = Object.keys(hostShapes).filter((name) => vmShapes[name] !== hostShapes[name]);
    const unexpected = differing.filter((name) => !KNOWN[name]).map((name) => `${name}:\n  vm:   ${vmShapes[name]}\n  host: ${hostShapes[name]}`);
    expect(unexpected).toEqual([]);
    expect(Object.keys(KNOWN).filter((name) => !differing.includes(name)), "listed in KNOWN but now match the host: remove them").toEqual([]);
    for (const name of Object.keys(KNOWN)) expect(Object.keys(hostShapes)).toContain(name);
    // Requiring sys and wasi warns, as on the host (_stream_wrap's DEP0125 is part of its known difference).
    // Node ≥ 21 also warns for punycode (DEP0040), which the guest does not (a known difference of
    // node.differential.test.ts); without it, the first warning gets Node's hint line.
    let hostStderr = onHost.stderr.replace(/\(node:\d+\)/g, "(node:2)").replace(/\(node:2\) \[DEP0125\][^\n]*\n/, "");
    hostStderr = hostStderr.replace(/\(node:2\) \[DEP0040\][^\n]*\n(\(Use [^\n]*\n)((?:\(node:2\) [^\n]*\n)?)/, "$2$1");
    expect(inVm.stderr).toBe(hostStderr);
  });

  it("isBuiltin and the scheme-only builtins as the host's", async () => {
    const code = String.raw`const m = require('module'); console.log(['fs', 'node:fs', 'test', 'node:test', 'node:test/reporters', 'sea', 'node:sea', 'node:sqlite', 'tls', 'node:tls', 'http2', '_http_agent', 'node:nope', 'internal/errors', 'npm-stream', 1].map((n) => String(n) + '=' + m.isBuiltin(n)).join(' ')); try { require('node:nope'); } catch (e) { console.log(e.code, e.message); }`;
    const [inVm, onHost] = await both(code);
    expect(inVm).toEqual(onHost);
  });

  it("the constants and tables of modules without their capability are the host's", async () => {
    const code = String.raw`const h2 = require('http2'); const tls = require('tls'); console.log(JSON.stringify(h2.constants).length, h2.constants.HTTP2_HEADER_PATH, h2.constants.NGHTTP2_CANCEL, JSON.stringify(h2.getDefaultSettings()), typeof h2.sensitiveHeaders, String(h2.sensitiveHeaders)); console.log(h2.getPackedSettings({ enablePush: false, maxFrameSize: 16384 }).length, JSON.stringify(h2.getUnpackedSettings(h2.getPackedSettings({ enablePush: true, initialWindowSize: 100 })))); console.log(tls.DEFAULT_MIN_VERSION, tls.DEFAULT_MAX_VERSION, tls.DEFAULT_ECDH_CURVE, tls.DEFAULT_CIPHERS, tls.getCiphers().length, tls.rootCertificates.length, Object.isFrozen(tls.rootCertificates)); const o = {}; tls.convertALPNProtocols(['h2', 'http/1.1'], o); console.log(o.ALPNProtocols); console.log(Object.getPrototypeOf(tls.TLSSocket) === require('net').Socket, Object.getPrototypeOf(tls.Server) === require('net').Server); const c = require('cluster'); console.log(c.isPrimary, c.isWorker, c.schedulingPolicy, c instanceof require('events')); const i = require('inspector'); console.log(i.url(), typeof new i.Session().on); try { i.waitForDebugger(); } catch (e) { console.log(e.code, e.message); } const d = require('domain').create(); d.on('error', (e) => console.log('domain caught', e.message)); d.run(() => console.log(require('domain').active === d, process.domain === d)); console.log(require('domain').active, process.domain); d.intercept(() => {})(new Error('via intercept')); d.bind(() => { throw new Error('via bind'); })(); console.log(require('trace_events').getEnabledCategories()); const r = require('repl'); console.log(r.isValidSyntax('1 +'), r.isValidSyntax('let a = 1'), r.writer({ a: [1] }), new r.Recoverable(new Error('x')) instanceof SyntaxError);`;
    const [inVm, onHost] = await both(code);
    expect(inVm).toEqual(onHost);
  });

  it("a call that needs a capability the VM does not give fails with ERR_ACCESS_DENIED", async () => {
    const r = await vm!.exec(
      `node -e ${quote(String.raw`const calls = { 'tls.createServer': () => require('tls').createServer(), 'tls.createSecureContext': () => require('tls').createSecureContext(), 'new tls.TLSSocket': () => new (require('tls').TLSSocket)(), 'http2.connect': () => require('http2').connect('https://example.com'), 'http2.createServer': () => require('http2').createServer(), 'cluster.fork': () => require('cluster').fork(), 'inspector.open': () => require('inspector').open(), 'Session.connect': () => new (require('inspector').Session)().connect(), 'repl.start': () => require('repl').start(), 'trace_events.createTracing': () => require('trace_events').createTracing({ categories: ['v8'] }), 'new WASI': () => new (require('wasi').WASI)({ version: 'preview1' }), 'https.createServer': () => require('https').createServer() }; for (const [name, f] of Object.entries(calls)) { try { f(); console.log(name, 'did not throw'); } catch (e) { console.log(name, e instanceof Error, e.code); } }`)} 2>/dev/null`,
      { timeout: RUN_DEADLINE_MS, cwd: "/w" },
    );
    expect(r.stdout).toBe(
      [
        "tls.createServer true ERR_ACCESS_DENIED",
        "tls.createSecureContext true ERR_ACCESS_DENIED",
        "new tls.TLSSocket true ERR_ACCESS_DENIED",
        "http2.connect true ERR_ACCESS_DENIED",
        "http2.createServer true ERR_ACCESS_DENIED",
        "cluster.fork true ERR_ACCESS_DENIED",
        "inspector.open true ERR_ACCESS_DENIED",
        "Session.connect true ERR_ACCESS_DENIED",
        "repl.start true ERR_ACCESS_DENIED",
        "trace_events.createTracing true ERR_ACCESS_DENIED",
        "new WASI true ERR_ACCESS_DENIED",
        "https.createServer true ERR_NOT_SUPPORTED",
        "",
      ].join("\n"),
    );
  });

  it("http.METHODS and http.STATUS_CODES are the host's", async () => {
    const [inVm, onHost] = await both(String.raw`const http = require('http'); console.log(JSON.stringify(http.METHODS)); console.log(JSON.stringify(http.STATUS_CODES));`);
    expect(inVm).toEqual(onHost);
  });
});
