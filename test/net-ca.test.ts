import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentOs } from "../src/index.js";
import { CA_BUNDLE, ROOT_BUNDLE } from "../src/kernel/runtime-image.js";
import { NETWORK_CA_FILE } from "../src/net/extra-ca.js";
import { RUN_DEADLINE_MS } from "./deadlines.js";
import { createVm } from "./helpers.js";

/**
 * `network.ca`: certificate authorities a VM's programs trust besides Node's roots. An HTTPS server with a leaf
 * of the test CA (test/fixtures/tls) is unknown to curl and guest node in a VM without it, and trusted with it,
 * with no --cacert, -k or environment of the caller's.
 */
const pem = (name: string): string => readFileSync(new URL(`fixtures/tls/${name}`, import.meta.url), "utf8");
let server: Server;
let allow: string[];
let url: string;

beforeAll(async () => {
  server = createServer({ key: pem("leaf-key.pem"), cert: pem("leaf.pem") }, (_req, res) => res.end("hello over tls\n"));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const port = (server.address() as AddressInfo).port;
  allow = [`host.agentos.internal:${port}`];
  url = `https://host.agentos.internal:${port}/`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const NODE_GET = (u: string): string =>
  `node -e 'require("https").get("${u}", (r) => r.pipe(process.stdout)).on("error", (e) => { console.log(e.code); process.exitCode = 3; })'`;

describe("network.ca", () => {
  it("without it the test CA is unknown: curl exits 60, guest node says UNABLE_TO_VERIFY_LEAF_SIGNATURE", async (t) => {
    const vm = await createVm({ network: { allow } }, t);
    const curl = await vm.exec(`curl -sS ${url}`, { timeout: RUN_DEADLINE_MS });
    expect(curl).toEqual({ exitCode: 60, stdout: "", stderr: expect.stringMatching(/^curl: \(60\) SSL certificate problem: unable to get local issuer certificate\n/) });
    const node = await vm.exec(NODE_GET(url), { timeout: RUN_DEADLINE_MS });
    expect(node).toEqual({ exitCode: 3, stdout: "UNABLE_TO_VERIFY_LEAF_SIGNATURE\n", stderr: "" });
  });

  it("with it curl, the bundle and guest node trust the CA", async (t) => {
    const vm = await createVm({ network: { allow, ca: pem("ca.pem") } }, t);
    expect(await vm.exec(`curl -sS ${url}`, { timeout: RUN_DEADLINE_MS })).toEqual({ exitCode: 0, stdout: "hello over tls\n", stderr: "" });
    expect(await vm.exec(NODE_GET(url), { timeout: RUN_DEADLINE_MS })).toEqual({ exitCode: 0, stdout: "hello over tls\n", stderr: "" });
    expect(await vm.readFile(CA_BUNDLE, "utf8")).toBe(ROOT_BUNDLE + pem("ca.pem"));
    expect(await vm.readFile(NETWORK_CA_FILE, "utf8")).toBe(pem("ca.pem"));
    expect((await vm.exec("echo $NODE_EXTRA_CA_CERTS $SSL_CERT_FILE")).stdout).toBe(`${NETWORK_CA_FILE} ${CA_BUNDLE}\n`);
  });

  it("takes a list; another CA alone does not make the server trusted; other VMs keep the shared bundle", async (t) => {
    const both = await createVm({ network: { allow, ca: [pem("other-ca.pem"), pem("ca.pem")] } }, t);
    expect((await both.exec(`curl -sS ${url}`, { timeout: RUN_DEADLINE_MS })).stdout).toBe("hello over tls\n");
    expect(await both.readFile(NETWORK_CA_FILE, "utf8")).toBe(pem("other-ca.pem") + pem("ca.pem"));
    const other = await createVm({ network: { allow, ca: pem("other-ca.pem") } }, t);
    expect((await other.exec(`curl -sS ${url}`, { timeout: RUN_DEADLINE_MS })).exitCode).toBe(60);
    const plain = await createVm({ network: { allow } }, t);
    expect(await plain.readFile(CA_BUNDLE, "utf8")).toBe(ROOT_BUNDLE);
  });

  it("a bad value fails create with a TypeError that says what is wrong", async () => {
    const ca = pem("ca.pem");
    const bad: [unknown, RegExp][] = [
      ["not a certificate", /^network\.ca: no PEM certificate/],
      [[], /^network\.ca must be PEM text or a non-empty array/],
      [[ca, 7], /^network\.ca must be PEM text or a non-empty array/],
      [ca.replace(/\n[A-Za-z0-9+/]{20}/, "\n!!!!"), /^network\.ca: certificate 1 does not parse/],
      [pem("leaf-key.pem"), /^network\.ca: block 1 is EC PRIVATE KEY, not CERTIFICATE/],
      [[ca, `${ca}junk\n`], /^network\.ca\[1\]: text outside the PEM certificates: "junk"/],
    ];
    for (const [value, message] of bad)
      await expect(AgentOs.create({ network: { allow, ca: value as string } }), String(value).slice(0, 30)).rejects.toThrow(message);
  });
});
