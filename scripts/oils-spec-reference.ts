/**
 * Writes test/oils-spec/bash-reference.json: the host's bash's answer (stdout, exit status) to every case
 * of the vendored Oils spec files (test/oils-spec-harness.ts). Each case runs twice, in a fresh directory
 * each time; a case whose two runs differ, or that does not end within the deadline, is recorded as
 * skipped with the reason. Run it after changing the vendored files: `npx tsx scripts/oils-spec-reference.ts`.
 */
import { spawn, execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  allCases, BIN, CASE_DEADLINE_MS, caseDir, caseEnv, codeHash, HOME, hostHelpers, REFERENCE_FILE, REPO_ROOT, ROOT,
  SPEC_DIR, TESTDATA, type Outcome, type Reference, type ReferenceFile, type SpecCase,
} from "../test/oils-spec-harness.js";

const OILS_COMMIT = "15de8fd779569e6e3a9f5fcbfc00e7df0ebe0380";

/**
 * One run of a case. The second run's bash has another parent (a bash that waits for it), so that a case
 * printing $PPID differs between the runs as it would between any two runs of a script.
 */
function runBash(c: SpecCase, again = false): Promise<Outcome> {
  const dir = caseDir(c);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return new Promise((resolve) => {
    const p = spawn("/bin/bash", again ? ["-c", '/bin/bash "$@"; exit $?', "parent", "-c", c.code, "sh"] : ["-c", c.code, "sh"], { cwd: dir, env: caseEnv(c), stdio: ["ignore", "pipe", "ignore"], detached: true });
    const out: Buffer[] = [];
    p.stdout.on("data", (b: Buffer) => out.push(b));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try { process.kill(-p.pid!, "SIGKILL"); } catch { /* gone */ }
    }, CASE_DEADLINE_MS);
    // As Oils' runner: the outcome is complete when stdout has closed (background jobs included) and bash has exited.
    let code: number | null = null;
    let closed = false;
    const finish = (): void => {
      if (code === null || !closed) return;
      clearTimeout(timer);
      resolve({ stdout: Buffer.concat(out).toString("utf8"), status: timedOut ? -1 : code });
    };
    p.on("exit", (c2, sig) => { code = c2 ?? 128 + (sig ? (({ SIGKILL: 9, SIGTERM: 15, SIGINT: 2, SIGPIPE: 13, SIGABRT: 6, SIGSEGV: 11 }) as Record<string, number>)[sig] ?? 0 : 0); finish(); });
    p.stdout.on("close", () => { closed = true; finish(); });
  });
}

async function main(): Promise<void> {
  const python = execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();
  rmSync(ROOT, { recursive: true, force: true });
  mkdirSync(BIN, { recursive: true });
  mkdirSync(HOME, { recursive: true });
  for (const [name, text] of Object.entries(hostHelpers(python))) {
    writeFileSync(join(BIN, name), text);
    chmodSync(join(BIN, name), 0o755);
  }
  mkdirSync(`${REPO_ROOT}/spec/testdata`, { recursive: true });
  for (const [name, x] of Object.entries(TESTDATA)) {
    copyFileSync(join(SPEC_DIR, "testdata", name), `${REPO_ROOT}/spec/testdata/${name}`);
    chmodSync(`${REPO_ROOT}/spec/testdata/${name}`, x ? 0o755 : 0o644);
  }
  const cases = allCases();
  const refs: Record<string, Reference> = {};
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < cases.length) {
      const c = cases[next++]!;
      const a = await runBash(c);
      const b = await runBash(c, true);
      const sha256 = codeHash(c.code);
      if (a.status === -1 || b.status === -1) refs[c.key] = { sha256, skip: `bash does not end within ${CASE_DEADLINE_MS / 1000} s` };
      else if (a.stdout !== b.stdout) refs[c.key] = { sha256, skip: "two runs of bash print different output" };
      else if (a.status !== b.status) refs[c.key] = { sha256, skip: `two runs of bash exit differently (${a.status}, ${b.status})` };
      else refs[c.key] = { sha256, ...a };
    }
  };
  await Promise.all([0, 1, 2, 3].map(worker));
  const bash = execFileSync("/bin/bash", ["-c", "echo $BASH_VERSION"], { encoding: "utf8" }).trim();
  const ordered = Object.fromEntries(cases.map((c) => [c.key, refs[c.key]!]));
  const file: ReferenceFile = { bash, oils: OILS_COMMIT, cases: ordered };
  writeFileSync(REFERENCE_FILE, `${JSON.stringify(file, null, 1)}\n`);
  const skipped = Object.values(ordered).filter((r) => "skip" in r).length;
  console.log(`${cases.length} cases, ${skipped} skipped: ${REFERENCE_FILE}`);
}

await main();
