/**
 * An MCP server over a VM, built with the official SDK: `import { createMcpServer } from "agentos/mcp"`, then
 * `await createMcpServer(vm).connect(transport)`. `mcp-stdio.ts` is a runnable stdio server. Needs the
 * optional peer dependencies `@modelcontextprotocol/sdk` and `zod`.
 */
import { posix } from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { AgentOs } from "../agent-os.js";
import { adapterSettings, type AdapterOptions } from "./settings.js";
import { truncateMiddle } from "./truncate.js";

export interface McpServerOptions extends AdapterOptions {
  /** The server's name and version as the client sees them (default "agentos", "0.1.0"). */
  name?: string;
  version?: string;
}

const OPTIONS = ["cwd", "outputLimit", "timeout", "name", "version"];

const text = (t: string, isError = false): CallToolResult => ({ content: [{ type: "text", text: t }], ...(isError ? { isError } : {}) });

/** A tool's work; a thrown error (ENOENT, EISDIR, …) becomes a result with `isError: true` and its message. */
async function guarded(work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (e) {
    return text(e instanceof Error ? e.message : String(e), true);
  }
}

/**
 * An McpServer with the tools
 * - `exec` `{ command, cwd? }`: runs `sh -c command`; text `exit code N` then `--- stdout ---`/`--- stderr ---`
 *   sections, structured `{ exitCode, stdout, stderr }`; `isError` when the exit code is not 0;
 * - `read` `{ path }`: the file as UTF-8 text;
 * - `write` `{ path, content }`: creates or replaces the file, creating missing directories;
 * - `list` `{ path, recursive? }`: one entry a line, directories ending in `/`, symlinks in `@`.
 * Long texts keep their head and tail around a `[… N bytes cut …]` marker. Failures are `isError` results.
 */
export function createMcpServer(vm: AgentOs, options: McpServerOptions = {}): McpServer {
  const { cwd, limit, timeout, resolve } = adapterSettings("createMcpServer", options, OPTIONS);
  const server = new McpServer({ name: options.name ?? "agentos", version: options.version ?? "0.1.0" });

  server.registerTool(
    "exec",
    {
      title: "Run a shell command",
      description:
        "Run a bash command line in the sandbox VM (coreutils, grep, sed, awk, find, jq, rg, tar, …). Each call is a " +
        `fresh shell starting in ${cwd}. Returns the exit code, stdout and stderr; long output keeps its start and end.`,
      inputSchema: {
        command: z.string().describe("The command line to run"),
        cwd: z.string().optional().describe(`Working directory (default ${cwd})`),
      },
      outputSchema: { exitCode: z.number().int(), stdout: z.string(), stderr: z.string() },
    },
    ({ command, cwd: dir }, extra) =>
      guarded(async () => {
        const r = await vm.exec(command, { cwd: resolve(dir ?? cwd), timeout, signal: extra.signal });
        const out = { exitCode: r.exitCode, stdout: truncateMiddle(r.stdout, limit), stderr: truncateMiddle(r.stderr, limit) };
        let t = `exit code ${out.exitCode}\n`;
        if (out.stdout) t += `--- stdout ---\n${out.stdout}`;
        if (out.stderr) t += `${out.stdout && !out.stdout.endsWith("\n") ? "\n" : ""}--- stderr ---\n${out.stderr}`;
        return { ...text(t, out.exitCode !== 0), structuredContent: out };
      }),
  );

  server.registerTool(
    "read",
    {
      title: "Read a file",
      description: `Read a file of the sandbox VM as UTF-8 text (relative paths from ${cwd}). Long files keep their start and end.`,
      inputSchema: { path: z.string().describe("Path of the file") },
      annotations: { readOnlyHint: true },
    },
    ({ path }) => guarded(async () => text(truncateMiddle(await vm.readFile(resolve(path), "utf8"), limit))),
  );

  server.registerTool(
    "write",
    {
      title: "Write a file",
      description: `Create or replace a file of the sandbox VM with the given text, creating missing directories (relative paths from ${cwd}).`,
      inputSchema: { path: z.string().describe("Path of the file"), content: z.string().describe("The whole new content") },
    },
    ({ path, content }) =>
      guarded(async () => {
        const p = resolve(path);
        await vm.mkdir(posix.dirname(p), { recursive: true });
        await vm.writeFile(p, content);
        return text(`wrote ${Buffer.byteLength(content)} bytes to ${p}`);
      }),
  );

  server.registerTool(
    "list",
    {
      title: "List a directory",
      description:
        `List a directory of the sandbox VM (relative paths from ${cwd}): one entry a line, directories ending in "/", ` +
        `symlinks in "@"; with recursive, every entry below it as a path relative to it.`,
      inputSchema: {
        path: z.string().describe("Path of the directory"),
        recursive: z.boolean().optional().describe("List everything below the directory (default false)"),
      },
      annotations: { readOnlyHint: true },
    },
    ({ path, recursive }) =>
      guarded(async () => {
        const p = resolve(path);
        const mark = (type: string): string => (type === "directory" ? "/" : type === "symlink" ? "@" : "");
        const lines = recursive
          ? (await vm.readdirRecursive(p)).map((e) => `${posix.relative(p, e.path)}${mark(e.type)}`)
          : (await vm.readdir(p, { withFileTypes: true })).map((e) => `${e.name}${mark(e.type)}`);
        return text(truncateMiddle(lines.map((l) => `${l}\n`).join(""), limit));
      }),
  );

  return server;
}
