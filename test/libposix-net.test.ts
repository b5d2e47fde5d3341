// guests/libposix's sockets and getaddrinfo (socket.c, netdb.c on workers/net-imports.ts) through
// guests/wasi-probe/net.c: loopback sockets inside the VM, and a server on this machine's 127.0.0.1 reached as
// host.agentos.internal:PORT under the VM's network policy, with blocking and non-blocking connects.
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentOs, NetworkOptions } from "../src/index.js";
import { RUN_DEADLINE_MS } from "./deadlines.js";
import { createVm } from "./helpers.js";

const wasm = join(import.meta.dirname, "../guests/wasi-probe/net-probe.wasm");
let server: Server;
let port: number;
/** A port nothing listens on: a server opened and closed again. */
let closedPort: number;

beforeAll(async () => {
  server = createServer((req, res) => res.writeHead(200, { "content-type": "text/plain" }).end(`hello ${req.method} ${req.url}\n`));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  port = (server.address() as AddressInfo).port;
  const closed = createServer().listen(0, "127.0.0.1");
  await once(closed, "listening");
  closedPort = (closed.address() as AddressInfo).port;
  await new Promise((r) => closed.close(r));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

async function vmWith(t: Parameters<typeof createVm>[1], network?: NetworkOptions): Promise<AgentOs> {
  return createVm({ commands: { "net-probe": { wasm } }, ...(network ? { network } : {}) }, t);
}

const run = (vm: AgentOs, args: string) => vm.exec(`net-probe ${args}`, { timeout: RUN_DEADLINE_MS });

describe("libposix sockets", () => {
  it("loopback TCP over IPv4 and IPv6, UDP, socketpair, options and numeric getaddrinfo, without a network", async (t) => {
    const vm = await vmWith(t);
    const r = await run(vm, "local");
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split("\n")).toEqual([
      "tcp4: bound to an ephemeral port: 1",
      "accepted from: inet 127.0.0.1",
      "tcp4: client's peer port matches: 1",
      "tcp4: server got 4 'ping'",
      "tcp4: poll 1 revents POLLIN 1",
      "tcp4: client read 4 'pong'",
      "tcp4: after shutdown recv 0",
      "tcp6: bound to an ephemeral port: 1",
      "accepted from: inet6 ::1",
      "tcp6: client's peer port matches: 1",
      "tcp6: server got 4 'ping'",
      "tcp6: poll 1 revents POLLIN 1",
      "tcp6: client read 4 'pong'",
      "tcp6: after shutdown recv 0",
      "udp: sent 8 got 8 'datagram'",
      "udp from: inet 127.0.0.1",
      "socketpair: select 1 read 4 'pair'",
      "TCP_NODELAY 0 SO_KEEPALIVE 0 TCP_KEEPIDLE 0",
      "SO_TYPE is SOCK_STREAM: 1",
      "SO_RCVTIMEO: -1 ENOPROTOOPT",
      "socket AF 99: -1 EAFNOSUPPORT",
      "connect unconnected peer: -1 ENOTSOCK",
      "getaddrinfo 127.1 80: 127.0.0.1/80",
      "getaddrinfo 0x7f.1 http: 127.0.0.1/80",
      "getaddrinfo ::1 443: ::1/443",
      "getaddrinfo example.test 80: EAI_NONAME (Name or service not known)",
      "getaddrinfo (null) 8080: 0.0.0.0/8080",
      "getaddrinfo (null) 8080: 127.0.0.1/8080",
      "getaddrinfo 127.0.0.1 no-such-service: EAI_SERVICE (Servname not supported for ai_socktype)",
      "getaddrinfo ::1 80: EAI_ADDRFAMILY (Address family for hostname not supported)",
      "getaddrinfo localhost 80: 127.0.0.1/80",
      "",
    ]);
  });

  it("reaches an allowed host server by name, with a blocking and a non-blocking connect", async (t) => {
    const vm = await vmWith(t, { allow: [`host.agentos.internal:${port}`] });
    const blocking = await run(vm, `get host.agentos.internal ${port}`);
    expect(blocking).toMatchObject({ exitCode: 0, stderr: "" });
    expect(blocking.stdout).toBe("peer: inet 198.18.0.1\nstatus: HTTP/1.1 200 OK\nbody: hello GET /probe\n");
    const nonblocking = await run(vm, `nb host.agentos.internal ${port}`);
    expect(nonblocking).toMatchObject({ exitCode: 0, stderr: "" });
    expect(nonblocking.stdout).toBe(
      "connect: -1 EINPROGRESS\npoll: 1 POLLOUT 1 SO_ERROR 0\npeer: inet 198.18.0.1\nstatus: HTTP/1.1 200 OK\nbody: hello GET /probe\n",
    );
  });

  it("keeps a resolver failure, an unknown name, a denied name, a denied port and a closed port apart", async (t) => {
    const vm = await vmWith(t, {
      allow: [`host.agentos.internal:${port}`, `host.agentos.internal:${closedPort}`, "flaky.example.test", "nx.example.test"],
      _lookup: async (name) => {
        if (name === "flaky.example.test") throw Object.assign(new Error("timed out"), { code: "ETIMEOUT" });
        return [];
      },
    });
    const flaky = await run(vm, "get flaky.example.test 80");
    expect(flaky).toMatchObject({ exitCode: 6, stderr: "", stdout: "getaddrinfo: EAI_AGAIN (Temporary failure in name resolution)\n" });
    const nx = await run(vm, "get nx.example.test 80");
    expect(nx).toMatchObject({ exitCode: 6, stderr: "", stdout: "getaddrinfo: EAI_NONAME (Name or service not known)\n" });
    const name = await run(vm, "get denied.example.test 80");
    expect(name).toMatchObject({ exitCode: 6, stderr: "", stdout: "getaddrinfo: EAI_NONAME (Name or service not known)\n" });
    const deniedPort = await run(vm, `get host.agentos.internal ${port === 65535 ? port - 1 : port + 1}`);
    // The kernel refuses a connection the policy denies as a closed port is refused (and reports the denial).
    expect(deniedPort).toMatchObject({ exitCode: 7, stderr: "", stdout: "connect: ECONNREFUSED\n" });
    const refused = await run(vm, `get host.agentos.internal ${closedPort}`);
    expect(refused).toMatchObject({ exitCode: 7, stderr: "", stdout: "connect: ECONNREFUSED\n" });
    const refusedNb = await run(vm, `nb host.agentos.internal ${closedPort}`);
    expect(refusedNb).toMatchObject({ exitCode: 7, stderr: "" });
    expect(refusedNb.stdout).toBe("connect: -1 EINPROGRESS\npoll: 1 POLLOUT 1 SO_ERROR ECONNREFUSED\n");
  });

  it("has no network by default: a name is EAI_NONAME, the host's gateway address refuses", async (t) => {
    const vm = await vmWith(t);
    const name = await run(vm, "get example.com 80");
    expect(name).toMatchObject({ exitCode: 6, stderr: "", stdout: "getaddrinfo: EAI_NONAME (Name or service not known)\n" });
    const gateway = await run(vm, `get host.agentos.internal ${port}`);
    expect(gateway).toMatchObject({ exitCode: 7, stderr: "", stdout: "connect: ECONNREFUSED\n" });
  });
});
