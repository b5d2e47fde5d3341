/**
 * An MCP server over a VM, built with the official SDK: `import { createMcpServer } from "agentos-vm/mcp"`, then
 * `(await createMcpServer(vm)).connect(transport)`. `agentos mcp` (src/cli/mcp.ts) serves it on stdio. Needs the
 * optional peer dependencies `@modelcontextprotocol/sdk` and `zod`.
 */
import { posix } from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { AgentOs } from "../agent-os.js";
import { packageVersion } from "../cli/version.js";
import { shellQuote } from "../exec/shell-quote.js";
import { base64Capacity, decodeBase64 } from "./base64.js";
import { describeVm } from "./describe.js";
import { runCommand } from "./run-command.js";
import { ADAPTER_OPTIONS, adapterSettings, type AdapterOptions } from "./settings.js";
import { truncateMiddle } from "./truncate.js";

export { CommandRefusedError, type BeforeCommandDecision, type CommandCall, type CommandHooks, type CommandOutcome } from "./run-command.js";

export interface McpServerOptions extends AdapterOptions {
  /** The server's name and version as the client sees them (default "agentos" and the package's version). */
  name?: string;
  version?: string;
}

const OPTIONS = [...ADAPTER_OPTIONS, "name", "version"];

type Text = { type: "text"; text: string };
const text = (t: string): Text => ({ type: "text", text: t });
const failure = (message: string): CallToolResult => ({ content: [text(message)], isError: true });

/** A tool's work; an error thrown because the tool could not do it (ENOENT, EISDIR, a refusal, …) becomes an `isError` result. */
async function guarded(work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (e) {
    return failure(e instanceof Error ? e.message : String(e));
  }
}

const encoding = z.enum(["utf8", "base64"]);
const byteCount = z.number().int().min(0);

/**
 * An McpServer with the tools
 * - `exec` `{ command, cwd? }`: runs `sh -c command`; text `exit code N` then `--- stdout ---`/`--- stderr ---`
 *   sections, structured `{ exitCode, stdout, stderr }`. A command that fails is a result like any other;
 *   `isError` only when it could not run (a missing `cwd`, a refusal of `onBeforeCommand`);
 * - `read` `{ path, encoding?, offset?, length? }`: the file (or the bytes from `offset`, at most `length`) as
 *   UTF-8 text, or as base64 (binary-safe; at most what fits in `outputLimit` characters a call);
 * - `write` `{ path, content, encoding?, append? }`: creates, replaces or appends to the file, creating missing
 *   directories; `encoding: "base64"` writes the bytes `content` encodes;
 * - `list` `{ path, recursive?, maxDepth? }`: one entry a line, a file with its size after a tab, directories
 *   ending in `/`, symlinks in `@`; then a line of totals;
 * - `download` `{ path }`: the directory as a gzip-compressed tar, base64.
 * Long texts keep their head and tail around a `[… N bytes cut …]` marker. The description of `exec` is read
 * from the VM now: the starting directory and what it holds, the commands.
 */
