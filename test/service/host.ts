import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { expect } from "vitest";
import type { AgentOs, ExecResult } from "../../src/index.js";

// Runs a command on this machine's tools, for comparison with the VM (as test/service/stdio.test.ts does):
// bash in a fresh directory holding the same files as the VM's /workspace, LC_ALL=C, stdin /dev/null.

/** Whether `command` on the host prints `marker` (e.g. `sed --version` and "GNU sed) 4.9"). */
export function hostHas(command: string, marker: string): boolean {
  const r = spawnSync("bash", ["-c", command], { encoding: "utf8" });
  return r.status === 0 && `${r.stdout}${r.stderr}`.includes(marker);
}

/** `command` run by bash on the host in a directory holding `files` (keyed by their /workspace/ paths). */
export function onHost(files: Record<string, string>, command: string): ExecResult {
  const dir = mkdtempSync(join(tmpdir(), "agentos-host-"));
  try {
    for (const [path, content] of Object.entries(files)) {
      const file = join(dir, path.replace(/^\/workspace\//, ""));
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, content);
    }
    const r = spawnSync("bash", ["--norc", "--noprofile", "-c", `cd "$1" && ${command}`, "bash", dir], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", LC_ALL: "C" },
      encoding: "utf8",
    });
    return { exitCode: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs `command` in /workspace of the VM, expects `expected`, and when `host` expects the host to print the same. */
export async function expectLikeHost(
  vm: AgentOs,
  files: Record<string, string>,
  host: boolean,
  command: string,
  expected: ExecResult,
): Promise<void> {
  expect(await vm.exec(`cd /workspace && ${command}`)).toEqual(expected);
  if (host) expect(onHost(files, command), `host: ${command}`).toEqual(expected);
}
