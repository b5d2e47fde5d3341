import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allCases, codeHash, type Outcome, readReference, sameAsBash, SPEC_FILES, SpecVms } from "./oils-spec-harness.js";
import { KNOWN_DIFFERENCES, TIMING_DEPENDENT } from "./oils-spec-known-differences.js";

/**
 * The VM's bash against GNU bash 5.2 on the Oils project's spec tests (test/oils-spec-harness.ts): every
 * case whose reference answer bash gave the same way twice must give bash's stdout and exit status,
 * unless it is in KNOWN_DIFFERENCES, where it must differ (a listed case that now passes is to be
 * removed from the list, so the list stays true). `pnpm spec:shell` prints the per-file table.
 */

const reference = readReference();
const cases = allCases();
const runnable = cases.filter((c) => reference.cases[c.key] && !("skip" in reference.cases[c.key]!));
let outcomes = new Map<string, Outcome>();

/** The whole run is one hook: a deadline for a hang of the VM, far above what a loaded machine needs. */
const RUN_ALL_DEADLINE_MS = 1_200_000;

describe("the Oils spec tests: the VM's bash gives bash's answers", () => {
  beforeAll(async () => {
    const vms = await SpecVms.create();
    try {
      outcomes = await vms.runAll(runnable);
    } finally {
      await vms.dispose();
    }
  }, RUN_ALL_DEADLINE_MS);

  afterAll(() => {
    const equal = runnable.filter((c) => outcomes.has(c.key) && sameAsBash(reference.cases[c.key]!, outcomes.get(c.key)!)).length;
    console.log(`Oils spec: ${equal} of ${runnable.length} cases give bash's answer (${cases.length - runnable.length} skipped)`);
  });

  it("has a reference answer for every case, taken from the vendored code, and no stale entry in KNOWN_DIFFERENCES", () => {
    expect(cases.length).toBeGreaterThanOrEqual(1300);
    expect(cases.filter((c) => reference.cases[c.key]?.sha256 !== codeHash(c.code)).map((c) => c.key)).toEqual([]);
    const keys = new Set(runnable.map((c) => c.key));
    expect(Object.keys(KNOWN_DIFFERENCES).filter((k) => !keys.has(k))).toEqual([]);
    expect(Object.keys(TIMING_DEPENDENT).filter((k) => !keys.has(k) || k in KNOWN_DIFFERENCES)).toEqual([]);
  });

  for (const file of SPEC_FILES) {
    describe(file, () => {
      for (const c of cases.filter((x) => x.file === file)) {
        const ref = reference.cases[c.key]!;
        if ("skip" in ref) {
          it.skip(`${c.key} (bash: ${ref.skip})`, () => {});
          continue;
        }
        if (TIMING_DEPENDENT[c.key]) {
          it.skip(`${c.key} (${TIMING_DEPENDENT[c.key]})`, () => {});
          continue;
        }
        it(c.key, () => {
          const o = outcomes.get(c.key)!;
          const same = sameAsBash(ref, o);
          const known = KNOWN_DIFFERENCES[c.key];
          const shown = `bash: ${JSON.stringify(ref.stdout)} status ${ref.status}\nvm:   ${JSON.stringify(o.stdout)} status ${o.status}\n${o.stderr ?? ""}`;
          if (known === undefined) expect(same, `the VM's answer differs from bash's:\n${c.code}${shown}`).toBe(true);
          else expect(same, `listed in KNOWN_DIFFERENCES (${known}) but equal to bash now: fixed, remove it from the list`).toBe(false);
        });
      }
    });
  }
});