export async function createMcpServer(vm: AgentOs, options: McpServerOptions = {}): Promise<McpServer> {
  const settings = adapterSettings("createMcpServer", options, OPTIONS);
  const { cwd, limit, resolve } = settings;
  const server = new McpServer({ name: options.name ?? "agentos", version: options.version ?? packageVersion() });
  const binaryCap = base64Capacity(limit);

  server.registerTool(
    "exec",
    {
      title: "Run a shell command",
      description: await describeVm(vm, cwd, limit),
      inputSchema: {
        command: z.string().describe("The bash command line to run"),
        cwd: z.string().optional().describe(`Working directory (default ${cwd})`),
      },
      outputSchema: { exitCode: z.number().int(), stdout: z.string(), stderr: z.string() },
    },
    ({ command, cwd: dir }, extra) =>
      guarded(async () => {
        const out = await runCommand(vm, settings, { command, cwd: resolve(dir ?? cwd) }, extra.signal);
        let t = `exit code ${out.exitCode}\n`;
        if (out.stdout) t += `--- stdout ---\n${out.stdout}`;
        if (out.stderr) t += `${out.stdout && !out.stdout.endsWith("\n") ? "\n" : ""}--- stderr ---\n${out.stderr}`;
        return { content: [text(t)], structuredContent: { ...out } };
      }),
  );

  server.registerTool(
    "read",
    {
      title: "Read a file",
      description:
        `Read a file of the sandbox VM (relative paths from ${cwd}). As UTF-8 text (default; over ${limit} bytes keeps ` +
        `its start and end), or as base64 for binary data: at most ${binaryCap} bytes a call, from offset; read on from ` +
        "the next offset until the result is empty.",
      inputSchema: {
        path: z.string().describe("Path of the file"),
        encoding: encoding.optional().describe('"utf8" (default) or "base64"'),
        offset: byteCount.optional().describe("First byte to read (default 0)"),
        length: byteCount.optional().describe("Bytes to read at most (default: to the end)"),
      },
      annotations: { readOnlyHint: true },
    },
    ({ path, encoding: enc = "utf8", offset = 0, length }) =>
      guarded(async () => {
        const bytes = await vm.readFile(resolve(path));
        const wanted = Math.max(0, Math.min(length ?? Infinity, bytes.length - offset));
        if (enc === "utf8") {
          const part = Buffer.from(bytes.buffer, bytes.byteOffset + Math.min(offset, bytes.length), wanted);
          return { content: [text(truncateMiddle(part.toString("utf8"), limit))] };
        }
        const n = Math.min(wanted, binaryCap);
        const start = Math.min(offset, bytes.length);
        const content = [text(Buffer.from(bytes.buffer, bytes.byteOffset + start, n).toString("base64"))];
        if (n < wanted)
          content.push(text(`bytes ${start}-${start + n - 1} of ${bytes.length} (the most one result holds); read on from offset ${start + n}`));
        return { content };
      }),
  );

  server.registerTool(
    "write",
    {
      title: "Write a file",
      description:
        `Create or replace a file of the sandbox VM, creating missing directories (relative paths from ${cwd}); with ` +
        'append, add to its end. encoding "base64" writes the bytes content encodes (binary data, in parts with append).',
      inputSchema: {
        path: z.string().describe("Path of the file"),
        content: z.string().describe("The new content (or what to append)"),
        encoding: encoding.optional().describe('How content is encoded: "utf8" (default) or "base64"'),
        append: z.boolean().optional().describe("Add to the end of the file instead of replacing it (default false)"),
      },
    },
    ({ path, content, encoding: enc = "utf8", append = false }) =>
      guarded(async () => {
        const p = resolve(path);
        const data = enc === "base64" ? decodeBase64(content) : Buffer.from(content, "utf8");
        await vm.mkdir(posix.dirname(p), { recursive: true });
        if (append && (await vm.exists(p))) {
          const old = await vm.readFile(p);
          const whole = Buffer.concat([old, data]);
          await vm.writeFile(p, whole);
          return { content: [text(`appended ${data.length} bytes to ${p} (now ${whole.length} bytes)`)] };
        }
        await vm.writeFile(p, data);
        return { content: [text(`wrote ${data.length} bytes to ${p}`)] };
      }),
  );

  server.registerTool(
    "list",
    {
      title: "List a directory",
      description:
        `List a directory of the sandbox VM (relative paths from ${cwd}): one entry a line, a file with its size in ` +
        'bytes after a tab, directories ending in "/", symlinks in "@", then the totals; with recursive, everything ' +
        "below it (maxDepth levels: implies recursive), as paths relative to it.",
      inputSchema: {
        path: z.string().describe("Path of the directory"),
        recursive: z.boolean().optional().describe("List everything below the directory (default false)"),
        maxDepth: byteCount.optional().describe("Levels below the directory's own entries to list (0: only those); implies recursive"),
      },
      annotations: { readOnlyHint: true },
    },
    ({ path, recursive = false, maxDepth = recursive ? undefined : 0 }) =>
      guarded(async () => {
        const p = resolve(path);
        const entries = await vm.readdirRecursive(p, maxDepth === undefined ? {} : { maxDepth });
        let files = 0;
        let dirs = 0;
        let bytes = 0;
        const lines = entries.map((e) => {
          const name = posix.relative(p, e.path);
          if (e.type === "directory") return dirs++, `${name}/\n`;
          if (e.type === "symlink") return `${name}@\n`;
          files++;
          bytes += e.size;
          return `${name}\t${e.size}\n`;
        });
        const totals = `${files} file${files === 1 ? "" : "s"} (${bytes} bytes), ${dirs} director${dirs === 1 ? "y" : "ies"}`;
        return { content: [text(truncateMiddle(lines.join(""), limit)), text(totals)] };
      }),
  );

  server.registerTool(
    "download",
    {
      title: "Download a directory",
      description:
        `A directory of the sandbox VM (relative paths from ${cwd}) as a gzip-compressed tar, base64-encoded; at most ` +
        `${binaryCap} bytes of archive (a bigger one: tar it to a file with exec and read that in parts with base64).`,
      inputSchema: { path: z.string().describe("Path of the directory") },
      annotations: { readOnlyHint: true },
    },
    ({ path }, extra) =>
      guarded(async () => {
        const p = resolve(path);
        const st = await vm.stat(p);
        if (!st.isDirectory) return failure(`ENOTDIR: not a directory, ${p} (read gives a file's bytes: encoding base64)`);
        const chunks: Uint8Array[] = [];
        const r = await vm.exec(`tar -czf - -C ${shellQuote(p)} .`, {
          timeout: settings.timeout,
          signal: extra.signal,
          maxOutputBytes: binaryCap + 1,
          onStdout: (chunk) => void chunks.push(chunk.slice()),
        });
        if (r.truncated)
          return failure(
            `the archive of ${p} passed ${binaryCap} bytes, the most one result holds; write it to a file with exec ` +
              `(tar -czf /tmp/out.tgz -C ${shellQuote(p)} .) and read that with read (encoding base64, offset)`,
          );
        if (r.exitCode !== 0) return failure(`tar exited with ${r.exitCode}: ${r.stderr.trim()}`);
        const archive = Buffer.concat(chunks);
        return { content: [text(archive.toString("base64")), text(`gzip-compressed tar of ${p}, ${archive.length} bytes`)] };
      }),
  );

  return server;
}
