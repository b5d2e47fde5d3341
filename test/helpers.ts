import { afterEach, expect } from "vitest";
import { AgentOs, type AgentOsOptions, type ExecResult } from "../src/index.js";

const vms: AgentOs[] = [];

/** A VM owned by the current test: after the test, no process may be left in it, and it is disposed. */
export async function createVm(options?: AgentOsOptions): Promise<AgentOs> {
  const vm = await AgentOs.create(options);
  vms.push(vm);
  return vm;
}

afterEach(async () => {
  const owned = vms.splice(0);
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
});

/** Writes a tree of files given as { path: content }. */
export async function writeTree(vm: AgentOs, files: Record<string, string | Uint8Array>): Promise<void> {
  const results = await vm.writeFiles(Object.entries(files).map(([path, content]) => ({ path, content })));
  for (const r of results) if (!r.success) throw new Error(`${r.path}: ${r.error}`);
}

/** The exact result of a command, for comparison with toEqual. */
export function result(stdout: string, exitCode = 0, stderr = ""): ExecResult {
  return { exitCode, stdout, stderr };
}
