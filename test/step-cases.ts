import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect } from "vitest";
import type { HostTwin, Outcome } from "./host-twin.js";

/** Files written in a case's own directory on both sides, then command lines run one by one in it. */
export interface StepCase {
  files: Record<string, string | Uint8Array>;
  steps: string[];
  /** The listing compared last (LIST_FILES unless given). */
  list?: string;
}

/**
 * The case directory's files with their modes and the sha256 of their contents, as `find | sort`, `stat` and
 * `sha256sum` give them on each side (compressed files are binary: their digest, not their bytes).
 */
export const LIST_FILES = "find . -type f | sort | while read f; do echo \"== $f $(stat -c %A \"$f\") $(sha256sum < \"$f\")\"; done";

/**
 * Runs `c` in a directory of its own under `twin.dir`, at the same absolute path in the VM and on the host:
 * every step's stdout, stderr and exit status must be identical (the directory's path replaced by $DIR), and
 * so must the files afterwards (LIST_FILES, or the case's own listing).
 */
export async function runStepCase(twin: HostTwin, name: string, c: StepCase): Promise<void> {
  const dir = join(twin.dir, name.replace(/[^a-z0-9]+/gi, "-"));
  mkdirSync(dir, { recursive: true });
  await twin.vm.mkdir(dir, { recursive: true });
  for (const [path, data] of Object.entries(c.files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), data);
    await twin.vm.mkdir(dirname(join(dir, path)), { recursive: true });
    await twin.vm.writeFile(join(dir, path), data);
  }
  const norm = (o: Outcome): Outcome => ({ stdout: o.stdout.replaceAll(dir, "$DIR"), stderr: o.stderr.replaceAll(dir, "$DIR"), exitCode: o.exitCode });
  for (const [i, step] of [...c.steps, c.list ?? LIST_FILES].entries()) {
    const command = `cd '${dir}' && ${step}`;
    expect(norm(await twin.inVm(command)), `step ${i}: ${step}`).toEqual(norm(twin.onHost(command)));
  }
}

/** Text that compresses, but not to nothing: numbered lines with a pseudo-random word each (a fixed LCG). */
export function sampleText(lines: number, seed = 1): string {
  const words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"];
  let x = seed;
  let out = "";
  for (let i = 1; i <= lines; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += `${i} ${words[x % words.length]} ${x.toString(36)}\n`;
  }
  return out;
}
