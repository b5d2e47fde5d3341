import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AgentOs } from "../src/index.js";
import { RUN_DEADLINE_MS } from "./deadlines.js";

export interface Outcome {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/**
 * A VM and a host directory with the same files at the same absolute path, for differential tests of small
 * tools: `run` gives a command line's outcome on the host (its /bin/sh) and in the VM (the VM's sh), both
 * in that directory with the same extra environment.
 */
export class HostTwin {
  private constructor(
    readonly vm: AgentOs,
    readonly dir: string,
  ) {}

  static async create(files: Record<string, string | Uint8Array>): Promise<HostTwin> {
    const dir = mkdtempSync(join(tmpdir(), "agentos-twin-"));
    const vm = await AgentOs.create();
    await vm.mkdir(dir, { recursive: true });
    for (const [name, data] of Object.entries(files)) {
      mkdirSync(join(dir, name, ".."), { recursive: true });
      writeFileSync(join(dir, name), data);
      await vm.mkdir(join(dir, name, ".."), { recursive: true });
      await vm.writeFile(join(dir, name), data);
    }
    return new HostTwin(vm, dir);
  }

  onHost(command: string, env: Record<string, string> = {}): Outcome {
    const r = spawnSync("sh", ["-c", command], { cwd: this.dir, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", LANG: "C.UTF-8", ...env }, encoding: "utf8", timeout: RUN_DEADLINE_MS });
    return { stdout: r.stdout, stderr: r.stderr, exitCode: r.status ?? 128 };
  }

  async inVm(command: string, env: Record<string, string> = {}): Promise<Outcome> {
    const r = await this.vm.exec(command, { cwd: this.dir, env, timeout: RUN_DEADLINE_MS });
    return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
  }

  async dispose(): Promise<void> {
    await this.vm.dispose();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Whether the host has `tool` (found by its shell), for a describe.skipIf with the reason in its title. */
export const hostHas = (tool: string): boolean => spawnSync("sh", ["-c", `command -v ${tool}`]).status === 0;

/**
 * Installs the Debian package `pkg` when the host lacks `tool` (a differential test's reference), as root with
 * apt-get, in a test's set-up; answers whether the host has the tool then. Without root or apt-get the tool
 * stays missing and the tests that need it are skipped, their titles saying why.
 */
export function installReference(tool: string, pkg: string): boolean {
  if (hostHas(tool)) return true;
  if (process.getuid?.() !== 0 || !hostHas("apt-get")) return false;
  const install = (): number | null =>
    spawnSync("apt-get", ["install", "-y", "-q", "--no-install-recommends", pkg], { stdio: "ignore", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } }).status;
  if (install() !== 0) {
    spawnSync("apt-get", ["update", "-q"], { stdio: "ignore" });
    install();
  }
  return hostHas(tool);
}
