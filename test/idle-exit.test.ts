import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { RUN_DEADLINE_MS } from "./deadlines.js";

const run = promisify(execFile);
const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

/**
 * A program that forgets `dispose()` exits once nothing runs: idle router shells and pool workers do not hold
 * the event loop (src/util/loop-hold.ts, src/pool/detached-port.ts). Each run is a fresh `node`; the
 * kill timeout is what fails the test if the process hangs.
 */
describe("a program that forgets dispose()", () => {
  it("exits by itself under plain node, after its running process finished", async () => {
    const started = Date.now();
    const { stdout } = await run(process.execPath, ["--import", "tsx", fixture("forgets-dispose.ts")], { timeout: RUN_DEADLINE_MS });
    expect(stdout).toBe("hi\n42\nlate\nlate exited 0\n");
    expect(Date.now() - started).toBeLessThan(RUN_DEADLINE_MS);
  });

  it("exits by itself under node --test", async () => {
    const { stdout } = await run(process.execPath, ["--import", "tsx", "--test", "--test-reporter=tap", fixture("forgets-dispose.node-test.ts")], {
      timeout: RUN_DEADLINE_MS,
    });
    expect(stdout).toMatch(/^# pass 1$/m);
    expect(stdout).toMatch(/^# fail 0$/m);
  });
});
