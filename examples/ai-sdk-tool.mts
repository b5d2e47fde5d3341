// A VM as tools of a Vercel AI SDK agent: `await createTools(vm)` gives `bash`, `readFile` and `writeFile`.
// Runs with ai 6 (what `npm i ai` installs on Node 20) and ai 7 (Node >= 22): it uses only what both export
// (`stepCountIs`; `MockLanguageModelV3` from "ai/test").
// Run from the repository root: npx tsx examples/ai-sdk-tool.mts
//
// In your project: npm i agentos-vm ai zod, plus a provider. A real model replaces the mock below, e.g.
//   import { openai } from "@ai-sdk/openai";      // npm i @ai-sdk/openai; reads OPENAI_API_KEY
//   const model = openai("gpt-5-mini");
// or `const model = "openai/gpt-5-mini"` through the Vercel AI Gateway (AI_GATEWAY_API_KEY).
// Everything else stays as it is.
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { AgentOs } from "agentos-vm";
import { createTools } from "agentos-vm/ai-sdk";

// A scripted stand-in for a model, so the example runs without an API key: its first answer is a call of the
// `bash` tool; once the tool's result is in the conversation, it answers with text made from that result.
const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
const model = new MockLanguageModelV3({
  doGenerate: async ({ prompt }) => {
    const last = prompt.at(-1);
    if (last?.role === "tool") {
      const part = last.content[0];
      const result = part?.type === "tool-result" && part.output.type === "json" ? (part.output.value as { stdout: string }) : undefined;
      const rows = Number(result?.stdout.trim()) - 1; // minus the header line
      return { content: [{ type: "text", text: `data.csv has ${rows} rows.` }], finishReason: { unified: "stop", raw: undefined }, usage, warnings: [] };
    }
    const input = JSON.stringify({ command: "wc -l < data.csv" });
    return {
      content: [{ type: "tool-call", toolCallId: "call-1", toolName: "bash", input }],
      finishReason: { unified: "tool-calls", raw: undefined },
      usage,
      warnings: [],
    };
  },
});

// From here on, the README's example (test/examples.test.ts checks that its lines are these, in this order).
const vm = await AgentOs.create({ files: { "/home/user/data.csv": "name,qty\napple,3\npear,5\n" } });
const { text, steps } = await generateText({
  model, // the mock above
  tools: await createTools(vm, { outputLimit: 20_000 }),
  stopWhen: stepCountIs(10),
  prompt: "How many rows does data.csv have?",
});

// What the tool did, then the model's answer.
for (const step of steps)
  for (const r of step.toolResults) console.log(`${r.toolName} ${JSON.stringify(r.input)} -> ${JSON.stringify(r.output)}`);
console.log(text);
await vm.dispose();
