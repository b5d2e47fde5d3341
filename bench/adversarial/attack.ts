/**
 * Runs one attack of attacks.ts in this process (started by run.ts) with the default limits and prints
 * one JSON line: how it ended, the host's peak RSS over its RSS before the attack, the longest stall of
 * the event loop, and whether the VM still answers and kept a file written before.
 */
import { readFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { AgentOs } from "../../src/index.js";
import { ATTACKS } from "./attacks.js";

const attack = ATTACKS[Number(process.argv[2])]!;
const vmRss = (field: string): number =>
  Number(/\d+/.exec(readFileSync("/proc/self/status", "utf8").split("\n").find((l) => l.startsWith(field)) ?? "0")?.[0]) / 1024;

const vm = await AgentOs.create();
await vm.exec("true");
await vm.writeFile("/tmp/before.txt", "precious\n");
// Peak RSS is reset so that VmHWM measures the attack, not the start-up.
try {
  const { writeFileSync } = await import("node:fs");
  writeFileSync("/proc/self/clear_refs", "5");
} catch {
  // not permitted: the peak then includes start-up, which only overstates it
}
const rssBefore = vmRss("VmRSS:");
const stalls = monitorEventLoopDelay({ resolution: 10 });
stalls.enable();
const result = await attack.run(vm);
stalls.disable();
const peak = vmRss("VmHWM:");
let alive = false;
let intact = false;
try {
  alive = (await vm.exec("echo alive", { timeout: 10_000 })).stdout === "alive\n";
  intact = new TextDecoder().decode(await vm.readFile("/tmp/before.txt")) === "precious\n";
} catch {
  // reported as not alive / not intact
}
const faults = vm.stats().faults;
await vm.dispose();
process.stdout.write(
  `${JSON.stringify({ ...result, removesFiles: attack.removesFiles === true, rssBeforeMiB: rssBefore, peakMiB: peak, stallMs: stalls.max / 1e6, alive, intact, faults })}\n`,
);
process.exit(0);
