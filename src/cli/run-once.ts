/** `agentos -c 'cmd'`: one command in a fresh VM; exits with its status. */
import { fstatSync } from "node:fs";
import { AgentOs } from "../agent-os.js";
import type { CliOptions } from "./args.js";
import { TerminalOutput } from "./output.js";

export async function runOnce(options: CliOptions & { command: string }): Promise<number> {
  const stdin = await pipedStdin();
  const vm = await AgentOs.create({ mounts: options.mounts, env: options.env, limits: options.limits });
  const abort = new AbortController();
  const onSigint = (): void => abort.abort();
  process.on("SIGINT", onSigint);
  try {
    const out = options.json ? undefined : new TerminalOutput();
    const result = await vm.exec(options.command, {
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
      ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
      ...(stdin !== undefined ? { stdin } : {}),
      ...(out ? { onStdout: out.onStdout, onStderr: out.onStderr } : {}),
      signal: abort.signal,
    });
    if (out) out.finish(result);
    else process.stdout.write(`${JSON.stringify(result)}\n`);
    return result.exitCode;
  } finally {
    process.off("SIGINT", onSigint);
    await vm.dispose();
  }
}

/**
 * The CLI's stdin when a shell connected a pipe or a file to it (`echo hi | agentos -c 'cat'`, `< file`):
 * read to its end and given to the command. A terminal, or a socket as Node's child_process makes (which
 * a caller may never close), is not read: the command's stdin is then /dev/null.
 */
async function pipedStdin(): Promise<Uint8Array | undefined> {
  let stat;
  try {
    stat = fstatSync(0);
  } catch {
    return undefined;
  }
  if (!stat.isFIFO() && !stat.isFile()) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
