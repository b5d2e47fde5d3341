/**
 * `agentos mcp`: an MCP server on stdio whose tools (src/adapters/mcp.ts) work on one VM made from the command
 * line's options. It runs until the client closes its stdin (or SIGINT/SIGTERM), then disposes the VM. Stdout
 * carries the protocol only; what the server has to say goes to stderr, which MCP clients keep as its log.
 */
import { AgentOs } from "../agent-os.js";
import type { CliOptions } from "./args.js";
import { packageVersion } from "./version.js";

/** The optional peers the server needs, and how to get them with npx or into a project. */
const MISSING_PEERS = `agentos mcp needs the packages @modelcontextprotocol/sdk and zod beside agentos-vm (optional peer
dependencies: agentos-vm does not install them itself). With npx:
  npx -y -p agentos-vm -p @modelcontextprotocol/sdk -p zod agentos mcp [options]
or in a project: npm i agentos-vm @modelcontextprotocol/sdk zod, then npx agentos mcp [options]
`;

const isMissingPeer = (e: unknown): boolean =>
  (e as { code?: string })?.code === "ERR_MODULE_NOT_FOUND" && /@modelcontextprotocol\/sdk|'zod'/.test(String((e as Error).message));

export async function serveMcp(options: CliOptions): Promise<number> {
  let adapter: typeof import("../adapters/mcp.js");
  let stdio: typeof import("@modelcontextprotocol/sdk/server/stdio.js");
  try {
    [adapter, stdio] = await Promise.all([import("../adapters/mcp.js"), import("@modelcontextprotocol/sdk/server/stdio.js")]);
  } catch (e) {
    if (!isMissingPeer(e)) throw e;
    process.stderr.write(`agentos: ${(e as Error).message.split("\n")[0]}\n${MISSING_PEERS}`);
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
