import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createMcpServer, type McpServerOptions } from "../src/adapters/mcp.js";
import { entryPoint } from "../src/pool/entry-point.js";
import { createVm } from "./helpers.js";
import { PatientClient, startMcpServer } from "./mcp-child.js";

const root = fileURLToPath(new URL("..", import.meta.url));
/** The CLI, from the sources compiled once as the runtime's workers run them (src/pool/entry-point.ts). */
const CLI = fileURLToPath(entryPoint("src/cli/main"));
const TMP = mkdtempSync(join(tmpdir(), "agentos-mcp-"));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

const TOOLS = ["download", "exec", "list", "read", "write"];

async function connected(options?: McpServerOptions): Promise<{ client: Client; vm: Awaited<ReturnType<typeof createVm>> }> {
  const vm = await createVm({ files: { "/home/user/project/README.md": "# demo\n", "/home/user/project/src/main.ts": "export {};\n" } });
  const server = await createMcpServer(vm, options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new PatientClient({ name: "test-client", version: "1.0.0" });
  await client.connect(clientSide);
  clients.push(client);
  return { client, vm };
}

const texts = (r: unknown): string[] => (r as CallToolResult).content.map((c) => (c as { type: "text"; text: string }).text);
const textOf = (r: unknown): string => texts(r)[0]!;
const sha256 = (b: Uint8Array): string => createHash("sha256").update(b).digest("hex");

describe("MCP server (through the SDK's client)", () => {
  it("lists the tools with their input schemas; the exec tool's description is the VM's", async () => {
    const { client } = await connected({ cwd: "/home/user/project" });
    expect(client.getServerVersion()).toEqual({ name: "agentos", version: JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.exec!.inputSchema).toMatchObject({ type: "object", properties: { command: { type: "string" } }, required: ["command"] });
    expect(byName.exec!.outputSchema).toMatchObject({ type: "object", properties: { exitCode: {}, stdout: {}, stderr: {} } });
    expect(byName.exec!.description).toContain("Each call is a fresh shell starting in /home/user/project");
    expect(byName.exec!.description).toContain("When this session started, /home/user/project holds: README.md, src/.");
    // The commands, sorted, as many as fit the description's bound (src/adapters/describe.ts), then how many more.
    expect(byName.exec!.description).toMatch(/\nCommands: \[ arch awk .* jq .* rg .* zcat( \S+)*( … and \d+ more \(ls \/usr\/bin\))?\.$/);
    expect(byName.read!.inputSchema).toMatchObject({
      properties: { path: { type: "string" }, encoding: { enum: ["utf8", "base64"] }, offset: { type: "integer" }, length: { type: "integer" } },
      required: ["path"],
    });
    expect(byName.write!.inputSchema).toMatchObject({ properties: { append: { type: "boolean" } }, required: ["path", "content"] });
    expect(byName.list!.inputSchema).toMatchObject({ properties: { path: {}, recursive: { type: "boolean" }, maxDepth: {} }, required: ["path"] });
    expect(byName.download!.inputSchema).toMatchObject({ required: ["path"] });
  });

  it("exec: a failing command is a result like any other; isError only when the command could not run", async () => {
    const { client } = await connected();
    const ok = await client.callTool({ name: "exec", arguments: { command: "cd project && ls && echo warn >&2" } });
    expect(ok.isError).toBeFalsy();
    expect(ok.structuredContent).toEqual({ exitCode: 0, stdout: "README.md\nsrc\n", stderr: "warn\n" });
    expect(textOf(ok)).toBe("exit code 0\n--- stdout ---\nREADME.md\nsrc\n--- stderr ---\nwarn\n");
    const failed = await client.callTool({ name: "exec", arguments: { command: "cat nope", cwd: "/tmp" } });
    expect(failed.isError).toBeFalsy();
    expect(failed.structuredContent).toEqual({ exitCode: 1, stdout: "", stderr: "cat: nope: No such file or directory\n" });
    expect(textOf(failed)).toBe("exit code 1\n--- stderr ---\ncat: nope: No such file or directory\n");
    const badCwd = await client.callTool({ name: "exec", arguments: { command: "ls", cwd: "/missing" } });
    expect(badCwd.isError).toBe(true);
    expect(badCwd.structuredContent).toBeUndefined();
    expect(textOf(badCwd)).toMatch(/^ENOENT: .*'\/missing'/);
  });

  it("exec: a timeout is a result with exit code 124", async () => {
    // The only command of this server: however slow the machine, it ends by its timeout.
    const { client } = await connected({ timeout: 200 });
    const slow = await client.callTool({ name: "exec", arguments: { command: "sleep 600" } });
    expect(slow.isError).toBeFalsy();
    expect(slow.structuredContent).toEqual({ exitCode: 124, stdout: "", stderr: "agentos: timed out after 200 ms\n" });
  });

  it("exec: onBeforeCommand changes and refuses commands (a refusal is isError), onAfterCommand sees and changes results", async () => {
    const seen: string[] = [];
    const { client } = await connected({
      onBeforeCommand: ({ command }) => (command.startsWith("rm") ? { refuse: "read-only session" } : command === "ver" ? "echo 1.0" : undefined),
      onAfterCommand: (r, { command }) => {
        seen.push(`${command} -> ${r.exitCode}`);
        return r.exitCode === 3 ? { ...r, stderr: `${r.stderr}(exit 3 means: no data)\n` } : undefined;
      },
    });
    const three = await client.callTool({ name: "exec", arguments: { command: "echo e >&2; exit 3" } });
    expect(three.structuredContent).toEqual({ exitCode: 3, stdout: "", stderr: "e\n(exit 3 means: no data)\n" });
    expect(textOf(three)).toBe("exit code 3\n--- stderr ---\ne\n(exit 3 means: no data)\n");
    expect((await client.callTool({ name: "exec", arguments: { command: "ver" } })).structuredContent).toEqual({ exitCode: 0, stdout: "1.0\n", stderr: "" });
    const refused = await client.callTool({ name: "exec", arguments: { command: "rm -rf project" } });
    expect(refused).toMatchObject({ isError: true, content: [{ type: "text", text: "command refused: read-only session" }] });
    expect(await client.callTool({ name: "exec", arguments: { command: "ls project" } })).toMatchObject({ structuredContent: { exitCode: 0, stdout: "README.md\nsrc\n" } });
    expect(seen).toEqual(["echo e >&2; exit 3 -> 3", "echo 1.0 -> 0", "ls project -> 0"]);
  });

  it("read, write and list work on the VM's files; failures are isError results", async () => {
    const { client, vm } = await connected({ outputLimit: 200 });
    const w = await client.callTool({ name: "write", arguments: { path: "project/docs/a.txt", content: "hello\n" } });
    expect(texts(w)).toEqual(["wrote 6 bytes to /home/user/project/docs/a.txt"]);
    expect(await vm.readFile("/home/user/project/docs/a.txt", "utf8")).toBe("hello\n");
    const more = await client.callTool({ name: "write", arguments: { path: "project/docs/a.txt", content: "again\n", append: true } });
    expect(texts(more)).toEqual(["appended 6 bytes to /home/user/project/docs/a.txt (now 12 bytes)"]);
    expect(texts(await client.callTool({ name: "read", arguments: { path: "/home/user/project/docs/a.txt" } }))).toEqual(["hello\nagain\n"]);
    expect(texts(await client.callTool({ name: "read", arguments: { path: "project/docs/a.txt", offset: 6, length: 3 } }))).toEqual(["aga"]);
    await vm.exec("ln -s README.md /home/user/project/link");
    expect(texts(await client.callTool({ name: "list", arguments: { path: "project" } }))).toEqual([
      "README.md\t7\ndocs/\nlink@\nsrc/\n",
      "1 file (7 bytes), 2 directories",
    ]);
    expect(texts(await client.callTool({ name: "list", arguments: { path: "/home/user/project", recursive: true } }))).toEqual([
      "README.md\t7\ndocs/\ndocs/a.txt\t12\nlink@\nsrc/\nsrc/main.ts\t11\n",
      "3 files (30 bytes), 2 directories",
    ]);
    const shallow = await client.callTool({ name: "list", arguments: { path: "/home/user", maxDepth: 1 } });
    expect(texts(shallow)).toEqual(["project/\nproject/README.md\t7\nproject/docs/\nproject/link@\nproject/src/\n", "1 file (7 bytes), 3 directories"]);
    await vm.exec("seq 1 1000 > /tmp/long.txt");
    const long = textOf(await client.callTool({ name: "read", arguments: { path: "/tmp/long.txt" } }));
    expect(long).toMatch(/^1\n2\n[\s\S]*\n\[… \d+ bytes cut …\]\n[\s\S]*999\n1000\n$/);
    const missing = await client.callTool({ name: "read", arguments: { path: "/nope.txt" } });
    expect(missing).toMatchObject({ isError: true });
    expect(textOf(missing)).toBe("ENOENT: no such file or directory, open '/nope.txt'");
    expect(await client.callTool({ name: "write", arguments: { path: "/dev/null/x", content: "" } })).toMatchObject({ isError: true });
    expect(await client.callTool({ name: "list", arguments: { path: "project/README.md" } })).toMatchObject({ isError: true });
    // Input that does not match the schema is refused before the tool runs.
    const invalid = await client.callTool({ name: "read", arguments: { file: "/x" } }).catch((e: unknown) => e);
    expect(invalid instanceof Error ? invalid.message : (invalid as CallToolResult).isError ? textOf(invalid) : "accepted").toMatch(/path|Invalid/i);
  });

  it("read and write are binary-safe with base64: every byte value, in parts, with the VM's sha256sum to agree", async () => {
    const { client, vm } = await connected({ outputLimit: 1000 }); // 750 bytes of base64 a call
    const bytes = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), randomBytes(2000)]);
    // Uploaded in three parts, with line breaks in the base64 as `base64` wraps it.
    const parts = [bytes.subarray(0, 1000), bytes.subarray(1000, 1001), bytes.subarray(1001)];
    for (const [i, part] of parts.entries()) {
      const b64 = part.toString("base64").replace(/.{76}/g, "$&\n");
      const r = await client.callTool({ name: "write", arguments: { path: "bin/blob", content: b64, encoding: "base64", append: i > 0 } });
      expect(r.isError, textOf(r)).toBeFalsy();
    }
    expect((await vm.exec("sha256sum /home/user/bin/blob")).stdout).toBe(`${sha256(bytes)}  /home/user/bin/blob\n`);

    // Read back in parts: each result says where to go on until the rest fits.
    const got: Buffer[] = [];
    const notes: string[] = [];
    for (let offset = 0; ; ) {
      const r = texts(await client.callTool({ name: "read", arguments: { path: "bin/blob", encoding: "base64", offset } }));
      const part = Buffer.from(r[0]!, "base64");
      if (part.length === 0) break;
      expect(r[0]!.length).toBeLessThanOrEqual(1000);
      got.push(part);
      offset += part.length;
      if (r[1]) notes.push(r[1]);
    }
    expect(Buffer.concat(got).equals(bytes)).toBe(true);
    expect(notes).toEqual([
      "bytes 0-749 of 2256 (the most one result holds); read on from offset 750",
      "bytes 750-1499 of 2256 (the most one result holds); read on from offset 1500",
      "bytes 1500-2249 of 2256 (the most one result holds); read on from offset 2250",
    ]);
    expect(texts(await client.callTool({ name: "read", arguments: { path: "bin/blob", encoding: "base64", offset: 10, length: 3 } }))).toEqual([
      bytes.subarray(10, 13).toString("base64"),
    ]);
    expect(texts(await client.callTool({ name: "read", arguments: { path: "bin/blob", encoding: "base64", offset: 99999 } }))).toEqual([""]);

    const bad = await client.callTool({ name: "write", arguments: { path: "bin/x", content: "not base64!", encoding: "base64" } });
    expect(bad).toMatchObject({ isError: true });
    expect(textOf(bad)).toMatch(/^content is not valid base64/);
    expect(await vm.exists("/home/user/bin/x")).toBe(false);
  });

  it("download gives a directory as a gzip-compressed tar that the host's GNU tar unpacks", async () => {
    const { client, vm } = await connected({ outputLimit: 4000 });
    const blob = randomBytes(300);
    await vm.writeFile("/home/user/project/src/blob.bin", blob);
    const r = await client.callTool({ name: "download", arguments: { path: "project" } });
    expect(r.isError, textOf(r)).toBeFalsy();
    const [b64, note] = texts(r);
    const archive = Buffer.from(b64!, "base64");
    expect(note).toBe(`gzip-compressed tar of /home/user/project, ${archive.length} bytes`);
    const out = join(TMP, "download");
    mkdirSync(out);
    writeFileSync(join(TMP, "download.tgz"), archive);
    execFileSync("tar", ["-xzf", join(TMP, "download.tgz"), "-C", out]);
    expect(readFileSync(join(out, "README.md"), "utf8")).toBe("# demo\n");
    expect(readFileSync(join(out, "src/main.ts"), "utf8")).toBe("export {};\n");
    expect(readFileSync(join(out, "src/blob.bin")).equals(blob)).toBe(true);

    // Past what one result holds: an error that says how to get it in parts.
    await vm.writeFile("/home/user/project/big.bin", randomBytes(10_000));
    const big = await client.callTool({ name: "download", arguments: { path: "project" } });
    expect(big).toMatchObject({ isError: true });
    expect(textOf(big)).toMatch(/^the archive of \/home\/user\/project passed 3000 bytes, the most one result holds; .*tar -czf/);
    expect(textOf(await client.callTool({ name: "download", arguments: { path: "project/README.md" } }))).toMatch(/^ENOTDIR/);
    expect(await client.callTool({ name: "download", arguments: { path: "nothing" } })).toMatchObject({ isError: true });
  });
});

