// `node net-rows.js <row> <n> [warmup]`: one networking operation, timed inside this program (start-up excluded),
// run `warmup` (default 100) times untimed and then `n` times. Every reply is checked (length, bytes, status,
// body); a wrong answer prints to stderr and exits 2, no progress for WATCHDOG_MS exits 3. On success it prints
// one JSON line `{ row, n, p50_us, p95_us }`. The same file runs in the VM's `node` and in the host's
// (bench/net.bench.ts), so it uses only net, dgram, http, process.hrtime.bigint(), os.tmpdir() and console.
'use strict';

const net = require('net');
const dgram = require('dgram');
const os = require('os');

const WATCHDOG_MS = 10_000;
// The upstream agent-os (bench:peers) gives the script's path twice in process.argv; it is skipped.
const args = process.argv.slice(2);
if (args[0] === process.argv[1]) args.shift();
const [row, nArg, warmArg] = args;
const n = Number(nArg);
const warmup = warmArg === undefined ? 100 : Number(warmArg);
if (!Number.isInteger(n) || n < 1 || !Number.isInteger(warmup) || warmup < 0) fail(`usage: net-rows.js <row> <n> [warmup], got ${args.join(' ')}`);

function fail(message) {
  console.error(`${row}: ${message}`);
  process.exit(2);
}

// Reset by every completed operation; a lost reply (a dropped datagram, a wake that never comes) fails the row
// instead of hanging it.
let watchdog;
function alive() {
  clearTimeout(watchdog);
  watchdog = setTimeout(() => {
    console.error(`${row}: no progress for ${WATCHDOG_MS} ms`);
    process.exit(3);
  }, WATCHDOG_MS);
}

// Random as well as the pid: a runtime that leaves the socket file behind on close (the upstream agent-os) and
// gives every process the same pid would find the last run's path taken.
const unixPath = () => `${os.tmpdir()}/net-rows-${process.pid}-${Math.random().toString(36).slice(2)}.sock`;

/** 64 B (or `size`) whose bytes depend on the iteration, so that a stale or reordered reply is caught. */
function payload(i, size) {
  const b = Buffer.alloc(size);
  for (let j = 0; j < size; j++) b[j] = (i * 31 + j) & 255;
  return b;
}

function expectBytes(what, got, want) {
  if (got.length !== want.length) fail(`${what}: ${got.length} bytes, expected ${want.length}`);
  if (!got.equals(want)) fail(`${what}: bytes differ from what was sent`);
}

/** Reads exactly `size` bytes from a stream socket, one read at a time, for the current iteration. */
function reader(socket) {
  let want = 0;
  let chunks = [];
  let have = 0;
  let done = null;
  socket.on('data', (chunk) => {
    if (done === null) fail(`${chunk.length} unexpected bytes`);
    chunks.push(chunk);
    have += chunk.length;
    if (have > want) fail(`${have} bytes received, expected ${want}`);
    if (have === want) {
      const d = done;
      const all = Buffer.concat(chunks, have);
      done = null;
      chunks = [];
      have = 0;
      d(all);
    }
  });
  socket.on('error', (e) => fail(`socket error ${e.code ?? ''} ${e.message}`));
  return (size) =>
    new Promise((resolve) => {
      want = size;
      done = resolve;
    });
}

const once = (emitter, event) => new Promise((resolve) => emitter.once(event, resolve));
const listening = (server, ...args) =>
  new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(...args, () => resolve());
  });

/** Echo server for a stream socket: every byte goes back as it comes. */
function echoServer() {
  return net.createServer((s) => {
    s.on('data', (d) => s.write(d));
    s.on('error', (e) => fail(`server socket error ${e.code ?? ''} ${e.message}`));
  });
}

