// Host memory held per VM: creates N VMs with the default image, runs `echo hi | cat` in each, forces a
// collection and prints the host's RSS and V8 heap before and after, in all and per VM.
// `node --expose-gc --import tsx bench/vm-memory.ts [N]`
import { AgentOs } from "../src/index.js";
import { processPool } from "../src/pool/process-pool.js";

const n = Number(process.argv[2] ?? 100);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with node --expose-gc");
const MiB = 2 ** 20;
const sample = (): { rss: number; heap: number; external: number; arrayBuffers: number } => {
  gc();
  gc();
  const m = process.memoryUsage();
  return { rss: m.rss / MiB, heap: m.heapUsed / MiB, external: m.external / MiB, arrayBuffers: m.arrayBuffers / MiB };
};

const before = sample();
const vms: AgentOs[] = [];
for (let i = 0; i < n; i++) {
  const vm = await AgentOs.create();
  const r = await vm.exec("echo hi | cat");
  if (r.stdout !== "hi\n") throw new Error(`exec: ${JSON.stringify(r)}`);
  vms.push(vm);
}
const after = sample();
const per = (k: keyof typeof after): string => ((after[k] - before[k]) / n).toFixed(2);
console.log(
  JSON.stringify({
    vms: n,
    before: Object.fromEntries(Object.entries(before).map(([k, v]) => [k, +v.toFixed(1)])),
    after: Object.fromEntries(Object.entries(after).map(([k, v]) => [k, +v.toFixed(1)])),
    workers: processPool().threads.length,
    perVmMiB: { rss: per("rss"), heap: per("heap"), external: per("external"), arrayBuffers: per("arrayBuffers") },
  }),
);
await Promise.all(vms.map((vm) => vm.dispose()));
