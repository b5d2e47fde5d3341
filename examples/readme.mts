// The README's first example, line for line (test/examples.test.ts checks that they match).
// Run from the repository root: npx tsx examples/readme.mts
// Prints: { exitCode: 0, stdout: '1\n' }
import { AgentOs } from "agentos-vm";
const vm = await AgentOs.create();
await vm.writeFile("/workspace/notes.txt", "hello\n");
const { stdout, exitCode } = await vm.exec("cd /workspace && grep -c hello notes.txt");
console.log({ exitCode, stdout }); // { exitCode: 0, stdout: '1\n' }
await vm.dispose();
