// What the differential tests of HTTP clients (curl, wget) share: the servers they talk to on 127.0.0.1 (plain
// HTTP, a port nothing listens on, and HTTPS servers with the committed test certificates), and the run of one
// case's command lines on the host (a native build of the client, through bash) and in the VM, compared byte for
// byte after each tool's normalisation.
import { execFile } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type RequestListener, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { expect } from "vitest";
import type { AgentOs } from "../src/index.js";
import { HOST_GATEWAY_ADDRESS } from "../src/net/address-class.js";
import { RUN_DEADLINE_MS } from "./deadlines.js";
import type { Outcome } from "./host-twin.js";

const FIXTURES = new URL("fixtures/tls/", import.meta.url);
/** A file of test/fixtures/tls. */
export const pem = (name: string): Buffer => readFileSync(new URL(name, FIXTURES));

/** The HTTPS servers, by the certificate they present (test/fixtures/tls). */
const CERTIFICATES = { GOOD: "leaf.pem", WRONG_NAME: "wrong-name.pem", EXPIRED: "expired.pem", UNKNOWN_CA: "unknown-ca-leaf.pem", SELF_SIGNED: "self-signed.pem" };

export interface TestServers {
  /** The plain HTTP server's port. */
  port: number;
  /** A port nothing listens on (a server opened and closed): a refused connection. */
  closedPort: number;
  /** The HTTPS servers' ports, by the names of CERTIFICATES. */
  tlsPorts: Record<string, number>;
  /** `host.agentos.internal:PORT` of each: what a VM's policy allows. */
  allow: string[];
  close(): Promise<void>;
}

/** Starts the plain and HTTPS servers, all answering with `handle`. */
export async function startTestServers(handle: RequestListener): Promise<TestServers> {
  const listening = async (s: Server): Promise<number> => {
    s.listen(0, "127.0.0.1");
    await once(s, "listening");
    return (s.address() as AddressInfo).port;
  };
  const servers = [createServer(handle)];
  const port = await listening(servers[0]!);
  const closed = createServer();
  const closedPort = await listening(closed);
  await new Promise((r) => closed.close(r));
  const key = pem("leaf-key.pem");
  const tlsPorts: Record<string, number> = {};
  for (const [name, cert] of Object.entries(CERTIFICATES)) {
    const s = createHttpsServer({ key, cert: pem(cert) }, handle);
    servers.push(s);
    tlsPorts[name] = await listening(s);
  }
  return {
    port,
    closedPort,
    tlsPorts,
    allow: [port, closedPort, ...Object.values(tlsPorts)].map((p) => `host.agentos.internal:${p}`),
    async close() {
      for (const s of servers) {
        s.closeAllConnections();
        await new Promise((r) => s.close(r));
      }
    },
  };
}

/** A command line through bash on the host, asynchronously (the servers answer from this process's event loop). */
export function onHost(command: string, cwd: string, env: Record<string, string>, back: (s: string) => string): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile("bash", ["-c", command], { cwd, env, encoding: "utf8", timeout: RUN_DEADLINE_MS }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === "number" ? err.code : -1) : 0;
      resolve({ stdout: back(stdout), stderr: back(stderr), exitCode: code });
    });
  });
}

/** How a case's command lines run on each side, and what of stderr is blanked before they are compared. */
export interface HttpTwin {
  vm: AgentOs;
  /** The host directory under which each case has its own, at the same absolute path in the VM. */
  root: string;
  /** A step's outcome with the native client, in the case's directory `dir` (the native side's addresses read as the VM's). */
  host(dir: string, step: string): Promise<Outcome>;
  /** A step's outcome in the VM, in the case's directory `dir`. */
  guest(dir: string, step: string): Promise<Outcome>;
  normalised(stderr: string): string;
}

/**
 * One case: its directory (w, the working directory with the test CAs, and home) on both sides, then each step
 * on the host and in the VM, identical. A case named for its exit status ("… exit 7") ends with it, so that
 * both sides failing alike for another reason does not pass.
 */
export async function runHttpCase(twin: HttpTwin, name: string, steps: string[]): Promise<void> {
  const dir = join(twin.root, name.replace(/[^a-z0-9]+/gi, "-"));
  for (const d of ["w", "home"]) {
    mkdirSync(join(dir, d), { recursive: true });
    await twin.vm.mkdir(join(dir, d), { recursive: true });
  }
  for (const f of ["ca.pem", "other-ca.pem"]) {
    writeFileSync(join(dir, "w", f), pem(f));
    await twin.vm.writeFile(join(dir, "w", f), pem(f));
  }
  let last: Outcome | undefined;
  for (const [i, step] of steps.entries()) {
    const expected = await twin.host(dir, step);
    const got = await twin.guest(dir, step);
    expect({ ...got, stderr: twin.normalised(got.stderr) }, `step ${i}: ${step}`).toEqual({ ...expected, stderr: twin.normalised(expected.stderr) });
    last = expected;
  }
  const status = / exit (\d+)/.exec(name)?.[1];
  if (status !== undefined) expect(last?.exitCode, last?.stderr).toBe(Number(status));
}

/** The native side's 127.0.0.1 as the VM's gateway address. */
export const gatewayAddress = (s: string): string => s.replaceAll("127.0.0.1", HOST_GATEWAY_ADDRESS);
