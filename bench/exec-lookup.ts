// `npx tsx bench/exec-lookup.ts`: µs per exec lookup (executable.ts) of a userland command, as the shell
// asks for it (`/usr/local/bin/cat`, the first PATH directory) and by bare name, on the kernel's thread.
import { CommandRegistry } from "../src/commands/registry.js";
import { findExecutable } from "../src/kernel/executable.js";
import { Kernel } from "../src/kernel/kernel.js";
import { createRootLayout } from "../src/kernel/root-layout.js";
import { resolveLimits } from "../src/limits.js";

const commands = new CommandRegistry();
const kernel = new Kernel(commands, resolveLimits({}));
createRootLayout(kernel.vfs, commands);
const at = { vfs: kernel.vfs, commands, cwd: "/home/user", path: "/usr/local/bin:/usr/bin:/bin", fromShell: true };
for (const argv0 of ["/usr/local/bin/cat", "cat"]) {
  const found = findExecutable([argv0, "x"], at);
  if (found.spec.name !== "cat" || found.argv.join(" ") !== `${argv0} x`) throw new Error(`${argv0}: found ${found.spec.name}`);
  for (let i = 0; i < 20_000; i++) findExecutable([argv0, "x"], at);
  const n = 100_000;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) findExecutable([argv0, "x"], at);
  console.log(`${argv0}: ${(((performance.now() - t0) / n) * 1000).toFixed(2)} µs per lookup (${n} lookups)`);
}
await kernel.dispose();
