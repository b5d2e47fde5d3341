// What the node differential suites (node.differential.test.ts, web-globals.test.ts) share: running a case
// with the host's `node`, and the deadlines of test/deadlines.ts.
import { spawn } from "node:child_process";
import type { ExecResult } from "../../src/index.js";
import { RUN_DEADLINE_MS } from "../deadlines.js";

export { CASE_DEADLINE_MS, RUN_DEADLINE_MS, SETUP_DEADLINE_MS } from "../deadlines.js";

/** `node ARGS` on the host in `cwd`, with the VM's kind of environment (plus `env`); killed after RUN_DEADLINE_MS (a hang). */
export function runHostNode(args: readonly string[], cwd: string, opts: { env?: Record<string, string>; stdin?: string } = {}): Promise<ExecResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...args], {
      cwd,
      env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: "/home/user", LANG: "C.UTF-8", ...(opts.env ?? {}) },
      stdio: [opts.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), RUN_DEADLINE_MS);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ exitCode: code ?? (signal ? 128 + (signal === "SIGTERM" ? 15 : 9) : -1), stdout, stderr });
    });
    if (opts.stdin !== undefined) child.stdin?.end(opts.stdin);
  });
}