// Each row returns { op, close }: op(i) does one checked operation; close() releases what the row made.
const rows = {
  async udp_echo() {
    const server = dgram.createSocket('udp4');
    server.on('message', (msg, rinfo) => server.send(msg, rinfo.port, rinfo.address));
    server.on('error', (e) => fail(`server error ${e.message}`));
    await new Promise((resolve) => server.bind(0, '127.0.0.1', resolve));
    const port = server.address().port;
    const client = dgram.createSocket('udp4');
    client.on('error', (e) => fail(`client error ${e.message}`));
    await new Promise((resolve) => client.bind(0, '127.0.0.1', resolve));
    let pending = null;
    client.on('message', (msg, rinfo) => {
      if (pending === null) fail(`unexpected datagram of ${msg.length} B`);
      if (rinfo.port !== port) fail(`reply from port ${rinfo.port}, expected ${port}`);
      const p = pending;
      pending = null;
      p(msg);
    });
    return {
      async op(i) {
        const sent = payload(i, 64);
        const reply = new Promise((resolve) => (pending = resolve));
        client.send(sent, port, '127.0.0.1');
        expectBytes('datagram', await reply, sent);
      },
      close: () => Promise.all([new Promise((r) => client.close(r)), new Promise((r) => server.close(r))]),
    };
  },

  async unix_echo() {
    const path = unixPath();
    const server = echoServer();
    await listening(server, path);
    const client = net.connect(path);
    await once(client, 'connect');
    const read = reader(client);
    return {
      async op(i) {
        const sent = payload(i, 64);
        const reply = read(64);
        client.write(sent);
        expectBytes('unix echo', await reply, sent);
      },
      close: async () => {
        client.destroy();
        await new Promise((r) => server.close(r));
      },
    };
  },

  async unix_accept() {
    const path = unixPath();
    const server = net.createServer();
    await listening(server, path);
    let accepted = 0;
    return {
      // One connection: the client connects, the server accepts it, the client closes and the server's side
      // sees the close.
      async op() {
        const serverSide = once(server, 'connection');
        const client = net.connect(path);
        client.on('error', (e) => fail(`client error ${e.code ?? ''} ${e.message}`));
        await once(client, 'connect');
        const s = await serverSide;
        accepted++;
        const closed = once(s, 'close');
        s.resume();
        client.destroy();
        await closed;
      },
      close: async () => {
        await new Promise((r) => server.close(r));
        if (accepted !== warmup + n) fail(`${accepted} connections accepted, expected ${warmup + n}`);
      },
    };
  },

  async tcp_echo_64k() {
    const server = echoServer();
    await listening(server, 0, '127.0.0.1');
    const client = net.connect(server.address().port, '127.0.0.1');
    await once(client, 'connect');
    client.setNoDelay(true);
    const read = reader(client);
    return {
      async op(i) {
        const sent = payload(i, 65536);
        const reply = read(65536);
        client.write(sent);
        expectBytes('tcp echo', await reply, sent);
      },
      close: async () => {
        client.destroy();
        await new Promise((r) => server.close(r));
      },
    };
  },

  async http_get() {
    const http = require('http');
    const server = http.createServer((req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.end('ok');
    });
    await listening(server, 0, '127.0.0.1');
    const port = server.address().port;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    return {
      op: (i) =>
        new Promise((resolve) => {
          const req = http.get({ host: '127.0.0.1', port, path: `/r${i}`, agent }, (res) => {
            if (res.statusCode !== 200) fail(`status ${res.statusCode}`);
            const chunks = [];
            res.on('data', (c) => chunks.push(c));
            res.on('end', () => {
              const body = Buffer.concat(chunks).toString();
              if (body !== 'ok') fail(`body ${JSON.stringify(body)}`);
              resolve();
            });
          });
          req.on('error', (e) => fail(`request error ${e.code ?? ''} ${e.message}`));
        }),
      close: async () => {
        agent.destroy();
        await new Promise((r) => server.close(r));
      },
    };
  },
};

async function main() {
  const make = rows[row];
  if (make === undefined) fail(`unknown row; rows: ${Object.keys(rows).join(', ')}`);
  alive();
  const { op, close } = await make();
  const us = new Array(n);
  for (let i = 0; i < warmup + n; i++) {
    const t = process.hrtime.bigint();
    await op(i);
    const dt = Number(process.hrtime.bigint() - t) / 1000;
    if (i >= warmup) us[i - warmup] = dt;
    alive();
  }
  await close();
  us.sort((a, b) => a - b);
  const q = (p) => us[Math.min(n - 1, Math.floor(p * n))];
  console.log(JSON.stringify({ row, n, p50_us: Number(q(0.5).toFixed(1)), p95_us: Number(q(0.95).toFixed(1)) }));
}

// The exit is outside main's catch: a runtime whose process.exit throws (the upstream agent-os) still exits 0.
main().then(
  () => process.exit(0),
  (e) => fail(e && e.stack ? e.stack : String(e)),
);
