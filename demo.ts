// A short tour of a VM: files in, real commands and pipelines, results out.
import { AgentOs } from "./src/index.js";

const vm = await AgentOs.create();
const show = async (command: string, options?: Parameters<AgentOs["exec"]>[1]): Promise<void> => {
  const started = performance.now();
  const r = await vm.exec(command, options);
  const ms = (performance.now() - started).toFixed(1);
  console.log(`$ ${command}${options?.cwd ? `    (cwd ${options.cwd})` : ""}    [exit ${r.exitCode}, ${ms} ms]`);
  for (const line of r.stdout.split("\n").slice(0, -1)) console.log(`  ${line}`);
  for (const line of r.stderr.split("\n").slice(0, -1)) console.log(`  stderr: ${line}`);
};

await vm.writeFiles([
  { path: "/workspace/notes.txt", content: "hello world\nhello agent\nbye\n" },
  { path: "/workspace/src/app.ts", content: "export const answer = 42;\n// TODO: more\n" },
  { path: "/workspace/data.json", content: JSON.stringify({ users: [{ name: "ada", age: 36 }, { name: "alan", age: 41 }] }) },
]);

await show("ls /workspace && wc -l notes.txt", { cwd: "/workspace" });
await show("grep -c hello notes.txt && rg -n TODO src", { cwd: "/workspace" });
await show("cat notes.txt | tr a-z A-Z | sort -r | head -n 2", { cwd: "/workspace" });
await show("jq -r '.users[] | select(.age > 40) | .name' < /workspace/data.json");
await show("seq 1 100000 | awk '{ s += $1 } END { print s }'");
await show("mkdir -p /tmp/out && tar -czf /tmp/out/ws.tgz -C /workspace . && cd /tmp/out && tar -tzf ws.tgz | sort");
await show("for i in 1 2 3; do echo \"line $i\"; done > /tmp/loop.txt; wc -l < /tmp/loop.txt");
await show("no-such-command");

const archive = await vm.stat("/tmp/out/ws.tgz");
console.log(`\nThe API sees what the commands wrote: /tmp/out/ws.tgz is ${archive.size} bytes.`);
await vm.dispose();
