import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CASE_DEADLINE_MS, SETUP_DEADLINE_MS } from "./deadlines.js";
import { HostTwin, installReference } from "./host-twin.js";

/**
 * The VM's nc (workers/commands/nc.ts) against the host's netcat-openbsd: the same client and server scripts run
 * on the host's loopback and on the VM's. A server started with -v says "Listening on …" (or "Bound on …") on
 * stderr, which goes into a pipe: the script reads that line before it starts the client, so nothing waits on a
 * clock. The peer's ephemeral port in "Connection received on localhost N" is the one thing made equal. Each case
 * gets its own port (the host's loopback is shared with whatever else runs).
 */

const BASE = 42000 + Math.floor(Math.random() * 2000) * 10;

/** `$P` is the case's port. Every case ends by itself. */
const CASES: Array<[string, string]> = [
  [
    "client to server, -N ends the client's sending side",
    `nc -lv 127.0.0.1 $P 2>&1 >got | { read -r l; echo "server: $l"; printf 'hello\\nworld\\n' | nc -vN 127.0.0.1 $P 2>&1; echo "client: $?"; cat; }; cat got`,
  ],
  [
    "server to client: the server's -N, the client reads to the end",
    `printf 'from the server\\n' | nc -lvN 127.0.0.1 $P 2>&1 >/dev/null | { read -r l; echo "server: $l"; nc 127.0.0.1 $P < /dev/null; echo "client: $?"; cat; }`,
  ],
  ["a name: localhost, listening on every address", `nc -lv $P 2>&1 >got </dev/null | { read -r l; echo "server: $l"; echo hi | nc -v -N localhost $P 2>&1; echo "client: $?"; cat; }; cat got`],
  ["-l -p: the port as an option", `nc -lv -p $P 2>&1 >got | { read -r l; echo "server: $l"; echo hi | nc -N 127.0.0.1 $P; cat; }; cat got`],
  ["-q 0: the client quits at the end of its input", `nc -lv 127.0.0.1 $P 2>&1 >got | { read -r l; printf 'abc' | nc -q 0 127.0.0.1 $P; echo "client: $?"; cat; }; cat got`],
  ["-C sends CRLF line ends", `nc -lv 127.0.0.1 $P 2>&1 >got | { read -r l; printf 'a\\nb\\n' | nc -C -N 127.0.0.1 $P; cat >/dev/null; }; od -c got`],
  ["-d: no reading of stdin", `printf 'data\\n' | nc -lvN 127.0.0.1 $P 2>&1 >/dev/null | { read -r l; echo ignored | nc -d 127.0.0.1 $P; echo "client: $?"; cat >/dev/null; }`],
  ["-z: a listening port", `nc -lv 127.0.0.1 $P 2>&1 >got | { read -r l; nc -z 127.0.0.1 $P; echo "scan: $?"; cat; }; cat got`],
  ["-zv: a listening port", `nc -lv 127.0.0.1 $P 2>&1 >/dev/null | { read -r l; nc -zv 127.0.0.1 $P 2>&1; echo "scan: $?"; cat; }`],
  ["-z: a closed port", `nc -z 127.0.0.1 $P; echo "scan: $?"`],
  ["-zv: a closed port", `nc -zv 127.0.0.1 $P 2>&1; echo "scan: $?"`],
  ["-zv: a range with one port open", `nc -lv 127.0.0.1 $((P+1)) 2>&1 >/dev/null | { read -r l; nc -zv 127.0.0.1 $P-$((P+2)) 2>&1; echo "scan: $?"; cat; }`],
  ["-z -w: a closed port", `nc -z -w 2 127.0.0.1 $P; echo "scan: $?"`],
  [
    "UDP: a datagram, -w ends the idle server",
    `nc -luv -w 1 127.0.0.1 $P 2>&1 >got | { read -r l; echo "server: $l"; printf 'datagram\\n' | nc -u -q 0 127.0.0.1 $P; echo "client: $?"; cat; }; cat got`,
  ],
  ["-U: a Unix socket", `rm -f sock; nc -lvU sock 2>&1 >got | { read -r l; echo "server: $l"; printf 'over unix\\n' | nc -NU sock; echo "client: $?"; cat; }; cat got`],
  ["-U: no such socket", `nc -U nosock; echo "status: $?"`],
  ["no arguments", "nc; echo status $?"],
  ["-l without a port", "nc -l; echo status $?"],
  ["a host without a port", "nc 127.0.0.1; echo status $?"],
  ["an invalid port", "nc -z 127.0.0.1 x; echo status $?"],
  ["an invalid timeout", "nc -w x 127.0.0.1 1; echo status $?"],
  ["an unknown option", "nc -Q; echo status $?"],
  ["an option without its argument", "nc -q; echo status $?"],
  ["an unknown host", "nc -z nosuchhost.invalid 80; echo status $?"],
];

const haveNc = installReference("nc", "netcat-openbsd");
let twin: HostTwin;

beforeAll(async () => {
  twin = await HostTwin.create({});
}, SETUP_DEADLINE_MS);

afterAll(async () => {
  await twin?.dispose();
});

/** The peer's ephemeral port, which neither side chooses. */
const normal = (text: string): string => text.replace(/Connection received on localhost \d+/g, "Connection received on localhost N");

describe.skipIf(!haveNc)(`nc in the VM against netcat-openbsd 1.219 (${CASES.length} cases)`, () => {
  it.each(CASES.map(([title, script], i) => [title, script, BASE + i * 5] as const))("%s", async (_title, script, port) => {
    const line = `P=${port}; ${script}`;
    const host = twin.onHost(line);
    const vm = await twin.inVm(line);
    expect({ ...vm, stdout: normal(vm.stdout), stderr: normal(vm.stderr) }).toEqual({ ...host, stdout: normal(host.stdout), stderr: normal(host.stderr) });
  }, CASE_DEADLINE_MS);
});

describe("nc in the VM", () => {
  it("a connection to an address outside the VM goes through the network policy (none allowed by default)", async () => {
    const r = await twin.inVm("nc -zv -w 5 192.0.2.1 80; echo status $?");
    expect(r.stdout).toBe("status 1\n");
    expect(r.stderr).toMatch(/^nc: connect to 192\.0\.2\.1 port 80 \(tcp\) failed: .+\n$/);
  }, CASE_DEADLINE_MS);

  it("-k: the server takes one connection after another", async () => {
    // The server never ends by itself: its pid goes to a file, and the reader ends it after the second connection.
    const r = await twin.inVm(
      '{ nc -lkv 127.0.0.1 7100 2>&1 >got & echo $! > pid; wait; } | { read -r l; echo one | nc -N 127.0.0.1 7100; read -r c; echo two | nc -N 127.0.0.1 7100; read -r c; echo "$c" | sed "s/[0-9]*$/N/"; kill $(cat pid); }; cat got',
    );
    expect(r.stdout).toBe("Connection received on localhost N\none\ntwo\n");
  }, CASE_DEADLINE_MS);

  it("says what it does not support", async () => {
    expect(await twin.inVm("nc -x proxy:1080 127.0.0.1 80")).toEqual({ exitCode: 1, stdout: "", stderr: "nc: -x: not supported in agentos-vm's nc\n" });
  }, CASE_DEADLINE_MS);
});
