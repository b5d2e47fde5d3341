import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentOs } from "../src/index.js";
import { CASE_DEADLINE_MS, SETUP_DEADLINE_MS } from "./deadlines.js";

/**
 * The VM's yq (guests/dist/yq.wasm, mikefarah yq 4.54.3) against yq's own acceptance tests. The host has no
 * mikefarah yq to compare with (Debian's `yq` is kislyuk's Python jq wrapper, another program), so the
 * reference is what yq's authors expect: each `acceptance_tests/*.sh` of the v4.54.3 module
 * (test/fixtures/yq-acceptance, unchanged) runs in the VM under shUnit2 with the VM's bash, `./yq` being a
 * script that starts the VM's `yq`. Every test function of the script must run and pass.
 */

const fixtures = new URL("./fixtures/yq-acceptance/", import.meta.url).pathname;
const scripts = readdirSync(join(fixtures, "acceptance_tests")).filter((f) => f.endsWith(".sh")).sort();
/** shUnit2 runs each function whose name starts with `test`, as it finds them (a name defined twice counts twice). */
const testsIn = (script: string): number => [...readFileSync(join(fixtures, "acceptance_tests", script), "utf8").matchAll(/^\s*(?:function\s+)?(test[\w-]*)\s*\(\)/gm)].length;
const total = scripts.reduce((n, s) => n + testsIn(s), 0);

let vm: AgentOs;

beforeAll(async () => {
  vm = await AgentOs.create();
}, SETUP_DEADLINE_MS);

afterAll(async () => {
  await vm?.dispose();
});

describe.concurrent(`yq's acceptance tests (v4.54.3) in the VM (${scripts.length} scripts, ${total} tests)`, () => {
  it.each(scripts)("%s", async (script) => {
    // Each script in a directory of its own: they write test.yml and friends beside ./yq.
    const dir = `/work/${script.replace(/\.sh$/, "")}`;
    const files = ["scripts/shunit2", "examples/order.yaml", "utf8.csv", ...scripts.map((s) => `acceptance_tests/${s}`)];
    for (const f of files) {
      await vm.mkdir(join(dir, f, ".."), { recursive: true });
      await vm.writeFile(join(dir, f), readFileSync(join(fixtures, f)));
    }
    await vm.writeFile(join(dir, "yq"), '#!/bin/sh\nexec yq "$@"\n');
    await vm.exec("chmod +x yq", { cwd: dir });
    const r = await vm.exec(`bash acceptance_tests/${script}`, { cwd: dir, env: { SHUNIT_COLOR: "none" } });
    const report = r.stdout.replace(/\x1b\[[0-9;]*m/g, "");
    const n = testsIn(script);
    expect({ ran: /^Ran (\d+) tests?\.$/m.exec(report)?.[1], failures: report.split("\n").filter((l) => /^ASSERT:|FAILED|ERROR/.test(l)) }, report + r.stderr).toEqual({
      ran: String(n),
      failures: [],
    });
    expect(report).toMatch(/^OK$/m);
    expect(r.exitCode).toBe(0);
  }, CASE_DEADLINE_MS * 2);
});
