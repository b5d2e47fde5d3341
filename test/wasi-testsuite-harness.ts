import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { AgentOs } from "../src/index.js";

/** The vendored prebuilt preview1 tests (test/wasi-testsuite/README.md). */
export const SUITE_DIR = join(import.meta.dirname, "wasi-testsuite");
export const SUITES = ["assemblyscript", "c", "rust"] as const;

/** A test's specification: the suite's legacy JSON (doc/specification.md), its defaults filled in. */
export interface WasiTest {
  /** `suite/name`, e.g. `rust/fd_readdir`. */
  id: string;
  wasm: string;
  args: string[];
  env: Record<string, string>;
  /** Host directory whose contents the test sees at its preopen, "/". */
  root: string | undefined;
  exitCode: number;
  /** Checked only when the specification gives it, as the suite's runner does. */
  stdout: string | undefined;
  stderr: string | undefined;
}

export function wasiTests(): WasiTest[] {
  const tests: WasiTest[] = [];
  for (const suite of SUITES) {
    const dir = join(SUITE_DIR, suite);
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".wasm")).sort()) {
      const name = file.slice(0, -5);
      const specFile = join(dir, `${name}.json`);
      const spec = existsSync(specFile) ? (JSON.parse(readFileSync(specFile, "utf8")) as Record<string, unknown>) : {};
      if ("operations" in spec) throw new Error(`${suite}/${name}: operation-based specifications are not supported by this harness`);
      tests.push({
        id: `${suite}/${name}`,
        wasm: join(dir, file),
        args: (spec.args as string[] | undefined) ?? [],
        env: (spec.env as Record<string, string> | undefined) ?? {},
        root: typeof spec.root === "string" ? join(dir, spec.root) : undefined,
        exitCode: (spec.exit_code as number | undefined) ?? 0,
        stdout: spec.stdout as string | undefined,
        stderr: spec.stderr as string | undefined,
      });
    }
  }
  return tests;
}

/** The files of a host directory, as AgentOs `files` under `at`, and its directories (an empty one has no file to make it). */
function treeOf(hostDir: string, at: string, files: Record<string, Uint8Array>, dirs: string[]): void {
  for (const name of readdirSync(hostDir)) {
    if (name.endsWith(".cleanup")) continue;
    const host = join(hostDir, name);
    const path = `${at}/${name}`;
    if (statSync(host).isDirectory()) {
      dirs.push(path);
      treeOf(host, path, files, dirs);
    } else files[path] = readFileSync(host);
  }
}

export interface WasiRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs one test as the suite's runner does: its root's files in the VM's "/" (the one preopen every process
 * gets, named "/"), exactly its environment (through `env -i`), its arguments, stdin closed.
 */
export async function runWasiTest(t: WasiTest, timeoutMs: number): Promise<WasiRun> {
  const files: Record<string, Uint8Array> = {};
  const dirs: string[] = [];
  if (t.root) treeOf(t.root, "", files, dirs);
  const name = t.id.split("/")[1]!;
  const vm = await AgentOs.create({ commands: { [name]: { wasm: t.wasm } }, files });
  try {
    for (const d of dirs) await vm.mkdir(d, { recursive: true });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    const envArgs = Object.entries(t.env).map(([k, v]) => `${k}=${v}`);
    const child = vm.spawn("env", ["-i", ...envArgs, name, ...t.args], {
      cwd: "/",
      onStdout: (c) => stdout.push(Buffer.from(c)),
      onStderr: (c) => stderr.push(Buffer.from(c)),
    });
    child.closeStdin();
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    const exitCode = await child.wait().finally(() => clearTimeout(timer));
    return { exitCode, stdout: Buffer.concat(stdout).toString(), stderr: Buffer.concat(stderr).toString() };
  } finally {
    await vm.dispose();
  }
}

/** Whether a run is what the test's specification expects. */
export function passes(t: WasiTest, r: WasiRun): boolean {
  return r.exitCode === t.exitCode && (t.stdout === undefined || r.stdout === t.stdout) && (t.stderr === undefined || r.stderr === t.stderr);
}
