import { availableParallelism } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOOL_CASES } from "./tools-cases.js";
import { caseOf, describeDifference, hostCanRun, hostHasGnu, sameOutcome, ToolsDiffer } from "./tools-harness.js";
import { KNOWN_DIFFERENCES } from "./tools-known-differences.js";

/**
 * The VM's tools against GNU bash, coreutils, grep, sed, findutils, diffutils, tar and gzip on this host:
 * every case of test/tools-cases.ts runs in both over the same fixture tree (test/tools-harness.ts), and
 * stdout, stderr and the exit status must be identical, unless the case is in KNOWN_DIFFERENCES, where
 * they must differ (a listed case that now passes is to be removed from the list).
 *
 * The cases run side by side, one per core, each on a differ (a VM and a host directory) of its own while it runs.
 */

const haveGnu = hostHasGnu();
const passed = new Map<string, { passed: number; total: number }>();

describe.skipIf(!haveGnu)("the VM's tools: the same results as GNU", { concurrent: true }, () => {
  const differs: ToolsDiffer[] = [];
  /** The differs no case holds, and the cases waiting for one. */
  const free: ToolsDiffer[] = [];
  const waiting: Array<(d: ToolsDiffer) => void> = [];
  async function withDiffer<T>(use: (d: ToolsDiffer) => Promise<T>): Promise<T> {
    const d = free.pop() ?? (await new Promise<ToolsDiffer>((resolve) => waiting.push(resolve)));
    try {
      return await use(d);
    } finally {
      const next = waiting.shift();
      if (next) next(d);
      else free.push(d);
    }
  }
  beforeAll(async () => {
    for (let i = 0; i < availableParallelism(); i++) differs.push(await ToolsDiffer.create());
    free.push(...differs);
  });
  afterAll(async () => {
    await Promise.all(differs.map((d) => d.dispose()));
    const lines = [...passed].map(([tool, n]) => `${tool}: ${n.passed}/${n.total}`);
    const all = [...passed.values()].reduce((a, n) => ({ passed: a.passed + n.passed, total: a.total + n.total }), { passed: 0, total: 0 });
    console.log(`${lines.join("\n")}\nall: ${all.passed}/${all.total}`);
  });

  it("has at least 320 cases, no case twice, and no stale entry in KNOWN_DIFFERENCES", () => {
    const commands = TOOL_CASES.flatMap((g) => g.cases.map((c) => caseOf(c).cmd));
    expect(commands.length).toBeGreaterThanOrEqual(320);
    expect(commands.filter((c, i) => commands.indexOf(c) !== i)).toEqual([]);
    expect(Object.keys(KNOWN_DIFFERENCES).filter((c) => !commands.includes(c))).toEqual([]);
  });

  for (const group of TOOL_CASES) {
    describe.skipIf(!hostCanRun(group))(group.tool, () => {
      for (const c of group.cases.map(caseOf)) {
        it(c.cmd, async () => {
          const outcome = await withDiffer((d) => d.run(c));
          const same = sameOutcome(outcome);
          const n = passed.get(group.tool) ?? { passed: 0, total: 0 };
          passed.set(group.tool, { passed: n.passed + (same ? 1 : 0), total: n.total + 1 });
          const known = KNOWN_DIFFERENCES[c.cmd];
          if (known === undefined) expect(same, `VM (-) and host (+) differ:\n${describeDifference(outcome)}`).toBe(true);
          else expect(same, `listed in KNOWN_DIFFERENCES (${known}) but equal to the host now: fixed, remove it from the list`).toBe(false);
        });
      }
    });
  }
});