describe("agentos mcp (the CLI's stdio server, from source)", { concurrent: true }, () => {
  it("serves the tools on a VM made from its options, and exits 0 when the client closes stdin", async () => {
    const host = join(TMP, "host-project");
    mkdirSync(host, { recursive: true });
    writeFileSync(join(host, "notes.txt"), "from the host\n");
    const args = [CLI, "mcp", "--mount", `${host}:/mnt/project:ro`, "--cwd", "/mnt/project"];
    args.push("--env", "GREETING=hi there", "--limit", "maxFsBytes=64K", "--output-limit", "100");
    const server = await startMcpServer(process.execPath, args, { cwd: root });
    const { client } = server;
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(TOOLS);
    const call = async (command: string) => (await client.callTool({ name: "exec", arguments: { command } })).structuredContent;
    expect(await call("pwd; cat notes.txt; echo $GREETING")).toEqual({ exitCode: 0, stdout: "/mnt/project\nfrom the host\nhi there\n", stderr: "" });
    expect(await call("touch x")).toMatchObject({ exitCode: 1, stderr: expect.stringMatching(/Read-only file system/) });
    expect(await call("head -c 100000 /dev/zero > /tmp/big")).toMatchObject({ exitCode: 1, stderr: expect.stringMatching(/No space left on device/) });
    expect(((await call("seq 1 1000")) as { stdout: string }).stdout).toMatch(/^1\n2\n[\s\S]*\[… \d+ bytes cut …\][\s\S]*\n1000\n$/);
    await client.close(); // ends the server's stdin
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.stderr()).toBe(`agentos mcp ${JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version}: one VM on stdio, commands start in /mnt/project; ${host} at /mnt/project (read-only)\n`);
  });

  it("--timeout ends a command with exit code 124, as a result", async () => {
    // The only command of this server: however slow the machine, it ends by the timeout given.
    const server = await startMcpServer(process.execPath, [CLI, "mcp", "--timeout", "300"], { cwd: root });
    const r = await server.client.callTool({ name: "exec", arguments: { command: "sleep 600" } });
    expect(r).toMatchObject({ structuredContent: { exitCode: 124, stdout: "", stderr: "agentos: timed out after 300 ms\n" } });
    expect(r.isError).toBeFalsy();
    await server.client.close();
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });

  it("says what is wrong with its command line (status 2) or its --cwd (status 1), on stderr", async () => {
    const cases = [
      [["--limit", "maxBogus=1"], 2, /--limit maxBogus=1: expected NAME=N, NAME one of maxOutputBytes, /],
      [["--env", "1X=2"], 2, /--env 1X=2: expected NAME=VALUE/],
      [["-c", "ls"], 2, /agentos mcp takes no -c/],
      [["--cwd", "/nowhere"], 1, /--cwd \/nowhere: no such directory in the VM/],
    ] as const;
    await Promise.all(
      cases.map(async ([args, code, message]) => {
        const failed = await startMcpServer(process.execPath, [CLI, "mcp", ...args], { cwd: root }).catch((e: Error) => e);
        expect(failed).toBeInstanceOf(Error);
        expect((failed as Error).message).toMatch(message);
        expect((failed as Error).message).toMatch(new RegExp(`exited with ${code} before answering`));
      }),
    );
  });
});
