/**
 * Vercel AI SDK tools over a VM: `import { createTools } from "agentos-vm/ai-sdk"`, then
 * `generateText({ model, tools: await createTools(vm), … })`. Needs the optional peer dependencies `ai` (6 or 7)
 * and `zod`; uses only what both majors of `ai` export (`tool`).
 */
import { posix } from "node:path";
import { tool, type Tool } from "ai";
import { z } from "zod";
import type { AgentOs } from "../agent-os.js";
import { describeVm } from "./describe.js";
import { runCommand } from "./run-command.js";
import { ADAPTER_OPTIONS, adapterSettings, type AdapterOptions } from "./settings.js";
import { truncateMiddle } from "./truncate.js";

export { CommandRefusedError, type BeforeCommandDecision, type CommandCall, type CommandHooks, type CommandOutcome } from "./run-command.js";

export type AgentOsToolsOptions = AdapterOptions;

export interface BashInput {
  command: string;
  cwd?: string | undefined;
}
export interface BashOutput {
  exitCode: number;
  stdout: string;
  stderr: string;
}
export interface ReadFileInput {
  path: string;
}
export interface ReadFileOutput {
  path: string;
  content: string;
}
export interface WriteFileInput {
  path: string;
  content: string;
}
export interface WriteFileOutput {
  path: string;
  bytesWritten: number;
}

/** What the SDK passes a tool's `execute` besides the input (tool call id, messages, abort signal, …). */
export type ToolCallOptions = Parameters<NonNullable<Tool["execute"]>>[1];

/** A tool that the SDK (or a test) can run: `execute` is always there and resolves with the output. */
export type ExecutableAgentOsTool<I, O> = { execute: (input: I, options: ToolCallOptions) => Promise<O> } & Tool<I, O>;

/** A ToolSet for `generateText({ tools })` / `streamText({ tools })`. */
export type AgentOsTools = {
  bash: ExecutableAgentOsTool<BashInput, BashOutput>;
  readFile: ExecutableAgentOsTool<ReadFileInput, ReadFileOutput>;
  writeFile: ExecutableAgentOsTool<WriteFileInput, WriteFileOutput>;
};

/**
 * The tools `bash` (`{ command, cwd? }` → `{ exitCode, stdout, stderr }`), `readFile` (`{ path }` →
 * `{ path, content }`) and `writeFile` (`{ path, content }` → `{ path, bytesWritten }`, parents created).
 * The description of `bash` is read from the VM now: the starting directory and what it holds, the commands.
 * Long stdout, stderr and file contents keep their head and tail around a `[… N bytes cut …]` marker. A failed
 * command is a result (its exit code); a refused command (`onBeforeCommand`) and a failed file operation throw,
 * which the SDK hands the model as a tool error.
 */
export async function createTools(vm: AgentOs, options: AgentOsToolsOptions = {}): Promise<AgentOsTools> {
  const settings = adapterSettings("createTools", options, ADAPTER_OPTIONS);
  const { cwd, limit, resolve } = settings;

  const bash = tool({
    description: await describeVm(vm, cwd, limit),
    inputSchema: z.object({
      command: z.string().describe("The bash command line to run"),
      cwd: z.string().optional().describe(`Working directory (default ${cwd})`),
    }),
    execute: ({ command, cwd: dir }, { abortSignal }): Promise<BashOutput> =>
      runCommand(vm, settings, { command, cwd: resolve(dir ?? cwd) }, abortSignal),
  });

  const readFile = tool({
    description: `Read a text file of the sandbox VM (relative paths are resolved against ${cwd}). Long files keep their start and end.`,
    inputSchema: z.object({ path: z.string().describe("Path of the file") }),
    execute: async ({ path }): Promise<ReadFileOutput> => {
      const p = resolve(path);
      return { path: p, content: truncateMiddle(await vm.readFile(p, "utf8"), limit) };
    },
  });

  const writeFile = tool({
    description: `Create or replace a file of the sandbox VM, creating missing directories (relative paths are resolved against ${cwd}).`,
    inputSchema: z.object({
      path: z.string().describe("Path of the file"),
      content: z.string().describe("The whole new content"),
    }),
    execute: async ({ path, content }): Promise<WriteFileOutput> => {
      const p = resolve(path);
      await vm.mkdir(posix.dirname(p), { recursive: true });
      await vm.writeFile(p, content);
      return { path: p, bytesWritten: Buffer.byteLength(content) };
    },
  });

  // tool() types execute as possibly streaming; these resolve with one output.
  return { bash, readFile, writeFile } as AgentOsTools;
}
