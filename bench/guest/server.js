// `node server.js <port>`: an `http` server on 127.0.0.1:<port> (0: any) answering every request 200 `ok`, for
// the vm_fetch row of bench/net.bench.ts (the VM's `node` behind vm.fetch; the host's behind the host's fetch).
// Prints `{ "port": N }` once listening and runs until killed.
'use strict';

const http = require('http');

const server = http.createServer((req, res) => {
  res.setHeader('content-type', 'text/plain');
  res.end('ok');
});
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
