/**
 * A runnable MCP server over stdio: `node dist/src/adapters/mcp-stdio.js` starts a VM and serves the tools of
 * `createMcpServer` (exec, read, write, list) on stdin/stdout. When the client closes stdin (or on SIGINT/SIGTERM)
 * the VM is disposed and the process exits. Nothing but protocol messages goes to stdout.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { AgentOs } from "../agent-os.js";
import { createMcpServer } from "./mcp.js";

const vm = await AgentOs.create();
const server = createMcpServer(vm);
let closing: Promise<void> | undefined;
const shutdown = (code: number): Promise<void> =>
  (closing ??= (async () => {
    try {
      await server.close();
    } finally {
      await vm.dispose();
      process.exit(code);
    }
  })());

process.stdin.on("end", () => void shutdown(0));
process.on("SIGINT", () => void shutdown(130));
process.on("SIGTERM", () => void shutdown(143));
await server.connect(new StdioServerTransport());
