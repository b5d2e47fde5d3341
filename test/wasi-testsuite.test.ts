import { afterAll, describe, expect, it } from "vitest";
import { RUN_DEADLINE_MS } from "./deadlines.js";
import { passes, runWasiTest, SUITES, wasiTests } from "./wasi-testsuite-harness.js";
import { KNOWN_FAILURES } from "./wasi-testsuite-known-failures.js";

/**
 * The official WASI preview1 test suite (github WebAssembly/wasi-testsuite, prebuilt; test/wasi-testsuite/README.md)
 * run in the VM as its runner runs them: each test's exit code, and its stdout and stderr where its specification
 * gives them. A test in KNOWN_FAILURES must fail, and one not in it must pass.
 */
const tests = wasiTests();
const outcome = new Map<string, boolean>();

describe("wasi-testsuite (preview1)", () => {
  afterAll(() => {
    const passed = [...outcome.values()].filter(Boolean).length;
    console.log(`wasi-testsuite: ${passed} of ${tests.length} pass; known failures: ${Object.keys(KNOWN_FAILURES).join(", ")}`);
  });

  it("has every test of the pinned suite, and no stale entry in KNOWN_FAILURES", () => {
    const counts = Object.fromEntries(SUITES.map((s) => [s, tests.filter((t) => t.id.startsWith(`${s}/`)).length]));
    expect(counts).toEqual({ assemblyscript: 12, c: 14, rust: 46 });
    const ids = new Set(tests.map((t) => t.id));
    expect(Object.keys(KNOWN_FAILURES).filter((id) => !ids.has(id))).toEqual([]);
  });

  for (const t of tests) {
    it(t.id, async () => {
      const run = await runWasiTest(t, RUN_DEADLINE_MS);
      const ok = passes(t, run);
      outcome.set(t.id, ok);
      const known = KNOWN_FAILURES[t.id];
      if (known) expect(ok, `listed in KNOWN_FAILURES (${known}) but passes now: remove it from the list`).toBe(false);
      else {
        const expected = `exit ${t.exitCode}${t.stdout === undefined ? "" : `, stdout ${JSON.stringify(t.stdout)}`}${t.stderr === undefined ? "" : `, stderr ${JSON.stringify(t.stderr)}`}`;
        expect(ok, `exit ${run.exitCode}, stdout ${JSON.stringify(run.stdout)}, stderr ${JSON.stringify(run.stderr)}; expected ${expected}`).toBe(true);
      }
    });
  }
});
