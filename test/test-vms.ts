// The VMs the running test owns (helpers.ts createVm). Apart from helpers.ts, and without loading the package,
// so that test/setup.ts can release them after each test while a test file still sets the environment the
// package reads as it loads (AGENTOS_TRACE) before it imports the package.
import { expect } from "vitest";
import type { AgentOs } from "../src/index.js";

const vms: AgentOs[] = [];

/** `vm` is the running test's: released after it (test/setup.ts). */
export function ownedByTest(vm: AgentOs): void {
  vms.push(vm);
}

/** Checks and disposes the VMs of the test that just ended. */
export function releaseTestVms(): Promise<void> {
  return release(vms.splice(0));
}

/** After a test: no process may be left in `owned`, and each is disposed. */
export async function release(owned: AgentOs[]): Promise<void> {
  try {
    for (const vm of owned) {
      let left: ReturnType<AgentOs["allProcesses"]> = [];
      try {
        left = vm.allProcesses();
      } catch {
        continue; // disposed by the test itself
      }
      expect(left, "processes left in the VM after the test").toEqual([]);
    }
  } finally {
    await Promise.all(owned.map((vm) => vm.dispose()));
  }
}
