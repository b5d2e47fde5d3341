import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { createMcpServer } from "../src/adapters/mcp.js";
import { createVm } from "./helpers.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function connected(options?: Parameters<typeof createMcpServer>[1]): Promise<{ client: Client; vm: Awaited<ReturnType<typeof createVm>> }> {
  const vm = await createVm({ files: { "/home/user/project/README.md": "# demo\n", "/home/user/project/src/main.ts": "export {};\n" } });
  const server = createMcpServer(vm, options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test-client", version: "1.0.0" });
  await client.connect(clientSide);
  clients.push(client);
  return { client, vm };
}

const textOf = (r: unknown): string => ((r as CallToolResult).content[0] as { type: "text"; text: string }).text;

describe("MCP server (through the SDK's client)", () => {
  it("lists the tools exec, read, write and list with their input schemas", async () => {
    const { client } = await connected();
    expect(client.getServerVersion()).toMatchObject({ name: "agentos" });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["exec", "list", "read", "write"]);
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.exec!.inputSchema).toMatchObject({ type: "object", properties: { command: { type: "string" } }, required: ["command"] });
    expect(byName.exec!.outputSchema).toMatchObject({ type: "object", properties: { exitCode: {}, stdout: {}, stderr: {} } });
    expect(byName.read!.inputSchema).toMatchObject({ properties: { path: { type: "string" } }, required: ["path"] });
    expect(byName.write!.inputSchema).toMatchObject({ required: ["path", "content"] });
    expect(byName.list!.inputSchema).toMatchObject({ properties: { path: {}, recursive: { type: "boolean" } }, required: ["path"] });
  });

  it("exec runs a command: text and structured results, isError for a failing exit code", async () => {
    const { client } = await connected();
    const ok = await client.callTool({ name: "exec", arguments: { command: "cd project && ls && echo warn >&2" } });
    expect(ok.isError).toBeFalsy();
    expect(ok.structuredContent).toEqual({ exitCode: 0, stdout: "README.md\nsrc\n", stderr: "warn\n" });
    expect(textOf(ok)).toBe("exit code 0\n--- stdout ---\nREADME.md\nsrc\n--- stderr ---\nwarn\n");
    const failed = await client.callTool({ name: "exec", arguments: { command: "cat nope", cwd: "/tmp" } });
    expect(failed.isError).toBe(true);
    expect(failed.structuredContent).toMatchObject({ exitCode: 1, stdout: "" });
    expect(textOf(failed)).toMatch(/^exit code 1\n--- stderr ---\ncat: nope: No such file or directory/);
    const badCwd = await client.callTool({ name: "exec", arguments: { command: "ls", cwd: "/missing" } });
    expect(badCwd.isError).toBe(true);
    expect(textOf(badCwd)).toMatch(/ENOENT/);
  });

  it("read, write and list work on the VM's files; failures are isError results", async () => {
    const { client, vm } = await connected({ outputLimit: 60 });
    const w = await client.callTool({ name: "write", arguments: { path: "project/docs/a.txt", content: "hello\n" } });
    expect(textOf(w)).toBe("wrote 6 bytes to /home/user/project/docs/a.txt");
    expect(await vm.readFile("/home/user/project/docs/a.txt", "utf8")).toBe("hello\n");
    expect(textOf(await client.callTool({ name: "read", arguments: { path: "/home/user/project/docs/a.txt" } }))).toBe("hello\n");
    expect(textOf(await client.callTool({ name: "list", arguments: { path: "project" } }))).toBe("README.md\ndocs/\nsrc/\n");
    const all = textOf(await client.callTool({ name: "list", arguments: { path: "/home/user/project", recursive: true } }));
    expect(all).toBe("README.md\ndocs/\ndocs/a.txt\nsrc/\nsrc/main.ts\n");
    await vm.exec("seq 1 1000 > /tmp/long.txt");
    const long = textOf(await client.callTool({ name: "read", arguments: { path: "/tmp/long.txt" } }));
    expect(long).toMatch(/^1\n2\n[\s\S]*\n\[… \d+ bytes cut …\]\n[\s\S]*999\n1000\n$/);
    const missing = await client.callTool({ name: "read", arguments: { path: "/nope.txt" } });
    expect(missing).toMatchObject({ isError: true });
    expect(textOf(missing)).toBe("ENOENT: no such file or directory, open '/nope.txt'");
    expect(await client.callTool({ name: "write", arguments: { path: "/dev/null/x", content: "" } })).toMatchObject({ isError: true });
    // Input that does not match the schema is refused before the tool runs.
    const invalid = await client.callTool({ name: "read", arguments: { file: "/x" } }).catch((e: unknown) => e);
    expect(invalid instanceof Error ? invalid.message : (invalid as CallToolResult).isError ? textOf(invalid) : "accepted").toMatch(/path|Invalid/i);
  });

  it("the stdio entry serves the same tools to a client that spawned it", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["--import", "tsx", "src/adapters/mcp-stdio.ts"],
      cwd: root,
      stderr: "pipe",
    });
    const client = new Client({ name: "stdio-test", version: "1.0.0" });
    await client.connect(transport);
    const pid = transport.pid;
    try {
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(["exec", "list", "read", "write"]);
      await client.callTool({ name: "write", arguments: { path: "/tmp/x.txt", content: "via stdio\n" } });
      const r = await client.callTool({ name: "exec", arguments: { command: "cat /tmp/x.txt | tr a-z A-Z" } });
      expect(r.structuredContent).toEqual({ exitCode: 0, stdout: "VIA STDIO\n", stderr: "" });
    } finally {
      await client.close();
    }
    // Closing stdin ends the server: the VM is disposed and the process exits.
    expect(pid).toBeTypeOf("number");
    const gone = async (): Promise<boolean> => {
      for (let i = 0; i < 100; i++) {
        try {
          process.kill(pid!, 0);
        } catch {
          return true;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      return false;
    };
    expect(await gone()).toBe(true);
  });
});
