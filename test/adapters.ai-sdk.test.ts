import { asSchema, generateText, isStepCount, type FlexibleSchema, type ModelMessage } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { createTools } from "../src/adapters/ai-sdk.js";
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
    const tools = createTools(vm);
    expect(Object.keys(tools)).toEqual(["bash", "readFile", "writeFile"]);
    expect(tools.bash.description).toMatch(/bash/);
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

  it("long output and long files keep head and tail with a marker; the limit is an option", async () => {
    const vm = await createVm();
    const tools = createTools(vm, { outputLimit: 100 });
    const out = await tools.bash.execute({ command: "seq 1 10000" }, call);
    expect(out.exitCode).toBe(0);
    expect(out.stdout.startsWith("1\n2\n3\n")).toBe(true);
    expect(out.stdout.endsWith("9999\n10000\n")).toBe(true);
    expect(out.stdout).toMatch(/\n\[… 48794 bytes cut …\]\n/);
    await vm.exec("seq 1 10000 > /tmp/big.txt");
    const file = await tools.readFile.execute({ path: "/tmp/big.txt" }, call);
    expect(file.content).toBe(out.stdout);
    expect(() => createTools(vm, { outputLimt: 5 } as never)).toThrow(TypeError);
  });

  it("generateText with a mock model: the model calls bash, the result flows back to it", async () => {
    const vm = await createVm({ files: { "/home/user/data.csv": "x,1\ny,2\nz,3\n" } });
    const model = new MockLanguageModelV4({
      doGenerate: [
        {
          content: [{ type: "tool-call", toolCallId: "t1", toolName: "bash", input: JSON.stringify({ command: "wc -l < data.csv" }) }],
          finishReason: { unified: "tool-calls", raw: undefined },
          usage: usage(),
          warnings: [],
        },
        {
          content: [{ type: "text", text: "The file has 3 lines." }],
          finishReason: { unified: "stop", raw: undefined },
          usage: usage(),
          warnings: [],
        },
      ],
    });
    const result = await generateText({ model, tools: createTools(vm), prompt: "How many lines?", stopWhen: isStepCount(3) });
    expect(result.text).toBe("The file has 3 lines.");
    expect(result.steps[0]!.toolResults).toMatchObject([
      { toolName: "bash", input: { command: "wc -l < data.csv" }, output: { exitCode: 0, stdout: "3\n", stderr: "" } },
    ]);
    // The second model call saw the tool result in its prompt.
    expect(model.doGenerateCalls[1]!.prompt.at(-1)).toMatchObject({
      role: "tool",
      content: [{ type: "tool-result", toolName: "bash", output: { type: "json", value: { exitCode: 0, stdout: "3\n", stderr: "" } } }],
    });
  });
});

function usage() {
  return {
    inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 5, text: 5, reasoning: undefined },
  };
}
