// An MCP client (the official SDK's) that starts examples/mcp-server.mts as a child process, lists its tools and
// calls `exec`, as an agent framework would.
// Run from the repository root: npx tsx examples/mcp-client.mts
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const transport = new StdioClientTransport({
  // Here the server runs from source through tsx. The installed package's ready-made server:
  //   command: "npx", args: ["-y", "-p", "agentos-vm", "-p", "@modelcontextprotocol/sdk", "-p", "zod", "agentos", "mcp"]
  command: process.execPath,
  args: ["--import", "tsx", "examples/mcp-server.mts"],
  cwd: root,
  stderr: "ignore", // the server's log line; "inherit" shows it
});
const client = new Client({ name: "example-client", version: "1.0.0" });
await client.connect(transport);

const { tools } = await client.listTools();
console.log("tools:", tools.map((t) => t.name).sort().join(", "));

const result = (await client.callTool({ name: "exec", arguments: { command: "cat hello.txt | tr a-z A-Z" } })) as CallToolResult;
// The text an LLM sees, then the same result as structured content.
for (const part of result.content) if (part.type === "text") console.log(part.text);
console.log(JSON.stringify(result.structuredContent));

await client.close(); // closes the server's stdin: it disposes its VM and exits
