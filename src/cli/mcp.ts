/**
 * `agentos mcp`: an MCP server on stdio whose tools (src/adapters/mcp.ts) work on one VM made from the command
 * line's options. It runs until the client closes its stdin (or SIGINT/SIGTERM), then disposes the VM. Stdout
 * carries the protocol only; what the server has to say goes to stderr, which MCP clients keep as its log.
 */
import { AgentOs } from "../agent-os.js";
import type { CliOptions } from "./args.js";
import { isMissingPeer, peersResolvable, providePeers } from "./mcp-peers.js";
import { packageVersion } from "./version.js";

/** How to give the server its packages by hand, when they could not be installed for it. */
const MANUAL_PEERS = `Install them beside agentos-vm (npm i agentos-vm @modelcontextprotocol/sdk zod, then npx agentos mcp …), or:
  npx -y -p agentos-vm -p @modelcontextprotocol/sdk -p zod agentos mcp [options]
`;

const loadServer = () => Promise.all([import("../adapters/mcp.js"), import("@modelcontextprotocol/sdk/server/stdio.js")]);

export async function serveMcp(options: CliOptions): Promise<number> {
  let adapter: typeof import("../adapters/mcp.js");
  let stdio: typeof import("@modelcontextprotocol/sdk/server/stdio.js");
  try {
    // Before the first import: Node keeps a failed import's error for that module.
    if (!peersResolvable()) await providePeers();
    [adapter, stdio] = await loadServer();
  } catch (e) {
    process.stderr.write(`agentos mcp: ${isMissingPeer(e) ? "" : "the MCP SDK could not be installed: "}${(e as Error).message.split("\n")[0]}\n${MANUAL_PEERS}`);
    return 1;
  }

  const vm = await AgentOs.create({ mounts: options.mounts, env: options.env, limits: options.limits });
  try {
    const cwd = options.cwd ?? "/home/user";
    if (!(await vm.stat(cwd).then((s) => s.isDirectory, () => false))) throw new Error(`--cwd ${cwd}: no such directory in the VM`);
    const server = await adapter.createMcpServer(vm, {
      cwd,
      ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
      ...(options.outputLimit !== undefined ? { outputLimit: options.outputLimit } : {}),
    });
    const ended = new Promise<number>((resolve) => {
      process.stdin.once("end", () => resolve(0));
      process.once("SIGINT", () => resolve(130));
      process.once("SIGTERM", () => resolve(143));
    });
    await server.connect(new stdio.StdioServerTransport());
    const mounts = options.mounts.map((m) => ` ${m.hostDir} at ${m.path} (${m.overlay ? "overlay" : m.readOnly === false ? "read-write" : "read-only"})`).join(",");
    process.stderr.write(`agentos mcp ${packageVersion()}: one VM on stdio, commands start in ${cwd}${mounts ? `;${mounts}` : ""}\n`);
    const code = await ended;
    await server.close();
    return code;
  } finally {
    await vm.dispose();
  }
}
