// Public projects' own test suites (test/node/real-projects.ts) in the guest `node` and in the host's `node`: the
// same command over the same installed tree at the same path, compared by exit code, the runner's pass/fail
// counts and its whole output (timings set aside). The projects run one after the other, the host's run then the
// VM's, so that the table printed at the end (`pnpm test:real-projects`) gives comparable wall times; those are
// reported, never judged.
import { afterAll, beforeAll, describe, it } from "vitest";
import { AgentOs } from "../../src/index.js";
import { RUN_DEADLINE_MS } from "../deadlines.js";
import { counts, envFor, inCopy, install, normalise, PROJECTS, runOnHost } from "./real-projects.js";

const installed = new Map<string, string>();

interface Row { name: string; host: string; vm: string; ratio: string }
const rows: Row[] = [];

beforeAll(async () => {
  // One after the other: npm ci is heavy on a shared 2-core machine.
  for (const f of new Set(PROJECTS.map((p) => p.fixture))) installed.set(f, await install(f));
}, 30 * 60_000);

afterAll(() => {
  const head = ["project", "host", "VM", "VM/host time"];
  const cells = [head, ...rows.map((r) => [r.name, r.host, r.vm, r.ratio])];
  const widths = head.map((_, i) => Math.max(...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => `| ${c.map((x, i) => x.padEnd(widths[i]!)).join(" | ")} |`;
  console.log([`Real projects' test suites, host node ${process.version} and the guest node:`, ...cells.map(line)].join("\n"));
});

const summary = (r: { exitCode: number; stdout: string; stderr: string }, ms: number): string => {
  const c = counts(r.stdout + r.stderr);
  return `${c ? `${c.pass} pass ${c.fail} fail` : "no counts"}, exit ${r.exitCode}, ${(ms / 1000).toFixed(1)} s`;
};

describe("real projects' test suites, guest node against the host's node", () => {
  for (const p of PROJECTS) {
    it(p.name, async ({ expect }) => {
      const tree = installed.get(p.fixture)!;
      await inCopy(tree, async (root) => {
        const host = await runOnHost(p, root);
        const vm = await AgentOs.create({ mounts: [{ path: root, hostDir: tree, overlay: true }] });
        let guest;
        const started = performance.now();
        try {
          guest = await vm.exec(`cd ${root}/node_modules/${p.package} && ${p.command}`, { env: envFor(root), timeout: RUN_DEADLINE_MS });
        } finally {
          await vm.dispose();
        }
        const ms = performance.now() - started;
        rows.push({ name: p.name, host: summary(host, host.ms), vm: summary(guest, ms), ratio: `${(ms / host.ms).toFixed(1)}×` });
        // The host's run is the reference: a suite that passes there, with counts a runner printed.
        expect(host.exitCode, host.stderr).toBe(0);
        const hostCounts = counts(host.stdout + host.stderr);
        if (p.uncounted) expect(host.stdout).not.toBe("");
        else expect(hostCounts?.pass).toBeGreaterThan(0);
        expect(hostCounts?.fail ?? 0).toBe(0);
        expect({ exitCode: guest.exitCode, counts: counts(guest.stdout + guest.stderr) }).toEqual({ exitCode: host.exitCode, counts: hostCounts });
        expect(normalise(guest.stdout)).toBe(normalise(host.stdout));
      });
    });
  }
});
