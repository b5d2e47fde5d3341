import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WASI } from "node:wasi";
import { AgentOs, type MountOptions } from "../src/index.js";

export interface ProbeRun {
  exitCode: number;
  stdout: string;
}

/** Runs a WASI command under Node's own WASI (uvwasi) with an empty host directory preopened as "/", its stdout to a file. */
export async function runUnderNode(wasm: string, args: string[]): Promise<ProbeRun> {
  const dir = mkdtempSync(join(tmpdir(), "wasi-probe-"));
  const outPath = join(dir, ".stdout");
  const out = openSync(outPath, "w");
  try {
    const wasi = new WASI({ version: "preview1", args: ["probe", ...args], env: {}, preopens: { "/": dir }, stdout: out, returnOnExit: true });
    const instance = await WebAssembly.instantiate(new WebAssembly.Module(readFileSync(wasm)), wasi.getImportObject() as WebAssembly.Imports);
    const exitCode = wasi.start(instance);
    closeSync(out);
    return { exitCode, stdout: readFileSync(outPath, "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs the same command in a fresh VM, in "/" (the VM's one preopen), its environment empty as under Node. */
export async function runInVm(wasm: string, args: string[], mounts: MountOptions[] = []): Promise<ProbeRun> {
  const vm = await AgentOs.create({ commands: { probe: { wasm } }, mounts });
  try {
    const r = await vm.exec(`env -i probe ${args.join(" ")}`, { cwd: "/" });
    return { exitCode: r.exitCode, stdout: r.stdout + r.stderr };
  } finally {
    await vm.dispose();
  }
}
