// An MCP server over stdio whose tools (exec, read, write, list, download) work on one VM.
// Start it from an MCP client (examples/mcp-client.mts does): node --import tsx examples/mcp-server.mts
// Stdout carries the protocol only; log to stderr.
//
// The installed package has a ready-made server with options for mounts, cwd, env, timeout and limits:
//   npx -y agentos-vm mcp --help
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { AgentOs } from "agentos-vm";
import { createMcpServer } from "agentos-vm/mcp";

const vm = await AgentOs.create({ files: { "/home/user/hello.txt": "hello from the VM\n" } });
const server = await createMcpServer(vm, { outputLimit: 20_000 });

// The client closes our stdin when it is done: release the VM, then exit.
process.stdin.on("end", async () => {
  await server.close();
  await vm.dispose();
  process.exit(0);
});

await server.connect(new StdioServerTransport());
console.error("agentos MCP server ready on stdio");
