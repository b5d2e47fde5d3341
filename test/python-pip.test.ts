import { createHash } from "node:crypto";
import { once } from "node:events";
import { readdirSync, readFileSync } from "node:fs";
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { rootCertificates } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentOs } from "../src/index.js";
import { CA_BUNDLE } from "../src/kernel/runtime-image.js";
import { RUN_DEADLINE_MS, SETUP_DEADLINE_MS, TEST_DEADLINE_MS } from "./deadlines.js";

/**
 * pip in the VM installing from a package index over HTTPS under the VM's network policy: a PEP 503 "simple"
 * index of this machine (an HTTPS server with the test certificate of test/fixtures/tls, trusted through the
 * VM's CA bundle) serving the wheels of test/fixtures/python-wheels, reached as host.agentos.internal:PORT.
 * pip is the one python3 -m venv installs (ensurepip's bundled wheel); its TLS is the VM's ssl (OpenSSL).
 */

const WHEELS = new URL("fixtures/python-wheels/", import.meta.url);
const TLS = new URL("fixtures/tls/", import.meta.url);

/** The index: /simple/<project>/ lists the project's wheels with their sha256, /files/<wheel> serves one. */
function serveIndex(req: IncomingMessage, res: ServerResponse): void {
  const wheels = readdirSync(WHEELS).filter((f) => f.endsWith(".whl"));
  const project = (wheel: string): string => wheel.split("-")[0]!.toLowerCase();
  const url = req.url ?? "/";
  const listing = /^\/simple\/([a-z0-9._-]+)\/$/.exec(url);
  if (listing) {
    const files = wheels.filter((w) => project(w) === listing[1]);
    if (files.length === 0) return void res.writeHead(404).end("not found\n");
    const links = files.map((w) => `<a href="/files/${w}#sha256=${createHash("sha256").update(readFileSync(new URL(w, WHEELS))).digest("hex")}">${w}</a><br>`);
    return void res.writeHead(200, { "content-type": "text/html" }).end(`<!DOCTYPE html><html><body>${links.join("\n")}</body></html>\n`);
  }
  const file = /^\/files\/([^/]+\.whl)$/.exec(url);
  if (file && wheels.includes(file[1]!)) return void res.writeHead(200, { "content-type": "application/octet-stream" }).end(readFileSync(new URL(file[1]!, WHEELS)));
  res.writeHead(404).end("not found\n");
}

/** The index over HTTPS with the test certificate. */
const indexServer = (): Server => createHttpsServer({ key: readFileSync(new URL("leaf-key.pem", TLS)), cert: readFileSync(new URL("leaf.pem", TLS)) }, serveIndex);

let server: Server;
let plain: Server;
let vm: AgentOs;
let index: string;
let plainIndex: string;

beforeAll(async () => {
  server = indexServer().listen(0, "127.0.0.1");
  plain = createHttpServer(serveIndex).listen(0, "127.0.0.1");
  await Promise.all([once(server, "listening"), once(plain, "listening")]);
  const port = (server.address() as { port: number }).port;
  const plainPort = (plain.address() as { port: number }).port;
  index = `https://host.agentos.internal:${port}/simple/`;
  plainIndex = `http://host.agentos.internal:${plainPort}/simple/`;
  const bundle = `${rootCertificates.join("\n")}\n${readFileSync(new URL("ca.pem", TLS), "utf8")}`;
  vm = await AgentOs.create({ network: { allow: [`host.agentos.internal:${port}`, `host.agentos.internal:${plainPort}`] }, files: { [CA_BUNDLE]: bundle } });
  const made = await vm.exec("python3 -m venv /tmp/venv", { timeout: SETUP_DEADLINE_MS });
  if (made.exitCode !== 0) throw new Error(`venv (${made.exitCode}): ${made.stderr}`);
}, SETUP_DEADLINE_MS);

afterAll(async () => {
  await vm?.dispose();
  server?.close();
  plain?.close();
});

describe("pip over the VM's network", { timeout: TEST_DEADLINE_MS }, () => {
  it("installs a project from an HTTPS index into a venv, then a requirements file; both import", async () => {
    await vm.writeFile("/tmp/requirements.txt", "pluggy==1.7.0\n");
    const pip = `/tmp/venv/bin/pip install -q --disable-pip-version-check --index-url ${index}`;
    const r = await vm.exec(
      `${pip} iniconfig && ${pip} -r /tmp/requirements.txt && /tmp/venv/bin/python -c 'import iniconfig, pluggy; print(iniconfig.__name__, pluggy.__version__)' && /tmp/venv/bin/pip list --format=freeze | grep -i -e iniconfig -e pluggy`,
      { timeout: RUN_DEADLINE_MS },
    );
    expect(r).toMatchObject({ exitCode: 0, stderr: "" });
    expect(r.stdout).toBe("iniconfig 1.7.0\niniconfig==2.3.1\npluggy==1.7.0\n");
  });

  it("installs from a plain-HTTP index at host.agentos.internal, which /etc/pip.conf trusts as pip trusts localhost", async () => {
    const r = await vm.exec(
      `/tmp/venv/bin/pip install -q --disable-pip-version-check --index-url ${plainIndex} --target /tmp/plain iniconfig && PYTHONPATH=/tmp/plain /tmp/venv/bin/python -c 'import iniconfig; print(iniconfig.__file__)'`,
      { timeout: RUN_DEADLINE_MS },
    );
    expect(r).toEqual({ exitCode: 0, stdout: "/tmp/plain/iniconfig/__init__.py\n", stderr: "" });
    // Without the configuration pip ignores the index, as it ignores any plain-HTTP host but localhost.
    const untrusted = await vm.exec(
      `PIP_CONFIG_FILE=/dev/null /tmp/venv/bin/pip install -q --disable-pip-version-check --index-url ${plainIndex} --target /tmp/plain2 iniconfig`,
      { timeout: RUN_DEADLINE_MS },
    );
    expect(untrusted.exitCode).toBe(1);
    expect(untrusted.stderr).toContain("is not a trusted or secure host and is being ignored");
  });

  it("says so when the index has no such project", async () => {
    const r = await vm.exec(`/tmp/venv/bin/pip install -q --disable-pip-version-check --index-url ${index} no-such-project`, { timeout: RUN_DEADLINE_MS });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("ERROR: No matching distribution found for no-such-project");
  });
});
