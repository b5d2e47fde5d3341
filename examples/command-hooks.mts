// Hooks around every command a model asks an adapter to run: refuse some, change others, see and change what
// comes back. The AI SDK's tools here; createMcpServer takes the same hooks.
// Run from the repository root: npx tsx examples/command-hooks.mts
import { AgentOs } from "agentos-vm";
import { createTools, type CommandCall, type CommandOutcome } from "agentos-vm/ai-sdk";

const vm = await AgentOs.create({ env: { API_TOKEN: "sk-0123456789abcdefghijklmn" } });

// The README's hooks example (test/examples.test.ts checks that its lines are these, in this order).
const tools = await createTools(vm, {
  // Before a command runs: return nothing to run it, a string to run that instead, or false / { refuse: "why" }.
  onBeforeCommand: ({ command }: CommandCall) => {
    if (/\brm\s+-rf\b/.test(command)) return { refuse: "rm -rf is not allowed here" };
    return `set -o pipefail; ${command}`;
  },
  // After it ran: the whole result (before outputLimit cuts it) and the command as run; return a result to
  // show the model instead, or nothing to show it as it is.
  onAfterCommand: (result: CommandOutcome, { command }: CommandCall) => {
    console.error(`audit: ${command} -> ${result.exitCode}`);
    return { ...result, stdout: result.stdout.replace(/sk-[A-Za-z0-9]{20,}/g, "[redacted]") };
  },
});

// What the model gets back: the SDK calls execute with the model's input and these (ai 7 adds `context`).
const call = { toolCallId: "call-1", messages: [], context: {} };
console.log(await tools.bash.execute({ command: "echo token=$API_TOKEN; false | true" }, call));
console.log(await tools.bash.execute({ command: "rm -rf /home/user" }, call).catch((e: Error) => e.message));
await vm.dispose();
