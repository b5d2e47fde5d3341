/**
 * An MCP client connected to a server process the test starts itself, as an MCP client's configuration starts
 * it (`command` and `args`, the environment the SDK's stdio client gives: `getDefaultEnvironment()`).
 * The SDK's own StdioClientTransport would do the same, but its `close()` gives the server 2 s before sending
 * SIGTERM: a test could not tell a server that exits by itself when its stdin closes from one that was killed
 * on a slow machine. Here closing stdin and waiting for the exit are the test's own steps.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { AnySchema, SchemaOutput } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import type { ClientRequest, JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { RUN_DEADLINE_MS, SETUP_DEADLINE_MS } from "./deadlines.js";

/**
 * The SDK's Client, whose requests wait up to the hang deadline of a guest process (test/deadlines.ts) instead
 * of the SDK's 60 s: a server started by npx on a loaded machine may install its packages for longer than that.
 */
export class PatientClient extends Client {
  override request<T extends AnySchema>(request: ClientRequest, resultSchema: T, options?: RequestOptions): Promise<SchemaOutput<T>> {
    return super.request(request, resultSchema, { timeout: request.method === "initialize" ? SETUP_DEADLINE_MS : RUN_DEADLINE_MS, ...options });
  }
}

/** A Transport over the stdin and stdout of `child`: one JSON-RPC message a line, as MCP's stdio transport. */
class ChildTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #buffer = new ReadBuffer();

  constructor(private readonly child: ChildProcess) {}

  async start(): Promise<void> {
    this.child.stdout!.on("data", (chunk: Buffer) => {
      this.#buffer.append(chunk);
      for (let m = this.#buffer.readMessage(); m; m = this.#buffer.readMessage()) this.onmessage?.(m);
    });
    this.child.on("error", (e) => this.onerror?.(e));
    this.child.on("close", () => this.onclose?.());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.child.stdin!.write(serializeMessage(message))) await once(this.child.stdin!, "drain");
  }

  /** Ends the server's stdin; the process is left to exit by itself (see McpChild.exited). */
  async close(): Promise<void> {
    this.child.stdin!.end();
  }
}

export interface McpChild {
  client: Client;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** The exit code and signal, once the process (with its children) has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `command args` in `cwd` and connects the SDK's Client to it. */
export async function startMcpServer(command: string, args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<McpChild> {
  const child = spawn(command, args, { cwd: options.cwd, env: { ...getDefaultEnvironment(), ...options.env }, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal })),
  );
  const client = new PatientClient({ name: "agentos-test", version: "1.0.0" });
  try {
    await client.connect(new ChildTransport(child));
  } catch (e) {
    child.kill("SIGKILL");
    const { code } = await exited;
    throw new Error(`${command} ${args.join(" ")} exited with ${code} before answering: ${stderr}`, { cause: e });
  }
  return { client, stderr: () => stderr, exited };
}
