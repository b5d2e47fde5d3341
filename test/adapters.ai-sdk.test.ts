// The AI SDK adapter with what both ai 6 and ai 7 export (stepCountIs, MockLanguageModelV3), as the README uses it;
// test/package.test.ts runs examples/ai-sdk-tool.mts against ai 6 on Node 20 and ai 7 on Node 24.
import { asSchema, generateText, stepCountIs, type FlexibleSchema, type ModelMessage } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { createTools, CommandRefusedError, type CommandCall, type CommandOutcome } from "../src/adapters/ai-sdk.js";
import { boundedList, COMMANDS_CHARS, LISTED_ENTRIES, LISTING_CHARS } from "../src/adapters/describe.js";
import { truncateMiddle } from "../src/adapters/truncate.js";
import { createVm } from "./helpers.js";

/** What the SDK passes a tool's execute besides its input. */
const call = { toolCallId: "call-1", messages: [] as ModelMessage[], context: {} };

/** Validates `input` with the tool's own schema, as the SDK does before it calls execute. */
async function validated(schema: FlexibleSchema<unknown>, input: unknown): Promise<unknown> {
  const r = await asSchema(schema).validate!(input);
  if (!r.success) throw r.error;
  return r.value;
}

function usage() {
  return {
    inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 5, text: 5, reasoning: undefined },
  };
}

/** A model that calls bash with `command`, then answers "done". */
function callsBash(command: string): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: [
      {
        content: [{ type: "tool-call", toolCallId: "t1", toolName: "bash", input: JSON.stringify({ command }) }],
        finishReason: { unified: "tool-calls", raw: undefined },
        usage: usage(),
        warnings: [],
      },
      { content: [{ type: "text", text: "done" }], finishReason: { unified: "stop", raw: undefined }, usage: usage(), warnings: [] },
    ],
  });
}

describe("truncateMiddle", () => {
  it("keeps short text, cuts the middle of long text on character boundaries and says how much", () => {
    expect(truncateMiddle("short", 10)).toBe("short");
    const long = "a".repeat(50) + "b".repeat(50);
    expect(truncateMiddle(long, 20)).toBe(`${"a".repeat(10)}\n[… 80 bytes cut …]\n${"b".repeat(10)}`);
    const wide = "é".repeat(20); // 40 bytes
    const cut = truncateMiddle(wide, 11);
    expect(cut).not.toContain("\uFFFD");
    const [head, marker, tail] = cut.split("\n");
    expect(Buffer.byteLength(head!) + Buffer.byteLength(tail!) + Number(/(\d+) bytes cut/.exec(marker!)![1])).toBe(40);
  });
});

