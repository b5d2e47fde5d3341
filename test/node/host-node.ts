// What the node differential suites (node.differential.test.ts, web-globals.test.ts) share: running a case
// with the host's `node`, and running many cases a few at a time.
import { spawn } from "node:child_process";
import type { ExecResult } from "../../src/index.js";

/** `node ARGS` on the host in `cwd`, with the VM's kind of environment (plus `env`); killed after 10 s. */
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
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ exitCode: code ?? (signal ? 128 + (signal === "SIGTERM" ? 15 : 9) : -1), stdout, stderr });
    });
    if (opts.stdin !== undefined) child.stdin?.end(opts.stdin);
  });
}

/** Runs `f` over `items`, at most `limit` at a time. */
export async function inParallel<T>(items: readonly T[], limit: number, f: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await f(items[next++]!);
    }),
  );
}
