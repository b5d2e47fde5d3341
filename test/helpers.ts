import type { TestContext } from "vitest";
import { AgentOs, type AgentOsOptions, type ExecResult } from "../src/index.js";
import { ownedByTest, release } from "./test-vms.js";

/**
 * A VM owned by the current test: after the test, no process may be left in it, and it is disposed. A test
 * that runs concurrently with others passes its context, so that its VMs are its own to check.
 */
export async function createVm(options?: AgentOsOptions, test?: TestContext): Promise<AgentOs> {
  const vm = await AgentOs.create(options);
  if (test) test.onTestFinished(() => release([vm]));
  else ownedByTest(vm);
  return vm;
}

/** Writes a tree of files given as { path: content }. */
export async function writeTree(vm: AgentOs, files: Record<string, string | Uint8Array>): Promise<void> {
  const results = await vm.writeFiles(Object.entries(files).map(([path, content]) => ({ path, content })));
  for (const r of results) if (!r.success) throw new Error(`${r.path}: ${r.error}`);
}

/** The exact result of a command, for comparison with toEqual. */
export function result(stdout: string, exitCode = 0, stderr = ""): ExecResult {
  return { exitCode, stdout, stderr };
}