describe("AI SDK tools", () => {
  it("bash, readFile and writeFile run with input validated by their schemas", async () => {
    const vm = await createVm({ files: { "/home/user/notes.txt": "alpha\nbeta\n" } });
    const tools = await createTools(vm);
    expect(Object.keys(tools)).toEqual(["bash", "readFile", "writeFile"]);
    // What the model is shown of the input.
    expect(await asSchema(tools.bash.inputSchema).jsonSchema).toMatchObject({
      type: "object",
      properties: { command: { type: "string" }, cwd: { type: "string" } },
      required: ["command"],
    });

    const bashInput = (await validated(tools.bash.inputSchema, { command: "grep -c a notes.txt; echo oops >&2; exit 3" })) as { command: string };
    expect(await tools.bash.execute(bashInput, call)).toEqual({ exitCode: 3, stdout: "2\n", stderr: "oops\n" });
    expect(await tools.bash.execute({ command: "pwd", cwd: "/tmp" }, call)).toEqual({ exitCode: 0, stdout: "/tmp\n", stderr: "" });
    await expect(validated(tools.bash.inputSchema, { cmd: "ls" })).rejects.toThrow();

    const w = (await validated(tools.writeFile.inputSchema, { path: "out/new.txt", content: "grüß\n" })) as { path: string; content: string };
    expect(await tools.writeFile.execute(w, call)).toEqual({ path: "/home/user/out/new.txt", bytesWritten: 7 });
    expect(await vm.readFile("/home/user/out/new.txt", "utf8")).toBe("grüß\n");

    const r = (await validated(tools.readFile.inputSchema, { path: "/home/user/out/new.txt" })) as { path: string };
    expect(await tools.readFile.execute(r, call)).toEqual({ path: "/home/user/out/new.txt", content: "grüß\n" });
    await expect(tools.readFile.execute({ path: "/nope" }, call)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("describes the VM to the model: shell, starting directory and what it holds, the commands on the PATH", async () => {
    const vm = await createVm({
      files: { "/work/b.txt": "b", "/work/a.txt": "a", "/work/src/main.ts": "" },
      commands: { "my-tool": () => 0 },
    });
    const commands = [...new Set([...(await vm.readdir("/usr/local/bin")), ...(await vm.readdir("/usr/bin"))])].sort();
    expect(commands.join(" ").length).toBeLessThanOrEqual(COMMANDS_CHARS); // so all of them are named
    const { description } = (await createTools(vm, { cwd: "/work", outputLimit: 1234 })).bash;
    expect(description).toBe(
      [
        "Run a bash command line in a sandboxed VM: an in-memory Linux-like file system and processes, no network beyond the VM's own loopback.",
        "Each call is a fresh shell starting in /work: files persist between calls, cd and shell variables do not.",
        "Returns the exit code, stdout and stderr (a failing command is a result, not an error); output over 1234 bytes keeps its start and end.",
        "When this session started, /work holds: a.txt, b.txt, src/.",
        `Commands: ${commands.join(" ")}.`,
      ].join("\n"),
    );
    expect(commands).toEqual(expect.arrayContaining(["bash", "grep", "jq", "my-tool", "node", "rg", "sed"]));
    expect((await createTools(vm, { cwd: "/gone" })).bash.description).toContain("When this session started, /gone cannot be listed (ENOENT).");
    expect((await createTools(vm, { cwd: "/tmp" })).bash.description).toContain("When this session started, /tmp is empty.");
  });

  it("keeps the description bounded whatever the VM holds", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 3000; i++) files[`/big/${"f".repeat(100)}-${String(i).padStart(4, "0")}`] = "";
    const commands = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`tool-${String(i).padStart(3, "0")}`, () => 0]));
    const vm = await createVm({ files, commands });
    const description = (await createTools(vm, { cwd: "/big" })).bash.description as string;
    const [, , , listing, named] = description.split("\n");
    expect(listing!.length).toBeLessThanOrEqual("When this session started, /big holds: .".length + LISTING_CHARS + " … and 3000 more".length);
    expect(listing).toMatch(/^When this session started, \/big holds: f{100}-0000, f{100}-0001, f{100}-0002, … and 2997 more\.$/);
    expect(named!.length).toBeLessThan(COMMANDS_CHARS + 100);
    expect(named).toMatch(/… and \d+ more \(ls \/usr\/bin\)\.$/);
    expect(boundedList(["a", "b", "c"], ", ", 2, 100, (n) => `+${n}`)).toBe("a, b, +1");
    expect(boundedList(["a", "b", "c"], ", ", LISTED_ENTRIES, 100, (n) => `+${n}`)).toBe("a, b, c");
    expect(boundedList(["long"], ", ", 5, 2, (n) => `+${n}`)).toBe("+1");
  });

  it("long output and long files keep head and tail with a marker; the limit is an option", async () => {
    const vm = await createVm();
    const tools = await createTools(vm, { outputLimit: 100 });
    const out = await tools.bash.execute({ command: "seq 1 10000" }, call);
    expect(out.exitCode).toBe(0);
    expect(out.stdout.startsWith("1\n2\n3\n")).toBe(true);
    expect(out.stdout.endsWith("9999\n10000\n")).toBe(true);
    expect(out.stdout).toMatch(/\n\[… 48794 bytes cut …\]\n/);
    await vm.exec("seq 1 10000 > /tmp/big.txt");
    const file = await tools.readFile.execute({ path: "/tmp/big.txt" }, call);
    expect(file.content).toBe(out.stdout);
    await expect(createTools(vm, { outputLimt: 5 } as never)).rejects.toThrow(TypeError);
    await expect(createTools(vm, { onBeforeCommand: "rm" } as never)).rejects.toMatchObject({ code: "ERR_INVALID_ARG_VALUE" });
    await expect(createTools(vm, { cwd: "relative" })).rejects.toThrow(/absolute/);
  });

  it("onBeforeCommand sees each command and may let it run, change it or refuse it; async hooks are awaited", async () => {
    const vm = await createVm();
    const seen: CommandCall[] = [];
    const tools = await createTools(vm, {
      onBeforeCommand: async (c) => {
        seen.push(c);
        if (c.command.startsWith("rm ")) return { refuse: "nothing is removed here" };
        if (c.command === "curl example.com") return false;
        if (c.command === "date") return "echo 2000-01-01";
        return undefined;
      },
    });
    expect(await tools.bash.execute({ command: "echo hi", cwd: "sub/.." }, call)).toEqual({ exitCode: 0, stdout: "hi\n", stderr: "" });
    expect(await tools.bash.execute({ command: "date" }, call)).toEqual({ exitCode: 0, stdout: "2000-01-01\n", stderr: "" });
    const refused = await tools.bash.execute({ command: "rm -rf /home/user" }, call).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CommandRefusedError);
    expect(refused).toMatchObject({ message: "command refused: nothing is removed here", command: "rm -rf /home/user", reason: "nothing is removed here" });
    expect(await vm.exists("/home/user")).toBe(true);
    await expect(tools.bash.execute({ command: "curl example.com" }, call)).rejects.toThrow("command refused: not allowed by the host's policy");
    expect(seen).toEqual([
      { command: "echo hi", cwd: "/home/user" },
      { command: "date", cwd: "/home/user" },
      { command: "rm -rf /home/user", cwd: "/home/user" },
      { command: "curl example.com", cwd: "/home/user" },
    ]);
    const bad = await createTools(vm, { onBeforeCommand: () => 42 as never });
    await expect(bad.bash.execute({ command: "true" }, call)).rejects.toMatchObject({ code: "ERR_INVALID_RETURN_VALUE" });
  });

  it("onAfterCommand gets the whole result and the command as run; what it returns is cut to outputLimit", async () => {
    const vm = await createVm();
    const after: Array<[CommandOutcome, CommandCall]> = [];
    const tools = await createTools(vm, {
      outputLimit: 20,
      onBeforeCommand: (c) => (c.command === "secret" ? "echo token=abc123; seq 1 100" : undefined),
      onAfterCommand: (result, c) => {
        after.push([result, c]);
        return { ...result, stdout: result.stdout.replace(/token=\w+/, "token=[redacted]") };
      },
    });
    const out = await tools.bash.execute({ command: "secret", cwd: "/tmp" }, call);
    expect(after).toHaveLength(1);
    const [seen, asRun] = after[0]!;
    expect(asRun).toEqual({ command: "echo token=abc123; seq 1 100", cwd: "/tmp" });
    expect(seen.stdout).toBe(`token=abc123\n${Array.from({ length: 100 }, (_, i) => `${i + 1}\n`).join("")}`);
    expect(out.stdout).toBe(truncateMiddle(seen.stdout.replace("token=abc123", "token=[redacted]"), 20));
    expect(out.stdout.startsWith("token=[red")).toBe(true);
    // Returning nothing keeps the result; returning something that is not a result is an error.
    expect(await (await createTools(vm, { onAfterCommand: () => undefined })).bash.execute({ command: "exit 7" }, call)).toEqual({ exitCode: 7, stdout: "", stderr: "" });
    const bad = await createTools(vm, { onAfterCommand: () => ({ exitCode: "0" }) as never });
    await expect(bad.bash.execute({ command: "true" }, call)).rejects.toMatchObject({ code: "ERR_INVALID_RETURN_VALUE" });
  });

  it("generateText with a mock model: the model calls bash, the result flows back to it", async () => {
    const vm = await createVm({ files: { "/home/user/data.csv": "x,1\ny,2\nz,3\n" } });
    const model = callsBash("wc -l < data.csv");
    const result = await generateText({ model, tools: await createTools(vm), prompt: "How many lines?", stopWhen: stepCountIs(3) });
    expect(result.text).toBe("done");
    expect(result.steps[0]!.toolResults).toMatchObject([
      { toolName: "bash", input: { command: "wc -l < data.csv" }, output: { exitCode: 0, stdout: "3\n", stderr: "" } },
    ]);
    // The second model call saw the tool result in its prompt.
    expect(model.doGenerateCalls[1]!.prompt.at(-1)).toMatchObject({
      role: "tool",
      content: [{ type: "tool-result", toolName: "bash", output: { type: "json", value: { exitCode: 0, stdout: "3\n", stderr: "" } } }],
    });
    // The tool's description the model was given is the VM's.
    expect(model.doGenerateCalls[0]!.tools?.find((t) => t.name === "bash")).toMatchObject({ description: expect.stringContaining("/home/user holds: data.csv.") });
  });

  it("generateText: a refused command reaches the model as a tool error with the reason, and the loop goes on", async () => {
    const vm = await createVm();
    const model = callsBash("rm -rf /");
    const tools = await createTools(vm, { onBeforeCommand: (c) => (c.command.includes("rm") ? { refuse: "no removals" } : undefined) });
    const result = await generateText({ model, tools, prompt: "clean up", stopWhen: stepCountIs(3) });
    expect(result.text).toBe("done");
    expect(result.steps[0]!.content).toContainEqual(expect.objectContaining({ type: "tool-error", toolName: "bash", error: expect.any(CommandRefusedError) }));
    expect(model.doGenerateCalls[1]!.prompt.at(-1)).toMatchObject({
      role: "tool",
      content: [{ type: "tool-result", toolName: "bash", output: { type: "error-text", value: expect.stringContaining("command refused: no removals") } }],
    });
    expect((await vm.exec("echo alive")).stdout).toBe("alive\n");
  });
});
