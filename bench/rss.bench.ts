// Resident memory of a host process with 1 and then 10 VMs, each having run a command (so each has its
// router shell). Run in its own process by `pnpm bench`; prints JSON.
import { AgentOs } from "../src/index.js";

const vms: AgentOs[] = [];
const addVm = async (): Promise<void> => {
  const vm = await AgentOs.create();
  const r = await vm.exec("echo ready");
  if (r.stdout !== "ready\n") throw new Error(`exec: ${JSON.stringify(r)}`);
  vms.push(vm);
};
const rssMiB = (): number => process.memoryUsage().rss / 2 ** 20;

const before = rssMiB();
await addVm();
const one = rssMiB();
for (let i = 0; i < 9; i++) await addVm();
const ten = rssMiB();
await Promise.all(vms.map((vm) => vm.dispose()));
process.stdout.write(JSON.stringify({ before, one, ten }));
