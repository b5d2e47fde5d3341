// `pnpm bench:outbound`: guest `node` reaching a server on the host through the VM's network policy, beside the
// host's own `node` doing the same against the same server in the same run (issue 28's speed targets: a 1 MiB
// HTTP GET and a TLS handshake each within 2× the host's).
//
// Each side runs one program that times its operations with process.hrtime.bigint() (start-up excluded), checks
// every reply and prints `{ row, n, p50_us, p95_us }`: the guest reaches the server as host.agentos.internal:PORT,
// the host's node as 127.0.0.1:PORT (TLS: both verify the test certificate for the name "localhost").
// Environment: BENCH_OUTBOUND_N (operations per row, 200), BENCH_OUTBOUND_WARMUP (50).
import { execFile } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { cpus, loadavg } from "node:os";
import { AgentOs } from "../src/index.js";

const N = Number(process.env.BENCH_OUTBOUND_N ?? 200);
const WARMUP = Number(process.env.BENCH_OUTBOUND_WARMUP ?? 50);
const fixture = (name: string): Buffer => readFileSync(new URL(`../test/fixtures/tls/${name}`, import.meta.url));

const MIB = Buffer.alloc(1024 * 1024, 0x6d);
const http = createServer((_req, res) => res.end(MIB));
const https = createTlsServer({ key: fixture("leaf-key.pem"), cert: fixture("leaf.pem") }, (_req, res) => res.end("ok"));
for (const s of [http, https]) {
  s.listen(0, "127.0.0.1");
  await once(s, "listening");
}
const httpPort = (http.address() as AddressInfo).port;
const httpsPort = (https.address() as AddressInfo).port;

/** The program both sides run: `row` timed `n` times after `warmup`, against `host`. */
const program = (row: string, host: string, ca: string): string => String.raw`
const http = require('http'); const https = require('https'); const fs = require('fs');
const ca = fs.readFileSync('${ca}');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const ops = {
  get_1mib: () => new Promise((resolve, reject) => http.get({ host: '${host}', port: ${httpPort}, path: '/', agent }, (res) => {
    let n = 0; res.on('data', (d) => (n += d.length)); res.on('end', () => (n === 1048576 ? resolve() : reject(new Error('short body ' + n))));
  }).on('error', reject)),
  tls_handshake: () => new Promise((resolve, reject) => {
    const s = require('tls').connect({ host: '${host}', port: ${httpsPort}, servername: 'localhost', ca }, () => { if (!s.authorized) reject(new Error('not authorized')); s.destroy(); resolve(); });
    s.on('error', reject);
  }),
};
(async () => {
  const op = ops['${row}'];
  for (let i = 0; i < ${WARMUP}; i++) await op();
  const t = [];
  for (let i = 0; i < ${N}; i++) { const s = process.hrtime.bigint(); await op(); t.push(Number(process.hrtime.bigint() - s) / 1000); }
  t.sort((a, b) => a - b);
  console.log(JSON.stringify({ row: '${row}', n: ${N}, p50_us: Math.round(t[Math.floor(t.length / 2)]), p95_us: Math.round(t[Math.floor(t.length * 0.95)]) }));
  agent.destroy();
})().catch((e) => { console.error(e); process.exit(1); });`;

const vm = await AgentOs.create({
  network: { allow: [`host.agentos.internal:${httpPort}`, `host.agentos.internal:${httpsPort}`] },
  files: { "/bench/ca.pem": fixture("ca.pem") },
});
const caFile = new URL("../test/fixtures/tls/ca.pem", import.meta.url).pathname;

interface Row {
  row: string;
  p50_us: number;
  p95_us: number;
}
const parse = (side: string, out: string): Row => {
  try {
    return JSON.parse(out) as Row;
  } catch {
    throw new Error(`${side}: ${out.slice(0, 400)}`);
  }
};

const rows: Array<{ row: string; vm: Row; host: Row }> = [];
let failed = false;
for (const row of ["get_1mib", "tls_handshake"]) {
  await vm.writeFile("/bench/outbound.js", program(row, "host.agentos.internal", "/bench/ca.pem"));
  const guest = await vm.exec("node /bench/outbound.js", { timeout: 600_000 });
  const host = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, ["-e", program(row, "127.0.0.1", caFile)], { timeout: 600_000 }, (e, stdout, stderr) => (e ? reject(new Error(stderr)) : resolve(stdout))),
  );
  if (guest.exitCode !== 0 || guest.stderr !== "") {
    failed = true;
    console.log(`${row}: the VM's run failed: ${guest.stderr.slice(0, 2000)}`);
    continue;
  }
  rows.push({ row, vm: parse("vm", guest.stdout), host: parse("host", host) });
}
await vm.dispose();
http.close();
https.close();

console.log(`outbound network, ${N} operations per row after ${WARMUP} (${cpus().length} cores, load ${loadavg()[0]!.toFixed(1)})`);
console.log("| row | VM p50 µs | host p50 µs | VM/host | VM p95 µs | host p95 µs |");
console.log("|---|---|---|---|---|---|");
for (const r of rows) console.log(`| ${r.row} | ${r.vm.p50_us} | ${r.host.p50_us} | ${(r.vm.p50_us / r.host.p50_us).toFixed(2)} | ${r.vm.p95_us} | ${r.host.p95_us} |`);
if (failed) process.exitCode = 1;
