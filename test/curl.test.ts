import { describe, expect, it } from "vitest";
import { RUN_DEADLINE_MS } from "./deadlines.js";
import { createVm } from "./helpers.js";

/**
 * The VM's curl (guests/dist/curl.wasm) without a network option: a name does not resolve and the host's
 * gateway address refuses, each at once with curl's own message and exit status, never a hang.
 * test/curl.differential.test.ts compares it with a native build under a network policy.
 */
describe("curl without a network", () => {
  it("fails cleanly: exit 6 for a name (https too), 7 for an address", async (t) => {
    const vm = await createVm(undefined, t);
    const name = await vm.exec("curl -sS http://example.com/", { timeout: RUN_DEADLINE_MS });
    expect(name).toEqual(expect.objectContaining({ exitCode: 6, stdout: "", stderr: "curl: (6) Could not resolve host: example.com\n" }));
    const address = await vm.exec("curl -sS http://198.18.0.1:8080/", { timeout: RUN_DEADLINE_MS });
    expect(address.exitCode).toBe(7);
    expect(address.stderr).toMatch(/^curl: \(7\) Failed to connect to 198\.18\.0\.1 port 8080 after \d+ ms: Could not connect to server\n$/);
    const loopback = await vm.exec("curl -sS http://127.0.0.1:9/", { timeout: RUN_DEADLINE_MS });
    expect(loopback.exitCode).toBe(7);
    expect(loopback.stderr).toMatch(/^curl: \(7\) Failed to connect to 127\.0\.0\.1 port 9 after \d+ ms: Could not connect to server\n$/);
    const tls = await vm.exec("curl -sS https://example.com/", { timeout: RUN_DEADLINE_MS });
    expect(tls).toEqual(expect.objectContaining({ exitCode: 6, stdout: "", stderr: "curl: (6) Could not resolve host: example.com\n" }));
    const version = await vm.exec("curl --version | head -1", { timeout: RUN_DEADLINE_MS });
    expect(version.stdout).toBe("curl 8.14.1 (wasm32-unknown-wasi) libcurl/8.14.1 OpenSSL/3.0.19 zlib/1.3.1\n");
  });
});
